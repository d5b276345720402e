// One macro for code that both the host compiler and nvcc compile (raft core/detail/macros.hpp,
// stdgpu platform.h). Outside nvcc it expands to nothing, so .hpp files stay plain C++.
#pragma once

#include "warpspan/detail/core/emulation_hooks.hpp"

#if defined(__CUDACC__)
#define WARPSPAN_HD __host__ __device__
#define WARPSPAN_HD_INLINE __host__ __device__ __forceinline__
#elif defined(WARPSPAN_DETAIL_EMU_KERNEL_INLINE)
#define WARPSPAN_HD
#define WARPSPAN_HD_INLINE WARPSPAN_DETAIL_EMU_KERNEL_INLINE
#else
#define WARPSPAN_HD
#define WARPSPAN_HD_INLINE inline
#endif

// Unrolls the loop it precedes in device code (a loop over a small register array must be unrolled
// whole, or nvcc puts the array in local memory); nothing on the host.
#if defined(__CUDA_ARCH__)
#define WARPSPAN_UNROLL _Pragma("unroll")
#else
#define WARPSPAN_UNROLL
#endif
