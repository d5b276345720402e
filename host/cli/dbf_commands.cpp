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
#include <memory>
#include <optional>
#include <sstream>

#include "commands.hpp"
#include "options.hpp"
#include "progress_line.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/dbf/batch_source.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/dbf/generate.hpp"
#include "warpspan/dbf/sweep.hpp"
#include "warpspan/dbf/task.hpp"
#include "warpspan/io/dbf_svg.hpp"
#include "warpspan/io/dbf_text.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/io/svg.hpp"
#include "warpspan/orchestrator/shards.hpp"

namespace warpspan::cli {

namespace {

// Keys in the order they are written (dbf_at: by increasing t, not as strings).
using json = nlohmann::ordered_json;
namespace fs = std::filesystem;

/// How a batch or sweep is split: the whole of it, the slice of --shard I/N, or the ranks of mpirun
/// (sets by index, cyclically: set k belongs to slice k mod N).
struct slicing {
  set_slice part;  ///< the sets this process analyses
  bool shard = false;
  rank_group* ranks = nullptr;  ///< under mpirun with more than one rank
};

/// "10,50,100" -> {10, 50, 100}.
std::vector<std::uint64_t> parse_at(const std::string& text) {
  std::vector<std::uint64_t> out;
  std::stringstream in(text);
  std::string item;
  while (std::getline(in, item, ',')) {
    std::uint64_t v = 0;
    const auto [end, ec] = std::from_chars(item.data(), item.data() + item.size(), v);
    if (item.empty() || ec != std::errc() || end != item.data() + item.size())
      throw input_error("--at: '" + item + "' is not an integer from 0 to 2^64 - 1 (expected e.g. --at 10,50,100)");
    out.push_back(v);
  }
  if (out.empty()) throw input_error("--at: give at least one integer, e.g. --at 10,50,100");
  std::sort(out.begin(), out.end());  // tables and JSON maps in increasing t
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

/// Writes `text` to the file `path` (its folder created if needed); the path written.
std::string write_path(const std::string& path, const std::string& text) {
  const fs::path p(path);
  return write_file(p.has_parent_path() ? p.parent_path().string() : ".", p.filename().string(), text);
}

/// What prints a batch's or a sweep's records as they come (`print`: print_batch_record or
/// print_sweep_record), counting them in `tally`: the progress line cleared for each and updated
/// after (`expected` records; 0: not counted), each flushed (a set reported is on its way even if
/// the run is stopped next).
template <class Tally>
std::function<void(const set_record&)> record_printer(Tally& tally, progress_line& bar, std::uint64_t expected,
                                                      bool as_json,
                                                      void (*print)(std::ostream&, const set_record&, bool)) {
  return [&tally, &bar, expected, as_json, print](const set_record& rec) {
    tally.add(rec);
    bar.clear();
    print(std::cout, rec, as_json);
    std::cout.flush();
    bar.update(tally.done, expected);
  };
}

/// The end of a batch run with settings `h` (the command's, or a merge's from its shards' header):
/// the summary (--json's last line says how the stream ended: a file without it was cut off,
/// docs/schedulability.md), and the exit code.
int finish_batch(const dbf_shard_settings& h, const dbf_batch_tally& t, const dbf_run_end& end) {
  if (h.json)
    std::cout << batch_end_json(t, end).dump() << '\n';
  else
    print_batch_summary(std::cout, t, end, h.backend_label, h.keep_going);
  std::cout.flush();
  if (!end.finished) return interrupted_exit_code;
  if (t.invalid > 0) return 2;
  return h.check && t.schedulable != t.done ? 1 : 0;
}

/// The end of a sweep: the critical factor (by bisection, here, with session `s`), the plot (to
/// `svg`, when given), the summary, the exit code.
int finish_sweep(const dbf_shard_settings& h, const sweep_spec& spec, const dbf_sweep_tally& t, const dbf_run_end& end,
                 const task_set& base, const dbf_session& s, const std::string& svg) {
  std::size_t transitions = 0;
  const std::optional<double> critical =
      end.finished ? critical_factor(t.grid, base, spec, s.streaming(), transitions) : std::nullopt;
  std::string written;
  if (!svg.empty())
    written = write_path(svg, sweep_svg(t.grid, critical, spec.kind,
                                        "Sweep of " + fs::path(h.file).filename().string() + ": " + spec.kind +
                                            (spec.task.empty() ? "" : " of " + spec.task)));
  if (h.json)
    std::cout << sweep_end_json(t, end, critical, transitions, written).dump() << '\n';
  else
    print_sweep_summary(std::cout, t, spec, end, h.backend_label, critical, transitions, written);
  std::cout.flush();
  if (!end.finished) return interrupted_exit_code;
  return h.check && t.schedulable != t.done ? 1 : 0;
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
  long long threads = 0;
  unsigned block = default_dbf_block;
  std::uint64_t max_table_mib = default_max_table_mib;
  bool as_json = false;
  bool check = false;
  bool keep_going = false;
  bool quiet = false;
  std::string shard;
  slicing slices;
  CLI::Option* file_option = nullptr;
  CLI::Option* batch_option = nullptr;
  std::unique_ptr<dbf_session> session;  ///< the checked options and cpu-parallel's threads, for the whole run

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand("dbf",
                                   "demand-bound functions of recurring real-time tasks and the EDF schedulability "
                                   "test (Nunna et al. 2010, after Baruah)");
    sub->footer(
        "Exit codes: 0 done (with --check: every set schedulable), 1 with --check: some set not schedulable "
        "(or a sweep variant invalid), 2 bad input or an undecided set (U = 1 with a hyperperiod too large to "
        "check, or more than 50,000,000 demand evaluations), 130 interrupted (Ctrl-C or SIGTERM; a batch or "
        "sweep prints the sets done first).\n");
    file_option = sub->add_option("file", file, "task-set JSON file (format: data/tasks/README.md)");
    batch_option = sub->add_option(
        "--batch", batch, "analyse many sets: a directory of *.json, a .jsonl file (one set a line) or a .json file");
    sub->add_option("--at", at, "also report dbf at these interval lengths, e.g. 10,50,100");
    sub->add_option("--backend", backend, "cpu, cpu-parallel, cuda, cuda-sm or auto (cuda-sm when a device is present)")
        ->capture_default_str();
    sub->add_option("--edf", edf, "EDF test: qpa (Quick Processor-demand Analysis) or scan (every step point)")
        ->capture_default_str();
    sub->add_option("--threads", threads, "CPU threads for cpu-parallel (0: all cores)")->capture_default_str();
    sub->add_option("--block", block, "CUDA threads per block (a power of two, 32..1024)")->capture_default_str();
    sub->add_option("--max-table-mib", max_table_mib,
                    "refuse a task whose table needs more memory than this (never more than 3/4 of the memory "
                    "available)")
        ->capture_default_str();
    sub->add_option("--svg", svg,
                    "write the plot of sum dbf(t) against t to this file (with --sweep: utilisation and verdict "
                    "against the factor, the critical factor marked)");
    sub->add_option("--sweep", sweep,
                    "analyse variants of FILE: KIND:FROM:TO:STEPS[:TASK] scales every wcet, deadline, separation "
                    "or period (of TASK only if given) by factors FROM..TO, e.g. wcet:0.5:1.5:101");
    sub->add_flag("--json", as_json, "print JSON (batch: one object a line)");
    sub->add_flag("--keep-going", keep_going,
                  "--batch and --sweep: a set that cannot be read or decided is one error line and the run goes on; "
                  "exit 2 at the end if there was any");
    sub->add_flag("--quiet,-q", quiet, "no progress line (shown on a terminal for --batch and --sweep)");
    sub->add_flag("--check", check,
                  "for scripts: exit 1 when any set (or sweep variant) is not schedulable, 0 when all are");
    sub->add_option("--shard", shard,
                    "I/N: --batch and --sweep: analyse only the sets (variants) k with k mod N = I and print JSON "
                    "lines for `warpspan merge`, which prints the whole run's output (and exit code)");
    commands.emplace_back(sub, [this] { return run(); });
  }

  const dbf_session& start_session() {
    session = std::make_unique<dbf_session>(parse_dbf_backend(backend), threads, block, max_table_mib,
                                            parse_edf_method(edf), keep_going);
    return *session;
  }

  int run() {
    // The session (its GPU workspace among it) goes when the command ends, not at the process's
    // exit, where the CUDA runtime may be gone before this static command object.
    struct release_session {
      std::unique_ptr<dbf_session>& s;
      ~release_session() { s.reset(); }
    } release{session};
    if (file_option->count() > 0 && file.empty()) throw input_error("dbf: the task-set path is empty");
    if (batch_option->count() > 0 && batch.empty()) throw input_error("dbf: the --batch path is empty");
    if (file.empty() == batch.empty()) throw input_error("dbf: give either a task-set FILE or --batch DIR|FILE");
    if (keep_going && batch.empty() && sweep.empty()) throw input_error("--keep-going applies to --batch and --sweep");
    if (!shard.empty() && batch.empty() && sweep.empty()) throw input_error("--shard applies to --batch and --sweep");
    if (!batch.empty() || !sweep.empty()) {
      if (!at.empty()) throw input_error("--at applies to one task set, not to --batch or --sweep");
      if (!batch.empty() && !svg.empty())
        throw input_error("--svg applies to one task set or a --sweep, not to --batch");
      if (!batch.empty() && !sweep.empty()) throw input_error("--sweep applies to one FILE, not to --batch");
      if (!shard.empty()) {
        const shard_slice sl = parse_shard(shard);
        slices.part = {sl.index, sl.count};
        slices.shard = true;
        if (!svg.empty()) throw input_error("--svg applies to the whole sweep: give it to neither --shard nor merge");
      } else if (world().size() > 1) {
        slices.ranks = &world();
        slices.part = {static_cast<std::uint32_t>(world().rank()), static_cast<std::uint32_t>(world().size())};
      }
      const dbf_session& s = start_session();
      return batch.empty() ? run_sweep(s) : run_batch(s);
    }
    return run_single(start_session());
  }

  // ---------------------------------------------------------------------------------- one set
  int run_single(const dbf_session& s) const {
    const std::vector<std::uint64_t> points = at.empty() ? std::vector<std::uint64_t>{} : parse_at(at);
    double elapsed_s = 0;
    const analysed_set sa = analyse_one(load_task_set(file), file, s, elapsed_s);
    for (std::uint64_t t : points) total_demand_checked(sa.curves, t);  // a dbf over 2^64 is refused before output
    std::string written;
    if (!svg.empty()) written = write_path(svg, dbf_set_svg(sa));
    if (as_json) {
      json out = dbf_run_json(sa, points, elapsed_s, s);
      if (!written.empty()) out["svg"] = written;
      std::cout << out.dump() << '\n';
    } else {
      print_dbf_set(std::cout, sa, points, elapsed_s, s);
      if (!written.empty()) std::cout << "wrote " << written << "\n";
    }
    return check && !sa.result.schedulable ? 1 : 0;
  }

  // ---------------------------------------------------------------------------------- batch and sweep
  /// Where a record goes: printed now (one process), a JSON line (a shard), or kept for rank 0.
  void deliver(const set_record& rec, const std::function<void(const set_record&)>& emit,
               std::vector<set_record>& kept) const {
    if (slices.shard) {
      std::cout << set_record_json(rec).dump() << '\n';
      std::cout.flush();
    } else if (slices.ranks) {
      kept.push_back(rec);
    } else {
      emit(rec);
    }
  }

  /// The run's settings as a shard's header carries them (and finish_batch and finish_sweep read).
  dbf_shard_settings settings(const char* command, const dbf_session& s) const {
    dbf_shard_settings h;
    h.command = command;
    h.slice = {slices.part.slice, slices.part.slices};
    h.json = as_json;
    h.check = check;
    h.keep_going = keep_going;
    h.file = file;
    h.batch = batch;
    h.sweep = sweep;
    h.edf = edf;
    h.backend = backend;
    h.threads = threads;
    h.block = block;
    h.max_table_mib = max_table_mib;
    h.backend_label = backend_label(s.options().backend);
    return h;
  }

  /// A run's GPU kernel time as JSON: null where no kernel ran (a CPU backend: kernel_s < 0).
  static json kernel_json(double kernel_s) { return kernel_s >= 0 ? json(kernel_s) : json(); }
  /// Adds a part's kernel time (JSON, null on the CPU) to a sum that is < 0 while no part had one.
  static void add_kernel(double& sum, const json& part) {
    if (!part.is_number()) return;
    sum = (sum < 0 ? 0 : sum) + part.get<double>();
  }

  /// After the local work (`end` this process's): a shard's last line; under mpirun, rank 0 prints
  /// every rank's records in input order (up to the first gap an interrupted rank left). `end`
  /// becomes the whole run's: finished where every part did, the longest part's elapsed_s, the sum
  /// of the parts' GPU time.
  void collect(dbf_run_end& end, std::uint64_t total, const std::vector<set_record>& kept,
               const std::function<void(const set_record&)>& emit) const {
    if (slices.shard) std::cout << shard_end_json(end.finished, end.elapsed_s, end.kernel_s, total).dump() << '\n';
    if (!slices.ranks) return;
    json mine = {{"finished", end.finished},
                 {"elapsed_s", end.elapsed_s},
                 {"kernel_s", kernel_json(end.kernel_s)},
                 {"records", json::array()}};
    for (const auto& r : kept) mine["records"].push_back(set_record_json(r));
    const auto parts = slices.ranks->gather(mine.dump());
    bool all_finished = end.finished;
    if (slices.ranks->rank() == 0) {
      std::vector<set_record> records;
      end.kernel_s = -1;
      for (const auto& part : parts) {
        const auto j = nlohmann::json::parse(part);
        all_finished = all_finished && j["finished"].get<bool>();
        end.elapsed_s = std::max(end.elapsed_s, j["elapsed_s"].get<double>());
        add_kernel(end.kernel_s, j.value("kernel_s", json()));
        for (const auto& r : j["records"]) records.push_back(set_record_from_json(r));
      }
      in_input_order(records);
      for (const set_record& r : records) emit(r);
    }
    end.finished = from_bytes<std::uint8_t>(slices.ranks->broadcast(to_bytes<std::uint8_t>(all_finished), 0)) != 0;
  }

  /// The session's GPU kernel time so far, or -1 on the CPU.
  static double kernel_of(const dbf_session& s) { return s.on_device() ? s.kernel_seconds() : -1; }

  /// Under mpirun, rank 0's exit code on every rank.
  int agreed_exit(int code) const {
    return slices.ranks ? from_bytes<int>(slices.ranks->broadcast(to_bytes(code), 0)) : code;
  }

  set_record batch_record(const analysed_set& it) const {
    return as_json ? json_set_record(it, true) : batch_text_record(it, cli_face());
  }

  int run_batch(const dbf_session& s) const {
    install_interrupt_handlers();
    batch_source source(batch);
    progress_line bar(!quiet && !slices.shard && world().rank() == 0, "sets done");
    const std::uint64_t expected = bar.shown() ? source.total() : 0;  // a total and an ETA on the terminal
    dbf_batch_tally tally;
    const auto emit = record_printer(tally, bar, expected, as_json, print_batch_record);
    std::vector<set_record> kept;
    dbf_run_end end;
    std::uint64_t total = 0;
    if (slices.shard) std::cout << dbf_shard_json(settings("dbf-batch", s)).dump() << '\n';
    end.finished = analyse_batch(
        source, s, slices.part, [&](analysed_set& it) { deliver(batch_record(it), emit, kept); }, end.elapsed_s, total);
    end.kernel_s = kernel_of(s);
    collect(end, total, kept, emit);
    bar.clear();
    if (slices.shard) return end.finished ? 0 : interrupted_exit_code;
    return agreed_exit(finish_batch(settings("dbf-batch", s), tally, end));
  }

  set_record sweep_record(const analysed_set& it, const sweep_spec& spec) const {
    return as_json ? json_set_record(it, false) : sweep_text_record(it, spec.kind, cli_face());
  }

  int run_sweep(const dbf_session& s) const {
    install_interrupt_handlers();
    const sweep_spec spec = parse_sweep(sweep);
    const task_set base = load_task_set(file);
    check_sweep_task(base, spec);
    dbf_sweep_tally tally;
    progress_line bar(!quiet && !slices.shard && world().rank() == 0, "variants done");
    const auto emit = record_printer(tally, bar, spec.steps, as_json, print_sweep_record);
    std::vector<set_record> kept;
    dbf_run_end end;
    if (slices.shard) std::cout << dbf_shard_json(settings("dbf-sweep", s)).dump() << '\n';
    end.finished = analyse_sweep(
        base, spec, file, s, slices.part, [&](analysed_set& it) { deliver(sweep_record(it, spec), emit, kept); },
        end.elapsed_s);
    end.kernel_s = kernel_of(s);
    collect(end, spec.steps, kept, emit);
    bar.clear();
    if (slices.shard) return end.finished ? 0 : interrupted_exit_code;
    return agreed_exit(finish_sweep(settings("dbf-sweep", s), spec, tally, end, base, s, svg));
  }
};

/// `warpspan merge` of dbf shards (merged by the library): the whole run's output, printed as the
/// run prints it, from the settings in the shards' header.
int print_merged(const std::string& first, const set_merge& m) {
  const dbf_shard_settings& h = m.settings;
  const dbf_run_end end{m.finished, m.elapsed_s, m.kernel_s};
  progress_line bar(false, "");
  if (h.command == "dbf-batch") {
    dbf_batch_tally t;
    const auto emit = record_printer(t, bar, 0, h.json, print_batch_record);
    for (const set_record& rec : m.records) emit(rec);
    return finish_batch(h, t, end);
  }
  // The critical factor is found again here, by the session the shards' settings describe.
  const sweep_spec spec = parse_sweep(h.sweep);
  const task_set base = merged_sweep_base(m, first);
  const dbf_session s(parse_dbf_backend(h.backend), h.threads, h.block, h.max_table_mib, parse_edf_method(h.edf),
                      h.keep_going);
  dbf_sweep_tally t;
  const auto emit = record_printer(t, bar, spec.steps, h.json, print_sweep_record);
  for (const set_record& rec : m.records) emit(rec);
  return finish_sweep(h, spec, t, end, base, s, "");
}

// ------------------------------------------------------------------------------------ generate-tasks
/// Most sets one generate-tasks call writes (each is generated, written and forgotten, so memory
/// stays small; the cap keeps a typo from filling a disk or a directory with millions of files).
constexpr std::uint64_t max_generated_sets = 1'000'000;

struct generate_cmd {
  task_generator_options options;
  std::uint64_t sets = 1;
  std::string out;
  bool quiet = false;
  CLI::Option* out_option = nullptr;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "generate-tasks",
        "seeded random task sets like the experiment of Nunna et al. 2010 (JSON, JSON lines or a directory)");
    sub->add_option("--vertices", options.vertices, "vertices per task (>= 2)")->capture_default_str();
    sub->add_option("--tasks", options.tasks, "tasks per set")->capture_default_str();
    sub->add_option("--sets", sets,
                    "number of sets (1 to " + std::to_string(max_generated_sets) + ", written as generated)")
        ->capture_default_str();
    sub->add_option("--max-wcet", options.max_wcet, "wcet uniform in [1, max-wcet]")->capture_default_str();
    sub->add_option("--deadline-factor", options.deadline_factor,
                    "deadlines uniform in [f e, 2 f e]; 0 = the number of tasks per set")
        ->capture_default_str();
    sub->add_option("--edge-probability", options.edge_probability, "probability of each extra forward edge")
        ->capture_default_str();
    sub->add_option("--utilization", options.utilization,
                    "target sum E/P of a set, split over its tasks by UUniFast-Discard (Bini and Buttazzo 2005); "
                    "deadlines and separations shrink where a share needs it; at most 0.95 per task")
        ->capture_default_str();
    sub->add_flag("--quiet,-q", quiet, "no progress line and no utilisation summary on stderr");
    sub->add_option("--seed", options.seed, "random seed")->capture_default_str();
    out_option = sub->add_option("--out", out,
                                 "FILE.json (one set), FILE.jsonl or FILE.txt (one set a line) or a directory "
                                 "(set_0001.json, ...; set files of an earlier run are replaced); default stdout");
    commands.emplace_back(sub, [this] { return run(); });
  }

