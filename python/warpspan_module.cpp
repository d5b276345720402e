// warpspan._core: the library behind the command line, for Python (python/warpspan/__init__.py wraps
// it). Every function takes the CLI's options under the same names and defaults and returns a dict
// with the keys of the CLI's --json output; arrays (envelope, strings, schedules, dbf values) are
// numpy arrays. Long work runs with the GIL released on a worker thread while the calling thread
// checks for Ctrl-C (PyErr_CheckSignals) and turns it into request_interrupt().
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <future>
#include <iterator>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/dbf/batch_source.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/dbf/sweep.hpp"
#include "warpspan/dbf/task.hpp"
#include "warpspan/exact/ilp.hpp"
#include "warpspan/exact/interval.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/inputs/search.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/orchestrator/build_string.hpp"
#include "warpspan/orchestrator/estimate_run.hpp"
#include "warpspan/orchestrator/exact_run.hpp"
#include "warpspan/orchestrator/shards.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/ptx.hpp"
#include "warpspan/wcet/analysis.hpp"

namespace py = pybind11;
using namespace warpspan;

namespace {

/// Python's spelling of the library's parameters (core/error.hpp): the keyword arguments of the
/// package's functions. A parameter Python does not have keeps the library's name.
constexpr parameter_spelling python_spellings[] = {
    {"at_most", "at_most="},
    {"atom_runs", "atom_runs="},
    {"atom_threads", "atom_threads="},
    {"backend", "backend="},
    {"batch", "tasksets="},
    {"beam_share", "beam_share="},
    {"beam_width", "beam_width="},
    {"block", "block="},
    {"block_warps", "block_warps="},
    {"cfg_path", "cfg="},
    {"chains", "chains="},
    {"clock", "clock="},
    {"constraints", "constraints="},
    {"edf", "edf="},
    {"eval_timeout", "eval_timeout="},
    {"evaluations", "evaluations="},
    {"exact_seconds", "exact_seconds="},
    {"exact_up_to", "exact_up_to="},
    {"far_moves", "far_moves="},
    {"file", "taskset="},
    {"fitness", "fitness="},
    {"harness", "harness="},
    {"init", "init="},
    {"iterations", "iterations="},
    {"jobs", "jobs="},
    {"kernel", "kernel="},
    {"lines", "lines="},
    {"loop_bounds", "loop_bounds="},
    {"loop_passes", "loops="},
    {"max_mib", "max_mib="},
    {"max_states", "max_states="},
    {"warm_start", "warm_start="},
    {"max_table_mib", "max_table_mib="},
    {"method", "method="},
    {"overrides", "classes="},
    {"population", "population="},
    {"probe_cost", "probe_cost="},
    {"ptx_path", "ptx="},
    {"reach", "reach="},
    {"seconds", "seconds="},
    {"sigma", "sigma="},
    {"slices", "shard="},
    {"sm", "sm="},
    {"sms", "sms="},
    {"string", "string="},
    {"sweep", "sweep="},
    {"t0", "t0="},
    {"threads", "threads="},
    {"time_limit", "time_limit="},
    {"tolerance", "tolerance="},
    {"trace_format", "trace_format="},
    {"validate", "validate="},
    {"warp_kernels", "warp_kernels="},
    {"warps", "warps="},
};
const parameter_face python_face{python_spellings, std::size(python_spellings), parameter_face::style::keyword};

// The Python types of the library's exceptions (kept alive by the module) and the translator that
// gives them the message in Python's words.
PyObject* input_error_type = nullptr;
PyObject* not_compiled_type = nullptr;
PyObject* validation_error_type = nullptr;

void translate(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const input_error& e) {
    PyErr_SetString(input_error_type, render(e, python_face).c_str());
  } catch (const not_compiled& e) {
    PyErr_SetString(not_compiled_type, render(e, python_face).c_str());
  } catch (const validation_error& e) {
    PyErr_SetString(validation_error_type, render(e, python_face).c_str());
  }
}

/// Runs `work` on a worker thread with the GIL released; every 50 ms the caller checks Python's
/// signals, and a KeyboardInterrupt sets the library's interrupt flag (the analyses poll it) and
/// is raised once the work has stopped.
template <class F>
auto interruptible(F work) -> decltype(work()) {
  using R = decltype(work());
  clear_interrupt();
  std::packaged_task<R()> task(std::move(work));
  std::future<R> result = task.get_future();
  bool signalled = false;
  {
    py::gil_scoped_release release;
    std::thread worker(std::move(task));
    while (result.wait_for(std::chrono::milliseconds(50)) != std::future_status::ready) {
      py::gil_scoped_acquire acquire;
      if (!signalled && PyErr_CheckSignals() != 0) {
        signalled = true;  // the exception stays set in this thread until raised below
        request_interrupt();
      }
    }
    worker.join();
  }
  clear_interrupt();
  if (signalled) throw py::error_already_set();
  return result.get();  // rethrows what the work threw
}

