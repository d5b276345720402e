// estimate, build, bound, kernel and sm: the makespan side of the command line.
#include <sys/ioctl.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "progress_line.hpp"
#include "options.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/exact/ilp.hpp"
#include "warpspan/exact/interval.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/exact/sweep_ranks.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/io/svg.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/orchestrator/estimate_run.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/ptx.hpp"

namespace warpspan::cli {

namespace {

/// The columns of the terminal stdout goes to; 0 when it is not a terminal (a file or pipe gets
/// whole rows).
std::size_t terminal_columns() {
  if (!isatty(STDOUT_FILENO)) return 0;
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return 80;
  return ws.ws_col;
}


using json = nlohmann::json;

/// A rate or a duration for a progress line: three significant digits.
std::string rate_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// True when the user gave the option, even as an empty string ("--ptx ''" is a mistake, not "no --ptx").
bool given(const CLI::Option* opt) { return opt != nullptr && opt->count() > 0; }

/// A whole number in `text`, all of it; nullopt for anything else (a sign, a suffix, overflow).
std::optional<int> whole_number(std::string_view text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || text[0] == '-' || text[0] == '+')
    return std::nullopt;
  return v;
}

/// The options every makespan command shares: what kernel, how many warps, which SM.
struct problem_options {
  std::string kernel;
  std::string ptx;
  std::string ptx_lines;
  int ptx_loops = 1;
  std::string ptx_entry;
  std::string ptx_map;
  std::int64_t warps = 0;
  std::string sigma;
  std::string sm;
  int schedulers = -1;
  CLI::Option* kernel_opt = nullptr;
  CLI::Option* ptx_opt = nullptr;
  CLI::Option* ptx_lines_opt = nullptr;
  CLI::Option* sigma_opt = nullptr;
  CLI::Option* sm_opt = nullptr;

  void add(CLI::App* app, bool need_warps = true) {
    kernel_opt = app->add_option("--kernel,-k", kernel,
                                 "kernel instruction string, plain (LLCC) or run-length (5L9C2L9C), or @FILE to read it "
                                 "from a file (e.g. @data/kernels/voronoi.txt; # starts a comment)");
    ptx_opt = app->add_option("--ptx", ptx, "read the kernel from a PTX file instead (see data/kernels/README.md)");
    ptx_lines_opt = app->add_option("--ptx-lines", ptx_lines, "with --ptx: only lines A:B (1-based, inclusive)");
    app->add_option("--ptx-loops", ptx_loops,
                    "with --ptx: passes through each loop (a branch back is taken N - 1 times; a loop bound the "
                    "PTX does not state); default 1, the first pass only")
        ->check(integer_range(1, 1000000));
    app->add_option("--ptx-entry", ptx_entry, "with --ptx: the .entry/.func to read (default: the first)");
    app->add_option("--ptx-map", ptx_map, "with --ptx: override classes, e.g. mov=L,mul.f32=D");
    auto* w = app->add_option("--warps,-w", warps, "number of warps W");
    if (need_warps) w->required();
    sigma_opt = app->add_option("--sigma", sigma, "units per warp per cycle, e.g. L=1,C=4 or L=1/2 (overrides --sm)");
    sm_opt = app->add_option("--sm", sm, "SM preset name (see `warpspan sm`) or JSON file");
    app->add_option("--schedulers", schedulers, "at most N warps issue per cycle (0: no limit)")->check(not_negative());
  }

  bool has_ptx() const { return !ptx.empty() || given(ptx_opt); }
  bool has_sm() const { return !sm.empty() || given(sm_opt) || !sigma.empty() || given(sigma_opt); }

  sm_config make_sm() const {
    const bool has_sm = !sm.empty() || given(sm_opt), has_sigma = !sigma.empty() || given(sigma_opt);
    return sm_from_options(has_sm ? std::optional(sm) : std::nullopt, has_sigma ? std::optional(sigma) : std::nullopt,
                           schedulers);
  }

  ptx_options make_ptx_options() const {
    ptx_options o;
    o.loop_passes = ptx_loops;
    o.entry = ptx_entry;
    if (!ptx_map.empty()) o.overrides = parse_ptx_overrides(ptx_map);
    if (!ptx_lines.empty() || given(ptx_lines_opt)) {
      const auto colon = ptx_lines.find(':');
      const std::string_view text(ptx_lines);
      const auto a = colon == std::string::npos ? std::nullopt : whole_number(text.substr(0, colon));
      const auto b = colon == std::string::npos ? std::nullopt : whole_number(text.substr(colon + 1));
      if (!a || !b) throw input_error("--ptx-lines: '" + ptx_lines + "' is not of the form A:B (two whole numbers)");
      o.first_line = *a;
      o.last_line = *b;
      if (o.first_line < 1 || o.last_line < o.first_line) throw input_error("--ptx-lines: need 1 <= A <= B");
    }
    return o;
  }

