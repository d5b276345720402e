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
inline std::uint32_t brute_worst(const problem& prob) {
  const problem_view p = prob.view();
  std::map<std::vector<std::uint32_t>, std::uint32_t> memo;
  std::function<std::uint32_t(std::vector<std::uint32_t>&)> longest = [&](std::vector<std::uint32_t>& done) {
    if (const auto it = memo.find(done); it != memo.end()) return it->second;
    std::vector<std::uint32_t> ready;
    for (std::uint32_t w = 0; w < p.warps; ++w)
      if (done[w] < p.instructions) ready.push_back(w);
    if (ready.empty()) return 0u;
    std::uint32_t best = 0;
    for (std::uint32_t mask = 1; mask < (1u << ready.size()); ++mask) {
      std::vector<int> use(p.ntypes + 1, 0);
      bool ok = true;
      for (std::size_t k = 0; k < ready.size() && ok; ++k)
        if (mask >> k & 1) {
          const int ty = p.types[done[ready[k]]];
          ok = ++use[ty] <= p.cap[ty] && (!p.limited || ++use[p.ntypes] <= p.cap[p.ntypes]);
        }
      for (std::size_t k = 0; k < ready.size() && ok; ++k)
        if (!(mask >> k & 1)) {
          const int ty = p.types[done[ready[k]]];
          ok = use[ty] >= p.cap[ty] || (p.limited && use[p.ntypes] >= p.cap[p.ntypes]);
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
