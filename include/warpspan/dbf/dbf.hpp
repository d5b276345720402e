// The demand-bound function of a recurring real-time task (paper 003 Sec. II-B): the unrolled
// graph T', the table of Algorithm 1 on every backend, and dbf(t) by eq. (1).
#pragma once

#include <cstddef>
#include <atomic>
#include <cstdint>
#include <string>
#include <string_view>
#include <memory>
#include <vector>

#include "warpspan/detail/dbf/dbf_cell.hpp"
#include "warpspan/dbf/task.hpp"

namespace warpspan {

class thread_pool;  // warpspan/core/resources.hpp

/// T' in topological order, flattened for the DP (and for copying to a GPU as it is). Row 0 is the
/// dummy that replaces the first copy's source (e = d = 0, gaps 0 on its out-edges); the first
/// copy's sink has an edge to the second copy's source with separation d(sink).
struct unrolled_graph {
  std::uint32_t rows = 0;
  std::vector<std::uint32_t> wcet;        ///< per row
  std::vector<std::uint32_t> deadline;    ///< per row
  std::vector<std::uint32_t> pred_begin;  ///< rows + 1 offsets into preds (CSR)
  std::vector<dbf_pred> preds;            ///< rows of predecessors always lower than the row
  std::uint32_t max_demand = 0;           ///< D: the largest demand of any path of T'; columns 0..D
  /// The table counts demand in units of this (the gcd of the task's wcets, by which `wcet` and
  /// `max_demand` are divided): every path's demand is a multiple of it, so the other columns
  /// would never hold a path. A one-vertex (sporadic) task needs 2 columns whatever its wcet.
  std::uint32_t demand_unit = 1;
  std::uint64_t E = 0;                ///< E(T)
  std::uint64_t period = 0;           ///< P(T)
  std::vector<std::uint32_t> origin;  ///< per row: the vertex index in the task it copies

  std::size_t columns() const { return static_cast<std::size_t>(max_demand) + 1; }
  std::size_t cells() const { return static_cast<std::size_t>(rows) * columns(); }
  std::size_t max_preds() const;  ///< most predecessors of any row
};

/// Builds T' for a validated task.
unrolled_graph unroll(const task& t);

/// The result of Algorithm 1 for one task: the shortest span for each exact demand over all rows
/// (the running minimum t_{n,e}), and optionally the whole table.
struct dbf_table {
  std::vector<std::uint32_t> min_span;  ///< columns() entries; dbf_inf where no path has that demand
  std::vector<std::uint32_t> cells;     ///< rows x columns, row-major; empty unless asked for
  /// The steps of dbf_small, when the backend built them on the device instead of returning
  /// min_span (the on-chip kernel; min_span is then empty): spans increasing, and the demand of
  /// each in columns (units of the graph's demand_unit), increasing.
  std::vector<std::uint32_t> step_spans, step_columns;
  bool steps_only = false;  ///< the steps are set, min_span is not
  bool has_steps() const { return steps_only; }
};

/// The step function dbf_small(t) and dbf(t) of eq. (1) from a table's min_span.
class dbf_curve {
 public:
  dbf_curve() = default;
  /// From a table's running minimum: min_span[k] is the shortest span of demand k x `demand_unit`.
  dbf_curve(const std::vector<std::uint32_t>& min_span, std::uint64_t E, std::uint64_t period,
            std::uint32_t demand_unit = 1);
  /// The curve of the task `g` was unrolled from, from its table.
  dbf_curve(const std::vector<std::uint32_t>& min_span, const unrolled_graph& g)
      : dbf_curve(min_span, g.E, g.period, g.demand_unit) {}
  /// The same from a table as a backend returned it: its min_span, or the steps it built.
  dbf_curve(const dbf_table& table, const unrolled_graph& g);

  /// dbf_small(t): the largest demand of a path of T' whose span is at most t (0 if none).
  std::uint64_t small(std::uint64_t t) const;
  /// dbf(t) by eq. (1), saturating at 2^64 - 1 (q E can pass 64 bits when E > P and t is near
  /// 2^64); the EDF test never checks a t that large, so saturation cannot change a verdict.
  std::uint64_t at(std::uint64_t t) const;
  /// dbf(t) exactly, or an input_error saying it does not fit 64 bits (`--at` with a huge t).
  std::uint64_t at_checked(std::uint64_t t) const;
  /// The largest t' <= t at which dbf can step (t' mod P is 0 or a step of dbf_small below 2P,
  /// taken mod P): between such points dbf is constant.
  std::uint64_t prev_point(std::uint64_t t) const;
  /// The step points' residues mod P, sorted, starting with 0.
  const std::vector<std::uint64_t>& residues() const { return residues_; }

  std::uint64_t E() const { return E_; }
  std::uint64_t period() const { return period_; }
  /// The steps of dbf_small: spans (increasing) and the demand reached at each (increasing).
  const std::vector<std::uint32_t>& step_spans() const { return spans_; }
  const std::vector<std::uint32_t>& step_demands() const { return demands_; }

