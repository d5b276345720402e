#include "warpspan/io/result_json.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <string>
#include <unordered_set>

#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/inputs/search.hpp"
#include "warpspan/io/dbf_text.hpp"
#include "warpspan/orchestrator/estimate_run.hpp"
#include "warpspan/orchestrator/exact_run.hpp"
#include "warpspan/orchestrator/shards.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/wcet/analysis.hpp"

namespace warpspan {

using json = nlohmann::json;

json problem_json(const problem& prob) {
  json sigma = json::object();
  for (int u = 0; u < unit_count; ++u)
    if (prob.sm.sigma[u] > 0) sigma[std::string(1, unit_letters[u])] = prob.sm.sigma[u];
  json out = {{"warps", prob.warps},
              {"kernel", prob.per_warp() ? prob.kernel_text() : to_run_length(prob.kernel)},
              {"instructions", prob.instructions()},
              {"sigma", sigma},
              {"schedulers", prob.sm.schedulers},
              {"barriers", prob.barriers()},
              {"block_warps", prob.block_warps()}};
  // Per-warp kernels (--warp-kernels): the groups in warp order; "kernel" is then "K1:n1,K2:n2"
  // and "instructions" the longest warp's.
  if (!prob.groups.empty()) {
    json groups = json::array();
    for (const warp_group& g : prob.groups)
      groups.push_back({{"kernel", to_run_length(g.kernel)}, {"warps", g.warps}, {"instructions", g.kernel.size()}});
    out["warp_kernels"] = groups;
  }
  return out;
}

json ptx_import_json(const ptx_import_result& r, bool trace) {
  json out = {{"kernel", to_run_length(r.kernel)},
              {"plain", to_plain(r.kernel)},
              {"instructions", r.kernel.size()},
              {"entry", r.entry},
              {"stop_reason", r.stop_reason}};
  json loops = json::array();
  for (const auto& l : r.loops)
    loops.push_back({{"head_line", l.head_line}, {"back_line", l.back_line}, {"passes", l.passes}});
  out["loops"] = loops;
  out["by_sm_rule"] = r.by_rule;
  if (trace) {
    json t = json::array();
    for (const auto& i : r.trace) {
      json e = {{"line", i.line}, {"opcode", i.opcode}, {"class", std::string(1, letter(i.type))}};
      if (i.runs_as.size() != 1 || i.runs_as[0] != i.type) e["runs_as"] = to_run_length(i.runs_as);
      t.push_back(std::move(e));
    }
    out["trace"] = t;
  }
  return out;
}

nlohmann::ordered_json dbf_set_json(const task_set& set, const std::vector<unrolled_graph>& graphs,
                                    const std::vector<dbf_curve>& curves, const edf_result& result,
                                    const std::vector<std::uint64_t>& points) {
  using json = nlohmann::ordered_json;
  // The first of equal points names its key. An ordered_json object finds a key by a linear search,
  // so the keys are appended to it directly, each once (a set of those seen): linear in the points.
  std::vector<std::uint64_t> distinct;
  {
    std::unordered_set<std::uint64_t> seen;
    for (std::uint64_t t : points)
      if (seen.insert(t).second) distinct.push_back(t);
  }
  const auto at = [&](const auto& f) {
    json out = json::object();
    auto& fields = out.get_ref<json::object_t&>();
    fields.reserve(distinct.size());
    for (std::uint64_t t : distinct) fields.emplace_back(std::to_string(t), f(t));
    return out;
  };
  json tasks = json::array();
  for (std::size_t k = 0; k < set.tasks.size(); ++k) {
    const unrolled_graph& g = graphs[k];
    const dbf_curve& c = curves[k];
    tasks.push_back({{"name", set.tasks[k].name},
                     {"E", g.E},
                     {"period", g.period},
                     {"vertices", set.tasks[k].vertices.size()},
                     {"rows", g.rows},
                     {"columns", g.columns()},
                     {"dbf_at", at([&](std::uint64_t t) { return c.at_checked(t); })}});
  }
  json out = json::object();
  edf_verdict_json(out, result);
  out["hyperperiod"] = result.u.hyperperiod ? json(*result.u.hyperperiod) : json(nullptr);
  out["points"] = result.points;
  out["tasks"] = tasks;
  out["total_dbf_at"] = at([&](std::uint64_t t) { return total_demand_checked(curves, t); });
  return out;
}

nlohmann::ordered_json dbf_run_json(const analysed_set& a, const std::vector<std::uint64_t>& points, double elapsed_s,
                                    const dbf_session& session) {
  nlohmann::ordered_json out = dbf_set_json(a.set, a.graphs, a.curves, a.result, points);
  out["elapsed_s"] = elapsed_s;
  // The GPU's kernels within elapsed_s (CUDA events); null on the CPU.
  out["kernel_s"] = session.on_device() ? nlohmann::ordered_json(session.kernel_seconds()) : nlohmann::ordered_json();
  out["backend"] = backend_label(session.options().backend);
  out["edf_method"] = to_string(session.method());
  return out;
}

nlohmann::ordered_json dbf_batch_json(const analysed_set& a) {
  nlohmann::ordered_json line{{"set", a.label},
                              {"path", a.path.empty() ? nlohmann::ordered_json() : nlohmann::ordered_json(a.path)}};
  if (!a.error.empty())
    line["error"] = a.error.neutral();
  else
    edf_verdict_json(line, a.result);
  return line;
}

nlohmann::ordered_json sweep_variant_json(const analysed_set& variant) {
  nlohmann::ordered_json line{{"factor", variant.factor}};
  if (!variant.error.empty())
    line["error"] = variant.error.neutral();
  else
    edf_verdict_json(line, variant.result);
  return line;
}

nlohmann::ordered_json sweep_summary_json(const std::vector<sweep_point>& grid, const std::optional<double>& critical,
                                          std::size_t transitions) {
  const auto count = [&](int verdict) {
    return static_cast<std::size_t>(
        std::count_if(grid.begin(), grid.end(), [&](const sweep_point& p) { return p.verdict == verdict; }));
  };
  return {{"variants", grid.size()},
          {"schedulable", count(0)},
          {"invalid", count(2)},
          {"critical_factor", critical ? nlohmann::ordered_json(*critical) : nlohmann::ordered_json(nullptr)},
          {"transitions", transitions}};
}

namespace {

/// A run's GPU kernel time: null where no kernel ran (a CPU backend: kernel_s < 0).
nlohmann::ordered_json kernel_seconds_json(double kernel_s) {
  return kernel_s >= 0 ? nlohmann::ordered_json(kernel_s) : nlohmann::ordered_json();
}

}  // namespace

nlohmann::ordered_json batch_end_json(const dbf_batch_tally& t, const dbf_run_end& end) {
  if (!end.finished) return {{"interrupted", true}, {"sets_done", t.done}};
  return {{"end", true},
          {"sets", t.done},
          {"schedulable", t.schedulable},
          {"not_schedulable", t.done - t.schedulable - t.invalid},
          {"invalid", t.invalid},
          {"elapsed_s", end.elapsed_s},
          {"kernel_s", kernel_seconds_json(end.kernel_s)}};
}

nlohmann::ordered_json sweep_end_json(const dbf_sweep_tally& t, const dbf_run_end& end,
                                      const std::optional<double>& critical, std::size_t transitions,
                                      const std::string& svg) {
  if (!end.finished) return {{"interrupted", true}, {"variants_done", t.done}};
  nlohmann::ordered_json summary = sweep_summary_json(t.grid, critical, transitions);
  if (!svg.empty()) summary["svg"] = svg;
  return {{"summary", summary}, {"elapsed_s", end.elapsed_s}, {"kernel_s", kernel_seconds_json(end.kernel_s)}};
}

namespace {

/// The fields every exact method reports.
json exact_common_json(const problem& prob, bool complete, std::uint32_t makespan, std::uint32_t lower,
                       std::uint32_t upper, double elapsed_s, const std::vector<std::uint16_t>& best,
                       const std::string& stop_reason) {
  return {{"complete", complete},
          {"makespan", complete ? json(makespan) : json(nullptr)},
          {"lower", lower},
          {"upper", upper},
          {"elapsed_s", elapsed_s},
          {"best_string", one_based(best)},
          {"pessimistic", pessimistic_bound(prob)},
          {"problem", problem_json(prob)},
          {"stop_reason", complete ? json(nullptr) : json(stop_reason)}};
}

}  // namespace

json exact_search_json(const problem& prob, const exact_result& r, const std::string& algorithm,
                       const std::string& backend, std::uint32_t at_most) {
  json out =
      exact_common_json(prob, r.complete, r.makespan, r.lower, r.upper, r.elapsed_s, r.best_string, r.stop_reason);
  out["method"] = "search";
  out["algorithm"] = algorithm;
  out["backend"] = backend;
  out["states"] = r.states;
  out["pruned"] = r.pruned;
  out["interrupted"] = r.interrupted;
  if (at_most > 0) {
    // The question asked: true (proven at most), false (a longer schedule shown), null (stopped).
    out["at_most"] = at_most;
    out["at_most_holds"] = r.complete ? json(r.makespan <= at_most) : r.at_most_proven ? json(true) : json(nullptr);
  }
  return out;
}

json exact_ilp_json(const problem& prob, const ilp_result& r, const std::string& constraint_form) {
  json out = exact_common_json(prob, r.complete, r.makespan, r.lower, r.upper, r.elapsed_s, r.best_string, r.status);
  out["method"] = "ilp";
  out["backend"] = "cpu";
  out["solver"] = "cbc";
  out["constraint_form"] = constraint_form;
  out["variables"] = r.variables;
  out["constraints"] = r.constraints;
  out["interrupted"] = r.interrupted;
  return out;
}

json exact_json(const problem& prob, const exact_plan& plan, const exact_report& report) {
  if (report.ilp)
    return exact_ilp_json(prob, report.solved,
                          plan.ilp_settings.constraints == ilp_constraints::long_form ? "long" : "short");
  return exact_search_json(prob, report.search, report.algorithm, report.backend, plan.search.at_most);
}

std::vector<int> one_based(const std::vector<std::uint16_t>& string) {
  std::vector<int> out(string.begin(), string.end());
  for (int& w : out) ++w;
  return out;
}

json estimate_json(const problem& prob, const estimate_request& request, const estimate_report& report) {
  const estimate_result& r = report.result;
  json env = json::array();
  for (const auto& e : r.envelope) env.push_back({e.seconds, e.best});
  json out = {{"best_makespan", r.best_makespan},
              {"upper_bound", r.upper_bound},
              {"iterations", r.iterations},
              {"iterations_per_chain", r.iterations_per_chain},
              {"cooling_fitted_to_seconds", report.cooling_fitted_to_seconds},
              {"chains", r.chains},
              {"chains_run", r.chains_run},
              {"elapsed_s", r.elapsed_s},
              {"setup_s", r.setup_s},
              {"backend", r.backend},
              {"time_limited", r.time_limited},
              {"interrupted", r.interrupted},
              {"seed", request.search.seed},
              {"envelope", env},
              {"best_string", one_based(r.best_string)},
              {"best_chain", r.best_chain},
              {"best_chain_init", to_string(r.best_chain_init)},
              {"best_from", report.best_from},
              {"annealing_best", report.annealing_best},
              {"warp_cycle_string", r.schedule.warp_cycle},
              {"problem", problem_json(prob)},
              {"validated_chains", r.validated},
              {"proven", nullptr},
              {"safe_upper_bound", report.safe_upper_bound},
              {"safe_upper_bound_from", report.safe_upper_bound_from}};
  out["cuda_plan"] = nullptr;
  if (const auto& c = r.cuda; c.used)
    out["cuda_plan"] = {{"design", c.design == chain_design::warp ? "warp per chain, state in shared memory"
                                   : c.on_chip                    ? "thread per chain, state in shared memory"
                                                                  : "thread per chain, state in global memory"},
                        {"chain_design", design_name(c.design)},
                        {"on_chip", c.on_chip},
                        {"packing", packing_name(c.packing)},
                        {"block", c.block},
                        {"blocks", c.blocks},
                        {"sms", c.sms},
                        {"resident_threads_per_sm", c.resident_threads_per_sm},
                        {"resident_warps_per_sm", c.resident_threads_per_sm / 32},
                        {"resident_chains", c.resident_chains},
                        {"chain_bytes", c.chain_bytes},
                        {"shared_bytes_per_block", c.shared_bytes}};
  out["beam"] = nullptr;
  if (r.beam.ran)
    out["beam"] = {{"applicable", r.beam.applicable}, {"makespan", r.beam.makespan}, {"width", r.beam.width},
                   {"expanded", r.beam.expanded},     {"exact", r.beam.exact},       {"elapsed_s", r.beam.seconds}};
  if (const auto& p = report.proven)
    out["proven"] = {{"lower", p->lower},
                     {"upper", p->upper},
                     {"exact", p->exact},
                     {"upper_from", p->upper_from},
                     {"elapsed_s", p->elapsed_s}};
  if (request.shard) out["shard"] = estimate_shard_json(prob, request, r);
  return out;
}

json estimate_shard_json(const problem& prob, const estimate_request& request, const estimate_result& r) {
  const estimate_options& eo = request.search;
  return {{"command", "estimate"},
          {"index", eo.slice},
          {"count", eo.slices},
          {"chain_begin", r.chain_begin},
          {"chain_end", r.chain_end},
          {"iterations_target", eo.iterations},
          // Every setting that changes a chain's trajectory or its stop: the merge refuses shards
          // that differ in any (the problem, seed and chains are compared too).
          {"settings",
           {{"iterations", eo.iterations},
            {"t0", eo.t0},
            {"reach", eo.reach},
            {"far_moves", eo.far_moves},
            {"init", eo.init ? to_string(*eo.init) : std::string("mix")},
            {"seconds", request.seconds},
            {"beam_width", eo.beam_width}}},
          // The normalised SM, with the problem's kernel and warps: the merge rebuilds the problem
          // from them to check every shard's best string.
          {"sm", {{"sigma", prob.sm.sigma}, {"copies", prob.sm.copies}, {"schedulers", prob.sm.schedulers}}},
          {"inputs", shard_inputs(request.inputs)}};
}

nlohmann::ordered_json dbf_shard_json(const dbf_shard_settings& s) {
  // The task file by its full path: the merge reads it again, maybe from another directory.
  std::error_code ec;
  const std::filesystem::path absolute =
      s.file.empty() ? std::filesystem::path() : std::filesystem::absolute(s.file, ec);
  return {{"shard",
           {{"command", s.command},
            {"index", s.slice.index},
            {"count", s.slice.count},
            {"json", s.json},
            {"check", s.check},
            {"keep_going", s.keep_going},
            {"file", ec ? s.file : absolute.lexically_normal().string()},
            {"batch", s.batch},
            {"sweep", s.sweep},
            {"edf", s.edf},
            {"backend", s.backend},
            {"threads", s.threads},
            {"block", s.block},
            {"max_table_mib", s.max_table_mib},
            {"backend_label", s.backend_label},
            {"inputs", nlohmann::ordered_json::parse(shard_inputs({{"file", s.file}, {"batch", s.batch}}).dump())}}}};
}

nlohmann::ordered_json shard_end_json(bool finished, double elapsed_s, double kernel_s, std::uint64_t sets) {
  return {{"shard_end",
           {{"finished", finished},
            {"elapsed_s", elapsed_s},
            {"kernel_s", kernel_seconds_json(kernel_s)},
            {"sets", sets}}}};
}

nlohmann::ordered_json set_record_json(const set_record& r) {
  return {{"index", r.index},     {"label", r.label},   {"line", r.line},
          {"verdict", r.verdict}, {"factor", r.factor}, {"u", r.u}};
}

json bound_json(const problem& prob) {
  return {{"pessimistic", pessimistic_bound(prob)},
          {"pessimistic_001", pessimistic_formula_001(prob)},
          {"problem", problem_json(prob)}};
}

void t_runs_json(json& out, const problem& prob, const std::vector<t_run>& runs) {
  std::vector<std::uint32_t> t;
  json per_t = json::array(), unfinished = json::array();
  for (const t_run& run : runs) {
    json e{{"y", run.y}, {"complete", run.complete}, {"lower", run.lower}, {"upper", run.upper}};
    if (run.complete) {
      t.push_back(run.lower);
    } else {
      e["started"] = run.started;
      e["stop_reason"] = run.stop_reason;
      unfinished.push_back(run.y);
      if (!out.contains("stopped_at")) {
        out["stopped_at"] = run.y;
        out["stop_reason"] = "T(" + std::to_string(run.y) + "): " + run.stop_reason;
      }
    }
    per_t.push_back(e);
  }
  out["T"] = per_t;
  out["interrupted"] = std::any_of(runs.begin(), runs.end(), [](const t_run& r) { return r.interrupted; });
  out["unfinished"] = unfinished;
  out["exact_T"] = t;
  // 001 eq. 42 from the exact T(y): an estimate, not a bound (docs/makespan.md, "Upper bounds").
  if (!t.empty()) {
    const auto tractable = tractable_estimate(prob.warps, t);
    out["tractable"] = tractable.first;
    out["tractable_y"] = tractable.second;
  }
}

namespace {

/// Over-estimation against the HWMT in percent (Table II's "Difference"); null without a HWMT.
json over(std::int64_t z, std::int64_t hwmt) {
  if (hwmt <= 0) return nullptr;
  return std::round(1000.0 * static_cast<double>(z - hwmt) / static_cast<double>(hwmt)) / 10.0;
}

std::string loop_of(const wcet::ipg& g, const wcet::ipg_edge& e) {
  return e.iterates.empty() ? std::string() : g.loops[e.iterates.front()].header_name;
}

}  // namespace

json wcet_report_json(const wcet::wcet_program& p, const wcet::wcet_report& r) {
  const wcet::ipg& g = p.ipoints;
  const auto& c = r.concurrency;
  json edges = json::array();
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    const auto& ed = g.edges[e];
    const auto& o = r.observed.edges[e];
    json item = {{"from", g.names[ed.from]}, {"to", g.names[ed.to]}, {"wcet", o.wcet},
                 {"count", o.max_count},     {"seen", o.seen},       {"divergent", ed.divergent}};
    item["loop"] = ed.iterates.empty() ? json(nullptr) : json(loop_of(g, ed));
    if (!r.counts.empty()) item["worst_case_count"] = r.counts[e];
    edges.push_back(item);
  }
  json divergent = json::array();
  for (const auto& [a, b] : p.divergent) divergent.push_back({p.graph.blocks[a], p.graph.blocks[b]});
  json loops = json::array();
  for (std::size_t l = 0; l < g.loops.size(); ++l)
    loops.push_back({{"header", g.loops[l].header_name},
                     {"bound", r.problem.loops[l].bound},
                     {"measured", bool(r.bound_measured[l])},
                     {"entries", r.observed.loop_entries[l]}});
  json visits = json::array();
  for (const auto& b : r.problem.visits)
    visits.push_back(
        {{"ipoint", g.names[b.vertex]},
         {"loop", b.loop >= 0 ? json(r.problem.loops[static_cast<std::size_t>(b.loop)].name) : json(nullptr)},
         {"per_pass", b.per_pass}});
  json unbounded = json::array();
  for (std::size_t v = 0; v < g.names.size(); ++v)
    if (v < r.observed.visits_unbounded.size() && r.observed.visits_unbounded[v]) unbounded.push_back(g.names[v]);
  const json launch = c.hwmt_launch ? json(*c.hwmt_launch) : json(nullptr);
  const auto over_launch = [&](std::int64_t z) { return c.hwmt_launch ? over(z, *c.hwmt_launch) : json(nullptr); };
  json out = {{"kernel", p.graph.name},
              {"z_warp", r.z_warp},
              {"z_dynamic", r.z_dynamic},
              {"z_hybrid", r.z_hybrid},
              {"hwmt", c.hwmt},
              {"hwmt_per_sm", c.hwmt},
              {"hwmt_net", c.hwmt_net},
              {"hwmt_launch", launch},
              {"clock", r.one_clock ? "global" : "sm"},
              {"jitter", c.jitter},
              {"waves", c.waves},
              {"warps_per_wave", c.warps_per_wave},
              {"delta", c.delta},
              {"longest_wst", r.observed.longest_wst},
              {"probe_cost", r.probe_cost},
              {"skipped_lines", r.skipped_lines},
              {"warnings", r.warnings},
              {"overestimation_percent",
               {{"z_warp", over(r.z_warp, c.hwmt)},
                {"z_dynamic", over(r.z_dynamic, c.hwmt)},
                {"z_hybrid", over(r.z_hybrid, c.hwmt)}}},
              {"overestimation_percent_launch", c.hwmt_launch ? json{{"z_warp", over_launch(r.z_warp)},
                                                                     {"z_dynamic", over_launch(r.z_dynamic)},
                                                                     {"z_hybrid", over_launch(r.z_hybrid)}}
                                                              : json(nullptr)},
              {"visit_bounds", visits},
              {"visits_unbounded", unbounded},
              {"method", r.method},
              {"tree", r.tree ? json(*r.tree) : json(nullptr)},
              {"runs", r.observed.runs},
              {"warps", r.observed.warps},
              {"ipoints", g.names.size()},
              {"edges", edges},
              {"divergent_edges", divergent},
              {"loops", loops}};
  return out;
}

