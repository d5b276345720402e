// CUDA backends of Algorithm 1 (paper 003 Sec. IV). The cell is the shared host/device dbf_cell.
//  * Level kernels (one table): one launch per level of T' (rows that depend on none of each
//    other), a thread a column of the level's rows (or of a group of them), the running minimum
//    folded in as it goes and only the rows a later level reads kept (level_plan.hpp). GPU: every
//    thread reads the tuples from global memory. GPU-SM: the block first stages its group's tuples
//    (the level's, when it is one group) in shared memory (003 Fig. 4).
//  * Batch kernel (many tables): one thread block per table loops over that table's rows,
//    synchronising between rows, so one launch keeps the whole GPU busy across task sets.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/graph.cuh"
#include "common/stream.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/detail/dbf/level_plan.hpp"
#include "warpspan/detail/dbf/onchip_pack.hpp"

namespace warpspan {
// The on-chip batch's host share (onchip_pack.hpp): its planning, packing and unpacking.
using namespace detail;
namespace {

void check_block(unsigned block) {
  if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
    throw input_error(param("block") + " must be a power of two from 32 to 1024, not " + std::to_string(block));
}

std::size_t table_bytes(const unrolled_graph& g) { return (g.cells() + g.columns()) * sizeof(std::uint32_t); }

/// Every device buffer of one table: its cells and min_span, and its inputs (the vertices' wcet and
/// deadline, the predecessor lists and the tuples), so that what does not fit is refused up front
/// with a clear message rather than failing as a CUDA error at one of them.
std::size_t device_bytes(const unrolled_graph& g) {
  return table_bytes(g) + (g.wcet.size() + g.deadline.size() + g.pred_begin.size()) * sizeof(std::uint32_t) +
         g.preds.size() * sizeof(dbf_pred);
}

/// Tuples a block stages for a row of `npreds` predecessors: whole groups of four and one group
/// more, the padding zeroed. nvcc unrolls dbf_cell's tuple loop by four with 16-byte shared loads,
/// and on an H200 compute-sanitizer's memcheck saw such a load reach past the last staged tuple of
/// a row (bench/results/archive/gpu/gpu_h200_2026-11-26.md); with the padding, every load stays inside what the block
/// was given and reads defined values. The host sizes the allocation with the same function.
WARPSPAN_HD_INLINE std::uint32_t staged_tuples(std::uint32_t npreds) { return (npreds + 3) / 4 * 4 + 4; }

/// Stages a row's `npreds` tuples and their zeroed padding; the caller synchronises.
__device__ void stage_tuples(dbf_pred* staged, const dbf_pred* p, std::uint32_t npreds) {
  const std::uint32_t padded = staged_tuples(npreds);
  for (std::uint32_t k = threadIdx.x; k < padded; k += blockDim.x) staged[k] = k < npreds ? p[k] : dbf_pred{0, 0};
}

std::size_t staged_bytes(std::size_t max_preds) {
  return staged_tuples(static_cast<std::uint32_t>(max_preds)) * sizeof(dbf_pred);
}

/// The first of group `group`'s rows when a level's `count` rows from `first` on are split into
/// `groups` groups (the kernel and the host's shared-memory size agree on it).
WARPSPAN_HD inline std::uint32_t level_group_begin(std::uint32_t first, std::uint32_t count, std::uint32_t group,
                                                   std::uint32_t groups) {
  return first + static_cast<std::uint32_t>(std::uint64_t{count} * group / groups);
}

/// The groups [begin, end) whose (group, column) pairs the block of `threads` threads from pair
/// `block_first` on takes (dbf_level_kernel); with one group, that group. The kernel stages these
/// groups' tuples, and the host sizes the shared memory by the most any block stages.
struct group_range {
  std::uint32_t begin, end;
};
WARPSPAN_HD inline group_range block_groups(std::uint32_t block_first, std::uint32_t threads, std::uint32_t columns,
                                            std::uint32_t groups) {
  if (groups == 1) return {0, 1};
  const std::uint32_t end = (block_first + threads - 1) / columns + 1;
  return {block_first / columns, end < groups ? end : groups};
}

/// How a level's kernel folds its cells into the running minimum: the first level stores it, a
/// level of one row group takes the least with it, and several groups (which share its columns)
/// take it with atomicMin.
enum class level_fold : std::uint32_t { store, least, atomic };

/// One level of T' (its rows depend on none of each other) in one launch (cuda_dbf_table). The
/// level's rows (positions first .. first + count - 1 of the level plan) are split into `groups`
/// groups (level_group_begin); a thread computes one column of one group's rows, keeps each cell a
/// later level reads in its row's slot of `table` (dbf_cell reads the predecessors' slots: the
/// plan's tuples name slots, not rows), and folds the cells into the running minimum `mins` as
/// `fold` says. So the table holds only the rows a later level still reads, and no pass over it
/// takes the minimum afterwards (issue 43).
///  * One group: thread e (grid-stride) takes column e of every row of the level.
///  * Several groups (a level of few columns): the (group, column) pairs, group by group, a thread
///    each, the grid covering them all once; a block of 256 threads over a level of 20 columns
///    takes 13 groups, not one group and 236 idle threads.
/// GPU-SM stages the tuples of the groups the block takes first (003 Fig. 4): with one group, the
/// level's. (Staging the whole level in every block made a level of 7,000 one-tuple rows cost each
/// block 7,000 copies for the few rows it reads.)
template <bool Prefetch>
__global__ void __launch_bounds__(1024)
    dbf_level_kernel(const std::uint32_t* __restrict__ wcet, const std::uint32_t* __restrict__ deadline,
                     const std::uint32_t* __restrict__ slot, const std::uint32_t* __restrict__ begin,
                     const dbf_pred* __restrict__ preds, std::uint32_t first, std::uint32_t count, std::uint32_t groups,
                     std::uint32_t columns, std::uint32_t* table, std::uint32_t* mins, level_fold fold) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  WARPSPAN_DYNAMIC_SHARED(dbf_pred, staged);
  const std::uint32_t block_first = blockIdx.x * blockDim.x;
  const group_range mine = block_groups(block_first, blockDim.x, columns, groups);
  const std::uint32_t base = begin[level_group_begin(first, count, mine.begin, groups)];
  const dbf_pred* p = preds + base;
  if constexpr (Prefetch) {
    stage_tuples(staged, p, begin[level_group_begin(first, count, mine.end, groups)] - base);
    __syncthreads();
    p = staged;
  }
  const auto column = [&](std::uint32_t e, std::uint32_t from, std::uint32_t to) {
    std::uint32_t least = dbf_inf;
    for (std::uint32_t j = from; j < to; ++j) {
      const std::uint32_t b = begin[j];
      const std::uint32_t cell = dbf_cell(e, wcet[j], deadline[j], p + (b - base), begin[j + 1] - b, table, columns);
      const std::uint32_t s = slot[j];
      if (s != no_slot) table[static_cast<std::size_t>(s) * columns + e] = cell;
      least = min(least, cell);
    }
    if (fold == level_fold::store)
      mins[e] = least;
    else if (fold == level_fold::least)
      mins[e] = min(mins[e], least);
    else if (least != dbf_inf)
      atomicMin(mins + e, least);
  };
  if (groups == 1) {
    for (std::uint32_t e = block_first + threadIdx.x; e < columns; e += gridDim.x * blockDim.x)
      column(e, first, first + count);
    return;
  }
  const std::uint32_t pair = block_first + threadIdx.x;  // < groups * columns: fewer than 2^32 (the host)
  const std::uint32_t g = pair / columns;
  if (g < groups)
    column(pair - g * columns, level_group_begin(first, count, g, groups),
           level_group_begin(first, count, g + 1, groups));
}

/// Where one table of a batch lives in the concatenated arrays.
struct batch_item {
  std::size_t table;     ///< offset of its cells in the tables buffer
  std::size_t min_span;  ///< offset of its min_span in the mins buffer
  std::uint32_t rows;
  std::uint32_t columns;
  std::uint32_t row_base;    ///< offset of its rows in wcet / deadline
  std::uint32_t begin_base;  ///< offset of its rows + 1 pred_begin entries
  std::uint32_t pred_base;   ///< offset of its preds
};

template <bool Prefetch>
__global__ void __launch_bounds__(1024)
    dbf_batch_kernel(const batch_item* __restrict__ items, const std::uint32_t* __restrict__ wcet,
                     const std::uint32_t* __restrict__ deadline, const std::uint32_t* __restrict__ pred_begin,
                     const dbf_pred* __restrict__ preds, std::uint32_t* tables, std::uint32_t* mins) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  WARPSPAN_DYNAMIC_SHARED(dbf_pred, staged);
  const batch_item it = items[blockIdx.x];
  std::uint32_t* table = tables + it.table;
  std::uint32_t* min_span = mins + it.min_span;
  for (std::uint32_t e = threadIdx.x; e < it.columns; e += blockDim.x) min_span[e] = dbf_inf;
  for (std::uint32_t row = 0; row < it.rows; ++row) {
    const std::uint32_t begin = pred_begin[it.begin_base + row];
    const std::uint32_t npreds = pred_begin[it.begin_base + row + 1] - begin;
    const dbf_pred* p = preds + it.pred_base + begin;
    __syncthreads();  // the previous row is written (and the staged tuples are no longer read)
    if constexpr (Prefetch) {
      stage_tuples(staged, p, npreds);
      __syncthreads();
      p = staged;
    }
    const std::uint32_t ev = wcet[it.row_base + row];
    const std::uint32_t dv = deadline[it.row_base + row];
    std::uint32_t* out = table + static_cast<std::size_t>(row) * it.columns;
    for (std::uint32_t e = threadIdx.x; e < it.columns; e += blockDim.x) {
      const std::uint32_t cell = dbf_cell(e, ev, dv, p, npreds, table, it.columns);
      out[e] = cell;
      min_span[e] = min(min_span[e], cell);
    }
  }
}

