// Shared by the CPU and CUDA level-by-level searches (host code).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "warpspan/detail/exact/dense_index.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan::exact_detail {

/// Expands one level of the level-by-level search: `next` receives the successors of every state
/// of `level` (the states reachable in exactly t cycles), sorted ascending as unsigned 128-bit keys
/// and without duplicates. Returns an empty string, or why the level could not be expanded (for
/// example the device's memory); then `next` is ignored and the search stops with that reason.
using level_expander =
    std::function<std::string(const std::vector<packed_state>& level, std::vector<packed_state>& next)>;

/// The level loop both level-by-level searches share (CPU and CUDA differ only in `expand`):
/// levels from "all at 0" until none is left, "all done" taken out of each level that holds it
/// (the last such level is the worst case), stopped by `options` (state limit, time limit) or an
/// interrupt, then finished by finish_levels. `v`: a frontier_view or a wide_frontier_view.
template <class V>
exact_result run_levels(const problem& prob, const V& v, const frontier_options& options, const level_expander& expand);
/// The same over checked_view(prob) (8-bit levels: the device's search; input_error beyond).
exact_result run_levels(const problem& prob, const frontier_options& options, const level_expander& expand);

/// Throws input_error unless the level searches take the problem: one string for all warps, one
/// block where there are barriers, and states that pack (frontier_packs; with `narrow_only`,
/// frontier_packs_narrow: 8-bit levels, what the device searches take).
void check_packs(const problem& prob, bool narrow_only);

/// The 8-bit view, after check_packs(prob, true): what the device searches take (W <= 16,
/// I <= 254; input_error beyond, naming the limits and the CPU's searches for longer kernels).
frontier_view checked_view(const problem& prob);

/// Throws input_error unless `wide` (wide_levels) is false or the problem fits
/// 16-bit levels.
void check_wide_levels(const problem& prob, bool wide);

/// Calls `f` with the problem's view after check_packs(prob, false): a frontier_view while I <=
/// 254, else a wide_frontier_view (16-bit levels, W <= 8), or that whatever I with `wide`
/// (wide_levels). Host code (the CPU searches, the beam).
template <class F>
decltype(auto) with_checked_view(const problem& prob, bool wide, F&& f) {
  check_packs(prob, false);
  check_wide_levels(prob, wide);
  if (wide || frontier_packs_wide(prob)) return f(make_wide_frontier_view(prob.view()));
  return f(make_frontier_view(prob.view()));
}

/// A schedule of `makespan` cycles through the levels (levels[t]: states after t cycles), as a
/// pseudo-precedence string ordered by cycle.
template <class V>
std::vector<std::uint16_t> witness_from_levels(const V& v, const std::vector<std::vector<packed_state>>& levels,
                                               std::uint32_t makespan);

/// Completes a level-by-level result: stopped (r.stop_reason set) -> the proven interval, with a
/// completion seen at level `last_done` as the lower bound if it beats the standard strings;
/// otherwise complete with makespan `last_done`. Either way the witness comes from the levels.
template <class V>
void finish_levels(const problem& prob, const V& v, std::vector<std::vector<packed_state>>& levels,
                   std::uint32_t last_done, exact_result& r);

/// The pseudo-precedence string of a schedule given per cycle: takes[t][k] warps leave level k in
/// cycle t + 1 (the lowest-numbered warps there).
template <class V>
std::vector<std::uint16_t> string_from_takes(const V& v, std::vector<std::vector<std::uint8_t>> takes);

/// The issue vector (warps leaving each level) of the successor of `from` equal to `to`; false when
/// `to` is not a successor.
template <class V>
bool takes_between(const V& v, packed_state from, packed_state to, std::vector<std::uint8_t>& takes);

/// The lower end a dense sweep starts from: the given lower string's schedule, or else the best of
/// the standard strings (fill_interval).
void start_interval(const problem& prob, const sweep_common_options& options, exact_result& r);

/// The witness of a dense sweep (a path of `length` cycles, as a pseudo-precedence string) from its
/// table: `entry(rank)` is the way in plus one of the multiset of that colex rank (0: not reached),
/// from the CPU's table or, a few entries at a time, the device's.
template <class V>
std::vector<std::uint16_t> dense_witness(const V& v, const dense_index& index, std::uint32_t length,
                                         const std::function<std::uint32_t(std::uint64_t)>& entry);
/// The same from entries looked up by multiset: `entry(key)` for a packed state (the device's window
/// of sums traces its schedule back so, from host copies of replayed sums).
template <class V>
std::vector<std::uint16_t> dense_witness(const V& v, std::uint32_t length,
                                         const std::function<std::uint32_t(packed_state)>& entry);

/// How a windowed dense sweep, which keeps only the sums a cycle can reach, traces a schedule back
/// when its answer beats the string in hand: the sweep is replayed once, keeping a checkpoint (the
/// window's entries) at the first sum of every segment of `span` sums; then, from the last segment
/// down, each segment is replayed from its checkpoint with every sum's entries copied to the host,
/// and the backtracking reads them there (with the first slot_count sums of the segment above: a
/// cycle reaches back across a segment's start). About two passes more; `bytes` of host memory at most.
struct window_replay_plan {
  std::uint32_t span = 0;   ///< sums a segment; 0 when no span fits the budget
  std::uint64_t bytes = 0;  ///< the checkpoints and the largest segment's entries (with the overlap)
};

/// The span of least memory for sums whose entries take `sum_bytes[s]` bytes each, a checkpoint
/// holding `slot_count` sums (the window); span 0 when even that needs more than `budget` bytes.
window_replay_plan plan_window_replay(const std::vector<std::uint64_t>& sum_bytes, std::uint32_t slot_count,
                                      std::uint64_t budget);

/// The way in plus bound at or below which a search drops a state because of options.at_most
/// (see sweep_common_options::at_most): at_most, at most the pessimistic bound, when it is above `lower`
/// (the string in hand); 0 (nothing dropped for it) otherwise.
std::uint32_t at_most_floor(const problem& prob, const sweep_common_options& options, std::uint32_t lower);

/// After a search that finished, dropping the states whose way in plus bound is at most `floor`
/// (0: none) and reaching the final state with `reached` cycles at most (0: not reached): proven
/// are max(r.lower, reached) <= T <= max(floor, reached). Sets r to the exact answer (complete,
/// makespan) when the two meet, else to that interval with at_most_proven. The caller has already
/// raised r.lower to `reached` where it could show a schedule of that length.
void settle_finished(exact_result& r, std::uint32_t floor, std::uint32_t reached);

/// For a run stopped early: lower = the best of the standard strings (or more, if r.lower already
/// holds more), upper = the pessimistic bound; best_string attains lower.
void fill_interval(const problem& prob, exact_result& r, std::uint32_t unused = 0);

}  // namespace warpspan::exact_detail