template <class T>
py::array_t<T> array(const std::vector<T>& v) {
  return py::array_t<T>(static_cast<py::ssize_t>(v.size()), v.data());
}

py::array_t<std::int64_t> one_based(const std::vector<std::uint16_t>& s) {
  py::array_t<std::int64_t> out(static_cast<py::ssize_t>(s.size()));
  auto m = out.mutable_unchecked<1>();
  for (std::size_t k = 0; k < s.size(); ++k) m(static_cast<py::ssize_t>(k)) = s[k] + 1;
  return out;
}

/// Python's signal handlers, every 4096th call: where the module loops in C++ holding the GIL (the
/// conversions of large results), Ctrl-C raises KeyboardInterrupt there instead of at the end.
void check_signals() {
  static thread_local std::uint32_t calls = 0;
  if ((++calls & 4095u) == 0 && PyErr_CheckSignals() != 0) throw py::error_already_set();
}

/// JSON (the pieces shared with the CLI's --json, io/result_json.hpp) as Python objects.
template <class Json>
py::object to_py(const Json& j) {
  check_signals();
  switch (j.type()) {
    case nlohmann::json::value_t::null: return py::none();
    case nlohmann::json::value_t::boolean: return py::bool_(j.template get<bool>());
    case nlohmann::json::value_t::number_integer: return py::int_(j.template get<std::int64_t>());
    case nlohmann::json::value_t::number_unsigned: return py::int_(j.template get<std::uint64_t>());
    case nlohmann::json::value_t::number_float: return py::float_(j.template get<double>());
    case nlohmann::json::value_t::string: return py::str(j.template get<std::string>());
    case nlohmann::json::value_t::array: {
      py::list out;
      for (const auto& v : j) out.append(to_py(v));
      return out;
    }
    case nlohmann::json::value_t::object: {
      py::dict out;
      for (const auto& [k, v] : j.items()) out[py::str(k)] = to_py(v);
      return out;
    }
    default: return py::none();  // binary and discarded values do not occur
  }
}

template <class Json>
py::dict to_dict(const Json& j) {
  return to_py(j).template cast<py::dict>();
}

// ---------------------------------------------------------------------------------- makespan
/// What the makespan functions share: kernel, warps, blocks and the SM (as --kernel, --warps,
/// --block-warps, --sm, --sigma, --schedulers).
/// warp_kernels= (per-warp kernels, docs/makespan.md "A path per warp"): (kernel, count) pairs,
/// instead of kernel and warps (the Python layer passes them empty).
using warp_kernel_pairs = std::optional<std::vector<std::pair<std::string, std::int64_t>>>;

problem make(const std::string& kernel, std::int64_t warps, const warp_kernel_pairs& warp_kernels,
             const std::optional<std::string>& sigma, const std::optional<std::string>& sm, int schedulers,
             std::int64_t block_warps) {
  const normalized_sm norm = normalize(sm_from_options(sm, sigma, schedulers));
  if (warp_kernels) {
    std::vector<warp_group> groups;
    for (const auto& [text, count] : *warp_kernels) {
      const std::string number = std::to_string(groups.size() + 1);
      if (count < 1 || count > static_cast<std::int64_t>(max_warps))
        throw input_error(param("warp_kernels") + ": group " + number + " has count " + std::to_string(count) +
                          " (expected 1 to " + std::to_string(max_warps) + " warps)");
      warp_group g;
      try {
        g.kernel = normalize_kernel(parse_kernel_string(text), norm);
      } catch (const input_error& e) {
        throw input_error(param("warp_kernels") + ": group " + number + ": " + e.description());
      }
      g.warps = static_cast<std::uint32_t>(count);
      groups.push_back(std::move(g));
    }
    return make_problem(groups, norm, block_warps);
  }
  return make_problem(normalize_kernel(parse_kernel_string(kernel), norm), norm, warps, block_warps);
}

py::dict problem_dict(const problem& prob) { return to_dict(problem_json(prob)); }

