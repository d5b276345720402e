// The host's share of the on-chip dbf batch: see include/warpspan/detail/dbf/onchip_pack.hpp.
#include "warpspan/detail/dbf/onchip_pack.hpp"

#include <algorithm>

namespace warpspan::detail {

std::uint32_t ceil_log2(std::uint64_t v) {
  std::uint32_t k = 0;
  while ((std::uint64_t{1} << k) < v) ++k;
  return k;
}

void levels_of(const unrolled_graph& g, std::vector<std::uint32_t>& begin, std::vector<std::uint32_t>& rows) {
  std::vector<std::uint32_t> level(g.rows, 0);
  std::uint32_t levels = 0;
  for (std::uint32_t r = 0; r < g.rows; ++r) {
    for (std::uint32_t k = g.pred_begin[r]; k < g.pred_begin[r + 1]; ++k)
      level[r] = std::max(level[r], level[g.preds[k].row] + 1);
    levels = std::max(levels, level[r] + 1);
  }
  begin.assign(levels + 1, 0);
  for (std::uint32_t r = 0; r < g.rows; ++r) ++begin[level[r] + 1];
  for (std::uint32_t l = 0; l < levels; ++l) begin[l + 1] += begin[l];
  rows.assign(g.rows, 0);
  std::vector<std::uint32_t> at(begin.begin(), begin.end() - 1);
  for (std::uint32_t r = 0; r < g.rows; ++r) rows[at[level[r]]++] = r;
}

namespace {

std::uint32_t largest_wcet(const unrolled_graph& g) {
  std::uint32_t L = 0;
  for (std::uint32_t e : g.wcet) L = std::max(L, e);
  return L;
}

std::uint32_t level_count(const unrolled_graph& g) {
  std::vector<std::uint32_t> begin, rows;
  levels_of(g, begin, rows);
  return static_cast<std::uint32_t>(begin.size() - 1);
}

}  // namespace

bool plan_window(const unrolled_graph& g, unsigned block, unsigned tile, std::size_t limit, window_plan& plan) {
  const std::uint64_t rows = g.rows, columns = g.columns(), L = largest_wcet(g);
  const std::size_t staged =
      staged_input_words(g.rows, level_count(g), static_cast<std::uint32_t>(g.preds.size())) * sizeof(std::uint32_t);
  const auto bytes_of = [&](std::uint32_t log) {
    return std::max<std::size_t>(static_cast<std::size_t>(rows << log), 2 * std::size_t{block}) *
               sizeof(std::uint32_t) +
           staged;
  };
  if (tile == 0 && bytes_of(ceil_log2(columns)) <= limit) {  // one pass: no column is overwritten
    plan = {static_cast<std::uint32_t>(columns), ceil_log2(columns), bytes_of(ceil_log2(columns))};
    return true;
  }
  std::uint64_t t = tile ? tile : 2 * std::uint64_t{block};
  std::uint32_t log = ceil_log2(t + L);
  if (tile == 0 && bytes_of(log) > limit) {  // the widest window that fits, if it leaves 32 columns a pass
    while (log > 0 && bytes_of(log) > limit) --log;
    if ((std::uint64_t{1} << log) < L + 32) return false;
  }
  // Without a tile asked for, a pass takes every column the window holds beyond the L it must keep
  // of the previous pass: fewer passes, so fewer levels' barriers (2 x the block's threads at
  // least: the window is at least that plus L).
  if (tile == 0) t = (std::uint64_t{1} << log) - L;
  if (bytes_of(log) > limit) return false;
  plan = {static_cast<std::uint32_t>(std::min<std::uint64_t>(t, columns)), log, bytes_of(log)};
  return true;
}

std::size_t onchip_device_bytes(const unrolled_graph& g) {
  return (g.wcet.size() + g.deadline.size() + g.pred_begin.size() + 2 * std::size_t{g.rows} + 1) *
             sizeof(std::uint32_t) +
         g.preds.size() * sizeof(dbf_pred) + g.columns() * 5 * sizeof(std::uint32_t) + sizeof(onchip_item) +
         2 * sizeof(std::uint32_t);
}

onchip_inputs pack_onchip(const std::vector<const unrolled_graph*>& graphs, const std::vector<std::size_t>& order,
                          std::size_t first, std::size_t last, const std::vector<window_plan>& plans, unsigned block) {
  onchip_inputs in;
  std::vector<std::uint32_t> lb, lr;
  for (std::size_t i = first; i < last; ++i) {
    const unrolled_graph& g = *graphs[order[i]];
    const window_plan& plan = plans[order[i]];
    levels_of(g, lb, lr);
    onchip_item it{};
    it.mins = in.columns;
    it.steps = in.columns;
    it.rows = g.rows;
    it.columns = static_cast<std::uint32_t>(g.columns());
    it.row_base = static_cast<std::uint32_t>(in.wcet.size());
    it.begin_base = static_cast<std::uint32_t>(in.pred_begin.size());
    it.pred_base = static_cast<std::uint32_t>(in.preds.size());
    it.level_base = static_cast<std::uint32_t>(in.level_begin.size());
    it.levels = static_cast<std::uint32_t>(lb.size() - 1);
    it.tile = plan.tile;
    it.window_log = plan.window_log;
    it.stride_log = std::max(plan.window_log, ceil_log2(g.columns()));
    it.window_words = static_cast<std::uint32_t>(
        std::max<std::size_t>(std::size_t{g.rows} << plan.window_log, 2 * std::size_t{block}));
    it.npreds = static_cast<std::uint32_t>(g.preds.size());
    in.items.push_back(it);
    in.columns += g.columns();
    in.smem = std::max(in.smem, plan.bytes);
    in.wcet.insert(in.wcet.end(), g.wcet.begin(), g.wcet.end());
    in.deadline.insert(in.deadline.end(), g.deadline.begin(), g.deadline.end());
    in.pred_begin.insert(in.pred_begin.end(), g.pred_begin.begin(), g.pred_begin.end());
    in.preds.insert(in.preds.end(), g.preds.begin(), g.preds.end());
    in.level_begin.insert(in.level_begin.end(), lb.begin(), lb.end());
    in.level_rows.insert(in.level_rows.end(), lr.begin(), lr.end());
  }
  return in;
}

void take_steps(dbf_table& t, const std::uint32_t* where, std::size_t k, const std::uint32_t* steps) {
  const std::size_t at = where[2 * k], n = where[2 * k + 1];
  t.steps_only = true;
  t.step_spans.resize(n);
  t.step_columns.resize(n);
  for (std::size_t i = 0; i < n; ++i) {  // found from the right: reversed here
    t.step_spans[n - 1 - i] = steps[2 * (at + i)];
    t.step_columns[n - 1 - i] = steps[2 * (at + i) + 1];
  }
}

}  // namespace warpspan::detail
