// Device discovery. Any error from cudaGetDeviceCount (error 35 without a driver, 100 without a
// device) means "no GPU": the CPU backend then runs and GPU tests skip.
#include <cuda_runtime.h>

#include "warpspan/core/backend.hpp"

namespace warpspan {

int cuda_device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    (void)cudaGetLastError();  // clear the sticky error so later calls are not confused
    return 0;
  }
  return count;
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

}  // namespace warpspan
