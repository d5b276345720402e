// The binary ILP of 001 Sec. 5 against the exact search, the schedule builder and the sizes of its
// formulation; the LP text; `exact --method ilp` on the command line.
#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>

#include "brute_force.hpp"
#include "cli/cli_util.hpp"
#include "test_util.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/exact/ilp.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

constexpr ilp_constraints both_forms[] = {ilp_constraints::short_form, ilp_constraints::long_form};

#define WARPSPAN_REQUIRE_CBC() \
  if (!ilp_compiled()) GTEST_SKIP() << "built without COIN-OR CBC"

/// A random small case: kernel of 1..4 instructions over 1..3 types, W 1..3, sigma 1..2, and in
/// half of the cases a scheduler limit of 1 or 2 (it binds when below W and the sum of sigma).
problem random_case(std::mt19937_64& rng, std::string* text = nullptr) {
  const char letters[] = {'L', 'C', 'S'};
  const int ntypes = 1 + static_cast<int>(rng() % 3);
  std::string kernel;
  const int len = 1 + static_cast<int>(rng() % 4);
  for (int i = 0; i < len; ++i) kernel.push_back(letters[rng() % ntypes]);
  const int warps = 1 + static_cast<int>(rng() % 3);
  int sigma[3];
  for (int& s : sigma) s = 1 + static_cast<int>(rng() % 2);
  const int schedulers = rng() % 2 == 0 ? 1 + static_cast<int>(rng() % 2) : 0;
  if (text)
    *text = kernel + " W=" + std::to_string(warps) + " sigma " + std::to_string(sigma[0]) + "," +
            std::to_string(sigma[1]) + "," + std::to_string(sigma[2]) + " schedulers " + std::to_string(schedulers);
  return test::make(kernel, warps, sigma[0], sigma[1], sigma[2], 0, schedulers);
}

/// The non-empty lines of a section of LP text, from its keyword to the next one.
std::vector<std::string> lp_section(const std::string& lp, const std::string& keyword) {
  std::istringstream in(lp);
  std::vector<std::string> lines;
  std::string line;
  bool inside = false;
  for (; std::getline(in, line);) {
    if (!line.empty() && line[0] != ' ' && line[0] != '\\') {
      inside = line == keyword;
      continue;
    }
    if (inside && !line.empty() && line[0] == ' ') lines.push_back(line);
  }
  return lines;
}

/// Constraints in the LP text: lines of "Subject To" that start a row (" name: ..."); the others
/// continue the row above.
std::size_t lp_constraint_count(const std::string& lp) {
  std::size_t n = 0;
  for (const std::string& line : lp_section(lp, "Subject To")) n += line.size() > 1 && line[1] != ' ';
  return n;
}

TEST(Ilp, EqualsSearchOnRandomSmallCases) {
  WARPSPAN_REQUIRE_CBC();
  std::mt19937_64 rng(2024);
  int limited = 0;
  for (int k = 0; k < 70; ++k) {
    std::string text;
    const problem prob = random_case(rng, &text);
    limited += static_cast<int>(prob.flat.limited);
    const std::uint32_t expected = exact_search_cpu(prob).makespan;

    for (ilp_constraints form : both_forms) {
      ilp_options o;
      o.constraints = form;
      const ilp_result r = exact_ilp(prob, o);

      SCOPED_TRACE(text + (form == ilp_constraints::long_form ? " long" : " short"));
      ASSERT_TRUE(r.complete) << r.status;
      EXPECT_EQ(r.makespan, expected);
      EXPECT_EQ(r.lower, r.makespan);
      EXPECT_EQ(r.upper, r.makespan);
      EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.makespan);
      EXPECT_EQ(std::make_pair(r.variables, r.constraints), ilp_size(prob, 0, form));
    }
  }
  EXPECT_GE(limited, 12) << "too few cases where the scheduler limit binds";
}