  /// The kernel string of --kernel @FILE: the file's text without `#` comments and white space.
  static std::string kernel_from_file(const std::string& path) {
    if (path.empty()) throw input_error("--kernel @: the file name is empty");
    const std::string text = read_text_file(path, "kernel string", std::size_t{64} << 20);
    std::string out;
    bool comment = false;
    for (char c : without_bom(text)) {
      if (c == '\n') comment = false;
      else if (c == '#') comment = true;
      if (!comment && !std::isspace(static_cast<unsigned char>(c)) && c != '#') out.push_back(c);
    }
    if (out.empty()) throw input_error("kernel string " + path + ": the file holds no kernel string");
    return out;
  }

  kernel_string raw_kernel(std::string* origin = nullptr) const {
    const bool has_kernel = !kernel.empty() || given(kernel_opt);
    if (has_kernel && has_ptx()) throw input_error("give either --kernel or --ptx, not both");
    if (has_ptx()) {
      auto r = import_ptx_file(ptx, make_ptx_options());
      if (origin) *origin = ptx + " (" + r.entry + ")";
      return r.kernel;
    }
    if (!has_kernel) throw input_error("give --kernel STRING or --ptx FILE");
    if (origin) *origin = "--kernel";
    if (!kernel.empty() && kernel[0] == '@') return parse_kernel_string(kernel_from_file(kernel.substr(1)));
    return parse_kernel_string(kernel);
  }

  problem make(std::string* origin = nullptr) const {
    const kernel_string raw = raw_kernel(origin);
    const normalized_sm norm = normalize(make_sm());
    return make_problem(normalize_kernel(raw, norm), norm, warps);
  }
};


std::string join(const std::vector<int>& v) {
  std::ostringstream os;
  for (std::size_t k = 0; k < v.size(); ++k) os << (k ? " " : "") << v[k];
  return os.str();
}

// ------------------------------------------------------------------------------------ estimate
struct estimate_cmd {
  problem_options po;
  estimate_options eo;
  std::string init = "mix";
  std::string backend = "auto";
  bool as_json = false;
  bool quiet = false;
  bool no_table = false;
  bool show_string = false;
  std::string svg_dir;
  CLI::Option* svg_dir_opt = nullptr;
  double seconds = 0;
  double exact_seconds = 2;
  std::string shard;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("estimate", "estimate the worst-case makespan by simulated annealing (Berezovskyi, Bletsas and Petters 2013)");
    po.add(sub);
    sub->add_option("--chains", eo.chains, "independent annealing chains (default: 2 per CPU thread; on a GPU as many as it keeps resident, from its SM count and the occupancy calculator)");
    sub->add_option("--iterations", eo.iterations,
                    "iterations per chain; also the cooling schedule's length (with --seconds and no --iterations, the "
                    "schedule follows the budget instead)")
        ->capture_default_str();
    sub->add_option("--seconds", seconds,
                    "the whole run (set-up, search, proven interval) within this many seconds; without --iterations "
                    "the chains cool down by then (default: no limit)");
    sub->add_option("--seed", eo.seed, "random seed")->capture_default_str();
    sub->add_option("--t0", eo.t0, "initial temperature")->capture_default_str();
    sub->add_option("--reach", eo.reach, "largest swap distance of a move (0: 4 W, four rounds of all warps; W x I or more: the whole string)")
        ->capture_default_str();
    sub->add_option("--init", init, "initial strings: rr, fp, mpwf, random or mix")->capture_default_str();
    sub->add_option("--backend", backend, "cpu, cuda or auto (CUDA when a device is present)")->capture_default_str();
    sub->add_option("--threads", eo.threads, "CPU threads (0: all cores; at most 4 per core)")->capture_default_str();
    sub->add_option("--validate", eo.validate, "re-run N of the GPU chains on the CPU; fail if any differs")
        ->expected(0, 1)
        ->default_str("8");
    sub->add_flag("--json", as_json, "print one JSON object");
    sub->add_flag("--quiet,-q", quiet, "no progress line");
    sub->add_flag("--no-table", no_table, "do not draw the schedule");
    sub->add_flag("--show-string", show_string,
                  "print the worst pseudo-precedence string (W x I warp ids; always in --json as best_string)");
    svg_dir_opt = sub->add_option("--svg-dir", svg_dir, "write schedule.svg and envelope.svg into this directory");
    sub->add_option("--exact-seconds", exact_seconds,
                    "afterwards, spend about this long on exact searches to prove an interval for the worst case "
                    "(0: skip; with --seconds, at most a quarter of it)")
        ->capture_default_str();
    sub->add_option("--shard", shard,
                    "I/N: run only slice I (0-based) of N of the chains, by chain id, and print JSON for "
                    "`warpspan merge` (no proven interval: prove it afterwards with `warpspan exact`)");
    commands.emplace_back(sub, [this, sub] { return run(sub); });
  }

