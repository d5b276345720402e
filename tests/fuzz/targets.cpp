#include "targets.hpp"

#include <array>
#include <optional>
#include <sstream>
#include <string_view>
#include <utility>

#include "warpspan/core/error.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/task.hpp"
#include "warpspan/inputs/input_file.hpp"
#include "warpspan/inputs/model.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/ptx.hpp"
#include "warpspan/sm/sm_config.hpp"
#include "warpspan/wcet/analysis.hpp"

namespace warpspan::fuzz {

namespace {

/// Tables larger than this are refused (check_table_size), so a small input cannot make a target
/// allocate much; the EDF test stops with an input_error after this many demand evaluations.
constexpr std::uint64_t table_cap_bytes = std::uint64_t{1} << 20;
constexpr std::uint64_t edf_max_points = 100'000;

constexpr std::size_t max_kernel_input = 4096;
constexpr std::size_t max_ptx_input = 64 * 1024;
constexpr std::size_t max_sm_input = 4096;
constexpr std::size_t max_taskset_input = 16 * 1024;
constexpr std::size_t max_jsonl_input = 32 * 1024;
constexpr std::size_t max_string_input = 4096;
constexpr std::size_t max_input_input = 8192;
constexpr std::size_t max_wcet_input = 16 * 1024;

std::string_view as_text(const std::uint8_t* data, std::size_t size) {
  return {reinterpret_cast<const char*>(data), size};
}

/// Runs one input; input_error means the input was refused, which is fine. Everything else escapes.
template <class F>
fuzz_outcome guarded(std::size_t size, std::size_t max_len, F&& body) {
  if (size > max_len) return fuzz_outcome::rejected;
  try {
    body();
    return fuzz_outcome::accepted;
  } catch (const input_error&) {
    return fuzz_outcome::rejected;
  }
}

void require(bool ok, const std::string& what) {
  if (!ok) throw fuzz_finding(what);
}

dbf_options small_dbf_options() {
  dbf_options o;
  o.backend = dbf_backend::cpu;
  o.threads = 1;
  o.max_table_bytes = table_cap_bytes;
  return o;
}

/// The EDF test both ways; where both finish within the bound they must agree (qpa promises the
/// scan's first violation).
void check_edf(const std::vector<dbf_curve>& curves) {
  std::optional<edf_result> results[2];
  const edf_method methods[2] = {edf_method::qpa, edf_method::scan};
  for (int m = 0; m < 2; ++m) {
    try {
      results[m] = edf_test(curves, methods[m], edf_max_points);
    } catch (const input_error&) {
      // over the bound on points: refused, as the command line would
    }
  }
  if (!results[0] || !results[1]) return;
  require(results[0]->schedulable == results[1]->schedulable, "edf: qpa and scan disagree on schedulability");
  require(results[0]->first_violation == results[1]->first_violation,
          "edf: qpa and scan disagree on the first violation");
}

/// dbf never decreases with the interval length.
void check_monotone(const dbf_curve& c) {
  const std::uint64_t step = std::max<std::uint64_t>(1, c.period() / 16);
  std::uint64_t last = 0;
  for (std::uint64_t k = 0; k <= 64; ++k) {
    const std::uint64_t v = c.at(k * step);
    require(v >= last, "dbf decreases at t = " + std::to_string(k * step));
    last = v;
  }
}

/// The curves of a task set's tables, one per task.
std::vector<dbf_curve> curves_of(const task_set& set, const std::vector<unrolled_graph>& graphs,
                                 const std::vector<dbf_table>& tables) {
  std::vector<dbf_curve> curves;
  for (std::size_t k = 0; k < set.tasks.size(); ++k)
    curves.emplace_back(tables[k].min_span, graphs[k].E, graphs[k].period);
  return curves;
}

/// T' of every task, refusing tables over the cap before any is computed (as `dbf` does).
std::vector<unrolled_graph> unroll_all(const task_set& set, const dbf_options& options) {
  std::vector<unrolled_graph> graphs;
  for (const task& t : set.tasks) {
    graphs.push_back(unroll(t));
    check_table_size(graphs.back(), t.name, options);
    require(graphs.back().E == max_path_wcet(t), "task '" + t.name + "': E of T' differs from max_path_wcet");
  }
  return graphs;
}

/// A problem from a kernel string and a --sigma text, the way the command line makes one.
problem fixed_problem(std::string_view kernel, std::string_view sigma, int schedulers, std::int64_t warps) {
  sm_config cfg;
  cfg.name = "custom";
  apply_sigma_overrides(cfg, sigma);
  cfg.schedulers = schedulers;
  const normalized_sm norm = normalize(cfg);
  return make_problem(normalize_kernel(parse_kernel_string(kernel), norm), norm, warps);
}

}  // namespace

fuzz_outcome fuzz_one_kernel(const std::uint8_t* data, std::size_t size) {
  return guarded(size, max_kernel_input, [&] {
    const kernel_string k = parse_kernel_string(as_text(data, size));
    require(parse_kernel_string(to_run_length(k)) == k, "kernel: the run-length form does not parse back");
    require(parse_kernel_string(to_plain(k)) == k, "kernel: the plain form does not parse back");
    normalized_sm norm;
    norm.sigma = {1, 2, 1, 1};
    norm.copies = {1, 1, 3, 2};
    std::size_t expected = 0;
    for (unit u : k)
      expected += u == unit::B ? 1 : static_cast<std::size_t>(norm.copies[static_cast<int>(u)]);  // a barrier stays one
    const kernel_string n = normalize_kernel(k, norm);
    require(n.size() == expected, "kernel: normalisation made " + std::to_string(n.size()) +
                                      " instructions, expected " + std::to_string(expected));
  });
}

fuzz_outcome fuzz_one_ptx(const std::uint8_t* data, std::size_t size) {
  return guarded(size, max_ptx_input, [&] {
    const std::string_view text = as_text(data, size);
    ptx_options options;
    constexpr std::string_view map_prefix = "//map ";
    if (text.substr(0, map_prefix.size()) == map_prefix) {
      const std::string_view line = text.substr(0, text.find('\n')).substr(map_prefix.size());
      options.overrides = parse_ptx_overrides(line);
    }
    const ptx_import_result r = import_ptx(text, options, "fuzz.ptx");
    require(r.kernel.size() == r.trace.size(), "ptx: the kernel and the trace differ in length");
    for (std::size_t i = 0; i < r.trace.size(); ++i) {
      require(r.trace[i].type == r.kernel[i], "ptx: trace and kernel differ at instruction " + std::to_string(i));
      require(classify_opcode(r.trace[i].opcode, options.overrides) == r.kernel[i],
              "ptx: '" + r.trace[i].opcode + "' classified differently from the walk");
    }
    // Naming the entry that was read gives the same walk (bare instructions have no name to give).
    if (r.entry == "(whole file)") return;
    ptx_options named = options;
    named.entry = r.entry;
    const ptx_import_result again = import_ptx(text, named, "fuzz.ptx");
    require(again.kernel == r.kernel, "ptx: reading entry '" + r.entry + "' by name gives another kernel");
  });
}

fuzz_outcome fuzz_one_sm(const std::uint8_t* data, std::size_t size) {
  return guarded(size, max_sm_input, [&] {
    const std::string_view text = as_text(data, size);
    const std::size_t newline = text.find('\n');
    const std::string_view sigma = text.substr(0, newline);
    const std::string_view json_text =
        newline == std::string_view::npos ? std::string_view{} : text.substr(newline + 1);
    // As problem_options::make_sm (host/cli/makespan_commands.cpp): a file, or --sigma alone.
    sm_config cfg;
    if (!json_text.empty()) {
      cfg = parse_sm_json(json_text, "fuzz.json");
    } else {
      cfg.name = "custom";
      if (sigma.empty()) throw input_error("give --sigma (e.g. --sigma L=1,C=4) or --sm NAME");
    }
    if (!sigma.empty()) apply_sigma_overrides(cfg, sigma);
    const normalized_sm norm = normalize(cfg);
    describe(norm);
    // Two instructions of each type the SM has, normalised and run by three warps.
    kernel_string k;
    std::size_t expected = 0;
    for (int u = 0; u < unit_count; ++u) {
      require(norm.sigma[u] >= 0 && norm.copies[u] >= 0, "sm: negative sigma or copies after normalisation");
      require((norm.sigma[u] == 0) == (norm.copies[u] == 0), "sm: sigma and copies disagree on a type being present");
      if (norm.sigma[u] == 0) continue;
      k.insert(k.end(), 2, static_cast<unit>(u));
      expected += 2 * static_cast<std::size_t>(norm.copies[u]);
    }
    if (k.empty()) return;
    const kernel_string normalized = normalize_kernel(k, norm);
    require(normalized.size() == expected, "sm: normalisation made " + std::to_string(normalized.size()) +
                                               " instructions, expected " + std::to_string(expected));
    const problem prob = make_problem(normalized, norm, 3);
    require(pessimistic_bound(prob) >= prob.instructions(),
            "sm: the pessimistic bound is below one warp's instructions");
  });
}

fuzz_outcome fuzz_one_taskset(const std::uint8_t* data, std::size_t size) {
  return guarded(size, max_taskset_input, [&] {
    const task_set set = parse_task_set(as_text(data, size), "fuzz.json");
    // The JSON the program writes reads back as the same set.
    const std::string once = task_set_json(set, true);
    require(task_set_json(parse_task_set(once, "round trip"), true) == once,
            "taskset: the JSON round trip changes the set");
    const dbf_options options = small_dbf_options();
    const std::vector<unrolled_graph> graphs = unroll_all(set, options);
    std::vector<dbf_table> tables;
    for (const auto& g : graphs) {
      tables.push_back(dbf_table_cpu(g));
      require(tables.back().min_span.size() == g.columns(), "taskset: min_span has the wrong length");
    }
    const std::vector<dbf_curve> curves = curves_of(set, graphs, tables);
    for (const auto& c : curves) check_monotone(c);
    check_edf(curves);
  });
}

fuzz_outcome fuzz_one_jsonl(const std::uint8_t* data, std::size_t size) {
  return guarded(size, max_jsonl_input, [&] {
    // As dbf_cmd::load_jsonl (host/cli/dbf_commands.cpp): one set a line, blank lines skipped.
    std::istringstream in{std::string(as_text(data, size))};
    std::vector<task_set> sets;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      sets.push_back(parse_task_set(line, "fuzz.jsonl:" + std::to_string(number)));
    }
    if (sets.empty()) throw input_error("fuzz.jsonl: no task sets (the file is empty)");
    // As dbf_cmd::analyse: every T' first, then all tables in one call (identical tables computed once).
    const dbf_options options = small_dbf_options();
    std::vector<std::vector<unrolled_graph>> graphs;
    std::vector<const unrolled_graph*> all;
    for (const auto& s : sets) graphs.push_back(unroll_all(s, options));
    for (const auto& gs : graphs)
      for (const auto& g : gs) all.push_back(&g);
    const std::vector<dbf_table> tables = dbf_tables(all, options);
    const std::vector<dbf_table> each = compute_tables(all, options);
    require(tables.size() == all.size() && each.size() == all.size(), "jsonl: a table is missing");
    for (std::size_t k = 0; k < all.size(); ++k)
      require(tables[k].min_span == each[k].min_span,
              "jsonl: the shared table of task " + std::to_string(k) + " differs from its own");
    std::size_t next = 0;
    for (std::size_t s = 0; s < sets.size(); ++s) {
      const std::vector<dbf_table> mine(tables.begin() + static_cast<std::ptrdiff_t>(next),
                                        tables.begin() + static_cast<std::ptrdiff_t>(next + graphs[s].size()));
      next += graphs[s].size();
      try {
        edf_test(curves_of(sets[s], graphs[s], mine), edf_method::qpa, edf_max_points);
      } catch (const input_error&) {
        // this set needs more points than the bound; the others are still tested
      }
    }
  });
}

