// What the kernels' launch plans ask of the current device (its SMs, shared memory, free memory),
// asked in one place (cuda/common/device.cu), and the opt-in to more than 48 KiB of dynamic shared
// memory a block.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

#include "common/cuda_check.cuh"

namespace warpspan {

struct device_facts {
  int sms = 0;                   ///< streaming multiprocessors
  std::size_t shared_optin = 0;  ///< most dynamic shared memory a block may opt in to (227 KiB on an H100)
  std::size_t free_bytes = 0;    ///< free device memory when asked (with `memory`)
};

/// The current device's facts; its free memory too with `memory` (cudaMemGetInfo).
device_facts query_device(bool memory = true);
/// Free device memory now.
std::size_t free_device_bytes();

/// The dynamic shared memory a block may have without opting in.
inline constexpr std::size_t default_dynamic_shared = 48 * 1024;

/// Lets `kernel` take `smem` bytes of dynamic shared memory: nothing to do up to 48 KiB; beyond, its
/// limit is raised where the device's opt-in allows. False (nothing changed) where it does not. The
/// limit goes to the device's whole opt-in, not to `smem`: host threads that launch the kernel at
/// once (a dbf stream's two chunks in flight) each raise it, and a limit set to one's `smem` could
/// fall below the other's between its raising and its launch. A larger limit costs nothing: a
/// launch's occupancy follows the shared memory it asks for.
template <class Kernel>
[[nodiscard]] bool allow_dynamic_shared(Kernel* kernel, std::size_t smem) {
  if (smem <= default_dynamic_shared) return true;
  const std::size_t optin = query_device(false).shared_optin;
  if (smem > optin) return false;
  WARPSPAN_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(optin)));
  return true;
}

}  // namespace warpspan