  static bool ends_with(const std::string& s, const std::string& suffix) {
    return s.size() >= suffix.size() && s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
  }

  /// The achieved utilisation sum E/P of a set, and its text with the target, for the set's
  /// "description" and the summary.
  struct achieved {
    double min = 0, max = 0, sum = 0;
    std::uint64_t sets = 0;
    void add(double u) {
      min = sets == 0 ? u : std::min(min, u);
      max = sets == 0 ? u : std::max(max, u);
      sum += u;
      ++sets;
    }
  };

  static double utilisation_of(const task_set& set) {
    double u = 0;
    for (const task& t : set.tasks) u += static_cast<double>(max_path_wcet(t)) / static_cast<double>(t.period);
    return u;
  }

  /// Set `s` as JSON text, described (seed, index, achieved utilisation) and counted in `a`.
  std::string set_text(std::uint64_t s, bool compact, achieved& a) const {
    const task_set set = generate_task_set(options, s);
    const double u = utilisation_of(set);
    a.add(u);
    nlohmann::ordered_json doc = nlohmann::ordered_json::parse(task_set_json(set, true));
    std::ostringstream d;
    d << "warpspan generate-tasks, seed " << options.seed << ", set " << s + 1 << ": utilisation " << std::fixed
      << std::setprecision(4) << u << " (target " << options.utilization << ")";
    nlohmann::ordered_json out;
    out["description"] = d.str();
    out["tasks"] = doc["tasks"];
    return compact ? out.dump() : out.dump(2);
  }

