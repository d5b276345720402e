// The CUDA exact search when CUDA is off: a clear not_compiled error.
#include "warpspan/core/error.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan {

exact_result exact_frontier_cuda(const problem&, const frontier_options&) {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}

exact_result exact_sweep_cuda(const problem&, const sweep_options&) {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}

exact_result exact_dense_cuda(const problem&, const dense_options&) {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}

std::uint64_t dense_sweep_device_bytes(const problem& prob) { return dense_sweep_bytes(prob); }

bool dense_sweep_fits_device(const problem&, const exact_options&) { return false; }

exact_result exact_dense_window_cuda(const problem&, const dense_options&) {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}

std::uint64_t dense_window_device_bytes(const problem&) { return ~std::uint64_t{0}; }

bool dense_window_fits_device(const problem&, const exact_options&) { return false; }

}  // namespace warpspan