TEST(Ilp, PaperFiguresAndVoronoiOneAndTwoWarps) {
  WARPSPAN_REQUIRE_CBC();
  // LCL, sigma 1: W = 4 has the 9 of 000 Fig. 5 as a schedule, and the worst case is the search's.
  const problem lcl = test::make("LCL", 4, 1, 1);
  const problem v1 = test::make("5L9C2L9C", 1, 1, 4);

  const ilp_result r_lcl = exact_ilp(lcl);
  const ilp_result r_v1 = exact_ilp(v1, {ilp_constraints::long_form});

  EXPECT_EQ(r_lcl.makespan, exact_search_cpu(lcl).makespan);
  EXPECT_GE(r_lcl.makespan, 9u);
  EXPECT_EQ(r_v1.makespan, 25u);  // MODEL.md: T(1) = 25
}

TEST(Ilp, LpTextReadByCbcSolvesTheSameModel) {
  WARPSPAN_REQUIRE_CBC();
  std::mt19937_64 rng(77);
  for (int k = 0; k < 12; ++k) {
    std::string text;
    const problem prob = random_case(rng, &text);
    for (ilp_constraints form : both_forms) {
      ilp_options in_memory, through_text;
      in_memory.constraints = through_text.constraints = form;
      through_text.through_lp_text = true;

      const ilp_result a = exact_ilp(prob, in_memory);
      const ilp_result b = exact_ilp(prob, through_text);

      ASSERT_TRUE(b.complete) << text << ": " << b.status;
      EXPECT_EQ(a.makespan, b.makespan) << text;
    }
  }
}

TEST(Ilp, EveryBuiltScheduleIsFeasibleAndIdlingIsNot) {
  // Every schedule the builder makes is work-conserving (MODEL.md), so it must satisfy every
  // constraint: otherwise the ILP would miss schedules and could report less than the worst case.
  std::mt19937_64 rng(99);
  for (int k = 0; k < 60; ++k) {
    std::string text;
    const problem prob = random_case(rng, &text);
    std::vector<std::uint16_t> str;
    for (std::uint32_t w = 0; w < prob.warps; ++w)
      str.insert(str.end(), prob.instructions(), static_cast<std::uint16_t>(w));
    std::shuffle(str.begin(), str.end(), rng);
    const built_schedule b = build_schedule(prob, str);
    for (ilp_constraints form : both_forms) EXPECT_EQ(ilp_violated_constraint(prob, 0, form, b.cycle), "") << text;
  }
  // LCL, W = 1: C in cycle 3 leaves the warp idle in cycle 2 with the C unit free.
  const problem one = test::make("LCL", 1, 1, 1);
  const std::vector<std::uint32_t> idle{1, 3, 4};
  EXPECT_EQ(ilp_violated_constraint(one, 5, ilp_constraints::short_form, idle), "wc_1_2_2");
  EXPECT_EQ(ilp_violated_constraint(one, 5, ilp_constraints::long_form, idle), "wc_1_C_2");
  EXPECT_EQ(ilp_violated_constraint(one, 3, ilp_constraints::short_form, idle), "horizon");
  EXPECT_EQ(ilp_violated_constraint(one, 5, ilp_constraints::short_form, {1, 2, 3}), "");
}

TEST(Ilp, VoronoiFourWarpScheduleOf45IsAFeasiblePoint) {
  // The search's T(4) = 45 witness satisfies the ILP, so the ILP's optimum is at least 45 too
  // (001 reports 44; MODEL.md).
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  const exact_result r = exact_search_cpu(prob);
  const built_schedule b = build_schedule(prob, r.best_string);

  ASSERT_EQ(b.makespan, 45u);
  for (ilp_constraints form : both_forms) EXPECT_EQ(ilp_violated_constraint(prob, 0, form, b.cycle), "");
}