  /// One JSON line per set, each written as soon as it is generated.
  void write_lines(std::ostream& to, const std::string& where, achieved& a, progress_line& bar) const {
    for (std::uint64_t s = 0; s < sets; ++s) {
      to << set_text(s, true, a) << '\n';
      if (!to) throw input_error("cannot write " + where);
      bar.update(s + 1, sets);
    }
  }

  std::string set_file_name(std::uint64_t s) const {
    const std::size_t width = std::max<std::size_t>(4, std::to_string(sets).size());
    const std::string number = std::to_string(s + 1);
    return "set_" + std::string(width - number.size(), '0') + number + ".json";
  }

  /// A directory to write set_NNNN.json into: the set files of an earlier run go first (a later
  /// --batch would read them with the new ones), and a directory holding other task files is
  /// refused rather than mixed into.
  static void prepare_directory(const std::string& dir) {
    std::error_code ec;
    if (!fs::exists(dir, ec)) return;
    if (!fs::is_directory(dir, ec)) throw input_error("--out " + dir + ": exists and is not a directory");
    std::vector<fs::path> stale;
    for (const auto& entry : fs::directory_iterator(dir, ec)) {
      const std::string name = entry.path().filename().string();
      const std::string ext = entry.path().extension().string();
      const bool ours = name.size() > 9 && name.rfind("set_", 0) == 0 && ext == ".json" &&
                        std::all_of(name.begin() + 4, name.end() - 5, [](char c) { return c >= '0' && c <= '9'; });
      if (ours)
        stale.push_back(entry.path());
      else if (ext == ".json" || ext == ".jsonl" || ext == ".csv")
        throw input_error("--out " + dir + ": the directory holds other task files (" + name +
                          ") that a --batch would read with the new sets; use an empty directory");
    }
    if (ec) throw input_error("--out " + dir + ": cannot list the directory (" + ec.message() + ")");
    for (const fs::path& p : stale) fs::remove(p, ec);
  }

