#include <algorithm>
#include <list>

#include "warpspan/core/error.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {

std::string to_string(initial_kind k) {
  switch (k) {
    case initial_kind::round_robin: return "rr";
    case initial_kind::fixed_priority: return "fp";
    case initial_kind::most_pending: return "mpwf";
    case initial_kind::random: return "random";
  }
  return "?";
}

std::vector<std::uint16_t> round_robin_string(const problem_view& p) {
  std::vector<std::uint16_t> s;
  s.reserve(p.length);
  for (std::uint32_t j = 0; j < p.instructions; ++j)
    for (std::uint32_t w = 0; w < p.warps; ++w) s.push_back(static_cast<std::uint16_t>(w));
  return s;
}

std::vector<std::uint16_t> fixed_priority_string(const problem_view& p) {
  std::vector<std::uint16_t> s;
  s.reserve(p.length);
  for (std::uint32_t w = 0; w < p.warps; ++w)
    for (std::uint32_t j = 0; j < p.instructions; ++j) s.push_back(static_cast<std::uint16_t>(w));
  return s;
}

std::vector<std::uint16_t> most_pending_string(const problem_view& p) {
  // 000 Fig. 8: cycle by cycle, walk the pending list from head to tail once; a warp that can issue
  // its next instruction in this cycle does, and moves to the tail (or leaves when finished).
  std::vector<std::uint16_t> s;
  s.reserve(p.length);
  std::list<std::uint32_t> pending;
  for (std::uint32_t w = 0; w < p.warps; ++w) pending.push_back(w);
  std::vector<std::uint32_t> progress(p.warps, 0);
  std::vector<std::uint32_t> used(p.stride, 0);
  while (!pending.empty()) {
    std::fill(used.begin(), used.end(), 0);
    const std::size_t visits = pending.size();
    auto it = pending.begin();
    for (std::size_t v = 0; v < visits; ++v) {
      const std::uint32_t w = *it;
      const std::uint32_t ty = p.types[progress[w]];
      const bool fits = used[ty] < p.cap[ty] && (!p.limited || used[p.ntypes] < p.cap[p.ntypes]);
      if (!fits) {
        ++it;
        continue;
      }
      ++used[ty];
      if (p.limited) ++used[p.ntypes];
      s.push_back(static_cast<std::uint16_t>(w));
      it = pending.erase(it);
      if (++progress[w] < p.instructions) pending.push_back(w);
    }
  }
  return s;
}

std::vector<std::uint16_t> random_string(const problem_view& p, std::uint64_t seed, std::uint32_t chain) {
  // Fisher-Yates over the round-robin multiset with counter-based draws.
  std::vector<std::uint16_t> s = round_robin_string(p);
  for (std::uint32_t k = p.length; k > 1; --k) {
    const philox_out r = draw(seed, chain, k, init_tag);
    const std::uint32_t m = bounded(r.v[0], k);
    std::swap(s[k - 1], s[m]);
  }
  return s;
}

std::vector<std::uint16_t> initial_string(const problem_view& p, initial_kind kind, std::uint64_t seed,
                                          std::uint32_t chain) {
  switch (kind) {
    case initial_kind::round_robin: return round_robin_string(p);
    case initial_kind::fixed_priority: return fixed_priority_string(p);
    case initial_kind::most_pending: return most_pending_string(p);
    case initial_kind::random: return random_string(p, seed, chain);
  }
  throw input_error("unknown initial solution kind");
}

}  // namespace warpspan