/// The schedule of a string: per warp and instruction the cycle (W x I, 1-based; per-warp kernels:
/// I the longest warp's, 0 past a warp's own), the warp cycle
/// string and the paper's table.
void schedule_fields(py::dict& d, const problem& prob, const built_schedule& b) {
  py::array_t<std::uint32_t> cycles(
      std::vector<py::ssize_t>{static_cast<py::ssize_t>(prob.warps), static_cast<py::ssize_t>(prob.instructions())});
  // Per-warp kernels: warp w's row holds its own instructions' cycles, then 0 up to the longest.
  const problem_view p = prob.view();
  std::uint32_t* row = cycles.mutable_data();
  for (std::uint32_t w = 0; w < prob.warps; ++w, row += prob.instructions()) {
    std::fill(row, row + prob.instructions(), 0u);
    std::copy_n(b.cycle.begin() + warp_begin(p, w), warp_length(p, w), row);
  }
  d["cycles"] = cycles;
  d["warp_cycle_string"] = array(b.warp_cycle);
  d["table"] = render_table(prob, b);
}

py::dict estimate(const std::string& kernel, std::int64_t warps, const warp_kernel_pairs& warp_kernels,
                  const std::optional<std::string>& sigma, const std::optional<std::string>& sm, int schedulers,
                  std::int64_t block_warps, std::uint32_t chains, std::optional<std::uint64_t> iterations,
                  double seconds, std::uint64_t seed, double t0, std::uint32_t reach, double far_moves,
                  const std::string& init, const std::string& backend, int threads, std::uint32_t validate,
                  double exact_seconds, double beam_share, std::uint32_t beam_width, const std::string& shard) {
  // The same request as `warpspan estimate`, run by the same library function.
  estimate_request request;
  estimate_options& eo = request.search;
  if (!shard.empty()) {
    const shard_slice slice = parse_shard(shard);
    eo.slice = slice.index;
    eo.slices = slice.count;
    request.shard = true;
    std::error_code ec;
    if (sm && std::filesystem::is_regular_file(*sm, ec)) request.inputs = {{"sm", *sm}};
  }
  eo.chains = chains;
  if (iterations) eo.iterations = *iterations;
  request.iterations_given = iterations.has_value();
  eo.seed = seed;
  eo.t0 = t0;
  eo.reach = reach;
  eo.far_moves = far_moves;
  eo.beam_share = beam_share;
  eo.beam_width = beam_width;
  eo.threads = threads;
  eo.validate = validate;
  eo.init = parse_initial_kind(init);
  eo.backend = parse_backend(backend);
  request.seconds = seconds;  // checked by run_estimate_request
  request.exact_seconds = exact_seconds;
  const problem prob = make(kernel, warps, warp_kernels, sigma, sm, schedulers, block_warps);
  const estimate_report report = interruptible([&] { return run_estimate_request(prob, request); });
  const estimate_result& r = report.result;
  const nlohmann::json out = estimate_json(prob, request, report);
  py::dict d = to_dict(out);
  if (request.shard) d["shard_text"] = out.dump() + "\n";  // as `warpspan estimate --shard I/N` prints it
  // Arrays where Python users want them: the envelope, the schedule, the exact T(y).
  py::array_t<double> env(std::vector<py::ssize_t>{static_cast<py::ssize_t>(r.envelope.size()), 2});
  auto e = env.mutable_unchecked<2>();
  for (std::size_t k = 0; k < r.envelope.size(); ++k) {
    e(static_cast<py::ssize_t>(k), 0) = r.envelope[k].seconds;
    e(static_cast<py::ssize_t>(k), 1) = r.envelope[k].best;
  }
  d["envelope"] = env;
  d["best_string"] = one_based(r.best_string);
  schedule_fields(d, prob, r.schedule);
  return d;
}

py::dict exact(const std::string& kernel, std::int64_t warps, const warp_kernel_pairs& warp_kernels,
               const std::optional<std::string>& sigma, const std::optional<std::string>& sm, int schedulers,
               std::int64_t block_warps, const std::string& method, const std::string& constraints,
               const std::string& backend, double time_limit, long long max_states, long long threads, bool prune,
               long long warm_start, long long at_most) {
  exact_request request;
  request.method = method;
  request.constraints = constraints;
  request.backend = backend;
  request.time_limit_s = time_limit;
  request.max_states = max_states;
  request.threads = threads;
  request.prune = prune;
  request.warm_start = warm_start;
  request.at_most = at_most;
  const exact_plan plan = check_exact_request(request);
  const problem prob = make(kernel, warps, warp_kernels, sigma, sm, schedulers, block_warps);
  const exact_report report = interruptible([&] { return run_exact_plan(prob, plan); });
  // The CLI's JSON (exact --json), then the schedule's arrays.
  py::dict d = to_dict(exact_json(prob, plan, report));
  const std::vector<std::uint16_t>& best = report.best_string();
  d["best_string"] = one_based(best);
  schedule_fields(d, prob, build_schedule(prob, best));
  return d;
}

