// The schedule builder against the paper's figures (000 Figs. 2, 5, 6, 7 and Sec. VII) and the
// incremental rebuild against full rebuilds.
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>

#include "test_util.hpp"
#include "warpspan/core/rng.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

TEST(Builder, Fig2RoundRobinLclFourWarpsTakesEightCycles) {
  const problem prob = test::make("LCL", 4, 1, 1);

  const built_schedule s = build_schedule(prob, round_robin_string(prob.view()));

  EXPECT_EQ(s.makespan, 8u);
  // Fig. 2: warp w issues L at w, C at w + 1, and its second L at cycle 4 + w.
  for (std::uint32_t w = 0; w < 4; ++w) {
    EXPECT_EQ(s.cycle[w * 3 + 0], w + 1);
    EXPECT_EQ(s.cycle[w * 3 + 1], w + 2);
    EXPECT_EQ(s.cycle[w * 3 + 2], w + 5);
  }
}

TEST(Builder, Fig2ColumnStringHasThePapersWarpCycleString) {
  // Reading Fig. 2 column by column gives 1 1 2 2 3 3 4 1 4 2 3 4; its warp cycle string is
  // "1 2 2 3 3 4 4 5 5 6 7 8" (000 VII).
  const problem prob = test::make("LCL", 4, 1, 1);

  const built_schedule s = build_schedule(prob, test::ids({1, 1, 2, 2, 3, 3, 4, 1, 4, 2, 3, 4}));

  EXPECT_EQ(s.makespan, 8u);
  EXPECT_EQ(s.warp_cycle, (std::vector<std::uint32_t>{1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 7, 8}));
}

TEST(Builder, Fig5MovingWarpFourToTheEndTakesNineCycles) {
  const problem prob = test::make("LCL", 4, 1, 1);

  const built_schedule s = build_schedule(prob, test::ids({1, 1, 2, 2, 3, 3, 1, 2, 3, 4, 4, 4}));

  EXPECT_EQ(s.makespan, 9u);
  // Fig. 5: warp 4 runs L C L in cycles 7, 8, 9; warp 1's second L moves to cycle 4.
  EXPECT_EQ(s.cycle[3 * 3 + 0], 7u);
  EXPECT_EQ(s.cycle[3 * 3 + 2], 9u);
  EXPECT_EQ(s.cycle[0 * 3 + 2], 4u);
}

TEST(Builder, Fig6FixedPriorityLccl) {
  const problem prob = test::make("LCCL", 3, 1, 1);

  const built_schedule s = build_schedule(prob, fixed_priority_string(prob.view()));

  EXPECT_EQ(s.makespan, 8u);
  // Fig. 6 rows: warp 1 L C C L in 1-4; warp 2 in 2, 4, 5, 6; warp 3 in 3, 6, 7, 8.
  EXPECT_EQ(s.cycle, (std::vector<std::uint32_t>{1, 2, 3, 4, 2, 4, 5, 6, 3, 6, 7, 8}));
}

TEST(Builder, Fig7MostPendingWarpFirstLccl) {
  const problem prob = test::make("LCCL", 3, 1, 1);

  const auto str = most_pending_string(prob.view());
  const built_schedule s = build_schedule(prob, str);

  // Fig. 7 rows: warp 1 in 1, 2, 4, 5; warp 2 in 2, 3, 6, 7; warp 3 in 3, 5, 7, 8.
  EXPECT_EQ(s.cycle, (std::vector<std::uint32_t>{1, 2, 4, 5, 2, 3, 6, 7, 3, 5, 7, 8}));
  EXPECT_EQ(s.makespan, 8u);
  // The string lists issues cycle by cycle in list order (000 Fig. 8).
  EXPECT_EQ(str, test::ids({1, 2, 1, 3, 2, 1, 3, 1, 2, 3, 2, 3}));
}

TEST(Builder, StarvedStringRunsTheLastWarpAloneAfterTheOthers) {
  // Round robin over warps 1-3, then warp 4: the others take L in cycles 1, 2, 3 and again in 4, 5,
  // 6 (C in 2, 3, 4), so warp 4 finds the L unit full until cycle 7 and runs L C L in 7, 8, 9,
  // one cycle longer than round robin's 8 (Fig. 2).
  const problem prob = test::make("LCL", 4, 1, 1);

  const auto str = starved_string(prob.view());
  const built_schedule s = build_schedule(prob, str);

  EXPECT_EQ(str, test::ids({1, 2, 3, 1, 2, 3, 1, 2, 3, 4, 4, 4}));
  EXPECT_EQ(s.cycle, (std::vector<std::uint32_t>{1, 2, 4, 2, 3, 5, 3, 4, 6, 7, 8, 9}));
  EXPECT_EQ(s.makespan, 9u);
  EXPECT_EQ(initial_string(prob.view(), initial_kind::starve, 1, 0), str);
  // Warp 4 joining the first round instead takes L in 4 and C in 5, and its last L finds room in
  // 8 (the others' second L are in 5, 6, 7): 8 cycles. Joining two rounds is round robin (8 too),
  // so the starved string keeps joined = 0, the longest.
  EXPECT_EQ(starved_string(prob.view(), 0), str);
  const auto joined_one = starved_string(prob.view(), 1);
  EXPECT_EQ(joined_one, test::ids({1, 2, 3, 4, 1, 2, 3, 1, 2, 3, 4, 4}));
  EXPECT_EQ(build_schedule(prob, joined_one).cycle, (std::vector<std::uint32_t>{1, 2, 5, 2, 3, 6, 3, 4, 7, 4, 5, 8}));
  EXPECT_EQ(starved_string(prob.view(), 2), round_robin_string(prob.view()));
  EXPECT_EQ(to_string(initial_kind::starve), "starve");
  EXPECT_EQ(parse_initial_kind("starve"), initial_kind::starve);
  EXPECT_EQ(to_string(initial_kind::beam), "beam");
  EXPECT_EQ(parse_initial_kind("beam"), initial_kind::beam);
  // One warp: nothing to starve it behind, the warp's instructions in order.
  EXPECT_EQ(starved_string(test::make("LCL", 1, 1, 1).view()), test::ids({1, 1, 1}));
}