  int run(CLI::App* sub) {
    install_interrupt_handlers();
    if (sub->count("--validate") && eo.validate == 0) eo.validate = 8;
    eo.init = parse_initial_kind(init);
    eo.backend = parse_backend(backend);
    if (given(svg_dir_opt) && svg_dir.empty()) throw input_error("--svg-dir: the path is empty");
    // (the library checks these too, in its own words)
    if (seconds < 0) throw input_error("--seconds must be 0 or more");
    if (exact_seconds < 0) throw input_error("--exact-seconds must be 0 or more");
    estimate_request request;
    if (!shard.empty()) {
      const auto slice = parse_shard(shard);
      eo.slice = slice.first;
      eo.slices = slice.second;
      if (given(svg_dir_opt)) throw input_error("--svg-dir applies to the whole run: give it to neither --shard nor merge");
      as_json = true;
      request.shard = true;
    }
    // Under mpirun the chains are split across the ranks; rank 0 alone proves, draws and prints.
    eo.ranks = &world();
    const bool rank0 = world().rank() == 0;
    std::string origin;
    const problem prob = po.make(&origin);
    progress_line bar(!quiet, "iterations");
    progress_fn progress;
    if (bar.shown())
      progress = [&bar](double s, std::uint64_t done, std::uint64_t total, std::uint32_t best) {
        bar.update(done, total, "best " + std::to_string(best) + ", " + rate_text(static_cast<double>(done) / std::max(s, 1e-9)) + " it/s");
      };
    request.search = eo;
    request.iterations_given = sub->count("--iterations") > 0;
    request.seconds = seconds;
    request.exact_seconds = exact_seconds;
    const std::function<void(double)> on_proving = [&](double s) {
      bar.message("proving an interval (about " + rate_text(s) + " s, --exact-seconds) ...");
    };
    const estimate_report report = run_estimate_request(prob, request, progress, on_proving);
    bar.clear();
    const estimate_result& r = report.result;
    const std::optional<proven_interval>& proven = report.proven;
    const bool was_interrupted = r.interrupted;
    const int exit_code = was_interrupted ? interrupted_exit_code : 0;

    std::vector<std::string> written;
    if (!svg_dir.empty() && rank0) {
      const std::string title = to_run_length(prob.kernel) + ", W = " + std::to_string(prob.warps);
      written.push_back(write_file(svg_dir, "schedule.svg",
                                   schedule_svg(prob, r.schedule, "Worst schedule found: " + title)));
      written.push_back(write_file(svg_dir, "envelope.svg",
                                   envelope_svg(r.envelope, r.upper_bound, "Best makespan over time: " + title,
                                                proven ? std::optional(std::pair<std::uint64_t, std::uint64_t>(proven->lower, proven->upper))
                                                       : std::nullopt)));
    }
    if (as_json) {
      json out = estimate_json(prob, request, report);
      if (!written.empty()) out["svg"] = written;
      if (!shard.empty())
        out["shard"] = {{"command", "estimate"}, {"index", eo.slice}, {"count", eo.slices},
                        {"chain_begin", r.chain_begin}, {"chain_end", r.chain_end}, {"iterations_target", eo.iterations},
                        // Every setting that changes a chain's trajectory or its stop: merge refuses
                        // shards that differ in any (the problem, seed and chains are compared too).
                        {"settings", {{"--iterations", eo.iterations}, {"--t0", eo.t0}, {"--reach", eo.reach},
                                      {"--init", init}, {"--seconds", seconds}}}};
      std::cout << out.dump() << '\n';
      return exit_code;
    }
    if (was_interrupted)
      std::cout << "INTERRUPTED (Ctrl-C or SIGTERM): the best found so far, " << r.iterations << " iterations in "
                << std::setprecision(3) << r.elapsed_s << " s\n";
    std::cout << "kernel      " << to_run_length(prob.kernel) << " (" << prob.instructions()
              << " instructions after normalisation, from " << origin << ")\n"
              << "SM          " << describe(prob.sm) << "\n"
              << "warps       " << prob.warps << "\n"
              << "search      " << r.chains << " chains x " << r.iterations_per_chain << " iterations on " << r.backend
              << " in " << std::fixed << std::setprecision(2) << r.elapsed_s << " s ("
              << std::setprecision(3) << std::scientific << static_cast<double>(r.iterations) / std::max(r.elapsed_s, 1e-9)
              << " it/s)" << std::defaultfloat << (r.time_limited ? ", stopped by --seconds" : "")
              << (report.cooling_fitted_to_seconds && !r.time_limited && !r.interrupted ? ", cooled to fit --seconds" : "")
              << (r.interrupted ? ", interrupted" : "") << "\n"
              << "estimate    " << r.best_makespan << " cycles (a lower bound on the worst case)\n"
              << "upper bound " << r.upper_bound << " cycles (pessimistic, Berezovskyi, Bletsas and Andersson 2012)\n";
    if (proven) {
      std::cout << "proven      " << proven->lower << " <= worst case <= " << proven->upper << " cycles (";
      if (proven->exact)
        std::cout << "exact search";
      else if (proven->upper_from == "tractable")
        std::cout << "tractable: ceil(" << prob.warps << " / " << proven->tractable_y << ") x T(" << proven->tractable_y << ")";
      else
        std::cout << "upper from the " << proven->upper_from << (proven->upper_from == "search" ? " stopped by time" : " bound");
      if (!proven->exact_t.empty()) std::cout << ", exact T(1.." << proven->exact_t.size() << ")";
      std::cout << ", " << std::setprecision(3) << proven->elapsed_s << " s)\n";
    } else if (exact_seconds > 0 && r.interrupted) {
      std::cout << "proven      (skipped: interrupted)\n";
    }
    if (r.validated) std::cout << "validated   " << r.validated << " chains identical on the CPU\n";
    std::cout << "envelope    ";
    for (std::size_t k = 0; k < r.envelope.size(); ++k)
      std::cout << (k ? ", " : "") << std::setprecision(3) << r.envelope[k].seconds << " s: " << r.envelope[k].best;
    std::cout << "\nworst string from chain " << r.best_chain << " (" << to_string(r.best_chain_init) << " start)";
    if (show_string)
      std::cout << ": " << join(one_based(r.best_string)) << "\n";
    else
      std::cout << " (" << r.best_string.size() << " warp ids: --show-string, or best_string in --json)\n";
    if (!no_table) std::cout << "\n" << render_table(prob, r.schedule, terminal_columns());
    for (const auto& f : written) std::cout << "wrote " << f << "\n";
    return exit_code;
  }
};

