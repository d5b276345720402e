// dbf and generate-tasks: the schedulability side of the command line (paper 003).
#include <algorithm>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/generate.hpp"
#include "warpspan/dbf/sweep.hpp"
#include "warpspan/dbf/task.hpp"
#include "warpspan/io/dbf_svg.hpp"
#include "warpspan/io/svg.hpp"

namespace warpspan::cli {

namespace {

using json = nlohmann::json;
namespace fs = std::filesystem;

/// A task set and the name results are reported under.
struct named_set {
  std::string label;
  task_set set;
};

/// What the pipeline knows about one set once its tables and test are done.
struct set_analysis {
  std::vector<unrolled_graph> graphs;
  std::vector<dbf_curve> curves;
  edf_result result;
};

struct analysis {
  std::vector<set_analysis> sets;
  double elapsed_s = 0;
};

json optional_json(const std::optional<std::uint64_t>& v) { return v ? json(*v) : json(nullptr); }

std::string optional_text(const std::optional<std::uint64_t>& v, const char* none) {
  return v ? std::to_string(*v) : std::string(none);
}

/// "10,50,100" -> {10, 50, 100}.
std::vector<std::uint64_t> parse_at(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw input_error("--at: '" + item + "' is not a non-negative integer (expected e.g. --at 10,50,100)");
    out.push_back(v);
  }
  if (out.empty()) throw input_error("--at: give at least one integer, e.g. --at 10,50,100");
  return out;
}

/// T' of every task, refusing tables over the size limit before any is computed.
std::vector<unrolled_graph> unroll_all(const task_set& set, const dbf_options& options) {
  std::vector<unrolled_graph> graphs;
  graphs.reserve(set.tasks.size());
  for (const task& t : set.tasks) {
    graphs.push_back(unroll(t));
    check_table_size(graphs.back(), t.name, options);
  }
  return graphs;
}

/// Unroll everything, compute all tables in one dbf_tables call (one GPU batch), then test each set.
analysis analyse(const std::vector<named_set>& inputs, const dbf_options& options, edf_method method) {
  analysis a;
  a.sets.resize(inputs.size());
  std::vector<const unrolled_graph*> all;
  for (std::size_t s = 0; s < inputs.size(); ++s) {
    a.sets[s].graphs = unroll_all(inputs[s].set, options);
    for (const auto& g : a.sets[s].graphs) all.push_back(&g);
  }
  const auto start = std::chrono::steady_clock::now();
  std::vector<dbf_table> tables = dbf_tables(all, options);
  std::size_t next = 0;
  for (auto& sa : a.sets) {
    for (const auto& g : sa.graphs) {
      sa.curves.emplace_back(tables[next].min_span, g.E, g.period);
      tables[next++] = dbf_table{};  // a curve keeps only the steps; a batch's tables add up
    }
    sa.result = edf_test(sa.curves, method);
  }
  a.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return a;
}

/// The options of `dbf`, single set or batch.
struct dbf_cmd {
  std::string file;
  std::string batch;
  std::string at;
  std::string backend = "auto";
  std::string edf = "qpa";
  std::string svg;
  std::string sweep;
  int threads = 0;
  unsigned block = 256;
  std::uint64_t max_table_mib = 8192;
  bool as_json = false;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "dbf", "demand-bound functions of recurring real-time tasks and the EDF schedulability test (paper 003)");
    sub->add_option("file", file, "task-set JSON file (format: data/tasks/README.md)");
    sub->add_option("--batch", batch, "analyse many sets: a directory of *.json, a .jsonl file (one set a line) or a .json file");
    sub->add_option("--at", at, "also report dbf at these interval lengths, e.g. 10,50,100");
    sub->add_option("--backend", backend, "cpu, cpu-parallel, cuda, cuda-sm or auto (cuda-sm when a device is present)")
        ->capture_default_str();
    sub->add_option("--edf", edf, "EDF test: qpa (Quick Processor-demand Analysis) or scan (every step point)")
        ->capture_default_str();
    sub->add_option("--threads", threads, "CPU threads for cpu-parallel (0: all cores)")->capture_default_str();
    sub->add_option("--block", block, "CUDA threads per block (a power of two, 32..1024)")->capture_default_str();
    sub->add_option("--max-table-mib", max_table_mib, "refuse a task whose table needs more memory than this")
        ->capture_default_str();
    sub->add_option("--svg", svg, "write the plot of sum dbf(t) against t to this file");
    sub->add_option("--sweep", sweep,
                    "analyse variants of FILE: KIND:FROM:TO:STEPS[:TASK] scales every wcet, deadline, separation "
                    "or period (of TASK only if given) by factors FROM..TO, e.g. wcet:0.5:1.5:101");
    sub->add_flag("--json", as_json, "print JSON (batch: one object a line)");
    commands.emplace_back(sub, [this] { return run(); });
  }

  dbf_options make_options() const {
    if (threads < 0) throw input_error("--threads must be at least 0");
    if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
      throw input_error("--block must be a power of two from 32 to 1024, got " + std::to_string(block));
    dbf_options o;
    o.backend = resolve_dbf_backend(parse_dbf_backend(backend));
    o.threads = threads;
    o.block = block;
    if (max_table_mib < 1 || max_table_mib > (std::uint64_t{1} << 40))
      throw input_error("--max-table-mib must be from 1 to 2^40");
    o.max_table_bytes = max_table_mib << 20;
    return o;
  }

  int run() {
    if (file.empty() == batch.empty()) throw input_error("dbf: give either a task-set FILE or --batch DIR|FILE");
    const dbf_options options = make_options();
    const edf_method method = parse_edf_method(edf);
    if (!batch.empty() || !sweep.empty()) {
      if (!at.empty() || !svg.empty()) throw input_error("--at and --svg apply to one task set, not to --batch or --sweep");
      if (!batch.empty() && !sweep.empty()) throw input_error("--sweep applies to one FILE, not to --batch");
      return batch.empty() ? run_sweep(options, method) : run_batch(options, method);
    }
    return run_single(options, method);
  }

  // ---------------------------------------------------------------------------------- one set
  int run_single(const dbf_options& options, edf_method method) const {
    const std::vector<std::uint64_t> points = at.empty() ? std::vector<std::uint64_t>{} : parse_at(at);
    const std::vector<named_set> input{{file, load_task_set(file)}};
    const analysis a = analyse(input, options, method);
    const set_analysis& sa = a.sets.front();
    std::string written;
    if (!svg.empty()) written = write_svg(input.front(), sa);
    if (as_json) {
      json out = single_json(input.front().set, sa, points, a.elapsed_s, to_string(options.backend));
      if (!written.empty()) out["svg"] = written;
      std::cout << out.dump() << '\n';
    } else {
      print_single(input.front(), sa, points, a.elapsed_s, to_string(options.backend));
      if (!written.empty()) std::cout << "wrote " << written << "\n";
    }
    return 0;
  }

  static json at_json(const std::vector<std::uint64_t>& points, const std::function<std::uint64_t(std::uint64_t)>& f) {
    json out = json::object();
    for (std::uint64_t t : points) out[std::to_string(t)] = f(t);
    return out;
  }

  json single_json(const task_set& set, const set_analysis& sa, const std::vector<std::uint64_t>& points,
                   double elapsed_s, const std::string& backend_name) const {
    const edf_result& r = sa.result;
    json tasks = json::array();
    for (std::size_t k = 0; k < set.tasks.size(); ++k) {
      const unrolled_graph& g = sa.graphs[k];
      const dbf_curve& c = sa.curves[k];
      tasks.push_back({{"name", set.tasks[k].name},
                       {"E", g.E},
                       {"period", g.period},
                       {"vertices", set.tasks[k].vertices.size()},
                       {"rows", g.rows},
                       {"columns", g.columns()},
                       {"dbf_at", at_json(points, [&](std::uint64_t t) { return c.at(t); })}});
    }
    return {{"schedulable", r.schedulable},
            {"utilization", r.u.value},
            {"t_max", optional_json(r.u.t_max)},
            {"first_violation", r.u.at_least_one ? json(nullptr) : optional_json(r.first_violation)},
            {"elapsed_s", elapsed_s},
            {"backend", backend_name},
            {"edf_method", edf},
            {"points", r.points},
            {"tasks", tasks},
            {"total_dbf_at", at_json(points, [&](std::uint64_t t) { return total_demand(sa.curves, t); })}};
  }

  static std::string verdict(const edf_result& r) {
    if (r.u.at_least_one) return "NOT schedulable: utilisation >= 1";
    if (!r.schedulable) return "NOT schedulable by EDF: demand exceeds the interval at t = " +
                               optional_text(r.first_violation, "?");
    return "schedulable by EDF";
  }

  void print_single(const named_set& in, const set_analysis& sa, const std::vector<std::uint64_t>& points,
                    double elapsed_s, const std::string& backend_name) const {
    const edf_result& r = sa.result;
    std::cout << "task set         " << in.label << " (" << in.set.tasks.size() << " task"
              << (in.set.tasks.size() == 1 ? "" : "s") << ")\n\n"
              << std::left << std::setw(12) << "task" << std::right << std::setw(9) << "vertices" << std::setw(12)
              << "period" << std::setw(12) << "E" << std::setw(10) << "U share" << "   table (rows x demands)\n";
    for (std::size_t k = 0; k < in.set.tasks.size(); ++k) {
      const unrolled_graph& g = sa.graphs[k];
      std::cout << std::left << std::setw(12) << in.set.tasks[k].name << std::right << std::setw(9)
                << in.set.tasks[k].vertices.size() << std::setw(12) << g.period << std::setw(12) << g.E << std::setw(10)
                << std::fixed << std::setprecision(4) << static_cast<double>(g.E) / static_cast<double>(g.period)
                << std::defaultfloat << "   " << g.rows << " x " << g.columns() << "\n";
    }
    std::cout << "\nutilisation      " << std::fixed << std::setprecision(4) << r.u.value << std::defaultfloat << "\n"
              << "verdict          " << verdict(r) << "\n"
              << "t_max            " << optional_text(r.u.t_max, "none (utilisation >= 1)") << "\n"
              << "first violation  " << (r.u.at_least_one ? "-" : optional_text(r.first_violation, "none")) << "\n"
              << "test             " << r.points << " demand evaluations (" << edf << ") on " << backend_name << ", "
              << std::setprecision(3) << elapsed_s << " s for tables and test\n";
    if (!points.empty()) print_at_table(in.set, sa, points);
  }

  static void print_at_table(const task_set& set, const set_analysis& sa, const std::vector<std::uint64_t>& points) {
    std::cout << "\n" << std::setw(14) << "t";
    for (const task& t : set.tasks) std::cout << std::setw(14) << ("dbf " + t.name);
    std::cout << std::setw(14) << "total" << "\n";
    for (std::uint64_t t : points) {
      std::cout << std::setw(14) << t;
      for (const dbf_curve& c : sa.curves) std::cout << std::setw(14) << c.at(t);
      std::cout << std::setw(14) << total_demand(sa.curves, t) << "\n";
    }
  }

  /// The plot runs to 1.5 x the first violation, or to t_max but at most four of the longest periods.
  static std::uint64_t plot_end(const set_analysis& sa) {
    const edf_result& r = sa.result;
    if (r.first_violation) return *r.first_violation + std::max<std::uint64_t>(1, *r.first_violation / 2);
    std::uint64_t longest = 1;
    for (const auto& c : sa.curves) longest = std::max(longest, c.period());
    const std::uint64_t periods = 4 * longest;
    return r.u.t_max ? std::min(*r.u.t_max, periods) : periods;
  }

  std::string write_svg(const named_set& in, const set_analysis& sa) const {
    const fs::path path(svg);
    const std::string dir = path.has_parent_path() ? path.parent_path().string() : ".";
    const std::string title = "Demand of " + fs::path(in.label).filename().string() + ": " + verdict(sa.result);
    return write_file(dir, path.filename().string(), dbf_svg(sa.curves, plot_end(sa), sa.result.first_violation, title));
  }

  // ---------------------------------------------------------------------------------- batch
  int run_batch(const dbf_options& options, edf_method method) const {
    const std::vector<named_set> inputs = load_batch(batch);
    const analysis a = analyse(inputs, options, method);
    std::size_t schedulable = 0, label_width = 0;
    for (const auto& in : inputs) label_width = std::max(label_width, in.label.size());
    for (std::size_t s = 0; s < inputs.size(); ++s) {
      const edf_result& r = a.sets[s].result;
      schedulable += r.schedulable ? 1 : 0;
      if (as_json)
        std::cout << json{{"set", inputs[s].label},
                          {"schedulable", r.schedulable},
                          {"utilization", r.u.value},
                          {"t_max", optional_json(r.u.t_max)},
                          {"first_violation", r.u.at_least_one ? json(nullptr) : optional_json(r.first_violation)}}
                         .dump()
                  << '\n';
      else
        std::cout << std::left << std::setw(static_cast<int>(label_width)) << inputs[s].label << std::right << "  U " << std::fixed
                  << std::setprecision(4) << r.u.value << std::defaultfloat << "  t_max "
                  << std::setw(12) << optional_text(r.u.t_max, "-") << "  " << verdict(r) << "\n";
    }
    if (!as_json)
      std::cout << schedulable << " of " << inputs.size() << " sets schedulable (" << to_string(options.backend)
                << ", " << std::setprecision(3) << a.elapsed_s << " s for all tables and tests)\n";
    return 0;
  }

  // ---------------------------------------------------------------------------------- sweep
  int run_sweep(const dbf_options& options, edf_method method) const {
    const sweep_spec spec = parse_sweep(sweep);
    const std::vector<sweep_variant> variants = sweep_variants(load_task_set(file), spec);
    std::vector<named_set> valid;
    for (const auto& v : variants)
      if (v.error.empty()) valid.push_back({std::to_string(v.factor), v.set});
    const analysis a = valid.empty() ? analysis{} : analyse(valid, options, method);
    std::size_t next = 0, schedulable = 0;
    std::optional<double> lo, hi;
    for (const auto& v : variants) {
      const edf_result* r = v.error.empty() ? &a.sets[next++].result : nullptr;
      if (r && r->schedulable) {
        ++schedulable;
        lo = lo ? std::min(*lo, v.factor) : v.factor;
        hi = hi ? std::max(*hi, v.factor) : v.factor;
      }
      if (as_json) {
        json line{{"factor", v.factor}};
        if (!r) {
          line["error"] = v.error;
        } else {
          line["schedulable"] = r->schedulable;
          line["utilization"] = r->u.value;
          line["t_max"] = optional_json(r->u.t_max);
          line["first_violation"] = r->u.at_least_one ? json(nullptr) : optional_json(r->first_violation);
        }
        std::cout << line.dump() << '\n';
      } else {
        std::cout << spec.kind << " x " << std::fixed << std::setprecision(4) << v.factor;
        if (!r)
          std::cout << "  invalid: " << v.error << std::defaultfloat << "\n";
        else
          std::cout << "  U " << r->u.value << std::defaultfloat << "  t_max " << std::setw(12)
                    << optional_text(r->u.t_max, "-") << "  " << verdict(*r) << "\n";
      }
    }
    if (!as_json) {
      std::cout << schedulable << " of " << variants.size() << " variants schedulable";
      if (lo) std::cout << " (factors " << *lo << " to " << *hi << " among them)";
      std::cout << "; " << to_string(options.backend) << ", " << std::setprecision(3) << a.elapsed_s
                << " s for all tables and tests\n";
    }
    return 0;
  }

  static std::vector<named_set> load_jsonl(const fs::path& path) {
    std::ifstream in(path);
    if (!in) throw input_error(path.string() + ": cannot open the file");
    std::vector<named_set> sets;
    std::string line;
    for (std::size_t number = 1; std::getline(in, line); ++number) {
      if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
      const std::string where = path.string() + ":" + std::to_string(number);
      sets.push_back({path.filename().string() + ":" + std::to_string(number), parse_task_set(line, where)});
    }
    if (sets.empty()) throw input_error(path.string() + ": no task sets (the file is empty)");
    return sets;
  }

  static std::vector<named_set> load_directory(const fs::path& dir) {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().extension() == ".json") files.push_back(entry.path());
    if (files.empty()) throw input_error(dir.string() + ": no *.json files in the directory");
    std::sort(files.begin(), files.end(), [](const fs::path& a, const fs::path& b) { return a.filename() < b.filename(); });
    std::vector<named_set> sets;
    for (const auto& f : files) sets.push_back({f.filename().string(), load_task_set(f.string())});
    return sets;
  }

  static std::vector<named_set> load_batch(const std::string& where) {
    const fs::path path(where);
    std::error_code ec;
    if (fs::is_directory(path, ec)) return load_directory(path);
    if (!fs::exists(path, ec)) throw input_error(where + ": no such file or directory");
    if (path.extension() == ".jsonl") return load_jsonl(path);
    return {{path.filename().string(), load_task_set(where)}};
  }
};

