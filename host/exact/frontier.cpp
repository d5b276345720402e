// The level-by-level exact search on the CPU, and the witness both level searches share.
#include <algorithm>
#include <chrono>
#include <type_traits>

#include "warpspan/detail/core/step_deadline.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan {

namespace exact_detail {

void check_packs(const problem& prob, bool narrow_only) {
  if (prob.per_warp())
    throw input_error("the level-by-level search takes one kernel for all warps, not per-warp kernels (" +
                      param("warp_kernels") + "): the depth-first search takes them");
  const std::string have = " (have " + std::to_string(prob.warps) + " and " + std::to_string(prob.instructions()) + ")";
  if (narrow_only && (prob.warps > frontier_max_warps || prob.instructions() > frontier_max_instructions))
    throw input_error("the device's level-by-level searches take at most " + std::to_string(frontier_max_warps) +
                      " warps and " + std::to_string(frontier_max_instructions) + " instructions (8-bit levels)" +
                      have + "; the CPU's take longer kernels of at most " + std::to_string(frontier_wide_max_warps) +
                      " warps (" + param("backend", "cpu") + ")");
  const std::uint64_t w = prob.warps, i = prob.instructions();
  const bool fits = (w <= frontier_max_warps && i <= frontier_max_instructions) ||
                    (w <= frontier_wide_max_warps && i <= frontier_wide_max_instructions && w * i <= frontier_max_work);
  if (!fits)
    throw input_error("the level-by-level search takes at most " + std::to_string(frontier_max_warps) + " warps and " +
                      std::to_string(frontier_max_instructions) + " instructions, or beyond " +
                      std::to_string(frontier_max_instructions) + " at most " +
                      std::to_string(frontier_wide_max_warps) + " warps with W x I at most " +
                      std::to_string(frontier_max_work) + have + ": the depth-first search takes the rest");
  if (prob.view().barrier != no_barrier && prob.block_warps() != prob.warps)
    throw input_error("the level-by-level search takes the barriers of one block of all W warps (have blocks of " +
                      std::to_string(prob.block_warps()) + " of " + std::to_string(prob.warps) + " warps)");
}

void check_wide_levels(const problem& prob, bool wide) {
  if (wide && !frontier_fits_wide(prob.warps, prob.instructions()))
    throw input_error("16-bit levels take at most " + std::to_string(frontier_wide_max_warps) +
                      " warps and W x I at most " + std::to_string(frontier_max_work) + " (have " +
                      std::to_string(prob.warps) + " and " + std::to_string(prob.instructions()) + ")");
}

frontier_view checked_view(const problem& prob) {
  check_packs(prob, true);
  return make_frontier_view(prob.view());
}

template <class V>
bool takes_between(const V& v, packed_state from, packed_state to, std::vector<std::uint8_t>& takes) {
  basic_successor_enum<V> e;
  if (!e.start(v, from)) return false;
  do {
    if (e.successor(v) == to) {
      takes.assign(v.instructions, 0);
      for (std::uint32_t k = 0; k < v.instructions; ++k) takes[k] = static_cast<std::uint8_t>(e.take_at(v, k));
      return true;
    }
  } while (e.advance(v));
  return false;
}

template <class V>
std::vector<std::uint16_t> string_from_takes(const V& v, std::vector<std::vector<std::uint8_t>> takes) {
  std::vector<std::uint32_t> progress(v.warps, 0);
  std::vector<std::uint16_t> str;
  for (auto& take : takes) {
    std::vector<std::uint32_t> moved;
    for (std::uint32_t w = 0; w < v.warps; ++w) {
      const std::uint32_t k = progress[w];
      if (k < v.instructions && take[k] > 0) {
        --take[k];
        moved.push_back(w);
        str.push_back(static_cast<std::uint16_t>(w));
      }
    }
    for (std::uint32_t w : moved) ++progress[w];
  }
  return str;
}

template <class V>
std::vector<std::uint16_t> witness_from_levels(const V& v, const std::vector<std::vector<packed_state>>& levels,
                                               std::uint32_t makespan) {
  // Backwards: a state of level t - 1 with the chosen state of level t among its successors.
  std::vector<std::vector<std::uint8_t>> takes(makespan);
  packed_state cur = final_state(v);
  for (std::uint32_t t = makespan; t-- > 0;) {
    bool found = false;
    for (const packed_state s : levels[t])
      if (takes_between(v, s, cur, takes[t])) {
        cur = s;
        found = true;
        break;
      }
    if (!found) throw std::logic_error("exact search: no predecessor found while backtracking the witness");
  }
  return string_from_takes(v, std::move(takes));
}

template <class V>
void finish_levels(const problem& prob, const V& v, std::vector<std::vector<packed_state>>& levels,
                   std::uint32_t last_done, exact_result& r) {
  if (r.stop_reason.empty()) {
    r.complete = true;
    r.makespan = r.lower = r.upper = last_done;
    r.best_string = witness_from_levels(v, levels, last_done);
    return;
  }
  fill_interval(prob, r);
  if (last_done > r.lower) {  // a completion seen: its schedule is a better proven lower bound
    r.lower = last_done;
    levels.resize(last_done + 1);
    r.best_string = witness_from_levels(v, levels, last_done);
  }
}

}  // namespace exact_detail

