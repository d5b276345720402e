// The host orchestrator of the annealing estimate: plans chains and rounds within an iteration or
// time budget, keeps the envelope of the best makespan over time (000 Fig. 12), validates GPU
// chains against the CPU on request, and returns the worst schedule found.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

struct estimate_options {
  std::uint32_t chains = 0;  ///< 0: a default for the backend (CPU 2 per thread; GPU: the chains it keeps resident)
  std::uint64_t iterations = 200000;  ///< per chain; also the length of the cooling schedule
  double seconds = 0;                 ///< wall-clock budget of run_estimate, set-up included; 0 = none
  /// With `seconds`: the cooling schedule follows the budget (re-planned every round from the speed
  /// measured), so the chains are cold when it ends; `iterations` is then only an upper limit.
  bool fit_to_seconds = false;
  std::uint64_t seed = 1;
  double t0 = 0.01;         ///< initial temperature (000 VIII used 0.3: far too hot here, see docs/makespan.md)
  std::uint32_t reach = 0;  ///< largest swap distance; 0: 4 W; W x I or more: the whole string
  /// The share of moves (0..1, in steps of 1/2048) whose distance is drawn over the whole string
  /// regardless of `reach`: a few long moves let small W restructure the string, which 4 W alone
  /// could not (Voronoi W = 4 ended at 44 < T(4) = 45); 1/4 chosen on the makespan corpus
  /// (bench/results/archive/defaults/corpus_*.json, docs/makespan.md).
  double far_moves = 0.25;
  std::optional<initial_kind> init;  ///< nullopt: the mix of chain_initial_kind across chains (000 VIII, issue 26)
  /// The beam search behind the chains that start from it (initial_kind::beam): with fit_to_seconds
  /// and `seconds`, one beam fitted to this share of `seconds` (budget_beam);
  /// otherwise one beam of `beam_width` (the same string every run, so shards merge alike), cut
  /// to one state per sum when `seconds` is set and its share runs out.
  double beam_share = 0.4;
  std::uint32_t beam_width = 1024;
  backend_kind backend = backend_kind::automatic;
  int threads = 0;             ///< CPU threads; 0 = all cores (resolve_threads: at most 4 per core)
  std::uint32_t validate = 0;  ///< re-run this many chains on the CPU and compare
  /// A slice of the chains (--shard i/N, or MPI rank i of N): only chains
  /// [slice * chains / slices, (slice + 1) * chains / slices) run here; a chain's trajectory
  /// depends on its id alone, so the slices together are the whole run.
  std::uint32_t slice = 0;
  std::uint32_t slices = 1;
  /// With ranks (MPI): the slice is this rank's, the default chain count the sum of the ranks'
  /// defaults, and every round the ranks agree on the best makespan (lowest chain id among
  /// equals), on stopping and on the clock (rank 0's), so the result is the whole run's.
  rank_group* ranks = nullptr;
};

struct envelope_point {
  double seconds = 0;
  std::uint32_t best = 0;
};

/// The order of a run's chains by what they found: a chain whose best makespan is `best` (chain id
/// `chain`) beats the one held when its makespan is higher, or equal from a lower chain id. One
/// process's chains, MPI's ranks and `merge`'s shards all pick the run's best by it.
constexpr bool chain_beats(std::uint32_t best, std::uint32_t chain, std::uint32_t held_best, std::uint32_t held_chain) {
  return best > held_best || (best == held_best && chain < held_chain);
}