fuzz_outcome fuzz_one_string(const std::uint8_t* data, std::size_t size) {
  // Small problems of different lengths W x I (12, 20, 4, 15): a string fits at most one of them.
  // The last has barriers: a string that lets a warp past one early is refused (no schedule).
  static const std::array<problem, 4> problems = {
      fixed_problem("LLCC", "L=1,C=2", 0, 3),
      fixed_problem("2LCS", "L=1,C=1/2,S=1", 2, 4),
      fixed_problem("LCSD", "L=1,C=1,S=1,D=1", 0, 1),
      fixed_problem("LBCBL", "L=1,C=2", 2, 3),
  };
  return guarded(size, max_string_input, [&] {
    const std::string_view text = as_text(data, size);
    std::optional<input_error> refused;
    for (const problem& prob : problems) {
      std::vector<std::uint16_t> s;
      try {
        s = parse_warp_string(prob, text);
      } catch (const input_error& e) {
        refused = e;
        continue;
      }
      const built_schedule b = build_schedule(prob, s);
      require(b.warp_cycle.size() == prob.length(), "string: the warp cycle string has the wrong length");
      require(b.makespan >= prob.instructions(), "string: makespan below one warp's instructions");
      require(b.makespan <= pessimistic_bound(prob), "string: makespan " + std::to_string(b.makespan) +
                                                         " above the pessimistic bound " +
                                                         std::to_string(pessimistic_bound(prob)));
      require(!render_table(prob, b).empty(), "string: empty table");
      return;
    }
    throw *refused;
  });
}