// ---- The on-chip batch (cuda_dbf_steps_batch): one block per table, the table in shared memory.

/// dbf_cell's table as the window sees it: cell (row, e) of the table lives at row * window +
/// (e mod window) of shared memory; dbf_cell indexes row << stride_log | e.
struct window_view {
  const std::uint32_t* cells;
  std::uint32_t window_log, stride_log;
  __device__ std::uint32_t operator[](std::size_t idx) const {
    const std::size_t row = idx >> stride_log;
    return cells[(row << window_log) + (idx & ((std::size_t{1} << window_log) - 1))];
  }
};

/// Inclusive scan of `v` over the block's threads in thread order (Hillis-Steele in `sh`, one
/// word a thread), with `op` (min or +). Every thread of the block calls it.
template <class Op>
__device__ std::uint32_t block_inclusive_scan(std::uint32_t* sh, std::uint32_t v, std::uint32_t identity, Op op) {
  const unsigned i = threadIdx.x;
  sh[i] = v;
  __syncthreads();
  for (unsigned d = 1; d < blockDim.x; d <<= 1) {
    const std::uint32_t other = i >= d ? sh[i - d] : identity;
    __syncthreads();
    v = op(v, other);
    sh[i] = v;
    __syncthreads();
  }
  return v;
}

struct min_op {
  __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a < b ? a : b; }
};
struct plus_op {
  __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a + b; }
};

/// What chunk_steps found in its columns: how many steps, and the least running minimum.
struct chunk_found {
  std::uint32_t steps, least;
};

/// The steps of dbf_small among columns [lo, hi) of a table's running minimum `min_span` (at most
/// the block's threads of them; thread 0 the rightmost column), given `carry`, the least minimum
/// right of `hi`: a demand is a step when reached strictly sooner than every larger one (the suffix
/// minimum, as dbf_curve's constructor). They go to `mine` as (span, column) pairs from the right.
/// `sh`: 2 x blockDim words of shared memory that no thread reads until the first of its scans'
/// barriers. Every thread of the block calls it.
__device__ chunk_found chunk_steps(const std::uint32_t* min_span, std::uint32_t lo, std::uint32_t hi,
                                   std::uint32_t carry, std::uint32_t* sh, std::uint32_t* mine) {
  const bool valid = threadIdx.x < hi - lo;
  const std::uint32_t e = hi - 1 - threadIdx.x;
  const std::uint32_t v = valid ? min_span[e] : dbf_inf;
  block_inclusive_scan(sh, v, dbf_inf, min_op{});
  const std::uint32_t before = threadIdx.x == 0 ? dbf_inf : sh[threadIdx.x - 1];  // min right of e in the chunk
  const std::uint32_t least = sh[blockDim.x - 1];
  // No barrier here or at the end: the next writes of sh[0, B) come after the barriers of the
  // second scan (sh[B, 2B)), and those of sh[B, 2B) after the next chunk's first scan's.
  const bool step = valid && v < min(carry, before);
  const std::uint32_t rank = block_inclusive_scan(sh + blockDim.x, step ? 1u : 0u, 0u, plus_op{});
  const std::uint32_t total = sh[2 * blockDim.x - 1];
  if (step) {
    mine[2 * (rank - 1)] = v;
    mine[2 * (rank - 1) + 1] = e;
  }
  return {total, least};
}