py::dict bound(const std::string& kernel, std::int64_t warps, const warp_kernel_pairs& warp_kernels,
               const std::optional<std::string>& sigma, const std::optional<std::string>& sm, int schedulers,
               std::int64_t block_warps, long long exact_up_to, double time_limit) {
  const std::uint32_t up_to = checked_t_runs(exact_up_to, time_limit);
  const problem prob = make(kernel, warps, warp_kernels, sigma, sm, schedulers, block_warps);
  py::dict d = to_dict(bound_json(prob));
  d["tractable"] = py::none();
  d["tractable_y"] = py::none();
  if (up_to == 0) return d;
  const std::vector<t_run> runs = interruptible([&] { return exact_t_runs(prob, up_to, time_limit); });
  nlohmann::json runs_json = nlohmann::json::object();
  t_runs_json(runs_json, prob, runs);
  d.attr("update")(to_dict(runs_json));
  d["exact_T"] = array(runs_json["exact_T"].get<std::vector<std::uint32_t>>());
  return d;
}

py::dict build(const std::string& kernel, std::int64_t warps, const warp_kernel_pairs& warp_kernels,
               const std::optional<std::string>& sigma, const std::optional<std::string>& sm, int schedulers,
               std::int64_t block_warps, const std::optional<std::string>& string,
               const std::optional<std::string>& init) {
  const problem prob = make(kernel, warps, warp_kernels, sigma, sm, schedulers, block_warps);
  if (string && init) throw input_error("give either " + param("string") + " or " + param("init") + ", not both");
  std::vector<std::uint16_t> s;
  if (string) {
    s = parse_warp_string(prob, *string);
  } else {
    s = constructed_string(prob, init.value_or("rr"));
  }
  const built_schedule b = build_schedule(prob, s);
  py::dict d;
  d["makespan"] = b.makespan;
  d["string"] = one_based(s);
  d["upper_bound"] = pessimistic_bound(prob);
  d["problem"] = problem_dict(prob);
  schedule_fields(d, prob, b);
  return d;
}

py::dict kernel_from_ptx(const std::string& path, std::optional<std::pair<int, int>> lines, const std::string& entry,
                         const std::string& classes, int loops, const std::string& sm) {
  ptx_options o;  // import_ptx checks the loops
  if (!sm.empty()) o.rules = load_sm(sm).ptx;
  o.loop_passes = loops;
  o.entry = entry;
  if (!classes.empty()) o.overrides = parse_ptx_overrides(classes);
  if (lines) {
    o.first_line = lines->first;
    o.last_line = lines->second;
    if (o.first_line < 1 || o.last_line < o.first_line) throw input_error(param("lines") + ": need 1 <= A <= B");
  }
  const ptx_import_result r = import_ptx_file(path, o);
  py::dict d = to_dict(ptx_import_json(r, false));
  py::list trace;
  for (const auto& i : r.trace)
    trace.append(py::make_tuple(i.line, i.opcode, std::string(1, letter(i.type)), to_run_length(i.runs_as)));
  d["trace"] = trace;
  return d;
}

py::list presets() {
  py::list out;
  for (const auto& p : sm_presets()) out.append(py::make_tuple(p.name, p.json));
  return out;
}

// ---------------------------------------------------------------------------------- dbf
/// A task set from Python: a path (read as the CLI reads FILE) or JSON text (a dict, dumped).
struct set_source {
  std::string text;
  bool is_path = false;
  std::string label;
};

task_set load(const set_source& s) { return s.is_path ? load_task_set(s.text) : parse_task_set(s.text, s.label); }

/// The sets of `sources` through the library's pipeline, as `warpspan dbf --batch` runs them: a path
/// is read as `dbf --batch PATH` reads it (a .jsonl file a set a line, a directory its *.json and
/// *.csv files, another file one set), a dict or text is one set. Stops on interrupted().
std::vector<nlohmann::ordered_json> analyse_sources(const std::vector<set_source>& sources,
                                                    const dbf_session& session) {
  std::vector<nlohmann::ordered_json> out;
  double elapsed_s = 0;
  for (const set_source& src : sources) {
    if (interrupted()) break;
    if (src.is_path) {
      batch_source batch(src.text);
      std::uint64_t seen = 0;
      if (!analyse_batch(
              batch, session, set_slice{}, [&](analysed_set& a) { out.push_back(dbf_batch_json(a)); }, elapsed_s, seen))
        break;
    } else {
      double one_s = 0;
      out.push_back(dbf_batch_json(analyse_one(load(src), src.label, session, one_s)));
    }
  }
  return out;
}

