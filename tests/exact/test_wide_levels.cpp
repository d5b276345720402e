// Kernels past 254 instructions in the level searches and the beam (issue 40): their states pack at
// 16 bits a level (include/warpspan/exact/frontier.hpp, wide_frontier_view). Each search against the
// depth-first one (which takes any length), the brute force where it is tractable, and the 16-bit
// path forced on short kernels (wide_levels) against the 8-bit one.
#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "brute_force.hpp"
#include "test_util.hpp"
#include "thread_ranks.hpp"
#include "warpspan/exact/beam.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/exact/interval.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/exact/sweep_ranks.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

/// A kernel past 254 instructions, its sigmas (L, C, S) and scheduler limit, and W.
struct long_case {
  const char* kernel;
  int warps, sigma_l, sigma_c, sigma_s, schedulers;
  problem make() const { return test::make(kernel, warps, sigma_l, sigma_c, sigma_s, 0, schedulers); }
  std::string name() const {
    return std::string(kernel) + " W=" + std::to_string(warps) + " schedulers=" + std::to_string(schedulers);
  }
};

/// W = 2, 3, 4 and 8 at 300 and 600 instructions, with and without a scheduler limit (where it binds:
/// W = 4 and 8 with a limit of W bind only where several types are ready), and a barrier in one
/// block. Long runs of C with sigma_C = W keep the warps in step, so the states stay few enough for
/// the depth-first search; their contention straddles level 255, the first past 8 bits.
const std::vector<long_case>& long_cases() {
  static const std::vector<long_case> cases = {
      {"100L100C100L", 2, 1, 2, 0, 0},       {"100L100C100L", 2, 1, 2, 0, 1},
      {"100L1B100C99L", 2, 1, 2, 0, 0},      {"100L1B100C99L", 2, 1, 2, 0, 1},
      {"200L200C200L", 2, 1, 2, 0, 0},       {"250C2L1S47C", 3, 1, 3, 2, 0},
      {"250C4L2S3L1C3S337C", 3, 1, 3, 2, 3}, {"250C4L2S3L1C3S37C", 4, 1, 4, 2, 0},
      {"250C4L2S3L1C3S37C", 4, 1, 4, 2, 4},  {"120C1B130C4L2S3L1C3S37C", 4, 1, 4, 2, 4},
      {"250C4L2S3L1C3S337C", 4, 1, 4, 2, 0}, {"250C2L1S47C", 8, 1, 8, 2, 0},
      {"120C1B130C2L48C", 8, 1, 8, 2, 8},    {"250C2L1S347C", 8, 1, 8, 2, 0},
  };
  return cases;
}

exact_options threads(int n) {
  exact_options o;
  o.threads = n;
  return o;
}

void expect_answer(const problem& prob, const exact_result& r, std::uint32_t worst, const std::string& what) {
  ASSERT_TRUE(r.complete) << what << ": " << r.stop_reason;
  EXPECT_EQ(r.makespan, worst) << what;
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.makespan) << what;
}

/// The levels of a key at B bits a level, ascending.
template <std::uint32_t B>
std::vector<std::uint32_t> levels_of(packed_state key, std::uint32_t warps) {
  std::vector<std::uint32_t> a;
  for (std::uint32_t j = warps; j-- > 0;) a.push_back(key_field<B>(key, j) - 1);
  return a;
}

