// One macro for code that both the host compiler and nvcc compile (raft core/detail/macros.hpp,
// stdgpu platform.h). Outside nvcc it expands to nothing, so .hpp files stay plain C++.
#pragma once

#if defined(__CUDACC__)
#define WARPSPAN_HD __host__ __device__
#define WARPSPAN_HD_INLINE __host__ __device__ __forceinline__
#else
#define WARPSPAN_HD
#define WARPSPAN_HD_INLINE inline
#endif