// ------------------------------------------------------------------------------------ build
struct build_cmd {
  problem_options po;
  std::string str;
  std::string init;
  std::string svg;
  bool as_json = false;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("build", "build the schedule of one pseudo-precedence string (the builder of Berezovskyi et al. 2013)");
    po.add(sub);
    sub->add_option("--string", str, "warp ids, 1-based, e.g. \"1 1 2 2 3 3 1 2 3 4 4 4\"");
    sub->add_option("--init", init, "or a constructed string: rr, fp or mpwf");
    sub->add_option("--svg", svg, "also draw the schedule into this SVG file");
    sub->add_flag("--json", as_json, "print one JSON object");
    commands.emplace_back(sub, [this] { return run(); });
  }

  int run() {
    const problem prob = po.make();
    std::vector<std::uint16_t> s;
    if (!str.empty() && !init.empty()) throw input_error("give either --string or --init, not both");
    if (!str.empty()) {
      s = parse_warp_string(prob, str);
    } else {
      const auto kind = parse_initial_kind(init.empty() ? "rr" : init);
      if (!kind || *kind == initial_kind::random) throw input_error("--init: use rr, fp or mpwf with build");
      s = initial_string(prob.view(), *kind, 1, 0);
    }
    const built_schedule b = build_schedule(prob, s);
    std::string written;
    if (!svg.empty()) {
      const std::filesystem::path path(svg);
      written = write_file(path.has_parent_path() ? path.parent_path().string() : ".", path.filename().string(),
                           schedule_svg(prob, b, "Schedule of the given string: " + to_run_length(prob.kernel) + ", W = " +
                                                     std::to_string(prob.warps)));
    }
    if (as_json) {
      json out{{"makespan", b.makespan},
                        {"string", one_based(s)},
                        {"warp_cycle_string", b.warp_cycle},
                        {"upper_bound", pessimistic_bound(prob)},
                        {"problem", problem_json(prob)}};
      if (!written.empty()) out["svg"] = written;
      std::cout << out.dump() << '\n';
      return 0;
    }
    std::vector<int> wc(b.warp_cycle.begin(), b.warp_cycle.end());
    std::cout << "makespan    " << b.makespan << " cycles\nstring      " << join(one_based(s))
              << "\nwarp cycles " << join(wc) << "\n\n"
              << render_table(prob, b, terminal_columns());
    if (!written.empty()) std::cout << "wrote " << written << "\n";
    return 0;
  }
};

