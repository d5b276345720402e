// The inputs CUDA entry point when CUDA is off: a clear not_compiled error.
#include "warpspan/core/error.hpp"
#include "warpspan/inputs/gpu.hpp"

namespace warpspan::inputs {

std::vector<gpu_timing> cuda_time_builtin(int, std::uint32_t, const std::vector<gpu_launch_input>&, std::uint64_t,
                                          output_range, int) {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available); use " +
                     param("fitness", "model"));
}

}  // namespace warpspan::inputs
