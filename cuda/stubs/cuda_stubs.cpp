// Built instead of cuda/*.cu when CUDA is off (Ginkgo's device_hooks): the same entry points, a
// clear not_compiled error, and no device.
#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {

int cuda_device_count() { return 0; }
std::string cuda_device_name() { return {}; }
bool cuda_compiled() { return false; }
bool cuda_emulated() { return false; }
std::string cuda_device_problem() { return {}; }
double cuda_peak_bandwidth_gbs() { return 0; }

std::unique_ptr<chain_runner> make_cuda_runner(const chain_setup&) {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}

cuda_chain_plan plan_cuda_chains(const problem_view&, std::optional<chain_packing>, std::optional<chain_design>) {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}

}  // namespace warpspan