TEST(Ilp, LpTextHasTheSizesOfTheFormulation) {
  // LL, W = 2, sigma_L = 1: T = ceil(2 / 1) * 2 = 4 cycles, I = 2, window D = T - I + 1 = 3.
  // Variables: x_w_i_t W I D = 12, full_L_t for t = 1..4 (n_cov = 4): 16.
  // Constraints: assign W I = 4, prec W (I - 1) = 2, one W T = 8, order W - 1 = 1,
  // cap/fullif/fullonly 3 n_cov = 12; work conservation short W I D = 12 (39), long W n_cov = 8 (35).
  const problem ll = test::make("LL", 2, 1, 0);
  // LC, W = 2, sigma 2 and 2, one scheduler: T = 2 + 2 = 4 (sigma taken as min(sigma, 1)), D = 3.
  // x 12; full_L_t t = 1..3 and full_C_t t = 2..4 (n_cov = 6); full_sched_t t = 1..4: 22.
  // Constraints: 4 + 2 + 8 + 1 + 3 * 6 + 3 * 4 = 45, plus W I D = 12 (short) or W n_cov = 12 (long).
  const problem lc = test::make("LC", 2, 2, 2, 0, 0, 1);

  const std::string ll_short = ilp_lp_text(ll, 0, ilp_constraints::short_form);
  const std::string ll_long = ilp_lp_text(ll, 0, ilp_constraints::long_form);
  const std::string lc_short = ilp_lp_text(lc, 0, ilp_constraints::short_form);

  EXPECT_EQ(lp_section(ll_short, "Binaries").size(), 16u);
  EXPECT_EQ(lp_constraint_count(ll_short), 39u);
  EXPECT_EQ(lp_section(ll_long, "Binaries").size(), 16u);
  EXPECT_EQ(lp_constraint_count(ll_long), 35u);
  EXPECT_EQ(lp_section(lc_short, "Binaries").size(), 22u);
  EXPECT_EQ(lp_constraint_count(lc_short), 57u);
  EXPECT_EQ(ilp_size(ll, 0, ilp_constraints::long_form), std::make_pair(std::uint64_t{16}, std::uint64_t{35}));
  // The objective is the last cycle of the last warp, and the rows the paper's families.
  EXPECT_NE(ll_short.find("Maximize\n makespan: 2 x_2_2_2 + 3 x_2_2_3 + 4 x_2_2_4\n"), std::string::npos);
  EXPECT_NE(ll_short.find(" prec_1_1: - x_1_1_1 - 2 x_1_1_2 - 3 x_1_1_3 + 2 x_1_2_2 + 3 x_1_2_3 + 4 x_1_2_4 >= 1\n"),
            std::string::npos);
  EXPECT_NE(ll_short.find(" fullonly_L_2: x_1_1_2 + x_1_2_2 + x_2_1_2 + x_2_2_2 - full_L_2 >= 0\n"), std::string::npos);
  EXPECT_NE(ll_short.find(" wc_1_1_2: x_1_1_1 + x_1_1_2 + full_L_2 >= 1\n"), std::string::npos);
  EXPECT_NE(lc_short.find(" cap_sched_2: x_1_1_2 + x_1_2_2 + x_2_1_2 + x_2_2_2 <= 1\n"), std::string::npos);
}

using test::kernels_with_barriers;
const auto& with_blocks = test::make_blocks;

TEST(Ilp, LpTextOfABarrierHasItsRows) {
  // LBL, W = 2 in one block, sigma_L = 1: horizon T = 5 (the pessimistic bound), I = 3, D = 3.
  // Variables: x W I D = 18; full_L_t for t = 1..5 (windows 1-3 and 3-5), full_B_t for t = 2..4;
  // rel_1_2_t for t = 3..5 (the window of the L after the barrier): 18 + 5 + 3 + 3 = 29.
  // Constraints: assign 6, prec 4, one W T = 10, order 1, cap/fullif/fullonly 3 x 8 = 24, wc short
  // W I D = 18; bar W (bw - 1) = 2, relle W D = 6, relge D = 3: 74.
  const problem lbl = with_blocks("LBL", 2, 1, 0, 0, 0);
  const std::string lp = ilp_lp_text(lbl, 0, ilp_constraints::short_form);
  EXPECT_EQ(lp_section(lp, "Binaries").size(), 29u);
  EXPECT_EQ(lp_constraint_count(lp), 74u);
  EXPECT_EQ(ilp_size(lbl, 0, ilp_constraints::short_form), std::make_pair(std::uint64_t{29}, std::uint64_t{74}));
  // Warp 1's last L comes after warp 2's barrier; released in cycle 4 iff both barriers are in by
  // cycle 3; warp 1's L is ready in cycle 4 only when released.
  EXPECT_NE(lp.find(" bar_1_2_2: 3 x_1_3_3 + 4 x_1_3_4 + 5 x_1_3_5 - 2 x_2_2_2 - 3 x_2_2_3 - 4 x_2_2_4 >= 1\n"),
            std::string::npos);
  EXPECT_NE(lp.find(" relle_2_2_4: - x_2_2_2 - x_2_2_3 + rel_1_2_4 <= 0\n"), std::string::npos);
  EXPECT_NE(lp.find(" relge_1_2_4: - x_1_2_2 - x_1_2_3 - x_2_2_2 - x_2_2_3 + rel_1_2_4 >= -1\n"), std::string::npos);
  EXPECT_NE(lp.find(" wc_1_3_4: - x_1_3_3 - x_1_3_4 - full_L_4 + rel_1_2_4 <= 0\n"), std::string::npos);
  // Blocks of one warp: a barrier holds nobody back, no rows or variables for it.
  EXPECT_EQ(ilp_size(with_blocks("LBL", 2, 1, 0, 0, 1), 0, ilp_constraints::short_form),
            std::make_pair(std::uint64_t{26}, std::uint64_t{63}));
}

