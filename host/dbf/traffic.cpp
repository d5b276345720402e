#include "warpspan/dbf/traffic.hpp"

#include <algorithm>
#include <vector>

#include "warpspan/detail/dbf/dbf_cell.hpp"
#include "warpspan/detail/dbf/level_plan.hpp"

namespace warpspan {

dbf_traffic measure_dbf_traffic(const unrolled_graph& g) {
  dbf_traffic out;
  const std::size_t columns = g.columns();
  const detail::level_plan plan = detail::plan_levels(g, false);
  std::vector<std::uint32_t> table(std::size_t{plan.slots} * columns, dbf_inf), mins(columns, dbf_inf);
  const counting_ptr<std::uint32_t> counted_table{table.data(), &out.table};
  const counting_ptr<std::uint32_t> counted_mins{mins.data(), &out.min_span};
  // dbf_level_kernel, a level's rows in one group: each column's cells, those a later level reads
  // stored in their rows' slots, and their least folded into the running minimum (stored by the
  // first level, read and written by every other).
  for (std::uint32_t v = 0; v < plan.levels(); ++v) {
    for (std::uint32_t j = plan.level_begin[v]; j < plan.level_begin[v + 1]; ++j)
      out.staged += sizeof(dbf_pred) * std::uint64_t{plan.pred_begin[j + 1] - plan.pred_begin[j]};
    for (std::size_t e = 0; e < columns; ++e) {
      std::uint32_t least = dbf_inf;
      for (std::uint32_t j = plan.level_begin[v]; j < plan.level_begin[v + 1]; ++j) {
        const std::uint32_t npreds = plan.pred_begin[j + 1] - plan.pred_begin[j];
        const counting_ptr<const dbf_pred> preds{plan.preds.data() + plan.pred_begin[j], &out.tuples};
        const std::uint32_t cell = dbf_cell(static_cast<std::uint32_t>(e), plan.wcet[j], plan.deadline[j], preds,
                                            npreds, counted_table, columns);
        if (plan.slot[j] != detail::no_slot) counted_table[std::size_t{plan.slot[j]} * columns + e] = cell;
        least = std::min(least, cell);
        ++out.cells;
      }
      counted_mins[e] = v == 0 ? least : std::min<std::uint32_t>(counted_mins[e], least);
    }
  }
  return out;
}

}  // namespace warpspan
