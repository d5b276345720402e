// A cache of device allocations for the temporary storage of Thrust algorithms (sorts, scans,
// reductions), passed as `thrust::device(pool)`: a block freed by one call is kept and handed to the
// next call that fits, so the levels of a sweep stop allocating and freeing the same sizes over and
// over (the pattern of Thrust's custom_temporary_allocation example). Blocks are cudaMalloc'd, so
// the cache is device memory the memory checks must count as usable (cached_bytes()).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <map>
#include <new>

#include "common/cuda_check.cuh"

namespace warpspan {

class device_pool {
 public:
  using value_type = char;

  device_pool() = default;
  device_pool(const device_pool&) = delete;
  device_pool& operator=(const device_pool&) = delete;
  ~device_pool() {
    release();
    for (const auto& [ptr, bytes] : used_) WARPSPAN_CUDA_TRY_NO_THROW(cudaFree(ptr));
  }

  /// A cached block of at least `bytes` (and at most twice that, so that small requests do not
  /// pin large blocks), else a new one; when the device is out of memory the cache is freed and the
  /// allocation tried once more. Throws std::bad_alloc as Thrust expects.
  char* allocate(std::ptrdiff_t n) {
    const std::size_t bytes = n > 0 ? static_cast<std::size_t>(n) : 1;
    auto it = free_.lower_bound(bytes);
    if (it != free_.end() && it->first <= 2 * bytes) {
      char* p = it->second;
      used_.emplace(p, it->first);
      cached_ -= it->first;
      free_.erase(it);
      return p;
    }
    void* p = nullptr;
    if (cudaMalloc(&p, bytes) != cudaSuccess) {
      (void)cudaGetLastError();
      release();
      if (cudaMalloc(&p, bytes) != cudaSuccess) {
        (void)cudaGetLastError();
        throw std::bad_alloc();
      }
    }
    used_.emplace(static_cast<char*>(p), bytes);
    return static_cast<char*>(p);
  }

  void deallocate(char* p, std::size_t) {
    const auto it = used_.find(p);
    if (it == used_.end()) return;
    free_.emplace(it->second, p);
    cached_ += it->second;
    used_.erase(it);
  }

  /// Device memory held in the cache, free for the next request (or for release()).
  std::size_t cached_bytes() const noexcept { return cached_; }

  /// Gives every cached block back to the device.
  void release() noexcept {
    for (const auto& [bytes, ptr] : free_) WARPSPAN_CUDA_TRY_NO_THROW(cudaFree(ptr));
    free_.clear();
    cached_ = 0;
  }

 private:
  std::multimap<std::size_t, char*> free_;  // size -> block
  std::map<char*, std::size_t> used_;       // block -> size
  std::size_t cached_ = 0;
};

}  // namespace warpspan
