#include "warpspan/makespan/bounds.hpp"

#include <algorithm>
#include <array>
#include <numeric>

namespace warpspan {
namespace {

/// m_U = min(sigma_U, schedulers), at least 1.
std::array<std::uint64_t, unit_count> shares_of(const problem& prob) {
  std::array<std::uint64_t, unit_count> m{};
  for (int u = 0; u < unit_count; ++u) {
    std::uint64_t sigma = static_cast<std::uint64_t>(prob.sm.sigma[u]);
    if (prob.sm.schedulers > 0) sigma = std::min<std::uint64_t>(sigma, prob.sm.schedulers);
    m[u] = std::max<std::uint64_t>(sigma, 1);
  }
  return m;
}

/// What the bound's proof needs of the paths (bounds.hpp): a path issues, for each stretch s of a
/// block (the instructions after its s-th barrier up to and including the next), the stretch of one
/// warp of the block. Over all paths: the most instructions (`longest`), the fewest of each unit
/// (`fewest`) and of barriers (`fewest_barriers`), the most that are not of unit V (`longest_without`);
/// and the instructions of each unit (`total`) and barriers (`total_barriers`) of all warps. With
/// one string for all warps every path issues that string: I, I_U, the barriers, I - I_V.
struct path_counts {
  std::uint64_t longest = 0, fewest_barriers = 0, total_barriers = 0;
  std::array<std::uint64_t, unit_count> fewest{}, longest_without{}, total{};
};

path_counts paths_of(const problem& prob) {
  path_counts c;
  const std::uint32_t W = prob.warps, block = prob.block_warps();
  // Per warp and stretch: its length and its instructions of each unit.
  struct stretch {
    std::uint64_t length = 0;
    std::array<std::uint64_t, unit_count> count{};
  };
  const auto stretches = [&](const kernel_string& k) {
    std::vector<stretch> out(1);
    for (unit u : k) {
      ++out.back().length;
      if (u == unit::B)
        out.emplace_back();
      else
        ++out.back().count[static_cast<int>(u)];
    }
    return out;
  };
  c.fewest.fill(~std::uint64_t{0});
  c.fewest_barriers = ~std::uint64_t{0};
  // Warps of one group run one string: per block, each group it holds once.
  for (std::uint32_t first = 0; first < W; first += block) {
    std::vector<stretch> most, least;  // per stretch: the most (and the fewest) over the block's warps
    std::vector<std::array<std::uint64_t, unit_count>> without;
    for (std::uint32_t w = first; w < first + block; ++w) {
      if (w > first && (!prob.per_warp() || prob.group_of(w) == prob.group_of(w - 1))) continue;
      const std::vector<stretch> s = stretches(prob.kernel_of(w));
      if (most.empty()) {
        most = least = s;
        without.resize(s.size());
        for (std::size_t k = 0; k < s.size(); ++k)
          for (int v = 0; v < unit_count; ++v) without[k][v] = s[k].length - s[k].count[v];
        continue;
      }
      for (std::size_t k = 0; k < s.size() && k < most.size(); ++k) {  // a block's warps have as many stretches
        most[k].length = std::max(most[k].length, s[k].length);
        for (int v = 0; v < unit_count; ++v) {
          least[k].count[v] = std::min(least[k].count[v], s[k].count[v]);
          without[k][v] = std::max(without[k][v], s[k].length - s[k].count[v]);
        }
      }
    }
    std::uint64_t longest = 0;
    std::array<std::uint64_t, unit_count> fewest{}, longest_without{};
    for (std::size_t k = 0; k < most.size(); ++k) {
      longest += most[k].length;
      for (int v = 0; v < unit_count; ++v) {
        fewest[v] += least[k].count[v];
        longest_without[v] += without[k][v];
      }
    }
    c.longest = std::max(c.longest, longest);
    c.fewest_barriers = std::min<std::uint64_t>(c.fewest_barriers, most.size() - 1);
    for (int v = 0; v < unit_count; ++v) {
      c.fewest[v] = std::min(c.fewest[v], fewest[v]);
      c.longest_without[v] = std::max(c.longest_without[v], longest_without[v]);
    }
  }
  for (std::uint32_t w = 0; w < W; ++w)
    for (unit u : prob.kernel_of(w)) {
      if (u == unit::B)
        ++c.total_barriers;
      else
        ++c.total[static_cast<int>(u)];
    }
  return c;
}

}  // namespace

// Per-warp kernels (docs/makespan.md, "A path per warp"): the proof of bounds.hpp goes through
// with the path's own counts. The path issues P instructions, P_U of unit U; each cycle in which it
// stalls on U holds sigma_U instructions of U off the path (a cycle belongs to one stretch of the
// path, so the instructions of other warps in it are not on the path), and there are T_U - P_U of
// those. So M <= P + sum_U floor((T_U - P_U) / sigma_U) + the limit's stalls, each term of which
// grows with P or with T_U - P_U alone: P by its largest over the paths, P_U by its smallest (and
// for the second form P - P_V by its largest) give a bound for every path. With one string every
// path issues it: P = I, P_U = I_U, T_U - P_U = (W - 1) I_U, the formulas of before.
std::uint64_t pessimistic_bound(const problem& prob) {
  // The proof in bounds.hpp, in the two forms of exact/frontier.hpp's remaining_bound (which is
  // this bound for any state of the search, checked against brute force there), from the start:
  // R_U instructions of U off the path ((W - 1) I_U with one string). A type is full in a cycle
  // only with sigma_U of the other W - 1 warps issuing it, and the limit only with S of them, so a
  // sigma_U or an S above W - 1 never stalls the path.
  const path_counts c = paths_of(prob);
  const std::array<std::uint64_t, unit_count> m = shares_of(prob);
  const std::uint64_t W = prob.warps, S = prob.sm.schedulers;
  std::array<std::uint64_t, unit_count> R{}, full{};
  std::uint64_t others = 0, type_stalls = 0;
  for (int u = 0; u < unit_count; ++u) {
    R[u] = c.total[u] - (c.total[u] ? c.fewest[u] : 0);
    const auto sigma = static_cast<std::uint64_t>(std::max(prob.sm.sigma[u], 1));
    full[u] = c.total[u] && sigma <= W - 1 ? R[u] / sigma : 0;
    others += R[u];
    type_stalls += full[u];
  }
  // Barriers never stall the path (bounds.hpp) but take scheduler slots.
  const std::uint64_t barrier_others = c.total_barriers - (c.total_barriers ? c.fewest_barriers : 0);
  others += barrier_others;
  const std::uint64_t limit_stalls = S > 0 && S <= W - 1 ? others / S : 0;
  // First form: the path issues (at most `longest` cycles) or stalls on a full type or the limit.
  const std::uint64_t I = c.longest;
  std::uint64_t bound = I + type_stalls + limit_stalls;
  if (S > 0 && S <= W - 1) {  // a stall on either kind takes m_U = min(sigma_U, S) of the others' instructions
    std::uint64_t denominator = 1, numerator = 0;
    for (int u = 0; u < unit_count; ++u)
      if (c.total[u]) denominator = std::lcm(denominator, m[u]);
    if (barrier_others) denominator = std::lcm(denominator, S);
    for (int u = 0; u < unit_count; ++u) numerator += R[u] * (denominator / m[u]);
    numerator += barrier_others * (denominator / S);  // a barrier's m is S: only the limit stalls on it
    bound = std::min(bound, I + numerator / denominator);
  }
  // Second form, for each type V: a cycle issues a V (all warps' V, W I_V with one string) or the
  // path issues a non-V, or stalls on a full non-V type or the limit.
  for (int v = 0; v < unit_count; ++v) {
    if (!c.total[v]) continue;
    bound = std::min(bound, c.total[v] + c.longest_without[v] + (type_stalls - full[v]) + limit_stalls);
  }
  return bound;
}

std::uint64_t pessimistic_formula_001(const problem& prob) {
  // 001 Sec. 4: the W warps go through each instruction of type U in ceil(W / m_U) cycles, and no
  // two types overlap. Per-warp kernels: I_U of the warp with the most.
  const std::array<std::uint64_t, unit_count> m = shares_of(prob);
  std::array<std::uint64_t, unit_count> count{};
  for (std::uint32_t w = 0; w < prob.warps; ++w) {
    if (w > 0 && (!prob.per_warp() || prob.group_of(w) == prob.group_of(w - 1))) continue;
    const kernel_string& k = prob.kernel_of(w);
    for (int u = 0; u < unit_count; ++u)
      count[u] = std::max<std::uint64_t>(
          count[u], static_cast<std::uint64_t>(std::count(k.begin(), k.end(), static_cast<unit>(u))));
  }
  std::uint64_t total = 0;
  for (int u = 0; u < unit_count; ++u) total += (prob.warps + m[u] - 1) / m[u] * count[u];
  return total;
}

}  // namespace warpspan