/// The steps of dbf_small from a table's running minimum `min_span` (`columns` of it), from the right
/// in chunks of the block's threads (chunk_steps). They are compacted into `mine` (2 x columns words
/// of scratch), then appended to `out` at a place taken with one atomic (`where` gets it and the
/// count, at 2 x blockIdx.x). `sh`: 2 x blockDim words of shared memory no thread still reads.
/// Every thread of the block calls it.
__device__ void steps_from_minima(const std::uint32_t* min_span, std::uint32_t columns, std::uint32_t* mine,
                                  std::uint32_t* sh, std::uint32_t* out, std::uint32_t* out_count,
                                  std::uint32_t* where) {
  std::uint32_t carry = dbf_inf, found = 0;
  for (std::uint32_t hi = columns; hi > 1;) {
    const std::uint32_t lo = hi > blockDim.x + 1 ? hi - blockDim.x : 1;
    const chunk_found c = chunk_steps(min_span, lo, hi, carry, sh, mine + 2 * static_cast<std::size_t>(found));
    found += c.steps;
    carry = min(carry, c.least);
    hi = lo;
  }
  if (threadIdx.x == 0) {
    const std::uint32_t at = atomicAdd(out_count, found);
    where[2 * blockIdx.x] = at;
    where[2 * blockIdx.x + 1] = found;
    sh[0] = at;
  }
  __syncthreads();
  const std::uint32_t at = sh[0];
  for (std::uint32_t k = threadIdx.x; k < 2 * found; k += blockDim.x)
    out[2 * static_cast<std::size_t>(at) + k] = mine[k];
}

/// One table's steps across the device (cuda_dbf_table), in three kernels of one block a tile of
/// blockDim columns, where one block alone would walk every column: (1) each tile's least running
/// minimum (dbf_tile_min_kernel; the level kernels folded each column's); (2) each tile's steps
/// given the least of the tiles right of it, into the tile's place in `scratch`
/// (dbf_tile_steps_kernel); (3) each tile's steps to their place in `out`, after those of the tiles
/// right of it (dbf_steps_gather_kernel).
/// Dynamic shared memory: one word a thread for (1), two for (2) and (3).
__global__ void __launch_bounds__(1024)
    dbf_tile_min_kernel(const std::uint32_t* __restrict__ mins, std::uint32_t columns, std::uint32_t* tile_min) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  WARPSPAN_DYNAMIC_SHARED(std::uint32_t, sh);
  const std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x;
  block_inclusive_scan(sh, e < columns ? mins[e] : dbf_inf, dbf_inf, min_op{});
  if (threadIdx.x == 0) tile_min[blockIdx.x] = sh[blockDim.x - 1];
}

/// `values[from, count)` folded by `op` over the block (every thread gets it), scanned in `sh`
/// (blockDim words).
template <class Op>
__device__ std::uint32_t block_fold(const std::uint32_t* values, std::uint32_t from, std::uint32_t count,
                                    std::uint32_t identity, Op op, std::uint32_t* sh) {
  std::uint32_t v = identity;
  for (std::uint32_t k = from + threadIdx.x; k < count; k += blockDim.x) v = op(v, values[k]);
  block_inclusive_scan(sh, v, identity, op);
  return sh[blockDim.x - 1];
}

__global__ void __launch_bounds__(1024)
    dbf_tile_steps_kernel(const std::uint32_t* __restrict__ min_span, std::uint32_t columns,
                          const std::uint32_t* __restrict__ tile_min, std::uint32_t* scratch,
                          std::uint32_t* tile_steps) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  WARPSPAN_DYNAMIC_SHARED(std::uint32_t, sh);
  const std::uint32_t t = blockIdx.x, width = blockDim.x;
  // The carry in the upper half: chunk_steps's first scan writes the lower half.
  const std::uint32_t carry = block_fold(tile_min, t + 1, gridDim.x, dbf_inf, min_op{}, sh + width);
  const std::uint32_t hi = min((t + 1) * width, columns), lo = t == 0 ? 1 : t * width;  // column 0 is no step
  const chunk_found c =
      chunk_steps(min_span, min(lo, hi), hi, carry, sh, scratch + 2 * static_cast<std::size_t>(t) * width);
  if (threadIdx.x == 0) tile_steps[t] = c.steps;
}

/// (3): `count_where` gets the total, then 0 and the total: steps_places's layout for one table.
__global__ void __launch_bounds__(1024)
    dbf_steps_gather_kernel(const std::uint32_t* __restrict__ scratch, const std::uint32_t* __restrict__ tile_steps,
                            std::uint32_t* out, std::uint32_t* count_where) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  WARPSPAN_DYNAMIC_SHARED(std::uint32_t, sh);
  const std::uint32_t t = blockIdx.x;
  const std::uint32_t at = block_fold(tile_steps, t + 1, gridDim.x, 0u, plus_op{}, sh);
  const std::uint32_t n = tile_steps[t];
  const std::uint32_t* mine = scratch + 2 * static_cast<std::size_t>(t) * blockDim.x;
  for (std::uint32_t k = threadIdx.x; k < 2 * n; k += blockDim.x) out[2 * static_cast<std::size_t>(at) + k] = mine[k];
  if (t == 0 && threadIdx.x == 0) {
    count_where[0] = at + n;
    count_where[1] = 0;
    count_where[2] = at + n;
  }
}

