// Device discovery. "No GPU" (no NVIDIA driver installed, or cudaErrorNoDevice) is quiet: the CPU
// backend runs. A driver that is there but cannot serve this runtime (error 35: too old for CUDA
// 13; or any other error) is not "no GPU": it is named once on stderr, and asking for the cuda backend says it.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <system_error>
#include <filesystem>

#include "common/device.cuh"
#include "common/stream.cuh"
#include "warpspan/core/backend.hpp"

namespace warpspan {

namespace {

struct discovery {
  int count = 0;
  std::string problem;  // why an installed driver gave no device; empty when fine or no driver
};

[[maybe_unused]] bool nvidia_driver_installed() {
  std::error_code ec;
  return std::filesystem::exists("/proc/driver/nvidia/version", ec) || std::filesystem::exists("/dev/nvidiactl", ec);
}

const discovery& discover() {
  static const discovery d = [] {
    discovery r;
    int count = 0;
    const cudaError_t err = cudaGetDeviceCount(&count);
    if (err == cudaSuccess) {
      r.count = count;
      return r;
    }
    (void)cudaGetLastError();  // clear the error so later calls are not confused
#if !defined(WARPSPAN_CUDA_EMULATED)
    if (err == cudaErrorNoDevice) return r;
    if (err == cudaErrorInsufficientDriver && !nvidia_driver_installed()) return r;  // no driver at all
#endif
    r.problem = std::string("the CUDA device is unusable: ") + cudaGetErrorName(err) + " (" + cudaGetErrorString(err) +
                ")" + (err == cudaErrorInsufficientDriver ? "; the NVIDIA driver is older than CUDA 13 needs" : "");
    return r;
  }();
  return d;
}

}  // namespace

int cuda_device_count() {
  const discovery& d = discover();
  if (!d.problem.empty()) {
    static std::once_flag said;
    std::call_once(said, [&] { std::fprintf(stderr, "warpspan: %s; using the CPU\n", d.problem.c_str()); });
  }
  return d.count;
}

std::string cuda_device_problem() { return discover().problem; }

device_facts query_device(bool memory) {
  device_facts d;
  int device = 0, optin = 0;
  WARPSPAN_CUDA_TRY(cudaGetDevice(&device));
  WARPSPAN_CUDA_TRY(cudaDeviceGetAttribute(&d.sms, cudaDevAttrMultiProcessorCount, device));
  WARPSPAN_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  d.shared_optin = static_cast<std::size_t>(optin);
  if (memory) d.free_bytes = free_device_bytes();
  return d;
}

std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  WARPSPAN_CUDA_TRY(cudaMemGetInfo(&free, &total));
  return free;
}

std::string cuda_device_name() {
  if (cuda_device_count() == 0) return {};
  cudaDeviceProp prop{};
  if (cudaGetDeviceProperties(&prop, 0) != cudaSuccess) return {};
  return prop.name;
}

double cuda_peak_bandwidth_gbs() {
  if (cuda_device_count() == 0) return 0;
  int clock_khz = 0, bus_bits = 0;
  if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, 0) != cudaSuccess ||
      cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, 0) != cudaSuccess)
    return 0;
  return 2.0 * clock_khz * 1e3 * (bus_bits / 8.0) / 1e9;  // double data rate
}

bool cuda_compiled() { return true; }

void keep_freed_device_memory() noexcept {
  static std::once_flag once;
  std::call_once(once, [] {
    int device = 0;
    cudaMemPool_t pool = nullptr;
    std::size_t free = 0, total = 0;
    if (cudaGetDevice(&device) != cudaSuccess || cudaDeviceGetDefaultMemPool(&pool, device) != cudaSuccess ||
        cudaMemGetInfo(&free, &total) != cudaSuccess) {
      (void)cudaGetLastError();  // no device: the caller's own call says so
      return;
    }
    std::uint64_t keep = std::min<std::uint64_t>(std::uint64_t{1} << 30, total / 16);
    if (cudaMemPoolSetAttribute(pool, cudaMemPoolAttrReleaseThreshold, &keep) != cudaSuccess) (void)cudaGetLastError();
  });
}

bool cuda_emulated() {
#if defined(WARPSPAN_CUDA_EMULATED)
  return true;
#else
  return false;
#endif
}

}  // namespace warpspan
