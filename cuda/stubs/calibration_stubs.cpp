// Built instead of cuda/calibration/micro_kernels.cu when CUDA is off.
#include "warpspan/core/calibration.hpp"
#include "warpspan/core/error.hpp"

namespace warpspan {

namespace {
[[noreturn]] void no_cuda() {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}
}  // namespace

calibration_point cuda_pointer_chase(const std::vector<std::uint32_t>&, chase_memory, std::uint32_t, bool) {
  no_cuda();
}
calibration_point cuda_scattered_sectors(std::size_t, std::uint32_t, std::uint32_t, std::uint32_t) { no_cuda(); }
calibration_point cuda_launch_gap(std::uint32_t, std::uint32_t, std::uint32_t, bool) { no_cuda(); }
calibration_point cuda_copy_rate(std::size_t, bool, std::uint32_t) { no_cuda(); }
calibration_point cuda_warp_collectives(std::uint32_t, bool) { no_cuda(); }

}  // namespace warpspan