template <class V>
exact_result exact_detail::run_levels(const problem& prob, const V& v, const frontier_options& options,
                                      const level_expander& expand) {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t max_states = options.max_states ? options.max_states : std::uint64_t{200'000'000};
  const packed_state done = final_state(v);
  std::vector<std::vector<packed_state>> levels{{initial_state(v)}};
  exact_result r;
  r.states = 1;
  std::uint32_t last_done = 0;
  step_stop stopping(options.time_limit_s, max_states);
  while (!levels.back().empty()) {
    std::vector<packed_state> next;
    r.stop_reason = expand(levels.back(), next);
    if (!r.stop_reason.empty()) break;
    const auto it = std::lower_bound(next.begin(), next.end(), done);
    if (it != next.end() && *it == done) {
      last_done = static_cast<std::uint32_t>(levels.size());
      next.erase(it);  // finished: no successors
    }
    r.states += next.size();
    levels.push_back(std::move(next));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.stop_reason = stopping.after_step(elapsed, r.states);
    r.interrupted = r.stop_reason == "interrupted";
    if (!r.stop_reason.empty()) break;
  }
  finish_levels(prob, v, levels, last_done, r);
  r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

exact_result exact_detail::run_levels(const problem& prob, const frontier_options& options,
                                      const level_expander& expand) {
  return run_levels(prob, checked_view(prob), options, expand);
}

namespace exact_detail {
template exact_result run_levels(const problem&, const frontier_view&, const frontier_options&, const level_expander&);
template exact_result run_levels(const problem&, const wide_frontier_view&, const frontier_options&,
                                 const level_expander&);
#define WARPSPAN_LEVEL_HELPERS(V)                                                                                  \
  template bool takes_between(const V&, packed_state, packed_state, std::vector<std::uint8_t>&);                   \
  template std::vector<std::uint16_t> string_from_takes(const V&, std::vector<std::vector<std::uint8_t>>);         \
  template std::vector<std::uint16_t> witness_from_levels(const V&, const std::vector<std::vector<packed_state>>&, \
                                                          std::uint32_t);                                          \
  template void finish_levels(const problem&, const V&, std::vector<std::vector<packed_state>>&, std::uint32_t,    \
                              exact_result&);
WARPSPAN_LEVEL_HELPERS(frontier_view)
WARPSPAN_LEVEL_HELPERS(wide_frontier_view)
#undef WARPSPAN_LEVEL_HELPERS
}  // namespace exact_detail

exact_result exact_frontier_cpu(const problem& prob, const frontier_options& options) {
  return exact_detail::with_checked_view(prob, options.wide_levels, [&](const auto& v) {
    using view = std::decay_t<decltype(v)>;
    return exact_detail::run_levels(prob, v, options,
                                    [&](const std::vector<packed_state>& level, std::vector<packed_state>& next) {
                                      for (const packed_state s : level) {
                                        basic_successor_enum<view> e;
                                        if (!e.start(v, s)) continue;
                                        do next.push_back(e.successor(v));
                                        while (e.advance(v));
                                      }
                                      std::sort(next.begin(), next.end());
                                      next.erase(std::unique(next.begin(), next.end()), next.end());
                                      return std::string();
                                    });
  });
}

}  // namespace warpspan
