// T', dbf_small and dbf by eq. (1), and Algorithm 1 on the CPU (reference and all cores).
#include "warpspan/dbf/dbf.hpp"

#include <algorithm>
#include <numeric>
#include <atomic>
#include <barrier>
#include <cstdlib>
#include <functional>
#include <memory>
#include <new>
#include <thread>
#include <unordered_map>

#if defined(__linux__)
#include <sys/mman.h>
#endif

#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/resources.hpp"

namespace warpspan {

namespace {
__extension__ typedef unsigned __int128 u128;
constexpr std::uint64_t u64_max = ~std::uint64_t{0};
}  // namespace

std::size_t unrolled_graph::max_preds() const {
  std::size_t most = 0;
  for (std::uint32_t r = 0; r < rows; ++r) most = std::max<std::size_t>(most, pred_begin[r + 1] - pred_begin[r]);
  return most;
}

unrolled_graph unroll(const task& t) {
  const std::vector<std::uint32_t> order = topological_order(t);
  if (order.empty()) throw input_error("task '" + t.name + "': the graph has a cycle");
  const std::uint32_t n = static_cast<std::uint32_t>(t.vertices.size());
  std::vector<std::uint32_t> pos(n);
  for (std::uint32_t k = 0; k < n; ++k) pos[order[k]] = k;
  const std::uint32_t source = order.front();
  const std::uint32_t sink = order.back();  // the unique sink is last in any topological order

  unrolled_graph g;
  g.rows = 2 * n;
  g.period = t.period;
  g.E = max_path_wcet(t);
  g.wcet.resize(g.rows);
  g.deadline.resize(g.rows);
  g.origin.resize(g.rows);
  std::vector<std::vector<dbf_pred>> preds(g.rows);
  for (std::uint32_t copy = 0; copy < 2; ++copy) {
    for (std::uint32_t v = 0; v < n; ++v) {
      const std::uint32_t row = copy * n + pos[v];
      const bool dummy = copy == 0 && v == source;
      g.wcet[row] = dummy ? 0 : static_cast<std::uint32_t>(t.vertices[v].wcet);
      g.deadline[row] = dummy ? 0 : static_cast<std::uint32_t>(t.vertices[v].deadline);
      g.origin[row] = v;
    }
    for (const task_edge& e : t.edges) {
      const bool from_dummy = copy == 0 && e.from == source;
      const std::uint64_t gap = from_dummy ? 0 : e.separation - t.vertices[e.from].deadline;
      preds[copy * n + pos[e.to]].push_back({copy * n + pos[e.from], static_cast<std::uint32_t>(gap)});
    }
  }
  // The first copy's sink to the second copy's source, separation d(sink): gap 0.
  preds[n + pos[source]].push_back({pos[sink], 0});

  g.pred_begin.assign(g.rows + 1, 0);
  for (std::uint32_t r = 0; r < g.rows; ++r) {
    std::sort(preds[r].begin(), preds[r].end(), [](dbf_pred a, dbf_pred b) { return a.row < b.row; });
    g.pred_begin[r + 1] = g.pred_begin[r] + static_cast<std::uint32_t>(preds[r].size());
    g.preds.insert(g.preds.end(), preds[r].begin(), preds[r].end());
  }
  // Demands in units of the gcd of the wcets (the dummy's 0 divides by anything).
  std::uint32_t unit = 0;
  for (std::uint32_t r = 0; r < g.rows; ++r) unit = std::gcd(unit, g.wcet[r]);
  g.demand_unit = std::max<std::uint32_t>(unit, 1);
  for (std::uint32_t& e : g.wcet) e /= g.demand_unit;
  // D: the largest demand of any path (paths may start anywhere; wcet >= 0).
  std::vector<std::uint64_t> most(g.rows, 0);
  std::uint64_t D = 0;
  for (std::uint32_t r = 0; r < g.rows; ++r) {
    std::uint64_t before = 0;
    for (std::uint32_t k = g.pred_begin[r]; k < g.pred_begin[r + 1]; ++k)
      before = std::max(before, most[g.preds[k].row]);
    most[r] = before + g.wcet[r];
    D = std::max(D, most[r]);
  }
  if (D * g.demand_unit >= (std::uint64_t{1} << 31))
    throw input_error("task '" + t.name + "': a path of two copies demands " + std::to_string(D * g.demand_unit) +
                      ", more than the supported 2^31");
  g.max_demand = static_cast<std::uint32_t>(D);
  return g;
}

// ---------------------------------------------------------------------------------------------
// dbf_curve

dbf_curve::dbf_curve(const std::vector<std::uint32_t>& min_span, std::uint64_t E, std::uint64_t period,
                     std::uint32_t demand_unit)
    : E_(E), period_(period) {
  if (period == 0) throw input_error("a task's period must be positive");
  // A demand e is a step when it is reached strictly sooner than every larger demand.
  std::uint32_t sooner = dbf_inf;
  for (std::size_t e = min_span.size(); e-- > 1;) {
    if (min_span[e] < sooner) {
      sooner = min_span[e];
      spans_.push_back(min_span[e]);
      demands_.push_back(static_cast<std::uint32_t>(e * demand_unit));
    }
  }
  std::reverse(spans_.begin(), spans_.end());
  std::reverse(demands_.begin(), demands_.end());
  set_residues();
}

dbf_curve::dbf_curve(const dbf_table& table, const unrolled_graph& g) {
  if (!table.has_steps()) {
    *this = dbf_curve(table.min_span, g);
    return;
  }
  if (g.period == 0) throw input_error("a task's period must be positive");
  E_ = g.E;
  period_ = g.period;
  spans_ = table.step_spans;
  demands_.reserve(table.step_columns.size());
  for (std::uint32_t c : table.step_columns) demands_.push_back(static_cast<std::uint32_t>(c * g.demand_unit));
  set_residues();
}

void dbf_curve::set_residues() {
  residues_.push_back(0);
  for (std::uint32_t s : spans_)
    if (s < 2 * period_) residues_.push_back(s % period_);
  std::sort(residues_.begin(), residues_.end());
  residues_.erase(std::unique(residues_.begin(), residues_.end()), residues_.end());
}

std::uint64_t dbf_curve::small(std::uint64_t t) const {
  const auto it =
      std::upper_bound(spans_.begin(), spans_.end(), t, [](std::uint64_t x, std::uint32_t s) { return x < s; });
  if (it == spans_.begin()) return 0;
  return demands_[static_cast<std::size_t>(it - spans_.begin()) - 1];
}

namespace {
/// dbf(t) of eq. (1) in 128 bits: q E + dbf_small(r) or (q - 1) E + dbf_small(P + r), whichever is
/// larger; q < 2^64 and E < 2^64 keep it below 2^128.
u128 dbf_at_wide(const dbf_curve& c, std::uint64_t t) {
  const std::uint64_t q = t / c.period();
  const std::uint64_t r = t % c.period();
  u128 best = static_cast<u128>(q) * c.E() + c.small(r);
  if (q >= 1) best = std::max(best, static_cast<u128>(q - 1) * c.E() + c.small(c.period() + r));
  return best;
}
}  // namespace

std::uint64_t dbf_curve::at(std::uint64_t t) const {
  const u128 v = dbf_at_wide(*this, t);
  return v > u64_max ? u64_max : static_cast<std::uint64_t>(v);
}

std::uint64_t dbf_curve::at_checked(std::uint64_t t) const {
  const u128 v = dbf_at_wide(*this, t);
  if (v > u64_max)
    throw input_error("dbf at t = " + std::to_string(t) + " is over 2^64 (E = " + std::to_string(E_) + " per period " +
                      std::to_string(period_) + "); give a smaller t");
  return static_cast<std::uint64_t>(v);
}

std::uint64_t dbf_curve::prev_point(std::uint64_t t) const {
  const std::uint64_t q = t / period_;
  const std::uint64_t r = t % period_;
  const auto it = std::upper_bound(residues_.begin(), residues_.end(), r);
  return q * period_ + *(it - 1);  // residues_ starts with 0
}

// ---------------------------------------------------------------------------------------------
// Backends

dbf_backend parse_dbf_backend(std::string_view word) {
  if (word == "cpu") return dbf_backend::cpu;
  if (word == "cpu-parallel") return dbf_backend::cpu_parallel;
  if (word == "cuda") return dbf_backend::cuda;
  if (word == "cuda-sm") return dbf_backend::cuda_sm;
  if (word == "auto") return dbf_backend::automatic;
  throw input_error("unknown backend '" + std::string(word) + "' (expected cpu, cpu-parallel, cuda, cuda-sm or auto)");
}

std::string backend_label(dbf_backend b) {
  const bool device = b == dbf_backend::cuda || b == dbf_backend::cuda_sm;
  return to_string(b) + (device && cuda_emulated() ? "-emulated" : "");
}

std::string to_string(dbf_backend b) {
  switch (b) {
    case dbf_backend::cpu: return "cpu";
    case dbf_backend::cpu_parallel: return "cpu-parallel";
    case dbf_backend::cuda: return "cuda";
    case dbf_backend::cuda_sm: return "cuda-sm";
    case dbf_backend::automatic: return "auto";
  }
  return "?";
}

dbf_options make_dbf_options(dbf_backend backend, long long threads, unsigned block, std::uint64_t max_table_mib) {
  if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
    throw input_error(param("block") + " must be a power of two from 32 to 1024, got " + std::to_string(block));
  dbf_options o;
  o.backend = resolve_dbf_backend(backend);
  o.threads = resolve_threads(threads);
  o.block = block;
  if (max_table_mib < 1 || max_table_mib > (std::uint64_t{1} << 40))
    throw input_error(param("max_table_mib") + " must be from 1 to 2^40");
  o.max_table_bytes = max_table_mib << 20;
  return o;
}

dbf_backend resolve_dbf_backend(dbf_backend requested) {
  if (requested == dbf_backend::automatic)
    return cuda_device_count() > 0 && !cuda_emulated() ? dbf_backend::cuda_sm
                                                       : dbf_backend::cpu_parallel;  // as resolve_backend
  if (requested == dbf_backend::cuda || requested == dbf_backend::cuda_sm) resolve_backend(backend_kind::cuda);
  return requested;
}

namespace {

/// Bytes of a table's cells and running minimum, saturating (rows x columns can pass 2^61).
std::uint64_t table_bytes(const unrolled_graph& g) {
  const u128 bytes = (static_cast<u128>(g.rows) * g.columns() + g.columns()) * sizeof(std::uint32_t);
  return bytes > u64_max ? u64_max : static_cast<std::uint64_t>(bytes);
}

std::string mib(std::uint64_t bytes) { return std::to_string((bytes + (std::uint64_t{1} << 20) - 1) >> 20) + " MiB"; }

/// The limit and where it comes from, for messages.
message limit_text(const dbf_options& options, std::uint64_t budget) {
  return budget < options.max_table_bytes ? message(mib(budget) + " (3/4 of the memory available now)")
                                          : mib(budget) + " (" + param("max_table_mib") + ")";
}

int thread_count(int threads) {
  return threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
}

}  // namespace

std::size_t check_table_size(const unrolled_graph& g, const std::string& task_name, const dbf_options& options) {
  const std::uint64_t bytes = table_bytes(g);
  const std::uint64_t budget = memory_budget_bytes(options.max_table_bytes);
  if (bytes > budget)
    throw input_error("task '" + task_name + "': its table would need " + mib(bytes) + " (" + std::to_string(g.rows) +
                      " rows x " + std::to_string(g.columns()) + " demands), over the limit of " +
                      limit_text(options, budget));
  return static_cast<std::size_t>(bytes);
}

std::uint64_t tables_memory_bytes(const std::vector<const unrolled_graph*>& graphs, const dbf_options& options) {
  // Every table's running minimum is kept until its curve is built; full tables exist one per worker.
  u128 kept = 0;
  std::vector<std::uint64_t> full;
  full.reserve(graphs.size());
  for (const unrolled_graph* g : graphs) {
    kept += static_cast<u128>(g->columns()) * sizeof(std::uint32_t);
    full.push_back(table_bytes(*g));
  }
  std::size_t workers = 1;
  if (options.backend == dbf_backend::cpu_parallel)
    workers = static_cast<std::size_t>(options.pool ? options.pool->size() : thread_count(options.threads));
  workers = std::min(workers, full.size());
  std::partial_sort(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(workers), full.end(),
                    std::greater<std::uint64_t>());
  for (std::size_t k = 0; k < workers; ++k) kept += full[k];
  return kept > u64_max ? u64_max : static_cast<std::uint64_t>(kept);
}

void check_tables_memory(const std::vector<const unrolled_graph*>& graphs, const dbf_options& options,
                         const std::string& what) {
  const std::uint64_t bytes = tables_memory_bytes(graphs, options);
  const std::uint64_t budget = memory_budget_bytes(options.max_table_bytes);
  if (bytes > budget)
    throw input_error(what + ": the tables held at once would need " + mib(bytes) + ", over the limit of " +
                      limit_text(options, budget));
}

namespace {

/// Columns [begin, end) of one row, and their running minimum.
void compute_row_part(const unrolled_graph& g, std::uint32_t row, std::uint32_t* table, std::uint32_t* min_span,
                      std::size_t begin, std::size_t end) {
  const std::size_t stride = g.columns();
  const dbf_pred* preds = g.preds.data() + g.pred_begin[row];
  const std::uint32_t npreds = g.pred_begin[row + 1] - g.pred_begin[row];
  std::uint32_t* out = table + static_cast<std::size_t>(row) * stride;
  for (std::size_t e = begin; e < end; ++e) {
    const std::uint32_t cell =
        dbf_cell(static_cast<std::uint32_t>(e), g.wcet[row], g.deadline[row], preds, npreds, table, stride);
    out[e] = cell;
    min_span[e] = std::min(min_span[e], cell);
  }
}

/// The same cells as compute_row_part, one predecessor row at a time (streams and vectorises):
/// the cell's minimum over predecessors, taken in a different loop order, over chunks of columns
/// small enough that the row being written stays in cache while every predecessor is applied.
void compute_row_part_by_pred(const unrolled_graph& g, std::uint32_t row, std::uint32_t* table, std::uint32_t* min_span,
                              std::size_t begin, std::size_t end) {
  constexpr std::size_t chunk = 4096;
  const std::size_t stride = g.columns();
  const std::uint32_t ev = g.wcet[row], dv = g.deadline[row];
  std::uint32_t* __restrict out = table + static_cast<std::size_t>(row) * stride;
  for (std::size_t lo = begin; lo < end; lo += chunk) {
    const std::size_t hi = std::min(end, lo + chunk);
    std::fill(out + lo, out + hi, dbf_inf);
    if (ev >= lo && ev < hi) out[ev] = dv;
    const std::size_t from = std::max<std::size_t>(lo, ev);
    for (std::uint32_t k = g.pred_begin[row]; k < g.pred_begin[row + 1]; ++k) {
      const std::uint32_t* __restrict src = table + static_cast<std::size_t>(g.preds[k].row) * stride - ev;
      const std::uint32_t add = g.preds[k].gap + dv;
      for (std::size_t e = from; e < hi; ++e) out[e] = std::min(out[e], dbf_extend(src[e], add));
    }
    for (std::size_t e = lo; e < hi; ++e) min_span[e] = std::min(min_span[e], out[e]);
  }
}

/// Uninitialised cells for a table, on transparent huge pages where the kernel offers them: a
/// table is written before it is read, and faulting in tens of megabytes 4 KiB at a time costs
/// more than computing them on some virtual machines (measured: 12 us a page on the dev VM).
class table_buffer {
 public:
  std::uint32_t* reserve(std::size_t cells) {
    if (cells <= capacity_) return data_.get();
    constexpr std::size_t huge = std::size_t{2} << 20;
    // Below glibc's largest mmap threshold, malloc recycles freed tables without new faults.
    constexpr std::size_t small = std::size_t{32} << 20;
    std::size_t bytes = cells * sizeof(std::uint32_t);
    if (bytes < small) {
      data_.reset(static_cast<std::uint32_t*>(std::malloc(bytes)));
    } else {
      bytes = (bytes + huge - 1) / huge * huge;
      data_.reset(static_cast<std::uint32_t*>(std::aligned_alloc(huge, bytes)));
#if defined(__linux__) && defined(MADV_HUGEPAGE)
      if (data_) madvise(data_.get(), bytes, MADV_HUGEPAGE);  // advice only: failure means small pages
#endif
    }
    if (!data_) throw std::bad_alloc();
    capacity_ = bytes / sizeof(std::uint32_t);
    return data_.get();
  }

