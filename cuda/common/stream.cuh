// RAII for a CUDA stream and a pair of events that time work on it.
#pragma once

#include <cuda_runtime.h>

#include "common/cuda_check.cuh"

namespace warpspan {

/// Once a process: the device's stream-ordered pool (every device_buffer's cudaMallocAsync) keeps
/// up to 1 GiB (a sixteenth of a smaller device) of freed memory across synchronisations instead of
/// unmapping it at each one, so that the calls of a batch or sweep reuse their predecessors' buffers
/// rather than map them afresh (issue 43, item 1). Quiet when the device or runtime says no.
void keep_freed_device_memory() noexcept;

class cuda_stream {
 public:
  cuda_stream() {
    keep_freed_device_memory();
    WARPSPAN_CUDA_TRY(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking));
  }
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

/// A CUDA event, destroyed with its owner.
class cuda_event {
 public:
  cuda_event() { WARPSPAN_CUDA_TRY(cudaEventCreate(&event_)); }
  ~cuda_event() { WARPSPAN_CUDA_TRY_NO_THROW(cudaEventDestroy(event_)); }
  cuda_event(const cuda_event&) = delete;
  cuda_event& operator=(const cuda_event&) = delete;
  cudaEvent_t get() const noexcept { return event_; }

 private:
  cudaEvent_t event_ = nullptr;
};

/// Records a start event on construction; elapsed_ms() records the stop and waits for it. Each event
/// is its own member, so that a create or record that throws leaves none behind.
class cuda_timer {
 public:
  explicit cuda_timer(cudaStream_t stream) : stream_(stream) {
    WARPSPAN_CUDA_TRY(cudaEventRecord(start_.get(), stream_));
  }
  cuda_timer(const cuda_timer&) = delete;
  cuda_timer& operator=(const cuda_timer&) = delete;
  float elapsed_ms() {
    WARPSPAN_CUDA_TRY(cudaEventRecord(stop_.get(), stream_));
    WARPSPAN_CUDA_TRY(cudaEventSynchronize(stop_.get()));
    float ms = 0;
    WARPSPAN_CUDA_TRY(cudaEventElapsedTime(&ms, start_.get(), stop_.get()));
    return ms;
  }

 private:
  cudaStream_t stream_;
  cuda_event start_, stop_;
};

}  // namespace warpspan