py::dict dbf(const set_source& source, const std::vector<std::uint64_t>& at, const std::string& backend,
             const std::string& edf, long long threads, unsigned block, std::uint64_t max_table_mib) {
  const dbf_session session(parse_dbf_backend(backend), threads, block, max_table_mib, parse_edf_method(edf));
  // The analysis and dbf at every point on the worker (Ctrl-C reaches both): each task's values and
  // the total, in the order of `at`, one look-up a point.
  struct out_t {
    analysed_set a;
    double elapsed_s = 0;
    std::vector<std::vector<std::uint64_t>> task_at;
    std::vector<std::uint64_t> total_at;
  };
  const out_t o = interruptible([&] {
    out_t out;
    out.a = analyse_one(load(source), source.label, session, out.elapsed_s);
    out.task_at.assign(out.a.curves.size(), {});
    for (auto& v : out.task_at) v.reserve(at.size());
    out.total_at.reserve(at.size());
    for (std::size_t i = 0; i < at.size(); ++i) {
      if ((i & 4095u) == 0 && interrupted()) break;  // the result is dropped: KeyboardInterrupt
      for (std::size_t k = 0; k < out.a.curves.size(); ++k) out.task_at[k].push_back(out.a.curves[k].at_checked(at[i]));
      out.total_at.push_back(total_demand_checked(out.a.curves, at[i]));
    }
    return out;
  });
  const analysed_set& a = o.a;
  // The CLI's JSON (dbf FILE --json) without points, then what Python has instead of its
  // {"t": dbf(t)} objects: arrays in the order of `at`, and each task's steps as arrays.
  py::dict d = to_dict(dbf_run_json(a, {}, o.elapsed_s, session));
  d["total_dbf_at"] = array(o.total_at);
  d["at"] = array(at);
  py::list tasks = d["tasks"];
  for (std::size_t k = 0; k < a.set.tasks.size(); ++k) {
    py::dict td = tasks[k];
    td["dbf_at"] = array(o.task_at[k]);
    td["step_spans"] = array(a.curves[k].step_spans());
    td["step_demands"] = array(a.curves[k].step_demands());
  }
  return d;
}

py::list dbf_batch(const std::vector<set_source>& sources, const std::string& backend, const std::string& edf,
                   long long threads, unsigned block, std::uint64_t max_table_mib) {
  const dbf_session session(parse_dbf_backend(backend), threads, block, max_table_mib, parse_edf_method(edf));
  const auto all = interruptible([&] { return analyse_sources(sources, session); });
  py::list out;
  for (const auto& line : all) out.append(to_dict(nlohmann::json::parse(line.dump())));  // path null: not from a file
  return out;
}

py::dict dbf_sweep(const set_source& source, const std::string& sweep, const std::string& backend,
                   const std::string& edf, long long threads, unsigned block, std::uint64_t max_table_mib) {
  // `warpspan dbf FILE --sweep KIND:FROM:TO:STEPS[:TASK]`: the same library calls, the same JSON.
  const dbf_session session(parse_dbf_backend(backend), threads, block, max_table_mib, parse_edf_method(edf));
  const sweep_spec spec = parse_sweep(sweep);
  const task_set base = load(source);
  struct out_t {
    std::vector<nlohmann::ordered_json> lines;
    std::vector<sweep_point> grid;
    std::optional<double> critical;
    std::size_t transitions = 0;
    double elapsed_s = 0;
  };
  const out_t o = interruptible([&] {
    out_t out;
    if (analyse_sweep(
            base, spec, source.label, session, set_slice{},
            [&](analysed_set& s) {
              out.lines.push_back(sweep_variant_json(s));
              out.grid.push_back(sweep_point_of(s));
            },
            out.elapsed_s))
      out.critical = critical_factor(out.grid, base, spec, session.streaming(), out.transitions);
    return out;
  });
  py::list variants;
  for (const auto& line : o.lines) variants.append(to_dict(nlohmann::json::parse(line.dump())));
  py::dict d;
  d["variants"] = variants;
  d["summary"] = to_dict(nlohmann::json::parse(sweep_summary_json(o.grid, o.critical, o.transitions).dump()));
  // As the CLI's last line: the run's seconds and its GPU kernels' share (None on the CPU).
  d["elapsed_s"] = o.elapsed_s;
  d["kernel_s"] = session.on_device() ? py::object(py::float_(session.kernel_seconds())) : py::object(py::none());
  return d;
}

// ---------------------------------------------------------------------------------- shards
/// The settings of a shard of `dbf --batch PATH --json` or `dbf FILE --sweep ... --json` with
/// Python's options: the header its shards carry (the command line's, so that shards of either
/// face merge).
dbf_shard_settings shard_settings(const char* command, const std::string& shard, const dbf_session& session,
                                  const std::string& backend, const std::string& edf, long long threads, unsigned block,
                                  std::uint64_t max_table_mib) {
  dbf_shard_settings h;
  h.command = command;
  h.slice = parse_shard(shard);
  h.edf = edf;
  h.backend = backend;
  h.threads = threads;
  h.block = block;
  h.max_table_mib = max_table_mib;
  h.backend_label = backend_label(session.options().backend);
  return h;
}