fuzz_outcome fuzz_one_input(const std::uint8_t* data, std::size_t size) {
  return guarded(size, max_input_input, [&] {
    const std::string_view text = as_text(data, size);
    const std::size_t eol = std::min(text.find('\n'), text.size());
    std::istringstream head{std::string(text.substr(0, eol))};
    std::string name;
    std::int64_t threads = 0;
    if (!(head >> name >> threads)) throw input_error("fuzz input: the first line is 'KERNEL THREADS'");
    const inputs::kernel_harness& k = *inputs::find_kernel(name);
    if (threads < 1 || threads > 64) throw input_error("fuzz input: 1 to 64 threads");
    const auto n = static_cast<std::uint32_t>(threads);
    const std::string file(text.substr(std::min(eol + 1, text.size())));
    const std::vector<std::int32_t> g = inputs::parse_input(file, "fuzz", k, n);
    const auto ranges = k.genome_ranges(n);
    require(g.size() == ranges.size(), "input: accepted with the wrong length");
    for (std::size_t i = 0; i < g.size(); ++i)
      require(g[i] >= ranges[i].lo && g[i] <= ranges[i].hi, "input: accepted a value outside its range");
    require(inputs::parse_input(inputs::format_input(k, n, g), "again", k, n) == g,
            "input: the saved form does not read back");
    const inputs::model_run r = inputs::run_model(k, inputs::make_model(), g, n);
    require(r.launches >= 1 && r.cycles >= 1, "input: a run without launches or cycles");
  });
}

