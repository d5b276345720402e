// Pieces of the results' JSON shared by the command line (--json) and the Python module (whose
// result attributes carry the same keys).
#pragma once

#include <cstdint>
#include <optional>
#include <nlohmann/json.hpp>
#include <vector>

#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/exact/ilp.hpp"
#include "warpspan/exact/interval.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/sm/ptx.hpp"

namespace warpspan {

struct estimate_request;
struct exact_plan;
struct exact_report;
struct estimate_report;
struct estimate_result;
struct set_record;
struct dbf_batch_tally;
struct dbf_sweep_tally;
struct dbf_run_end;
struct dbf_shard_settings;
namespace wcet {
struct wcet_program;
struct wcet_report;
}  // namespace wcet
namespace inputs {
struct search_options;
struct search_result;
struct search_runs;
struct input_evaluation;
struct block_warp_kernels;
}  // namespace inputs

/// {"warps", "kernel" (normalised, run-length), "instructions", "sigma" {letter: sigma}, "schedulers"}.
nlohmann::json problem_json(const problem& prob);

/// A PTX import (`kernel --ptx`, kernel_from_ptx): the kernel, the body read, why the walk ended and
/// every loop of the body with the passes walked (0: not walked); with `trace`, every instruction
/// walked (line, opcode, class).
nlohmann::json ptx_import_json(const ptx_import_result& r, bool trace);

/// The warp ids of a pseudo-precedence string, 1-based as users write them.
std::vector<int> one_based(const std::vector<std::uint16_t>& string);

/// The analysis of one task set (`dbf FILE --json`, warpspan.dbf): the EDF verdict, hyperperiod,
/// points, per task name, E, period, vertices, rows, columns and dbf_at {"t": dbf(t)} at `points`,
/// and total_dbf_at, keys in that order, dbf_at by increasing t. (The caller adds elapsed_s,
/// backend and edf_method.)
nlohmann::ordered_json dbf_set_json(const task_set& set, const std::vector<unrolled_graph>& graphs,
                                    const std::vector<dbf_curve>& curves, const edf_result& result,
                                    const std::vector<std::uint64_t>& points);

/// One set's run (`dbf FILE --json`, warpspan.dbf): dbf_set_json, then elapsed_s (tables and
/// test), backend (the one that ran) and edf_method.
nlohmann::ordered_json dbf_run_json(const analysed_set& a, const std::vector<std::uint64_t>& points, double elapsed_s,
                                    const dbf_session& session);

/// One set of a batch (`dbf --batch ... --json`, a line each; warpspan.dbf_batch): set, path, and
/// its EDF verdict or the error that kept it from being analysed.
nlohmann::ordered_json dbf_batch_json(const analysed_set& a);

/// One variant of a sweep (`dbf FILE --sweep ... --json`, a line each): factor, and its EDF verdict
/// or the error that puts it outside the model.
nlohmann::ordered_json sweep_variant_json(const analysed_set& variant);
/// The summary of a finished sweep: variants, schedulable, invalid, critical_factor (null when the
/// verdict does not change), transitions.
nlohmann::ordered_json sweep_summary_json(const std::vector<sweep_point>& grid, const std::optional<double>& critical,
                                          std::size_t transitions);
/// The last line of `dbf --batch ... --json` (a file without it was cut off): {"end": true, sets,
/// schedulable, not_schedulable, invalid, elapsed_s, kernel_s (null where no GPU kernel ran)}, or
/// {"interrupted": true, sets_done} (dbf_batch_tally, dbf_run_end: io/dbf_text.hpp).
nlohmann::ordered_json batch_end_json(const dbf_batch_tally& t, const dbf_run_end& end);
/// The last line of `dbf FILE --sweep ... --json`: {"summary": sweep_summary_json of the grid (and
/// "svg", the plot's path, when `svg` is not empty), elapsed_s, kernel_s}, or {"interrupted":
/// true, variants_done}.
nlohmann::ordered_json sweep_end_json(const dbf_sweep_tally& t, const dbf_run_end& end,
                                      const std::optional<double>& critical, std::size_t transitions,
                                      const std::string& svg);

/// `exact --method search --json` / warpspan.exact: complete, makespan (null unless complete), lower,
/// upper, elapsed_s, best_string, pessimistic, problem, stop_reason (null when complete), method,
/// algorithm ("dense", "dense-window", "sweep" or "depth-first"), backend, states, pruned, interrupted;
/// with `at_most` (exact_options::at_most, 0: not asked) also at_most and at_most_holds (true:
/// proven, false: a longer schedule is the witness, null: the search stopped first).
nlohmann::json exact_search_json(const problem& prob, const exact_result& r, const std::string& algorithm,
                                 const std::string& backend, std::uint32_t at_most = 0);
/// `exact --method ilp --json`: the same common fields, method "ilp", solver, constraint_form,
/// variables, constraints.
nlohmann::json exact_ilp_json(const problem& prob, const ilp_result& r, const std::string& constraint_form);
/// `exact --json` / warpspan.exact by either method: exact_search_json or exact_ilp_json of the
/// plan's answer.
nlohmann::json exact_json(const problem& prob, const exact_plan& plan, const exact_report& report);

/// The result of a whole estimate (`estimate --json`, warpspan.estimate): best_makespan,
/// upper_bound, iterations, chains, seed, envelope [[seconds, best], ...], best_string, the proven
/// interval ("proven", null when none), safe_upper_bound and the rest.
nlohmann::json estimate_json(const problem& prob, const estimate_request& request, const estimate_report& report);
/// The header of an estimate's shard (estimate_json's "shard" where request.shard is set):
/// command, index, count, the chains run here, the settings that change a chain's trajectory or its
/// stop (by the library's parameter names), the normalised SM and the input files with their hashes
/// (shard_inputs of request.inputs). merge_estimate_shards (orchestrator/shards.hpp) reads it.
nlohmann::json estimate_shard_json(const problem& prob, const estimate_request& request, const estimate_result& r);
/// The first line of a dbf shard: {"shard": {command, index, count, the settings, backend_label,
/// inputs}}, the task file by its full path and the input files with their hashes (shard_inputs).
nlohmann::ordered_json dbf_shard_json(const dbf_shard_settings& settings);
/// The last line of a dbf shard: {"shard_end": {finished, elapsed_s, kernel_s (null where no GPU
/// kernel ran: kernel_s < 0), sets (seen in the input)}}. A shard without it was cut off.
nlohmann::ordered_json shard_end_json(bool finished, double elapsed_s, double kernel_s, std::uint64_t sets);
/// One record line of a dbf shard: index, label, line, verdict, factor, u (set_record,
/// orchestrator/shards.hpp, which reads it back).
nlohmann::ordered_json set_record_json(const set_record& r);

/// `bound --json` / warpspan.bound without T(y): "pessimistic" (the upper bound of
/// makespan/bounds.hpp), "pessimistic_001" (001 Sec. 4's formula, not a bound in general), "problem".
nlohmann::json bound_json(const problem& prob);

/// The exact T(y) of `bound --exact-up-to`: "T" (per y: complete, lower, upper; an unfinished one
/// also started and stop_reason), "unfinished", "exact_T", the first unfinished as "stopped_at" and
/// "stop_reason", and, when T(1) is exact, "tractable" and "tractable_y": 001 eq. 42's estimate
/// min over y of ceil(W / y) T(y), which is not a bound (docs/makespan.md). Added to `out`.
void t_runs_json(nlohmann::json& out, const problem& prob, const std::vector<t_run>& runs);

/// The verdict of an EDF test: schedulable, utilization, utilization_exact, t_max, checked_to,
/// first_violation (null when none), added to `out` in that order (nlohmann::json or ordered_json).
template <class Json>
void edf_verdict_json(Json& out, const edf_result& r) {
  const auto optional = [](const std::optional<std::uint64_t>& v) { return v ? Json(*v) : Json(nullptr); };
  out["schedulable"] = r.schedulable;
  out["utilization"] = r.u.value;
  out["utilization_exact"] = r.u.exact;
  out["t_max"] = optional(r.u.t_max);
  out["checked_to"] = optional(r.limit);
  out["first_violation"] = optional(r.first_violation);
}

/// `wcet --json`: kernel, z_warp, z_dynamic, z_hybrid, hwmt (= hwmt_per_sm), hwmt_launch (null
/// without one clock across SMs), clock, jitter, waves, warps_per_wave, delta, longest_wst,
/// overestimation_percent (against the per-SM HWMT), overestimation_percent_launch, visit_bounds,
/// visits_unbounded, method, tree, runs, warps, ipoints, edges, divergent_edges, loops.
nlohmann::json wcet_report_json(const wcet::wcet_program& p, const wcet::wcet_report& r);

/// One search of `inputs --json`: kernel, threads, method, seed, fitness, best_fitness,
/// fitness_unit, evaluations, reached_at, reached_seconds, seconds, generations, coverage, history
/// ([evaluation, best] rows) and, for gdivan, atoms.
nlohmann::json inputs_run_json(const inputs::search_options& o, const inputs::search_result& r);
/// `inputs --json`: one run as inputs_run_json, or with `compare` {"kernel", "threads", "runs": [...]};
/// then interrupted, model (null unless the model) and, with the GPU fitness, device.
nlohmann::json inputs_runs_json(const inputs::search_runs& runs, bool compare);
/// `inputs --eval-input FILE --json`: kernel, threads, fitness, input (its path), best_fitness,
/// fitness_unit, launches.
nlohmann::json inputs_evaluation_json(const inputs::search_options& o, const std::string& path,
                                      const inputs::input_evaluation& e);
/// The slowest block of an input as warps of the makespan model (`worst_block` of `inputs --json`):
/// warp_kernels (the --warp-kernels spec), warps, block, stage, launch, model_cycles.
nlohmann::json block_warp_kernels_json(const inputs::block_warp_kernels& b);

}  // namespace warpspan
