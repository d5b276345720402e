// The EDF test: textbook sporadic examples by hand, and scan / QPA against a brute-force check of
// every integer t up to t_max.
#include <gtest/gtest.h>

#include <random>

#include "dbf/dbf_test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/dbf/edf.hpp"

namespace warpspan {
namespace {

dbf_curve curve_of(const task& t) {
  const unrolled_graph g = unroll(t);
  return dbf_curve(dbf_table_cpu(g).min_span, g.E, g.period);
}

task sporadic(const std::string& name, std::uint64_t e, std::uint64_t d, std::uint64_t P) {
  task t;
  t.name = name;
  t.period = P;
  t.vertices = {{"v", e, d}};
  return t;
}

TEST(Edf, SporadicPairByHand) {
  // (e, d, P) = (2, 3, 5) and (3, 4, 10): U = 0.4 + 0.3 = 0.7, t_max = floor(2 * 5 / 0.3) = 33.
  // sum dbf: t = 3 -> 2; t = 4 -> 2 + 3 = 5 > 4: the first violation is 4.
  const std::vector<dbf_curve> curves = {curve_of(sporadic("a", 2, 3, 5)), curve_of(sporadic("b", 3, 4, 10))};
  for (edf_method m : {edf_method::scan, edf_method::qpa}) {
    const edf_result r = edf_test(curves, m);
    EXPECT_NEAR(r.u.value, 0.7, 1e-12);
    ASSERT_TRUE(r.u.t_max.has_value());
    EXPECT_EQ(*r.u.t_max, 33u);
    EXPECT_FALSE(r.schedulable);
    ASSERT_TRUE(r.first_violation.has_value());
    EXPECT_EQ(*r.first_violation, 4u);
  }
}

TEST(Edf, SchedulablePairByHand) {
  // (1, 2, 5) and (2, 6, 10): U = 0.4, t_max = floor(2 * 3 / 0.6) = 10. sum dbf: t = 2 -> 1,
  // t = 6 -> 3, t = 7 -> 4 (the first task again at 7), t = 10 -> 4: never above t.
  const std::vector<dbf_curve> curves = {curve_of(sporadic("a", 1, 2, 5)), curve_of(sporadic("b", 2, 6, 10))};
  for (edf_method m : {edf_method::scan, edf_method::qpa}) {
    const edf_result r = edf_test(curves, m);
    EXPECT_EQ(*r.u.t_max, 10u);
    EXPECT_TRUE(r.schedulable);
    EXPECT_FALSE(r.first_violation.has_value());
  }
  EXPECT_EQ(total_demand(curves, 7), 4u);
}

TEST(Edf, FullUtilisationIsNotSchedulable) {
  // U = 1/2 + 1/2 exactly: decided with rational arithmetic, no t_max.
  const std::vector<dbf_curve> curves = {curve_of(sporadic("a", 1, 2, 2)), curve_of(sporadic("b", 3, 6, 6))};
  const edf_result r = edf_test(curves);
  EXPECT_TRUE(r.u.at_least_one);
  EXPECT_FALSE(r.u.t_max.has_value());
  EXPECT_FALSE(r.schedulable);
  EXPECT_FALSE(r.first_violation.has_value());
}

TEST(Edf, ScanAndQpaEqualBruteForceOnRandomSets) {
  std::mt19937_64 rng(31337);
  int schedulable = 0, violated = 0;
  for (int k = 0; k < 250; ++k) {
    const int ntasks = 1 + static_cast<int>(rng() % 3);
    std::vector<task> tasks;
    std::vector<test::brute_paths> brutes;
    std::vector<dbf_curve> curves;
    for (int i = 0; i < ntasks; ++i) {
      tasks.push_back(test::random_small_task(rng, 4, 4, 3, "T" + std::to_string(i)));
      // Spread periods so utilisation varies from light to overloaded.
      tasks.back().period += rng() % (4 * tasks.back().period);
      brutes.emplace_back(tasks.back());
      curves.push_back(curve_of(tasks.back()));
    }
    const edf_result scan = edf_test(curves, edf_method::scan);
    const edf_result qpa = edf_test(curves, edf_method::qpa);
    ASSERT_EQ(scan.schedulable, qpa.schedulable) << "case " << k;
    ASSERT_EQ(scan.first_violation, qpa.first_violation) << "case " << k;
    if (scan.u.at_least_one) continue;
    // Brute force: every integer t in (0, t_max].
    std::optional<std::uint64_t> first;
    for (std::uint64_t t = 1; t <= *scan.u.t_max && !first; ++t) {
      std::uint64_t sum = 0;
      for (int i = 0; i < ntasks; ++i) sum += test::brute_dbf(brutes[i], curves[i].E(), tasks[i].period, t);
      if (sum > t) first = t;
    }
    ASSERT_EQ(scan.first_violation, first) << "case " << k;
    (first ? violated : schedulable)++;
  }
  // Both verdicts must occur, or the comparison above proves little.
  EXPECT_GT(schedulable, 20);
  EXPECT_GT(violated, 20);
}

TEST(Edf, QpaChecksFewerPointsThanTheScan) {
  std::mt19937_64 rng(8);
  std::vector<dbf_curve> curves;
  for (int i = 0; i < 3; ++i) {
    task t = test::random_small_task(rng, 6, 10, 60, "T" + std::to_string(i));
    t.period *= 20;
    curves.push_back(curve_of(t));
  }
  const edf_result scan = edf_test(curves, edf_method::scan);
  const edf_result qpa = edf_test(curves, edf_method::qpa);
  ASSERT_TRUE(scan.schedulable) << "pick a lighter set for this test";
  EXPECT_TRUE(qpa.schedulable);
  EXPECT_LT(qpa.points, scan.points);
}

TEST(Edf, TooManyPointsIsRefused) {
  // U = 0.5 + 0.499: t_max = floor(2 * 500 / 0.001) = 1,000,000, about 500,000 points.
  const std::vector<dbf_curve> curves = {curve_of(sporadic("a", 1, 2, 2)), curve_of(sporadic("b", 499, 1000, 1000))};
  EXPECT_EQ(*utilization(curves).t_max, 1'000'000u);
  EXPECT_THROW(edf_test(curves, edf_method::scan, 10), input_error);
  EXPECT_THROW(parse_edf_method("fast"), input_error);
}

}  // namespace
}  // namespace warpspan