TEST(Builder, SchedulerLimitCapsIssuesPerCycle) {
  // LC with sigma_L = sigma_C = 2 but one scheduler: one instruction per cycle, so 2 warps need
  // exactly W * I = 4 cycles whatever the string.
  const problem prob = test::make("LC", 2, 2, 2, 0, 0, 1);

  EXPECT_EQ(build_schedule(prob, round_robin_string(prob.view())).makespan, 4u);
  EXPECT_EQ(build_schedule(prob, fixed_priority_string(prob.view())).makespan, 4u);
}

TEST(Builder, RejectsStringsThatAreNotTheMultiset) {
  const problem prob = test::make("LC", 2, 1, 1);

  EXPECT_THROW(build_schedule(prob, test::ids({1, 1, 1, 2})), input_error);
  EXPECT_THROW(build_schedule(prob, test::ids({1, 2, 3, 2})), input_error);
  EXPECT_THROW(parse_warp_string(prob, "1 2 x 2"), input_error);
  EXPECT_THROW(parse_warp_string(prob, "0 1 2 2"), input_error);
}

// Random problems over L/C/S/D with and without a scheduler limit.
problem random_problem(std::uint64_t seed) {
  const philox_out r = draw(seed, 77, 0);
  const int length = 2 + static_cast<int>(bounded(r.v[0], 9));
  std::string k;
  for (int i = 0; i < length; ++i) k.push_back("LCSD"[bounded(draw(seed, 78, i).v[0], 4)]);
  const int warps = 1 + static_cast<int>(bounded(r.v[1], 7));
  const int schedulers = (r.v[2] & 1) ? 1 + static_cast<int>(bounded(r.v[3], 3)) : 0;
  return test::make(k, warps, 1 + (r.v[2] >> 8) % 2, 1 + (r.v[2] >> 9) % 3, 1, 1 + (r.v[2] >> 11) % 2, schedulers);
}

TEST(Builder, IncrementalRebuildEqualsFullRebuild) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const problem prob = random_problem(seed);
    const problem_view p = prob.view();
    const chain_layout layout = make_chain_layout(p);
    std::vector<unsigned char> a(layout.bytes), b(layout.bytes);
    const chain_view inc = chain_view_at(a.data(), layout), full = chain_view_at(b.data(), layout);
    const auto start = random_string(p, seed, 0);
    std::copy(start.begin(), start.end(), inc.str);
    std::copy(start.begin(), start.end(), full.str);
    build_full(p, inc);
    for (std::uint32_t move = 0; move < 50; ++move) {
      const philox_out r = draw(seed, 1, move);
      const std::uint32_t i = bounded(r.v[0], p.length), j = bounded(r.v[1], p.length);
      std::swap(inc.str[i], inc.str[j]);
      const std::uint32_t old = build_full(p, full);  // full still holds the string before the swap
      const std::uint32_t m_inc =
          (move % 2) ? rebuild_from(p, inc, std::min(i, j)) : rebuild_from(p, inc, std::min(i, j), std::max(i, j), old);
      std::copy(inc.str, inc.str + p.length, full.str);
      const std::uint32_t m_full = build_full(p, full);

      ASSERT_EQ(m_inc, m_full) << "seed " << seed << " move " << move;
      ASSERT_TRUE(std::equal(inc.cycle, inc.cycle + p.length, full.cycle)) << "seed " << seed << " move " << move;
      const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
      ASSERT_TRUE(std::equal(inc.usage, inc.usage + cells, full.usage)) << "seed " << seed << " move " << move;
      ASSERT_TRUE(std::equal(inc.last, inc.last + p.warps, full.last)) << "seed " << seed << " move " << move;
    }
  }
}