// ------------------------------------------------------------------------------------ exact
struct exact_cmd {
  problem_options po;
  std::string method = "auto";
  std::string backend = "auto";
  std::string constraints = "short";
  std::string lp_file;
  exact_options xo;
  // Signed, so that a negative value is refused rather than wrapped by CLI11.
  long long max_states = 0;
  long long threads = 0;
  long long warm_start = 200000;
  bool as_json = false;
  bool no_table = false;
  bool no_prune = false;
  bool quiet = false;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "exact", "the exact worst-case makespan by search over work-conserving schedules or by the binary ILP of Berezovskyi, Bletsas and Andersson 2012 "
                 "Sec. 5 solved with COIN-OR CBC (issue 4)");
    po.add(sub);
    sub->add_option("--method", method, "search (multiset search), ilp (the binary ILP of Berezovskyi et al. 2012, with CBC) or auto (= search)")
        ->capture_default_str();
    sub->add_option("--constraints", constraints, "with ilp: the work-conserving constraints (Berezovskyi et al. 2012, Sec. 5.4), short or long")
        ->capture_default_str();
    sub->add_option("--lp", lp_file, "write the ILP in CPLEX LP format to FILE (any method; works without CBC)");
    sub->add_option("--backend", backend,
                    "search: cpu, cuda (the progress sweep on the device) or auto (= cpu for now)")
        ->capture_default_str();
    sub->add_option("--time-limit", xo.time_limit_s, "stop after this many seconds and report the proven interval");
    sub->add_option("--max-states", max_states,
                    "search: stop after reaching this many states (default: no limit; the held states may take at most half the memory)");
    sub->add_option("--threads", threads, "search: CPU threads (default: all cores; at most 4 per core)");
    sub->add_flag("--quiet,-q", quiet, "no progress line");
    sub->add_flag("--no-prune", no_prune, "search: expand every reachable state (no bound against the lower bound)");
    sub->add_option("--warm-start", warm_start,
                    "search: first anneal 2 chains for N iterations each (seed 1) and prune against the best string found "
                    "(0: prune against the standard strings only)")
        ->capture_default_str();
    sub->add_flag("--json", as_json, "print one JSON object");
    sub->add_flag("--no-table", no_table, "do not draw the witness schedule");
    commands.emplace_back(sub, [this] { return run(); });
  }

  int run() {
    if (method != "search" && method != "ilp" && method != "auto")
      throw input_error("--method: '" + method + "' is not a method (expected search, ilp or auto)");
    if (constraints != "short" && constraints != "long")
      throw input_error("--constraints: '" + constraints + "' is not a form (expected short or long)");
    const backend_kind kind = parse_backend(backend);
    if (xo.time_limit_s < 0 || !std::isfinite(xo.time_limit_s)) throw input_error("--time-limit must be 0 or more");
    if (max_states < 0) throw input_error("--max-states must be 0 (no limit) or more");
    if (warm_start < 0) throw input_error("--warm-start must be 0 (none) or more");
    xo.max_states = static_cast<std::uint64_t>(max_states);
    xo.warm_start = no_prune ? 0 : static_cast<std::uint64_t>(warm_start);
    xo.threads = resolve_threads(threads, "--threads");
    const problem prob = po.make();
    const ilp_constraints form = constraints == "long" ? ilp_constraints::long_form : ilp_constraints::short_form;
    std::string lp_note;
    if (!lp_file.empty()) {
      const std::string text = ilp_lp_text(prob, 0, form);
      std::ofstream out(lp_file, std::ios::binary);
      out << text;
      if (!out) throw input_error("--lp: cannot write '" + lp_file + "'");
      const auto [vars, rows] = ilp_size(prob, 0, form);
      lp_note = "wrote the ILP (" + std::to_string(vars) + " binary variables, " + std::to_string(rows) + " constraints, " +
                constraints + " form) to " + lp_file;
    }
    // CBC's C interface offers no hook to stop a solve, so Ctrl-C keeps its default action for
    // the ILP; the search polls the flag where it checks its time limit.
    if (method == "ilp") return run_ilp(prob, form, lp_note);
    install_interrupt_handlers();
    xo.prune = !no_prune;
    progress_line bar(!quiet, "progress sum");
    if (bar.shown())
      xo.progress = [&bar](std::uint32_t done, std::uint32_t all, std::uint64_t states, double) {
        bar.update(done, all, std::to_string(states) + " states");
      };
    std::string algorithm;
    // Under mpirun the CPU progress sweep runs across the ranks (states partitioned by hash).
    const exact_result r = exact_search(prob, xo, kind, &algorithm, &world());
    bar.clear();
    const bool on_gpu = kind == backend_kind::cuda;
    const built_schedule b = build_schedule(prob, r.best_string);
    if (as_json) {
      json out = result_json(prob, r.complete, r.makespan, r.lower, r.upper, r.elapsed_s, r.best_string, r.stop_reason);
      out["method"] = "search";
      out["algorithm"] = algorithm;
      out["backend"] = on_gpu ? cuda_backend_name() : "cpu";
      out["states"] = r.states;
      out["pruned"] = r.pruned;
      out["interrupted"] = r.interrupted;
      std::cout << out.dump() << '\n';
      return r.interrupted ? interrupted_exit_code : 0;
    }
    std::cout << "kernel      " << to_run_length(prob.kernel) << ", W = " << prob.warps << ", " << describe(prob.sm) << "\n";
    if (!lp_note.empty()) std::cout << "lp          " << lp_note << "\n";
    if (r.complete)
      std::cout << "exact       " << r.makespan << " cycles (" << algorithm << " search on " << (on_gpu ? cuda_backend_name() : std::string("cpu"))
                << ", " << r.states << " states, " << r.pruned << " pruned, " << std::setprecision(3) << r.elapsed_s
                << " s)\n";
    else
      std::cout << "stopped     " << r.stop_reason << " after " << r.states << " states, " << std::setprecision(3)
                << r.elapsed_s << " s\nproven      " << r.lower << " <= worst case <= " << r.upper << " cycles\n";
    std::cout << "witness     " << join(one_based(r.best_string)) << "\n";
    if (r.interrupted) std::cout << "interrupted (SIGINT or SIGTERM): the interval above is what the search proved so far\n";
    if (!no_table) std::cout << "\n" << render_table(prob, b, terminal_columns());
    return r.interrupted ? interrupted_exit_code : 0;
  }

  /// The fields every exact method reports.
  json result_json(const problem& prob, bool complete, std::uint32_t makespan, std::uint32_t lower, std::uint32_t upper,
                   double elapsed_s, const std::vector<std::uint16_t>& best, const std::string& stop_reason) const {
    json out = {{"complete", complete},
                {"makespan", complete ? json(makespan) : json(nullptr)},
                {"lower", lower},
                {"upper", upper},
                {"elapsed_s", elapsed_s},
                {"best_string", one_based(best)},
                {"pessimistic", pessimistic_bound(prob)},
                {"problem", problem_json(prob)}};
    if (!complete) out["stop_reason"] = stop_reason;
    if (!lp_file.empty()) out["lp_file"] = lp_file;
    return out;
  }

  int run_ilp(const problem& prob, ilp_constraints form, const std::string& lp_note) {
    ilp_options io;
    io.constraints = form;
    io.time_limit_s = xo.time_limit_s;
    const ilp_result r = exact_ilp(prob, io);
    const built_schedule b = build_schedule(prob, r.best_string);
    if (as_json) {
      json out = result_json(prob, r.complete, r.makespan, r.lower, r.upper, r.elapsed_s, r.best_string, r.status);
      out["method"] = "ilp";
      out["backend"] = "cpu";
      out["solver"] = "cbc";
      out["constraint_form"] = constraints;
      out["variables"] = r.variables;
      out["constraints"] = r.constraints;
      std::cout << out.dump() << '\n';
      return 0;
    }
    std::cout << "kernel      " << to_run_length(prob.kernel) << ", W = " << prob.warps << ", " << describe(prob.sm) << "\n"
              << "ilp         " << r.variables << " binary variables, " << r.constraints << " constraints (" << constraints
              << " work-conserving constraints)\n";
    if (!lp_note.empty()) std::cout << "lp          " << lp_note << "\n";
    if (r.complete)
      std::cout << "exact       " << r.makespan << " cycles (ILP with CBC, " << std::setprecision(3) << r.elapsed_s << " s)\n";
    else
      std::cout << "stopped     " << r.status << " after " << std::setprecision(3) << r.elapsed_s << " s\nproven      "
                << r.lower << " <= worst case <= " << r.upper << " cycles\n";
    std::cout << "witness     " << join(one_based(r.best_string)) << "\n";
    if (!no_table) std::cout << "\n" << render_table(prob, b, terminal_columns());
    return 0;
  }
};