TEST(WideLevels, WhichKernelsPack) {
  const auto c = [](int length, int warps) { return test::make(std::to_string(length) + "C", warps, 0, 1); };
  EXPECT_TRUE(frontier_packs_narrow(c(254, 16)));
  EXPECT_FALSE(frontier_packs_wide(c(254, 8)));  // 8 bits do
  EXPECT_TRUE(frontier_packs_wide(c(255, 8)));
  EXPECT_FALSE(frontier_packs(c(255, 9)));  // 9 x 16 bits do not fit 128
  EXPECT_TRUE(frontier_packs_wide(c(8191, 8)));
  EXPECT_FALSE(frontier_packs(c(8192, 8)));  // W x I = 65,536: a schedule may pass 16 bits
  EXPECT_TRUE(frontier_packs_wide(c(65534, 1)));
  EXPECT_FALSE(frontier_packs(c(65535, 1)));  // level + 1 = 65,536
  EXPECT_TRUE(frontier_packs(test::make("120C1B130C2L48C", 8, 1, 8)));
  normalized_sm sm;
  sm.sigma = {1, 8, 0, 0};
  sm.copies = {1, 1, 0, 0};
  EXPECT_FALSE(frontier_packs(make_problem(parse_kernel_string("120C1B130C2L48C"), sm, 4, 2)));  // blocks of 2
  // The search refuses what does not pack, naming the limits; the device searches refuse 16 bits.
  EXPECT_NE(test::error_of([&] { exact_sweep_cpu(c(300, 9)); }).find("at most 8 warps"), std::string::npos);
  EXPECT_NE(test::error_of([&] { exact_detail::checked_view(c(300, 2)); }).find("254 instructions"), std::string::npos);
  exact_options wide;
  wide.wide_levels = true;
  EXPECT_NE(test::error_of([&] { exact_sweep_cpu(c(20, 9), wide); }).find("16-bit levels take at most 8 warps"),
            std::string::npos);
}

TEST(WideLevels, SuccessorsAndBoundsAgreeWithByteLevels) {
  // The same states at 8 and at 16 bits a level: the same successors (as level multisets) in the
  // same order with the same takes, the same remaining bound from the key and from the counts.
  std::mt19937_64 rng(40);
  int compared = 0;
  for (int k = 0; k < 300; ++k) {
    const problem prob = test::random_problem(rng, 8, 9);
    const frontier_view v = make_frontier_view(prob.view());
    const wide_frontier_view wv = make_wide_frontier_view(prob.view());
    std::uint8_t count[256] = {};
    for (std::uint32_t w = 0; w < prob.warps; ++w) ++count[rng() % (prob.instructions() + 1)];
    const packed_state key = pack_counts(count, prob.instructions());
    std::vector<std::uint32_t> a = levels_of<8>(key, v.warps);
    std::vector<std::uint16_t> a16(a.begin(), a.end());
    const packed_state wkey = pack_levels<16>(a16.data(), v.warps);
    ASSERT_EQ(levels_of<16>(wkey, v.warps), a);
    ASSERT_EQ(remaining_bound(wv, wkey), remaining_bound(v, key)) << k;
    ASSERT_EQ(remaining_bound(wv, count), remaining_bound(v, count)) << k;
    successor_enum e;
    wide_successor_enum we;
    const bool any = e.start(v, key);
    ASSERT_EQ(we.start(wv, wkey), any);
    if (!any) continue;
    for (;;) {
      ASSERT_EQ(levels_of<16>(we.successor(wv), v.warps), levels_of<8>(e.successor(v), v.warps)) << k;
      for (std::uint32_t l = 0; l < v.instructions; ++l) ASSERT_EQ(we.take_at(wv, l), e.take_at(v, l)) << k;
      const bool more = e.advance(v);
      ASSERT_EQ(we.advance(wv), more) << k;
      if (!more) break;
      ++compared;
    }
  }
  EXPECT_GT(compared, 300);
}

TEST(WideLevels, ForcedOnShortKernelsTheSearchesEqualByteLevels) {
  // wide_levels packs short kernels at 16 bits: the same answers, state counts and
  // valid witnesses as at 8 bits, on random problems (every type count, limits).
  std::mt19937_64 rng(4040);
  exact_options wide = threads(1);
  wide.wide_levels = true;
  for (int k = 0; k < 60; ++k) {
    const problem prob = test::random_problem(rng, 5, 7);
    const std::string what = to_run_length(prob.kernel) + " W=" + std::to_string(prob.warps);
    const exact_result dfs = exact_search_cpu(prob);
    const exact_result sweep8 = exact_sweep_cpu(prob, threads(1)), sweep16 = exact_sweep_cpu(prob, wide);
    expect_answer(prob, sweep16, dfs.makespan, what + " sweep");
    EXPECT_EQ(sweep16.states, sweep8.states) << what;
    EXPECT_EQ(sweep16.pruned, sweep8.pruned) << what;
    const exact_result dense8 = exact_dense_cpu(prob, threads(1).dense()),
                       dense16 = exact_dense_cpu(prob, wide.dense());
    expect_answer(prob, dense16, dfs.makespan, what + " dense");
    EXPECT_EQ(dense16.states, dense8.states) << what;
    const exact_result frontier16 = exact_frontier_cpu(prob, wide.frontier());
    expect_answer(prob, frontier16, dfs.makespan, what + " frontier");
    EXPECT_EQ(frontier16.states, exact_frontier_cpu(prob).states) << what;
    beam_options bo;
    bo.width = 4;
    const beam_result b8 = beam_search(prob, bo);
    bo.wide_levels = true;
    const beam_result b16 = beam_search(prob, bo);
    EXPECT_EQ(b16.makespan, b8.makespan) << what;
    EXPECT_EQ(b16.string, b8.string) << what;
  }
}