TEST(Builder, RestoreSuffixPutsTheOldScheduleBack) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    const problem prob = random_problem(seed);
    const problem_view p = prob.view();
    const chain_layout layout = make_chain_layout(p);
    std::vector<unsigned char> a(layout.bytes), b(layout.bytes);
    const chain_view c = chain_view_at(a.data(), layout), ref = chain_view_at(b.data(), layout);
    const auto start = random_string(p, seed, 1);
    std::copy(start.begin(), start.end(), c.str);
    std::copy(start.begin(), start.end(), ref.str);
    const std::uint32_t m = build_full(p, c);
    build_full(p, ref);
    const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
    for (std::uint32_t move = 0; move < 30; ++move) {
      const philox_out r = draw(seed, 2, move);
      const std::uint32_t i = bounded(r.v[0], p.length), j = bounded(r.v[1], p.length);
      std::swap(c.str[i], c.str[j]);
      rebuild_from(p, c, std::min(i, j), 0xFFFFFFFFu, 0, true);

      restore_suffix(p, c, std::min(i, j));
      std::swap(c.str[i], c.str[j]);

      ASSERT_TRUE(std::equal(c.cycle, c.cycle + p.length, ref.cycle)) << "seed " << seed << " move " << move;
      ASSERT_TRUE(std::equal(c.usage, c.usage + cells, ref.usage)) << "seed " << seed << " move " << move;
      ASSERT_TRUE(std::equal(c.last, c.last + p.warps, ref.last)) << "seed " << seed << " move " << move;
      ASSERT_TRUE(std::equal(c.progress, c.progress + p.warps, ref.progress));
      ASSERT_EQ(rebuild_from(p, c, 0), m);
    }
  }
}

TEST(Builder, BuiltSchedulesAreWorkConservingAndWithinThePessimisticBound) {
  for (std::uint64_t seed = 1; seed <= 300; ++seed) {
    const problem prob = random_problem(seed);
    const problem_view p = prob.view();
    const built_schedule s = build_schedule(prob, random_string(p, seed, 3));
    const std::uint32_t I = p.instructions;

    EXPECT_LE(s.makespan, pessimistic_bound(prob)) << "seed " << seed;
    // Work-conserving: a warp idle between two of its instructions found its type (or the
    // scheduler limit) full in every idle cycle.
    std::vector<std::vector<int>> use(s.makespan + 2, std::vector<int>(p.ntypes + 1, 0));
    for (std::uint32_t w = 0; w < p.warps; ++w)
      for (std::uint32_t j = 0; j < I; ++j) {
        ++use[s.cycle[w * I + j]][p.types[j]];
        ++use[s.cycle[w * I + j]][p.ntypes];
      }
    for (std::uint32_t w = 0; w < p.warps; ++w)
      for (std::uint32_t j = 0; j < I; ++j) {
        const std::uint32_t from = j == 0 ? 1 : s.cycle[w * I + j - 1] + 1;
        for (std::uint32_t t = from; t < s.cycle[w * I + j]; ++t) {
          const bool type_full = use[t][p.types[j]] >= p.cap[p.types[j]];
          const bool all_full = p.limited && use[t][p.ntypes] >= p.cap[p.ntypes];
          EXPECT_TRUE(type_full || all_full) << "seed " << seed << " warp " << w << " idle in cycle " << t;
        }
      }
  }
}

}  // namespace
}  // namespace warpspan

namespace warpspan {
namespace {

/// The rows of a rendered table, warp by warp, with the blocks of a wrapped table joined again.
std::vector<std::string> table_rows(const std::string& table, std::uint32_t warps, std::size_t label) {
  std::vector<std::string> rows(warps);
  std::istringstream in(table);
  std::string line;
  while (std::getline(in, line)) {
    if (line.rfind("warp ", 0) != 0) continue;
    const std::uint32_t w = static_cast<std::uint32_t>(std::stoul(line.substr(5))) - 1;
    rows[w] += line.substr(label);
  }
  return rows;
}

TEST(ScheduleTable, WrapsToTheWidthWithoutLosingACycle) {
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  const built_schedule b = build_schedule(prob, round_robin_string(prob.view()));
  ASSERT_GT(b.makespan, 30u);
  const std::string whole = render_table(prob, b), wrapped = render_table(prob, b, 40);
  EXPECT_EQ(table_rows(whole, 4, 9), table_rows(wrapped, 4, 9));
  // 40 columns: 9 for the label, blocks of 30 cycles; every line fits.
  std::istringstream in(wrapped);
  std::string line;
  int rulers = 0;
  while (std::getline(in, line)) {
    EXPECT_LE(line.size(), 40u) << line;
    rulers += line.rfind("cycle", 0) == 0 ? 1 : 0;
  }
  EXPECT_EQ(rulers, static_cast<int>((b.makespan + 29) / 30));
  // The ruler's "10" ends above cycle 10's column, with a tick below it.
  std::istringstream first(whole);
  std::string numbers, ticks;
  std::getline(first, numbers);
  std::getline(first, ticks);
  EXPECT_EQ(numbers.substr(9 + 8, 2), "10");
  EXPECT_EQ(ticks[9 + 9], '|');
  EXPECT_EQ(ticks[9 + 4], '\'');
}

}  // namespace
}  // namespace warpspan