// ------------------------------------------------------------------------------------ bound
struct bound_cmd {
  problem_options po;
  long long exact_up_to = 0;  // signed, so that a negative value is refused rather than wrapped
  double time_limit = 0;
  bool as_json = false;
  bool quiet = false;
  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("bound", "upper bounds on the worst-case makespan (the pessimistic and the tractable bound of Berezovskyi et al. 2012)");
    po.add(sub);
    sub->add_option("--exact-up-to", exact_up_to,
                    "also the tractable estimate min over y <= x of ceil(W / y) T(y), T(y) exact by search");
    sub->add_option("--time-limit", time_limit, "seconds allowed for all the exact T(y) together (default: no limit)");
    sub->add_flag("--json", as_json, "print one JSON object");
    sub->add_flag("--quiet,-q", quiet, "no progress line (shown on a terminal while the T(y) are searched)");
    commands.emplace_back(sub, [this] { return run(); });
  }
  int run() {
    if (time_limit < 0 || !std::isfinite(time_limit)) throw input_error("--time-limit must be 0 or more");
    if (exact_up_to < 0) throw input_error("--exact-up-to must be 0 (none) or more");
    if (exact_up_to > exact_max_warps) throw input_error("--exact-up-to is at most " + std::to_string(exact_max_warps));
    const problem prob = po.make();
    const auto b = pessimistic_bound(prob);
    json out{{"pessimistic", b}, {"problem", problem_json(prob)}};
    std::vector<std::uint32_t> t;
    std::vector<t_run> runs;
    std::pair<std::uint64_t, std::uint32_t> tractable{0, 0};
    bool was_interrupted = false;
    if (exact_up_to > 0) {
      install_interrupt_handlers();
      progress_line bar(!quiet, "T(y)");
      runs = exact_t_runs(prob, static_cast<std::uint32_t>(exact_up_to), time_limit,
                          [&bar](std::uint32_t y, std::uint32_t up_to, std::uint32_t done, std::uint32_t sums, double) {
                            bar.update(y, up_to, "progress sum " + std::to_string(done) + "/" + std::to_string(sums));
                          });
      bar.clear();
      was_interrupted = interrupted();
      t_runs_json(out, prob, runs);
      out["interrupted"] = was_interrupted;
      t = out["exact_T"].get<std::vector<std::uint32_t>>();
      if (!t.empty()) tractable = {out["tractable"].get<std::uint64_t>(), out["tractable_y"].get<std::uint32_t>()};
    }
    const int code = was_interrupted ? interrupted_exit_code : 0;
    if (as_json) {
      std::cout << out.dump() << '\n';
      return code;
    }
    std::cout << "pessimistic bound " << b << " cycles (" << to_run_length(prob.kernel) << ", W = " << prob.warps
              << ", " << describe(prob.sm) << ")\n";
    if (!t.empty()) {
      std::cout << "tractable bound   " << tractable.first << " cycles = ceil(" << prob.warps << " / " << tractable.second
                << ") x T(" << tractable.second << "), exact T(1.." << t.size() << ") = ";
      for (std::size_t k = 0; k < t.size(); ++k) std::cout << (k ? ", " : "") << t[k];
      std::cout << "\n";
    }
    for (const t_run& run : runs)
      if (!run.complete)
        std::cout << "unfinished        " << run.lower << " <= T(" << run.y << ") <= " << run.upper << " ("
                  << run.stop_reason << ")\n";
    if (was_interrupted) std::cout << "interrupted       (SIGINT or SIGTERM): the T(y) above are what was finished\n";
    return code;
  }
};