  void summary(const achieved& a) const {
    std::cerr << std::fixed << std::setprecision(4) << "utilisation achieved: mean "
              << a.sum / static_cast<double>(a.sets) << ", min " << a.min << ", max " << a.max << " (target "
              << options.utilization << ", " << a.sets << " set" << (a.sets == 1 ? "" : "s") << ")" << std::defaultfloat
              << "\n";
  }

  int run() const {
    if (sets < 1 || sets > max_generated_sets)
      throw input_error("--sets must be from 1 to " + std::to_string(max_generated_sets) + ", got " +
                        std::to_string(sets));
    if (out_option->count() > 0 && out.empty()) throw input_error("generate-tasks: the --out path is empty");
    generate_task_set(options, 0);  // checks the options before anything is written
    achieved a;
    progress_line bar(!quiet, "sets generated");
    if (out.empty()) {
      if (sets == 1)
        std::cout << set_text(0, false, a) << "\n";
      else
        write_lines(std::cout, "to stdout", a, bar);
      bar.clear();
      if (!quiet) summary(a);
      return 0;
    }
    const std::string ext = fs::path(out).extension().string();
    if (ext == ".jsonl" || ext == ".txt") {
      const fs::path p(out);
      if (p.has_parent_path()) {
        std::error_code ec;
        fs::create_directories(p.parent_path(), ec);
        if (ec) throw input_error("cannot create directory " + p.parent_path().string() + ": " + ec.message());
      }
      const std::string path = (fs::path(p.has_parent_path() ? p.parent_path().string() : ".") / p.filename()).string();
      atomic_file file(path);  // the file appears whole, once every set is written
      write_lines(file.stream(), path, a, bar);
      file.commit();
      bar.clear();
      std::cout << "wrote " << path << " (" << sets << " sets, one a line)\n";
    } else if (ext == ".json") {
      if (sets != 1)
        throw input_error("--out " + out + ": " + std::to_string(sets) + " sets need a .jsonl file or a directory");
      const std::string written = write_path(out, set_text(0, false, a) + "\n");  // "wrote" only once it is
      std::cout << "wrote " << written << "\n";
    } else if (ext.empty() || fs::is_directory(out)) {
      prepare_directory(out);
      for (std::uint64_t s = 0; s < sets; ++s) {
        write_file(out, set_file_name(s), set_text(s, false, a) + "\n");
        bar.update(s + 1, sets);
      }
      bar.clear();
      std::cout << "wrote " << sets << " sets to " << out << "/\n";
    } else {
      throw input_error("--out " + out +
                        ": expected FILE.json (one set), FILE.jsonl or FILE.txt (one set a line) or a "
                        "directory (no extension)");
    }
    if (!quiet) summary(a);
    return 0;
  }
};

}  // namespace

int print_merged_sets(const std::string& first, const set_merge& merged) {
  try {
    return print_merged(first, merged);
  } catch (const nlohmann::json::exception& e) {
    throw input_error("merge: the shards' header lacks what dbf --shard writes (" + std::string(e.what()) + ")");
  }
}

void add_dbf_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  // The command objects live as long as the program; CLI11 binds options to their members.
  static dbf_cmd dbf;
  static generate_cmd generate;
  dbf.add(app, commands);
  generate.add(app, commands);
}

}  // namespace warpspan::cli
