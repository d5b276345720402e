// The exact worst-case makespan by search over work-conserving schedules (issue 4). Warps are
// identical, so a state is the multiset of per-warp progress (how many warps have done k
// instructions, k = 0..I), and one cycle moves it to a successor by a maximal issue set: every type
// issues min(cap, ready) warps (with a scheduler limit, as many as it allows, spread over the types
// in every way), chosen among the progress levels in every way. The worst case is the longest path
// from "all at 0" to "all at I", found by depth-first search with memoisation.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/makespan/problem.hpp"

namespace warpspan {

/// How far a stepped exact search is, after one of its steps (a progress sum of a sweep; the dense
/// sweep's ranks in thousandths): what an exact_observer is told.
struct exact_step {
  std::uint32_t done = 0;    ///< steps done
  std::uint32_t total = 0;   ///< steps in all
  std::uint64_t states = 0;  ///< states reached so far
  double elapsed_s = 0;      ///< seconds since the search began
};

/// Told after every step of a sweep, for a progress line on long runs (the depth-first and the
/// level-by-level searches tell nobody). Called on the thread that runs the search.
using exact_observer = std::function<void(const exact_step&)>;

/// What every exact search takes: when to stop, and whom to tell how far it is. A search also
/// stops on SIGINT or SIGTERM (core/interrupt.hpp: exact_result::interrupted); a stopped search
/// proves the interval [lower, upper] of its result.
struct exact_limits {
  double time_limit_s = 0;  ///< stop after this many seconds (0: none)
  exact_observer progress;  ///< the sweeps' observer (may be empty)
};

/// The depth-first search (exact_search_cpu).
struct depth_first_options : exact_limits {
  std::uint64_t max_states = 0;  ///< stop after memoising this many states (0: 50,000,000)
};

/// The level-by-level searches (exact_frontier_cpu, exact_frontier_cuda).
struct frontier_options : exact_limits {
  std::uint64_t max_states = 0;  ///< stop once the levels hold this many states in all (0: 200,000,000)
  bool wide_levels = false;      ///< the CPU's: 16-bit levels even where 8 do (as sweep_common_options)
};

/// What the two sweeps (the progress sweep, the dense sweep) take besides the limits.
struct sweep_common_options : exact_limits {
  /// A question rather than the answer: is the worst case at most this many cycles? (0: not asked.)
  /// The sweep also drops the states whose way in plus remaining bound is at most `at_most`: they
  /// lie on no schedule longer. A finished sweep then either finds a schedule longer than
  /// `at_most`, and with it the exact worst case (every state of a longer schedule was expanded),
  /// or proves the worst case at most `at_most` (exact_result::at_most_proven) without working out
  /// the exact value. Near the answer this drops a large share of the states (Voronoi W = 10, T =
  /// 104: 69 % of the states left at 109, 25 % at 114). A value at or below the lower string's
  /// makespan changes nothing; one above the pessimistic bound is taken as the bound. Checked by
  /// checked_at_most.
  std::uint32_t at_most = 0;
  /// A string known to build (for example the annealing's best); its makespan is the lower bound
  /// (default: the best of the standard initial strings). The progress sweep prunes against it;
  /// the dense sweep need not trace a schedule back when nothing beats it.
  std::vector<std::uint16_t> lower_string;
  /// CPU threads (0: all cores); checked by resolve_threads (input_error when negative or more
  /// than 4 per core). The dense sweep uses at most 2.
  int threads = 0;
  /// The CPU's sweeps: pack the states at 16 bits a level even where 8 do, as kernels past 254
  /// instructions are (at most 8 warps, W x I <= 65,535; input_error beyond). For the tests and
  /// for measuring what the wider levels cost (bench_exact's BM_ExactWideLevels); same answers.
  /// The device searches refuse it (exact_search) or ignore it.
  bool wide_levels = false;
};

/// The progress sweep (exact_sweep_cpu, exact_sweep_cuda, exact_sweep_ranks).
struct sweep_options : sweep_common_options {
  std::uint64_t max_states = 0;  ///< stop after reaching this many states (0: a default by memory)
  bool prune = true;             ///< drop states that cannot beat the lower bound
  /// States kept for backtracking a witness, at most (0: 100,000,000, about 1.8 GB, without a
  /// lower_string; none with one, which is usually the answer already). Beyond it the sweep drops
  /// them and, only if it beats the lower bound, sweeps again keeping just the states that can lie
  /// on a path as long as the answer.
  std::uint64_t witness_states = 0;
  /// The device's: a pending buffer of successors is reduced in place (sorted, one entry per
  /// state) once it holds more than this many entries (0: 2^26). Smaller values trade sorts for
  /// memory.
  std::size_t device_compact_entries = 0;
};

/// The dense sweep (exact_dense_cpu, exact_dense_cuda, exact_dense_window_cuda).
struct dense_options : sweep_common_options {
  /// The windowed sweep on a device: sums a segment when it replays itself to trace a schedule
  /// back (exact_detail::plan_window_replay; 0: the span of least host memory).
  std::uint32_t window_replay_span = 0;
};

/// exact_search's options: it picks the algorithm, so it takes what each reads. They are the
/// progress sweep's (`max_states` is also the depth-first and the level-by-level searches' limit,
/// and any `max_states` asks for the progress sweep over the dense one) and the dense window's
/// replay span; each algorithm is handed its share. The faces (CLI, Python) fill this one.
struct exact_options : sweep_options {
  std::uint32_t window_replay_span = 0;  ///< dense_options::window_replay_span

