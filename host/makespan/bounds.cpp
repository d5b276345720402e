#include "warpspan/makespan/bounds.hpp"

#include <algorithm>

namespace warpspan {

std::uint64_t pessimistic_bound(const problem& prob) {
  // 001 Sec. 4: in the worst case the W warps go through each instruction of type U in
  // ceil(W / sigma_U) separate cycles, and no two types overlap.
  std::uint64_t total = 0;
  for (int u = 0; u < unit_count; ++u) {
    const std::uint64_t count =
        static_cast<std::uint64_t>(std::count(prob.kernel.begin(), prob.kernel.end(), static_cast<unit>(u)));
    if (count == 0) continue;
    std::uint64_t sigma = static_cast<std::uint64_t>(prob.sm.sigma[u]);
    if (prob.sm.schedulers > 0) sigma = std::min<std::uint64_t>(sigma, prob.sm.schedulers);
    total += (prob.warps + sigma - 1) / sigma * count;
  }
  return total;
}

}  // namespace warpspan
