// Kernel launches and dynamic shared memory, written once for nvcc and for the CPU emulation build
// (cuda/emulation/cuda_runtime.h), whose host compiler knows neither <<<...>>> nor per-block
// `extern __shared__`. Every kernel in cuda/ launches through WARPSPAN_LAUNCH and takes its dynamic
// shared memory through WARPSPAN_DYNAMIC_SHARED; on nvcc they are exactly the CUDA syntax.
#pragma once

#include <cuda_runtime.h>

#if defined(WARPSPAN_CUDA_EMULATED)
/// WARPSPAN_LAUNCH(kernel, grid, block, smem, stream)(args...) = kernel<<<grid, block, smem, stream>>>(args...)
#define WARPSPAN_LAUNCH(kernel, grid, block, smem, stream) \
  ::warpspan::emu::make_launcher(kernel, (grid), (block), (smem), (stream))
/// The block's dynamic shared memory as `T name[]`, 16-byte aligned.
#define WARPSPAN_DYNAMIC_SHARED(T, name) \
  T* const name = reinterpret_cast<T*>(::warpspan::emu::current().dynamic_shared)
#else
#define WARPSPAN_LAUNCH(kernel, grid, block, smem, stream) kernel<<<(grid), (block), (smem), (stream)>>>
#define WARPSPAN_DYNAMIC_SHARED(T, name) extern __shared__ __align__(16) T name[]
#endif