// ------------------------------------------------------------------------------------ kernel
struct kernel_cmd {
  problem_options po;
  bool as_json = false;
  bool trace = false;
  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "kernel",
        "show a kernel string: parse --kernel or import --ptx (loads/stores/atomics L, f64 D, "
        "sin/cos/lg2/ex2/rsqrt and approximate rcp/sqrt S, other arithmetic C; conditional branches fall through, "
        "an unconditional backward branch ends the walk: see data/kernels/README.md); with --sm/--sigma also the normalised form");
    po.add(sub, false);
    sub->add_flag("--trace", trace, "with --ptx: list every instruction walked and its class");
    sub->add_flag("--json", as_json, "print one JSON object");
    commands.emplace_back(sub, [this] { return run(); });
  }
  int run() {
    std::string origin;
    kernel_string raw;
    ptx_import_result imported;
    if (po.has_ptx()) {
      if (!po.kernel.empty() || given(po.kernel_opt)) throw input_error("give either --kernel or --ptx, not both");
      imported = import_ptx_file(po.ptx, po.make_ptx_options());
      raw = imported.kernel;
    } else {
      raw = po.raw_kernel();
    }
    json out = {{"kernel", to_run_length(raw)}, {"plain", to_plain(raw)}, {"instructions", raw.size()}};
    std::string normalized;
    if (po.has_sm()) {
      const normalized_sm norm = normalize(po.make_sm());
      const kernel_string nk = normalize_kernel(raw, norm);
      out["normalized"] = to_run_length(nk);
      out["normalized_instructions"] = nk.size();
      normalized = to_run_length(nk) + " (" + std::to_string(nk.size()) + " instructions; " + describe(norm) + ")";
    }
    if (po.has_ptx()) {
      out["entry"] = imported.entry;
      out["stop_reason"] = imported.stop_reason;
      if (trace) {
        json t = json::array();
        for (const auto& i : imported.trace) t.push_back({{"line", i.line}, {"opcode", i.opcode}, {"class", std::string(1, letter(i.type))}});
        out["trace"] = t;
      }
    }
    if (as_json) {
      std::cout << out.dump() << '\n';
      return 0;
    }
    std::cout << "kernel      " << to_run_length(raw) << " (" << raw.size() << " instructions)\n";
    if (!normalized.empty()) std::cout << "normalised  " << normalized << "\n";
    if (po.has_ptx()) {
      std::cout << "entry       " << imported.entry << "\nwalk ended  " << imported.stop_reason << "\n";
      if (trace)
        for (const auto& i : imported.trace)
          std::cout << "  line " << std::setw(5) << i.line << "  " << letter(i.type) << "  " << i.opcode << "\n";
    }
    return 0;
  }
};

