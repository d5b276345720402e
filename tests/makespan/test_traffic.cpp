// The interleaved layout of the GPU chains and the counting views that measure memory traffic: both
// run the shared header code through another kind of pointer, so both must leave every value as a
// plain view does, and the counts must be what the code does access by hand.
#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"
#include "warpspan/dbf/traffic.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/traffic.hpp"

namespace warpspan {
namespace {

/// One chain stored alone, on the round-robin string.
struct lone_chain {
  explicit lone_chain(const problem_view& p) : layout(make_chain_layout(p)), block(layout.bytes, 0) {
    view = chain_view_at(block.data(), layout);
    const auto start = round_robin_string(p);
    std::copy(start.begin(), start.end(), view.str);
  }
  std::uint16_t* best() { return chain_best_at(block.data(), layout); }
  chain_layout layout;
  std::vector<unsigned char> block;
  chain_view view;
};

TEST(InterleavedChains, SameTrajectoryAsChainsStoredAlone) {
  for (const problem& prob : {test::make("5L9C2L9C", 5, 1, 4), test::make("LSCDLLCSD", 4, 1, 2, 1, 1, 3)}) {
    const problem_view p = prob.view();
    const chain_layout l = make_chain_layout(p);
    constexpr std::uint32_t chains = 5;
    anneal_params a;
    a.seed = 77;
    a.iter_max = 600;
    std::vector<unsigned char> together(l.bytes * chains, 0);
    for (std::uint32_t c = 0; c < chains; ++c) {
      std::vector<unsigned char> alone(l.bytes, 0);
      const chain_view plain = chain_view_at(alone.data(), l);
      const interleaved_chain_view strided = interleaved_view_at(together.data(), l, chains, c);
      const auto start = random_string(p, a.seed, c);
      for (std::uint32_t k = 0; k < p.length; ++k) plain.str[k] = strided.str[k] = start[k];
      chain_state s1, s2;
      anneal_init(p, plain, chain_best_at(alone.data(), l), s1);
      anneal_init(p, strided, interleaved_best_at(together.data(), l, chains, c), s2);
      anneal_run(p, plain, chain_best_at(alone.data(), l), s1, a, c, a.iter_max);
      anneal_run(p, strided, interleaved_best_at(together.data(), l, chains, c), s2, a, c, a.iter_max);
      EXPECT_EQ(s1.best, s2.best);
      EXPECT_EQ(s1.makespan, s2.makespan);
      EXPECT_EQ(s1.best_iter, s2.best_iter);
      for (std::uint32_t k = 0; k < p.length; ++k) {
        ASSERT_EQ(plain.str[k], strided.str[k]) << "chain " << c << " position " << k;
        ASSERT_EQ(chain_best_at(alone.data(), l)[k], interleaved_best_at(together.data(), l, chains, c)[k]);
        ASSERT_EQ(plain.cycle[k], strided.cycle[k]);
      }
    }
  }
}

TEST(InterleavedChains, CopyOfTheWorkingStateKeepsTheChainGoing) {
  // The on-chip kernel copies cycles, usage and string in and out around each launch and marks every
  // warp complete: a chain moved that way between rounds must go on exactly as one that stayed.
  const problem prob = test::make("5L9C2L9C", 6, 1, 4);
  const problem_view p = prob.view();
  const chain_layout l = make_chain_layout(p);
  anneal_params a;
  a.seed = 5;
  a.iter_max = 900;
  std::vector<unsigned char> stay(l.bytes, 0), home(l.bytes * 3, 0), chip(l.bytes * 2, 0);
  const chain_view v = chain_view_at(stay.data(), l);
  const interleaved_chain_view g = interleaved_view_at(home.data(), l, 3, 1);
  const auto start = round_robin_string(p);
  for (std::uint32_t k = 0; k < p.length; ++k) v.str[k] = g.str[k] = start[k];
  chain_state s1, s2;
  anneal_init(p, v, chain_best_at(stay.data(), l), s1);
  anneal_init(p, g, interleaved_best_at(home.data(), l, 3, 1), s2);
  for (int round = 0; round < 9; ++round) {
    anneal_run(p, v, chain_best_at(stay.data(), l), s1, a, 3, 100);
    const interleaved_chain_view local = interleaved_view_at(chip.data(), l, 2, 0);
    copy_working_state(p, local, g);
    anneal_run(p, local, interleaved_best_at(home.data(), l, 3, 1), s2, a, 3, 100);
    copy_working_state(p, g, local);
    ASSERT_EQ(s1.makespan, s2.makespan) << "round " << round;
    ASSERT_EQ(s1.best, s2.best) << "round " << round;
  }
}

TEST(TrafficCount, BuildOfOneWarpByHand) {
  // One warp never waits: each instruction probes one cycle. Per position: reads str (2), progress
  // (4), last (4), the usage cell probed (2) and incremented (2); writes the usage cell (2), cycle,
  // last and progress (4 each). The reset writes the usage table and both counters.
  const problem prob = test::make("LCLCC", 1, 1, 1);
  const problem_view p = prob.view();
  lone_chain chain(p);
  access_tally t;
  const std::uint32_t makespan = build_full(p, counting_view(chain.view, &t));
  EXPECT_EQ(makespan, build_full(p, chain.view));
  const std::uint64_t n = p.length, cells = (std::uint64_t{p.horizon} + 1) * p.stride;
  EXPECT_EQ(t.read, 14 * n);
  EXPECT_EQ(t.written, 14 * n + 2 * cells + 8);
}

TEST(TrafficCount, AnnealingThroughCountersKeepsItsTrajectory) {
  const problem prob = test::make("5L9C2L9C", 8, 1, 4);
  anneal_params a;
  a.seed = 11;
  a.iter_max = 2000;
  const anneal_traffic t = measure_anneal_traffic(prob, a, a.iter_max, 4);
  // The same chain through plain pointers.
  const problem_view p = prob.view();
  lone_chain chain(p);
  chain_state s;
  anneal_init(p, chain.view, chain.best(), s);
  anneal_run(p, chain.view, chain.best(), s, a, 4, a.iter_max);
  EXPECT_EQ(t.final_best, s.best);
  EXPECT_EQ(t.iterations, 2000u);
  // Every iteration reads at least the two ids it swaps and writes them; a rebuild touches more.
  EXPECT_GT(t.state_per_iteration(), 8.0);
  // The on-chip copy: cycles (4 bytes), string (2) and the usage table (2 a cell) each way, and
  // every warp marked complete on the way out (4 a warp).
  const std::uint64_t one_way = 6 * std::uint64_t{p.length} + 2 * (std::uint64_t{p.horizon} + 1) * p.stride;
  EXPECT_EQ(t.working_bytes, 2 * one_way + 4 * std::uint64_t{p.warps});
}

TEST(TrafficCount, DbfCellsByHand) {
  // Row 0: the dummy source (e = d = 0), level 0. Row 1: wcet 1, deadline 2, one predecessor (row
  // 0, gap 0), level 1. Demands 0..1. Only cell (1, 1) reads a tuple (8 bytes) and a cell (4). Row
  // 0's cells are stored (8: level 1 reads them), row 1's nowhere (no level reads them). The first
  // level writes each column's minimum (8); the second reads and writes it again (8 and 8).
  unrolled_graph g;
  g.rows = 2;
  g.wcet = {0, 1};
  g.deadline = {0, 2};
  g.pred_begin = {0, 0, 1};
  g.preds = {{0, 0}};
  g.max_demand = 1;
  const dbf_traffic t = measure_dbf_traffic(g);
  EXPECT_EQ(t.cells, 4u);
  EXPECT_EQ(t.tuples.read, 8u);
  EXPECT_EQ(t.table.read, 4u);
  EXPECT_EQ(t.table.written, 8u);
  EXPECT_EQ(t.min_span.read, 8u);
  EXPECT_EQ(t.min_span.written, 16u);
  EXPECT_EQ(t.staged, 8u);
}

}  // namespace
}  // namespace warpspan
