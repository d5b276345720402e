// The upper bounds against brute force: the work-conserving bound (makespan/bounds.hpp) holds for
// the exact worst case of random small problems, and the two formulas of 001 that the paper uses as
// bounds are not bounds under the model's semantics (docs/makespan.md, "Upper bounds").
#include <gtest/gtest.h>

#include <random>

#include "test_util.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

TEST(Bounds, PessimisticBoundHoldsForTheExactWorstCase) {
  std::mt19937_64 rng(2026);
  int tight = 0;
  for (int k = 0; k < 300; ++k) {
    const problem prob = test::random_problem(rng, 6, 5);
    const exact_result r = exact_search_cpu(prob);
    ASSERT_TRUE(r.complete);
    EXPECT_LE(r.makespan, pessimistic_bound(prob)) << "case " << k;
    EXPECT_LE(pessimistic_bound(prob), prob.length()) << "case " << k;  // never worse than W I
    tight += r.makespan == pessimistic_bound(prob);
  }
  EXPECT_GT(tight, 30);  // it is attained, often: the proof's worst case happens
}

TEST(Bounds, AtMostTheSearchsRemainingBoundAtTheStart) {
  // exact/frontier.hpp's remaining_bound makes the same argument for any state of the search.
  std::mt19937_64 rng(7);
  for (int k = 0; k < 500; ++k) {
    const problem prob = test::random_problem(rng, 16, 12);
    const frontier_view v = make_frontier_view(prob.view());
    std::vector<std::uint8_t> count(v.instructions + 1, 0);
    count[0] = static_cast<std::uint8_t>(prob.warps);
    EXPECT_LE(pessimistic_bound(prob), remaining_bound(v, count.data()))
        << "case " << k << ": " << to_run_length(prob.kernel) << " W " << prob.warps << " sigma " << prob.sm.sigma[0]
        << " " << prob.sm.sigma[1] << " " << prob.sm.sigma[2] << " " << prob.sm.sigma[3] << " S " << prob.sm.schedulers;
  }
}

TEST(Bounds, TheSection4FormulaOf001IsNotABound) {
  // 3 C instructions, sigma_C = 2, W = 4: warps 1 and 3 share cycles 2 and 3 while warp 2 waits,
  // warp 4 starts only in cycle 5 and runs its last two instructions alone.
  const problem prob = test::make("3C", 4, 1, 2);
  const std::vector<std::uint16_t> str{0, 1, 0, 2, 0, 2, 1, 2, 1, 3, 3, 3};
  const built_schedule b = build_schedule(prob, str);
  EXPECT_EQ(b.makespan, 7u);
  EXPECT_EQ(exact_search_cpu(prob).makespan, 7u);
  EXPECT_EQ(pessimistic_formula_001(prob), 6u);  // ceil(4 / 2) x 3
  EXPECT_EQ(pessimistic_bound(prob), 7u);        // 3 + floor(3 x 3 / 2): attained
}

TEST(Bounds, TheTractableEstimateOf001IsNotABound) {
  // LCL with sigma 1: T(2) = 4, yet T(4) = 9 > ceil(4 / 2) T(2) = 8 (eq. 42 with y = 2).
  std::vector<std::uint32_t> t;
  for (int w = 1; w <= 4; ++w) t.push_back(exact_search_cpu(test::make("LCL", w, 1, 1)).makespan);
  EXPECT_EQ(t, (std::vector<std::uint32_t>{3, 4, 7, 9}));
  EXPECT_EQ(tractable_estimate(4, {3, 4}).first, 8u);
  const problem four = test::make("LCL", 4, 1, 1);
  EXPECT_EQ(build_schedule(four, exact_search_cpu(four).best_string).makespan, 9u);
}

TEST(Bounds, VoronoiValues) {
  const problem voronoi = test::make("5L9C2L9C", 16, 1, 4);
  EXPECT_EQ(pessimistic_formula_001(voronoi), 184u);  // 16 x 7 + 4 x 18
  EXPECT_EQ(pessimistic_bound(voronoi), 197u);        // 25 + 15 x 7 + floor(15 x 18 / 4)
  // With every m_U = 1 (sigma 1, or one scheduler) the two agree: W I.
  EXPECT_EQ(pessimistic_bound(test::make("5L9C2L9C", 16, 1, 1)), 400u);
  EXPECT_EQ(pessimistic_formula_001(test::make("5L9C2L9C", 16, 1, 1)), 400u);
  EXPECT_EQ(pessimistic_bound(test::make("5L9C2L9C", 16, 1, 4, 0, 0, 1)), 400u);
}

}  // namespace
}  // namespace warpspan
