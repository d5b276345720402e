// Error checking for CUDA runtime calls and launches (raft cuda_rt_essentials, cuco detail/error).
// Public: the probe (warpspan/wcet/probe.cuh) uses it, and so do the kernels in cuda/.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "warpspan/core/error.hpp"

namespace warpspan::cuda_detail {
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call, const char* file, int line) {
  throw cuda_error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") in " +
                   call + " at " + file + ":" + std::to_string(line));
}
}  // namespace warpspan::cuda_detail

/// Throws warpspan::cuda_error naming the call, file, line and error.
#define WARPSPAN_CUDA_TRY(call)                                                          \
  do {                                                                                   \
    const cudaError_t warpspan_err_ = (call);                                            \
    if (warpspan_err_ != cudaSuccess)                                                    \
      ::warpspan::cuda_detail::throw_cuda_error(warpspan_err_, #call, __FILE__, __LINE__); \
  } while (0)

/// For destructors: reports on stderr instead of throwing.
#define WARPSPAN_CUDA_TRY_NO_THROW(call)                                                          \
  do {                                                                                            \
    const cudaError_t warpspan_err_ = (call);                                                     \
    if (warpspan_err_ != cudaSuccess)                                                             \
      std::fprintf(stderr, "warpspan: %s failed: %s (%s:%d)\n", #call, cudaGetErrorString(warpspan_err_), \
                   __FILE__, __LINE__);                                                           \
  } while (0)

/// After every launch: launch-configuration errors now, execution errors at the next sync.
#define WARPSPAN_CUDA_CHECK_LAST() WARPSPAN_CUDA_TRY(cudaGetLastError())
