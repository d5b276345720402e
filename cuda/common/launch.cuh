// Kernel launches and dynamic shared memory, written once for nvcc and for the CPU emulation build
// (cuda/emulation/cuda_runtime.h), whose host compiler knows neither <<<...>>> nor per-block
// `extern __shared__`. Every kernel in cuda/ launches through WARPSPAN_LAUNCH and takes its dynamic
// shared memory through WARPSPAN_DYNAMIC_SHARED; on nvcc they are exactly the CUDA syntax.
#pragma once

#include <cuda_runtime.h>

#if defined(WARPSPAN_CUDA_EMULATED)
/// WARPSPAN_LAUNCH(kernel, grid, block, smem, stream)(args...) = kernel<<<grid, block, smem, stream>>>(args...)
#define WARPSPAN_LAUNCH(kernel, grid, block, smem, stream) \
  ::warpspan::emu::make_launcher(kernel, (grid), (block), (smem), (stream), #kernel)
/// The block's dynamic shared memory as `T name[]`, 16-byte aligned.
#define WARPSPAN_DYNAMIC_SHARED(T, name) T* const name = reinterpret_cast<T*>(::warpspan::emu::current().dynamic_shared)
#define WARPSPAN_CHECK_LAUNCH_BOUNDS(max_threads) \
  if (!::warpspan::emu::within_launch_bounds(max_threads)) return
#else
#define WARPSPAN_LAUNCH(kernel, grid, block, smem, stream) kernel<<<(grid), (block), (smem), (stream)>>>
#define WARPSPAN_DYNAMIC_SHARED(T, name) extern __shared__ __align__(16) T name[]
#define WARPSPAN_CHECK_LAUNCH_BOUNDS(max_threads) static_cast<void>(0)
#endif
// WARPSPAN_CHECK_LAUNCH_BOUNDS(N) is the first statement of a kernel declared __launch_bounds__(N, ...):
// the device refuses a launch of more than N threads a block (cudaErrorLaunchOutOfResources), and
// the emulation, whose __launch_bounds__ expands to nothing, learns the bound here and refuses it too.
