// RAII for a CUDA stream and a pair of events that time work on it.
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

namespace warpspan {

class cuda_stream {
 public:
  cuda_stream() { WARPSPAN_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking)); }
  ~cuda_stream() {
    WARPSPAN_CUDA_TRY_NO_THROW(cudaStreamSynchronize(stream_));
    WARPSPAN_CUDA_TRY_NO_THROW(cudaStreamDestroy(stream_));
  }
  cuda_stream(const cuda_stream&) = delete;
  cuda_stream& operator=(const cuda_stream&) = delete;
  cudaStream_t get() const noexcept { return stream_; }
  void sync() const { WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_)); }

 private:
  cudaStream_t stream_ = nullptr;
};

/// Records a start event on construction; elapsed_ms() records the stop and waits for it.
class cuda_timer {
 public:
  explicit cuda_timer(cudaStream_t stream) : stream_(stream) {
    WARPSPAN_CUDA_TRY(cudaEventCreate(&start_));
    WARPSPAN_CUDA_TRY(cudaEventCreate(&stop_));
    WARPSPAN_CUDA_TRY(cudaEventRecord(start_, stream_));
  }
  ~cuda_timer() {
    WARPSPAN_CUDA_TRY_NO_THROW(cudaEventDestroy(start_));
    WARPSPAN_CUDA_TRY_NO_THROW(cudaEventDestroy(stop_));
  }
  cuda_timer(const cuda_timer&) = delete;
  cuda_timer& operator=(const cuda_timer&) = delete;
  float elapsed_ms() {
    WARPSPAN_CUDA_TRY(cudaEventRecord(stop_, stream_));
    WARPSPAN_CUDA_TRY(cudaEventSynchronize(stop_));
    float ms = 0;
    WARPSPAN_CUDA_TRY(cudaEventElapsedTime(&ms, start_, stop_));
    return ms;
  }

 private:
  cudaStream_t stream_;
  cudaEvent_t start_ = nullptr;
  cudaEvent_t stop_ = nullptr;
};

}  // namespace warpspan