namespace {
/// The library a harness was loaded from; null for a built-in.
json harness_of(const inputs::search_options& o) {
  return o.kernel->is_builtin() ? json(nullptr) : json(o.kernel->source());
}
}  // namespace

json inputs_run_json(const inputs::search_options& o, const inputs::search_result& r) {
  json history = json::array();
  for (const auto& p : r.trace.history) history.push_back({p.evaluation, p.best});
  json j{{"kernel", o.kernel->name()},
         {"harness", harness_of(o)},
         {"threads", o.threads},
         {"method", inputs::to_string(o.method)},
         {"seed", o.ga.seed},
         {"fitness", inputs::to_string(o.fitness)},
         // No evaluation finished (a harness that failed, or Ctrl-C, before the first): no best.
         {"best_fitness", r.trace.evaluations > 0 ? json(r.trace.best_fitness) : json(nullptr)},
         {"fitness_unit", r.fitness_unit},
         {"evaluations", r.trace.evaluations},
         {"reached_at", r.trace.reached_at},
         {"reached_seconds", r.reached_seconds},
         {"seconds", r.seconds},
         {"generations", r.trace.generations},
         {"coverage", o.method == inputs::search_method::gdivan ? json(r.atoms.coverage()) : json(nullptr)},
         {"history", history},
         {"interrupted", r.interrupted},
         {"model", o.fitness == inputs::fitness_kind::model ? json{{"sm", o.model.sm_name}, {"sms", o.model.sms}}
                                                            : json(nullptr)}};
  if (o.method == inputs::search_method::gdivan) {
    json levels = json::array();
    for (const auto& l : r.atoms.levels)
      levels.push_back(
          {{"threads", l.threads}, {"covered", l.covered}, {"legs", l.legs}, {"runs", l.runs}, {"atoms", l.atoms}});
    j["atoms"] = {
        {"threads", r.atoms.threads}, {"count", r.atoms.atoms.size()}, {"seconds", r.atom_seconds}, {"levels", levels}};
  }
  if (o.fitness == inputs::fitness_kind::gpu) j["device"] = inputs::gpu_fitness_note(*o.kernel);
  // The harness failed (a crash, a hang, an exception): what it did, and the input it failed on.
  j["failure"] = r.failure.empty() ? json(nullptr) : json(r.failure);
  j["failing_input"] = r.failing_input.empty() ? json(nullptr) : json(r.failing_input);
  return j;
}

