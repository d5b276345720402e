// The wcet CUDA entry point when CUDA is off: a clear not_compiled error.
#include "warpspan/core/error.hpp"
#include "warpspan/wcet/collect.hpp"

namespace warpspan::wcet {

collect_result collect_wcet_traces(const collect_request&) {
  throw not_compiled(
      "wcet-collect runs instrumented CUDA kernels: the CUDA backend was not compiled into this build "
      "(configure with nvcc available, or with WARPSPAN_CUDA_EMULATION=ON to run them on the CPU)");
}

}  // namespace warpspan::wcet