TEST(Ilp, BarrierSchedulesAreFeasibleAndRunningAheadIsNot) {
  // Every schedule the builder makes from a string that keeps the barriers satisfies every row
  // (else the ILP would miss schedules), in one block and in blocks of 2, both forms.
  std::mt19937_64 rng(5);
  for (const char* kernel : {"LCBCL", "BLCBL", "LLBCC", "CBLB"})
    for (int block : {0, 2})
      for (int schedulers : {0, 2}) {
        const problem prob = with_blocks(kernel, 4, 1, 2, schedulers, block);
        const problem_view p = prob.view();
        for (int k = 0; k < 20; ++k) {
          // A random string that keeps the barriers: each next id drawn among the warps that may go
          // on (a warp right after its j-th barrier waits for its block's warps to list theirs).
          std::vector<std::uint32_t> done(p.warps, 0), passed(p.warps, 0);  // listed, barriers listed
          std::vector<std::uint16_t> str;
          for (;;) {
            std::vector<std::uint16_t> can;
            for (std::uint32_t w = 0; w < p.warps; ++w) {
              if (done[w] == p.instructions) continue;
              bool waits = false;
              if (done[w] > 0 && p.types[done[w] - 1] == p.barrier)
                for (std::uint32_t v = w / p.block * p.block; v < (w / p.block + 1) * p.block; ++v)
                  waits = waits || passed[v] < passed[w];
              if (!waits) can.push_back(static_cast<std::uint16_t>(w));
            }
            if (can.empty()) break;
            const std::uint16_t w = can[rng() % can.size()];
            passed[w] += p.types[done[w]] == p.barrier;
            ++done[w];
            str.push_back(w);
          }
          ASSERT_EQ(str.size(), prob.length());
          ASSERT_EQ(barrier_breach(prob, str), "");
          const built_schedule b = build_schedule(prob, str);
          for (ilp_constraints form : both_forms)
            EXPECT_EQ(ilp_violated_constraint(prob, 0, form, b.cycle), "") << kernel << " block " << block;
        }
      }
  // LBL, W = 2, sigma_L = 1, one block (cycles of warp 1's L B L, then warp 2's).
  const problem lbl = with_blocks("LBL", 2, 1, 0, 0, 0);
  // Warp 2's barrier in cycle 3: warp 1's L in cycle 3 runs past it; in cycle 4 it is right, and
  // warp 1 waiting in cycle 3 with the L unit free breaks no work-conserving row.
  EXPECT_EQ(ilp_violated_constraint(lbl, 0, ilp_constraints::short_form, {1, 2, 3, 2, 3, 4}), "bar_1_2_2");
  EXPECT_EQ(ilp_violated_constraint(lbl, 0, ilp_constraints::short_form, {1, 2, 4, 2, 3, 5}), "");
  // Released in cycle 4 with the L unit free, both idle (horizon 8): not work-conserving.
  EXPECT_EQ(ilp_violated_constraint(lbl, 8, ilp_constraints::short_form, {1, 2, 5, 2, 3, 6}), "wc_1_3_4");
  EXPECT_EQ(ilp_violated_constraint(lbl, 8, ilp_constraints::long_form, {1, 2, 5, 2, 3, 6}), "wc_1_L_4");
  // In blocks of one, warp 1 need not wait.
  EXPECT_EQ(
      ilp_violated_constraint(with_blocks("LBL", 2, 1, 0, 0, 1), 0, ilp_constraints::short_form, {1, 2, 3, 2, 3, 4}),
      "");
}

