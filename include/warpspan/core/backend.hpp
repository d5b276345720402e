// Backend selection shared by every analysis: cpu | cuda | auto.
#pragma once

#include <string>
#include <string_view>

#include "warpspan/core/error.hpp"

namespace warpspan {

enum class backend_kind { cpu, cuda, automatic };

/// Parses "cpu", "cuda" or "auto"; anything else is an input_error naming the word.
backend_kind parse_backend(std::string_view word);
std::string to_string(backend_kind kind);

/// Number of usable CUDA devices; 0 when CUDA was not compiled in, no NVIDIA driver is installed, or
/// the driver cannot serve this runtime. The last case is not "no GPU": it is named once on stderr
/// and by cuda_device_problem().
int cuda_device_count();
/// Why an installed driver gave no usable device (e.g. error 35, driver older than the runtime);
/// empty when a device answers or when there is simply no NVIDIA driver.
std::string cuda_device_problem();
/// Name of device 0, or an empty string.
std::string cuda_device_name();
/// Theoretical peak DRAM bandwidth of device 0 in GB/s (2 x memory clock x bus width), 0 if none.
double cuda_peak_bandwidth_gbs();
/// True when this build contains the CUDA backend (whether or not a device is present).
bool cuda_compiled();
/// True in the CUDA emulation build (WARPSPAN_CUDA_EMULATION): the cuda/ sources run on the CPU
/// and the backend calls itself "cuda-emulated".
bool cuda_emulated();
/// "cuda", or "cuda-emulated" in the emulation build: the name results carry.
std::string cuda_backend_name();

/// Throws unless a CUDA device answers: not_compiled without the CUDA backend, input_error
/// "WHO: no CUDA device is available" (or what is wrong with the driver, e.g. one too old for this
/// runtime) otherwise, `advice` appended. Every path that needs a device, and every CUDA call that
/// fails for want of one, says it this way (exit code 2 on the command line).
void require_cuda_device(const message& who, const message& advice = {});

/// auto -> cuda when a real device is present (not the emulation build's), else cpu; cuda without a device is an input_error that
/// says why; cpu stays cpu.
backend_kind resolve_backend(backend_kind requested);

}  // namespace warpspan
