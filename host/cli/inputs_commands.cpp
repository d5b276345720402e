// inputs: worst-case input search for GPU kernels (paper 004, GDivAn).
#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>

#include "commands.hpp"
#include "progress_line.hpp"
#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/inputs/gpu.hpp"
#include "warpspan/inputs/input_file.hpp"
#include "warpspan/inputs/isolated.hpp"
#include "warpspan/inputs/search.hpp"
#include "warpspan/io/inputs_svg.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/io/svg.hpp"

namespace warpspan::cli {

namespace {

using json = nlohmann::json;
using namespace warpspan::inputs;

std::string number(double v) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.6g", v);
  return buf;
}

class inputs_command {
 public:
  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub =
        app.add_subcommand("inputs", "search for the inputs that make a GPU kernel slowest (GDivAn, paper 004)");
    auto* kernel_opt =
        sub->add_option("--kernel", kernel, "artificial, bfs, petri, bisect or lbm (--list describes them)");
    auto* harness_opt = sub->add_option("--harness", harness,
                                        "a harness library of your own kernel (docs/harness.md): ./libmykernel.so");
    kernel_opt->excludes(harness_opt);
    auto* list_opt = sub->add_flag("--list", list, "list the shipped kernels (with --harness: that harness) and exit");
    sub->add_option("--threads", threads, "kernel threads (default: the kernel's, e.g. 32768 for artificial)");
    auto* method_opt = sub->add_option("--method", method, "gdivan, random-ga or random")->capture_default_str();
    auto* compare_opt =
        sub->add_flag("--compare", compare, "run all three methods with the same evaluations and seed, side by side");
    sub->add_option("--evaluations", evaluations, "kernel evaluations per method (the budget)")->capture_default_str();
    sub->add_option("--seed", seed, "seed of every random choice")->capture_default_str();
    sub->add_option("--fitness", fitness, "model (the SIMT cost model on the CPU) or gpu (CUDA events)")
        ->capture_default_str();
    sub->add_option("--sm", sm, "model: SM preset or JSON file (warpspan sm lists them)")->capture_default_str();
    sub->add_option("--sms", sms, "model: SMs the blocks are spread over")->capture_default_str();
    sub->add_option("--population", population, "GA population")->capture_default_str();
    sub->add_option("--patience", patience,
                    "GA: stop after this many generations without growth (0: spend the budget; default 2, with "
                    "--compare 0 so that every method spends the same evaluations)");
    sub->add_option("--tolerance", tolerance, "GA: growth below tolerance x best does not count")
        ->capture_default_str();
    sub->add_option("--atom-threads", atom_threads, "gdivan: atoms on X = 2, 4, ... up to this many threads")
        ->capture_default_str();
    sub->add_option("--atom-runs", atom_runs, "gdivan: recorded runs per X")->capture_default_str();
    sub->add_option("--jobs", jobs, "CPU threads of the model (0: all cores)")->capture_default_str();
    sub->add_option("--eval-timeout", eval_timeout,
                    "a harness library runs in a worker process: stop it as hung after this many seconds without "
                    "an evaluation finished")
        ->capture_default_str();
    sub->add_option("--save-input", save_input, "write the best input found to this file");
    sub->add_option("--save-warp-kernels", save_warp_kernels,
                    "write the slowest block of the best input as warps of the makespan model to this file, for "
                    "estimate/exact --warp-kernels @FILE");
    sub->add_option("--eval-input", eval_input, "evaluate this saved input instead of searching");
    sub->add_option("--svg-dir", svg_dir,
                    "write best fitness against evaluations and against time as DIR/inputs_KERNEL.svg and "
                    "DIR/inputs_KERNEL_time.svg");
    sub->add_flag("--json", as_json, "print JSON");
    sub->add_flag("--quiet,-q", quiet, "no progress line (shown on a terminal)");
    // Options that another makes meaningless are refused together, never silently ignored.
    compare_opt->excludes(method_opt);
    auto* eval_opt = sub->get_option("--eval-input");
    for (const char* search_only :
         {"--method", "--compare", "--evaluations", "--population", "--patience", "--tolerance", "--atom-threads",
          "--atom-runs", "--save-input", "--svg-dir", "--save-warp-kernels"})
      eval_opt->excludes(sub->get_option(search_only));
    // --list prints the kernels and nothing else: every option of a search or of its output is refused with it.
    for (CLI::Option* other : sub->get_options())
      if (other != list_opt && other->get_name() != "--harness" && other->get_name() != "--help" &&
          other->get_name() != "--quiet")
        list_opt->excludes(other);
    sub->footer(
        "Exit codes: 0 done, 2 bad input, 130 interrupted (Ctrl-C or SIGTERM: the best input found so far is "
        "printed, and saved with --save-input).\n");
    commands.emplace_back(sub, [this] { return run(); });
  }

