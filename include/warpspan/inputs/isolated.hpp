// A loaded harness's code (`inputs --harness PATH`) runs in worker processes (core/worker.hpp): its
// loading, its gene ranges, the atoms' recorded runs, every batch of evaluations and a saved input's
// evaluation. A crash, abort(), exit(), an exception of any type, an endless loop (the hook-call
// cap) or a hang (no evaluation finished for the stall time) there is a harness_failure naming the
// harness, what it did and, where one evaluation did it, that input; Ctrl-C ends the worker at once.
// The built-in kernels are warpspan's own code and run in the process. The GPU fitness runs in the
// process as well: a CUDA context does not survive a fork.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpspan/core/error.hpp"
#include "warpspan/inputs/model.hpp"
#include "warpspan/inputs/search.hpp"

namespace warpspan::inputs {

/// The harness failed in a worker: the message is one line naming it and what it did; `input`
/// (the raw integers of the input it failed on) is empty when no single evaluation is to blame.
class harness_failure : public input_error {
 public:
  explicit harness_failure(const std::string& what, std::vector<std::int32_t> failing = {})
      : input_error(what), input(std::move(failing)) {}
  std::vector<std::int32_t> input;
};

/// Ctrl-C or SIGTERM ended a worker before it answered.
struct worker_interrupted {};

/// Whether `k`'s code runs in worker processes: a harness loaded from a library.
bool runs_isolated(const kernel_harness& k);

/// Loads the harness at `path` in a worker first (its static constructors, entry point and
/// descriptor checks), then here: a library that crashes or hangs while loading is a
/// harness_failure rather than the end of warpspan.
harness_ref load_harness_isolated(const std::string& path, double stall_seconds = default_eval_timeout_s);

/// As model_cycles_batch, in a worker for an isolated harness (in the process otherwise). `jobs`
/// threads (0: all cores). Throws harness_failure (with the failing genome when one evaluation
/// failed; several in flight are replayed one by one to find it) or worker_interrupted.
std::vector<std::uint64_t> model_cycles_guarded(const kernel_harness& k, const model_config& cfg,
                                                const std::vector<std::vector<std::int32_t>>& genomes,
                                                std::uint32_t threads, thread_pool& pool, int jobs,
                                                double stall_seconds);
/// As find_atoms, in a worker for an isolated harness.
atom_set find_atoms_guarded(const kernel_harness& k, const atom_options& options, double stall_seconds);
/// As kernel_harness::genome_ranges, in a worker for an isolated harness.
std::vector<gene_range> genome_ranges_guarded(const kernel_harness& k, std::uint32_t threads, double stall_seconds);
/// As run_model (without traces), in a worker for an isolated harness.
model_run run_model_guarded(const kernel_harness& k, const model_config& cfg, const std::vector<std::int32_t>& genome,
                            std::uint32_t threads, double stall_seconds, block_warp_kernels* slowest = nullptr);

}  // namespace warpspan::inputs
