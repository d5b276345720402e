// The host's share of the on-chip dbf batch (cuda_dbf_steps_batch, cuda/dbf/dbf_kernels.cu): each
// table's window planned, a launch's tables packed into the arrays its kernel reads, and the steps
// it builds unpacked into tables. Plain host code in a host file (cuda/dbf/onchip_pack.cpp), so
// that the emulation build, which traces every load and store of the .cu files (their host code
// too), times it as a release build runs it: the GPU model's figure for the device call's host
// share (issue 43).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "warpspan/core/macros.hpp"
#include "warpspan/dbf/dbf.hpp"

namespace warpspan::detail {

/// One table of an on-chip batch: where its inputs and scratch are, and its window.
struct onchip_item {
  std::size_t mins;   ///< offset of its running minimum (columns) in the mins scratch
  std::size_t steps;  ///< offset of its steps (columns at most) in the steps scratch
  std::uint32_t rows, columns;
  std::uint32_t row_base;    ///< offset of its rows in wcet / deadline / level_rows
  std::uint32_t begin_base;  ///< offset of its rows + 1 pred_begin entries
  std::uint32_t pred_base;   ///< offset of its preds
  std::uint32_t level_base;  ///< offset of its levels + 1 level_begin entries
  std::uint32_t levels;
  std::uint32_t tile;          ///< columns computed per pass
  std::uint32_t window_log;    ///< the window holds 2^window_log columns of every row (>= tile + largest wcet)
  std::uint32_t stride_log;    ///< 2^stride_log >= columns and >= the window: dbf_cell's row stride
  std::uint32_t window_words;  ///< the window's room: rows << window_log, at least 2 x the block's threads
  std::uint32_t npreds;        ///< its predecessor tuples
};

/// Shared-memory words the inputs of a table take once staged: wcet, deadline, pred_begin, the
/// rows by level and the level offsets (words), then the tuples (two words each, 8-byte aligned).
WARPSPAN_HD_INLINE std::size_t staged_input_words(std::uint32_t rows, std::uint32_t levels, std::uint32_t npreds) {
  const std::size_t words = 4 * std::size_t{rows} + 1 + levels + 1;
  return (words + 1) / 2 * 2 + 2 * std::size_t{npreds};
}

/// The least k with 2^k >= v.
std::uint32_t ceil_log2(std::uint64_t v);

/// The levels of T' (a row without predecessors is on level 0, any other one above its highest
/// predecessor): level_begin (levels + 1 offsets) and the rows level by level, in row order.
void levels_of(const unrolled_graph& g, std::vector<std::uint32_t>& begin, std::vector<std::uint32_t>& rows);

/// A table's window: `tile` columns a pass, 2^window_log columns of every row held.
struct window_plan {
  std::uint32_t tile = 0, window_log = 0;
  std::size_t bytes = 0;
};

/// Without a `tile` asked for: one pass when the whole table fits, else a window of at least twice
/// the block's threads + L columns (L: the largest wcet), narrower where shared memory allows no
/// wider (down to L + 32), each pass taking every column of it but the L the next pass reads. False
/// when not even L + 32 columns fit in `limit` bytes.
bool plan_window(const unrolled_graph& g, unsigned block, unsigned tile, std::size_t limit, window_plan& plan);

/// Device bytes one table of an on-chip batch takes: its inputs, levels, running minimum and
/// steps (scratch and output).
std::size_t onchip_device_bytes(const unrolled_graph& g);

/// One launch's inputs, as the kernel reads them: an item a table, then every table's arrays one
/// after another; `columns` their columns in all, `smem` the largest window's bytes.
struct onchip_inputs {
  std::vector<onchip_item> items;
  std::vector<std::uint32_t> wcet, deadline, pred_begin, level_begin, level_rows;
  std::vector<dbf_pred> preds;
  std::size_t columns = 0, smem = 0;
};

/// The inputs of tables graphs[order[first]] .. graphs[order[last - 1]] with their `plans` (by
/// graph), for blocks of `block` threads.
onchip_inputs pack_onchip(const std::vector<const unrolled_graph*>& graphs, const std::vector<std::size_t>& order,
                          std::size_t first, std::size_t last, const std::vector<window_plan>& plans, unsigned block);

/// Table k's steps from a batch's output: where[2k] is where they start in `steps` (pairs of span
/// and column, found from the right), where[2k + 1] how many.
void take_steps(dbf_table& t, const std::uint32_t* where, std::size_t k, const std::uint32_t* steps);

}  // namespace warpspan::detail
