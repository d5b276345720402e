// One macro for code that both the host compiler and nvcc compile (raft core/detail/macros.hpp,
// stdgpu platform.h). Outside nvcc it expands to nothing, so .hpp files stay plain C++.
#pragma once

#if defined(__CUDACC__)
#define WARPSPAN_HD __host__ __device__
#define WARPSPAN_HD_INLINE __host__ __device__ __forceinline__
#elif defined(WARPSPAN_EMU_KERNEL_SOURCE)
// The CUDA emulation build's kernel sources (traced for its race checker): forced inline as nvcc
// does, so that the kernels run their own traced copies (see CMakeLists.txt).
#define WARPSPAN_HD
#define WARPSPAN_HD_INLINE inline __attribute__((always_inline))
#else
#define WARPSPAN_HD
#define WARPSPAN_HD_INLINE inline
#endif
