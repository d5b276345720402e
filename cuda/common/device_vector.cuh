// warpspan::device_vector: a thrust::device_vector whose storage comes from cudaMalloc and goes back
// with cudaFree (a counting allocator). On a device that is the memory Thrust's default allocator
// takes too; in the CUDA emulation build (Thrust on its CPP system, whose default allocator is the
// host's) it goes through the emulated runtime, so that the emulated device's size
// (emu::set_memory_limit), its free memory (cudaMemGetInfo) and injected failures
// (WARPSPAN_EMU_FAIL=cudaMalloc:2) count the vectors as they count every other device allocation.
// A failed allocation is a std::bad_alloc, as from Thrust's own allocator.
#pragma once

#include <cuda_runtime.h>
#include <thrust/device_allocator.h>
#include <thrust/device_vector.h>

#include <cstddef>
#include <new>

namespace warpspan {

template <class T>
struct cuda_allocator : thrust::device_allocator<T> {
  using base = thrust::device_allocator<T>;
  using pointer = typename base::pointer;
  using size_type = typename base::size_type;
  template <class U>
  struct rebind {
    using other = cuda_allocator<U>;
  };

  // Host only, as Thrust's device_allocator (whose implicit members would be __host__ __device__).
  __host__ cuda_allocator() {}
  __host__ cuda_allocator(const cuda_allocator& other) : base(other) {}
  template <class U>
  __host__ cuda_allocator(const cuda_allocator<U>&) {}
  __host__ ~cuda_allocator() {}
  cuda_allocator& operator=(const cuda_allocator&) = default;

  __host__ pointer allocate(size_type n) {
    void* p = nullptr;
    if (n > 0 && cudaMalloc(&p, n * sizeof(T)) != cudaSuccess) {
      (void)cudaGetLastError();  // the failure is the exception, not a sticky error for the next check
      throw std::bad_alloc();
    }
    return pointer(static_cast<T*>(p));
  }
  __host__ void deallocate(pointer p, size_type) noexcept {
    if (T* raw = thrust::raw_pointer_cast(p)) (void)cudaFree(raw);
  }
};

template <class T>
using device_vector = thrust::device_vector<T, cuda_allocator<T>>;

}  // namespace warpspan
