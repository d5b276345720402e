// CUDA backends of Algorithm 1 (paper 003 Sec. IV). The cell is the shared host/device dbf_cell.
//  * Row kernels (one table): one launch per row of T', one thread per demand column (grid-stride).
//    GPU: every thread reads the row's predecessor tuples from global memory. GPU-SM: the block
//    first stages them in shared memory (003 Fig. 4), then every thread reads them from there.
//  * Batch kernel (many tables): one thread block per table loops over that table's rows,
//    synchronising between rows, so one launch keeps the whole GPU busy across task sets.
#include <algorithm>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/device_buffer.cuh"
#include "common/stream.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/dbf/dbf.hpp"

namespace warpspan {
namespace {

void check_block(unsigned block) {
  if (block < 32 || block > 1024 || (block & (block - 1)) != 0)
    throw input_error(param("block") + " must be a power of two from 32 to 1024, not " + std::to_string(block));
}

std::size_t free_device_bytes() {
  std::size_t free = 0, total = 0;
  WARPSPAN_CUDA_TRY(cudaMemGetInfo(&free, &total));
  return free;
}

int sm_count() {
  int device = 0, count = 0;
  WARPSPAN_CUDA_TRY(cudaGetDevice(&device));
  WARPSPAN_CUDA_TRY(cudaDeviceGetAttribute(&count, cudaDevAttrMultiProcessorCount, device));
  return count;
}

/// Whether `kernel` may stage `smem` bytes of tuples in dynamic shared memory: up to 48 KiB as is,
/// up to the device's opt-in limit (227 KiB on an H100) after raising the kernel's limit; beyond
/// that the caller runs the unstaged kernel, which reads the tuples from global memory.
template <class Kernel>
bool can_stage(Kernel* kernel, std::size_t smem) {
  constexpr std::size_t default_limit = 48 * 1024;
  if (smem <= default_limit) return true;
  int device = 0, optin = 0;
  WARPSPAN_CUDA_TRY(cudaGetDevice(&device));
  WARPSPAN_CUDA_TRY(cudaDeviceGetAttribute(&optin, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
  if (smem > static_cast<std::size_t>(optin)) return false;
  WARPSPAN_CUDA_TRY(cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
  return true;
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
/// a row (bench/results/gpu_h200.md); with the padding, every load stays inside what the block
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

template <bool Prefetch>
__global__ void dbf_row_kernel(const std::uint32_t* __restrict__ wcet, const std::uint32_t* __restrict__ deadline,
                               const std::uint32_t* __restrict__ pred_begin, const dbf_pred* __restrict__ preds,
                               std::uint32_t row, std::uint32_t columns, std::uint32_t* table,
                               std::uint32_t* min_span) {
  WARPSPAN_DYNAMIC_SHARED(dbf_pred, staged);
  const std::uint32_t begin = pred_begin[row];
  const std::uint32_t npreds = pred_begin[row + 1] - begin;
  const dbf_pred* p = preds + begin;
  if constexpr (Prefetch) {
    stage_tuples(staged, p, npreds);
    __syncthreads();
    p = staged;
  }
  const std::uint32_t ev = wcet[row];
  const std::uint32_t dv = deadline[row];
  std::uint32_t* out = table + static_cast<std::size_t>(row) * columns;
  for (std::uint32_t e = blockIdx.x * blockDim.x + threadIdx.x; e < columns; e += gridDim.x * blockDim.x) {
    const std::uint32_t cell = dbf_cell(e, ev, dv, p, npreds, table, columns);
    out[e] = cell;
    min_span[e] = min(min_span[e], cell);
  }
}

__global__ void fill_kernel(std::uint32_t* data, std::size_t count, std::uint32_t value) {
  for (std::size_t k = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x; k < count;
       k += static_cast<std::size_t>(gridDim.x) * blockDim.x)
    data[k] = value;
}

/// Where one table of a batch lives in the concatenated arrays.
struct batch_item {
  std::size_t table;         ///< offset of its cells in the tables buffer
  std::size_t min_span;      ///< offset of its min_span in the mins buffer
  std::uint32_t rows;
  std::uint32_t columns;
  std::uint32_t row_base;    ///< offset of its rows in wcet / deadline
  std::uint32_t begin_base;  ///< offset of its rows + 1 pred_begin entries
  std::uint32_t pred_base;   ///< offset of its preds
};

template <bool Prefetch>
__global__ void dbf_batch_kernel(const batch_item* __restrict__ items, const std::uint32_t* __restrict__ wcet,
                                 const std::uint32_t* __restrict__ deadline,
                                 const std::uint32_t* __restrict__ pred_begin, const dbf_pred* __restrict__ preds,
                                 std::uint32_t* tables, std::uint32_t* mins) {
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

void fill(std::uint32_t* data, std::size_t count, std::uint32_t value, cudaStream_t stream) {
  const unsigned blocks = static_cast<unsigned>(std::min<std::size_t>((count + 255) / 256, 4096));
  if (blocks == 0) return;
  WARPSPAN_LAUNCH(fill_kernel, blocks, 256, 0, stream)(data, count, value);
  WARPSPAN_CUDA_CHECK_LAST();
}

}  // namespace

dbf_table cuda_dbf_table(const unrolled_graph& g, bool shared_prefetch, unsigned block, bool keep_cells,
                         float* kernel_ms) {
  check_block(block);
  const std::size_t need = device_bytes(g);
  const std::size_t free = free_device_bytes();
  if (need > free / 10 * 9)
    throw input_error("the dbf table needs " + std::to_string(need >> 20) + " MiB of GPU memory; " +
                      std::to_string(free >> 20) + " MiB are free");
  cuda_stream stream;
  device_buffer<std::uint32_t> wcet(g.wcet, stream.get());
  device_buffer<std::uint32_t> deadline(g.deadline, stream.get());
  device_buffer<std::uint32_t> pred_begin(g.pred_begin, stream.get());
  device_buffer<dbf_pred> preds(g.preds, stream.get());
  device_buffer<std::uint32_t> table(g.cells(), stream.get());
  device_buffer<std::uint32_t> min_span(g.columns(), stream.get());
  fill(min_span.data(), min_span.size(), dbf_inf, stream.get());

  const std::uint32_t columns = static_cast<std::uint32_t>(g.columns());
  const unsigned grid = static_cast<unsigned>(
      std::min<std::size_t>((columns + block - 1) / block, static_cast<std::size_t>(sm_count()) * 32));
  const std::size_t smem = shared_prefetch ? staged_bytes(g.max_preds()) : 0;
  if (shared_prefetch) shared_prefetch = can_stage(dbf_row_kernel<true>, smem);
  cuda_timer timer(stream.get());
  for (std::uint32_t row = 0; row < g.rows; ++row) {
    if (shared_prefetch)
      WARPSPAN_LAUNCH(dbf_row_kernel<true>, grid, block, smem, stream.get())(wcet.data(), deadline.data(), pred_begin.data(),
                                                                 preds.data(), row, columns, table.data(),
                                                                 min_span.data());
    else
      WARPSPAN_LAUNCH(dbf_row_kernel<false>, grid, block, 0, stream.get())(wcet.data(), deadline.data(), pred_begin.data(),
                                                               preds.data(), row, columns, table.data(),
                                                               min_span.data());
    WARPSPAN_CUDA_CHECK_LAST();
  }
  const float ms = timer.elapsed_ms();
  if (kernel_ms) *kernel_ms = ms;
  dbf_table out;
  out.min_span = min_span.to_host();
  if (keep_cells) out.cells = table.to_host();
  return out;
}

std::vector<dbf_table> cuda_dbf_tables_batch(const std::vector<const unrolled_graph*>& graphs, bool shared_prefetch,
                                             unsigned block, bool keep_cells, float* kernel_ms) {
  check_block(block);
  std::vector<dbf_table> out(graphs.size());
  if (kernel_ms) *kernel_ms = 0;
  if (graphs.empty()) return out;
  cuda_stream stream;
  const std::size_t budget = free_device_bytes() / 10 * 8;
  std::size_t first = 0;
  while (first < graphs.size()) {
    // As many consecutive tables as fit the budget (at least one, which must fit by itself).
    std::size_t last = first, bytes = 0, cells = 0, columns = 0, max_preds = 1;
    while (last < graphs.size() && bytes + device_bytes(*graphs[last]) + sizeof(batch_item) <= budget) {
      bytes += device_bytes(*graphs[last]) + sizeof(batch_item);
      cells += graphs[last]->cells();
      columns += graphs[last]->columns();
      max_preds = std::max(max_preds, graphs[last]->max_preds());
      ++last;
    }
    if (last == first)
      throw input_error("a dbf table needs " + std::to_string((device_bytes(*graphs[first]) + sizeof(batch_item)) >> 20) +
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
    device_buffer<batch_item> d_items(items, stream.get());
    device_buffer<std::uint32_t> d_wcet(wcet, stream.get());
    device_buffer<std::uint32_t> d_deadline(deadline, stream.get());
    device_buffer<std::uint32_t> d_begin(pred_begin, stream.get());
    device_buffer<dbf_pred> d_preds(preds, stream.get());
    device_buffer<std::uint32_t> d_tables(cells, stream.get());
    device_buffer<std::uint32_t> d_mins(columns, stream.get());
    const std::size_t smem = shared_prefetch ? staged_bytes(max_preds) : 0;
    const bool stage = shared_prefetch && can_stage(dbf_batch_kernel<true>, smem);
    const unsigned grid = static_cast<unsigned>(last - first);
    cuda_timer timer(stream.get());
    if (stage)
      WARPSPAN_LAUNCH(dbf_batch_kernel<true>, grid, block, smem, stream.get())(d_items.data(), d_wcet.data(), d_deadline.data(),
                                                                   d_begin.data(), d_preds.data(), d_tables.data(),
                                                                   d_mins.data());
    else
      WARPSPAN_LAUNCH(dbf_batch_kernel<false>, grid, block, 0, stream.get())(d_items.data(), d_wcet.data(), d_deadline.data(),
                                                                 d_begin.data(), d_preds.data(), d_tables.data(),
                                                                 d_mins.data());
    WARPSPAN_CUDA_CHECK_LAST();
    const float ms = timer.elapsed_ms();
    if (kernel_ms) *kernel_ms += ms;
    const std::vector<std::uint32_t> mins = d_mins.to_host();
    std::vector<std::uint32_t> all_cells;
    if (keep_cells) all_cells = d_tables.to_host();
    for (std::size_t k = first; k < last; ++k) {
      const batch_item& it = items[k - first];
      out[k].min_span.assign(mins.begin() + it.min_span, mins.begin() + it.min_span + it.columns);
      if (keep_cells)
        out[k].cells.assign(all_cells.begin() + it.table,
                            all_cells.begin() + it.table + static_cast<std::size_t>(it.rows) * it.columns);
    }
    first = last;
  }
  return out;
}

}  // namespace warpspan
