#include "warpspan/dbf/pipeline.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <functional>
#include <future>
#include <mutex>
#include <deque>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"

namespace warpspan {

std::uint64_t dbf_chunk_max_cells(const dbf_options& options) {
  const bool cuda = options.backend == dbf_backend::cuda || options.backend == dbf_backend::cuda_sm;
  return std::uint64_t{1} << (cuda ? 28 : 24);
}

std::vector<unrolled_graph> unroll_all(const task_set& set, const dbf_options& options) {
  std::vector<unrolled_graph> graphs;
  graphs.reserve(set.tasks.size());
  for (const task& t : set.tasks) {
    graphs.push_back(unroll(t));
    check_table_size(graphs.back(), t.name, options);
  }
  return graphs;
}

namespace {

std::uint64_t cells_of(const std::vector<unrolled_graph>& graphs) {
  std::uint64_t cells = 0;
  for (const auto& g : graphs) cells += g.cells();
  return cells;
}

/// The tables of sets [begin, end) of a chunk (unrolled), all in one dbf_tables call after checking
/// that what they hold at once fits the memory budget; none with shared tables.
std::vector<dbf_table> chunk_tables(const std::vector<analysed_set>& chunk, std::size_t begin, std::size_t end,
                                    const stream_options& options) {
  std::vector<const unrolled_graph*> all;
  for (std::size_t i = begin; i < end; ++i)
    for (const auto& g : chunk[i].graphs) all.push_back(&g);
  if (all.empty() || options.shared_tables) return {};
  check_tables_memory(all, options.dbf,
                      end - begin == 1 ? chunk[begin].label : chunk[begin].label + " .. " + chunk[end - 1].label);
  dbf_options o = options.dbf;
  o.steps_suffice = true;  // a curve needs only the steps (the GPU then builds them on the chip)
  return dbf_tables(all, o);
}

/// Set `s`'s curves from its tables, which start at tables[first] (or from the shared tables); each
/// table is dropped once its curve holds the steps (a chunk's tables add up).
void build_curves(analysed_set& s, std::vector<dbf_table>& tables, std::size_t first, const stream_options& options) {
  const auto* shared = options.shared_tables;
  s.curves.reserve(s.graphs.size());
  for (std::size_t k = 0; k < s.graphs.size(); ++k) {
    if (shared) {
      s.curves.emplace_back((*shared)[k], s.graphs[k]);
    } else {
      s.curves.emplace_back(tables[first + k], s.graphs[k]);
      tables[first + k] = dbf_table{};
    }
  }
}

/// A set left to the stream (analysed_set::unroll_in_stream): parsed first when it was left
/// unparsed, then unrolled, on whichever thread the stream gives it. Throws what either throws.
void unroll_in_stream(analysed_set& s, const dbf_options& options) {
  if (s.unparsed) {
    const unparsed_set raw = std::move(*s.unparsed);
    s.unparsed.reset();
    s.set = raw.parse();
  }
  s.graphs = unroll_all(s.set, options);
}

/// What went wrong with each set of a chunk on the worker, kept for the set's turn to be reported.
struct chunk_faults {
  std::vector<std::exception_ptr> unroll;  // unroll_all threw (a set left to the stream to unroll)
  std::vector<std::exception_ptr> test;    // its curves or its test threw
};

/// `f(i)` for i < n, on the test pool's threads when there is one.
void on_pool(const stream_options& options, std::size_t n, const std::function<void(std::size_t)>& f) {
  if (options.test_pool && n > 1)
    options.test_pool->run(n, f);
  else
    for (std::size_t i = 0; i < n; ++i) f(i);
}

/// A chunk through the stream's work: the sets left to it parsed and unrolled (in parallel), then,
/// range by range of at most dbf_chunk_max_cells cells, the tables in one call and each set's
/// curves and test on the pool (a GPU's tables come faster than one core tests them). `tables_turn`
/// is held over each tables call: the chunk's own workspace's (options.dbf.workspace), or, where two
/// chunks in flight share one, their common turn; either way one's tests run on the pool beside the
/// other's tables. What the tables throw ends the
/// stream; what a set's unrolling or test throws waits in `faults` for its turn.
void process_chunk(std::vector<analysed_set>& chunk, chunk_faults& faults, const stream_options& options,
                   std::mutex& tables_turn) {
  const std::size_t n = chunk.size();
  faults.unroll.assign(n, nullptr);
  faults.test.assign(n, nullptr);
  on_pool(options, n, [&](std::size_t i) {
    analysed_set& s = chunk[i];
    if (!s.unroll_in_stream || !s.error.empty()) return;
    try {
      unroll_in_stream(s, options.dbf);
    } catch (...) {
      faults.unroll[i] = std::current_exception();
    }
    s.unroll_in_stream = false;
  });
  const std::uint64_t max_cells = dbf_chunk_max_cells(options.dbf);
  for (std::size_t begin = 0; begin < n;) {
    if (interrupted()) return;  // nothing more is reported: the stream stops within a range of tables
    std::size_t end = begin;
    for (std::uint64_t cells = 0; end < n && (end == begin || cells + cells_of(chunk[end].graphs) <= max_cells); ++end)
      cells += cells_of(chunk[end].graphs);
    std::vector<dbf_table> tables;
    {
      const std::lock_guard<std::mutex> turn(tables_turn);
      tables = chunk_tables(chunk, begin, end, options);
    }
    std::vector<std::size_t> first(end - begin);
    for (std::size_t i = begin, at = 0; i < end; at += chunk[i].graphs.size(), ++i) first[i - begin] = at;
    on_pool(options, end - begin, [&](std::size_t j) {
      analysed_set& s = chunk[begin + j];
      if (!s.error.empty() || faults.unroll[begin + j]) return;
      try {
        build_curves(s, tables, first[j], options);
        s.result = edf_test(s.curves, options.method);
      } catch (...) {
        faults.test[begin + j] = std::current_exception();
      }
    });
    begin = end;
  }
}

/// A processed chunk's sets to `report` in order; false when interrupted before the last.
bool report_chunk(std::vector<analysed_set>& chunk, const chunk_faults& faults,
                  const std::function<void(analysed_set&)>& report, const stream_options& options) {
  for (std::size_t i = 0; i < chunk.size(); ++i) {
    analysed_set& s = chunk[i];
    if (interrupted()) return false;
    if (faults.unroll[i]) {
      try {
        std::rethrow_exception(faults.unroll[i]);
      } catch (const input_error& e) {
        if (!options.keep_going) throw;  // as from next(): the stream ends at this set
        s.error = e.description();
      }
    }
    if (faults.test[i]) {
      try {
        std::rethrow_exception(faults.test[i]);
      } catch (const input_error& e) {
        if (!options.keep_going) throw input_error(s.label + ": " + e.description());  // an undecided set names itself
        s.error = s.label + ": " + e.description();
      }
    }
    report(s);
  }
  return true;
}

}  // namespace

void analyse_set(analysed_set& set, const stream_options& options) {
  std::vector<analysed_set> one(1);
  one[0] = std::move(set);
  if (one[0].unroll_in_stream) {
    unroll_in_stream(one[0], options.dbf);
    one[0].unroll_in_stream = false;
  }
  std::vector<dbf_table> tables = chunk_tables(one, 0, 1, options);
  build_curves(one[0], tables, 0, options);
  set = std::move(one[0]);
  try {
    set.result = edf_test(set.curves, options.method);
  } catch (const input_error& e) {
    throw input_error(set.label + ": " + e.description());
  }
}

bool analyse_sets(const std::function<bool(analysed_set&)>& next, const std::function<void(analysed_set&)>& report,
                  const stream_options& options, double& elapsed_s) {
  // Chunks in flight where there is a test pool (every backend but the one-thread reference): while
  // a chunk's tables, curves and tests run on a worker thread (the GPU, the pool), this thread reads
  // the next; chunks are reported in order. With a GPU two chunks are in flight (double buffering):
  // one's sets are parsed, unrolled and tested on the pool while the other's tables are on the
  // device, so neither waits for the other's share (issue 43, item 5). On the CPU the pool computes
  // the tables too, and one chunk at a time keeps the memory a chunk holds. `next` and `report` run
  // on this thread only.
  const bool overlap = options.test_pool != nullptr;
  const bool device = options.dbf.backend == dbf_backend::cuda || options.dbf.backend == dbf_backend::cuda_sm;
  const std::size_t depth = device ? 2 : 1;
  struct span {
    std::chrono::steady_clock::time_point start, end;
  };
  struct in_flight {
    std::vector<analysed_set> chunk;
    chunk_faults faults;
    std::size_t slot = 0;    // its workspace (and turn): 0 or 1, not the other chunk's in flight
    std::future<span> done;  // the worker's: when it started and ended the chunk
  };
  std::deque<in_flight> flying;  // oldest first; a deque keeps the elements' places as it grows
  // A slot a chunk in flight: with a second workspace each chunk makes its device calls in its own
  // (two streams: one's packing, copies and unpacking beside the other's kernel), otherwise both
  // take turns on the one (slot 1's options and turn are slot 0's).
  const bool two_workspaces = device && options.second_workspace != nullptr;
  stream_options slot_options[2] = {options, options};
  if (two_workspaces) slot_options[1].dbf.workspace = options.second_workspace;
  std::mutex turns[2];
  std::vector<analysed_set> filling;
  std::uint64_t cells = 0;
  std::size_t text_bytes = 0;  // of the filling chunk's sets not parsed yet
  auto chunk_start = std::chrono::steady_clock::now();
  auto counted_to = chunk_start;  // elapsed_s counts the time any chunk was in work, overlaps once
  const auto process = [&slot_options, &turns, two_workspaces](std::vector<analysed_set>& chunk, chunk_faults& f,
                                                               std::size_t slot) {
    const std::size_t at = two_workspaces ? slot : 0;
    span t;
    t.start = std::chrono::steady_clock::now();
    process_chunk(chunk, f, slot_options[at], turns[at]);
    t.end = std::chrono::steady_clock::now();
    return t;
  };
  const auto count = [&](const span& t) {
    const auto from = std::max(t.start, counted_to);
    if (t.end > from) elapsed_s += std::chrono::duration<double>(t.end - from).count();
    counted_to = std::max(counted_to, t.end);
  };
  const auto ready = [](const in_flight& f) {
    return f.done.wait_for(std::chrono::seconds(0)) == std::future_status::ready;
  };
  // Waits for the oldest chunk in flight and reports it; false when interrupted.
  const auto finish_oldest = [&]() -> bool {
    count(flying.front().done.get());  // rethrows what the tables threw
    const bool done = report_chunk(flying.front().chunk, flying.front().faults, report, options);
    flying.pop_front();
    return done;
  };
  const auto drain = [&]() -> bool {
    while (!flying.empty())
      if (!finish_oldest()) return false;
    return true;
  };
  // Hands the filled chunk on (to a worker, or processes it here) and starts a new one; reports the
  // chunks done by then, and waits for the oldest while `depth` are in flight.
  const auto flush = [&]() -> bool {
    while (!flying.empty() && (flying.size() >= depth || ready(flying.front())))
      if (!finish_oldest()) return false;
    std::vector<analysed_set> chunk;
    chunk.swap(filling);
    cells = 0;
    text_bytes = 0;
    if (overlap) {
      const std::size_t slot = flying.empty() ? 0 : 1 - flying.back().slot;  // at most one other in flight
      in_flight& f = flying.emplace_back();
      f.chunk = std::move(chunk);
      f.slot = slot;
      f.done = std::async(std::launch::async, process, std::ref(f.chunk), std::ref(f.faults), slot);
      return true;
    }
    chunk_faults faults;
    count(process(chunk, faults, 0));
    return report_chunk(chunk, faults, report, options);
  };
  // Whatever ends the stream waits for the workers first: they hold references to `flying`.
  struct join_workers {
    std::deque<in_flight>& flying;
    ~join_workers() {
      for (in_flight& f : flying)
        if (f.done.valid()) f.done.wait();
    }
  } join{flying};
  for (;;) {
    if (interrupted()) return false;  // (the workers are joined on the way out)
    analysed_set s;
    try {
      if (!next(s)) break;
    } catch (const input_error&) {
      // A set that cannot be read ends the stream: the sets before it are analysed and reported
      // first, then its error.
      if (flush()) drain();
      throw;
    }
    if (s.unroll_in_stream && !overlap && s.error.empty()) {  // one thread: unrolled as it is read
      try {
        unroll_in_stream(s, options.dbf);
      } catch (const input_error& e) {
        if (!options.keep_going) {
          if (flush()) drain();
          throw;
        }
        s.error = e.description();
      }
      s.unroll_in_stream = false;
    }
    if (filling.empty()) chunk_start = std::chrono::steady_clock::now();
    cells += cells_of(s.graphs);
    text_bytes += s.unparsed ? s.unparsed->text.size() : 0;
    filling.push_back(std::move(s));
    // A chunk is full at dbf_chunk_max_sets sets, its cells or its unparsed text; with sets left to
    // the stream to unroll (their cells unknown yet) it is also handed on early, at 8 sets or 20
    // ms, when the workers are idle: results come soon and a worker never waits for a full chunk.
    const bool idle = overlap && (flying.empty() || ready(flying.back()));
    const bool early =
        idle && filling.back().unroll_in_stream &&
        (filling.size() >= 8 || std::chrono::steady_clock::now() - chunk_start >= std::chrono::milliseconds(20));
    if ((early || filling.size() >= dbf_chunk_max_sets || cells >= dbf_chunk_max_cells(options.dbf) ||
         text_bytes >= dbf_chunk_max_text_bytes) &&
        !flush())
      return false;
  }
  if (!filling.empty() && !flush()) return false;
  if (!drain()) return false;
  return !interrupted();
}

std::vector<std::vector<std::uint32_t>> sweep_shared_tables(const task_set& base, const sweep_spec& spec,
                                                            const dbf_options& options, const std::string& label) {
  std::vector<std::vector<std::uint32_t>> shared;
  if (spec.kind != "period") return shared;
  const std::vector<unrolled_graph> graphs = unroll_all(base, options);
  std::vector<const unrolled_graph*> all;
  for (const auto& g : graphs) all.push_back(&g);
  check_tables_memory(all, options, label);
  for (auto& t : dbf_tables(all, options)) shared.push_back(std::move(t.min_span));
  return shared;
}

void read_sweep_variant(analysed_set& s, const task_set& base, const sweep_spec& spec, std::uint32_t k,
                        const dbf_options& options, const std::string& label) {
  s.index = k;
  sweep_variant v = sweep_variant_at(base, spec, k);
  s.factor = v.factor;
  s.label = label + " (" + spec.kind + " x " + std::to_string(v.factor) + ")";
  s.error = std::move(v.error);
  if (s.error.empty()) s.graphs = unroll_all(v.set, options);
}

sweep_point sweep_point_of(const analysed_set& s) {
  if (!s.error.empty()) return {s.factor, 0, 2};
  return {s.factor, s.result.u.value, s.result.schedulable ? 0 : 1};
}

namespace {

/// Whether the variant at `factor` is schedulable (nullopt: outside the model or undecided).
std::optional<bool> variant_schedulable(const task_set& base, const sweep_spec& spec, double factor,
                                        const stream_options& options) {
  sweep_variant v = sweep_variant_with(base, spec, factor);
  if (!v.error.empty()) return std::nullopt;
  analysed_set one;
  try {
    one.graphs = unroll_all(v.set, options.dbf);
    stream_options own = options;
    own.shared_tables = nullptr;  // tables of its own (the grid's shared ones are a period sweep's)
    analyse_set(one, own);
  } catch (const input_error&) {
    return std::nullopt;
  }
  return one.result.schedulable;
}

}  // namespace

std::optional<double> critical_factor(const std::vector<sweep_point>& grid, const task_set& base,
                                      const sweep_spec& spec, const stream_options& options, std::size_t& transitions) {
  std::optional<std::size_t> first;
  transitions = 0;
  for (std::size_t k = 0; k + 1 < grid.size(); ++k) {
    if (grid[k].verdict == 2 || grid[k + 1].verdict == 2 || grid[k].verdict == grid[k + 1].verdict) continue;
    ++transitions;
    if (!first) first = k;
  }
  if (!first) return std::nullopt;
  double good = grid[*first].factor, bad = grid[*first + 1].factor;
  if (grid[*first].verdict != 0) std::swap(good, bad);
  for (int step = 0; step < 60 && std::abs(good - bad) > 1e-6 * std::max(std::abs(good), 1e-9); ++step) {
    if (interrupted()) break;
    const double mid = (good + bad) / 2;
    const std::optional<bool> ok = variant_schedulable(base, spec, mid, options);
    if (!ok) break;  // the model ends between the grid points: keep what is known
    (*ok ? good : bad) = mid;
  }
  return good;
}

// ---- runs

dbf_session::dbf_session(dbf_backend backend, long long threads, unsigned block, std::uint64_t max_table_mib,
                         edf_method method, bool keep_going) {
  stream_.dbf = make_dbf_options(backend, threads, block, max_table_mib);
  stream_.method = method;
  stream_.keep_going = keep_going;
  stream_.dbf.kernel_ns = &kernel_ns_;
  if (on_device()) {  // one workspace for each of the stream's two chunks in flight
    workspace_ = std::make_unique<dbf_workspace>(2);
    second_ = std::make_unique<dbf_workspace>(2);
    stream_.dbf.workspace = workspace_.get();
    stream_.second_workspace = second_.get();
  }
  // cpu is the one-thread reference; the other backends keep threads for the whole run: the
  // tables' (cpu-parallel) and the EDF tests' (every backend but cpu).
  if (stream_.dbf.backend != dbf_backend::cpu) {
    pool_ = std::make_unique<thread_pool>(stream_.dbf.threads);
    if (stream_.dbf.backend == dbf_backend::cpu_parallel) stream_.dbf.pool = pool_.get();
    stream_.test_pool = pool_.get();
  }
}

dbf_session::~dbf_session() = default;

bool dbf_session::on_device() const {
  return stream_.dbf.backend == dbf_backend::cuda || stream_.dbf.backend == dbf_backend::cuda_sm;
}

stream_options dbf_session::streaming(const std::vector<std::vector<std::uint32_t>>* shared_tables) const {
  stream_options o = stream_;
  o.shared_tables = shared_tables;
  return o;
}

analysed_set analyse_one(task_set set, const std::string& label, const dbf_session& session, double& elapsed_s) {
  analysed_set a;
  a.label = label;
  a.set = std::move(set);
  a.graphs = unroll_all(a.set, session.options());
  const auto start = std::chrono::steady_clock::now();
  analyse_set(a, session.streaming());
  elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return a;
}

bool analyse_batch(batch_source& source, const dbf_session& session, const set_slice& slice,
                   const std::function<void(analysed_set&)>& report, double& elapsed_s, std::uint64_t& seen) {
  const stream_options options = session.streaming();
  std::uint64_t k = 0;
  const bool finished = analyse_sets(
      [&](analysed_set& it) {
        for (; !slice.mine(k); ++k)  // another slice's sets are passed over unread
          if (!source.skip()) return false;
        unparsed_set in;
        it.index = k++;
        try {
          if (!source.next_unparsed(in)) return false;
          it.path = source.last_path();
          it.label = in.label;
          it.unparsed = std::move(in);
          it.unroll_in_stream =
              true;  // parsed and unrolled on the stream's threads, beside the reading of the next sets
        } catch (const input_error& e) {
          if (!options.keep_going) throw;
          it.label = source.last_label();
          it.path = source.last_path();
          it.error = e.description();
          it.graphs.clear();
          it.unparsed.reset();
          it.unroll_in_stream = false;
        }
        return true;
      },
      [&](analysed_set& it) {
        report(it);
        it.graphs.clear();  // a batch keeps the verdicts only
        it.set = task_set{};
        it.curves.clear();
      },
      options, elapsed_s);
  seen = finished ? source.count() : k;
  return finished;
}

bool analyse_sweep(const task_set& base, const sweep_spec& spec, const std::string& label, const dbf_session& session,
                   const set_slice& slice, const std::function<void(analysed_set&)>& report, double& elapsed_s) {
  check_sweep_task(base, spec);
  // Tables do not depend on periods: a period sweep computes the base set's tables once.
  const auto shared = sweep_shared_tables(base, spec, session.options(), label);
  std::uint32_t k = 0;
  return analyse_sets(
      [&](analysed_set& it) {
        while (k < spec.steps && !slice.mine(k)) ++k;
        if (k == spec.steps) return false;
        read_sweep_variant(it, base, spec, k++, session.options(), label);
        return true;
      },
      report, session.streaming(shared.empty() ? nullptr : &shared), elapsed_s);
}

}  // namespace warpspan
