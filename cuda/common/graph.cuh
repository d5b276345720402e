// RAII for work captured from a stream once and launched as one CUDA graph.
#pragma once

#include <cuda_runtime.h>

#include <utility>

#include "common/cuda_check.cuh"

namespace warpspan {

/// The kernels and memsets that `issue()` issues to `stream`, captured (thread-local mode: other
/// threads' CUDA calls go on) and instantiated; launch() runs them all with one call, and the
/// device starts each kernel as the one before it ends, without a host round trip between them.
/// A throw from `issue()` ends the capture and discards it. The graph and its executable form are
/// destroyed with the object.
class cuda_graph {
 public:
  template <class Issue>
  cuda_graph(cudaStream_t stream, Issue&& issue) {
    WARPSPAN_CUDA_TRY(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal));
    try {
      std::forward<Issue>(issue)();
    } catch (...) {
      cudaGraph_t partial = nullptr;
      if (cudaStreamEndCapture(stream, &partial) == cudaSuccess && partial) cudaGraphDestroy(partial);
      static_cast<void>(cudaGetLastError());  // the capture's own error, if any, goes with it
      throw;
    }
    WARPSPAN_CUDA_TRY(cudaStreamEndCapture(stream, &graph_));
    if (const cudaError_t e = cudaGraphInstantiate(&exec_, graph_, 0); e != cudaSuccess) {
      cudaGraphDestroy(graph_);
      cuda_detail::throw_cuda_error(e, "cudaGraphInstantiate");
    }
  }
  ~cuda_graph() {
    WARPSPAN_CUDA_TRY_NO_THROW(cudaGraphExecDestroy(exec_));
    WARPSPAN_CUDA_TRY_NO_THROW(cudaGraphDestroy(graph_));
  }
  cuda_graph(const cuda_graph&) = delete;
  cuda_graph& operator=(const cuda_graph&) = delete;

  void launch(cudaStream_t stream) const { WARPSPAN_CUDA_TRY(cudaGraphLaunch(exec_, stream)); }

 private:
  cudaGraph_t graph_ = nullptr;
  cudaGraphExec_t exec_ = nullptr;
};

}  // namespace warpspan
