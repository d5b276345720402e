#include "warpspan/makespan/bounds.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace warpspan {
namespace {

/// Per unit type: its instructions in the normalised string and m_U = min(sigma_U, schedulers).
struct type_counts {
  std::array<std::uint64_t, unit_count> count{};
  std::array<std::uint64_t, unit_count> m{};
};

type_counts counts_of(const problem& prob) {
  type_counts t;
  for (int u = 0; u < unit_count; ++u) {
    t.count[u] = static_cast<std::uint64_t>(std::count(prob.kernel.begin(), prob.kernel.end(), static_cast<unit>(u)));
    std::uint64_t sigma = static_cast<std::uint64_t>(prob.sm.sigma[u]);
    if (prob.sm.schedulers > 0) sigma = std::min<std::uint64_t>(sigma, prob.sm.schedulers);
    t.m[u] = std::max<std::uint64_t>(sigma, 1);
  }
  return t;
}

}  // namespace

std::uint64_t pessimistic_bound(const problem& prob) {
  // The proof in bounds.hpp, in the two forms of exact/frontier.hpp's remaining_bound (which is
  // this bound for any state of the search, checked against brute force there), from the start:
  // R_U = (W - 1) I_U instructions of U by the other warps. A type is full in a cycle only with
  // sigma_U of the other W - 1 warps issuing it, and the limit only with S of them, so a sigma_U or
  // an S above W - 1 never stalls the last warp.
  const type_counts t = counts_of(prob);
  const std::uint64_t W = prob.warps, I = prob.instructions(), S = prob.sm.schedulers;
  std::array<std::uint64_t, unit_count> R{}, full{};
  std::uint64_t others = 0, type_stalls = 0;
  for (int u = 0; u < unit_count; ++u) {
    R[u] = (W - 1) * t.count[u];
    const auto sigma = static_cast<std::uint64_t>(std::max(prob.sm.sigma[u], 1));
    full[u] = t.count[u] && sigma <= W - 1 ? R[u] / sigma : 0;
    others += R[u];
    type_stalls += full[u];
  }
  // Barriers never stall the path (bounds.hpp) but take scheduler slots.
  const std::uint64_t barrier_others = (W - 1) * prob.barriers();
  others += barrier_others;
  const std::uint64_t limit_stalls = S > 0 && S <= W - 1 ? others / S : 0;
  // First form: the last warp issues (I cycles) or stalls on a full type or the limit.
  std::uint64_t bound = I + type_stalls + limit_stalls;
  if (S > 0 && S <= W - 1) {  // a stall on either kind takes m_U = min(sigma_U, S) of the others' instructions
    std::uint64_t denominator = 1, numerator = 0;
    for (int u = 0; u < unit_count; ++u)
      if (t.count[u]) denominator = std::lcm(denominator, t.m[u]);
    if (barrier_others) denominator = std::lcm(denominator, S);
    for (int u = 0; u < unit_count; ++u) numerator += R[u] * (denominator / t.m[u]);
    numerator += barrier_others * (denominator / S);  // a barrier's m is S: only the limit stalls on it
    bound = std::min(bound, I + numerator / denominator);
  }
  // Second form, for each type V: a cycle issues a V (W I_V of them at most) or the last warp issues
  // a non-V, or stalls on a full non-V type or the limit.
  for (int v = 0; v < unit_count; ++v) {
    if (!t.count[v]) continue;
    bound = std::min(bound, W * t.count[v] + (I - t.count[v]) + (type_stalls - full[v]) + limit_stalls);
  }
  return bound;
}

std::uint64_t pessimistic_formula_001(const problem& prob) {
  // 001 Sec. 4: the W warps go through each instruction of type U in ceil(W / m_U) cycles, and no
  // two types overlap.
  const type_counts t = counts_of(prob);
  std::uint64_t total = 0;
  for (int u = 0; u < unit_count; ++u) total += (prob.warps + t.m[u] - 1) / t.m[u] * t.count[u];
  return total;
}

}  // namespace warpspan
