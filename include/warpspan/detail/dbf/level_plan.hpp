// One demand-bound table level by level, as the single-table kernels compute it (cuda_dbf_table,
// cuda/dbf/dbf_kernels.cu) and the traffic count replays it (host/dbf/traffic.cpp): the rows of each
// level of T', and the slot of the device's table that keeps a row's cells while a later level
// still reads them. A row no later level reads is kept nowhere: its cells only go into the running
// minimum, which the level's kernel folds in. Plain host code (cuda/dbf/level_plan.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "warpspan/dbf/dbf.hpp"

namespace warpspan::detail {

/// A row's slot when no later level reads its cells.
inline constexpr std::uint32_t no_slot = 0xFFFFFFFFu;

/// The by-level arrays, indexed by a row's position j in level order (level l holds positions
/// level_begin[l] .. level_begin[l + 1] - 1).
struct level_plan {
  std::vector<std::uint32_t> level_begin;  ///< levels + 1 offsets
  std::vector<std::uint32_t> row;          ///< the table's row at each position
  std::vector<std::uint32_t> wcet, deadline;
  std::vector<std::uint32_t> slot;        ///< where its cells are kept, or no_slot
  std::vector<std::uint32_t> pred_begin;  ///< positions + 1 offsets into preds
  std::vector<dbf_pred> preds;            ///< its tuples, each predecessor's row replaced by its slot
  std::uint32_t slots = 0;                ///< rows of cells the device's table holds
  std::uint32_t levels() const { return static_cast<std::uint32_t>(level_begin.size() - 1); }
};

/// The plan of `g`'s table. With `every_row` each row keeps its own slot (slot = row: the whole
/// table, for keep_cells); without it a slot is given to a row of level l from those whose rows no
/// level from l on reads (the lowest free first), else a new one: for a 50-vertex task of paper
/// 003's Table I, 40 slots for its 100 rows.
level_plan plan_levels(const unrolled_graph& g, bool every_row);

}  // namespace warpspan::detail