// ------------------------------------------------------------------------------------ generate-tasks
struct generate_cmd {
  task_generator_options options;
  std::uint64_t sets = 1;
  std::string out;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("generate-tasks", "seeded random task sets like paper 003 Sec. V (JSON, JSON lines or a directory)");
    sub->add_option("--vertices", options.vertices, "vertices per task (>= 2)")->capture_default_str();
    sub->add_option("--tasks", options.tasks, "tasks per set")->capture_default_str();
    sub->add_option("--sets", sets, "number of sets")->capture_default_str();
    sub->add_option("--max-wcet", options.max_wcet, "wcet uniform in [1, max-wcet]")->capture_default_str();
    sub->add_option("--deadline-factor", options.deadline_factor,
                    "deadlines uniform in [f e, 2 f e]; 0 = the number of tasks per set")
        ->capture_default_str();
    sub->add_option("--edge-probability", options.edge_probability, "probability of each extra forward edge")
        ->capture_default_str();
    sub->add_option("--utilization", options.utilization, "target sum E/P of a set (periods never below the model's minimum)")
        ->capture_default_str();
    sub->add_option("--seed", options.seed, "random seed")->capture_default_str();
    sub->add_option("--out", out, "FILE.json (one set), FILE.jsonl (one set a line) or a directory (set_0001.json, ...); default stdout");
    commands.emplace_back(sub, [this] { return run(); });
  }

  static bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }

  std::string all_as_lines() const {
    std::string text;
    for (std::uint64_t s = 0; s < sets; ++s) text += task_set_json(generate_task_set(options, s), true) + "\n";
    return text;
  }

  static std::string write_path(const std::string& path, const std::string& text) {
    const fs::path p(path);
    return write_file(p.has_parent_path() ? p.parent_path().string() : ".", p.filename().string(), text);
  }

  std::string set_file_name(std::uint64_t s) const {
    const std::size_t width = std::max<std::size_t>(4, std::to_string(sets).size());
    const std::string number = std::to_string(s + 1);
    return "set_" + std::string(width - number.size(), '0') + number + ".json";
  }

  int run() const {
    if (sets < 1) throw input_error("--sets must be at least 1");
    generate_task_set(options, 0);  // checks the options before anything is written
    if (out.empty()) {
      std::cout << (sets == 1 ? task_set_json(generate_task_set(options, 0)) + "\n" : all_as_lines());
      return 0;
    }
    if (ends_with(out, ".jsonl")) {
      std::cout << "wrote " << write_path(out, all_as_lines()) << " (" << sets << " sets)\n";
    } else if (ends_with(out, ".json")) {
      if (sets != 1) throw input_error("--out " + out + ": " + std::to_string(sets) + " sets need a .jsonl file or a directory");
      std::cout << "wrote " << write_path(out, task_set_json(generate_task_set(options, 0)) + "\n") << "\n";
    } else {
      for (std::uint64_t s = 0; s < sets; ++s) write_file(out, set_file_name(s), task_set_json(generate_task_set(options, s)) + "\n");
      std::cout << "wrote " << sets << " sets to " << out << "/\n";
    }
    return 0;
  }
};

}  // namespace

void add_dbf_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  // The command objects live as long as the program; CLI11 binds options to their members.
  static dbf_cmd dbf;
  static generate_cmd generate;
  dbf.add(app, commands);
  generate.add(app, commands);
}

}  // namespace warpspan::cli
