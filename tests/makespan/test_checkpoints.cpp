// The checkpointed rebuild (checkpoints.hpp) against the shared step: the same trajectory, step by
// step (state, string, schedule and best string after every iteration).
#include <gtest/gtest.h>

#include <atomic>
#include <fstream>
#include <random>
#include <string>

#include "test_util.hpp"
#include "warpspan/detail/makespan/checkpoints.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {
namespace {

/// One chain's block, started on `start`.
struct lone {
  chain_layout layout;
  std::vector<unsigned char> block;
  chain_view view;
  chain_state state;
  lone(const problem_view& p, const std::vector<std::uint16_t>& start)
      : layout(make_chain_layout(p)), block(layout.bytes, 0), view(chain_view_at(block.data(), layout)) {
    std::copy(start.begin(), start.end(), view.str);
    anneal_init(p, view, best(), state);
  }
  std::uint16_t* best() { return chain_best_at(block.data(), layout); }
};

/// Runs `iters` steps of both and stops at the first difference; returns how many steps matched.
std::uint64_t compare_trajectories(const problem& prob, const std::vector<std::uint16_t>& start, const anneal_params& a,
                                   std::uint32_t chain_id, std::uint32_t interval, std::uint64_t iters) {
  const problem_view p = prob.view();
  lone shared(p, start), checked(p, start);
  chain_checkpoints cp(p, interval);
  cp.capture(p, checked.view);
  const std::size_t n = p.length;
  for (std::uint64_t k = 0; k < iters; ++k) {
    anneal_step(p, shared.view, shared.best(), shared.state, a, chain_id);
    anneal_step_by(p, checked.view, checked.best(), checked.state, a, chain_id, cp);
    const bool same = shared.state.makespan == checked.state.makespan && shared.state.best == checked.state.best &&
                      shared.state.best_iter == checked.state.best_iter && shared.state.iter == checked.state.iter &&
                      std::equal(shared.view.str, shared.view.str + n, checked.view.str) &&
                      std::equal(shared.view.cycle, shared.view.cycle + n, checked.view.cycle) &&
                      std::equal(shared.best(), shared.best() + n, checked.best());
    if (!same) {
      ADD_FAILURE() << "trajectories part at iteration " << k << " (interval " << interval << ", makespan "
                    << shared.state.makespan << " vs " << checked.state.makespan << ")";
      return k;
    }
  }
  return iters;
}

anneal_params params(std::uint64_t seed, std::uint32_t reach, double t0, std::uint32_t far = 0) {
  anneal_params a;
  a.seed = seed;
  a.iter_max = 20000;
  a.t0 = t0;
  a.reach = reach;
  a.far = far;
  return a;
}

problem voronoi_from_data(int warps, int schedulers = 0) {
  std::ifstream in(test::source_path("data/kernels/voronoi.txt"));
  std::string kernel;
  in >> kernel;
  return test::make(kernel, warps, 1, 4, 0, 0, schedulers);
}

TEST(Checkpoints, VoronoiW16SameTrajectoryAsTheSharedStep) {
  const problem prob = voronoi_from_data(16);
  const problem_view p = prob.view();
  for (std::uint32_t interval : {16u, 32u, 64u}) {
    // The estimator's reach (4 W) and T0 from round robin; a whole-string reach and a hot chain
    // (many acceptances) from a random string; far moves.
    EXPECT_EQ(compare_trajectories(prob, round_robin_string(p), params(1, 64, 0.01), 0, interval, 20000), 20000u);
    EXPECT_EQ(compare_trajectories(prob, random_string(p, 7, 3), params(7, 0, 0.3), 3, interval, 20000), 20000u);
    EXPECT_EQ(compare_trajectories(prob, most_pending_string(p), params(3, 16, 1.0, 205), 1, interval, 20000), 20000u);
  }
}

TEST(Checkpoints, SchedulerLimitAndSigmaVariantsSameTrajectory) {
  const problem limited = voronoi_from_data(16, 2);
  const problem two_c = test::make("5L9C2L9C", 12, 2, 2);
  const problem mixed = test::make("LCSDLLCSSD", 9, 1, 2, 3, 1, 1);
  for (const problem* prob : {&limited, &two_c, &mixed}) {
    const problem_view p = prob->view();
    for (std::uint32_t interval : {1u, 7u, 32u}) {
      EXPECT_EQ(compare_trajectories(*prob, random_string(p, 5, 0), params(5, 4 * p.warps, 0.05), 0, interval, 20000),
                20000u);
      EXPECT_EQ(compare_trajectories(*prob, fixed_priority_string(p), params(9, 0, 0.3, 100), 2, interval, 20000),
                20000u);
    }
  }
}

TEST(Checkpoints, SmallRandomProblemsSameTrajectory) {
  std::mt19937 rng(26);
  for (int t = 0; t < 40; ++t) {
    const problem prob = test::random_problem(rng, 8, 8);
    const problem_view p = prob.view();
    const std::uint32_t interval = 1 + static_cast<std::uint32_t>(rng() % 20);
    const std::uint32_t reach = static_cast<std::uint32_t>(rng() % 10);
    EXPECT_EQ(compare_trajectories(prob, random_string(p, t, 0), params(t, reach, 0.3, 300), 0, interval, 2000), 2000u)
        << "problem " << t;
  }
}

TEST(Checkpoints, CpuRunnerWithAndWithoutThemAgrees) {
  // The runner's chains (estimate's mix of initial strings, far moves) with checkpoints, as
  // estimate runs them within its memory budget, and without, as it runs them past it.
  const problem prob = voronoi_from_data(16);
  chain_setup setup;
  setup.prob = &prob;
  setup.params = params(11, 64, 0.01, 512);
  for (std::uint32_t c = 0; c < 4; ++c) {
    setup.chain_ids.push_back(c);
    const auto s = initial_string(prob.view(), static_cast<initial_kind>(c), 11, c);
    setup.initial.insert(setup.initial.end(), s.begin(), s.end());
  }
  auto with = make_cpu_runner(setup, 2);
  setup.checkpoints = false;
  auto without = make_cpu_runner(setup, 1);
  with->advance(7000);
  without->advance(7000);
  // A round that stops part-way keeps a consistent state: both resume to the same end.
  std::atomic<int> asked{0};
  with->advance_until(6000, [&] { return ++asked > 9000; });
  without->advance(20000);
  with->advance(20000);
  const auto a = with->summaries(), b = without->summaries();
  for (std::size_t c = 0; c < a.size(); ++c) {
    EXPECT_EQ(a[c].best, b[c].best);
    EXPECT_EQ(a[c].current, b[c].current);
    EXPECT_EQ(a[c].best_iter, b[c].best_iter);
    EXPECT_EQ(a[c].iter, 20000u);
    EXPECT_EQ(with->best_string(c), without->best_string(c));
  }
}

TEST(Checkpoints, IntervalKeepsTheCheckpointsWithinTheirBudget) {
  const problem small = voronoi_from_data(16);
  EXPECT_EQ(checkpoint_interval(small.view()), default_checkpoint_interval);
  // A long string: the interval grows until the checkpoints fit max(128 KiB, 8 blocks).
  const problem big = voronoi_from_data(400);
  const problem_view p = big.view();
  const std::uint32_t interval = checkpoint_interval(p);
  EXPECT_GT(interval, default_checkpoint_interval);
  EXPECT_LE(checkpoint_bytes(p, interval), std::max<std::uint64_t>(128 << 10, 8 * make_chain_layout(p).bytes));
  EXPECT_GT(checkpoint_bytes(p, interval / 2), std::max<std::uint64_t>(128 << 10, 8 * make_chain_layout(p).bytes));
}

}  // namespace
}  // namespace warpspan
