// A CPU chain's checkpoints of the schedule builder (issue 26): a rebuild whose cost does not grow
// with the suffix. The shared step (rebuild_from) takes the whole old suffix out of the usage table
// before re-placing it and, on a rejection, walks it again to put it back: two passes over half the
// string on average whatever the move changed (bench/results/archive/annealing/anneal_issue26_profile.md). Here the
// builder's state (usage table, bitsets of full cycles, every warp's progress and last cycle) is
// kept every `interval` positions; a move starts from the checkpoint at or before its first
// position, re-places until the new schedule rejoins the old one, and touches nothing after that.
// The schedules are exactly those of build_full(), so a chain's trajectory is that of
// anneal_step(). Host only: the checkpoints are many times the on-chip state the CUDA kernel keeps
// per chain.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "warpspan/makespan/problem.hpp"
#include "warpspan/makespan/schedule.hpp"

namespace warpspan {

/// Checkpoints every this many positions unless told otherwise: measured best of 16/32/64 on the
/// Voronoi case (bench/results/current/anneal_issue26_checkpoints.json).
inline constexpr std::uint32_t default_checkpoint_interval = 32;

/// The interval a chain of `p` uses: the default, doubled while the checkpoints would take more than
/// max(128 KiB, 8 x the chain's block) (a long string with a deep usage table would otherwise need
/// O(n x horizon) bytes).
std::uint32_t checkpoint_interval(const problem_view& p);

/// Bytes one chain's checkpoints take at `interval` (two slots per checkpoint, the current one and
/// the candidate's, plus the bookkeeping of a rebuild).
std::uint64_t checkpoint_bytes(const problem_view& p, std::uint32_t interval);

/// The rebuild policy of anneal_step_by() (see suffix_rebuild in anneal.hpp) for a chain stored
/// alone (chain_view). c.undo is not used; the usage table, progress and last of the view are
/// scratch between iterations (the checkpoints hold the builder's state), c.cycle and c.str are the
/// chain's schedule and string as always.
class chain_checkpoints {
 public:
  chain_checkpoints() = default;
  /// Room for the checkpoints of `p` every `interval` positions (0: checkpoint_interval(p)).
  explicit chain_checkpoints(const problem_view& p, std::uint32_t interval = 0);

  /// Takes the checkpoints of the complete schedule in c.cycle (of c.str) by replaying it, without
  /// searching. Call after c's schedule was built some other way.
  void capture(const problem_view& p, const chain_view& c);

  /// The schedule of c.str, which changed at positions z..settle only: from the checkpoint at or
  /// before z, re-placed until the builder's state equals the old one (then so does everything
  /// after it). Returns the makespan. `old_makespan` is unused (the makespan is the warps' last
  /// cycles), kept for the policy's signature.
  std::uint32_t candidate(const problem_view& p, const chain_view& c, std::uint32_t z, std::uint32_t settle,
                          std::uint32_t old_makespan);
  /// The candidate is taken: the checkpoints it passed become current.
  void accepted();
  /// The candidate is rejected: the cycles it moved go back; the checkpoints were not touched.
  void rejected(const problem_view& p, const chain_view& c, std::uint32_t z);

  std::uint32_t interval() const { return interval_; }
  /// Placements (searches) made by every candidate() so far, for the benchmark counts.
  std::uint64_t placed() const { return placed_; }

 private:
  void save(const chain_view& c, std::size_t slot);
  template <bool Limited, bool PerWarp>
  std::uint32_t candidate_as(const problem_view& p, const chain_view& c, std::uint32_t z, std::uint32_t settle);

  std::uint32_t interval_ = 0;
  std::uint32_t count_ = 0;  // checkpoints at positions 0, interval, 2 interval, ... below n
  std::uint32_t warps_ = 0;
  std::size_t cells_ = 0;                  // usage cells, (horizon + 1) x stride
  std::size_t words_ = 0;                  // bitset words of full cycles, all types (stride of them)
  std::vector<std::uint16_t> tables_;      // slot s: cells_ at s x cells_
  std::vector<std::uint64_t> full_slots_;  // slot s: words_ at s x words_
  std::vector<std::uint32_t> counters_;    // slot s: progress then last, 2 W at s x 2 W
  std::vector<std::uint8_t> live_;         // checkpoint m's current slot: 2 m + live_[m]
  // The last candidate: the checkpoints it wrote (first_ <= m < end_, in their other slots) and
  // the cycles it moved (index into c.cycle, old cycle).
  std::uint32_t first_ = 0, end_ = 0;
  std::vector<std::uint32_t> moved_at_, moved_old_;
  std::uint32_t moves_ = 0;
  std::vector<std::uint64_t> full_;     // bit t of type ty's words: cycle t has no room for ty
  std::vector<std::int16_t> delta_;     // per usage cell: new minus old count (0 between moves)
  std::vector<std::uint8_t> warp_off_;  // per warp: its last placed pair moved (0 between moves)
  std::uint64_t placed_ = 0;
};

}  // namespace warpspan
