// Collecting traces of instrumented kernels (002 Sec. VI, on real GPUs instead of GPGPU-sim): our own
// versions of CUDA SDK-style kernels of Table I, each with Ipoints at its source-level basic blocks,
// run on random test vectors; the probe writes (cta, warp, ipoint, clock, sm) per warp. C++17, so
// that the CUDA sources can include it.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace warpspan::wcet {

/// What a probe writes into its warp's slice (24 bytes).
struct probe_record {
  std::uint32_t ipoint;
  std::uint32_t sm;        ///< %smid
  std::int64_t clock;      ///< %clock64 of that SM
  std::int64_t global_ns;  ///< %globaltimer
};

/// One record of a collection, keyed as in the trace format.
struct collected_record {
  std::uint32_t run, sm, cta, warp, ipoint;
  std::int64_t clock;
};

struct collect_request {
  std::string kernel;
  unsigned runs = 8;
  std::uint64_t seed = 1;
  unsigned size = 0;     ///< problem size (instrumented_kernel::default_size is a good one)
  unsigned slice = 512;  ///< records kept per warp and run; more are counted as lost
};

struct collect_result {
  std::vector<collected_record> records;
  std::int64_t probe_cost = 0;  ///< median clock difference of two empty probes back to back
  std::uint64_t lost = 0;       ///< records beyond a warp's slice (not kept)
  bool verified = false;        ///< every run's output equals the CPU's
  unsigned grid = 0, block = 0, size = 0;
};

/// An instrumented kernel: its CFG (JSON as `warpspan wcet --cfg` reads it, Ipoint i named
/// ipoints[i]) and what it computes.
struct instrumented_kernel {
  std::string name, description, cfg_json;
  std::vector<std::string> ipoints;
  unsigned default_size = 0;
};

/// The probe's records as a trace `warpspan wcet` reads (docs/wcet.md, "Trace formats"): each time
/// relative to the first record of its run on its SM (%clock64 is per SM: `# clock: sm`), each
/// Ipoint named `names[id]`, or by its id ("7") when `names` is empty, as `wcet --ptx` names the
/// probe sites it finds. An id that `names` does not name is an input_error. The text form starts
/// with `comment` (one `# ` line per line of it); the binary form carries `probe_cost` (-1: none).
std::string probe_text_trace(const std::vector<collected_record>& records, const std::string& comment,
                             const std::vector<std::string>& names = {});
std::string probe_binary_trace(const std::vector<collected_record>& records, std::int64_t probe_cost,
                               const std::vector<std::string>& names = {});

const std::vector<instrumented_kernel>& instrumented_kernels();
/// The kernel of a name; input_error naming the known ones otherwise.
const instrumented_kernel& find_instrumented_kernel(const std::string& name);

/// Runs the kernel `request.runs` times on random inputs with the probe on (CUDA backend; the stub
/// throws not_compiled). A wrong result is a cuda_error.
collect_result collect_wcet_traces(const collect_request& request);

}  // namespace warpspan::wcet