/// The table of block `blockIdx.x`'s item, tile by tile: for each tile of columns, the rows level
/// by level of T' (rows of one level are independent: one pass), each cell by dbf_cell reading
/// its predecessors' cells from the window; then the tile's running minimum to `mins`. Then the
/// table's steps (steps_from_minima).
__global__ void __launch_bounds__(1024)
    dbf_onchip_kernel(const onchip_item* __restrict__ items, const std::uint32_t* __restrict__ wcet,
                      const std::uint32_t* __restrict__ deadline, const std::uint32_t* __restrict__ pred_begin,
                      const dbf_pred* __restrict__ preds, const std::uint32_t* __restrict__ level_begin,
                      const std::uint32_t* __restrict__ level_rows, std::uint32_t* mins, std::uint32_t* steps,
                      std::uint32_t* out, std::uint32_t* out_count, std::uint32_t* where) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  WARPSPAN_DYNAMIC_SHARED(std::uint32_t, window);
  const onchip_item it = items[blockIdx.x];
  // The table's inputs, staged once after the window (003's GPU-SM, for the whole table): no cell
  // reads global memory.
  std::uint32_t* s_wcet = window + it.window_words;
  std::uint32_t* s_deadline = s_wcet + it.rows;
  std::uint32_t* s_begin = s_deadline + it.rows;
  std::uint32_t* s_level_rows = s_begin + it.rows + 1;
  std::uint32_t* s_level_begin = s_level_rows + it.rows;
  const std::size_t words = 4 * std::size_t{it.rows} + 1 + it.levels + 1;
  dbf_pred* s_preds = reinterpret_cast<dbf_pred*>(s_wcet + (words + 1) / 2 * 2);
  for (std::uint32_t r = threadIdx.x; r < it.rows; r += blockDim.x) {
    s_wcet[r] = wcet[it.row_base + r];
    s_deadline[r] = deadline[it.row_base + r];
    s_level_rows[r] = level_rows[it.row_base + r];
  }
  for (std::uint32_t r = threadIdx.x; r <= it.rows; r += blockDim.x) s_begin[r] = pred_begin[it.begin_base + r];
  for (std::uint32_t l = threadIdx.x; l <= it.levels; l += blockDim.x)
    s_level_begin[l] = level_begin[it.level_base + l];
  for (std::uint32_t k = threadIdx.x; k < it.npreds; k += blockDim.x) s_preds[k] = preds[it.pred_base + k];
  __syncthreads();
  const std::uint32_t wmask = (1u << it.window_log) - 1;
  const window_view view{window, it.window_log, it.stride_log};
  const std::size_t stride = std::size_t{1} << it.stride_log;
  std::uint32_t* min_span = mins + it.mins;
  for (std::uint32_t c0 = 0; c0 < it.columns; c0 += it.tile) {
    const std::uint32_t width = min(it.tile, it.columns - c0);
    // Cell k of a level is (its row k / width, column c0 + k mod width); a thread's k steps by the
    // block's threads, so its row and column step by the quotient and remainder of that, with one
    // carry: no division a cell.
    const std::uint32_t row_step = blockDim.x / width, column_step = blockDim.x % width;
    const std::uint32_t row_start = threadIdx.x / width, column_start = threadIdx.x % width;
    for (std::uint32_t lv = 0; lv < it.levels; ++lv) {
      const std::uint32_t first = s_level_begin[lv];
      const std::uint32_t count = (s_level_begin[lv + 1] - first) * width;
      std::uint32_t r = row_start, j = column_start;  // k = r x width + j, j < width
      for (std::uint32_t k = threadIdx.x; k < count; k += blockDim.x) {
        const std::uint32_t row = s_level_rows[first + r];
        const std::uint32_t e = c0 + j;
        const std::uint32_t begin = s_begin[row];
        const std::uint32_t cell =
            dbf_cell(e, s_wcet[row], s_deadline[row], s_preds + begin, s_begin[row + 1] - begin, view, stride);
        window[(static_cast<std::size_t>(row) << it.window_log) + (e & wmask)] = cell;
        r += row_step;
        j += column_step;
        if (j >= width) {
          j -= width;
          ++r;
        }
      }
      __syncthreads();  // the level is written before the next reads it
    }
    for (std::uint32_t j = threadIdx.x; j < width; j += blockDim.x) {
      const std::uint32_t e = c0 + j;
      std::uint32_t m = dbf_inf;
      for (std::uint32_t row = 0; row < it.rows; ++row)
        m = min(m, window[(static_cast<std::size_t>(row) << it.window_log) + (e & wmask)]);
      min_span[e] = m;
    }
    __syncthreads();  // the tile is read before the next overwrites the window
  }
  // The steps, from the right; the window is done: its first 2 x blockDim words are the scans' room.
  steps_from_minima(min_span, it.columns, steps + 2 * it.steps, window, out, out_count, where);
}

/// The steps of the staged batch's tables (the on-chip window's fallback): block k builds table k's
/// from its running minimum in global memory, as dbf_onchip_kernel does after its table. Dynamic
/// shared memory: 2 x the block's threads words.
__global__ void __launch_bounds__(1024)
    dbf_steps_kernel(const batch_item* __restrict__ items, const std::uint32_t* mins, std::uint32_t* steps,
                     std::uint32_t* out, std::uint32_t* out_count, std::uint32_t* where) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  WARPSPAN_DYNAMIC_SHARED(std::uint32_t, sh);
  const batch_item it = items[blockIdx.x];
  steps_from_minima(mins + it.min_span, it.columns, steps + 2 * it.min_span, sh, out, out_count, where);
}

}  // namespace

namespace {

/// Arrays laid out one after another in one block of memory, each on a 256-byte boundary: a call's
/// inputs first (one copy to the device), then what its kernels write.
struct block_layout {
  std::size_t bytes = 0;
  template <class T>
  std::size_t add(std::size_t count) {
    bytes = (bytes + 255) / 256 * 256;
    const std::size_t at = bytes;
    bytes += count * sizeof(T);
    return at;
  }
};

template <class T>
T* at(unsigned char* base, std::size_t offset) {
  return reinterpret_cast<T*>(base + offset);
}

/// Copies `v` into the host block at `offset` (its place in the layout).
template <class T>
void put(unsigned char* host, std::size_t offset, const std::vector<T>& v) {
  if (!v.empty()) std::memcpy(host + offset, v.data(), v.size() * sizeof(T));
}

}  // namespace

// ---- The workspace: what a run's batch calls share (dbf_workspace, dbf.hpp).

namespace {
/// What a block grows to for `bytes`: a quarter more, in whole MiB (a run's calls grow slowly).
std::size_t grown_bytes(std::size_t bytes) { return ((bytes + bytes / 4) + (std::size_t{1} << 20) - 1) >> 20 << 20; }
}  // namespace

struct dbf_workspace::state {
  std::mutex mutex;    // one call at a time
  bool pinned = true;  // a call's own workspace stages in pageable memory: pinning is slow, once
  std::unique_ptr<cuda_stream> stream;
  device_buffer<unsigned char> device;
  pinned_buffer<unsigned char> host;
  std::vector<unsigned char> pageable;
  std::uint64_t device_allocations = 0;
  unsigned shares = 1;         // workspaces in use at once: this one plans within its share of the free memory
  dbf_workspace::totals done;  // the on-chip batches' host share, copies and launches
  using clock = std::chrono::steady_clock;
  /// The host's share of a call from `from` until now, to done.host_seconds.
  void host_since(clock::time_point from) {
    done.host_seconds += std::chrono::duration<double>(clock::now() - from).count();
  }

  cudaStream_t get_stream() {
    if (!stream) stream = std::make_unique<cuda_stream>();
    return stream->get();
  }
  /// Bytes a call may plan for: 80 % of the device's free memory and of what this workspace holds,
  /// over its `shares` (two workspaces growing at once each keep within their half).
  std::size_t budget() { return (free_device_bytes() + device.size()) / shares / 10 * 8; }
  /// What this workspace could hold alone: the device's free memory and its own (one table's check:
  /// a table that fits the device is not refused for the other workspace's share).
  std::size_t whole() { return free_device_bytes() + device.size(); }
  /// At least `bytes` of device memory (what it held is not kept): grown_bytes() where the device
  /// has room, so that a run's slowly growing calls do not allocate at each one.
  unsigned char* device_room(std::size_t bytes) {
    if (device.size() < bytes) {
      const cudaStream_t s = get_stream();
      const std::size_t room = budget() / 8 * 10;
      device = device_buffer<unsigned char>();
      const std::size_t want = grown_bytes(bytes);
      device = device_buffer<unsigned char>(want <= room ? want : bytes, s);
      ++device_allocations;
    }
    return device.data();
  }
  unsigned char* host_room(std::size_t bytes) {
    if (!pinned) {
      if (pageable.size() < bytes) pageable.resize(bytes);
      return pageable.data();
    }
    if (host.size() < bytes) {
      host = pinned_buffer<unsigned char>();
      host = pinned_buffer<unsigned char>(grown_bytes(bytes));
    }
    return host.data();
  }
  /// Sends host[0, bytes) to device[0, bytes).
  void upload(std::size_t bytes) {
    done.bytes_up += bytes;
    if (bytes)
      WARPSPAN_CUDA_TRY(cudaMemcpyAsync(device.data(), host_data(), bytes, cudaMemcpyHostToDevice, get_stream()));
  }
  /// Brings device[from, from + bytes) to host[to, to + bytes) and waits for it.
  void download(std::size_t from, std::size_t to, std::size_t bytes) {
    done.bytes_down += bytes;
    if (bytes)
      WARPSPAN_CUDA_TRY(
          cudaMemcpyAsync(host_data() + to, device.data() + from, bytes, cudaMemcpyDeviceToHost, get_stream()));
    WARPSPAN_CUDA_TRY(cudaStreamSynchronize(get_stream()));
  }
  unsigned char* host_data() { return pinned ? host.data() : pageable.data(); }
};