fuzz_outcome fuzz_one_wcet(const std::uint8_t* data, std::size_t size) {
  return guarded(size, max_wcet_input, [&] {
    const std::string_view text = as_text(data, size);
    const std::size_t split = text.find("\n---\n");
    if (split == std::string_view::npos) throw input_error("fuzz: no '---' line between the CFG and the trace");
    const auto program = wcet::prepare_program(wcet::parse_cfg_json(text.substr(0, split), "fuzz.json"), "fuzz.json");
    wcet::trace_set traces;
    wcet::read_trace("fuzz.trace", text.substr(split + 5), wcet::trace_format::automatic, program.ipoints, traces);
    wcet::wcet_options options;
    if (!wcet::ipet_compiled()) options.method = wcet::wcet_method::enumerate;
    const auto r = wcet::analyse_wcet(program, traces, options);
    require(r.z_warp >= r.observed.longest_wst, "wcet: Z_warp below an observed warp");
    require(r.z_dynamic >= r.concurrency.hwmt, "wcet: Z_dynamic below the HWMT");
    require(r.z_hybrid >= 0 && r.concurrency.waves >= 1, "wcet: no wave");
  });
}

const std::vector<fuzz_target>& fuzz_targets() {
  static const std::vector<fuzz_target> all = {
      {"kernel", fuzz_one_kernel, max_kernel_input},
      {"ptx", fuzz_one_ptx, max_ptx_input},
      {"sm", fuzz_one_sm, max_sm_input},
      {"taskset", fuzz_one_taskset, max_taskset_input},
      {"jsonl", fuzz_one_jsonl, max_jsonl_input},
      {"string", fuzz_one_string, max_string_input},
      {"input", fuzz_one_input, max_input_input},
      {"wcet", fuzz_one_wcet, max_wcet_input},
  };
  return all;
}

}  // namespace warpspan::fuzz