TEST(WideLevels, LongKernelsEveryLevelSearchEqualsTheDepthFirstSearch) {
  for (const long_case& c : long_cases()) {
    const problem prob = c.make();
    const std::string what = c.name();
    ASSERT_GT(prob.instructions(), frontier_max_instructions) << what;
    ASSERT_TRUE(frontier_packs_wide(prob)) << what;
    const exact_result dfs = exact_search_cpu(prob);
    ASSERT_TRUE(dfs.complete) << what;
    if (c.warps <= 3) EXPECT_EQ(dfs.makespan, test::brute_worst(prob)) << what;
    expect_answer(prob, exact_frontier_cpu(prob, threads(1).frontier()), dfs.makespan, what + " frontier");
    expect_answer(prob, exact_sweep_cpu(prob, threads(1)), dfs.makespan, what + " sweep");
    expect_answer(prob, exact_sweep_cpu(prob, threads(2)), dfs.makespan, what + " sweep, 2 threads");
    exact_options unpruned = threads(1);
    unpruned.prune = false;
    expect_answer(prob, exact_sweep_cpu(prob, unpruned), dfs.makespan, what + " sweep, no pruning");
    if (dense_sweep_bytes(prob) <= (std::uint64_t{100} << 20)) {
      expect_answer(prob, exact_dense_cpu(prob, threads(1).dense()), dfs.makespan, what + " dense");
      expect_answer(prob, exact_dense_cpu(prob, threads(2).dense()), dfs.makespan, what + " dense, 2 threads");
    }
    // What `exact` runs: the hash sweep past 254 instructions, not the depth-first search.
    std::string used;
    expect_answer(prob, exact_search(prob, threads(1), backend_kind::cpu, &used), dfs.makespan, what + " " + used);
    EXPECT_EQ(used, "sweep") << what;
    exact_options given = threads(1);
    given.lower_string = round_robin_string(prob.view());
    expect_answer(prob, exact_sweep_cpu(prob, given), dfs.makespan, what + " sweep from a lower string");
    // A question about the answer: at most the answer is proven, at most one less finds it.
    exact_options ask = threads(1);
    ask.at_most = dfs.makespan;
    const exact_result at = exact_sweep_cpu(prob, ask);
    EXPECT_TRUE(at.complete || at.at_most_proven) << what;
    EXPECT_EQ(at.upper, dfs.makespan) << what;
  }
}

TEST(WideLevels, LongKernelsBeamIsExactWideAndAScheduleNarrow) {
  for (const long_case& c : long_cases()) {
    const problem prob = c.make();
    const std::string what = c.name();
    const std::uint32_t worst = exact_search_cpu(prob).makespan;
    beam_options o;
    o.width = 1u << 20;
    o.threads = 2;
    const beam_result all = beam_search(prob, o);
    ASSERT_TRUE(all.applicable) << what;
    EXPECT_TRUE(all.exact) << what;
    EXPECT_EQ(all.makespan, worst) << what;
    EXPECT_EQ(build_schedule(prob, all.string).makespan, all.makespan) << what;
    o.width = 3;
    o.threads = 1;
    const beam_result narrow = beam_search(prob, o);
    ASSERT_TRUE(narrow.applicable) << what;
    EXPECT_LE(narrow.makespan, worst) << what;
    EXPECT_GT(narrow.makespan, 0u) << what;
    EXPECT_EQ(build_schedule(prob, narrow.string).makespan, narrow.makespan) << what;
  }
}