dbf_workspace::dbf_workspace(unsigned shares) : state_(std::make_unique<state>()) {
  state_->shares = shares > 0 ? shares : 1;
}
dbf_workspace::~dbf_workspace() = default;
std::uint64_t dbf_workspace::device_allocations() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->device_allocations;
}
std::size_t dbf_workspace::device_bytes() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->device.size();
}
dbf_workspace::totals dbf_workspace::done() const {
  std::lock_guard<std::mutex> lock(state_->mutex);
  return state_->done;
}

namespace {

/// The workspace a call runs in: the caller's, locked for the call, or its own (pageable staging).
class call_workspace {
 public:
  explicit call_workspace(dbf_workspace* given) {
    if (given) {
      lock_ = std::unique_lock<std::mutex>(given->get().mutex);
      w_ = &given->get();
    } else {
      own_ = std::make_unique<dbf_workspace>();
      w_ = &own_->get();
      w_->pinned = false;
    }
  }
  dbf_workspace::state& operator*() const { return *w_; }
  dbf_workspace::state* operator->() const { return w_; }

 private:
  std::unique_ptr<dbf_workspace> own_;
  std::unique_lock<std::mutex> lock_;
  dbf_workspace::state* w_ = nullptr;
};

/// A batch's steps, built on the device: the step pairs (2 words a column at most) and the count and
/// places (1 + 2 x tables words). Their offsets in the call's layout; take() brings them back into
/// the host block and hands table k's to slot(k).
struct steps_places {
  std::size_t scratch = 0, out = 0, count_where = 0;
  steps_places(block_layout& l, std::size_t columns, std::size_t tables)
      : scratch(l.add<std::uint32_t>(2 * columns)),
        out(l.add<std::uint32_t>(2 * columns)),
        count_where(l.add<std::uint32_t>(1 + 2 * tables)) {}
  /// Host bytes take() needs.
  static std::size_t host_bytes(std::size_t columns, std::size_t tables) {
    return (1 + 2 * tables + 2 * columns) * sizeof(std::uint32_t);
  }
  void clear_count(dbf_workspace::state& w) const {
    WARPSPAN_CUDA_TRY(cudaMemsetAsync(w.device.data() + count_where, 0, sizeof(std::uint32_t), w.get_stream()));
  }
  template <class Slot>
  void take(dbf_workspace::state& w, std::size_t tables, Slot slot) const {
    const std::size_t head = (1 + 2 * tables) * sizeof(std::uint32_t);
    w.download(count_where, 0, head);
    const std::uint32_t total = *at<std::uint32_t>(w.host_data(), 0);
    w.download(out, head, 2 * std::size_t{total} * sizeof(std::uint32_t));
    const std::uint32_t* where = at<std::uint32_t>(w.host_data(), sizeof(std::uint32_t));
    const std::uint32_t* steps = at<std::uint32_t>(w.host_data(), head);
    const auto from = dbf_workspace::state::clock::now();
    for (std::size_t k = 0; k < tables; ++k) take_steps(slot(k), where, k, steps);
    w.host_since(from);
  }
};

}  // namespace

