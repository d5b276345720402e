// In the CUDA emulation build (WARPSPAN_CUDA_EMULATION_BUILD), tests can look inside the emulated
// runtime (cuda/emulation/runtime.cpp): count live streams and allocations, shrink the device's
// memory.
#pragma once

#include <cstddef>
#include <cstdint>

#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
namespace warpspan::emu {
std::size_t live_streams();
std::size_t live_graphs();
std::size_t allocation_count();
std::size_t host_allocation_count();
std::size_t live_host_allocations();
std::size_t allocation_peak(bool reset);
void set_memory_limit(std::size_t bytes);
std::size_t live_events();
std::uint64_t pool_release_threshold();

/// Makes the emulated device `bytes` large for its scope (also when the code in it throws).
struct device_memory_scope {
  explicit device_memory_scope(std::size_t bytes) { set_memory_limit(bytes); }
  ~device_memory_scope() { set_memory_limit(0); }
  device_memory_scope(const device_memory_scope&) = delete;
  device_memory_scope& operator=(const device_memory_scope&) = delete;
};
}  // namespace warpspan::emu
#endif