 private:
  void set_residues();  ///< residues_ from spans_ and period_
  std::vector<std::uint32_t> spans_;
  std::vector<std::uint32_t> demands_;
  std::vector<std::uint64_t> residues_;
  std::uint64_t E_ = 0;
  std::uint64_t period_ = 1;
};

enum class dbf_backend { cpu, cpu_parallel, cuda, cuda_sm, automatic };

/// Parses cpu | cpu-parallel | cuda | cuda-sm | auto; anything else is an input_error.
dbf_backend parse_dbf_backend(std::string_view word);
std::string to_string(dbf_backend b);
/// The name results carry: to_string, with "-emulated" on the CUDA backends in the emulation build.
std::string backend_label(dbf_backend b);
/// auto -> cuda-sm when a real CUDA device is present (not the emulation build's), else cpu-parallel; a CUDA choice without a device
/// is an input_error that says why.
dbf_backend resolve_dbf_backend(dbf_backend requested);

class dbf_workspace;

/// The defaults of `dbf`'s --block and --max-table-mib (and of Python's block= and max_table_mib=).
inline constexpr unsigned default_dbf_block = 256;
inline constexpr std::uint64_t default_max_table_mib = 8192;

struct dbf_options {
  dbf_backend backend = dbf_backend::automatic;
  int threads = 0;                     ///< CPU threads for cpu-parallel; 0 = all cores
  thread_pool* pool = nullptr;         ///< threads kept for the run (cpu-parallel); null: one per call
  unsigned block = default_dbf_block;  ///< CUDA threads per block (a power of two, 32..1024)
  std::uint64_t max_table_bytes = default_max_table_mib << 20;  ///< refuse larger tables (per task, --max-table-mib);
                                                                ///< also never over memory_budget_bytes()
  bool keep_cells = false;                                      ///< return the whole table (tests)
  /// The caller takes a table's steps in place of its min_span (dbf_table::has_steps): the CUDA
  /// batch of cuda-sm then builds the steps on the chip and copies back only them.
  bool steps_suffice = false;
  /// Where set, the CUDA backends add the time of their kernels (CUDA events, nanoseconds) to it:
  /// the device's share of a run's wall time (dbf_session keeps one for its run).
  std::atomic<std::uint64_t>* kernel_ns = nullptr;
  /// Where set, the CUDA batches keep their device and pinned host memory and their stream in it
  /// across calls (dbf_session keeps one for its run); null: each call makes its own.
  dbf_workspace* workspace = nullptr;
};

/// What the CUDA batch calls of one run share (issue 43): a stream, one block of device memory and
/// one of page-locked host memory, each grown to the largest call and kept until the workspace
/// goes. A batch or sweep then allocates when its calls outgrow what it holds, not at every call,
/// and a call's inputs go to the device in one copy from pinned memory, its results come back the
/// same way. One call uses it at a time (others wait). Nothing is allocated before the first call;
/// in a build without CUDA it holds nothing.
class dbf_workspace {
 public:
  /// `shares`: the workspaces in use at once (a stream's two chunks in flight, each with its own):
  /// each plans its calls within that share of the device's free memory.
  explicit dbf_workspace(unsigned shares = 1);
  ~dbf_workspace();
  dbf_workspace(const dbf_workspace&) = delete;
  dbf_workspace& operator=(const dbf_workspace&) = delete;
  /// Times its device block was allocated (grown), and its bytes now.
  std::uint64_t device_allocations() const;
  std::size_t device_bytes() const;
  /// What its calls did so far: the host's own share of its on-chip batches (cuda_dbf_steps_batch:
  /// planning the windows, packing the inputs, unpacking the steps, timed on the host's clock), the
  /// bytes every call copied up and down, and the on-chip batches' launches.
  struct totals {
    double host_seconds = 0;
    std::uint64_t bytes_up = 0, bytes_down = 0, launches = 0;
  };
  totals done() const;

  struct state;  ///< defined by the CUDA backend (cuda/dbf/dbf_kernels.cu)
  state& get() const { return *state_; }