dbf_table cuda_dbf_table(const unrolled_graph& g, bool shared_prefetch, unsigned block, bool keep_cells,
                         float* kernel_ms, dbf_workspace* workspace, cuda_table_launch how) {
  check_block(block);
  const call_workspace w(workspace);
  const bool steps = how.steps_only && !keep_cells;
  const std::uint32_t columns = static_cast<std::uint32_t>(g.columns());
  const std::uint32_t tiles = (columns + block - 1) / block;
  // Level by level of T' (issue 43: 40 launches for a 50-vertex task's 100 rows, where a
  // launch a row made 100), a row's cells kept only while a later level reads them (every row
  // with keep_cells): 40 rows of that task's 100 are ever kept at once.
  const level_plan plan = plan_levels(g, keep_cells);
  // One block of device memory: the inputs (one copy up from the host block), the kept rows, the
  // running minimum, and with `steps` the tiles' and the steps' room.
  block_layout l;
  const std::size_t o_wcet = l.add<std::uint32_t>(plan.wcet.size()),
                    o_deadline = l.add<std::uint32_t>(plan.deadline.size()),
                    o_slot = l.add<std::uint32_t>(plan.slot.size()),
                    o_begin = l.add<std::uint32_t>(plan.pred_begin.size()),
                    o_preds = l.add<dbf_pred>(plan.preds.size());
  const std::size_t inputs = l.bytes;
  const std::size_t o_table = l.add<std::uint32_t>(std::size_t{plan.slots} * columns),
                    o_min = l.add<std::uint32_t>(columns);
  std::optional<steps_places> places;
  std::size_t o_tile_min = 0, o_tile_steps = 0;
  if (steps) {
    places.emplace(l, columns, 1);
    o_tile_min = l.add<std::uint32_t>(tiles);
    o_tile_steps = l.add<std::uint32_t>(tiles);
  }
  const std::size_t free = w->whole();
  if (l.bytes > usable_device_bytes(free))
    throw input_error("the dbf table needs " + std::to_string(l.bytes >> 20) + " MiB of GPU memory; " +
                      std::to_string(free >> 20) + " MiB are free");
  const cudaStream_t stream = w->get_stream();
  unsigned char* const dev = w->device_room(l.bytes);
  const std::size_t back = steps ? steps_places::host_bytes(columns, 1) : columns * sizeof(std::uint32_t);
  unsigned char* const host = w->host_room(std::max(inputs, back));
  put(host, o_wcet, plan.wcet);
  put(host, o_deadline, plan.deadline);
  put(host, o_slot, plan.slot);
  put(host, o_begin, plan.pred_begin);
  put(host, o_preds, plan.preds);
  w->upload(inputs);
  const auto* wcet = at<std::uint32_t>(dev, o_wcet);
  const auto* deadline = at<std::uint32_t>(dev, o_deadline);
  const auto* slot = at<std::uint32_t>(dev, o_slot);
  const auto* begin = at<std::uint32_t>(dev, o_begin);
  const auto* preds = at<dbf_pred>(dev, o_preds);
  std::uint32_t* const table = at<std::uint32_t>(dev, o_table);
  std::uint32_t* const mins = at<std::uint32_t>(dev, o_min);

  const std::size_t sms = query_device(false).sms, wave = sms * 32;
  // A level wants at least half the threads the SMs hold (1,024 a SM): one with fewer columns
  // splits its rows into as many groups as it takes (the groups share the running minimum by
  // atomicMin). The first level, whose kernel stores the minimum, is one group.
  const std::size_t wanted = sms * 1024;
  const auto groups_of = [&](std::uint32_t v) {
    const std::uint32_t count = plan.level_begin[v + 1] - plan.level_begin[v];
    return v == 0 ? 1u : static_cast<std::uint32_t>(std::min<std::size_t>(count, (wanted + columns - 1) / columns));
  };
  // The blocks of level v: with one group a wave at most (grid-stride), else one thread a (group,
  // column) pair (groups * columns < wanted + columns: far below 2^32).
  const auto blocks_of = [&](std::uint32_t v) {
    const std::uint32_t groups = groups_of(v);
    return static_cast<std::uint32_t>(groups == 1 ? std::min<std::size_t>(tiles, wave)
                                                  : (std::size_t{groups} * columns + block - 1) / block);
  };
  // GPU-SM stages the tuples of a block's groups (block_groups): the shared memory the most of them
  // take. Where they do not fit what a block may have, the unstaged kernel reads them from global
  // memory.
  std::size_t most_block_preds = 0;
  for (std::uint32_t v = 0; shared_prefetch && v < plan.levels(); ++v) {
    const std::uint32_t first = plan.level_begin[v], count = plan.level_begin[v + 1] - first, groups = groups_of(v);
    for (std::uint32_t k = 0, blocks = blocks_of(v); k < blocks; ++k) {
      const group_range r = block_groups(k * block, block, columns, groups);
      most_block_preds = std::max<std::size_t>(most_block_preds,
                                               plan.pred_begin[level_group_begin(first, count, r.end, groups)] -
                                                   plan.pred_begin[level_group_begin(first, count, r.begin, groups)]);
    }
  }
  const std::size_t smem = shared_prefetch ? staged_bytes(most_block_preds) : 0;
  if (shared_prefetch) shared_prefetch = allow_dynamic_shared(dbf_level_kernel<true>, smem);
  const auto issue = [&] {
    for (std::uint32_t v = 0; v < plan.levels(); ++v) {
      const std::uint32_t first = plan.level_begin[v], count = plan.level_begin[v + 1] - first;
      const std::uint32_t groups = groups_of(v);
      const level_fold fold = v == 0 ? level_fold::store : groups == 1 ? level_fold::least : level_fold::atomic;
      const unsigned grid = blocks_of(v);
      if (shared_prefetch) WARPSPAN_LAUNCH(dbf_level_kernel<true>, grid, block, smem, stream)
      (wcet, deadline, slot, begin, preds, first, count, groups, columns, table, mins, fold);
      else WARPSPAN_LAUNCH(dbf_level_kernel<false>, grid, block, 0, stream)(wcet, deadline, slot, begin, preds, first,
                                                                            count, groups, columns, table, mins, fold);
      WARPSPAN_CUDA_CHECK_LAST();
    }
    if (!steps) return;
    std::uint32_t* const tile_min = at<std::uint32_t>(dev, o_tile_min);
    std::uint32_t* const tile_steps = at<std::uint32_t>(dev, o_tile_steps);
    std::uint32_t* const scratch = at<std::uint32_t>(dev, places->scratch);
    const std::size_t words = sizeof(std::uint32_t) * block;
    WARPSPAN_LAUNCH(dbf_tile_min_kernel, tiles, block, words, stream)(mins, columns, tile_min);
    WARPSPAN_CUDA_CHECK_LAST();
    WARPSPAN_LAUNCH(dbf_tile_steps_kernel, tiles, block, 2 * words, stream)
    (mins, columns, tile_min, scratch, tile_steps);
    WARPSPAN_CUDA_CHECK_LAST();
    WARPSPAN_LAUNCH(dbf_steps_gather_kernel, tiles, block, words, stream)
    (scratch, tile_steps, at<std::uint32_t>(dev, places->out), at<std::uint32_t>(dev, places->count_where));
    WARPSPAN_CUDA_CHECK_LAST();
  };
  float ms = 0;
  if (how.graph) {  // the whole table in one graph launch: the device runs level after level unprompted
    const cuda_graph graph(stream, issue);
    cuda_timer timer(stream);
    graph.launch(stream);
    ms = timer.elapsed_ms();
  } else {
    cuda_timer timer(stream);
    issue();
    ms = timer.elapsed_ms();
  }
  if (kernel_ms) *kernel_ms = ms;
  dbf_table out;
  if (steps) {
    places->take(*w, 1, [&](std::size_t) -> dbf_table& { return out; });
    return out;
  }
  w->download(o_min, 0, g.columns() * sizeof(std::uint32_t));
  const std::uint32_t* host_mins = at<std::uint32_t>(host, 0);
  out.min_span.assign(host_mins, host_mins + g.columns());
  if (keep_cells) {  // tests only: straight into the vector
    out.cells.resize(g.cells());
    WARPSPAN_CUDA_TRY(
        cudaMemcpyAsync(out.cells.data(), table, g.cells() * sizeof(std::uint32_t), cudaMemcpyDeviceToHost, stream));
    WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream));
  }
  return out;
}

