// In the CUDA emulation build (WARPSPAN_CUDA_EMULATION_BUILD), tests can look inside the emulated
// runtime (cuda/emulation/runtime.cpp): count live streams and allocations, shrink the device's
// memory.
#pragma once

#include <cstddef>

#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
namespace warpspan::emu {
std::size_t live_streams();
std::size_t allocation_count();
void set_memory_limit(std::size_t bytes);
std::size_t live_events();
}  // namespace warpspan::emu
#endif
