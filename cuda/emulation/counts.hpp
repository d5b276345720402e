// The emulation's memory-request counter (counts.cpp) as the runtime (runtime.cpp) and the tracing
// callbacks (racecheck.cpp) drive it. Kernels and tests use warpspan::emu::set_counting / counts()
// (cuda_runtime.h).
#pragma once

#include <cstddef>
#include <cstdint>

#include "racecheck.hpp"

namespace warpspan::emu::counting {

enum class access_kind : unsigned char { load, store, atomic };

/// Non-null while the calling OS thread runs a block of a counted launch.
extern constinit thread_local struct block_counter* tls_counter;

/// Starts counting a launch of `kernel` whose device memory is `device`.
void begin_launch(const char* kernel, race::ranges device);
/// Adds the launch's counts to its kernel's.
void end_launch();
/// The calling OS thread now runs a block whose shared memory is [shared, shared + bytes).
/// `block_index`: the block's linear index in its grid (the cache model interleaves the blocks' sectors by it).
void begin_block(const unsigned char* shared, std::size_t bytes, unsigned threads, bool warps_contiguous,
                 std::size_t block_index);
void end_block();
/// A warp collective (__syncwarp, __ballot_sync, ...) by lane `lane` of the block: counted once a
/// warp (by its first lane).
void collective(unsigned lane) noexcept;
/// One traced access of the calling emulated thread; `site` is the instruction's return address.
void access(const void* address, std::size_t bytes, access_kind kind, const void* site) noexcept;

}  // namespace warpspan::emu::counting
