// Device memory owned by RAII, modelled on rmm::device_uvector: uninitialised storage for trivially
// copyable T, tied to a stream, movable and not copyable. No raw cudaMalloc outside this class.
// Public: the probe's buffers (warpspan/wcet/probe.cuh) are device_buffers.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <type_traits>
#include <utility>
#include <vector>

#include "warpspan/detail/cuda/cuda_check.cuh"

namespace warpspan {

template <class T>
class device_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "device_buffer holds trivially copyable types only");

 public:
  device_buffer() = default;
  device_buffer(std::size_t size, cudaStream_t stream) : size_(size), stream_(stream) {
    if (size_ > 0) WARPSPAN_CUDA_TRY(cudaMallocAsync(reinterpret_cast<void**>(&data_), bytes(), stream_));
  }
  device_buffer(const std::vector<T>& host, cudaStream_t stream) : device_buffer(host.size(), stream) {
    copy_from_host(host.data(), host.size());
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  device_buffer(device_buffer&& o) noexcept { swap(o); }
  device_buffer& operator=(device_buffer&& o) noexcept {
    device_buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~device_buffer() {
    if (data_) WARPSPAN_CUDA_TRY_NO_THROW(cudaFreeAsync(data_, stream_));
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }
  std::size_t bytes() const noexcept { return size_ * sizeof(T); }
  cudaStream_t stream() const noexcept { return stream_; }

  void copy_from_host(const T* src, std::size_t count, std::size_t offset = 0) {
    WARPSPAN_CUDA_TRY(cudaMemcpyAsync(data_ + offset, src, count * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }
  void copy_to_host(T* dst, std::size_t count, std::size_t offset = 0) const {
    WARPSPAN_CUDA_TRY(cudaMemcpyAsync(dst, data_ + offset, count * sizeof(T), cudaMemcpyDeviceToHost, stream_));
    WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }
  std::vector<T> to_host() const {
    std::vector<T> out(size_);
    if (size_ > 0) copy_to_host(out.data(), size_);
    return out;
  }

 private:
  void swap(device_buffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
    std::swap(stream_, o.stream_);
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
  cudaStream_t stream_ = nullptr;
};

/// Page-locked host memory owned by RAII (cudaMallocHost / cudaFreeHost): a copy between it and the
/// device runs at the bus's speed without the driver's staging through a pinned bounce buffer.
/// Uninitialised, movable, not copyable; for the buffers a run keeps (dbf_workspace), not for every
/// call (pinning is slow).
template <class T>
class pinned_buffer {
  static_assert(std::is_trivially_copyable_v<T>, "pinned_buffer holds trivially copyable types only");

 public:
  pinned_buffer() = default;
  explicit pinned_buffer(std::size_t size) : size_(size) {
    if (size_ > 0) WARPSPAN_CUDA_TRY(cudaMallocHost(reinterpret_cast<void**>(&data_), size_ * sizeof(T)));
  }
  pinned_buffer(const pinned_buffer&) = delete;
  pinned_buffer& operator=(const pinned_buffer&) = delete;
  pinned_buffer(pinned_buffer&& o) noexcept { swap(o); }
  pinned_buffer& operator=(pinned_buffer&& o) noexcept {
    pinned_buffer tmp(std::move(o));
    swap(tmp);
    return *this;
  }
  ~pinned_buffer() {
    if (data_) WARPSPAN_CUDA_TRY_NO_THROW(cudaFreeHost(data_));
  }

  T* data() noexcept { return data_; }
  const T* data() const noexcept { return data_; }
  std::size_t size() const noexcept { return size_; }

 private:
  void swap(pinned_buffer& o) noexcept {
    std::swap(data_, o.data_);
    std::swap(size_, o.size_);
  }
  T* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace warpspan