TEST(Ilp, BarriersEqualTheBruteForce) {
  WARPSPAN_REQUIRE_CBC();
  // Every kernel over {L, C, B} of 2 letters with a barrier, and of 3 letters at W = 2: W = 2 and 3
  // in one block, W = 4 in blocks of 2, with and without a scheduler limit, both forms; some through
  // the LP text.
  for (int length = 2; length <= 3; ++length)
    for (const std::string& k : kernels_with_barriers(length))
      for (const auto& [warps, block] : {std::pair{2, 0}, std::pair{3, 0}, std::pair{4, 2}})
        for (int schedulers : {0, 2}) {
          if (length == 3 && warps > 2) continue;  // minutes of CBC; the tests of blocks below
          const problem prob = with_blocks(k, warps, 1, 2, schedulers, block);
          const std::uint32_t worst = test::brute_worst(prob);
          for (ilp_constraints form : both_forms) {
            ilp_options o;
            o.constraints = form;
            o.through_lp_text = schedulers == 2 && warps == 2;
            const ilp_result r = exact_ilp(prob, o);
            SCOPED_TRACE(k + " W=" + std::to_string(warps) + " block " + std::to_string(block) + " S=" +
                         std::to_string(schedulers) + (form == ilp_constraints::long_form ? " long" : " short"));
            ASSERT_TRUE(r.complete) << r.status;
            EXPECT_EQ(r.makespan, worst);
            EXPECT_EQ(build_schedule(prob, r.best_string).makespan, worst);
          }
        }
  // Three letters in blocks: W = 4 in blocks of 2 (the blocks' interplay), both forms.
  for (const char* k : {"LBL", "CBL", "LBC", "BLC", "LCB"})
    for (ilp_constraints form : both_forms) {
      const problem prob = with_blocks(k, 4, 1, 2, 0, 2);
      EXPECT_EQ(exact_ilp(prob, {form}).makespan, test::brute_worst(prob)) << k;
    }
  // The worked example of docs/makespan.md: LCCBCL, W = 4, sigma L=1,C=4: every schedule 12.
  EXPECT_EQ(exact_ilp(with_blocks("LCCBCL", 4, 1, 4, 0, 0)).makespan, 12u);
}

TEST(Ilp, RefusesModelsThatAreTooLarge) {
  const problem big = test::make("5L9C2L9C", 2000, 1, 4);

  try {
    ilp_lp_text(big, 0, ilp_constraints::short_form);
    FAIL() << "expected input_error";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("variables"), std::string::npos) << e.what();
  }
  if (ilp_compiled()) EXPECT_THROW(exact_ilp(big), input_error);
  EXPECT_THROW(ilp_lp_text(test::make("LCL", 2, 1, 1), 2, ilp_constraints::short_form), input_error);  // T < I
}

TEST(Ilp, TimeLimitGivesAProvenInterval) {
  WARPSPAN_REQUIRE_CBC();
  // Voronoi with 3 warps takes CBC minutes; stopped after half a second it still has a feasible
  // schedule (the best initial string at least) and a bound.
  const problem prob = test::make("5L9C2L9C", 3, 1, 4);
  ilp_options o;
  o.time_limit_s = 0.5;

  const ilp_result r = exact_ilp(prob, o);

  EXPECT_FALSE(r.complete);
  EXPECT_LE(r.lower, r.upper);
  EXPECT_LE(r.lower, 37u);  // the exact search: T(3) = 37
  EXPECT_GE(r.upper, 37u);
  EXPECT_LE(r.upper, pessimistic_bound(prob));
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.lower);
  EXPECT_LT(r.elapsed_s, 30.0);
}