TEST(WideLevels, LongKernelsSweepAcrossThreadRanksEqualsOneProcess) {
  for (const long_case& c : {long_cases()[1], long_cases()[9], long_cases()[12]}) {
    const problem prob = c.make();
    const exact_result one = exact_sweep_cpu(prob, threads(1));
    ASSERT_TRUE(one.complete) << c.name();
    const auto results =
        test::on_thread_ranks<exact_result>(2, [&](rank_group& g) { return exact_sweep_ranks(prob, threads(1), g); });
    for (const exact_result& r : results) {
      EXPECT_EQ(r.makespan, one.makespan) << c.name();
      EXPECT_EQ(r.states, one.states) << c.name();
      EXPECT_EQ(r.best_string, one.best_string) << c.name();
    }
  }
}

TEST(WideLevels, LongKernelsStoppedGiveAProvenInterval) {
  // Stopped by the state limit, the sweep and the level search prove [lower, upper] around the answer.
  const long_case c{"250C4L2S3L1C3S337C", 4, 1, 4, 2, 0};
  const problem prob = c.make();
  const std::uint32_t worst = exact_search_cpu(prob).makespan;
  exact_options o = threads(1);
  o.max_states = 2000;
  for (const exact_result& r : {exact_sweep_cpu(prob, o), exact_frontier_cpu(prob, o.frontier())}) {
    EXPECT_FALSE(r.complete);
    EXPECT_LE(r.lower, worst);
    EXPECT_GE(r.upper, worst);
    EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.lower);
  }
}

TEST(WideLevels, EstimatesProofTakesTheLevelSearch) {
  // Before, a kernel past 254 instructions went to the depth-first search (1.2 s here on the 2-core
  // VM, 1.1 million states); the level searches prove the same exact value (the sweep: 0.08 s).
  const long_case c{"250C1L1S2L46C", 8, 1, 8, 2, 8};
  const problem prob = c.make();
  ASSERT_TRUE(frontier_packs_wide(prob));
  std::string used;
  const exact_result search = exact_search(prob, threads(1), backend_kind::cpu, &used);
  EXPECT_EQ(used, "sweep");
  ASSERT_TRUE(search.complete);
  EXPECT_EQ(search.makespan, exact_search_cpu(prob).makespan);
  const proven_interval p = prove_interval(prob, round_robin_string(prob.view()), 60.0, backend_kind::cpu);
  EXPECT_TRUE(p.exact);
  EXPECT_EQ(p.lower, search.makespan);
  EXPECT_EQ(p.upper, search.makespan);
  EXPECT_EQ(p.upper_from, "exact");
  EXPECT_LT(p.upper, pessimistic_bound(prob));
  // --backend cuda proves it on the CPU too (the device takes 8-bit levels only).
  EXPECT_EQ(prove_interval(prob, round_robin_string(prob.view()), 60.0, backend_kind::cuda).upper, search.makespan);
}

TEST(WideLevels, TheDeviceSearchesRefuseSixteenBitLevels) {
  // The device's searches take 8-bit levels only: one line naming the limit and the CPU's searches.
  WARPSPAN_REQUIRE_GPU();
  const problem prob = long_cases()[0].make();
  const std::function<exact_result()> searches[] = {
      [&] { return exact_sweep_cuda(prob); }, [&] { return exact_dense_cuda(prob); },
      [&] { return exact_dense_window_cuda(prob); }, [&] { return exact_frontier_cuda(prob); }};
  for (const auto& search : searches) {
    const std::string why = test::error_of([&] { search(); });
    EXPECT_NE(why.find("254 instructions (8-bit levels"), std::string::npos) << why;
    EXPECT_NE(why.find("at most 8 warps"), std::string::npos) << why;
  }
  EXPECT_FALSE(dense_sweep_fits_device(prob, {}));
  EXPECT_FALSE(dense_window_fits_device(prob, {}));
  const std::string why = test::error_of([&] { exact_search(prob, {}, backend_kind::cuda); });
  EXPECT_NE(why.find("254 instructions (8-bit levels"), std::string::npos) << why;
  exact_options wide;
  wide.wide_levels = true;
  EXPECT_NE(
      test::error_of([&] { exact_search(test::make("5L9C2L9C", 4, 1, 4), wide, backend_kind::cuda); }).find("8-bit"),
      std::string::npos);
}

}  // namespace
}  // namespace warpspan