json inputs_runs_json(const inputs::search_runs& runs, bool compare) {
  if (!compare) {
    json j = inputs_run_json(runs.runs.at(0), runs.results.at(0));
    j["interrupted"] = runs.interrupted;
    return j;
  }
  const inputs::search_options& o = runs.runs.at(0);
  json j{{"kernel", o.kernel->name()}, {"harness", harness_of(o)}, {"threads", o.threads}, {"runs", json::array()}};
  for (std::size_t i = 0; i < runs.results.size(); ++i)
    j["runs"].push_back(inputs_run_json(runs.runs[i], runs.results[i]));
  j["interrupted"] = runs.interrupted;
  j["failure"] = runs.failed() ? json(runs.failed()->failure) : json(nullptr);
  j["model"] =
      o.fitness == inputs::fitness_kind::model ? json{{"sm", o.model.sm_name}, {"sms", o.model.sms}} : json(nullptr);
  if (o.fitness == inputs::fitness_kind::gpu) j["device"] = inputs::gpu_fitness_note(*o.kernel);
  return j;
}

json block_warp_kernels_json(const inputs::block_warp_kernels& b) {
  return {{"warp_kernels", b.spec.empty() ? json(nullptr) : json(b.spec)},
          {"warps", b.warps},
          {"block", b.block},
          {"stage", b.stage},
          {"launch", b.launch},
          {"model_cycles", b.cycles}};
}

json inputs_evaluation_json(const inputs::search_options& o, const std::string& path,
                            const inputs::input_evaluation& e) {
  return {{"kernel", o.kernel->name()},
          {"harness", harness_of(o)},
          {"threads", o.threads},
          {"fitness", inputs::to_string(o.fitness)},
          {"input", path},
          {"best_fitness", e.value},
          {"fitness_unit", e.unit},
          {"launches", e.launches}};
}

}  // namespace warpspan