TEST(Ilp, TimeLimitBoundsTheWholeCall) {
  // Voronoi W = 8: CBC's root cuts and preprocessing ignored its own limit (a 5 s limit ended after
  // 49 s). The limit is the call's: the solve is stopped at it, model building included, and the
  // interval stands. 2 s of slack for a loaded machine and the sanitizers.
  WARPSPAN_REQUIRE_CBC();
  const problem prob = test::make("5L9C2L9C", 8, 1, 4);
  ilp_options o;
  o.time_limit_s = 1.0;
  const auto start = std::chrono::steady_clock::now();

  const ilp_result r = exact_ilp(prob, o);

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_LT(wall, o.time_limit_s + 2.0);
  EXPECT_GE(r.elapsed_s, o.time_limit_s);
  EXPECT_FALSE(r.complete);
  EXPECT_FALSE(r.interrupted);
  EXPECT_EQ(r.status, "stopped by the time limit");
  EXPECT_LE(r.lower, r.upper);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.lower);
}

TEST(Ilp, InterruptStopsTheSolve) {
  // Ctrl-C during a solve without a time limit: the child solving is stopped, the interval stays.
  WARPSPAN_REQUIRE_CBC();
  const problem prob = test::make("5L9C2L9C", 8, 1, 4);
  clear_interrupt();
  std::thread later([] {
    std::this_thread::sleep_for(std::chrono::milliseconds(500));
    request_interrupt();
  });

  const ilp_result r = exact_ilp(prob, ilp_options{});

  later.join();
  clear_interrupt();
  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.complete);
  EXPECT_LE(r.lower, r.upper);
  EXPECT_LT(r.elapsed_s, 30.0);  // not the minutes CBC takes to prove W = 8
}

TEST(Ilp, WithoutCbcSaysHowToGetIt) {
  if (ilp_compiled()) GTEST_SKIP() << "this build has CBC";
  EXPECT_THROW(exact_ilp(test::make("LCL", 2, 1, 1)), not_compiled);
}

TEST(CliIlp, ExactMethodIlpPrintsJson) {
  WARPSPAN_REQUIRE_CBC();
  const std::string lp = test::scratch(".lp");

  const test::cli_result r =
      test::run_warpspan("exact --kernel LCL --warps 3 --sigma L=1,C=1 --method ilp --json --lp " + lp);
  const test::cli_result s = test::run_warpspan("exact --kernel LCL --warps 3 --sigma L=1,C=1 --method search --json");

  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(s.code, 0) << s.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["method"].get<std::string>(), "ilp");
  EXPECT_TRUE(j["complete"].get<bool>());
  EXPECT_EQ(j["makespan"].get<int>(), nlohmann::json::parse(s.out)["makespan"].get<int>());
  EXPECT_EQ(j["lower"].get<int>(), j["upper"].get<int>());
  const problem prob = test::make("LCL", 3, 1, 1);
  const auto [vars, rows] = ilp_size(prob, 0, ilp_constraints::short_form);
  EXPECT_EQ(j["variables"].get<std::uint64_t>(), vars);
  EXPECT_EQ(j["constraints"].get<std::uint64_t>(), rows);
  EXPECT_GE(j["elapsed_s"].get<double>(), 0.0);
  std::vector<std::uint16_t> str;
  for (const auto& w : j["best_string"]) str.push_back(static_cast<std::uint16_t>(w.get<int>() - 1));
  EXPECT_EQ(build_schedule(prob, str).makespan, j["makespan"].get<std::uint32_t>());
  std::ifstream in(lp);
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  EXPECT_EQ(text, ilp_lp_text(prob, 0, ilp_constraints::short_form));
  std::remove(lp.c_str());
}

TEST(CliIlp, BadConstraintFormIsAnInputError) {
  const test::cli_result r =
      test::run_warpspan("exact --kernel LCL --warps 3 --sigma L=1,C=1 --method ilp --constraints medium");

  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("--constraints"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace warpspan