 private:
  int run() {
    if (list) {
      if (!harness.empty()) {
        describe(*load_harness_isolated(harness, eval_timeout));
        return 0;
      }
      for (const auto& k : builtin_kernels())
        std::cout << k->name() << std::string(12 - std::min<std::size_t>(k->name().size(), 11), ' ')
                  << k->default_threads() << " threads  " << k->description() << '\n';
      return 0;
    }
    search_request request;
    request.kernel = kernel;
    request.harness = harness;
    request.method = method;
    request.fitness = fitness;
    request.sm = sm;
    request.threads = threads;
    request.evaluations = evaluations;
    request.population = population;
    // --compare measures the methods against one budget: the GA must not stop early (004 Table IV).
    request.patience = patience ? *patience : (compare ? 0 : 2);
    request.atom_threads = atom_threads;
    request.atom_runs = atom_runs;
    request.sms = sms;
    request.jobs = jobs;
    request.seed = seed;
    request.tolerance = tolerance;
    request.eval_timeout = eval_timeout;
    std::string saved_text;
    if (!eval_input.empty()) {
      // The saved input names its kernel and threads: they are used where not given (and a
      // different --kernel is refused by parse_input).
      saved_text = read_text_file(eval_input, "saved input");
      if (const auto header = read_input_header(saved_text)) {
        if (kernel.empty() && harness.empty()) request.kernel = header->kernel;
        // The threads too, also with --harness (a harness's file names the harness's kernel).
        if (!threads && header->threads > 0) request.threads = header->threads;
      }
    }
    search_options o = make_search_options(request);
    if (!eval_input.empty()) return evaluate(o, saved_text);
    install_interrupt_handlers();

    std::vector<search_method> methods{o.method};
    if (compare) methods = {search_method::gdivan, search_method::random_ga, search_method::random};
    // One line for the whole run: evaluations of every method, the best fitness so far.
    progress_line bar(!quiet, "evaluations");
    const search_runs all =
        run_searches(o, methods, [&](search_method m, std::uint64_t done, std::uint64_t total, double best) {
          bar.update(done, total, to_string(m) + " best " + number(best));
        });
    bar.clear();
    const std::vector<search_options>& runs = all.runs;
    const std::vector<search_result>& results = all.results;
    const std::size_t best = all.best;
    std::string saved, svg, svg_time;
    const search_result* failed = all.failed();
    const std::filesystem::path save_path(save_input);
    const std::string save_dir = save_path.parent_path().empty() ? "." : save_path.parent_path().string();
    if (!save_input.empty() && !results.empty() && !results[best].trace.best.empty())
      saved = write_file(save_dir, save_path.filename().string(),
                         format_input(*o.kernel, o.threads, results[best].trace.best));
    // The input the harness failed on, beside the best, for replay with --eval-input.
    std::string saved_failing;
    if (failed && !save_input.empty() && !failed->failing_input.empty())
      saved_failing = write_file(save_dir, save_path.filename().string() + ".failing",
                                 format_input(*o.kernel, o.threads, failed->failing_input));
    // The best input's slowest block as warps of the makespan model (not after a failure: the
    // harness is not run again).
    std::optional<block_warp_kernels> worst;
    std::string saved_warps;
    if (!failed && !results.empty() && !results[best].trace.best.empty()) {
      try {
        worst = worst_block(o, results[best].trace.best);
      } catch (const worker_interrupted&) {
      }
    }
    if (worst && !save_warp_kernels.empty()) {
      if (worst->spec.empty())
        throw input_error(param("save_warp_kernels") + ": no warp of the slowest block issues an instruction");
      const std::filesystem::path wp(save_warp_kernels);
      saved_warps = write_file(wp.parent_path().empty() ? "." : wp.parent_path().string(), wp.filename().string(),
                               "# " + o.kernel->name() + ", " + std::to_string(o.threads) + " threads: block " +
                                   std::to_string(worst->block) + " of launch " + std::to_string(worst->launch + 1) +
                                   " of the best input, " + std::to_string(worst->warps) +
                                   " warps (warpspan inputs; estimate --warp-kernels @FILE)\n" + worst->spec + "\n");
    }
    // A failed harness: the results so far, then its one line on stderr and exit 2.
    const auto exit_code = [&] {
      if (!failed) return all.interrupted ? interrupted_exit_code : 0;
      std::cerr << "warpspan: " << failed->failure;
      if (!saved_failing.empty())
        std::cerr << " (the input it failed on is saved to " << saved_failing << ": warpspan inputs --eval-input "
                  << saved_failing << " replays it)";
      else if (!failed->failing_input.empty())
        std::cerr << " (--save-input FILE keeps the input it failed on)";
      std::cerr << '\n';
      return 2;
    };
    if (!svg_dir.empty() && !results.empty()) {
      std::vector<fitness_curve> curves;
      for (std::size_t i = 0; i < results.size(); ++i)
        curves.push_back(
            {to_string(runs[i].method), results[i].trace.history, results[i].trace.evaluations, results[i].seconds});
      const std::string& name = o.kernel->name();
      const std::string title =
          name + ", " + std::to_string(o.threads) + " threads, fitness " + fitness + ", seed " + std::to_string(seed);
      svg = write_file(svg_dir, "inputs_" + name + ".svg", fitness_svg(curves, results[best].fitness_unit, title));
      svg_time = write_file(svg_dir, "inputs_" + name + "_time.svg",
                            fitness_svg(curves, results[best].fitness_unit, title, fitness_axis::seconds));
    }
    if (as_json) {
      json j = inputs_runs_json(all, compare);
      if (!saved.empty()) j["saved_input"] = saved;
      if (!svg.empty()) j["svg"] = svg;
      if (!svg_time.empty()) j["svg_time"] = svg_time;
      if (!saved_failing.empty()) j["saved_failing_input"] = saved_failing;
      if (worst) j["worst_block"] = block_warp_kernels_json(*worst);
      if (!saved_warps.empty()) j["saved_warp_kernels"] = saved_warps;
      std::cout << j.dump(2) << '\n';
      return exit_code();
    }
    if (all.interrupted)
      std::cout << "INTERRUPTED (Ctrl-C or SIGTERM): the best found so far, after " << all.evaluations()
                << " evaluations\n";
    std::cout << "warpspan inputs: " << kernel_line(o) << ", " << o.threads << " threads, fitness " << fitness_line(o)
              << ", " << evaluations << " evaluations, seed " << seed << "\n\n";
    if ((o.method == search_method::gdivan || compare) && !results.empty()) {
      const auto& gd = results.front();
      std::cout << "atoms (step 1, branch coverage as 004 Table III):\n";
      for (const auto& l : gd.atoms.levels)
        std::printf("  X = %-3u %u/%u legs (%.1f %%), %zu atoms, %llu recorded runs\n", l.threads, l.covered, l.legs,
                    l.legs ? 100.0 * l.covered / l.legs : 0.0, l.atoms, static_cast<unsigned long long>(l.runs));
      std::cout << '\n';
    }
    std::printf("%-10s %14s %-7s %12s %11s %12s %10s\n", "method", "best", "unit", "reached at", "reached s",
                "evaluations", "search s");
    for (std::size_t i = 0; i < results.size(); ++i) {
      const auto& r = results[i];
      std::printf("%-10s %14s %-7s %12llu %11.3f %12llu %10.3f\n", to_string(runs[i].method).c_str(),
                  (r.trace.evaluations ? number(r.trace.best_fitness) : std::string("-")).c_str(),
                  r.fitness_unit.c_str(), static_cast<unsigned long long>(r.trace.reached_at), r.reached_seconds,
                  static_cast<unsigned long long>(r.trace.evaluations), r.seconds);
    }
    if (!saved.empty()) std::cout << "\nbest input (" << to_string(runs[best].method) << ") saved to " << saved << '\n';
    if (!svg.empty()) std::cout << "plots: " << svg << ", " << svg_time << '\n';
    if (worst && !worst->spec.empty()) {
      std::cout << "\nslowest block of the best input (block " << worst->block << " of launch " << worst->launch + 1
                << ", " << worst->warps << " warps, " << worst->cycles
                << " model cycles) as warps of the makespan model:\n  ";
      if (worst->spec.size() <= 160)
        std::cout << "--warp-kernels " << worst->spec << '\n';
      else
        std::cout << worst->spec.size() << " characters (--save-warp-kernels FILE writes them)\n";
      if (!saved_warps.empty())
        std::cout << "  saved to " << saved_warps << " (estimate --warp-kernels @" << saved_warps << ")\n";
    }
    if (failed)
      std::cout << "\nSTOPPED: the harness failed after " << all.evaluations() << " evaluations (stderr says how)\n";
    std::cout.flush();
    return exit_code();
  }

