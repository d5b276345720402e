// The exact search against independent brute force (every work-conserving schedule warp by warp,
// and the best over all pseudo-precedence strings), the values MODEL.md gives, and its witnesses.
#include <gtest/gtest.h>

#include <chrono>

#include <random>
#include <string>

#include "brute_force.hpp"
#include "test_util.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/interval.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

void expect_witness(const problem& prob, const exact_result& r) {
  ASSERT_TRUE(r.complete);
  ASSERT_EQ(r.best_string.size(), prob.length());
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.makespan);
}

TEST(ExactSearch, EqualsBruteForceOnRandomSmallCases) {
  std::mt19937_64 rng(4242);
  const char letters[] = {'L', 'C', 'S', 'D'};
  int limited = 0;
  for (int k = 0; k < 120; ++k) {
    const int ntypes = 1 + static_cast<int>(rng() % 4);
    std::string kernel;
    const int len = 1 + static_cast<int>(rng() % 5);
    for (int i = 0; i < len; ++i) kernel.push_back(letters[rng() % ntypes]);
    const int warps = 1 + static_cast<int>(rng() % 4);
    int sigma[4] = {0, 0, 0, 0};
    for (int t = 0; t < 4; ++t) sigma[t] = 1 + static_cast<int>(rng() % 2);
    const int schedulers = rng() % 3 == 0 ? 1 + static_cast<int>(rng() % 2) : 0;
    limited += schedulers > 0;
    const problem prob = test::make(kernel, warps, sigma[0], sigma[1], sigma[2], sigma[3], schedulers);
    const exact_result r = exact_search_cpu(prob);
    ASSERT_EQ(r.makespan, test::brute_worst(prob)) << kernel << " W=" << warps << " schedulers " << schedulers;
    expect_witness(prob, r);
  }
  EXPECT_GT(limited, 20);
}

TEST(ExactSearch, PaperFigures) {
  // LCL, W = 4 and LCCL, W = 3 with sigma = 1: the worst cases are at least the figures' schedules
  // (9 for Fig. 5's string, 8 for Fig. 6) and equal brute force.
  const problem lcl = test::make("LCL", 4, 1, 1);
  const exact_result a = exact_search_cpu(lcl);
  EXPECT_GE(a.makespan, 9u);
  EXPECT_EQ(a.makespan, test::brute_worst(lcl));
  expect_witness(lcl, a);
  const problem lccl = test::make("LCCL", 3, 1, 1);
  const exact_result b = exact_search_cpu(lccl);
  EXPECT_GE(b.makespan, 8u);
  EXPECT_EQ(b.makespan, test::brute_worst(lccl));
}

TEST(ExactSearch, VoronoiFirstWarps) {
  // MODEL.md: an independent exhaustive search gives T(1..4) = 25, 31, 37, 45 for 5L9C2L9C with
  // sigma_L = 1, sigma_C = 4, and T(4) = 44 for 5L9C2L8C.
  const std::uint32_t expect[] = {25, 31, 37, 45};
  for (int w = 1; w <= 4; ++w) {
    const problem prob = test::make("5L9C2L9C", w, 1, 4);
    const exact_result r = exact_search_cpu(prob);
    EXPECT_EQ(r.makespan, expect[w - 1]) << "W = " << w;
    expect_witness(prob, r);
  }
  EXPECT_EQ(exact_search_cpu(test::make("5L9C2L8C", 4, 1, 4)).makespan, 44u);
  // The warp-by-warp search (no multisets) agrees: 45, and 44 with one C fewer.
  EXPECT_EQ(test::brute_worst(test::make("5L9C2L9C", 4, 1, 4)), 45u);
  EXPECT_EQ(test::brute_worst(test::make("5L9C2L8C", 4, 1, 4)), 44u);
}

TEST(ExactSearch, LimitsGiveAProvenInterval) {
  const problem prob = test::make("5L9C2L9C", 8, 1, 4);
  exact_options o;
  o.max_states = 1000;
  const exact_result r = exact_search_cpu(prob, o.depth_first());
  EXPECT_FALSE(r.complete);
  EXPECT_NE(r.stop_reason.find("state limit"), std::string::npos);
  EXPECT_LE(r.lower, r.upper);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.lower);
}

