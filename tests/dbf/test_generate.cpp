// The seeded task generator: reproducible, valid by the model's rules, sized as
// asked, and meeting the utilisation target where the graphs allow it.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <set>

#include "warpspan/core/error.hpp"
#include "warpspan/dbf/generate.hpp"

namespace warpspan {
namespace {

task_generator_options generator_options(std::uint32_t vertices, std::uint32_t tasks, double p,
                                         std::uint64_t seed = 7) {
  task_generator_options o;
  o.vertices = vertices;
  o.tasks = tasks;
  o.max_wcet = 1000;
  o.edge_probability = p;
  o.utilization = 0.6;
  o.seed = seed;
  return o;
}

/// The model's shortest period: longest source-to-sink sum of separations plus
/// d(sink).
std::uint64_t minimum_period(const task& t) {
  std::vector<std::uint64_t> reach(t.vertices.size(), 0);
  for (std::uint32_t v : topological_order(t))
    for (const auto& e : t.edges)
      if (e.from == v) reach[e.to] = std::max(reach[e.to], reach[v] + e.separation);
  return reach.back() + t.vertices.back().deadline;
}

TEST(GenerateTasks, SameSeedGivesIdenticalSetsAndAnotherSeedDoesNot) {
  const auto o = generator_options(12, 3, 0.3);
  auto other = o;
  other.seed = 8;

  const std::string a = task_set_json(generate_task_set(o, 4));
  const std::string b = task_set_json(generate_task_set(o, 4));
  const std::string c = task_set_json(generate_task_set(other, 4));
  const std::string d = task_set_json(generate_task_set(o, 5));

  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_NE(a, d);
}

TEST(GenerateTasks, TaskDependsOnlyOnSeedSetAndIndex) {
  const auto o = generator_options(9, 4, 0.2);

  const task_set set = generate_task_set(o, 3);
  const task alone = generate_task(o, 3, 2);

  EXPECT_EQ(task_set_json(task_set{{alone}}), task_set_json(task_set{{set.tasks[2]}}));
}

TEST(GenerateTasks, EveryTaskIsValidAndSizedAsAsked) {
  for (std::uint32_t vertices : {2u, 3u, 17u, 50u}) {
    for (double p : {0.0, 0.25, 1.0}) {
      const auto o = generator_options(vertices, 5, p);
      for (std::uint64_t s = 0; s < 3; ++s) {
        const task_set set = generate_task_set(o, s);

        ASSERT_EQ(set.tasks.size(), 5u);
        for (std::size_t k = 0; k < set.tasks.size(); ++k) {
          const task& t = set.tasks[k];
          EXPECT_NO_THROW(validate_task(t)) << "n = " << vertices << ", p = " << p << ", set " << s;
          EXPECT_EQ(t.vertices.size(), vertices);
          EXPECT_EQ(t.name, "T" + std::to_string(k + 1));
          EXPECT_EQ(t.vertices.front().id, "v1");
          EXPECT_EQ(t.vertices.back().id, "v" + std::to_string(vertices));
        }
      }
    }
  }
}

TEST(GenerateTasks, ValuesFollowTheDocumentedRanges) {
  auto o = generator_options(20, 4, 0.3);
  for (double f : {0.0, 1.0, 2.5}) {
    o.deadline_factor = f;
    const double factor = f > 0 ? f : 4.0;  // 0: the number of tasks
    for (const task& t : generate_task_set(o, 1).tasks) {
      std::vector<int> indeg(t.vertices.size(), 0), outdeg(t.vertices.size(), 0);
      for (const auto& v : t.vertices) {
        EXPECT_GE(v.wcet, 1u);
        EXPECT_LE(v.wcet, o.max_wcet);
        // Drawn in [f e, 2 f e]; compressed towards e only where the task's
        // utilisation share needs a shorter period.
        const auto lo = static_cast<std::uint64_t>(std::ceil(factor * static_cast<double>(v.wcet)));
        EXPECT_GE(v.deadline, v.wcet);
        EXPECT_LE(v.deadline, 2 * lo);
      }
      for (const auto& e : t.edges) {
        EXPECT_LT(e.from, e.to);
        EXPECT_GE(e.separation, t.vertices[e.from].deadline);
        // Drawn in [d, 2 d] for the deadline as drawn (at most 2 f e).
        const auto lo = static_cast<std::uint64_t>(std::ceil(factor * static_cast<double>(t.vertices[e.from].wcet)));
        EXPECT_LE(e.separation, 4 * lo);
        ++indeg[e.to];
        ++outdeg[e.from];
      }
      EXPECT_EQ(indeg.front(), 0);
      EXPECT_EQ(outdeg.back(), 0);
      EXPECT_GE(t.period, minimum_period(t));
    }
  }
}

TEST(GenerateTasks, EdgeProbabilityOneGivesEveryForwardEdge) {
  const task t = generate_task(generator_options(11, 1, 1.0), 0, 0);

  EXPECT_EQ(t.edges.size(), 11u * 10u / 2u);
}

TEST(GenerateTasks, EdgeProbabilityZeroStillConnectsEveryVertexToTheSink) {
  const task t = generate_task(generator_options(30, 1, 0.0), 2, 0);

  // One spanning edge into each vertex but the first, plus at most one repair
  // edge out of each vertex.
  EXPECT_GE(t.edges.size(), 29u);
  EXPECT_LE(t.edges.size(), 29u + 28u);
  EXPECT_NO_THROW(validate_task(t));
}

TEST(GenerateTasks, UtilisationMeetsTheTargetWhenPeriodsAreNotForcedUp) {
  // A low target gives each task a share far below what the model's minimum
  // period allows.
  auto o = generator_options(15, 4, 0.2, 11);
  o.utilization = 0.25;

  for (std::uint64_t s = 0; s < 5; ++s) {
    const task_set set = generate_task_set(o, s);
    double u = 0;
    for (const task& t : set.tasks) {
      ASSERT_GT(t.period, minimum_period(t)) << "period forced up; pick a lower target";
      u += static_cast<double>(max_path_wcet(t)) / static_cast<double>(t.period);
    }

    EXPECT_LE(u, o.utilization);
    EXPECT_NEAR(u, o.utilization, 1e-3);
  }
}

TEST(GenerateTasks, HighUtilisationIsMetByCompressingTheTiming) {
  // 0.9 over three tasks: shares the drawn timing cannot reach (its minimum
  // period keeps a task near 1 / f), so deadlines and separations shrink.
  auto o = generator_options(10, 3, 0.2, 3);
  o.utilization = 0.9;
  for (std::uint64_t s = 0; s < 20; ++s) {
    double u = 0;
    for (const task& t : generate_task_set(o, s).tasks) {
      EXPECT_NO_THROW(validate_task(t));
      EXPECT_GE(t.period, minimum_period(t));
      u += static_cast<double>(max_path_wcet(t)) / static_cast<double>(t.period);
    }
    EXPECT_NEAR(u, o.utilization, 1e-3) << "set " << s;
  }
}

TEST(GenerateTasks, SharesFollowUUniFastAndNoneExceedsOne) {
  // Over many sets every task's share is at most 1, and the shares of a task
  // position average U / n (UUniFast is uniform on the simplex).
  auto o = generator_options(4, 3, 0.0, 5);
  o.utilization = 1.5;
  std::vector<double> mean(o.tasks, 0.0);
  constexpr int sets = 300;
  for (std::uint64_t s = 0; s < sets; ++s) {
    const task_set set = generate_task_set(o, s);
    for (std::size_t k = 0; k < set.tasks.size(); ++k) {
      const task& t = set.tasks[k];
      const double share = static_cast<double>(max_path_wcet(t)) / static_cast<double>(t.period);
      EXPECT_LE(share, 1.0 + 1e-9);
      mean[k] += share / sets;
    }
  }
  for (double m : mean) EXPECT_NEAR(m, 0.5, 0.05);
}

TEST(GenerateTasks, UtilisationBeyondWhatTheTasksCanCarryIsRefused) {
  auto o = generator_options(10, 2, 0.2);
  o.utilization = 1.95;  // more than 0.95 per task
  EXPECT_THROW(generate_task_set(o, 0), input_error);
  o.utilization = 1.9;
  EXPECT_NO_THROW(generate_task_set(o, 0));
}

TEST(GenerateTasks, InvalidOptionsAreRefused) {
  const auto good = generator_options(10, 3, 0.2);
  auto with = [&](auto change) {
    auto o = good;
    change(o);
    return o;
  };
  const std::vector<task_generator_options> bad = {
      with([](auto& o) { o.vertices = 1; }),
      with([](auto& o) { o.tasks = 0; }),
      with([](auto& o) { o.max_wcet = 0; }),
      with([](auto& o) { o.max_wcet = task_value_limit + 1; }),
      with([](auto& o) { o.max_wcet = task_value_limit / 4; }),  // separations could reach 4 x max_wcet
      with([](auto& o) { o.edge_probability = -0.1; }),
      with([](auto& o) { o.edge_probability = 1.5; }),
      with([](auto& o) { o.edge_probability = std::numeric_limits<double>::quiet_NaN(); }),
      with([](auto& o) { o.utilization = 0; }),
      with([](auto& o) { o.utilization = std::numeric_limits<double>::infinity(); }),
      with([](auto& o) { o.utilization = 1e-9; }),  // periods E / share would pass the value limit
  };

  for (std::size_t k = 0; k < bad.size(); ++k) {
    EXPECT_THROW(generate_task_set(bad[k], 0), input_error) << "case " << k;
    EXPECT_THROW(generate_task(bad[k], 0, 0), input_error) << "case " << k;
  }
}

TEST(GenerateTasks, LargestAcceptedValuesStayWithinTheLimit) {
  auto o = generator_options(2, 1, 0.0);
  o.max_wcet = task_value_limit / 8;  // (4 (n - 1) + 2) max_wcet = 6 max_wcet < limit

  const task t = generate_task(o, 0, 0);

  EXPECT_NO_THROW(validate_task(t));
  EXPECT_LE(t.period, task_value_limit);
}

}  // namespace
}  // namespace warpspan