/// A dbf shard for Python: its records' results under `key` (as dicts) and the shard's text.
py::dict shard_result(const char* key, const dbf_shard_settings& h, const std::vector<set_record>& records,
                      bool finished, double elapsed_s, const dbf_session& session, std::uint64_t sets) {
  py::list results;
  for (const set_record& r : records) results.append(to_dict(nlohmann::json::parse(r.line)));
  py::dict d;
  d[key] = results;
  d["shard_text"] =
      dbf_shard_text(h, records, finished, elapsed_s, session.on_device() ? session.kernel_seconds() : -1, sets);
  return d;
}

/// Shard `shard` ("I/N") of `dbf --batch PATH --json`: its sets' results and the shard's text.
py::dict dbf_batch_shard(const std::string& path, const std::string& shard, const std::string& backend,
                         const std::string& edf, long long threads, unsigned block, std::uint64_t max_table_mib) {
  const dbf_session session(parse_dbf_backend(backend), threads, block, max_table_mib, parse_edf_method(edf));
  dbf_shard_settings h = shard_settings("dbf-batch", shard, session, backend, edf, threads, block, max_table_mib);
  h.batch = path;
  struct out_t {
    std::vector<set_record> records;
    bool finished = false;
    double elapsed_s = 0;
    std::uint64_t seen = 0;
  };
  const out_t o = interruptible([&] {
    out_t out;
    batch_source source(path);
    out.finished = analyse_batch(
        source, session, set_slice{h.slice.index, h.slice.count},
        [&](analysed_set& a) { out.records.push_back(json_set_record(a, true)); }, out.elapsed_s, out.seen);
    return out;
  });
  return shard_result("verdicts", h, o.records, o.finished, o.elapsed_s, session, o.seen);
}

/// Shard `shard` ("I/N") of `dbf FILE --sweep SPEC --json`: its variants and the shard's text.
py::dict dbf_sweep_shard(const std::string& path, const std::string& sweep, const std::string& shard,
                         const std::string& backend, const std::string& edf, long long threads, unsigned block,
                         std::uint64_t max_table_mib) {
  const dbf_session session(parse_dbf_backend(backend), threads, block, max_table_mib, parse_edf_method(edf));
  dbf_shard_settings h = shard_settings("dbf-sweep", shard, session, backend, edf, threads, block, max_table_mib);
  h.file = path;
  h.sweep = sweep;
  const sweep_spec spec = parse_sweep(sweep);
  const task_set base = load_task_set(path);
  check_sweep_task(base, spec);
  struct out_t {
    std::vector<set_record> records;
    bool finished = false;
    double elapsed_s = 0;
  };
  const out_t o = interruptible([&] {
    out_t out;
    out.finished = analyse_sweep(
        base, spec, path, session, set_slice{h.slice.index, h.slice.count},
        [&](analysed_set& a) { out.records.push_back(json_set_record(a, false)); }, out.elapsed_s);
    return out;
  });
  return shard_result("variants", h, o.records, o.finished, o.elapsed_s, session, spec.steps);
}

/// A shard from Python: a file (read as `warpspan merge` reads it) or a shard's text in memory.
struct shard_source {
  std::string text;
  bool is_path = false;
  std::string label;
};

