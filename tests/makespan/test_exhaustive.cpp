// On small cases: the best over all pseudo-precedence strings equals an exhaustive search over
// work-conserving schedules (MODEL: the strings build exactly the work-conserving schedules), and
// annealing with enough iterations reaches that worst case.
#include <gtest/gtest.h>

#include <algorithm>

#include "brute_force.hpp"
#include "test_util.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

/// The best makespan over every distinct permutation of the multiset.
std::uint32_t best_by_permutation(const problem& prob) {
  std::vector<std::uint16_t> s = fixed_priority_string(prob.view());  // sorted
  std::uint32_t best = 0;
  do best = std::max(best, build_schedule(prob, s).makespan);
  while (std::next_permutation(s.begin(), s.end()));
  return best;
}

struct small_case {
  const char* kernel;
  int warps, sigma_l, sigma_c, sigma_s, schedulers;
};

const small_case small_cases[] = {
    {"LCL", 2, 1, 1, 0, 0},  {"LCL", 3, 1, 1, 0, 0},  {"LCCL", 3, 1, 1, 0, 0}, {"LLC", 3, 1, 2, 0, 0},
    {"LCLC", 2, 1, 1, 0, 0}, {"LSCL", 3, 1, 2, 1, 0}, {"LCS", 3, 2, 1, 1, 2},  {"LCC", 3, 1, 2, 0, 2},
    {"LLCC", 3, 1, 1, 0, 0}, {"CLLC", 3, 1, 2, 0, 0}, {"SCL", 4, 1, 1, 1, 0},  {"LC", 4, 1, 2, 0, 1},
};

TEST(Exhaustive, BestStringEqualsWorstWorkConservingSchedule) {
  for (const auto& c : small_cases) {
    const problem prob = test::make(c.kernel, c.warps, c.sigma_l, c.sigma_c, c.sigma_s, 0, c.schedulers);

    const std::uint32_t by_strings = best_by_permutation(prob);
    const std::uint32_t by_schedules = test::brute_worst(prob);

    EXPECT_EQ(by_strings, by_schedules) << c.kernel << " W=" << c.warps;
  }
}

TEST(Exhaustive, PapersLclFourWarpsWorstCaseIsNine) {
  // Fig. 5's schedule (9 cycles) is the worst for LCL, 4 warps, sigma_L = sigma_C = 1.
  const problem prob = test::make("LCL", 4, 1, 1);

  EXPECT_EQ(test::brute_worst(prob), 9u);
}

TEST(Exhaustive, AnnealingReachesTheWorstCaseOnSmallCases) {
  for (const auto& c : small_cases) {
    const problem prob = test::make(c.kernel, c.warps, c.sigma_l, c.sigma_c, c.sigma_s, 0, c.schedulers);
    estimate_options o;
    o.backend = backend_kind::cpu;
    o.chains = 8;
    o.iterations = 4000;
    o.threads = 1;

    const estimate_result r = run_estimate(prob, o);

    EXPECT_EQ(r.best_makespan, test::brute_worst(prob)) << c.kernel << " W=" << c.warps;
    EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
  }
}

}  // namespace
}  // namespace warpspan