 private:
  struct release {
    void operator()(std::uint32_t* p) const { std::free(p); }
  };
  std::unique_ptr<std::uint32_t, release> data_;
  std::size_t capacity_ = 0;
};

}  // namespace

dbf_table dbf_table_cpu(const unrolled_graph& g, bool keep_cells) {
  table_buffer buffer;
  std::uint32_t* cells = buffer.reserve(g.cells());
  dbf_table result;
  result.min_span.assign(g.columns(), dbf_inf);
  for (std::uint32_t row = 0; row < g.rows; ++row)
    compute_row_part(g, row, cells, result.min_span.data(), 0, g.columns());
  if (keep_cells) result.cells.assign(cells, cells + g.cells());
  return result;
}

namespace {

/// The all-cores table into `scratch` (grown as needed and reused across tables, so a batch does
/// not allocate and fault in a fresh table each time), on the threads of `pool` (none: this thread).
dbf_table table_parallel_into(const unrolled_graph& g, thread_pool* pool, bool keep_cells, table_buffer& scratch) {
  const std::size_t columns = g.columns();
  // Below a few thousand columns a row is too little work to share. At most one part per pool
  // thread: the parts wait for each other between rows, so all must run at once.
  const int workers = static_cast<int>(std::min<std::size_t>(pool ? static_cast<std::size_t>(pool->size()) : 1,
                                                             std::max<std::size_t>(1, columns / 4096)));
  std::uint32_t* cells = scratch.reserve(g.cells());
  dbf_table result;
  result.min_span.assign(columns, dbf_inf);
  std::barrier sync(workers);
  auto work = [&](std::size_t w) {
    const std::size_t begin = columns * w / static_cast<std::size_t>(workers);
    const std::size_t end = columns * (w + 1) / static_cast<std::size_t>(workers);
    for (std::uint32_t row = 0; row < g.rows; ++row) {
      compute_row_part_by_pred(g, row, cells, result.min_span.data(), begin, end);
      sync.arrive_and_wait();  // the next row reads any column of this one
    }
  };
  if (workers == 1)
    work(0);
  else
    pool->run(static_cast<std::size_t>(workers), work);  // item w on pool thread w: all at once
  if (keep_cells) result.cells.assign(cells, cells + g.cells());
  return result;
}

}  // namespace

dbf_table dbf_table_cpu_parallel(const unrolled_graph& g, int threads, bool keep_cells) {
  table_buffer scratch;
  const int want =
      static_cast<int>(std::min<std::size_t>(thread_count(threads), std::max<std::size_t>(1, g.columns() / 4096)));
  if (want <= 1) return table_parallel_into(g, nullptr, keep_cells, scratch);
  thread_pool pool(want);  // fewer threads if the OS refuses some
  return table_parallel_into(g, &pool, keep_cells, scratch);
}

namespace {

/// Tables depend on the rows and edges of T' only, not on the period: variants of a set that change
/// periods (or keep a task as it is) share them.
bool same_table(const unrolled_graph& a, const unrolled_graph& b) {
  return a.rows == b.rows && a.max_demand == b.max_demand && a.wcet == b.wcet && a.deadline == b.deadline &&
         a.pred_begin == b.pred_begin &&
         std::equal(a.preds.begin(), a.preds.end(), b.preds.begin(), b.preds.end(),
                    [](dbf_pred x, dbf_pred y) { return x.row == y.row && x.gap == y.gap; });
}

std::uint64_t table_key(const unrolled_graph& g) {
  std::uint64_t h = 1469598103934665603ull;  // FNV-1a over the table's inputs
  auto mix = [&h](std::uint64_t v) { h = (h ^ v) * 1099511628211ull; };
  mix(g.rows);
  mix(g.max_demand);
  for (std::uint32_t r = 0; r < g.rows; ++r) mix((std::uint64_t{g.wcet[r]} << 32) | g.deadline[r]);
  for (const dbf_pred& p : g.preds) mix((std::uint64_t{p.row} << 32) | p.gap);
  return h;
}

}  // namespace

std::vector<dbf_table> dbf_tables(const std::vector<const unrolled_graph*>& all, const dbf_options& options) {
  // Compute each distinct table once.
  std::vector<const unrolled_graph*> graphs;
  std::vector<std::size_t> which(all.size());
  std::unordered_multimap<std::uint64_t, std::size_t> seen;
  for (std::size_t k = 0; k < all.size(); ++k) {
    const std::uint64_t key = table_key(*all[k]);
    auto [lo, hi] = seen.equal_range(key);
    auto it = std::find_if(lo, hi, [&](const auto& kv) { return same_table(*graphs[kv.second], *all[k]); });
    if (it != hi) {
      which[k] = it->second;
    } else {
      which[k] = graphs.size();
      seen.emplace(key, graphs.size());
      graphs.push_back(all[k]);
    }
  }
  std::vector<dbf_table> unique = compute_tables(graphs, options);
  if (unique.size() == all.size()) return unique;
  std::vector<dbf_table> out(all.size());
  for (std::size_t k = 0; k < all.size(); ++k) out[k] = unique[which[k]];
  return out;
}

std::vector<dbf_table> compute_tables(const std::vector<const unrolled_graph*>& graphs, const dbf_options& options) {
  const dbf_backend backend = resolve_dbf_backend(options.backend);
  std::vector<dbf_table> out(graphs.size());
  switch (backend) {
    case dbf_backend::cpu:
      for (std::size_t k = 0; k < graphs.size(); ++k) out[k] = dbf_table_cpu(*graphs[k], options.keep_cells);
      break;
    case dbf_backend::cpu_parallel: {
      // The run's pool when the caller keeps one; otherwise one for this call only.
      std::unique_ptr<thread_pool> own;
      thread_pool* pool = options.pool;
      if (!pool) {
        own = std::make_unique<thread_pool>(thread_count(options.threads));
        pool = own.get();
      }
      const std::size_t workers = static_cast<std::size_t>(pool->size());
      if (graphs.size() < workers) {
        table_buffer scratch;
        for (std::size_t k = 0; k < graphs.size(); ++k)
          out[k] = table_parallel_into(*graphs[k], pool, options.keep_cells, scratch);
        break;
      }
      // Many tables: whole tables to threads, largest first for balance.
      std::vector<std::size_t> todo(graphs.size());
      for (std::size_t k = 0; k < todo.size(); ++k) todo[k] = k;
      std::stable_sort(todo.begin(), todo.end(),
                       [&](std::size_t a, std::size_t b) { return graphs[a]->cells() > graphs[b]->cells(); });
      std::atomic<std::size_t> next{0};
      pool->run(workers, [&](std::size_t) {  // one item per pool thread, each taking tables in turn
        table_buffer scratch;
        for (std::size_t i; (i = next.fetch_add(1)) < todo.size();)
          out[todo[i]] = table_parallel_into(*graphs[todo[i]], nullptr, options.keep_cells, scratch);
      });
      break;
    }
    case dbf_backend::cuda:
    case dbf_backend::cuda_sm: {
      const bool sm = backend == dbf_backend::cuda_sm;
      float ms = 0, all_ms = 0;
      // One block per table needs many tables to fill a GPU; a few tables run level kernels each.
      if (graphs.size() < cuda_batch_threshold) {
        for (std::size_t k = 0; k < graphs.size(); ++k) {
          out[k] = cuda_dbf_table(*graphs[k], sm, options.block, options.keep_cells, &ms, options.workspace,
                                  {.graph = true, .steps_only = options.steps_suffice});
          all_ms += ms;
        }
      } else {
        // cuda-sm for a caller that takes steps: the tables never leave the chip.
        out = sm && options.steps_suffice && !options.keep_cells
                  ? cuda_dbf_steps_batch(graphs, options.block, 0, &all_ms, nullptr, options.workspace)
                  : cuda_dbf_tables_batch(graphs, sm, options.block, options.keep_cells, &all_ms, options.workspace);
      }
      if (options.kernel_ns)
        options.kernel_ns->fetch_add(static_cast<std::uint64_t>(static_cast<double>(all_ms) * 1e6));
      break;
    }
    case dbf_backend::automatic: break;  // resolved above
  }
  return out;
}

}  // namespace warpspan