namespace {

/// The staged batch: cuda_dbf_tables_batch, or with `steps_only` the steps built on the device
/// from each table's running minimum (dbf_steps_kernel) and only they brought back (the on-chip
/// batch's fallback for windows over the shared memory).
std::vector<dbf_table> staged_batch(const std::vector<const unrolled_graph*>& graphs, bool shared_prefetch,
                                    unsigned block, bool keep_cells, bool steps_only, float* kernel_ms,
                                    dbf_workspace::state& w) {
  check_block(block);
  std::vector<dbf_table> out(graphs.size());
  if (kernel_ms) *kernel_ms = 0;
  if (graphs.empty()) return out;
  const cudaStream_t stream = w.get_stream();
  const std::size_t budget = w.budget();
  // A table's device bytes: its inputs, cells and minimum, and with steps_only their scratch and output.
  const auto table_bytes = [&](const unrolled_graph& g) {
    return device_bytes(g) + sizeof(batch_item) + (steps_only ? 4 * g.columns() * sizeof(std::uint32_t) + 8 : 0);
  };
  std::size_t first = 0;
  while (first < graphs.size()) {
    // As many consecutive tables as fit the budget (at least one, which must fit by itself).
    std::size_t last = first, bytes = 0, cells = 0, columns = 0, max_preds = 1;
    while (last < graphs.size() && bytes + table_bytes(*graphs[last]) <= budget) {
      bytes += table_bytes(*graphs[last]);
      cells += graphs[last]->cells();
      columns += graphs[last]->columns();
      max_preds = std::max(max_preds, graphs[last]->max_preds());
      ++last;
    }
    if (last == first)
      throw input_error("a dbf table needs " + std::to_string(table_bytes(*graphs[first]) >> 20) +
                        " MiB of GPU memory; about " + std::to_string(budget >> 20) + " MiB are usable");
    std::vector<batch_item> items;
    std::vector<std::uint32_t> wcet, deadline, pred_begin;
    std::vector<dbf_pred> preds;
    std::size_t table_at = 0, min_at = 0;
    for (std::size_t k = first; k < last; ++k) {
      const unrolled_graph& g = *graphs[k];
      items.push_back({table_at, min_at, g.rows, static_cast<std::uint32_t>(g.columns()),
                       static_cast<std::uint32_t>(wcet.size()), static_cast<std::uint32_t>(pred_begin.size()),
                       static_cast<std::uint32_t>(preds.size())});
      table_at += g.cells();
      min_at += g.columns();
      wcet.insert(wcet.end(), g.wcet.begin(), g.wcet.end());
      deadline.insert(deadline.end(), g.deadline.begin(), g.deadline.end());
      pred_begin.insert(pred_begin.end(), g.pred_begin.begin(), g.pred_begin.end());
      preds.insert(preds.end(), g.preds.begin(), g.preds.end());
    }
    const unsigned grid = static_cast<unsigned>(last - first);
    // One block of device memory: the inputs (one copy up from the host block), then the tables,
    // their minima and, with steps_only, the steps.
    block_layout l;
    const std::size_t o_items = l.add<batch_item>(items.size()), o_wcet = l.add<std::uint32_t>(wcet.size()),
                      o_deadline = l.add<std::uint32_t>(deadline.size()),
                      o_begin = l.add<std::uint32_t>(pred_begin.size()), o_preds = l.add<dbf_pred>(preds.size());
    const std::size_t inputs = l.bytes;
    const std::size_t o_tables = l.add<std::uint32_t>(cells), o_mins = l.add<std::uint32_t>(columns);
    const std::optional<steps_places> st =
        steps_only ? std::optional<steps_places>(std::in_place, l, columns, grid) : std::nullopt;
    unsigned char* const dev = w.device_room(l.bytes);
    unsigned char* const host = w.host_room(
        std::max(inputs, steps_only ? steps_places::host_bytes(columns, grid) : columns * sizeof(std::uint32_t)));
    put(host, o_items, items);
    put(host, o_wcet, wcet);
    put(host, o_deadline, deadline);
    put(host, o_begin, pred_begin);
    put(host, o_preds, preds);
    w.upload(inputs);
    const std::size_t smem = shared_prefetch ? staged_bytes(max_preds) : 0;
    const bool stage = shared_prefetch && allow_dynamic_shared(dbf_batch_kernel<true>, smem);
    cuda_timer timer(stream);
    const auto* d_items = at<batch_item>(dev, o_items);
    if (stage) WARPSPAN_LAUNCH(dbf_batch_kernel<true>, grid, block, smem, stream)
    (d_items, at<std::uint32_t>(dev, o_wcet), at<std::uint32_t>(dev, o_deadline), at<std::uint32_t>(dev, o_begin),
     at<dbf_pred>(dev, o_preds), at<std::uint32_t>(dev, o_tables), at<std::uint32_t>(dev, o_mins));
    else WARPSPAN_LAUNCH(dbf_batch_kernel<false>, grid, block, 0, stream)(
        d_items, at<std::uint32_t>(dev, o_wcet), at<std::uint32_t>(dev, o_deadline), at<std::uint32_t>(dev, o_begin),
        at<dbf_pred>(dev, o_preds), at<std::uint32_t>(dev, o_tables), at<std::uint32_t>(dev, o_mins));
    WARPSPAN_CUDA_CHECK_LAST();
    if (st) {  // the steps on the device; only they come back
      st->clear_count(w);
      WARPSPAN_LAUNCH(dbf_steps_kernel, grid, block, 2 * block * sizeof(std::uint32_t), stream)
      (d_items, at<std::uint32_t>(dev, o_mins), at<std::uint32_t>(dev, st->scratch), at<std::uint32_t>(dev, st->out),
       at<std::uint32_t>(dev, st->count_where), at<std::uint32_t>(dev, st->count_where) + 1);
      WARPSPAN_CUDA_CHECK_LAST();
      const float ms = timer.elapsed_ms();
      if (kernel_ms) *kernel_ms += ms;
      st->take(w, grid, [&](std::size_t k) -> dbf_table& { return out[first + k]; });
      first = last;
      continue;
    }
    const float ms = timer.elapsed_ms();
    if (kernel_ms) *kernel_ms += ms;
    w.download(o_mins, 0, columns * sizeof(std::uint32_t));
    const std::uint32_t* mins = at<std::uint32_t>(host, 0);
    std::vector<std::uint32_t> all_cells;
    if (keep_cells) {  // tests only: straight into the vector (a batch's tables are too large to pin)
      all_cells.resize(cells);
      WARPSPAN_CUDA_TRY(cudaMemcpyAsync(all_cells.data(), dev + o_tables, cells * sizeof(std::uint32_t),
                                        cudaMemcpyDeviceToHost, stream));
      WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream));
    }
    for (std::size_t k = first; k < last; ++k) {
      const batch_item& it = items[k - first];
      out[k].min_span.assign(mins + it.min_span, mins + it.min_span + it.columns);
      if (keep_cells)
        out[k].cells.assign(all_cells.begin() + it.table,
                            all_cells.begin() + it.table + static_cast<std::size_t>(it.rows) * it.columns);
    }
    first = last;
  }
  return out;
}

}  // namespace

std::vector<dbf_table> cuda_dbf_tables_batch(const std::vector<const unrolled_graph*>& graphs, bool shared_prefetch,
                                             unsigned block, bool keep_cells, float* kernel_ms,
                                             dbf_workspace* workspace) {
  const call_workspace w(workspace);
  return staged_batch(graphs, shared_prefetch, block, keep_cells, false, kernel_ms, *w);
}

namespace {

std::size_t shared_limit() { return std::max(query_device(false).shared_optin, default_dynamic_shared); }

/// The threads a block of the on-chip batch with its own plan (tile 0): from `block` up to 1024,
/// the power of two that keeps the most threads resident on an SM for windows of `smem` bytes (the
/// occupancy calculator's blocks a SM times the threads; ties: the fewer). A window takes its SM's
/// shared memory whatever the block's threads, so where one or two windows fill it, more threads a
/// block are the only way to more warps in flight for a kernel whose time is its loads' latency and
/// its barriers (the GPU model's dbf latency bound): 8 warps a SM at 256 threads for the sets of 3
/// tasks x 10 vertices (164 KB windows), 32 at 1024.
unsigned onchip_threads(unsigned block, std::size_t smem, std::size_t limit) {
  // The kernel's limit at the device's opt-in (allow_dynamic_shared), so that the calculator
  // counts the windows' blocks rather than refusing them.
  if (!allow_dynamic_shared(dbf_onchip_kernel, std::min(smem, limit))) return block;
  unsigned best = block;
  long long most = 0;
  for (unsigned t = block; t <= 1024; t *= 2) {
    // The window's room grows to 2 x the threads words at most (the steps' scans).
    const std::size_t bytes = smem + 2 * std::size_t{t} * sizeof(std::uint32_t);
    if (bytes > limit) break;
    int blocks = 0;
    WARPSPAN_CUDA_TRY(
        cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, dbf_onchip_kernel, static_cast<int>(t), bytes));
    if (static_cast<long long>(blocks) * t > most) {
      most = static_cast<long long>(blocks) * t;
      best = t;
    }
  }
  return best;
}

}  // namespace

