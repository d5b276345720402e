// Microbenchmarks that calibrate the GPU model (issue 42, item 5): the latency of a dependent load
// in shared memory, L1, L2 and HBM (a pointer chase), the bandwidth of scattered 32-byte sectors
// against the warps a SM holds, the read bandwidth of L2 and HBM, and the gap between back-to-back launches (the price of a grid-wide
// barrier made of kernel boundaries). `warpspan_bench --benchmark_filter=BM_Calibrate` runs them
// (about a minute on an H100); the emulation build runs the same kernels on the CPU, where only the
// `check` values mean anything (tests/core/test_calibration.cpp compares them with the CPU's).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "warpspan/core/macros.hpp"

namespace warpspan {

/// What one calibration run measured. `check` is a value the CPU recomputes (the chase's last index,
/// the sum of what the scattered loads read), so a run that measured the wrong thing is caught.
struct calibration_point {
  double cycles_per_op = 0;  // SM clock cycles (clock64) per dependent load; 0 where not measured
  double ns_per_op = 0;      // wall time on the device (CUDA events) per load or per launch
  double bytes_per_s = 0;    // scattered sectors: 32 bytes per sector read, over kernel time
  float kernel_ms = 0;       // CUDA events around the timed kernel(s)
  std::uint64_t check = 0;
  std::uint32_t sms = 0;  // scattered sectors: the multiprocessors the launch was shaped for
};

/// Where a pointer chase's array lives: copied into the block's shared memory, or read from global
/// memory through L1 (`global`) or past it (`global_l2`, ld.global.cg: L2 or HBM).
enum class chase_memory { shared, global, global_l2 };

/// A single cycle through `elements` indices (Sattolo's shuffle, seeded, counter-based): following
/// next[i] from 0 visits every index once before it returns to 0.
std::vector<std::uint32_t> chase_cycle(std::size_t elements, std::uint64_t seed);

/// Element `i` of the scattered-sector benchmark's buffer (the device fills it, the CPU recomputes it).
WARPSPAN_HD_INLINE std::uint32_t scatter_value(std::uint64_t i) {
  return static_cast<std::uint32_t>(i * 2654435761u) ^ static_cast<std::uint32_t>(i >> 32);
}
/// The sector that thread `thread`'s `k`-th load reads, of `sectors` (a 64-bit mix, so that the
/// warps' loads land on distinct, uncorrelated sectors).
WARPSPAN_HD_INLINE std::uint64_t scatter_sector(std::uint64_t thread, std::uint32_t k, std::uint64_t sectors) {
  std::uint64_t z = thread * 0x9E3779B97F4A7C15ull + k * 0xBF58476D1CE4E5B9ull + 0x94D049BB133111EBull;
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return (z ^ (z >> 31)) % sectors;
}

/// One thread follows `next` for `steps` dependent loads from index 0; cycles and nanoseconds a load.
/// `warm`: a first run walks the whole cycle, so that the array is resident wherever it fits (shared
/// memory, L1, L2) and the timed run measures that level; cold (for footprints past L2): no first
/// run, so every load of the timed run goes to HBM. (A warm-up of only the timed path would put a
/// large array's few touched lines in L2: the 2026-11-27 H200 run's "256 MB" point measured L2.)
/// The shared variant needs the array to fit the block's shared memory (throws input_error otherwise).
calibration_point cuda_pointer_chase(const std::vector<std::uint32_t>& next, chase_memory where, std::uint32_t steps,
                                     bool warm = true);
/// The chase's last index on the CPU (what `check` must equal).
std::uint64_t pointer_chase_cpu(const std::vector<std::uint32_t>& next, std::uint32_t steps);

/// Every SM holds `warps_per_sm` warps (one block of up to 32 warps, more blocks past that); each
/// lane issues `loads` independent 4-byte loads, each in its own 32-byte sector of a buffer of
/// `bytes`, at positions scatter_sector gives. `bytes_per_s` counts 32 bytes a load. `sms` = 0: the
/// device's multiprocessor count.
calibration_point cuda_scattered_sectors(std::size_t bytes, std::uint32_t warps_per_sm, std::uint32_t loads,
                                         std::uint32_t sms = 0);
/// The sum of what cuda_scattered_sectors' loads read, on the CPU, for the same launch shape.
std::uint64_t scattered_sectors_cpu(std::size_t bytes, std::uint32_t warps_per_sm, std::uint32_t loads,
                                    std::uint32_t sms);
/// The launch shape cuda_scattered_sectors uses: threads a block and blocks in all.
struct scatter_shape {
  std::uint32_t threads = 0, blocks = 0;
};
scatter_shape scattered_sectors_shape(std::uint32_t warps_per_sm, std::uint32_t sms);

/// The lane predicate of the warp-collective chain: lane `lane`'s vote after value v.
WARPSPAN_HD_INLINE bool collective_vote(std::uint32_t v, std::uint32_t lane) {
  return (((v ^ lane) * 2654435761u) >> 13 & 1u) != 0;
}
/// One warp's chain of `steps` dependent ballots (each vote depends on the last ballot's value:
/// collective_vote), each followed by a __syncwarp when `with_sync` (what a placement of the
/// warp-a-chain annealing step pays beyond its loads: team_schedule.hpp): cycles_per_op is the
/// clocks (clock64) a step, check the last ballot's value.
calibration_point cuda_warp_collectives(std::uint32_t steps, bool with_sync);
std::uint32_t warp_collectives_cpu(std::uint32_t steps);

/// `launches` kernels of `blocks` x `threads` that do nothing but write a word, back to back on one
/// stream (with `graph`, captured once as a CUDA graph and launched as one, as cuda_dbf_table runs a
/// table's levels): ns_per_op is the device time from one launch's start to the next's. `check`
/// counts the kernels that ran (the blocks' writes).
calibration_point cuda_launch_gap(std::uint32_t launches, std::uint32_t blocks, std::uint32_t threads,
                                  bool graph = false);

/// Every SM reads a buffer of `bytes` (rounded down to 16-byte words; scatter_value's words)
/// `passes` times, coalesced, 16 bytes a load past L1 (ld.global.cg), after one untimed pass: where
/// the buffer fits L2 the timed passes read L2, else HBM. `bytes_per_s` is the bytes read over the
/// kernel time: the bandwidth the GPU model charges a load to a footprint that stays in L2 (the
/// single dbf table's 31.7 MB) against HBM's. `sms` = 0: the device's multiprocessor count (8
/// blocks of 256 threads each). `check` sums the words read.
calibration_point cuda_stream_read(std::size_t bytes, std::uint32_t passes, std::uint32_t sms = 0);
/// What cuda_stream_read's check must be: passes x the sum of the buffer's words.
std::uint64_t stream_read_cpu(std::size_t bytes, std::uint32_t passes);

/// `repeats` copies of `bytes` between page-locked host memory and the device, up (host to device)
/// or down, back to back on one stream: ns_per_op is the device time a copy (the dbf batches' copies,
/// the GPU model's copy rate). `check` sums the bytes that arrived (the last copy's, each byte its
/// index's low 8 bits) for the caller to compare with copy_check(bytes).
calibration_point cuda_copy_rate(std::size_t bytes, bool up, std::uint32_t repeats);
/// What cuda_copy_rate's check must be for `bytes`.
std::uint64_t copy_check(std::size_t bytes);

}  // namespace warpspan
