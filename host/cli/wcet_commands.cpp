// wcet and wcet-collect: hybrid WCET of GPU kernels from traces (paper 002).
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/io/svg.hpp"
#include "warpspan/io/wcet_svg.hpp"
#include "warpspan/core/backend.hpp"
#include "warpspan/wcet/analysis.hpp"
#include "warpspan/wcet/collect.hpp"

namespace warpspan::cli {

namespace {

using json = nlohmann::json;
using namespace warpspan::wcet;

/// --max-trace-mib at most (8 GiB): a larger trace holds more records than the analysis keeps (2^27).
constexpr unsigned max_trace_mib = 8192;

void write_output(const std::string& path, const std::string& text, const char* what) {
  try {
    write_file_atomically(path, text);
  } catch (const input_error& e) {
    throw input_error(std::string("the ") + what + ": " + e.description());
  }
}

/// "+8.8% against the HWMT per SM" and, with one clock across SMs, ", -65.7% against the launch's".
std::string percent(std::int64_t z, const concurrency_stats& c) {
  const auto one = [z](std::int64_t hwmt) {
    std::ostringstream s;
    s << std::showpos << std::fixed << std::setprecision(1)
      << 100.0 * static_cast<double>(z - hwmt) / static_cast<double>(hwmt) << "%";
    return s.str();
  };
  std::string out = c.hwmt > 0 ? one(c.hwmt) + " against the HWMT per SM" : std::string();
  if (c.hwmt_launch && *c.hwmt_launch > 0)
    out += (out.empty() ? "" : ", ") + one(*c.hwmt_launch) + " against the launch's";
  return out;
}

std::string loop_of(const ipg& g, const ipg_edge& e) {
  return e.iterates.empty() ? std::string() : g.loops[e.iterates.front()].header_name;
}

void print_report(const wcet_program& p, const wcet_report& r) {
  const ipg& g = p.ipoints;
  const auto& c = r.concurrency;
  std::cout << "wcet: " << p.graph.name << ": " << r.observed.runs << " run(s), " << r.observed.warps << " warps, "
            << g.names.size() << " Ipoints, " << g.edges.size() << " IPG edges, " << p.divergent.size()
            << " branch-divergent CFG edges\n";
  if (r.probe_cost > 0) std::cout << "probe cost subtracted: " << r.probe_cost << " cycles per transition\n";
  if (r.skipped_lines > 0) std::cout << "simulator lines skipped: " << r.skipped_lines << " (PCs without an Ipoint)\n";
  std::size_t width = 8;
  for (const auto& e : g.edges) width = std::max(width, g.names[e.from].size() + g.names[e.to].size() + 4);
  std::cout << "\n  " << std::left << std::setw(static_cast<int>(width)) << "IPG edge" << std::right << std::setw(10)
            << "WCET" << std::setw(8) << "count"
            << "  notes\n";
  for (std::size_t e = 0; e < g.edges.size(); ++e) {
    const auto& ed = g.edges[e];
    const auto& o = r.observed.edges[e];
    std::string notes;
    if (!ed.iterates.empty()) notes += "loop " + loop_of(g, ed) + " ";
    if (ed.divergent) notes += "divergent ";
    if (!o.seen) notes += "not seen ";
    std::cout << "  " << std::left << std::setw(static_cast<int>(width)) << g.names[ed.from] + " -> " + g.names[ed.to]
              << std::right << std::setw(10) << o.wcet << std::setw(8) << o.max_count;
    if (!notes.empty()) notes.pop_back();
    std::cout << (notes.empty() ? "" : "  ") << notes << '\n';
  }
  for (std::size_t l = 0; l < g.loops.size(); ++l)
    std::cout << "  loop " << g.loops[l].header_name << ": at most " << r.problem.loops[l].bound
              << " iterations per entry (" << (r.bound_measured[l] ? "measured" : "given") << ")\n";
  // Every other Ipoint: once per pass of its innermost loop (once per warp outside loops).
  for (const auto& b : r.problem.visits)
    if (b.per_pass > 1)
      std::cout << "  Ipoint " << g.names[b.vertex] << ": at most " << b.per_pass << " visits per "
                << (b.loop >= 0 ? "pass of loop " + r.problem.loops[static_cast<std::size_t>(b.loop)].name
                                : std::string("warp"))
                << " (measured: a traced warp ran it that often)\n";
  for (ipoint_id v = 0; v < g.names.size(); ++v)
    if (r.observed.visits_unbounded[v]) std::cout << "  Ipoint " << g.names[v] << ": visits not bounded\n";
  std::cout << '\n'
            << "  Z_warp     " << std::setw(12) << r.z_warp << "  " << r.method
            << (r.tree ? " (tree-based: " + std::to_string(*r.tree) + ")" : std::string()) << "  "
            << percent(r.z_warp, c) << '\n'
            << "  jitter     " << std::setw(12) << c.jitter << '\n'
            << "  Z_dynamic  " << std::setw(12) << r.z_dynamic << "  eq. (1)  " << percent(r.z_dynamic, c) << '\n'
            << "  waves: Omega " << c.waves << ", phi " << c.warps_per_wave << ", Delta " << c.delta << '\n'
            << "  Z_hybrid   " << std::setw(12) << r.z_hybrid << "  eq. (2)  " << percent(r.z_hybrid, c) << '\n'
            << "  HWMT/SM    " << std::setw(12) << c.hwmt << "  per SM (longest warp " << r.observed.longest_wst
            << ")\n";
  if (r.probe_cost > 0)
    std::cout << "  HWMT net   " << std::setw(12) << c.hwmt_net
              << "  per SM, each warp's probes off its span (the warnings' side)\n";
  if (c.hwmt_launch)
    std::cout << "  HWMT/launch" << std::setw(12) << *c.hwmt_launch << "  whole launch (one clock across SMs)\n";
  else
    std::cout << "  HWMT/launch" << std::setw(12) << "-"
              << "  (each SM's own clock; --clock global if they are one)\n";
}

/// Refuses two options that name one file (an input read twice, an output over an input or over
/// another output), naming both: `files` holds (option, path) pairs, empty paths left out.
void refuse_same_files(const std::vector<std::pair<std::string, std::string>>& files) {
  const auto same = [](const std::string& a, const std::string& b) {
    if (a == b) return true;
    std::error_code ec;
    return a != "-" && b != "-" && std::filesystem::equivalent(a, b, ec) && !ec;
  };
  for (std::size_t i = 0; i < files.size(); ++i)
    for (std::size_t j = i + 1; j < files.size(); ++j) {
      const auto& [first, a] = files[i];
      const auto& [second, b] = files[j];
      if (a.empty() || b.empty() || !same(a, b)) continue;
      const std::string what = a == "-" ? "standard input, which can be read only once" : "the same file";
      throw input_error(first + " " + a + " and " + second + " " + b + " name " + what);
    }
}

void add_wcet_collect_command(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  struct opts {
    std::string kernel, out, text, cfg_out;
    unsigned runs = 8, size = 0, slice = 512;
    std::uint64_t seed = 1;
    bool list = false;
  };
  auto o = std::make_shared<opts>();
  std::string names;
  for (const auto& k : instrumented_kernels()) names += (names.empty() ? "" : ", ") + k.name;
  auto* sub = app.add_subcommand(
      "wcet-collect",
      "Run an instrumented CUDA SDK-style kernel (002 Table I, our own versions) on random test vectors and write "
      "its Ipoint traces for `warpspan wcet`. Every warp's first active lane records (cta, warp, Ipoint, SM clock, "
      "SM) at each Ipoint; the cost of an empty probe is measured and written into the binary trace "
      "(`wcet --probe-cost auto` subtracts it). Each run's output is checked against the CPU. Needs the CUDA "
      "backend (a GPU, or the CPU emulation build, whose clocks are emulated).\n"
      "Kernels: " +
          names +
          "\n"
          "Example: warpspan wcet-collect reduce_sequential --runs 16 --out r.bin --cfg-out r.json && "
          "warpspan wcet --cfg r.json --trace r.bin --probe-cost auto");
  sub->add_option("kernel", o->kernel, "kernel to run (see --list)");
  sub->add_flag("--list", o->list, "list the kernels and what they compute");
  sub->add_option("--runs", o->runs, "test vectors (one launch each)")->capture_default_str();
  sub->add_option("--seed", o->seed, "seed of the random test vectors")->capture_default_str();
  sub->add_option("--size", o->size,
                  "problem size (elements; matrix width for the transposes); 0: the kernel's default")
      ->capture_default_str();
  sub->add_option("--slice", o->slice, "records kept per warp and run (the device buffer holds warps x slice records)")
      ->capture_default_str();
  sub->add_option("--out", o->out, "write the binary trace here");
  sub->add_option("--text", o->text, "write the text trace here");
  sub->add_option("--cfg-out", o->cfg_out, "write the kernel's CFG JSON here (for wcet --cfg)");
  commands.emplace_back(sub, [o]() {
    if (o->list) {
      for (const auto& k : instrumented_kernels())
        std::cout << std::left << std::setw(20) << k.name << k.description << " (default size " << k.default_size
                  << ")\n";
      return 0;
    }
    if (o->kernel.empty()) throw input_error("wcet-collect: name a kernel (see wcet-collect --list)");
    refuse_same_files({{"--out", o->out}, {"--text", o->text}, {"--cfg-out", o->cfg_out}});
    const instrumented_kernel& k = find_instrumented_kernel(o->kernel);
    if (!o->cfg_out.empty()) write_output(o->cfg_out, k.cfg_json, "CFG");
    collect_request request;
    request.kernel = k.name;
    request.runs = o->runs;
    request.seed = o->seed;
    request.size = o->size ? o->size : k.default_size;
    request.slice = o->slice;
    const collect_result c = collect_wcet_traces(request);
    if (c.lost > 0)
      throw input_error("wcet-collect: " + std::to_string(c.lost) + " records did not fit the warps' slices of " +
                        std::to_string(o->slice) + " (the traces would be cut short): raise --slice");
    std::ostringstream note;
    note << k.name << ": " << request.runs << " runs, size " << c.size << ", " << c.grid << " blocks of " << c.block
         << " threads, seed " << request.seed << ", on "
         << (cuda_emulated() ? "the CPU emulation (emulated clocks, "
                               "nanoseconds)"
                             : cuda_device_name())
         << "\nempty probe: " << c.probe_cost << " cycles; records lost (slice full): " << c.lost;
    if (!o->out.empty()) write_output(o->out, probe_binary_trace(c.records, c.probe_cost, k.ipoints), "binary trace");
    if (!o->text.empty()) write_output(o->text, probe_text_trace(c.records, note.str(), k.ipoints), "text trace");
    if (o->out.empty() && o->text.empty()) {
      std::cout << probe_text_trace(c.records, note.str(), k.ipoints);
    } else {
      std::cout << note.str() << "\n" << c.records.size() << " records, every run's output checked against the CPU\n";
    }
    return 0;
  });
}

}  // namespace

void add_wcet_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  {
    struct opts {
      std::string cfg, ptx, entry, format = "auto", method = "auto", probe_cost = "0", clock = "auto", dot, lp, svg_dir;
      std::vector<std::string> traces, bounds;
      unsigned max_trace_mib = default_max_file_bytes >> 20;
      bool as_json = false, quiet = false;
    };
    auto o = std::make_shared<opts>();
    auto* sub = app.add_subcommand(
        "wcet",
        "Hybrid WCET of a GPU kernel from time-stamped traces (Betts & Donaldson, ECRTS 2013): the IPG of the "
        "kernel's CFG with branch-divergent edges parses each warp's slice of the traces; Z_warp by IPET over the "
        "observed edge times, Z_dynamic = Z_warp + release jitter (eq. 1), Z_hybrid = Omega (Z_warp + (phi - 1) "
        "Delta) (eq. 2), compared with the high-water-mark time.\n\n"
        "CFG JSON: {\"name\": \"k\", \"entry\": \"b1\", \"exit\": \"b9\", \"blocks\": [\"b1\", ...], \"edges\": "
        "[[\"b1\", \"b2\"], ...], \"ipoints\": {\"b1\": \"i1\", ...}} (no other keys); an Ipoint fires when its "
        "block starts; entry and exit must carry one.\n"
        "Trace text: '#' comments, one record a line: run sm cta warp ipoint time (cycles on that SM's clock; "
        "a '# clock: global' line says one clock runs across SMs).\n"
        "Example: warpspan wcet --cfg data/wcet/fig4.cfg.json --trace data/wcet/fig4.trace");
    auto* cfg_opt = sub->add_option("--cfg", o->cfg, "program structure as CFG JSON");
    auto* ptx_opt = sub->add_option("--ptx", o->ptx,
                                    "program structure from a PTX listing: every basic block an Ipoint "
                                    "named by its label");
    cfg_opt->excludes(ptx_opt);
    sub->add_option("--entry", o->entry, "with --ptx: the .entry to read (default: the first)")->needs(ptx_opt);
    sub->add_option("--trace", o->traces, "trace file, repeatable; '-' reads standard input (once)")->required();
    sub->add_option("--trace-format", o->format,
                    "auto (binary when the file starts with WSWCET01, else text), text, gpgpusim "
                    "('Issued: PC = 0x0040, Warp = 3, SM = 1, cycle = 1234', or stock GPGPU-Sim's "
                    "'-trace_components WARP_SCHEDULER' lines, PCs mapped by PTX line with --ptx; one run per file; "
                    "lines at PCs without an Ipoint are skipped and counted) or binary")
        ->capture_default_str();
    sub->add_option("--max-trace-mib", o->max_trace_mib,
                    "largest trace file read, in MiB (1 to " + std::to_string(max_trace_mib) + ")")
        ->capture_default_str();
    sub->add_option("--method", o->method,
                    "Z_warp by: ilp (IPET with CBC), tree (tree-based, structured IPGs), enumerate (every path, "
                    "small IPGs) or auto (ilp when CBC is linked)")
        ->capture_default_str();
    sub->add_option("--loop-bound", o->bounds,
                    "HEADER=N: at most N iterations per entry of the loop headed by CFG block HEADER, instead of "
                    "the bound measured in the traces (repeatable)");
    sub->add_option("--probe-cost", o->probe_cost,
                    "cycles subtracted from every observed transition (the cost of an empty probe), or 'auto': "
                    "what the binary trace reports")
        ->capture_default_str();
    sub->add_option("--clock", o->clock,
                    "whether the traces' times share one clock across SMs, so that the whole-launch HWMT (first "
                    "Ipoint on any SM to the last) is reported beside the per-SM one: auto (gpgpusim logs: yes, one "
                    "cycle counter; binary traces: no, %clock64 is per SM; text: a '# clock: global' or "
                    "'# clock: sm' line, no without one), sm or global")
        ->capture_default_str();
    sub->add_flag("--json", o->as_json, "print one JSON object");
    sub->add_flag("--quiet,-q", o->quiet, "no progress line (wcet shows none; accepted as every analysis accepts it)");
    sub->add_option("--dot", o->dot, "write the IPG in Graphviz format to this file");
    sub->add_option("--lp", o->lp,
                    "write the IPET ILP in CPLEX LP format to this file, with the tree-based "
                    "calculation in comments");
    sub->add_option("--svg-dir", o->svg_dir, "draw per-warp timelines and waves, one SVG per run and SM (at most 64)");
    commands.emplace_back(sub, [o]() {
      if (o->cfg.empty() == o->ptx.empty()) throw input_error("give the program structure with --cfg or --ptx");
      if (o->max_trace_mib < 1 || o->max_trace_mib > max_trace_mib)
        throw input_error("--max-trace-mib: " + std::to_string(o->max_trace_mib) + " is not in 1.." +
                          std::to_string(max_trace_mib));
      std::vector<std::pair<std::string, std::string>> files{{"--cfg", o->cfg}, {"--ptx", o->ptx}};
      for (const auto& t : o->traces) files.emplace_back("--trace", t);
      files.emplace_back("--dot", o->dot);
      files.emplace_back("--lp", o->lp);
      refuse_same_files(files);
      wcet_request request;
      request.cfg_path = o->cfg;
      request.ptx_path = o->ptx;
      request.entry = o->entry;
      for (const auto& t : o->traces)
        request.traces.push_back(t == "-" ? trace_input{"stdin", "/dev/stdin", true} : trace_input{t, t, true});
      request.format = o->format;
      request.method = o->method;
      request.loop_bounds = o->bounds;
      request.probe_cost = o->probe_cost;
      request.clock = o->clock;
      request.max_trace_bytes = std::uint64_t{o->max_trace_mib} << 20;
      request.max_trace_option = "max_trace_mib";
      // Conflicting options named as given (the library refuses them too, in its own words).
      std::map<std::string, std::string> bound_given;
      for (const auto& b : o->bounds) {
        const auto [header, n] = parse_loop_bound(b);
        const auto [it, fresh] = bound_given.try_emplace(header, b);
        if (!fresh && it->second != b && parse_loop_bound(it->second).second != n)
          throw input_error("--loop-bound " + it->second + " and --loop-bound " + b + " bound loop " + header +
                            " twice; give one");
      }
      const wcet_run run = run_wcet(request);
      const wcet_program& program = run.program;
      const trace_set& traces = run.traces;
      const wcet_report& r = run.report;
      if (!o->lp.empty()) {
        // The solution beside the model, so that a reader can check a solver's answer against both.
        std::ostringstream head;
        head << "\\ Z_warp = " << r.z_warp << " by " << r.method << "; tree-based calculation: "
             << (r.tree ? std::to_string(*r.tree) : std::string("not applicable (IPG not structured)")) << "\n";
        for (const auto& l : r.problem.loops)
          head << "\\ loop " << l.name << ": at most " << l.bound << " iterations per entry\n";
        std::istringstream tree(r.tree_text);
        for (std::string line; std::getline(tree, line);) head << "\\ tree: " << line << "\n";
        write_output(o->lp, head.str() + ipet_lp_text(r.problem, program.graph.name), "LP file");
      }
      if (!o->dot.empty()) {
        std::vector<std::string> labels;
        for (const auto& e : r.observed.edges)
          labels.push_back(std::to_string(e.wcet) + " x" + std::to_string(e.max_count));
        write_output(o->dot, ipg_dot(program.ipoints, program.graph.name, labels), "IPG");
      }
      if (!o->svg_dir.empty()) {
        const auto wsts = slice_traces(traces);
        std::size_t drawn = 0;
        for (const auto& s : r.concurrency.sm_runs) {
          if (drawn++ == 64) break;
          write_file(o->svg_dir, "run" + std::to_string(s.run) + "_sm" + std::to_string(s.sm) + ".svg",
                     wcet_timeline_svg(s, wsts, program.ipoints.names, program.graph.name));
        }
      }
      if (o->as_json)
        std::cout << wcet_report_json(program, r).dump(2) << '\n';
      else
        print_report(program, r);
      for (const auto& w : r.warnings) std::cerr << "warpspan: warning: " << w << '\n';
      return 0;
    });
  }
  add_wcet_collect_command(app, commands);
}

}  // namespace warpspan::cli
