// An independent reference for the exact worst-case makespan, shared by the makespan and exact tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <vector>

#include "warpspan/makespan/problem.hpp"

namespace warpspan::test {

/// Longest work-conserving schedule, by depth-first search over the issue sets of individual warps
/// in each cycle (warps told apart, no multisets, no builder), memoised on the per-warp progress. A
/// set is allowed when it respects the capacities (each type's and, when limited, the schedulers')
/// and every ready warp left out finds its type (or the scheduler limit) full. Written independently
/// of the builder and the exact search on purpose.
///
/// Barriers (B in the kernel, read from the kernel itself): a barrier needs no unit (only a
/// scheduler, with a limit), and a warp whose previous instruction was a barrier is ready only once
/// every warp of its block (prob.block_warps() consecutive ids) has issued that barrier: with
/// per-warp kernels (a path per warp), as many barriers as it has.
///
/// Per-warp kernels: warp w runs prob.kernel_of(w) (read from the groups, its units mapped to the
/// problem's capacities through prob.type_unit), so that nothing of the problem's per-warp tables
/// is used.
inline std::uint32_t brute_worst(const problem& prob) {
  const problem_view p = prob.view();
  const std::uint32_t block = prob.block_warps();
  std::vector<std::vector<int>> type(p.warps);            // per warp, per instruction: its dense type
  std::vector<std::vector<std::uint32_t>> bars(p.warps);  // per warp: barriers among its first j
  for (std::uint32_t w = 0; w < p.warps; ++w) {
    const kernel_string& k = prob.kernel_of(w);
    bars[w].push_back(0);
    for (unit u : k) {
      type[w].push_back(
          static_cast<int>(std::find(prob.type_unit.begin(), prob.type_unit.end(), u) - prob.type_unit.begin()));
      bars[w].push_back(bars[w].back() + (u == unit::B ? 1 : 0));
    }
  }
  const auto length = [&](std::uint32_t w) { return static_cast<std::uint32_t>(type[w].size()); };
  const auto is_barrier_of = [&](std::uint32_t w, std::uint32_t j) { return prob.kernel_of(w)[j] == unit::B; };
  std::map<std::vector<std::uint32_t>, std::uint32_t> memo;
  std::function<std::uint32_t(std::vector<std::uint32_t>&)> longest = [&](std::vector<std::uint32_t>& done) {
    if (const auto it = memo.find(done); it != memo.end()) return it->second;
    std::vector<std::uint32_t> ready;
    bool unfinished = false;
    for (std::uint32_t w = 0; w < p.warps; ++w) {
      if (done[w] >= length(w)) continue;
      unfinished = true;
      bool waits = false;
      if (done[w] > 0 && is_barrier_of(w, done[w] - 1))
        for (std::uint32_t v = w / block * block; v < (w / block + 1) * block; ++v)
          waits = waits || bars[v][done[v]] < bars[w][done[w]];
      if (!waits) ready.push_back(w);
    }
    if (!unfinished) return 0u;
    std::uint32_t best = 0;
    for (std::uint32_t mask = 1; mask < (1u << ready.size()); ++mask) {
      std::vector<int> use(p.ntypes + 1, 0);
      bool ok = true;
      for (std::size_t k = 0; k < ready.size() && ok; ++k)
        if (mask >> k & 1) {
          const std::uint32_t w = ready[k];
          const int ty = type[w][done[w]];
          ok = (is_barrier_of(w, done[w]) || ++use[ty] <= p.cap[ty]) &&
               (!p.limited || ++use[p.ntypes] <= p.cap[p.ntypes]);
        }
      for (std::size_t k = 0; k < ready.size() && ok; ++k)
        if (!(mask >> k & 1)) {
          const std::uint32_t w = ready[k];
          const int ty = type[w][done[w]];
          ok = (!is_barrier_of(w, done[w]) && use[ty] >= p.cap[ty]) || (p.limited && use[p.ntypes] >= p.cap[p.ntypes]);
        }
      if (!ok) continue;
      for (std::size_t k = 0; k < ready.size(); ++k)
        if (mask >> k & 1) ++done[ready[k]];
      best = std::max(best, 1 + longest(done));
      for (std::size_t k = 0; k < ready.size(); ++k)
        if (mask >> k & 1) --done[ready[k]];
    }
    memo.emplace(done, best);
    return best;
  };
  std::vector<std::uint32_t> done(p.warps, 0);
  return longest(done);
}

}  // namespace warpspan::test
