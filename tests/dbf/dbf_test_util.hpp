// Small random tasks and brute-force path enumeration for the dbf tests. The brute force builds T'
// from the task by itself (not through unroll()) and enumerates every path.
#pragma once

#include <algorithm>
#include <cstdint>
#include <functional>
#include <random>
#include <vector>

#include "warpspan/dbf/dbf.hpp"

namespace warpspan::test {

/// A random valid task: vertex 0 the source, the last the sink, each vertex after 0 has a
/// predecessor before it and each before the last a successor after it, values in small ranges.
inline task random_small_task(std::mt19937_64& rng, std::uint32_t max_vertices, std::uint64_t max_wcet,
                              std::uint64_t max_slack, const std::string& name = "T") {
  auto pick = [&](std::uint64_t lo, std::uint64_t hi) { return lo + rng() % (hi - lo + 1); };
  task t;
  t.name = name;
  const std::uint32_t n = static_cast<std::uint32_t>(pick(1, max_vertices));
  for (std::uint32_t v = 0; v < n; ++v) {
    const std::uint64_t e = pick(1, max_wcet);
    t.vertices.push_back({"v" + std::to_string(v + 1), e, e + pick(0, max_slack)});
  }
  std::vector<std::vector<bool>> has(n, std::vector<bool>(n, false));
  auto add = [&](std::uint32_t u, std::uint32_t v) {
    if (has[u][v]) return;
    has[u][v] = true;
    t.edges.push_back({u, v, t.vertices[u].deadline + pick(0, max_slack)});
  };
  for (std::uint32_t v = 1; v < n; ++v) add(static_cast<std::uint32_t>(pick(0, v - 1)), v);
  for (std::uint32_t u = 0; u + 1 < n; ++u) {
    bool out = false;
    for (std::uint32_t v = u + 1; v < n; ++v) out = out || has[u][v];
    if (!out) add(u, static_cast<std::uint32_t>(pick(u + 1, n - 1)));
    for (std::uint32_t v = u + 1; v < n; ++v)
      if (rng() % 4 == 0) add(u, v);
  }
  // The smallest period the model allows, plus some slack.
  std::vector<std::uint64_t> longest(n, 0);
  for (std::uint32_t v = 0; v < n; ++v)
    for (const auto& e : t.edges)
      if (e.to == v) longest[v] = std::max(longest[v], longest[e.from] + e.separation);
  t.period = longest[n - 1] + t.vertices[n - 1].deadline + pick(0, 3 * max_slack + 2);
  return t;
}

/// Every path of T' built directly from the task: (span, demand) pairs.
struct brute_paths {
  std::vector<std::pair<std::uint64_t, std::uint64_t>> paths;

  explicit brute_paths(const task& t) {
    const std::uint32_t n = static_cast<std::uint32_t>(t.vertices.size());
    std::uint32_t source = 0, sink = 0;
    for (std::uint32_t v = 0; v < n; ++v) {
      bool in = false, out = false;
      for (const auto& e : t.edges) {
        in = in || e.to == v;
        out = out || e.from == v;
      }
      if (!in) source = v;
      if (!out) sink = v;
    }
    // Node (copy, v) -> index copy * n + v. The first copy's source is the dummy.
    const std::uint32_t m = 2 * n;
    std::vector<std::uint64_t> e(m), d(m);
    std::vector<std::vector<std::pair<std::uint32_t, std::uint64_t>>> out(m);  // (to, separation)
    for (std::uint32_t c = 0; c < 2; ++c)
      for (std::uint32_t v = 0; v < n; ++v) {
        const bool dummy = c == 0 && v == source;
        e[c * n + v] = dummy ? 0 : t.vertices[v].wcet;
        d[c * n + v] = dummy ? 0 : t.vertices[v].deadline;
      }
    for (std::uint32_t c = 0; c < 2; ++c)
      for (const auto& ed : t.edges)
        out[c * n + ed.from].push_back({c * n + ed.to, (c == 0 && ed.from == source) ? 0 : ed.separation});
    out[sink].push_back({n + source, t.vertices[sink].deadline});
    std::function<void(std::uint32_t, std::uint64_t, std::uint64_t)> walk = [&](std::uint32_t v, std::uint64_t seps,
                                                                                std::uint64_t demand) {
      paths.push_back({seps + d[v], demand});
      for (const auto& [w, p] : out[v]) walk(w, seps + p, demand + e[w]);
    };
    for (std::uint32_t v = 0; v < m; ++v) walk(v, 0, e[v]);
  }

  std::uint64_t small(std::uint64_t t) const {
    std::uint64_t best = 0;
    for (const auto& [span, demand] : paths)
      if (span <= t) best = std::max(best, demand);
    return best;
  }
  /// The shortest span of a path with demand exactly `demand` (dbf_inf if none).
  std::uint64_t min_span(std::uint64_t demand) const {
    std::uint64_t best = dbf_inf;
    for (const auto& [span, dm] : paths)
      if (dm == demand) best = std::min(best, span);
    return best;
  }
};

/// E(T) by enumerating source-to-sink paths.
inline std::uint64_t brute_E(const task& t) {
  std::function<std::uint64_t(std::uint32_t)> best = [&](std::uint32_t v) {
    std::uint64_t after = 0;
    for (const auto& e : t.edges)
      if (e.from == v) after = std::max(after, best(e.to));
    return t.vertices[v].wcet + after;
  };
  std::uint64_t out = 0;
  for (std::uint32_t v = 0; v < t.vertices.size(); ++v) {
    bool in = false;
    for (const auto& e : t.edges) in = in || e.to == v;
    if (!in) out = std::max(out, best(v));
  }
  return out;
}

/// dbf(t) by eq. (1) over brute-force dbf_small.
inline std::uint64_t brute_dbf(const brute_paths& b, std::uint64_t E, std::uint64_t P, std::uint64_t t) {
  const std::uint64_t q = t / P, r = t % P;
  std::uint64_t v = q * E + b.small(r);
  if (q >= 1) v = std::max(v, (q - 1) * E + b.small(P + r));
  return v;
}

}  // namespace warpspan::test
