// The EDF test: textbook sporadic examples by hand, and scan / QPA against a brute-force check of
// every integer t up to t_max.
#include <gtest/gtest.h>

#include <numeric>
#include <random>

#include "dbf/dbf_test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/dbf/edf.hpp"

namespace warpspan {
namespace {

dbf_curve cpu_curve(const task& t) {
  const unrolled_graph g = unroll(t);
  return dbf_curve(dbf_table_cpu(g).min_span, g);
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
  const std::vector<dbf_curve> curves = {cpu_curve(sporadic("a", 2, 3, 5)), cpu_curve(sporadic("b", 3, 4, 10))};
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
  const std::vector<dbf_curve> curves = {cpu_curve(sporadic("a", 1, 2, 5)), cpu_curve(sporadic("b", 2, 6, 10))};
  for (edf_method m : {edf_method::scan, edf_method::qpa}) {
    const edf_result r = edf_test(curves, m);
    EXPECT_EQ(*r.u.t_max, 10u);
    EXPECT_TRUE(r.schedulable);
    EXPECT_FALSE(r.first_violation.has_value());
  }
  EXPECT_EQ(total_demand(curves, 7), 4u);
}

TEST(Edf, FullUtilisationWithImplicitDeadlinesIsSchedulable) {
  // (5, 10, 10) twice: U = 1 exactly. sum dbf(t) = 10 floor(t / 10) <= t for every t.
  const std::vector<dbf_curve> curves = {cpu_curve(sporadic("a", 5, 10, 10)), cpu_curve(sporadic("b", 5, 10, 10))};
  for (edf_method m : {edf_method::scan, edf_method::qpa}) {
    const edf_result r = edf_test(curves, m);
    EXPECT_EQ(r.u.vs_one, 0);
    EXPECT_EQ(r.u.exact, "10/10");  // over H = lcm(10, 10) = 10
    EXPECT_FALSE(r.u.t_max.has_value());
    ASSERT_TRUE(r.limit.has_value());
    EXPECT_EQ(*r.limit, 20u);  // H + max P
    EXPECT_TRUE(r.schedulable);
    EXPECT_FALSE(r.first_violation.has_value());
  }
  // (1, 2, 2) and (3, 6, 6): U = 1/2 + 1/2, H = 6: floor(t/2) + 3 floor(t/6) <= t.
  const std::vector<dbf_curve> halves = {cpu_curve(sporadic("a", 1, 2, 2)), cpu_curve(sporadic("b", 3, 6, 6))};
  const edf_result r = edf_test(halves);
  EXPECT_EQ(r.u.exact, "6/6");
  EXPECT_EQ(*r.limit, 12u);
  EXPECT_TRUE(r.schedulable);
}

TEST(Edf, FullUtilisationWithAConstrainedDeadlineFailsWhereTheDemandPeaks) {
  // (1, 1, 2) and (3, 5, 6): U = 1/2 + 1/2. Within 5: jobs of a at 0, 2, 4 (due 1, 3, 5) and b's
  // job (due 5): 3 + 3 = 6 > 5. Below: t = 1 -> 1, t = 3 -> 2. So the first violation is 5.
  const std::vector<dbf_curve> curves = {cpu_curve(sporadic("a", 1, 1, 2)), cpu_curve(sporadic("b", 3, 5, 6))};
  for (edf_method m : {edf_method::scan, edf_method::qpa}) {
    const edf_result r = edf_test(curves, m);
    EXPECT_EQ(r.u.vs_one, 0);
    EXPECT_FALSE(r.schedulable);
    ASSERT_TRUE(r.first_violation.has_value());
    EXPECT_EQ(*r.first_violation, 5u);
  }
  EXPECT_EQ(total_demand(curves, 5), 6u);
}

TEST(Edf, OverloadIsNotSchedulableWithoutChecking) {
  // U = 1/2 + 4/6 > 1.
  const std::vector<dbf_curve> curves = {cpu_curve(sporadic("a", 1, 2, 2)), cpu_curve(sporadic("b", 4, 6, 6))};
  const edf_result r = edf_test(curves);
  EXPECT_EQ(r.u.vs_one, 1);
  EXPECT_EQ(r.u.exact, "7/6");
  EXPECT_FALSE(r.limit.has_value());
  EXPECT_FALSE(r.schedulable);
  EXPECT_EQ(r.points, 0u);
}

std::uint64_t lcm_of(std::uint64_t a, std::uint64_t b) { return a / std::gcd(a, b) * b; }

/// The first t in [1, end] with sum dbf(t) > t, by brute-force path enumeration.
std::optional<std::uint64_t> brute_first_violation(const std::vector<task>& tasks,
                                                   const std::vector<test::brute_paths>& brutes,
                                                   const std::vector<dbf_curve>& curves, std::uint64_t end) {
  for (std::uint64_t t = 1; t <= end; ++t) {
    std::uint64_t sum = 0;
    for (std::size_t i = 0; i < tasks.size(); ++i) sum += test::brute_dbf(brutes[i], curves[i].E(), tasks[i].period, t);
    if (sum > t) return t;
  }
  return std::nullopt;
}

TEST(Edf, FullUtilisationEqualsBruteForceOverThreeHyperperiods) {
  // Sets with U = 1 by construction: random graph tasks with periods rounded up to multiples of 4
  // or 6, and a last one-vertex task taking exactly the utilisation left. The brute force checks
  // every integer t up to 3 H + max P, beyond the H + max P the test stops at.
  std::mt19937_64 rng(20261123);
  int schedulable = 0, violated = 0, made = 0;
  while (made < 150) {
    std::vector<task> tasks;
    // Half the sets are one-vertex tasks with deadlines at or just below their periods (those at U = 1
    // are often schedulable), half graph tasks (whose bursts usually break U = 1).
    const bool sporadic_only = rng() % 2 == 0;
    auto deadline_near = [&](std::uint64_t P) {
      return rng() % 3 == 0 ? std::max<std::uint64_t>(1, P - 1 - rng() % 2) : P;
    };
    const int count = 1 + static_cast<int>(rng() % 2);
    for (int i = 0; i < count; ++i) {
      if (sporadic_only) {
        const std::uint64_t P = std::vector<std::uint64_t>{4, 6, 8, 10, 12, 15}[rng() % 6];
        tasks.push_back(sporadic("S" + std::to_string(i), 1 + rng() % (P / 2), deadline_near(P), P));
        continue;
      }
      task t = test::random_small_task(rng, 4, 3, 3, "T" + std::to_string(i));
      const std::uint64_t unit = rng() % 2 ? 4 : 6;
      t.period = (t.period + unit - 1) / unit * unit + unit * (rng() % 3);
      tasks.push_back(t);
    }
    // U so far = N / L exactly.
    std::uint64_t L = 1;
    for (const auto& t : tasks) L = lcm_of(L, t.period);
    std::uint64_t N = 0;
    for (const auto& t : tasks) N += test::brute_E(t) * (L / t.period);
    if (N >= L || L > 600) continue;
    const std::uint64_t g = std::gcd(L - N, L);
    const std::uint64_t m = 1 + rng() % 2;
    const std::uint64_t P = L / g * m, e = (L - N) / g * m;  // e / P = 1 - N / L
    tasks.push_back(sporadic("last", e, sporadic_only ? deadline_near(P) : 1 + rng() % P, P));
    ++made;

    std::vector<test::brute_paths> brutes;
    std::vector<dbf_curve> curves;
    std::uint64_t H = 1, max_p = 0;
    for (const auto& t : tasks) {
      brutes.emplace_back(t);
      curves.push_back(cpu_curve(t));
      H = lcm_of(H, t.period);
      max_p = std::max(max_p, t.period);
    }
    const edf_result scan = edf_test(curves, edf_method::scan);
    const edf_result qpa = edf_test(curves, edf_method::qpa);
    ASSERT_EQ(scan.u.vs_one, 0) << "case " << made;
    ASSERT_TRUE(scan.u.hyperperiod.has_value());
    EXPECT_EQ(*scan.u.hyperperiod, H);
    EXPECT_EQ(scan.limit, H + max_p);
    const auto first = brute_first_violation(tasks, brutes, curves, 3 * H + max_p);
    ASSERT_EQ(scan.first_violation, first) << "case " << made;
    ASSERT_EQ(qpa.first_violation, first) << "case " << made;
    ASSERT_EQ(scan.schedulable, !first.has_value());
    ASSERT_EQ(qpa.schedulable, !first.has_value());
    (first ? violated : schedulable)++;
  }
  EXPECT_GT(schedulable, 20);
  EXPECT_GT(violated, 20);
}

TEST(Edf, NearlyFullUtilisationChecksOneHyperperiodNotTmax) {
  // (999, 1000, 1000) and (1, 1001, 1001): U = (1001 x 999 + 1000) / 1,001,000 = 1 - 1/1,001,000.
  // t_max = 2 x 1000 x 1,001,000 = 2,002,000,000, but H + max P = 1,001,000 + 1001 suffices.
  const std::vector<dbf_curve> curves = {cpu_curve(sporadic("a", 999, 1000, 1000)),
                                         cpu_curve(sporadic("b", 1, 1001, 1001))};
  for (edf_method m : {edf_method::scan, edf_method::qpa}) {
    // About 2,000 points up to H + max P; up to t_max the scan would need about 4,000,000.
    const edf_result r = edf_test(curves, m, 10'000);
    EXPECT_EQ(r.u.vs_one, -1);
    EXPECT_EQ(r.u.exact, "1000999/1001000");
    EXPECT_EQ(*r.u.t_max, 2'002'000'000u);
    EXPECT_EQ(*r.limit, 1'002'001u);
    EXPECT_TRUE(r.schedulable);  // implicit deadlines and U < 1
  }
}

TEST(Edf, UndecidableFullUtilisationIsRefused) {
  // U = 1/3 + 1/3 + 1/3 over periods 3 m with m = 357913941, 357913939, 357913937 (odd and consecutive,
  // so pairwise coprime): H >= m1 m2 m3 > 2^62. Only E and P matter before any point is checked, so
  // the curves are built directly (a real table of E = m columns would take gigabytes).
  std::vector<dbf_curve> curves;
  for (std::uint64_t m : {357913941ull, 357913939ull, 357913937ull})
    curves.emplace_back(std::vector<std::uint32_t>{dbf_inf, 1}, m, 3 * m);
  const utilization_info u = utilization(curves);
  EXPECT_EQ(u.vs_one, 0);
  EXPECT_FALSE(u.hyperperiod.has_value());
  EXPECT_FALSE(edf_limit(u).has_value());
  try {
    edf_test(curves);
    FAIL() << "an undecidable set was decided";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("undecided"), std::string::npos) << e.what();
  }
}

std::string u128_text(unsigned __int128 v) {
  std::string s;
  do {
    s.insert(s.begin(), static_cast<char>('0' + static_cast<int>(v % 10)));
    v /= 10;
  } while (v != 0);
  return s;
}

TEST(Edf, UtilisationIsExactBeyond128Bits) {
  // 1/p1 + 1/p2 + 1/p3 + 1/p4 over four primes near 2^30: the lcm has 120 bits; the numerator and the
  // denominator are computed here in 128 bits for comparison.
  const std::uint64_t p[4] = {1073741789ull, 1073741783ull, 1073741741ull, 1073741723ull};
  std::vector<dbf_curve> curves;
  for (std::uint64_t q : p) curves.push_back(cpu_curve(sporadic("p" + std::to_string(q), 1, q, q)));
  unsigned __int128 den = 1, num = 0;
  for (std::uint64_t q : p) den *= q;
  for (std::uint64_t q : p) num += den / q;
  const utilization_info u = utilization(curves);
  EXPECT_EQ(u.exact, u128_text(num) + "/" + u128_text(den));
  EXPECT_EQ(u.vs_one, -1);
  EXPECT_FALSE(u.hyperperiod.has_value());
  EXPECT_NEAR(u.value, 4.0 / 1073741756.0, 1e-15);
  // t_max = floor(2 x 4 x den / (den - num)), just above 8.
  ASSERT_TRUE(u.t_max.has_value());
  EXPECT_EQ(*u.t_max, static_cast<std::uint64_t>(8 * den / (den - num)));
}

TEST(Edf, DemandNearTwoToTheSixtyFourSaturatesOrIsRefused) {
  // One vertex e = 2^20, d = 1, P = 1: dbf(t) = 2^20 t, over 2^64 from t = 2^44.
  const dbf_curve c = cpu_curve(sporadic("heavy", std::uint64_t{1} << 20, 1, 1));
  EXPECT_EQ(c.at_checked((std::uint64_t{1} << 44) - 1), ~std::uint64_t{0} - ((std::uint64_t{1} << 20) - 1));
  EXPECT_EQ(c.at(std::uint64_t{1} << 44), ~std::uint64_t{0});
  EXPECT_EQ(c.at(~std::uint64_t{0}), ~std::uint64_t{0});
  EXPECT_THROW(c.at_checked(std::uint64_t{1} << 44), input_error);
  EXPECT_THROW(total_demand_checked({c}, ~std::uint64_t{0}), input_error);
  // Two halves that fit alone but not together.
  const dbf_curve half = cpu_curve(sporadic("half", std::uint64_t{1} << 20, 1, 1));
  EXPECT_EQ(total_demand({c, half}, std::uint64_t{1} << 43), ~std::uint64_t{0});
  EXPECT_THROW(total_demand_checked({c, half}, std::uint64_t{1} << 43), input_error);
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
      curves.push_back(cpu_curve(tasks.back()));
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
    curves.push_back(cpu_curve(t));
  }
  const edf_result scan = edf_test(curves, edf_method::scan);
  const edf_result qpa = edf_test(curves, edf_method::qpa);
  ASSERT_TRUE(scan.schedulable) << "pick a lighter set for this test";
  EXPECT_TRUE(qpa.schedulable);
  EXPECT_LT(qpa.points, scan.points);
}

TEST(Edf, TooManyPointsIsRefused) {
  // U = 0.5 + 0.499: t_max = floor(2 * 500 / 0.001) = 1,000,000, about 500,000 points.
  const std::vector<dbf_curve> curves = {cpu_curve(sporadic("a", 1, 2, 2)), cpu_curve(sporadic("b", 499, 1000, 1000))};
  EXPECT_EQ(*utilization(curves).t_max, 1'000'000u);
  EXPECT_THROW(edf_test(curves, edf_method::scan, 10), input_error);
  EXPECT_THROW(parse_edf_method("fast"), input_error);
}

}  // namespace
}  // namespace warpspan
