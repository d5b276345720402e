// `warpspan estimate`: the worst-case makespan by simulated annealing, within a time budget, with a proven interval.
#include "makespan_options.hpp"
#include "warpspan/io/estimate_text.hpp"
#include "warpspan/orchestrator/shards.hpp"

namespace warpspan::cli {

namespace {

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
    auto* sub = app.add_subcommand(
        "estimate", "estimate the worst-case makespan by simulated annealing (Berezovskyi, Bletsas and Petters 2013)");
    po.add(sub);
    sub->add_option("--chains", eo.chains,
                    "independent annealing chains (default: 2 per CPU thread; on a GPU as many as it keeps resident, "
                    "from its SM count and the occupancy calculator)");
    sub->add_option("--iterations", eo.iterations,
                    "iterations per chain; also the cooling schedule's length (with --seconds and no --iterations, the "
                    "schedule follows the budget instead)")
        ->capture_default_str();
    sub->add_option("--seconds", seconds,
                    "the whole run (set-up, search, proven interval) within this many seconds; without --iterations "
                    "the chains cool down by then (default: no limit)");
    sub->add_option("--seed", eo.seed, "random seed")->capture_default_str();
    sub->add_option("--t0", eo.t0, "initial temperature")->capture_default_str();
    sub->add_option(
           "--reach", eo.reach,
           "largest swap distance of a move (0: 4 W, four rounds of all warps; W x I or more: the whole string)")
        ->capture_default_str();
    sub->add_option("--far-moves", eo.far_moves,
                    "share of moves (0 to 1) whose swap distance is drawn over the whole string, whatever --reach says")
        ->capture_default_str();
    sub->add_option("--init", init,
                    "initial strings: rr, fp, mpwf, starve (one warp after all the others), beam (a beam search over "
                    "the exact search's states), random or mix (all in turn)")
        ->capture_default_str();
    sub->add_option("--beam-share", eo.beam_share,
                    "with --seconds: the share (0 to 1) of the search's time (--seconds less the proven interval's) "
                    "for the beam search behind the beam chains, each progress sum as wide as the time left allows")
        ->capture_default_str();
    sub->add_option("--beam-width", eo.beam_width,
                    "without --seconds or with --iterations: the width of the one beam behind the beam chains (with "
                    "--seconds it narrows if it outlasts its share)")
        ->capture_default_str();
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

  /// The request of the run: the chains' options, the budgets, the input files for a shard's header.
  estimate_request make_request(CLI::App* sub) const {
    estimate_request request;
    request.shard = !shard.empty();
    request.search = eo;
    request.iterations_given = sub->count("--iterations") > 0;
    request.seconds = seconds;
    request.exact_seconds = exact_seconds;
    std::error_code ec;
    request.inputs = {{"kernel", po.kernel.rfind('@', 0) == 0 ? po.kernel.substr(1) : ""},
                      {"ptx_path", po.ptx},
                      {"sm", !po.sm.empty() && std::filesystem::is_regular_file(po.sm, ec) ? po.sm : ""}};
    return request;
  }

  /// schedule.svg and envelope.svg into --svg-dir (when given): the paths written.
  std::vector<std::string> write_svgs(const problem& prob, const estimate_report& report) const {
    if (svg_dir.empty()) return {};
    const estimate_result& r = report.result;
    const std::optional<proven_interval>& proven = report.proven;
    const std::string title = prob.kernel_text() + ", W = " + std::to_string(prob.warps);
    return {write_file(svg_dir, "schedule.svg", schedule_svg(prob, r.schedule, "Worst schedule found: " + title)),
            write_file(svg_dir, "envelope.svg",
                       envelope_svg(
                           r.envelope, r.upper_bound, "Best makespan over time: " + title,
                           proven ? std::optional(std::pair<std::uint64_t, std::uint64_t>(proven->lower, proven->upper))
                                  : std::nullopt))};
  }

  int run(CLI::App* sub) {
    install_interrupt_handlers();
    if (sub->count("--validate") && eo.validate == 0) eo.validate = 8;
    eo.init = parse_initial_kind(init);
    eo.backend = parse_backend(backend);
    if (given(svg_dir_opt) && svg_dir.empty()) throw input_error("--svg-dir: the path is empty");
    if (!shard.empty()) {
      const shard_slice slice = parse_shard(shard);
      eo.slice = slice.index;
      eo.slices = slice.count;
      if (given(svg_dir_opt))
        throw input_error("--svg-dir applies to the whole run: give it to neither --shard nor merge");
      as_json = true;
    }
    // Under mpirun the chains are split across the ranks; rank 0 alone proves, draws and prints.
    eo.ranks = &world();
    estimate_text_options text;
    const problem prob = po.make(&text.origin);
    progress_line bar(!quiet, "iterations");
    progress_fn progress;
    if (bar.shown())
      progress = [&bar](double s, std::uint64_t done, std::uint64_t total, std::uint32_t best) {
        bar.update(
            done, total,
            "best " + std::to_string(best) + ", " + rate_text(static_cast<double>(done) / std::max(s, 1e-9)) + " it/s");
      };
    const estimate_request request = make_request(sub);
    const std::function<void(double)> on_proving = [&](double s) {
      bar.message("proving an interval (about " + rate_text(s) + " s, --exact-seconds) ...");
    };
    const estimate_report report = run_estimate_request(prob, request, progress, on_proving);
    bar.clear();
    const int exit_code = report.result.interrupted ? interrupted_exit_code : 0;
    if (world().rank() == 0) text.written = write_svgs(prob, report);
    if (as_json) {
      json out = estimate_json(prob, request, report);
      if (!text.written.empty()) out["svg"] = text.written;
      std::cout << out.dump() << '\n';
      return exit_code;
    }
    text.show_string = show_string;
    text.table = !no_table;
    text.table_width = no_table ? 0 : terminal_columns();
    text.exact_seconds = exact_seconds;
    text.face = cli_face();
    print_estimate_text(std::cout, prob, report, text);
    return exit_code;
  }
};

}  // namespace

void add_estimate_command(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  // The command objects live as long as the program; CLI11 binds options to their members.
  static estimate_cmd estimate;
  estimate.add(app, commands);
}

}  // namespace warpspan::cli
