// Error checking for CUDA runtime calls and launches (raft cuda_rt_essentials, cuco detail/error).
// Public: the probe (warpspan/wcet/probe.cuh) uses it, and so do the kernels in cuda/. Messages name
// the failing call and the error, never a source path: they are for users.
#pragma once

#include <cuda_runtime.h>

#include <cstdio>
#include <string>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"

namespace warpspan::cuda_detail {
[[noreturn]] inline void throw_cuda_error(cudaError_t err, const char* call) {
  // No device, or a driver that cannot serve this runtime: the user's machine, not a bug. Said as
  // every command says it (an input_error, exit code 2).
  if (err == cudaErrorNoDevice || err == cudaErrorInsufficientDriver) require_cuda_device(call);
  throw cuda_error(std::string("CUDA error ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) + ") in " +
                   call);
}
}  // namespace warpspan::cuda_detail

/// Throws warpspan::cuda_error naming the call and the error (input_error when there is no device).
#define WARPSPAN_CUDA_TRY(call)                                                                        \
  do {                                                                                                 \
    const cudaError_t warpspan_err_ = (call);                                                          \
    if (warpspan_err_ != cudaSuccess) ::warpspan::cuda_detail::throw_cuda_error(warpspan_err_, #call); \
  } while (0)

/// For destructors: reports on stderr instead of throwing.
#define WARPSPAN_CUDA_TRY_NO_THROW(call)                                                           \
  do {                                                                                             \
    const cudaError_t warpspan_err_ = (call);                                                      \
    if (warpspan_err_ != cudaSuccess)                                                              \
      std::fprintf(stderr, "warpspan: %s failed: %s\n", #call, cudaGetErrorString(warpspan_err_)); \
  } while (0)

/// After every launch: launch-configuration errors now, execution errors at the next sync.
#define WARPSPAN_CUDA_CHECK_LAST() WARPSPAN_CUDA_TRY(cudaGetLastError())
