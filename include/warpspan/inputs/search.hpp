// Worst-case input search for GPU kernels (paper 004, GDivAn), in three steps:
//  1. atoms: the kernel on X = 2, 4, ... threads with recorded hooks, first on the fields' extremes
//     (all minima, all maxima, ramps over the threads); instead of GKLEE's symbolic
//     execution, the operands of compare hooks are candidate values (input-to-state correspondence,
//     as CmpLog/Redqueen in fuzzing) and inputs are mutated towards uncovered legs; an input is kept
//     as an atom when it covers a new (thread, branch, leg) or takes a new path of the X threads;
//  2. scaling: inputs for N threads as ordered concatenations of atoms, 30 % of the first
//     population special (the atoms of most instructions and most divergence, repeated);
//  3. the GA of ga.hpp over atom indices.
// `random-ga` runs the same GA from random inputs over the raw integers, `random` draws inputs;
// all three spend the same number of kernel evaluations (004 Table IV, Fig. 5).
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "warpspan/inputs/ga.hpp"
#include "warpspan/inputs/harness.hpp"
#include "warpspan/inputs/model.hpp"

namespace warpspan::inputs {

enum class search_method { gdivan, random_ga, random };
enum class fitness_kind { model, gpu };

search_method parse_method(const std::string& word);
std::string to_string(search_method m);
fitness_kind parse_fitness(const std::string& word);
std::string to_string(fitness_kind f);

/// An input for X threads found in step 1, with what it did (004 eq. 1).
struct atom {
  genome input;
  std::uint64_t instructions = 0;  ///< instr_pi: work plus atomics of all X threads
  double divergence = 0;           ///< brdiv_pi: (distinct thread paths - 1) / (X - 1) x 100
  bool extreme = false;            ///< a field extreme (all minima, all maxima, a ramp): in the first population
};

/// Branch coverage reached with X threads (004 Table III).
struct coverage_level {
  std::uint32_t threads = 0;
  std::uint32_t covered = 0;  ///< branch legs covered by some thread
  std::uint32_t legs = 0;     ///< 2 x branches
  std::uint64_t runs = 0;     ///< recorded runs spent on this level
  std::size_t atoms = 0;
};

struct atom_set {
  std::uint32_t threads = 0;  ///< X of the atoms used for scaling
  std::vector<atom> atoms;
  std::vector<coverage_level> levels;
  double coverage() const;  ///< of the last level, in [0, 1]
};

struct atom_options {
  std::uint32_t max_threads = 8;  ///< X = 2, 4, ... up to this, until every leg is covered
  std::uint64_t runs = 400;       ///< recorded runs per level
  std::size_t max_atoms = 64;     ///< atoms kept for a new path only (new legs are always kept)
  std::uint64_t seed = 1;
};

/// Step 1 for one kernel. Deterministic for a seed.
atom_set find_atoms(const kernel_harness& kernel, const atom_options& options);

/// Step 2: the raw input for `threads` threads that concatenates atoms[ids[0]] || atoms[ids[1]] ...
/// thread by thread (the last one cut where the threads end); a block's record comes from the atom
/// that holds the block's first thread.
genome scale(const atom_set& atoms, const std::vector<std::int32_t>& ids, std::uint32_t threads,
             const kernel_harness& kernel);

/// Step 2: the first GA population over atom indices, `special` of it the special individuals.
std::vector<genome> initial_population(const atom_set& atoms, std::uint32_t threads, std::uint32_t population,
                                       double special, std::uint64_t seed);

/// Default seconds a harness's worker process may go without finishing an evaluation
/// (search_options::eval_timeout_s; include/warpspan/inputs/isolated.hpp).
inline constexpr double default_eval_timeout_s = 60;

struct search_options {
  harness_ref kernel;  ///< a built-in (find_kernel) or a loaded harness (load_harness)
  std::uint32_t threads = 0;
  search_method method = search_method::gdivan;
  fitness_kind fitness = fitness_kind::model;
  model_config model;
  ga_params ga;           ///< evaluations, seed, population, ... (shared by all methods)
  double special = 0.30;  ///< share of special individuals (gdivan)
  atom_options atoms;     ///< seed taken from ga.seed
  int cpu_threads = 0;    ///< model backend: 0 = all cores
  int gpu_repetitions = 10;
  /// A loaded harness runs in worker processes: one that finishes no evaluation for this long is
  /// stopped as hung (a harness_failure).
  double eval_timeout_s = default_eval_timeout_s;
  /// Called after every batch of kernel evaluations: those done so far in this search and the best
  /// fitness so far (a progress line; may be empty).
  std::function<void(std::uint64_t evaluations, double best)> on_batch;
};

struct search_result {
  search_trace trace;          ///< best raw input, history, evaluations
  atom_set atoms;              ///< gdivan only
  std::string fitness_unit;    ///< "cycles" (model) or "ms" (gpu)
  double reached_seconds = 0;  ///< when the best was found
  double seconds = 0;          ///< the whole search
  double atom_seconds = 0;
  bool interrupted = false;  ///< stopped by Ctrl-C or SIGTERM: the best so far
  /// The harness failed (crashed, hung, threw; include/warpspan/inputs/isolated.hpp): what it did,
  /// one line naming it. The search stopped there; the rest of the result is what it had.
  std::string failure;
  genome failing_input;  ///< the raw input it failed on, when one evaluation is to blame
};

/// The options of `inputs` as the command line (and the Python module) take them, with its
/// defaults; make_search_options checks them as `inputs` does (input_error with its messages).
struct search_request {
  std::string kernel;   ///< a built-in's name, or
  std::string harness;  ///< the path of a harness library (exactly one of the two)
  std::string method = "gdivan", fitness = "model", sm = "kepler-3.5";
  std::optional<std::int64_t> threads;  ///< default: the kernel's
  std::int64_t evaluations = 2000, population = 100, patience = 2, atom_threads = 8, atom_runs = 400, sms = 1, jobs = 0;
  std::uint64_t seed = 1;
  double tolerance = 0;
  double eval_timeout = default_eval_timeout_s;
};
search_options make_search_options(const search_request& request);

/// Raw-input fitness of a batch for the chosen backend.
batch_fitness make_fitness(const search_options& options, thread_pool& pool);

search_result run_search(const search_options& options);

/// Methods run one after another with the same options (evaluations, seed): `inputs --compare`
/// runs all three, a plain search one. Stops before the next method once interrupted().
struct search_runs {
  std::vector<search_options> runs;  ///< each method's options, in the order run (on_batch cleared)
  std::vector<search_result> results;
  std::size_t best = 0;      ///< the run with the highest fitness (the first of equals)
  bool interrupted = false;  ///< Ctrl-C or SIGTERM stopped a run or kept one from starting
  /// The failure that stopped the runs (search_result::failure of the last run), or empty.
  const search_result* failed() const {
    return !results.empty() && !results.back().failure.empty() ? &results.back() : nullptr;
  }
  /// Evaluations of every run together.
  std::uint64_t evaluations() const;
};
/// `progress(method, done, total, best)`: after every batch, the evaluations of all runs so far out
/// of all runs' budget, and the best fitness of the current run (may be empty).
search_runs run_searches(const search_options& options, const std::vector<search_method>& methods,
                         const std::function<void(search_method, std::uint64_t, std::uint64_t, double)>& progress = {});

/// What the GPU fitness of `k` measures, named for results: the backend and device (or the
/// harness's own CUDA entry), and how it times.
std::string gpu_fitness_note(const kernel_harness& k);

/// A saved input's fitness (`inputs --eval-input`): cycles of the model or ms on the GPU.
struct input_evaluation {
  double value = 0;
  std::uint32_t launches = 0;
  std::string unit;  ///< "cycles" or "ms"
};
input_evaluation evaluate_input(const search_options& options, const std::vector<std::int32_t>& input);

/// The slowest block of `input` as the SIMT model runs it (whatever the fitness), as warps of the
/// makespan model: `inputs` reports it for the best input, so that `estimate --warp-kernels` takes
/// it to the worst-case makespan of those warps on one SM.
block_warp_kernels worst_block(const search_options& options, const std::vector<std::int32_t>& input);

}  // namespace warpspan::inputs
