#include <algorithm>
#include <deque>
#include <utility>

#include "warpspan/core/error.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

std::string to_string(initial_kind k) {
  switch (k) {
    case initial_kind::round_robin: return "rr";
    case initial_kind::fixed_priority: return "fp";
    case initial_kind::most_pending: return "mpwf";
    case initial_kind::random: return "random";
    case initial_kind::starve: return "starve";
    case initial_kind::beam: return "beam";
  }
  return "?";
}

std::optional<initial_kind> parse_initial_kind(std::string_view word) {
  if (word == "mix") return std::nullopt;
  if (word == "rr") return initial_kind::round_robin;
  if (word == "fp") return initial_kind::fixed_priority;
  if (word == "mpwf") return initial_kind::most_pending;
  if (word == "random") return initial_kind::random;
  if (word == "starve") return initial_kind::starve;
  if (word == "beam") return initial_kind::beam;
  throw input_error(param("init") + ": unknown kind '" + std::string(word) +
                    "' (expected rr, fp, mpwf, starve, beam, random or mix)");
}

std::vector<std::uint16_t> round_robin_string(const problem_view& p) {
  std::vector<std::uint16_t> s;
  s.reserve(p.length);
  for (std::uint32_t j = 0; j < p.instructions; ++j)
    for (std::uint32_t w = 0; w < p.warps; ++w)
      if (j < warp_length(p, w)) s.push_back(static_cast<std::uint16_t>(w));
  return s;
}

std::vector<std::uint16_t> fixed_priority_string(const problem_view& p) {
  std::vector<std::uint16_t> s;
  s.reserve(p.length);
  for (std::uint32_t w = 0; w < p.warps; ++w)
    for (std::uint32_t j = 0; j < warp_length(p, w); ++j) s.push_back(static_cast<std::uint16_t>(w));
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
  for (std::uint32_t w = 0; w < p.warps; ++w) queue[type_at(p, w, 0)].emplace_back(ticket++, w);
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
      if (++progress[w] < warp_length(p, w)) queue[type_at(p, w, progress[w])].emplace_back(ticket++, w);
    }
  }
  return s;
}

std::vector<std::uint16_t> starved_string(const problem_view& p, std::uint32_t joined) {
  // The worst schedules of the corpus cases the other starts missed (issue 26) keep the busiest unit
  // full with W - 1 warps and leave one warp waiting until they are done, to run it alone at the end.
  // The builder places each instruction in the earliest cycle with room, so putting the last warp's
  // instructions after all the others' starves it exactly while they fill the units. Warps are
  // identical, so which one is starved does not matter (with per-warp kernels it is the last warp).
  std::vector<std::uint16_t> s;
  s.reserve(p.length);
  const std::uint32_t others = p.warps - 1;
  const std::uint32_t starved = warp_length(p, others);
  joined = std::min(joined, starved);
  for (std::uint32_t j = 0; j < p.instructions; ++j)
    for (std::uint32_t w = 0; w < (j < joined ? p.warps : others); ++w)
      if (j < warp_length(p, w)) s.push_back(static_cast<std::uint16_t>(w));
  for (std::uint32_t j = joined; j < starved; ++j) s.push_back(static_cast<std::uint16_t>(others));
  return s;
}

std::vector<std::uint16_t> starved_string(const problem_view& p) {
  // Where the starved warp starts to wait matters (on one corpus kernel, Volta's, the string that
  // starves it after its first 4 instructions builds the worst case; on Kepler's, starving it from
  // the start comes closest), so try several points and keep the longest schedule (the first among
  // equals). Each try is one build of about n steps; at most 32 tries,
  // fewer for long strings, so that the set-up stays within about 2^24 steps.
  const std::uint32_t tries = static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>((std::uint64_t{1} << 24) / std::max<std::uint32_t>(p.length, 1), 1, 32));
  const std::uint32_t points = std::min(tries, p.instructions);
  const chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> block(layout.bytes);
  const chain_view c = chain_view_at(block.data(), layout);
  std::vector<std::uint16_t> best;
  std::uint32_t longest = 0;
  for (std::uint32_t k = 0; k < points; ++k) {
    const auto joined = static_cast<std::uint32_t>(std::uint64_t{k} * p.instructions / points);
    auto s = starved_string(p, joined);
    keep_barriers(p, s);
    std::copy(s.begin(), s.end(), c.str);
    const std::uint32_t makespan = build_full_host(p, c);
    if (best.empty() || makespan > longest) {
      longest = makespan;
      best = std::move(s);
    }
  }
  return best;
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
  // Each kind as the paper makes it, then kept to the barriers (a warp's ids past one it may not
  // pass yet wait until its block has issued it): every chain starts from a string with a schedule.
  std::vector<std::uint16_t> s;
  switch (kind) {
    case initial_kind::round_robin: s = round_robin_string(p); break;
    case initial_kind::fixed_priority: s = fixed_priority_string(p); break;
    case initial_kind::most_pending: s = most_pending_string(p); break;
    case initial_kind::random: s = random_string(p, seed, chain); break;
    case initial_kind::starve: return starved_string(p);                          // kept to the barriers already
    case initial_kind::beam: throw input_error("unknown initial solution kind");  // made by the estimate
  }
  keep_barriers(p, s);
  return s;
}

}  // namespace warpspan