std::size_t onchip_window_bytes(const unrolled_graph& g, unsigned tile) {
  window_plan plan;
  return plan_window(g, 32, tile, ~std::size_t{0}, plan) ? plan.bytes : 0;
}

std::vector<dbf_table> cuda_dbf_steps_batch(const std::vector<const unrolled_graph*>& graphs, unsigned block,
                                            unsigned tile, float* kernel_ms, std::size_t* fell_back,
                                            dbf_workspace* workspace) {
  check_block(block);
  const call_workspace w(workspace);
  std::vector<dbf_table> out(graphs.size());
  if (kernel_ms) *kernel_ms = 0;
  if (fell_back) *fell_back = 0;
  if (graphs.empty()) return out;
  auto host_from = dbf_workspace::state::clock::now();  // planning, then each launch's packing
  const std::size_t limit = shared_limit();
  std::vector<window_plan> plans(graphs.size());
  std::vector<std::size_t> onchip, rest;
  for (std::size_t k = 0; k < graphs.size(); ++k)
    (plan_window(*graphs[k], block, tile, limit, plans[k]) ? onchip : rest).push_back(k);
  unsigned threads = block;            // the on-chip kernel's threads a block
  if (tile == 0 && !onchip.empty()) {  // the batch's own plan: its threads a block too
    std::size_t smem = 0;
    for (std::size_t k : onchip) smem = std::max(smem, plans[k].bytes);
    const unsigned more = onchip_threads(block, smem, limit);
    // A window's room is at least 2 x the threads words (the steps' scans): the few tables whose
    // rows hold less are planned again; if one no longer fits, the block stays as asked.
    std::vector<std::pair<std::size_t, window_plan>> again;
    bool fits = true;
    for (std::size_t k = 0; more != block && fits && k < onchip.size(); ++k) {
      const std::size_t g = onchip[k];
      if ((std::size_t{graphs[g]->rows} << plans[g].window_log) >= 2 * std::size_t{more}) continue;
      again.emplace_back(g, window_plan{});
      fits = plan_window(*graphs[g], more, tile, limit, again.back().second);
    }
    if (fits) {
      threads = more;
      for (const auto& [g, plan] : again) plans[g] = plan;
    }
  }
  w->host_since(host_from);
  if (!rest.empty()) {  // windows over the shared memory: the staged kernel, the steps built from its minima
    std::vector<const unrolled_graph*> those;
    for (std::size_t k : rest) those.push_back(graphs[k]);
    float ms = 0;
    std::vector<dbf_table> tables = staged_batch(those, true, block, false, true, &ms, *w);
    for (std::size_t i = 0; i < rest.size(); ++i) out[rest[i]] = std::move(tables[i]);
    if (kernel_ms) *kernel_ms += ms;
    if (fell_back) *fell_back = rest.size();
  }
  const cudaStream_t stream = w->get_stream();
  const std::size_t budget = w->budget();
  std::size_t first = 0;
  while (first < onchip.size()) {
    host_from = dbf_workspace::state::clock::now();
    std::size_t last = first, bytes = 0;
    while (last < onchip.size() && bytes + onchip_device_bytes(*graphs[onchip[last]]) <= budget)
      bytes += onchip_device_bytes(*graphs[onchip[last++]]);
    if (last == first)
      throw input_error("a dbf table needs " + std::to_string(onchip_device_bytes(*graphs[onchip[first]]) >> 20) +
                        " MiB of GPU memory; about " + std::to_string(budget >> 20) + " MiB are usable");
    const onchip_inputs in = pack_onchip(graphs, onchip, first, last, plans, threads);
    const unsigned grid = static_cast<unsigned>(last - first);
    // One block of device memory: the inputs (one copy up from the host block), the running
    // minima and the steps.
    block_layout l;
    const std::size_t o_items = l.add<onchip_item>(in.items.size()), o_wcet = l.add<std::uint32_t>(in.wcet.size()),
                      o_deadline = l.add<std::uint32_t>(in.deadline.size()),
                      o_begin = l.add<std::uint32_t>(in.pred_begin.size()), o_preds = l.add<dbf_pred>(in.preds.size()),
                      o_level_begin = l.add<std::uint32_t>(in.level_begin.size()),
                      o_level_rows = l.add<std::uint32_t>(in.level_rows.size());
    const std::size_t inputs = l.bytes;
    const std::size_t o_mins = l.add<std::uint32_t>(in.columns);
    const steps_places st(l, in.columns, grid);
    unsigned char* const dev = w->device_room(l.bytes);
    unsigned char* const host = w->host_room(std::max(inputs, steps_places::host_bytes(in.columns, grid)));
    put(host, o_items, in.items);
    put(host, o_wcet, in.wcet);
    put(host, o_deadline, in.deadline);
    put(host, o_begin, in.pred_begin);
    put(host, o_preds, in.preds);
    put(host, o_level_begin, in.level_begin);
    put(host, o_level_rows, in.level_rows);
    w->host_since(host_from);
    w->upload(inputs);
    st.clear_count(*w);
    const std::size_t smem = in.smem;  // within limit: the plans are
    if (!allow_dynamic_shared(dbf_onchip_kernel, smem))
      throw std::logic_error("the on-chip dbf plan asks for more shared memory than the device allows");
    cuda_timer timer(stream);
    ++w->done.launches;
    WARPSPAN_LAUNCH(dbf_onchip_kernel, grid, threads, smem, stream)
    (at<onchip_item>(dev, o_items), at<std::uint32_t>(dev, o_wcet), at<std::uint32_t>(dev, o_deadline),
     at<std::uint32_t>(dev, o_begin), at<dbf_pred>(dev, o_preds), at<std::uint32_t>(dev, o_level_begin),
     at<std::uint32_t>(dev, o_level_rows), at<std::uint32_t>(dev, o_mins), at<std::uint32_t>(dev, st.scratch),
     at<std::uint32_t>(dev, st.out), at<std::uint32_t>(dev, st.count_where),
     at<std::uint32_t>(dev, st.count_where) + 1);
    WARPSPAN_CUDA_CHECK_LAST();
    const float ms = timer.elapsed_ms();
    if (kernel_ms) *kernel_ms += ms;
    // Only the steps come back: where each table's are, then all of them at once.
    st.take(*w, grid, [&](std::size_t k) -> dbf_table& { return out[onchip[first + k]]; });
    first = last;
  }
  return out;
}

}  // namespace warpspan
