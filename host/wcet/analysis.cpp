// 002's pipeline end to end (Sec. II, IV-C, V).
#include "warpspan/wcet/analysis.hpp"

#include <algorithm>
#include <map>
#include <stdexcept>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"

namespace warpspan::wcet {

namespace {
/// Given bounds beyond this are refused: the ILP's coefficients stay exact in doubles.
constexpr std::uint64_t max_loop_bound = 1'000'000'000;
}  // namespace

wcet_program prepare_program(cfg g, const std::string& where) {
  wcet_program p;
  p.loops = find_loops(g, where);
  p.divergent = branch_divergent_edges(g, p.loops);
  p.ipoints = build_ipg(g, p.loops, p.divergent);
  p.graph = std::move(g);
  return p;
}

wcet_program load_program(const std::string& cfg_path, const std::string& ptx_path, const std::string& entry) {
  if (cfg_path.empty() == ptx_path.empty())
    throw input_error("give the program structure with " + param("cfg_path") + " or " + param("ptx_path"));
  const std::string where = cfg_path.empty() ? ptx_path : cfg_path;
  cfg g = cfg_path.empty() ? cfg_from_ptx(read_text_file(ptx_path, "PTX file"), entry, ptx_path)
                           : parse_cfg_json(read_text_file(cfg_path, "CFG file"), cfg_path);
  return prepare_program(std::move(g), where);
}

std::pair<std::string, std::uint64_t> parse_loop_bound(const std::string& text) {
  const auto eq = text.find('=');
  std::uint64_t v = 0;
  std::size_t used = 0;
  const std::string num = eq == std::string::npos ? std::string() : text.substr(eq + 1);
  bool ok = eq != std::string::npos && eq > 0 && !num.empty() && num[0] != '-';
  if (ok) {
    try {
      v = std::stoull(num, &used);
    } catch (const std::exception&) {
      ok = false;
    }
  }
  if (!ok || used != num.size()) throw input_error(param("loop_bounds") + ": '" + text + "' is not HEADER=N (N >= 0)");
  return {text.substr(0, eq), v};
}

std::int64_t parse_probe_cost(const std::string& text, const trace_set& traces) {
  if (text == "auto") return std::max<std::int64_t>(0, traces.probe_cost);
  try {
    std::size_t used = 0;
    const std::int64_t cost = std::stoll(text, &used);
    if (used != text.size() || cost < 0) throw std::invalid_argument("");
    return cost;
  } catch (const std::exception&) {
    throw input_error(param("probe_cost") + ": '" + text + "' is not a number of cycles >= 0 or 'auto'");
  }
}

wcet_method parse_wcet_method(const std::string& word) {
  if (word == "auto") return wcet_method::automatic;
  if (word == "ilp") return wcet_method::ilp;
  if (word == "tree") return wcet_method::tree;
  if (word == "enumerate") return wcet_method::enumerate;
  throw input_error(param("method") + ": '" + word + "' is not one of auto, ilp, tree, enumerate");
}

std::string to_string(wcet_method m) {
  switch (m) {
    case wcet_method::ilp: return "ilp";
    case wcet_method::tree: return "tree";
    case wcet_method::enumerate: return "enumerate";
    default: return "auto";
  }
}

wcet_report analyse_wcet(const wcet_program& program, const trace_set& traces, const wcet_options& options) {
  const ipg& graph = program.ipoints;
  if (traces.records.empty()) throw input_error("the traces hold no records");
  std::vector<std::optional<std::uint64_t>> given(graph.loops.size());
  for (const auto& [header, bound] : options.loop_bounds) {
    if (bound > max_loop_bound)
      throw input_error(param("loop_bounds") + ": " + header + "=" + std::to_string(bound) + " is over " +
                        std::to_string(max_loop_bound));
    bool found = false;
    for (std::size_t l = 0; l < graph.loops.size(); ++l)
      if (graph.loops[l].header_name == header) given[l] = bound, found = true;
    if (!found)
      throw input_error(param("loop_bounds") + ": '" + header +
                        "' is not the header of a loop with an Ipoint in its body");
  }
  wcet_report r;
  const auto wsts = slice_traces(traces);
  r.probe_cost = options.probe_cost;
  r.skipped_lines = traces.skipped;
  r.observed = observe(wsts, graph, traces, r.probe_cost);
  const auto record_at = [&](std::uint64_t i) {
    const auto& rec = traces.records[i];
    return traces.files[rec.file] + ":" + std::to_string(rec.line);
  };
  if (r.observed.shortest_transition >= 0 && r.probe_cost > r.observed.shortest_transition) {
    const std::string shortest =
        std::to_string(r.observed.shortest_transition) + " cycles (" + record_at(r.observed.shortest_record) + ")";
    if (!options.probe_cost_from_trace)
      throw input_error(param("probe_cost", r.probe_cost) + " is larger than the shortest observed transition, " +
                        shortest + ": the estimates would fall below the observed times");
    r.warnings.push_back("the binary trace's empty-probe cost, " + std::to_string(r.probe_cost) +
                         " cycles, is larger than the shortest observed transition, " + shortest + "; " +
                         std::to_string(r.observed.shortest_transition) + " cycles subtracted instead");
    r.probe_cost = r.observed.shortest_transition;
    r.observed = observe(wsts, graph, traces, r.probe_cost);
  }
  for (std::size_t l = 0; l < graph.loops.size(); ++l)
    if (given[l] && *given[l] < r.observed.loop_bound[l])
      throw input_error(param("loop_bounds", graph.loops[l].header_name + "=" + std::to_string(*given[l])) +
                        " is below the " + std::to_string(r.observed.loop_bound[l]) +
                        " iterations per entry the traces show for loop " + graph.loops[l].header_name +
                        ": the estimate would fall below an observed time");
  for (const auto& g : given) r.bound_measured.push_back(!g);
  r.problem = make_ipet_problem(graph, r.observed, given);
  // Every observed warp keeps to the visit bounds (they are measured per pass where a warp takes more
  // than one): the ILP admits every path the traces show.
  std::vector<std::uint64_t> taken(graph.edges.size());
  for (const auto& w : wsts) {
    std::fill(taken.begin(), taken.end(), 0);
    for (std::size_t k = 1; k < w.ipoints.size(); ++k)
      ++taken[static_cast<std::size_t>(graph.edge_index(w.ipoints[k - 1], w.ipoints[k]))];
    if (const auto broken = broken_visit_bound(r.problem, taken); !broken.empty())
      throw std::logic_error("an observed warp breaks a visit bound of the IPET problem: " + broken);
  }
  r.tree = tree_wcet(r.problem, &r.tree_text);

  wcet_method method = options.method;
  if (method == wcet_method::automatic) method = ipet_compiled() ? wcet_method::ilp : wcet_method::tree;
  if (method == wcet_method::tree && !r.tree) {
    if (options.method == wcet_method::tree)
      throw input_error(param("method", "tree") +
                        ": the IPG is not structured (a loop without an Ipoint at its header, or divergent edges "
                        "taken); use " +
                        param("method", "ilp") + " or enumerate");
    method = wcet_method::enumerate;
  }
  r.method = to_string(method);
  if (method == wcet_method::ilp) {
    const auto sol = solve_ipet(r.problem);
    r.z_warp = sol.wcet;
    r.counts = sol.counts;
    if (r.tree && *r.tree != r.z_warp)
      throw std::logic_error("tree-based WCET " + std::to_string(*r.tree) + " differs from the ILP's " +
                             std::to_string(r.z_warp));
  } else if (method == wcet_method::tree) {
    r.z_warp = *r.tree;
  } else {
    constexpr std::uint64_t budget = 20'000'000;
    const auto v = enumerate_wcet(r.problem, budget);
    if (!v)
      throw input_error(param("method", "enumerate") + ": the paths within the loop bounds take more than " +
                        std::to_string(budget) + " steps to enumerate; use " + param("method", "ilp"));
    r.z_warp = *v;
  }
  // Every observed warp is a path within the bounds and caps, so Z_warp covers it; if not, the
  // estimate is wrong and not printed.
  if (r.z_warp < r.observed.longest_wst_net)
    throw input_error("Z_warp " + std::to_string(r.z_warp) + " (" + r.method +
                      ") is below the longest observed warp, " + std::to_string(r.observed.longest_wst_net) +
                      " cycles after the probe cost: refused");
  r.one_clock = options.one_clock
                    ? *options.one_clock
                    : !traces.one_clock.empty() &&
                          std::all_of(traces.one_clock.begin(), traces.one_clock.end(), [](bool b) { return b; });
  r.concurrency = analyse_concurrency(wsts, r.one_clock, r.probe_cost);
  const auto& c = r.concurrency;
  // Eq. (1) and (2), in 64 bits or refused.
  std::int64_t stagger = 0, wave = 0;
  const auto phi_minus_1 = static_cast<std::int64_t>(c.warps_per_wave > 0 ? c.warps_per_wave - 1 : 0);
  if (__builtin_add_overflow(r.z_warp, c.jitter, &r.z_dynamic) ||
      __builtin_mul_overflow(phi_minus_1, c.delta, &stagger) || __builtin_add_overflow(r.z_warp, stagger, &wave) ||
      __builtin_mul_overflow(static_cast<std::int64_t>(c.waves), wave, &r.z_hybrid))
    throw input_error("the estimates do not fit 64 bits: are the trace's times in cycles?");
  // The concurrency models are not safe bounds (002 Sec. V-B): say when one misses an observed time.
  // With a probe cost the estimates are of the kernel without probes, so the observed side is too
  // (hwmt_net: each warp's own probes off its span); the raw HWMT would compare two programs.
  for (const auto& [name, z] :
       {std::pair<const char*, std::int64_t>{"Z_dynamic", r.z_dynamic}, {"Z_hybrid", r.z_hybrid}})
    if (z < c.hwmt_net)
      r.warnings.push_back(std::string(name) + " " + std::to_string(z) +
                           " is below the observed high-water-mark time " + std::to_string(c.hwmt_net) +
                           (r.probe_cost > 0 ? " net of the probes' cost (" + std::to_string(c.hwmt) + " with them): "
                                             : std::string(": ")) +
                           "it underestimates the kernel on these traces");
  // The models bound one SM's run (002 Sec. V-B); the launch also waits for the dispatch across SMs.
  if (c.hwmt_launch && std::max(r.z_dynamic, r.z_hybrid) < *c.hwmt_launch)
    r.warnings.push_back("the launch ran " + std::to_string(*c.hwmt_launch) +
                         " cycles from the first Ipoint on any SM to the last (the whole-launch HWMT), more than "
                         "Z_dynamic " +
                         std::to_string(r.z_dynamic) + " and Z_hybrid " + std::to_string(r.z_hybrid) +
                         ": they model the warps of one SM, not when the SMs start");
  return r;
}

wcet_run run_wcet(const wcet_request& request) {
  if (request.traces.empty()) throw input_error("give at least one trace");
  if (request.cfg_path.empty() == request.ptx_path.empty())
    throw input_error("give the program structure as a CFG file or a PTX file (one of the two)");
  const trace_format format = parse_trace_format(request.format);
  wcet_options options;
  options.one_clock = parse_trace_clock(request.clock);
  options.method = parse_wcet_method(request.method);
  std::map<std::string, std::string> bound_given;  // header -> the bound as given
  for (const auto& b : request.loop_bounds) {
    const auto [header, n] = parse_loop_bound(b);
    const auto [it, fresh] = bound_given.try_emplace(header, b);
    if (!fresh && options.loop_bounds[header] != n)
      throw input_error("loop " + header + " is bounded twice (" + it->second + " and " + b + "); give one bound");
    options.loop_bounds[header] = n;
  }
  wcet_run run;
  run.program = load_program(request.cfg_path, request.ptx_path, request.entry);
  for (const trace_input& t : request.traces)
    read_trace(t.label,
               t.is_path
                   ? read_text_file(t.text, "trace file", static_cast<std::size_t>(request.max_trace_bytes),
                                    request.max_trace_option.empty() ? message() : param(request.max_trace_option))
                   : t.text,
               format, run.program.ipoints, run.traces);
  options.probe_cost = parse_probe_cost(request.probe_cost, run.traces);
  options.probe_cost_from_trace = request.probe_cost == "auto";
  run.report = analyse_wcet(run.program, run.traces, options);
  return run;
}

}  // namespace warpspan::wcet
