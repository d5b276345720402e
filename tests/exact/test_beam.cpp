// The beam search (host/exact/beam.cpp): wide enough it is the exact sweep by progress sums (against
// the brute force and the dense sweep); narrower, a real schedule no longer than the worst case,
// the same every run; and as the estimate's beam chains.
#include <chrono>
#include <gtest/gtest.h>

#include <random>

#include "brute_force.hpp"
#include "test_util.hpp"
#include "warpspan/exact/beam.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/orchestrator/build_string.hpp"
#include "warpspan/orchestrator/estimate_run.hpp"

namespace warpspan {
namespace {

TEST(Beam, WideEnoughItPrunesNothingAndFindsTheBruteForceWorstCase) {
  // Random problems (every type count, capacities 1..3, scheduler limits): with a width no sum
  // exceeds, the beam is exact and equals the independent brute force.
  std::mt19937_64 rng(2026);
  int checked = 0;
  for (int k = 0; k < 80; ++k) {
    const problem prob = test::random_problem(rng, 4, 6);
    beam_options o;
    o.width = 1u << 20;
    const beam_result b = beam_search(prob, o);
    ASSERT_TRUE(b.applicable);
    EXPECT_TRUE(b.exact) << k;
    EXPECT_EQ(b.makespan, test::brute_worst(prob)) << k;
    EXPECT_EQ(build_schedule(prob, b.string).makespan, b.makespan) << k;
    ++checked;
  }
  EXPECT_EQ(checked, 80);
}

TEST(Beam, NarrowItIsARealScheduleNoLongerThanTheWorstCase) {
  // Voronoi (5L9C2L9C, sigma L=1 C=4), W = 6: T(6) = 67 by the dense sweep. Every width gives a
  // string that builds to what the beam says, at most 67; one state per sum is not exact.
  const problem prob = test::make("5L9C2L9C", 6, 1, 4);
  const std::uint32_t t6 = exact_dense_cpu(prob).makespan;
  ASSERT_EQ(t6, 67u);
  for (std::uint32_t width : {1u, 2u, 8u, 64u, 512u}) {
    beam_options o;
    o.width = width;
    const beam_result b = beam_search(prob, o);
    EXPECT_LE(b.makespan, t6) << width;
    EXPECT_EQ(build_schedule(prob, b.string).makespan, b.makespan) << width;
    EXPECT_EQ(b.string.size(), std::size_t{6} * 25) << width;
    if (width == 1) EXPECT_FALSE(b.exact);
  }
  // Wide enough, it reaches the dense sweep's answer and says it is exact.
  beam_options wide;
  wide.width = 1u << 20;
  const beam_result all = beam_search(prob, wide);
  EXPECT_TRUE(all.exact);
  EXPECT_EQ(all.makespan, t6);
}

TEST(Beam, EitherOrderAloneIsAPlainBeamAndBothStayValid) {
  // low_share 0 keeps the upper-bound order only, 1 the lower-bound order only: both real schedules.
  const problem prob = test::make("LCLCSLLCCLLLCCSCCLLC", 6, 1, 6, 1, 2, 4);
  for (double share : {0.0, 0.5, 1.0}) {
    beam_options o;
    o.width = 16;
    o.low_share = share;
    const beam_result b = beam_search(prob, o);
    EXPECT_EQ(build_schedule(prob, b.string).makespan, b.makespan) << share;
    EXPECT_GT(b.makespan, 0u);
  }
}

TEST(Beam, TheSameOptionsGiveTheSameString) {
  const problem prob = test::make("CCCCCCLCCLCCLLCCCCCLCCCC", 8, 1, 4);
  beam_options o;
  o.width = 300;
  const beam_result a = beam_search(prob, o), b = beam_search(prob, o);
  EXPECT_EQ(a.makespan, b.makespan);
  EXPECT_EQ(a.string, b.string);
  EXPECT_EQ(a.expanded, b.expanded);
}

TEST(Beam, TwoThreadsGiveTheSameStringAsOne) {
  // Each thread expands half of a sum's states into its own sets; the merge keeps the first parent
  // among the longest ways in, and the kept states go in key order: nothing depends on the split.
  std::mt19937_64 rng(4242);
  for (int k = 0; k < 30; ++k) {
    const problem prob = test::random_problem(rng, 8, 12);
    for (std::uint32_t width : {1u, 7u, 100u}) {
      beam_options one, two;
      one.width = two.width = width;
      two.threads = 2;
      const beam_result a = beam_search(prob, one), b = beam_search(prob, two);
      EXPECT_EQ(a.makespan, b.makespan) << k << " " << width;
      EXPECT_EQ(a.string, b.string) << k << " " << width;
      EXPECT_EQ(a.expanded, b.expanded) << k << " " << width;
      EXPECT_EQ(a.exact, b.exact) << k << " " << width;
    }
  }
}

TEST(Beam, OutOfTimeItNarrowsAndStillEndsWithASchedule) {
  const problem prob = test::make("5L9C2L9C", 10, 1, 4);
  beam_options o;
  o.width = 1u << 16;
  o.time_limit_s = 1e-9;  // spent before the first sum
  const beam_result b = beam_search(prob, o);
  EXPECT_TRUE(b.narrowed);
  EXPECT_FALSE(b.exact);
  EXPECT_EQ(build_schedule(prob, b.string).makespan, b.makespan);
  // A budget beam within no time: narrowed, still a schedule.
  const beam_result w = budget_beam(prob, 1e-9);
  EXPECT_TRUE(w.narrowed);
  EXPECT_EQ(build_schedule(prob, w.string).makespan, w.makespan);
}

TEST(Beam, ABudgetBeamWithTimeToSpareHoldsEveryStateAndIsExact) {
  // Voronoi W = 4: a beam of 64 prunes; within a minute every sum keeps all its states.
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  beam_options narrow;
  narrow.width = 64;
  EXPECT_FALSE(beam_search(prob, narrow).exact);
  const beam_result w = budget_beam(prob, 60);
  EXPECT_TRUE(w.exact);
  EXPECT_FALSE(w.narrowed);
  EXPECT_EQ(w.makespan, 45u);
  EXPECT_GT(w.width, 64u);
  EXPECT_EQ(build_schedule(prob, w.string).makespan, 45u);
}

TEST(Beam, ABudgetBeamFitsItsWidthToTheTime) {
  // Voronoi W = 16 at full width would keep tens of thousands of states a sum for minutes; within
  // 0.3 s the sums are cut to what the time allows, and the beam still ends with a schedule. (The
  // slack is for a loaded machine: the widths follow the measured cost, and the limit's narrowing
  // to one state a sum is the backstop.)
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  const auto start = std::chrono::steady_clock::now();
  const beam_result b = budget_beam(prob, 0.3, 1u << 20, 2);
  const double took = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(took, 0.3 + 1.5);
  EXPECT_FALSE(b.exact);
  EXPECT_LT(b.width, 1u << 20);
  EXPECT_GE(b.width, 1u);
  // One state a sum gives 128, a width of 4 already 151 (and 0.3 s about 250 on the 2-core VM, 154).
  if (!b.narrowed) EXPECT_GE(b.makespan, 140u);
  EXPECT_EQ(build_schedule(prob, b.string).makespan, b.makespan);
}

TEST(Beam, AWidthBeyondTheMemoryIsCutDown) {
  // --beam-width 4294967295 on Voronoi W = 16 would hold every state of a crowded sum (and keep
  // them all for the witness): the beam runs at the widest width the memory holds and says so.
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  beam_options o;
  o.width = ~std::uint32_t{0};
  o.time_limit_s = 1e-9;  // one state a sum after the first: the cut is what is checked, not a long run
  const beam_result b = beam_search(prob, o);
  EXPECT_LT(b.width, 1u << 20);
  EXPECT_GE(b.width, 1u);
  EXPECT_EQ(build_schedule(prob, b.string).makespan, b.makespan);
}

TEST(Beam, BeyondThePackedStatesItDoesNotApply) {
  EXPECT_FALSE(beam_search(test::make("LC", 17, 1, 1)).applicable);
  EXPECT_FALSE(budget_beam(test::make("LC", 17, 1, 1), 1).applicable);
  // build --init beam says so; the estimate's beam chains start from the starved string instead.
  EXPECT_NE(test::error_of([] { constructed_string(test::make("LC", 17, 1, 1), "beam"); }).find("at most 16 warps"),
            std::string::npos);
  estimate_options eo;
  eo.backend = backend_kind::cpu;
  eo.chains = 3;
  eo.iterations = 10;
  eo.threads = 1;
  const estimate_result r = run_estimate(test::make("LC", 17, 1, 1), eo);
  EXPECT_TRUE(r.beam.ran);
  EXPECT_FALSE(r.beam.applicable);
}

TEST(Beam, BuildInitBeamIsTheDefaultBeamsString) {
  const problem prob = test::make("5L9C2L9C", 5, 1, 4);
  EXPECT_EQ(constructed_string(prob, "beam"), beam_search(prob).string);
  EXPECT_EQ(constructed_string(prob, ""), round_robin_string(prob.view()));
  EXPECT_NE(test::error_of([&] { constructed_string(prob, "random"); }).find("with build"), std::string::npos);
}

TEST(Beam, TheEstimatesBeamChainStartsFromTheBeamsString) {
  // The default mix gives chain 2 the beam's string: with no iterations to speak of, the estimate
  // is at least the beam's makespan, and the summary reports the beam of the fixed width.
  const problem prob = test::make("LCLCSLLCCLLLCCSCCLLC", 7, 1, 6, 1, 2, 4);
  estimate_options eo;
  eo.backend = backend_kind::cpu;
  eo.chains = 3;
  eo.iterations = 1;
  eo.threads = 1;
  eo.beam_width = 200;
  const estimate_result r = run_estimate(prob, eo);
  beam_options o;
  o.width = 200;
  const beam_result b = beam_search(prob, o);
  ASSERT_TRUE(r.beam.ran);
  EXPECT_EQ(r.beam.makespan, b.makespan);
  EXPECT_EQ(r.beam.width, 200u);
  EXPECT_GE(r.best_makespan, b.makespan);
  // The library's list of first strings (what benchmarks and GPU tests start from) agrees.
  const std::vector<std::uint16_t> starts = chain_initial_strings(prob, eo, {0, 1, 2, 3});
  const std::size_t n = prob.view().length;
  ASSERT_EQ(starts.size(), 4 * n);
  EXPECT_EQ(std::vector<std::uint16_t>(starts.begin() + 2 * n, starts.begin() + 3 * n), b.string);
  EXPECT_EQ(std::vector<std::uint16_t>(starts.begin() + 3 * n, starts.end()), starved_string(prob.view()));
  // No chain starts from it: no beam.
  eo.init = initial_kind::round_robin;
  EXPECT_FALSE(run_estimate(prob, eo).beam.ran);
  // Bad shares are refused by name.
  eo.init = std::nullopt;
  eo.beam_share = 1.5;
  EXPECT_NE(test::error_of([&] { run_estimate(prob, eo); }).find("beam_share"), std::string::npos);
}

TEST(Beam, AnExactBeamProvesTheIntervalByItself) {
  // Voronoi W = 5 (T = 57): a beam of 65,536 prunes nothing there (one of 1,024 does), so the
  // estimate's interval is exact from the beam, with no search of its own.
  estimate_request request;
  request.search.beam_width = 1u << 16;
  request.search.backend = backend_kind::cpu;
  request.search.chains = 3;
  request.search.iterations = 5;
  request.search.threads = 1;
  const estimate_report rep = run_estimate_request(test::make("5L9C2L9C", 5, 1, 4), request);
  ASSERT_TRUE(rep.result.beam.exact);
  ASSERT_TRUE(rep.proven.has_value());
  EXPECT_EQ(rep.proven->lower, 57u);
  EXPECT_EQ(rep.proven->upper, 57u);
  EXPECT_EQ(rep.proven->upper_from, "exact");
  EXPECT_EQ(rep.result.best_makespan, 57u);
}

}  // namespace
}  // namespace warpspan