 private:
  std::unique_ptr<state> state_;
};

/// The options of `dbf` as given (--backend as parse_dbf_backend() reads it, --threads, --block,
/// --max-table-mib), checked and resolved (input_error naming the option); a cpu-parallel caller
/// may add a thread_pool it keeps.
dbf_options make_dbf_options(dbf_backend backend, long long threads, unsigned block, std::uint64_t max_table_mib);

/// Bytes the table of `g` needs (cells and the running minimum); input_error (naming the task and
/// the bytes needed) when over memory_budget_bytes(options.max_table_bytes), checked before
/// anything is allocated.
std::size_t check_table_size(const unrolled_graph& g, const std::string& task_name, const dbf_options& options);
/// Bytes held at once while dbf_tables() computes `graphs` with `options` (every table's running
/// minimum, plus the full tables being computed at the same time: one per worker thread).
std::uint64_t tables_memory_bytes(const std::vector<const unrolled_graph*>& graphs, const dbf_options& options);
/// input_error (saying how much would be needed) when tables_memory_bytes() is over the budget.
void check_tables_memory(const std::vector<const unrolled_graph*>& graphs, const dbf_options& options,
                         const std::string& what);

/// Algorithm 1 on the CPU: the reference, one thread, row after row, column after column.
dbf_table dbf_table_cpu(const unrolled_graph& g, bool keep_cells = false);
/// Algorithm 1 on all cores: each row's columns split among threads (rows stay in order).
dbf_table dbf_table_cpu_parallel(const unrolled_graph& g, int threads = 0, bool keep_cells = false);

/// With fewer tables than this, the CUDA backends run each table by level kernels; with more, one
/// batch kernel (one thread block per table) computes them all.
inline constexpr std::size_t cuda_batch_threshold = 64;

/// Algorithm 1 on many tables at once with the chosen backend (resolved); for CUDA, from
/// cuda_batch_threshold tables on, all are computed by one kernel, one thread block per table, in
/// as few launches as device memory allows.
/// Tables with identical inputs (for example task variants that differ only in period) are
/// computed once and copied.
std::vector<dbf_table> dbf_tables(const std::vector<const unrolled_graph*>& graphs, const dbf_options& options);
/// The same without looking for identical tables: every graph is computed (benchmarks).
std::vector<dbf_table> compute_tables(const std::vector<const unrolled_graph*>& graphs, const dbf_options& options);

// ---- CUDA entry points (cuda/dbf/dbf_kernels.cu; stubs throw not_compiled without CUDA).

/// How cuda_dbf_table launches its kernels and what it brings back.
struct cuda_table_launch {
  /// The kernels captured once as a CUDA graph and launched with one call, so that the device runs
  /// level after level without the host between them; false: launched one by one on the stream.
  bool graph = true;
  /// The steps of dbf_small built on the device (dbf_table::has_steps) and only they brought back,
  /// instead of the running minimum of every column; ignored with keep_cells.
  bool steps_only = false;
};

/// One table, one kernel launch per level of T' (its rows depend on none of each other) over the
/// level's cells, each level folding its cells into the running minimum (and with
/// `how.steps_only` the steps built after the last): `shared_prefetch` stages the level's
/// predecessor tuples in shared memory first (GPU-SM), otherwise each thread reads them from global
/// memory. Without `keep_cells` the device holds a row's cells only while a later level reads them
/// (40 rows of the 100 of a 50-vertex task; detail/dbf/level_plan.hpp). Returns the table;
/// `kernel_ms` (if given) receives the time of the kernels (of the graph's launch, not of its
/// capture).
dbf_table cuda_dbf_table(const unrolled_graph& g, bool shared_prefetch, unsigned block, bool keep_cells,
                         float* kernel_ms = nullptr, dbf_workspace* workspace = nullptr, cuda_table_launch how = {});
/// Many tables, one thread block per table looping over its rows (with `shared_prefetch`, each
/// row's predecessor tuples staged in shared memory first), in as few launches as free device
/// memory allows. `kernel_ms` receives the summed kernel time.
/// `workspace`: memory kept across calls (dbf_workspace); null, the call's own.
std::vector<dbf_table> cuda_dbf_tables_batch(const std::vector<const unrolled_graph*>& graphs, bool shared_prefetch,
                                             unsigned block, bool keep_cells, float* kernel_ms = nullptr,
                                             dbf_workspace* workspace = nullptr);

/// Many tables, none of which leaves the chip (issue 43; 003's GPU-SM for a GPU whose L1 already
/// serves the tuples): one thread block per table holds a window of its rows in shared memory
/// (every row, the columns of a tile of `tile` plus the largest wcet before it), computes the tile
/// level by level of T' (rows of one level at once), keeps the running minimum of each column, and
/// at the end builds the steps of dbf_small on the device (suffix minima and a compaction): only
/// the steps (about 60 a table) come back, in one launch per batch. A table whose window does not
/// fit the device's shared memory even at the narrowest tile (32 columns) is computed by the
/// staged batch kernel in global memory instead, its steps then built on the device from its
/// running minimum alike (`fell_back` counts them): every table comes back as its steps.
/// `tile` 0 is the batch's own plan: each pass takes every column its window holds beyond the
/// largest wcet, and the kernel runs from `block` up to 1024 threads a block, as many as keep the
/// most threads resident on an SM beside the windows (1024 where one window fills an SM's shared
/// memory); an explicit `tile` runs exactly `block` threads (the tests' and the model's fixed
/// configurations).
std::vector<dbf_table> cuda_dbf_steps_batch(const std::vector<const unrolled_graph*>& graphs, unsigned block,
                                            unsigned tile = 0, float* kernel_ms = nullptr,
                                            std::size_t* fell_back = nullptr, dbf_workspace* workspace = nullptr);
/// Shared-memory bytes the on-chip kernel needs for `g` at `tile` columns a tile.
std::size_t onchip_window_bytes(const unrolled_graph& g, unsigned tile);

}  // namespace warpspan
