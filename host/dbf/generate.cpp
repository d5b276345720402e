// Seeded random recurring tasks (the experiment of paper 003 Sec. V). Every random quantity is one
// Philox draw keyed by (seed, task index, set index, draw number), so a task does not depend on how
// many tasks or sets are generated around it.
#include "warpspan/dbf/generate.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <string>
#include <utility>

#include "warpspan/core/error.hpp"
#include "warpspan/core/rng.hpp"

namespace warpspan {
namespace {

/// A task takes one draw per vertex pair (a 32-bit draw counter would allow ~92,000 vertices); this
/// is far beyond the paper's 50 and keeps one task's generation to a second or two.
constexpr std::uint32_t max_generated_vertices = 10000;

/// prefix + number, written so that GCC 12 raises no false -Wrestrict on operator+.
std::string numbered(char prefix, std::uint64_t number) {
  std::string s(1, prefix);
  s += std::to_string(number);
  return s;
}

/// The draws of one task, in order.
class task_draws {
 public:
  task_draws(std::uint64_t seed, std::uint64_t set_index, std::uint32_t task_index)
      : seed_(seed), set_index_(set_index), task_index_(task_index) {}

  /// Uniform in [lo, hi]; the options' checks keep hi - lo below 2^31.
  std::uint64_t uniform(std::uint64_t lo, std::uint64_t hi) {
    return lo + bounded(next().v[0], static_cast<std::uint32_t>(hi - lo + 1));
  }

  /// Uniform in [0, 1).
  double unit() {
    const philox_out r = next();
    return unit_double(r.v[0], r.v[1]);
  }

 private:
  philox_out next() { return draw(seed_, task_index_, set_index_, draw_++); }

