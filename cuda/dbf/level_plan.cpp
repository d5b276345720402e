// The single table's levels and slots: see include/warpspan/detail/dbf/level_plan.hpp.
#include "warpspan/detail/dbf/level_plan.hpp"

#include <algorithm>
#include <functional>
#include <queue>

#include "warpspan/detail/dbf/onchip_pack.hpp"

namespace warpspan::detail {

level_plan plan_levels(const unrolled_graph& g, bool every_row) {
  level_plan p;
  levels_of(g, p.level_begin, p.row);
  const std::uint32_t levels = p.levels();
  std::vector<std::uint32_t> level(g.rows, 0);
  for (std::uint32_t l = 0; l < levels; ++l)
    for (std::uint32_t j = p.level_begin[l]; j < p.level_begin[l + 1]; ++j) level[p.row[j]] = l;
  // The last level that reads each row (none: no_slot), and the rows whose last reader is level l.
  std::vector<std::uint32_t> last(g.rows, no_slot);
  for (std::uint32_t r = 0; r < g.rows; ++r)
    for (std::uint32_t k = g.pred_begin[r]; k < g.pred_begin[r + 1]; ++k) {
      std::uint32_t& l = last[g.preds[k].row];
      l = l == no_slot ? level[r] : std::max(l, level[r]);
    }
  std::vector<std::vector<std::uint32_t>> freed_after(levels);
  for (std::uint32_t r = 0; r < g.rows; ++r)
    if (last[r] != no_slot) freed_after[last[r]].push_back(r);
  std::vector<std::uint32_t> slot_of(g.rows, no_slot);
  std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<>> free;
  for (std::uint32_t l = 0; l < levels; ++l) {
    if (l > 0)  // no level from l on reads these rows: their slots may take level l's cells
      for (std::uint32_t r : freed_after[l - 1]) free.push(slot_of[r]);
    for (std::uint32_t j = p.level_begin[l]; j < p.level_begin[l + 1]; ++j) {
      const std::uint32_t r = p.row[j];
      if (every_row) {
        slot_of[r] = r;
      } else if (last[r] != no_slot) {
        if (free.empty()) {
          slot_of[r] = p.slots++;
        } else {
          slot_of[r] = free.top();
          free.pop();
        }
      }
    }
  }
  if (every_row) p.slots = g.rows;
  p.pred_begin.assign(1, 0);
  p.preds.reserve(g.preds.size());
  for (std::uint32_t l = 0; l < levels; ++l) {
    for (std::uint32_t j = p.level_begin[l]; j < p.level_begin[l + 1]; ++j) {
      const std::uint32_t r = p.row[j];
      p.wcet.push_back(g.wcet[r]);
      p.deadline.push_back(g.deadline[r]);
      p.slot.push_back(slot_of[r]);
      for (std::uint32_t k = g.pred_begin[r]; k < g.pred_begin[r + 1]; ++k)
        p.preds.push_back({slot_of[g.preds[k].row], g.preds[k].gap});
      p.pred_begin.push_back(static_cast<std::uint32_t>(p.preds.size()));
    }
  }
  return p;
}

}  // namespace warpspan::detail
