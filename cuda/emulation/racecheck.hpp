// The race checker of the emulation (racecheck.cpp) as the runtime (runtime.cpp) drives it. Not for
// kernels: they reach it through the traced loads and stores and through note_atomic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "cuda_runtime.h"

namespace warpspan::emu::race {

/// Device allocations [begin, end), sorted by begin, as they stand when a launch starts.
using ranges = std::vector<std::pair<std::uintptr_t, std::uintptr_t>>;

/// Starts checking a launch of `kernel` whose device memory is `device`.
void begin_launch(const char* kernel, ranges device);
/// Ends the launch: its first finding, or "" when it had none.
std::string end_launch();
/// The calling OS thread now runs a block whose shared memory is [shared, shared + bytes): its
/// accesses are checked (where the kernels are traced) until end_block.
void begin_block(const unsigned char* shared, std::size_t bytes);
void end_block();
/// A finding about block `block`; the launch keeps only its first.
void report(const std::string& what, uint3 block);
/// "(x,y,z)" of the thread with index `linear` in a block of `shape` threads.
std::string thread_name(unsigned linear, dim3 shape);

}  // namespace warpspan::emu::race