  /// The share of each algorithm.
  dense_options dense() const {
    dense_options d;
    static_cast<sweep_common_options&>(d) = *this;
    d.window_replay_span = window_replay_span;
    return d;
  }
  frontier_options frontier() const {
    frontier_options f;
    static_cast<exact_limits&>(f) = *this;
    f.max_states = max_states;
    f.wide_levels = wide_levels;
    return f;
  }
  depth_first_options depth_first() const {
    depth_first_options d;
    static_cast<exact_limits&>(d) = *this;
    d.max_states = max_states;
    return d;
  }
};

struct exact_result {
  bool complete = false;       ///< false: stopped by a limit; only [lower, upper] is proven
  std::uint32_t makespan = 0;  ///< the exact worst case when complete
  std::uint32_t lower = 0;     ///< proven bounds (equal to makespan when complete)
  std::uint32_t upper = 0;
  std::uint64_t states = 0;  ///< distinct states memoised (progress sweep: reached)
  std::uint64_t pruned = 0;  ///< progress sweep: states dropped by the bound
  double elapsed_s = 0;
  std::string stop_reason;   ///< why an incomplete run stopped
  bool interrupted = false;  ///< stopped by SIGINT or SIGTERM (see core/interrupt.hpp)
  /// With exact_options::at_most: the search finished without finding a schedule longer than it,
  /// so upper = at_most is proven (complete is false: the exact value was not worked out; lower is
  /// the longest schedule found, the string in hand or one the search met).
  bool at_most_proven = false;
  std::vector<std::uint16_t> best_string;  ///< 0-based warp ids; builds to `makespan` (or `lower`)
};

/// Largest W the search accepts (per-level counts are bytes).
inline constexpr std::uint32_t exact_max_warps = 255;

/// sweep_common_options::at_most from a face's argument: input_error when negative or past 32 bits, or
/// with `prune` off (it drops states) or with the ILP (`ilp`: an option of the search only).
std::uint32_t checked_at_most(long long at_most, bool prune, bool ilp);

/// The CPU reference search. Throws input_error when W is over exact_max_warps.
exact_result exact_search_cpu(const problem& prob, const depth_first_options& options = {});

/// The same answer by a sweep over total progress: every cycle raises the sum of the warps'
/// progress, so the states can be taken in order of that sum, each exactly once, carrying the
/// longest known way to reach it; only the next few sums (at most the largest issue count) are
/// held as hash tables. A state whose longest way in plus `remaining_bound` cannot beat the lower
/// bound is dropped (options.prune); if nothing beats it, the lower bound is the answer and its
/// string the witness. Expanded states are kept (sorted per sum) to backtrack the witness while
/// they fit `witness_states`. `max_states` bounds the states reached. A run stopped by a limit
/// proves [lower, max over the held states of way in + bound]. The states of one sum are expanded
/// by `threads` threads, each writing successors to per-thread buffers that are then merged into
/// hash tables sharded by key, one shard per thread. The states pack (frontier_packs): at most 16
/// warps and 254 instructions at 8 bits a level, or past 254 instructions at most 8 warps with
/// W x I <= 65,535 at 16 bits a level (wide_levels forces those); input_error beyond.
exact_result exact_sweep_cpu(const problem& prob, const sweep_options& options = {});

/// The same answer by a dense sweep: one way in per multiset of progress levels, C(I + W, W) of them
/// (a byte each while the pessimistic bound is under 255, else two), indexed by colex rank, which a
/// cycle only raises (include/warpspan/detail/exact/dense_index.hpp); the ranks are taken in order, so a
/// successor costs an addition and a store instead of a hash insert. Every reached state is
/// expanded (`states`: reached; it does not prune: the bound costs more than it saves here); a
/// run stopped by the time limit or an interrupt proves [lower, max over the reached states not yet
/// taken of way in + bound]; the witness is backtracked through the table. With `threads` of 2 or
/// more, one thread sweeps while both work out the successors of the next run of ranks (more
/// threads are not used). It has no state limit: the caller checks its memory. The states pack as for exact_sweep_cpu (8- or
/// 16-bit levels); the caller checks dense_sweep_bytes.
exact_result exact_dense_cpu(const problem& prob, const dense_options& options = {});

/// The bytes the dense sweep's table takes for `prob` (saturating; 0 when the states do not pack).
std::uint64_t dense_sweep_bytes(const problem& prob);
/// Whether the CPU search takes the dense sweep: the states pack at 8 bits a level (past 254
/// instructions the hash sweep is faster: it reaches a small share of the multisets), no
/// `max_states` is asked for (that asks for the hash sweep) and the table takes at most half the
/// memory available now.
bool dense_sweep_fits(const problem& prob, const exact_options& options);
/// Whether exact_search runs the dense sweep for these arguments (then a lower string only saves
/// backtracking the witness: run_exact skips its warm start).
bool exact_search_is_dense(const problem& prob, const exact_options& options, backend_kind backend,
                           rank_group* ranks = nullptr);

/// The progress sweep on a CUDA device: each sum's states sorted and reduced by key on the device,
/// expanded by one thread per state (count, scan, write), successors appended to the buffers of the
/// sums they reach. Same answer and `states` as the CPU sweep (stubs throw not_compiled without CUDA).
exact_result exact_sweep_cuda(const problem& prob, const sweep_options& options = {});

/// The dense sweep on a CUDA device (cuda/exact/dense_kernels.cu): the CPU's table of every multiset
/// in device memory, the states of one progress sum expanded at once, one thread each, successors'
/// entries raised by compare-and-swap. Same answer and `states` as exact_dense_cpu; stopped by the
/// time limit or an interrupt, the upper end is the largest way in plus remaining bound over the
/// states it holds (a kernel over the sums past the last expanded; the pessimistic bound if that
/// scan would pass 1.1 times the limit). Stubs throw not_compiled.
exact_result exact_dense_cuda(const problem& prob, const dense_options& options = {});
/// The device memory exact_dense_cuda takes (its table in 32-bit words, and room for the rest).
std::uint64_t dense_sweep_device_bytes(const problem& prob);
/// Whether exact_dense_cuda fits: the states pack, no `max_states`, and its memory is at most 90 %
/// of the device's free memory (false without CUDA).
bool dense_sweep_fits_device(const problem& prob, const exact_options& options);

/// The dense sweep on a device holding only a window of progress sums: one slot per sum that a
/// cycle can reach from the sum being expanded (one more than the most instructions a cycle
/// issues), each entry at its multiset's index among that sum's (dense_sum_index), a slot cleared
/// once its sum is expanded. Memory: the busiest window instead of every multiset (Voronoi W = 16:
/// 6 slots of 1.09e9 entries, 6.5 GB, against 103 GB), the same work. Same answer, `states` and
/// schedule length as exact_dense_cuda; the sums behind the window are gone, so when the answer
/// beats the lower string (options.lower_string, else the standard strings) a schedule of that
/// length is traced back by replaying the sweep from checkpoints (about two passes more, host memory
/// by exact_detail::plan_window_replay: 56 GB for Voronoi W = 16). Where the host lacks that memory
/// or the time limit or an interrupt ends the replay, the result is the proven interval [lower,
/// answer] (not complete, stop_reason says why). Stubs throw not_compiled.
exact_result exact_dense_window_cuda(const problem& prob, const dense_options& options = {});
/// The device memory exact_dense_window_cuda takes (~0 when the states do not pack).
std::uint64_t dense_window_device_bytes(const problem& prob);
/// Whether exact_dense_window_cuda fits: no `max_states`, and its memory at most 90 % of the
/// device's free memory (false without CUDA).
bool dense_window_fits_device(const problem& prob, const exact_options& options);

/// What `exact --method search` runs: on the CPU, the dense sweep where its table fits
/// (dense_sweep_fits), else the progress sweep where states pack (frontier_packs: at most 16 warps
/// and 254 instructions, or 8 warps past 254 with W x I <= 65,535) and the depth-first search beyond; on CUDA, the device's dense sweep where its
/// table fits, else its window of sums where that fits, else the progress sweep on the device
/// (input_error when the build or the machine has no CUDA, or the states do not pack at 8 bits a
/// level: at most 16 warps and 254 instructions); auto is the
/// CPU (the device sweep has not been measured yet). `used` receives the algorithm's name:
/// "dense", "dense-window", "sweep" or "depth-first". With `ranks` of more than one rank (mpirun), the CPU sweep runs
/// across them (states partitioned by hash, exact_sweep_ranks); every rank gets the same result.
/// The warm start of `exact` (an annealing run first) is orchestrator/exact_run.hpp's run_exact.
exact_result exact_search(const problem& prob, const exact_options& options, backend_kind backend,
                          std::string* used = nullptr, rank_group* ranks = nullptr);

/// The same answer by levels: level t holds every state reachable in exactly t cycles (sorted,
/// without duplicates); the worst case is the last level that contains "all done". This is the
/// form the CUDA search parallelises. The states pack as for exact_sweep_cpu (input_error beyond; the
/// CUDA search: 8-bit levels only, at most 16 warps and 254 instructions);
/// `states` counts the states of all levels. The levels are kept to backtrack the witness, so
/// `max_states` bounds their total.
exact_result exact_frontier_cpu(const problem& prob, const frontier_options& options = {});
/// The level-by-level search on a CUDA device: each level expanded by one thread per state into a
/// buffer sized by a prefix sum, then sorted and deduplicated on the device (stubs throw
/// not_compiled without CUDA).
exact_result exact_frontier_cuda(const problem& prob, const frontier_options& options = {});

/// The tractable estimate of 001 eq. (42)-(43): min over y = 1..x of ceil(W / y) T(y), from exact
/// T(1..x) (t[y - 1] = T(y)). Returns the minimum and the y that attains it (smallest such y).
std::pair<std::uint64_t, std::uint32_t> tractable_estimate(std::uint64_t warps, const std::vector<std::uint32_t>& t);

}  // namespace warpspan