/// `warpspan merge`: the shards of one run, merged by the library, as the whole run's result: an
/// estimate's as warpspan.estimate gives it; a batch's verdicts as warpspan.dbf_batch; a sweep's
/// variants and summary as warpspan.dbf_sweep. {"command": ..., "result": ...}.
py::dict merge_shards(const std::vector<shard_source>& sources, std::uint64_t max_mib) {
  std::vector<std::string> paths;
  for (const auto& src : sources)
    if (src.is_path) paths.push_back(src.text);
  std::vector<shard_output> read = read_shards(paths, max_mib);
  std::vector<shard_output> shards;
  std::size_t next_file = 0;
  for (const auto& src : sources) {
    if (src.is_path) {
      shards.push_back(std::move(read[next_file++]));
      continue;
    }
    shards.push_back(parse_shard_text(src.text, src.label));
  }
  const std::string command = shards_command(shards);
  py::dict out;
  out["command"] = command;
  if (command == "estimate") {
    const estimate_merge m = merge_estimate_shards(shards);
    py::dict d = to_dict(m.result);
    const auto& env = m.result["envelope"];
    py::array_t<double> e(std::vector<py::ssize_t>{static_cast<py::ssize_t>(env.size()), 2});
    auto ev = e.mutable_unchecked<2>();
    for (std::size_t k = 0; k < env.size(); ++k) {
      ev(static_cast<py::ssize_t>(k), 0) = env[k][0].get<double>();
      ev(static_cast<py::ssize_t>(k), 1) = env[k][1].get<double>();
    }
    d["envelope"] = e;
    std::vector<std::int64_t> best = m.result["best_string"].get<std::vector<std::int64_t>>();
    d["best_string"] = array(best);
    schedule_fields(d, m.prob, m.schedule);
    out["result"] = d;
    return out;
  }
  const set_merge m = merge_set_shards(shards);
  if (!m.settings.json)
    throw input_error(shards.front().name + ": the shards were written as text; Python merges the shards of " +
                      "JSON runs (the command line's with its JSON output, or those of " + param("slices") + ")");
  if (!m.interrupted.empty())
    throw input_error(m.interrupted.front() +
                      " is a shard that was interrupted: its sets are not all there; run it again");
  py::list lines;
  std::vector<sweep_point> grid;
  for (const set_record& r : m.records) {
    lines.append(to_dict(nlohmann::json::parse(r.line)));
    grid.push_back({r.factor, r.u, r.verdict});
  }
  if (command == "dbf-batch") {
    out["result"] = lines;
    return out;
  }
  const task_set base = merged_sweep_base(m, shards.front().name);
  const dbf_shard_settings& h = m.settings;
  const dbf_session session(parse_dbf_backend(h.backend), h.threads, h.block, h.max_table_mib, parse_edf_method(h.edf));
  const sweep_spec spec = parse_sweep(h.sweep);
  std::size_t transitions = 0;
  const std::optional<double> critical =
      interruptible([&] { return critical_factor(grid, base, spec, session.streaming(), transitions); });
  py::dict d;
  d["variants"] = lines;
  d["summary"] = to_dict(nlohmann::json::parse(sweep_summary_json(grid, critical, transitions).dump()));
  d["elapsed_s"] = m.elapsed_s;
  d["kernel_s"] = m.kernel_s >= 0 ? py::object(py::float_(m.kernel_s)) : py::object(py::none());
  out["result"] = d;
  return out;
}

// ---------------------------------------------------------------------------------- wcet
/// A trace from Python: a path (read as the CLI reads --trace FILE) or the trace's text.
struct trace_source {
  std::string text;
  bool is_path = false;
  std::string label;
};

py::dict wcet_analysis(const std::string& cfg_path, const std::string& ptx_path, const std::string& entry,
                       const std::vector<trace_source>& sources, const std::string& trace_format,
                       const std::string& method, const std::vector<std::string>& loop_bounds,
                       const std::string& probe_cost, const std::string& clock) {
  // The request `warpspan wcet` builds, run by the same library function.
  wcet::wcet_request request;
  request.cfg_path = cfg_path;
  request.ptx_path = ptx_path;
  request.entry = entry;
  for (const trace_source& t : sources) request.traces.push_back({t.label, t.text, t.is_path});
  request.format = trace_format;
  request.method = method;
  request.loop_bounds = loop_bounds;
  request.probe_cost = probe_cost;
  request.clock = clock;
  const wcet::wcet_run run = interruptible([&] { return wcet::run_wcet(request); });
  const wcet::wcet_program& program = run.program;
  const wcet::wcet_report& r = run.report;
  return to_dict(wcet_report_json(program, r));  // probe_cost: the cycles subtracted
}

