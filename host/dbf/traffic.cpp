#include "warpspan/dbf/traffic.hpp"

#include <algorithm>
#include <vector>

#include "warpspan/detail/dbf/dbf_cell.hpp"

namespace warpspan {

dbf_traffic measure_dbf_traffic(const unrolled_graph& g) {
  dbf_traffic out;
  const std::size_t columns = g.columns();
  std::vector<std::uint32_t> table(g.cells(), dbf_inf), mins(columns, dbf_inf);
  const counting_ptr<std::uint32_t> counted_table{table.data(), &out.table};
  const counting_ptr<std::uint32_t> counted_mins{mins.data(), &out.min_span};
  for (std::uint32_t row = 0; row < g.rows; ++row) {
    const std::uint32_t npreds = g.pred_begin[row + 1] - g.pred_begin[row];
    const counting_ptr<const dbf_pred> preds{g.preds.data() + g.pred_begin[row], &out.tuples};
    out.staged += sizeof(dbf_pred) * std::uint64_t{npreds};
    const counting_ptr<std::uint32_t> row_out = counted_table + std::size_t{row} * columns;
    for (std::size_t e = 0; e < columns; ++e) {
      // The body of dbf_level_kernel: the cell and its store.
      const std::uint32_t cell =
          dbf_cell(static_cast<std::uint32_t>(e), g.wcet[row], g.deadline[row], preds, npreds, counted_table, columns);
      row_out[e] = cell;
      ++out.cells;
    }
  }
  // dbf_column_min_kernel: every cell read once more, each column's minimum written once.
  for (std::size_t e = 0; e < columns; ++e) {
    std::uint32_t m = dbf_inf;
    for (std::uint32_t row = 0; row < g.rows; ++row) m = std::min<std::uint32_t>(m, counted_table[row * columns + e]);
    counted_mins[e] = m;
  }
  return out;
}

}  // namespace warpspan
