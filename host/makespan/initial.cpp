#include <algorithm>
#include <deque>
#include <utility>

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

std::optional<initial_kind> parse_initial_kind(std::string_view word) {
  if (word == "mix") return std::nullopt;
  if (word == "rr") return initial_kind::round_robin;
  if (word == "fp") return initial_kind::fixed_priority;
  if (word == "mpwf") return initial_kind::most_pending;
  if (word == "random") return initial_kind::random;
  throw input_error(param("init") + ": unknown kind '" + std::string(word) + "' (expected rr, fp, mpwf, random or mix)");
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
  //
  // The walk is not done warp by warp (that costs W steps a cycle, W x makespan in all). A warp's
  // place in the list is a ticket, handed out in increasing order as warps join the tail, and each
  // type keeps its waiting warps in ticket order. Walking the list issues, for each type, the first
  // cap warps of that type (with a scheduler limit only as long as the cycle has room), in list
  // order: so the first cap of each type's queue, merged by ticket, cut at the scheduler limit.
  std::vector<std::uint16_t> s;
  s.reserve(p.length);
  std::vector<std::deque<std::pair<std::uint64_t, std::uint32_t>>> queue(p.ntypes);  // (ticket, warp)
  std::uint64_t ticket = 0;
  for (std::uint32_t w = 0; w < p.warps; ++w) queue[p.types[0]].emplace_back(ticket++, w);
  std::vector<std::uint32_t> progress(p.warps, 0);
  std::vector<std::pair<std::uint64_t, std::uint32_t>> issue;  // (ticket, type)
  while (s.size() < p.length) {
    issue.clear();
    for (std::uint32_t ty = 0; ty < p.ntypes; ++ty) {
      const std::size_t take = std::min<std::size_t>(queue[ty].size(), p.cap[ty]);
      for (std::size_t k = 0; k < take; ++k) issue.emplace_back(queue[ty][k].first, ty);
    }
    std::sort(issue.begin(), issue.end());
    if (p.limited && issue.size() > p.cap[p.ntypes]) issue.resize(p.cap[p.ntypes]);
    // The issued warps of a type are the front of its queue; they join the tail in list order.
    for (const auto& [t, ty] : issue) {
      const std::uint32_t w = queue[ty].front().second;
      queue[ty].pop_front();
      s.push_back(static_cast<std::uint16_t>(w));
      if (++progress[w] < p.instructions) queue[p.types[progress[w]]].emplace_back(ticket++, w);
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