// ------------------------------------------------------------------------------------ sm
struct sm_cmd {
  std::string name;
  CLI::Option* name_opt = nullptr;
  bool as_json = false;
  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("sm", "list the SM presets, or show one (name or JSON file) normalised");
    name_opt = sub->add_option("name", name, "preset name or JSON file");
    sub->add_flag("--json", as_json, "print JSON");
    commands.emplace_back(sub, [this] { return run(); });
  }
  int run() {
    if (name.empty() && !given(name_opt)) {
      if (as_json) {
        json list = json::array();
        for (const auto& p : sm_presets()) list.push_back(json::parse(p.json));
        std::cout << list.dump() << '\n';
        return 0;
      }
      for (const auto& p : sm_presets()) {
        const sm_config cfg = parse_sm_json(p.json, p.name);
        std::cout << std::left << std::setw(12) << p.name << " " << describe(normalize(cfg)) << "\n"
                  << std::setw(12) << "" << " " << cfg.description << "\n";
      }
      return 0;
    }
    const sm_config cfg = load_sm(name);
    const normalized_sm norm = normalize(cfg);
    if (as_json) {
      json j = {{"name", cfg.name}, {"description", cfg.description}, {"source", cfg.source},
                {"warp_size", cfg.warp_size}, {"schedulers", cfg.schedulers}};
      for (int u = 0; u < unit_count; ++u)
        j["normalized"][std::string(1, unit_letters[u])] = {{"sigma", norm.sigma[u]}, {"copies", norm.copies[u]}};
      std::cout << j.dump() << '\n';
      return 0;
    }
    std::cout << cfg.name << ": " << cfg.description << "\nsource: " << cfg.source << "\nwarp size " << cfg.warp_size
              << "\n" << describe(norm) << "\n";
    for (int u = 0; u < unit_count; ++u)
      std::cout << "  " << unit_letters[u] << ": " << cfg.units[u].units << " units, latency " << cfg.units[u].latency
                << " -> sigma " << norm.sigma[u] << ", each instruction " << norm.copies[u] << " notional cycle(s)\n";
    return 0;
  }
};

}  // namespace

void add_makespan_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  // The command objects live as long as the program; CLI11 binds options to their members.
  static estimate_cmd estimate;
  static build_cmd build;
  static bound_cmd bound;
  static exact_cmd exact;
  static kernel_cmd kernel;
  static sm_cmd sm;
  estimate.add(app, commands);
  build.add(app, commands);
  bound.add(app, commands);
  exact.add(app, commands);
  kernel.add(app, commands);
  sm.add(app, commands);
}

}  // namespace warpspan::cli
