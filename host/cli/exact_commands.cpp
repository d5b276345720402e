// `warpspan bound` and `warpspan exact`: upper bounds, and the exact worst case by search or ILP.
#include "makespan_options.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/io/exact_text.hpp"

namespace warpspan::cli {

namespace {

// ------------------------------------------------------------------------------------ bound
struct bound_cmd {
  problem_options po;
  long long exact_up_to = 0;  // signed, so that a negative value is refused rather than wrapped
  double time_limit = 0;
  bool as_json = false;
  bool quiet = false;
  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("bound",
                                   "an upper bound on the worst-case makespan (the pessimistic bound; docs/makespan.md "
                                   "proves it), and the estimates of Berezovskyi et al. 2012");
    po.add(sub);
    sub->add_option(
        "--exact-up-to", exact_up_to,
        "also the tractable estimate min over y <= x of ceil(W / y) T(y) of Berezovskyi et al. 2012, T(y) exact by "
        "search (an estimate: the worst case can exceed it)");
    sub->add_option("--time-limit", time_limit, "seconds allowed for all the exact T(y) together (default: no limit)");
    sub->add_flag("--json", as_json, "print one JSON object");
    sub->add_flag("--quiet,-q", quiet, "no progress line (shown on a terminal while the T(y) are searched)");
    commands.emplace_back(sub, [this] { return run(); });
  }
  int run() {
    const std::uint32_t up_to = checked_t_runs(exact_up_to, time_limit);
    const problem prob = po.make();
    json out = bound_json(prob);
    const auto b = out["pessimistic"].get<std::uint64_t>(), formula = out["pessimistic_001"].get<std::uint64_t>();
    std::vector<std::uint32_t> t;
    std::vector<t_run> runs;
    std::pair<std::uint64_t, std::uint32_t> tractable{0, 0};
    bool was_interrupted = false;
    if (up_to > 0) {
      install_interrupt_handlers();
      progress_line bar(!quiet, "T(y)");
      runs = exact_t_runs(prob, up_to, time_limit,
                          [&bar](std::uint32_t y, std::uint32_t up_to, std::uint32_t done, std::uint32_t sums, double) {
                            bar.update(y, up_to, "swept " + std::to_string(done) + "/" + std::to_string(sums));
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
    std::cout << "pessimistic bound " << b << " cycles (" << prob.kernel_text() << ", W = " << prob.warps
              << barrier_note(prob) << ", " << describe(prob.sm) << ")\n";
    if (formula != b)
      std::cout << "001 Sec. 4        " << formula << " cycles (the paper's formula, "
                << (formula < b ? "not a bound in general: docs/makespan.md" : "looser here") << ")\n";
    if (!t.empty()) {
      std::cout << "tractable est.    " << tractable.first << " cycles = ceil(" << prob.warps << " / "
                << tractable.second << ") x T(" << tractable.second << "), exact T(1.." << t.size() << ") = ";
      for (std::size_t k = 0; k < t.size(); ++k) std::cout << (k ? ", " : "") << t[k];
      std::cout << " (001 eq. 42: an estimate, not a bound)\n";
    }
    for (const t_run& run : runs)
      if (!run.complete)
        std::cout << "unfinished        " << run.lower << " <= T(" << run.y << ") <= " << run.upper << " ("
                  << run.stop_reason << ")\n";
    if (was_interrupted) std::cout << "interrupted       (SIGINT or SIGTERM): the T(y) above are what was finished\n";
    return code;
  }
};

// ------------------------------------------------------------------------------------ exact
struct exact_cmd {
  problem_options po;
  exact_request request;
  std::string lp_file;
  bool as_json = false;
  bool no_table = false;
  bool no_prune = false;
  bool quiet = false;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("exact",
                                   "the exact worst-case makespan by search over work-conserving schedules or by the "
                                   "binary ILP of Berezovskyi, Bletsas and Andersson 2012 "
                                   "Sec. 5 solved with COIN-OR CBC (issue 4)");
    po.add(sub);
    sub->add_option(
           "--method", request.method,
           "search (multiset search), ilp (the binary ILP of Berezovskyi et al. 2012, with CBC) or auto (= search)")
        ->capture_default_str();
    sub->add_option("--constraints", request.constraints,
                    "with ilp: the work-conserving constraints (Berezovskyi et al. 2012, Sec. 5.4), short or long")
        ->capture_default_str();
    sub->add_option("--lp", lp_file, "write the ILP in CPLEX LP format to FILE (any method; works without CBC)");
    sub->add_option("--backend", request.backend,
                    "search: cpu, cuda (the progress sweep on the device) or auto (= cpu for now)")
        ->capture_default_str();
    sub->add_option("--time-limit", request.time_limit_s,
                    "stop after this many seconds and report the proven interval");
    sub->add_option("--max-states", request.max_states,
                    "search: stop after reaching this many states (default: no limit; the held states may take at most "
                    "half the memory)");
    sub->add_option("--threads", request.threads, "search: CPU threads (default: all cores; at most 4 per core)");
    sub->add_flag("--quiet,-q", quiet, "no progress line");
    sub->add_option(
        "--at-most", request.at_most,
        "search: is the worst case at most N cycles? Drops every state on no longer schedule, then proves it "
        "(without the exact value) or finds a longer schedule and the exact worst case; faster near the answer");
    sub->add_flag("--no-prune", no_prune, "search: expand every reachable state (no bound against the lower bound)");
    sub->add_option(
           "--warm-start", request.warm_start,
           "search: first anneal 2 chains for N iterations each (seed 1) and prune against the best string found "
           "(0: prune against the standard strings only)")
        ->capture_default_str();
    sub->add_flag("--json", as_json, "print one JSON object");
    sub->add_flag("--no-table", no_table, "do not draw the witness schedule");
    commands.emplace_back(sub, [this] { return run(); });
  }

  /// --lp: the ILP written whatever the method; the note for the text output.
  std::string write_lp(const problem& prob, const exact_plan& plan) const {
    if (lp_file.empty()) return "";
    const ilp_constraints form = plan.ilp_settings.constraints;
    const std::string text = ilp_lp_text(prob, 0, form);
    try {
      write_file_atomically(lp_file, text);
    } catch (const input_error& e) {
      throw input_error("--lp: " + e.description());
    }
    const auto [vars, rows] = ilp_size(prob, 0, form);
    return "wrote the ILP (" + std::to_string(vars) + " binary variables, " + std::to_string(rows) + " constraints, " +
           request.constraints + " form) to " + lp_file;
  }

  int run() {
    request.prune = !no_prune;
    exact_plan plan = check_exact_request(request);
    const problem prob = po.make();
    const std::string lp_note = write_lp(prob, plan);
    // CBC's C interface offers no hook to stop a solve, so Ctrl-C keeps its default action for
    // the ILP; the search polls the flag where it checks its time limit.
    install_interrupt_handlers();
    progress_line bar(!quiet && !plan.ilp, "swept");
    if (bar.shown())
      plan.search.progress = [&bar](const exact_step& s) {
        bar.update(s.done, s.total, std::to_string(s.states) + " states");
      };
    // Under mpirun the CPU progress sweep runs across the ranks (states partitioned by hash).
    const exact_report report = run_exact_plan(prob, plan, &world());
    bar.clear();
    const int code = report.interrupted() ? interrupted_exit_code : 0;
    if (as_json) {
      json out = exact_json(prob, plan, report);
      if (!lp_file.empty()) out["lp_file"] = lp_file;
      std::cout << out.dump() << '\n';
      return code;
    }
    exact_text_options text;
    text.lp_note = lp_note;
    text.table = !no_table;
    text.table_width = terminal_columns();
    print_exact_text(std::cout, prob, plan, report, text);
    return code;
  }
};

}  // namespace

void add_exact_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  // The command objects live as long as the program; CLI11 binds options to their members.
  static bound_cmd bound;
  bound.add(app, commands);
  static exact_cmd exact;
  exact.add(app, commands);
}

}  // namespace warpspan::cli