TEST(ExactSearch, LongKernelsNeedNoDeepCallStack) {
  // The depth-first search once recursed per cycle and overflowed the stack near 800 cycles. With
  // sigma_C = 1 only one C issues per cycle, so W warps of 400 C take 400 W cycles.
  const problem two = test::make("400C", 2, 0, 1);
  const exact_result r = exact_search_cpu(two);
  EXPECT_EQ(r.makespan, 800u);
  expect_witness(two, r);
  // 300C300L with sigma_L = 1, sigma_C = 4: one warp runs 600 cycles; two do their C side by side
  // (300 cycles) and then queue for L (600 more), 900.
  EXPECT_EQ(exact_search_cpu(test::make("300C300L", 1, 1, 4)).makespan, 600u);
  const problem cl = test::make("300C300L", 2, 1, 4);
  const exact_result b = exact_search_cpu(cl);
  EXPECT_EQ(b.makespan, 900u);
  expect_witness(cl, b);
}

TEST(ExactSearch, MakespansBeyondSixteenBits) {
  // The memo held 16-bit values: 70,000 cycles would have wrapped to 4,464.
  const problem prob = test::make("70000C", 1, 0, 1);
  const exact_result r = exact_search_cpu(prob);
  EXPECT_EQ(r.makespan, 70000u);
  expect_witness(prob, r);
  const problem mixed = test::make("35000L35001C", 1, 1, 1);
  EXPECT_EQ(exact_search(mixed, {}, backend_kind::cpu).makespan, 70001u);
}

TEST(ExactSearch, TractableEstimate) {
  // min over y of ceil(W / y) T(y): W = 16, T = 25, 31, 37, 45 -> 16*25, 8*31, 6*37, 4*45 = 180 at y = 4.
  const auto [value, y] = tractable_estimate(16, {25, 31, 37, 45});
  EXPECT_EQ(value, 180u);
  EXPECT_EQ(y, 4u);
}

TEST(ExactSearch, TimeLimitBoundsTheWholeCallBeyondSixteenWarps) {
  // 20 warps: states by their bytes (not packed). The limit covers the search and freeing its
  // memo (a node-based map of millions of states took seconds to free: 60 s limits ended at 75-86 s
  // with elapsed_s saying 60). 2 s of slack for a loaded machine and the sanitizers.
  const problem prob = test::make("5L9C2L9C", 20, 1, 4);
  exact_options o;
  o.time_limit_s = 1.0;
  const auto start = std::chrono::steady_clock::now();

  const exact_result r = exact_search_cpu(prob, o.depth_first());

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_FALSE(r.complete);
  EXPECT_EQ(r.stop_reason, "time limit reached");
  EXPECT_GT(r.states, 0u);
  EXPECT_LT(wall, o.time_limit_s + 2.0);
  EXPECT_LT(wall - r.elapsed_s, 0.5);
}

TEST(ExactSearch, LongKernelsGetAProvenIntervalFromTheDepthFirstSearch) {
  // 300 instructions on 9 warps do not pack (past 254 instructions 16-bit levels hold 8 warps): the
  // estimate's proof takes the depth-first search, which answers exactly, rather than leaving the
  // pessimistic bound as the upper end. (On 2 warps they pack at 16 bits: the level searches prove
  // it, tests/exact/test_wide_levels.cpp; the same answer here.)
  for (const problem& prob : {test::make("250C2L1S47C", 9, 1, 9, 2), test::make("100L100C100L", 2, 1, 2)}) {
    EXPECT_EQ(frontier_packs(prob), prob.warps == 2);
    const std::uint32_t worst = exact_search_cpu(prob).makespan;
    const proven_interval p = prove_interval(prob, round_robin_string(prob.view()), 30.0, backend_kind::cpu);
    EXPECT_TRUE(p.exact);
    EXPECT_EQ(p.upper, worst);
    EXPECT_EQ(p.lower, worst);
    EXPECT_EQ(p.upper_from, "exact");
    EXPECT_LT(worst, pessimistic_bound(prob));  // the bound alone would not have closed it
  }
}

}  // namespace
}  // namespace warpspan