struct estimate_result {
  std::uint32_t best_makespan = 0;
  std::uint64_t upper_bound = 0;
  std::uint64_t iterations = 0;            ///< done, all chains together
  std::uint64_t iterations_per_chain = 0;  ///< done by every chain (a stop within a round leaves some chains more)
  std::uint64_t iterations_planned = 0;    ///< per chain, the cooling schedule's length at the end
  double elapsed_s = 0;                    ///< wall time of the search (after set-up)
  double setup_s = 0;
  std::string backend;
  std::uint32_t chains = 0;
  /// The chains set up and run (all ranks): fewer than `chains` where the set-up was stopped by its
  /// share of `seconds` (half of what the beam left) or by an interrupt; the first of each slice run.
  std::uint32_t chains_run = 0;
  bool time_limited = false;  ///< stopped by --seconds before the iterations were done
  bool interrupted = false;   ///< stopped by SIGINT/SIGTERM (interrupted()); the result so far
  std::vector<envelope_point> envelope;
  std::vector<std::uint16_t> best_string;  ///< 0-based warp ids
  std::uint32_t best_chain = 0;
  initial_kind best_chain_init = initial_kind::round_robin;
  built_schedule schedule;
  std::uint32_t validated = 0;    ///< chains re-run on the CPU and found identical
  std::uint32_t chain_begin = 0;  ///< the slice of chains run here: [chain_begin, chain_end)
  std::uint32_t chain_end = 0;
  std::uint64_t rounds = 0;  ///< rounds run (with ranks: agreements)
  /// How the chains ran on the GPU (backend cuda; this process's chains): the kernel's design, its
  /// launch, and how it fills the device at the occupancy calculator's residency.
  struct cuda_launch {
    bool used = false;
    chain_design design = chain_design::thread;   ///< a thread a chain, or a warp a chain (chains.hpp)
    bool on_chip = false;                         ///< working state in shared memory, else global memory
    chain_packing packing = chain_packing::wide;  ///< the chains' element widths (chains.hpp)
    unsigned block = 0;                           ///< threads a block (a chain a thread, or 32: a chain a block)
    std::uint32_t blocks = 0;                     ///< of this launch
    std::uint32_t sms = 0;
    unsigned resident_threads_per_sm = 0;  ///< the occupancy calculator's, registers and shared memory included
    std::uint32_t resident_chains = 0;     ///< all SMs (within memory): the default chain count
    std::size_t chain_bytes = 0;           ///< a chain's state on the device (working state and best string)
    std::size_t shared_bytes = 0;          ///< dynamic shared memory a block
  } cuda;
  /// The beam search, when a chain here starts from it (in the set-up time).
  struct beam_summary {
    bool ran = false;
    bool applicable = false;  ///< else the beam chains started from the starved string
    std::uint32_t makespan = 0;
    std::uint32_t width = 0;  ///< of the beam that found it
    std::uint64_t expanded = 0;
    bool exact = false;  ///< it pruned nothing: makespan is T(W)
    double seconds = 0;
  } beam;
};

/// Called after every round: seconds so far, iterations done, iterations planned, best so far.
using progress_fn = std::function<void(double, std::uint64_t, std::uint64_t, std::uint32_t)>;

/// The kind of chain `index` under `options.init` (mix: rr, fp, beam, starve, mpwf, random in turn).
initial_kind chain_initial_kind(const estimate_options& options, std::uint32_t index);

/// The annealing parameters run_estimate gives every chain of `p` (seed, cooling length, T0, reach
/// with its default of 4 W, the share of far moves), before a time budget re-plans the cooling.
anneal_params chain_params(const problem_view& p, const estimate_options& options);

/// The first strings of the chains `ids` (concatenated) as run_estimate starts them without a time
/// budget: by chain_initial_kind, random ones from `options.seed`, the beam chains' from one beam of
/// `options.beam_width` (the starved string where the beam does not apply).
std::vector<std::uint16_t> chain_initial_strings(const problem& prob, const estimate_options& options,
                                                 const std::vector<std::uint32_t>& ids);

/// Runs the search on `prob`. Rounds start at one iteration per chain and grow towards 0.05 s, so
/// with `seconds` the run (set-up, rounds and the final rebuild) ends about then; between rounds and
/// between chains it also stops on interrupted(). Throws input_error for impossible options,
/// validation_error when a validated chain differs between backends.
estimate_result run_estimate(const problem& prob, const estimate_options& options, const progress_fn& progress = {});

}  // namespace warpspan
