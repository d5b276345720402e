// The progress sweep across ranks (exact_sweep_ranks) and exact's warm start (run_exact) on ranks
// that are threads (tests/thread_ranks.hpp): the exchange of successors, the agreement after every
// sum and rank 0's broadcast of the warm start run in every build, sanitizers included, and give
// one process's answer, witness and counts. (The MPI builds also compare mpirun -n 2 and 3.)
#include <gtest/gtest.h>

#include <random>

#include "test_util.hpp"
#include "thread_ranks.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/exact/sweep_ranks.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/orchestrator/exact_run.hpp"

namespace warpspan {
namespace {

exact_options one_thread() {
  exact_options o;
  o.threads = 1;
  return o;
}

void expect_same(const exact_result& a, const exact_result& b, const std::string& what) {
  EXPECT_EQ(a.complete, b.complete) << what;
  EXPECT_EQ(a.makespan, b.makespan) << what;
  EXPECT_EQ(a.lower, b.lower) << what;
  EXPECT_EQ(a.upper, b.upper) << what;
  EXPECT_EQ(a.states, b.states) << what;
  EXPECT_EQ(a.pruned, b.pruned) << what;
  EXPECT_EQ(a.best_string, b.best_string) << what;
}

TEST(ExactRanks, SweepAcrossThreadRanksEqualsOneProcess) {
  std::mt19937_64 rng(23);
  std::vector<problem> problems{test::make("5L9C2L9C", 6, 1, 4), test::make("LCL", 5, 1, 1)};
  for (int k = 0; k < 4; ++k) problems.push_back(test::random_problem(rng, 6, 7));
  for (const problem& prob : problems)
    for (const bool prune : {true, false}) {
      exact_options o = one_thread();
      o.prune = prune;
      const exact_result one = exact_sweep_cpu(prob, o);
      EXPECT_EQ(build_schedule(prob, one.best_string).makespan, one.makespan);
      for (const int n : {2, 3}) {
        const auto results =
            test::on_thread_ranks<exact_result>(n, [&](rank_group& g) { return exact_sweep_ranks(prob, o, g); });
        for (const exact_result& r : results)
          expect_same(
              r, one,
              "W " + std::to_string(prob.warps) + ", " + std::to_string(n) + " ranks, prune " + std::to_string(prune));
      }
    }
}

TEST(ExactRanks, StoppedByTheStateLimitEveryRankProvesTheSameInterval) {
  const problem prob = test::make("5L9C2L9C", 7, 1, 4);
  exact_options o = one_thread();
  o.max_states = 3000;
  const exact_result one = exact_sweep_cpu(prob, o);
  ASSERT_FALSE(one.complete);
  const auto results =
      test::on_thread_ranks<exact_result>(3, [&](rank_group& g) { return exact_sweep_ranks(prob, o, g); });
  for (const exact_result& r : results) {
    EXPECT_FALSE(r.complete);
    EXPECT_EQ(r.lower, results[0].lower);
    EXPECT_EQ(r.upper, results[0].upper);
    EXPECT_EQ(r.best_string, results[0].best_string);
    EXPECT_LE(r.lower, 77u);  // T(7) = 77 (exact, below)
    EXPECT_GE(r.upper, 77u);
    EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.lower);
  }
}

TEST(RunExact, WarmStartKeepsTheAnswerAndPrunesAgainstIt) {
  const problem prob = test::make("5L9C2L9C", 6, 1, 4);
  const exact_result cold = run_exact(prob, one_thread(), 0, backend_kind::cpu);
  expect_same(cold, exact_search(prob, one_thread(), backend_kind::cpu), "warm start 0 is exact_search");
  const exact_result warm = run_exact(prob, one_thread(), 20000, backend_kind::cpu);
  EXPECT_TRUE(warm.complete);
  EXPECT_EQ(warm.makespan, cold.makespan);
  EXPECT_EQ(warm.makespan, 67u);  // T(6) of the Voronoi kernel
  EXPECT_EQ(build_schedule(prob, warm.best_string).makespan, warm.makespan);
  // The annealing's string prunes at least as much as the standard strings do.
  EXPECT_GE(warm.pruned, cold.pruned);
  // A lower string given by the caller is used as it is (no annealing).
  exact_options given = one_thread();
  given.lower_string = cold.best_string;
  expect_same(run_exact(prob, given, 20000, backend_kind::cpu), exact_search(prob, given, backend_kind::cpu),
              "a given lower string");
}

TEST(RunExact, WarmStartAcrossThreadRanksIsRankZerosForAll) {
  const problem prob = test::make("5L9C2L9C", 6, 1, 4);
  // One process would take the dense sweep (no warm start); a state limit asks for the hash sweep,
  // the one the ranks run, so that counts and witness compare.
  exact_options o = one_thread();
  o.max_states = std::uint64_t{1} << 40;
  std::string used;
  const exact_result one = run_exact(prob, o, 5000, backend_kind::cpu, &used);
  EXPECT_EQ(used, "sweep");
  EXPECT_EQ(one.makespan, 67u);
  EXPECT_EQ(run_exact(prob, one_thread(), 5000, backend_kind::cpu, &used).makespan, 67u);
  EXPECT_EQ(used, "dense");
  const auto results = test::on_thread_ranks<exact_result>(
      2, [&](rank_group& g) { return run_exact(prob, o, 5000, backend_kind::cpu, nullptr, &g); });
  for (const exact_result& r : results) expect_same(r, one, "2 ranks");
}

}  // namespace
}  // namespace warpspan