  std::uint64_t seed_;
  std::uint64_t set_index_;
  std::uint32_t task_index_;
  std::uint32_t draw_ = 0;
};

void check_range(bool ok, const std::string& what) {
  if (!ok) throw input_error("task generator: " + what);
}

/// The deadline factor f in use (0 means the number of tasks).
double deadline_factor(const task_generator_options& o) {
  return o.deadline_factor > 0 ? o.deadline_factor : static_cast<double>(o.tasks);
}

/// Refuses options whose worst case would exceed task_value_limit: a deadline is at most 2 f max_wcet,
/// a separation 4 f max_wcet, a path has vertices - 1 edges, and E is at most vertices x max_wcet.
void check_value_bounds(const task_generator_options& o) {
  const double w = static_cast<double>(o.max_wcet) * deadline_factor(o), n = static_cast<double>(o.vertices);
  const double limit = static_cast<double>(task_value_limit);
  const double longest_frame = (4.0 * (n - 1) + 2.0) * w;
  const double share_period = std::ceil(n * w * static_cast<double>(o.tasks) / o.utilization);
  check_range(2.0 * w <= limit, "max-wcet " + std::to_string(o.max_wcet) +
                                    " allows deadlines up to 2 f x max-wcet, over the limit " +
                                    std::to_string(task_value_limit));
  check_range(longest_frame <= limit, "vertices x max-wcet too large: periods could exceed the limit " +
                                          std::to_string(task_value_limit) + " (lower max-wcet or vertices)");
  check_range(share_period <= limit, "utilization share too small for these sizes: periods could exceed the limit " +
                                         std::to_string(task_value_limit) + " (raise utilization or lower max-wcet)");
}

void check_options(const task_generator_options& o) {
  check_range(
      o.vertices >= 2 && o.vertices <= max_generated_vertices,
      "vertices must be in [2, " + std::to_string(max_generated_vertices) + "], got " + std::to_string(o.vertices));
  check_range(o.tasks >= 1, "tasks must be at least 1");
  check_range(o.max_wcet >= 1 && o.max_wcet <= task_value_limit,
              "max-wcet must be in [1, " + std::to_string(task_value_limit) + "], got " + std::to_string(o.max_wcet));
  check_range(o.edge_probability >= 0.0 && o.edge_probability <= 1.0, "edge probability must be in [0, 1]");
  check_range(o.utilization > 0.0 && std::isfinite(o.utilization), "utilization must be a positive number");
  check_range(o.utilization <= 0.95 * o.tasks,
              "utilization " + std::to_string(o.utilization) + " cannot be met by " + std::to_string(o.tasks) +
                  " task(s): a task's share is at most 1 (its wcet along a path fills its period), and above 0.95 per "
                  "task the split hardly ever fits; use more tasks");
  check_range(o.deadline_factor == 0.0 || (o.deadline_factor >= 1.0 && std::isfinite(o.deadline_factor)),
              "deadline factor must be 0 (the number of tasks) or at least 1");
  check_value_bounds(o);
}

/// Vertex 0 the only source, the last vertex the only sink; edges (u, v) with u < v, sorted.
std::set<std::pair<std::uint32_t, std::uint32_t>> random_dag(std::uint32_t n, double edge_probability,
                                                             task_draws& rng) {
  std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
  for (std::uint32_t v = 1; v < n; ++v) edges.emplace(static_cast<std::uint32_t>(rng.uniform(0, v - 1)), v);
  for (std::uint32_t u = 0; u < n; ++u)
    for (std::uint32_t v = u + 1; v < n; ++v)
      if (!edges.count({u, v}) && rng.unit() < edge_probability) edges.emplace(u, v);
  std::vector<bool> has_successor(n, false);
  for (const auto& e : edges) has_successor[e.first] = true;
  for (std::uint32_t u = 0; u + 1 < n; ++u)
    if (!has_successor[u]) edges.emplace(u, static_cast<std::uint32_t>(rng.uniform(u + 1, n - 1)));
  return edges;
}

/// Longest source-to-sink sum of separations plus d(sink): the shortest period the model allows.
/// Edges go from lower to higher index, so index order is topological.
std::uint64_t minimum_period(const task& t) {
  std::vector<std::uint64_t> reach(t.vertices.size(), 0);
  for (const auto& e : t.edges) reach[e.to] = std::max(reach[e.to], reach[e.from] + e.separation);
  return reach.back() + t.vertices.back().deadline;
}

/// Draws for the whole set (the utilisation split) use this task index, which no task has.
constexpr std::uint32_t set_stream = 0xFFFFFFFFu;

/// UUniFast-Discard (Bini and Buttazzo 2005; Davis and Burns 2009): the set's utilisation split
/// uniformly over the tasks, drawn again while any share exceeds 1.
std::vector<double> utilization_shares(const task_generator_options& o, std::uint64_t set_index) {
  task_draws rng(o.seed, set_index, set_stream);
  std::vector<double> shares(o.tasks);
  for (int attempt = 0; attempt < 100000; ++attempt) {
    double sum = o.utilization;
    bool fits = true;
    for (std::uint32_t i = 0; i + 1 < o.tasks; ++i) {
      const double next = sum * std::pow(rng.unit(), 1.0 / static_cast<double>(o.tasks - 1 - i));
      shares[i] = sum - next;
      fits = fits && shares[i] <= 1.0;
      sum = next;
    }
    shares[o.tasks - 1] = sum;
    if (fits && sum <= 1.0) return shares;
  }
  throw input_error("task generator: no split of utilization " + std::to_string(o.utilization) + " over " +
                    std::to_string(o.tasks) + " tasks with every share at most 1 was found; use more tasks");
}

/// Shrinks the deadlines and separations of `t` by `scale` < 1 (deadlines never below the wcet,
/// separations never below the deadline they follow: the frame separation of the model).
void compress_timing(task& t, double scale) {
  for (task_vertex& v : t.vertices)
    v.deadline = std::max<std::uint64_t>(
        v.wcet, static_cast<std::uint64_t>(std::floor(static_cast<double>(v.deadline) * scale)));
  for (task_edge& e : t.edges)
    e.separation = std::max<std::uint64_t>(
        t.vertices[e.from].deadline, static_cast<std::uint64_t>(std::floor(static_cast<double>(e.separation) * scale)));
}

}  // namespace

task generate_task(const task_generator_options& options, std::uint64_t set_index, std::uint32_t index) {
  check_options(options);
  task_draws rng(options.seed, set_index, index);
  task t;
  t.name = numbered('T', std::uint64_t{index} + 1);
  for (std::uint32_t v = 0; v < options.vertices; ++v) {
    task_vertex tv;
    tv.id = numbered('v', v + 1);
    tv.wcet = rng.uniform(1, options.max_wcet);
    const auto lo = static_cast<std::uint64_t>(std::ceil(deadline_factor(options) * static_cast<double>(tv.wcet)));
    tv.deadline = rng.uniform(lo, 2 * lo);
    t.vertices.push_back(std::move(tv));
  }
  for (const auto& [u, v] : random_dag(options.vertices, options.edge_probability, rng)) {
    const std::uint64_t du = t.vertices[u].deadline;
    t.edges.push_back({u, v, rng.uniform(du, 2 * du)});
  }
  // The period that gives the task its share u of the set's utilisation: ceil(E / u). Where the
  // graph's timing needs a longer period (its longest chain of separations plus d(sink)), the
  // deadlines and separations are compressed towards their smallest legal values until it fits;
  // a share the graph cannot reach even so (u above E over that minimum) leaves the task below it.
  const double share = utilization_shares(options, set_index)[index];
  const std::uint64_t E = max_path_wcet(t);
  // (A tiny share would ask for a period beyond the model's values: it gets the largest one.)
  const auto wanted = static_cast<std::uint64_t>(
      std::min(std::ceil(static_cast<double>(E) / share), static_cast<double>(task_value_limit)));
  for (int round = 0; round < 8 && minimum_period(t) > wanted; ++round)
    compress_timing(t, static_cast<double>(wanted) / static_cast<double>(minimum_period(t)));
  t.period = std::max(minimum_period(t), wanted);
  return t;
}

task_set generate_task_set(const task_generator_options& options, std::uint64_t set_index) {
  check_options(options);
  task_set set;
  set.tasks.reserve(options.tasks);
  for (std::uint32_t k = 0; k < options.tasks; ++k) set.tasks.push_back(generate_task(options, set_index, k));
  return set;
}

task fork_join_task(std::uint32_t width, std::uint64_t period) {
  task t;
  t.name = "wide";
  t.vertices.push_back({"s", 1, 1});
  for (std::uint32_t k = 0; k < width; ++k)
    t.vertices.push_back({std::string("m").append(std::to_string(k)), 1 + k % 3, 2});
  t.vertices.push_back({"t", 1, 1});
  const std::uint32_t sink = width + 1;
  for (std::uint32_t k = 1; k <= width; ++k) {
    t.edges.push_back({0, k, 1});
    t.edges.push_back({k, sink, 2 + k % 2});
  }
  t.period = period;
  return t;
}

}  // namespace warpspan