// ---------------------------------------------------------------------------------- inputs
py::dict inputs_search(const inputs::search_request& request) {
  const inputs::search_options o = inputs::make_search_options(request);
  const inputs::search_result r = interruptible([&] { return inputs::run_search(o); });
  const nlohmann::json j = inputs_run_json(o, r);
  py::dict d = to_dict(j);
  py::array_t<double> history(std::vector<py::ssize_t>{static_cast<py::ssize_t>(r.trace.history.size()), 2});
  auto h = history.mutable_unchecked<2>();
  for (std::size_t k = 0; k < r.trace.history.size(); ++k) {
    h(static_cast<py::ssize_t>(k), 0) = static_cast<double>(r.trace.history[k].evaluation);
    h(static_cast<py::ssize_t>(k), 1) = r.trace.history[k].best;
  }
  d["history"] = history;
  d["best_input"] = array(r.trace.best);
  if (r.failure.empty() && !r.trace.best.empty()) {
    // The best input's slowest block as warps of the makespan model: warp_kernels= of estimate.
    const inputs::block_warp_kernels w = interruptible([&] { return inputs::worst_block(o, r.trace.best); });
    d["worst_block"] = to_dict(block_warp_kernels_json(w));
  }
  if (!r.failure.empty()) {
    // The harness failed: InputError with the message, the results so far as its `result`.
    d["failing_input"] = array(r.failing_input);
    py::object error = py::reinterpret_borrow<py::object>(input_error_type)(r.failure);
    error.attr("result") = d;
    PyErr_SetObject(input_error_type, error.ptr());
    throw py::error_already_set();
  }
  return d;
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "warpspan's library (use the package warpspan, which wraps these functions)";
  m.attr("__version__") = WARPSPAN_VERSION;
  // The library's defaults, which warpspan/__init__.py's keyword defaults read.
  m.attr("DBF_BLOCK") = default_dbf_block;
  m.attr("DBF_MAX_TABLE_MIB") = default_max_table_mib;
  m.attr("EXACT_WARM_START") = default_warm_start;
  {
    const estimate_request e;
    py::dict d;
    d["seed"] = e.search.seed;
    d["t0"] = e.search.t0;
    d["reach"] = e.search.reach;
    d["far_moves"] = e.search.far_moves;
    d["beam_share"] = e.search.beam_share;
    d["beam_width"] = e.search.beam_width;
    d["exact_seconds"] = e.exact_seconds;
    m.attr("ESTIMATE_DEFAULTS") = d;
  }
  auto input = py::register_exception<input_error>(m, "InputError", PyExc_ValueError);
  input_error_type = input.ptr();
  not_compiled_type = py::register_exception<not_compiled>(m, "NotCompiledError", input.ptr()).ptr();
  validation_error_type = py::register_exception<validation_error>(m, "ValidationError", PyExc_RuntimeError).ptr();
  py::register_exception_translator(&translate);  // after register_exception: tried first

  py::class_<set_source>(m, "_SetSource")
      .def(py::init([](std::string text, bool is_path, std::string label) {
             return set_source{std::move(text), is_path, std::move(label)};
           }),
           py::arg("text"), py::arg("is_path"), py::arg("label"));

  py::class_<shard_source>(m, "_ShardSource")
      .def(py::init([](std::string text, bool is_path, std::string label) {
             return shard_source{std::move(text), is_path, std::move(label)};
           }),
           py::arg("text"), py::arg("is_path"), py::arg("label"));

  py::class_<trace_source>(m, "_TraceSource")
      .def(py::init([](std::string text, bool is_path, std::string label) {
             return trace_source{std::move(text), is_path, std::move(label)};
           }),
           py::arg("text"), py::arg("is_path"), py::arg("label"));

  py::class_<inputs::search_request>(m, "_SearchRequest")
      .def(py::init<>())
      .def_readwrite("kernel", &inputs::search_request::kernel)
      .def_readwrite("harness", &inputs::search_request::harness)
      .def_readwrite("method", &inputs::search_request::method)
      .def_readwrite("fitness", &inputs::search_request::fitness)
      .def_readwrite("sm", &inputs::search_request::sm)
      .def_readwrite("threads", &inputs::search_request::threads)
      .def_readwrite("evaluations", &inputs::search_request::evaluations)
      .def_readwrite("population", &inputs::search_request::population)
      .def_readwrite("patience", &inputs::search_request::patience)
      .def_readwrite("atom_threads", &inputs::search_request::atom_threads)
      .def_readwrite("atom_runs", &inputs::search_request::atom_runs)
      .def_readwrite("sms", &inputs::search_request::sms)
      .def_readwrite("jobs", &inputs::search_request::jobs)
      .def_readwrite("seed", &inputs::search_request::seed)
      .def_readwrite("tolerance", &inputs::search_request::tolerance)
      .def_readwrite("eval_timeout", &inputs::search_request::eval_timeout);

  // The package calls this once, under its lock, after importing numpy: pybind11 looks numpy up for
  // the first array, and threads that make their first calls at once would race there.
  m.def("_numpy_ready", [] { return py::array_t<std::uint8_t>(0).size(); });
  m.def("estimate", &estimate);
  m.def("exact", &exact);
  m.def("bound", &bound);
  m.def("build", &build);
  m.def("kernel_from_ptx", &kernel_from_ptx);
  m.def("sm_presets", &presets);
  m.def("dbf", &dbf);
  m.def("dbf_batch", &dbf_batch);
  m.def("dbf_sweep", &dbf_sweep);
  m.def("dbf_batch_shard", &dbf_batch_shard);
  m.def("dbf_sweep_shard", &dbf_sweep_shard);
  m.def("merge", &merge_shards);
  m.attr("MERGE_MAX_MIB") = default_max_shard_mib;
  m.def("cuda_compiled", &cuda_compiled);
  m.def("wcet", &wcet_analysis);
  m.def("inputs", &inputs_search);
}