  std::string fitness_line(const search_options& o) const {
    if (o.fitness == fitness_kind::gpu) return "gpu: " + gpu_fitness_note(*o.kernel);
    return "model (" + o.model.sm_name + ", " + std::to_string(o.model.sms) + " SM" + (o.model.sms == 1 ? "" : "s") +
           ")";
  }

  int evaluate(const search_options& o, const std::string& saved) {
    const genome g = parse_input(saved, eval_input, *o.kernel, o.threads);
    const input_evaluation e = evaluate_input(o, g);
    if (as_json) {
      json j = inputs_evaluation_json(o, eval_input, e);
      j["worst_block"] = block_warp_kernels_json(worst_block(o, g));
      std::cout << j.dump(2) << '\n';
    } else {
      std::cout << eval_input << ": " << number(e.value) << ' ' << e.unit << " (" << kernel_line(o) << ", " << o.threads
                << " threads, " << e.launches << " launches, fitness " << fitness_line(o) << ")\n";
    }
    return 0;
  }

  /// The kernel's name, and the library of a loaded harness.
  static std::string kernel_line(const search_options& o) {
    return o.kernel->is_builtin() ? o.kernel->name() : o.kernel->name() + " (harness " + o.kernel->source() + ")";
  }

  /// `--list --harness PATH`: what the harness declares (it loaded and passed the checks).
  static void describe(const kernel_harness& k) {
    std::cout << k.name() << " (harness " << k.source() << ", ABI version " << WARPSPAN_HARNESS_ABI_VERSION << ")\n";
    if (!k.description().empty()) std::cout << "  " << k.description() << '\n';
    std::cout << "  " << k.default_threads() << " threads by default, blocks of " << k.block() << ", " << k.branches()
              << " branches, " << k.stages() << " stage" << (k.stages() == 1 ? "" : "s")
              << (k.iterative() ? ", iterative" : "") << (k.has_gpu_entry() ? ", GPU entry" : ", no GPU entry") << '\n';
    std::cout << "  input: " << k.genes_per_thread() << " integers per thread";
    if (k.genes_per_block()) std::cout << ", " << k.genes_per_block() << " per block";
    std::cout << '\n';
    for (const field_info& f : k.fields()) {
      std::cout << "    " << f.name << (f.count > 1 ? "[" + std::to_string(f.count) + "]" : "") << "  per "
                << (f.per_block ? "block" : "thread") << ", ";
      if (f.is_float)
        std::cout << "float in [" << number(f.min) << ", " << number(f.max) << "], " << (f.hi - f.lo) << " steps\n";
      else
        std::cout << "int in [" << f.lo << ", " << f.hi << "]\n";
    }
  }

  std::string kernel, harness, method = "gdivan", fitness = "model", sm = "kepler-3.5", save_input, eval_input, svg_dir,
                               save_warp_kernels;
  std::optional<std::int64_t> threads;
  std::int64_t evaluations = 2000, population = 100, atom_threads = 8, atom_runs = 400, sms = 1, jobs = 0;
  std::optional<std::int64_t> patience;  ///< default 2, 0 with --compare
  std::uint64_t seed = 1;
  double tolerance = 0, eval_timeout = default_eval_timeout_s;
  bool list = false, compare = false, as_json = false, quiet = false;
};

}  // namespace

void add_inputs_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  static inputs_command command;
  command.add(app, commands);
}

}  // namespace warpspan::cli
