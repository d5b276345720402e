// The team step (team_schedule.hpp) run by a team of one lane must make exactly the chains of the
// shared step (anneal.hpp): same strings, cycles, usage tables and states after every run. The
// warp of 32 lanes runs it in the CUDA tests (test_cuda_anneal.cpp, chain_design::warp), in the
// emulation build under the race checker.
#include <gtest/gtest.h>

#include <cstdint>
#include <vector>

#include "test_util.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/detail/makespan/team_schedule.hpp"

namespace warpspan {
namespace {

struct stored_chain {
  std::vector<unsigned char> block;
  chain_view view;
  std::uint16_t* best = nullptr;
  chain_state state;
};

stored_chain start(const problem_view& p, const std::vector<std::uint16_t>& str) {
  const chain_layout l = make_chain_layout(p);
  stored_chain c;
  c.block.assign(l.bytes, 0);
  c.view = chain_view_at(c.block.data(), l);
  c.best = chain_best_at(c.block.data(), l);
  for (std::uint32_t k = 0; k < p.length; ++k) c.view.str[k] = str[k];
  return c;
}

/// Runs a chain by the shared step and by the team step of one lane (with the plain rebuild, or
/// the one that stops where the schedule rejoins the old one, in turn: the narrow kernel's 8
/// differences and 256 warps, 1 difference, which overflows on most moves, and the compact
/// kernel's 4 differences and 64 warps), in rounds, and compares everything after each round.
void expect_same(const problem& prob, std::uint64_t iterations, std::uint32_t reach, std::uint32_t chain_id,
                 bool rejoin = false) {
  const problem_view p = prob.view();
  anneal_params a;
  a.seed = 77;
  a.iter_max = iterations;
  a.reach = reach;
  a.far = reach ? 200 : 0;
  const std::vector<std::uint16_t> first = initial_string(p, initial_kind::random, a.seed, chain_id);
  stored_chain shared = start(p, first), team = start(p, first);
  anneal_init(p, shared.view, shared.best, shared.state);
  const serial_team one;
  team_anneal_init(p, team.view, team.best, team.state, one);
  std::vector<std::uint32_t> pre(p.warps);
  const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
  const team_rebuild<serial_team, std::uint32_t*> plain{one, pre.data(), nullptr};
  const team_rejoin_rebuild<serial_team, std::uint32_t*> rejoined{one, pre.data(), nullptr};
  const team_rejoin_rebuild<serial_team, std::uint32_t*, 1> tight{one, pre.data(), nullptr};  // overflows often
  ahead_pair ahead[1];  // the compact variant reads ahead into the caller's room, the others into their own
  const packing_rejoin_rebuild<chain_packing::compact, serial_team, std::uint32_t*> compact{one, pre.data(), nullptr,
                                                                                            ahead};
  for (int round = 0; round < 4; ++round) {
    SCOPED_TRACE("round " + std::to_string(round) + (rejoin ? ", rejoin" : ""));
    anneal_run(p, shared.view, shared.best, shared.state, a, chain_id, iterations / 4 + 1);
    if (rejoin && round % 3 == 0)
      anneal_run_by(p, team.view, team.best, team.state, a, chain_id, iterations / 4 + 1, rejoined, one);
    else if (rejoin && round % 3 == 1)
      anneal_run_by(p, team.view, team.best, team.state, a, chain_id, iterations / 4 + 1, tight, one);
    else if (rejoin)
      anneal_run_by(p, team.view, team.best, team.state, a, chain_id, iterations / 4 + 1, compact, one);
    else
      anneal_run_by(p, team.view, team.best, team.state, a, chain_id, iterations / 4 + 1, plain, one);
    ASSERT_EQ(shared.state.makespan, team.state.makespan);
    ASSERT_EQ(shared.state.best, team.state.best);
    ASSERT_EQ(shared.state.iter, team.state.iter);
    ASSERT_EQ(shared.state.best_iter, team.state.best_iter);
    ASSERT_TRUE(std::equal(shared.view.str, shared.view.str + p.length, team.view.str));
    ASSERT_TRUE(std::equal(shared.best, shared.best + p.length, team.best));
    ASSERT_TRUE(std::equal(shared.view.cycle, shared.view.cycle + p.length, team.view.cycle));
    ASSERT_TRUE(std::equal(shared.view.usage, shared.view.usage + cells, team.view.usage));
    ASSERT_TRUE(std::equal(shared.view.progress, shared.view.progress + p.warps, team.view.progress));
    ASSERT_TRUE(std::equal(shared.view.last, shared.view.last + p.warps, team.view.last));
    // The state is the schedule of the string.
    ASSERT_EQ(last_makespan(p, team.view), team.state.makespan);
  }
}

void every_case(bool rejoin) {
  expect_same(test::make("5L9C2L9C", 3, 1, 4), 3000, 0, 1, rejoin);
  expect_same(test::make("5L9C2L9C", 16, 1, 4), 1500, 0, 5, rejoin);
  expect_same(test::make("5L9C2L9C", 16, 1, 4), 1500, 20, 6, rejoin);            // short and far moves
  expect_same(test::make("LSCDLLCSD", 7, 1, 2, 1, 1, 3), 2000, 5, 2, rejoin);    // a scheduler limit
  expect_same(test::make("LBCCBL", 6, 1, 2), 2000, 0, 3, rejoin);                // barriers in one block
  expect_same(test::make_blocks("LCBLCBC", 6, 1, 2, 0, 2), 2000, 0, 4, rejoin);  // in blocks of 2
  expect_same(make_problem(parse_warp_kernels("LBCCL:3,CLBC:2,LLBCC:3"), test::sm_of(1, 1, 0, 0, 2), 4), 2000, 0, 9,
              rejoin);
}

TEST(TeamSchedule, OneLaneMakesTheSharedStepsChains) { every_case(false); }

TEST(TeamSchedule, OneLaneRejoiningMakesTheSharedStepsChains) {
  every_case(true);
  // Longer runs at W = 16 and 48, from strings far from the worst (many moves that shift a few
  // placements and fall back in step) and a cold chain.
  expect_same(test::make("5L9C2L9C", 16, 1, 4), 20000, 64, 7, true);
  expect_same(test::make("5L9C2L9C", 48, 1, 4), 4000, 192, 8, true);
  // Past 64 warps the compact variant's bits run out: moves that shift a warp from 64 on do not
  // rejoin.
  expect_same(test::make("5L9C2L9C", 72, 1, 4), 2000, 288, 10, true);
}

TEST(TeamSchedule, WarpOfEachPairIsFound) {
  const problem uniform = test::make("LCC", 5, 1, 1);
  const problem per_warp = make_problem(parse_warp_kernels("LCCL:2,C:1,LLC:2"), test::sm_of(1, 1), 0);
  for (const problem* prob : {&uniform, &per_warp}) {
    const problem_view p = prob->view();
    for (std::uint32_t w = 0; w < p.warps; ++w)
      for (std::uint32_t j = 0; j < warp_length(p, w); ++j) EXPECT_EQ(warp_at(p, warp_begin(p, w) + j), w);
  }
}

}  // namespace
}  // namespace warpspan
