// Narrow chains (chain_packing::narrow: 8-bit string and usage counters, 16-bit cycles, progress,
// last and undo) run the same arithmetic as wide ones: the same schedules, the same trajectories,
// the same best strings, stored alone (as the CPU stores a chain) and interleaved (as the GPU does),
// on kernels with a scheduler limit, barriers in blocks and a path per warp. The CUDA backend runs
// them (tests/makespan/test_cuda_anneal.cpp: ...MatchesCpu at both packings).
#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {
namespace {

std::vector<problem> problems() {
  std::vector<problem> out;
  out.push_back(test::make("5L9C2L9C", 16, 1, 4));           // Voronoi, W = 16
  out.push_back(test::make("LSCDLLCSD", 7, 1, 2, 1, 1, 3));  // every unit, a scheduler limit
  out.push_back(make_problem(parse_kernel_string("2LCB3CLBL"), test::sm_of(1, 2), 12, 4));  // barriers, blocks of 4
  out.push_back(make_problem(parse_warp_kernels("LBCCL:3,CLBC:2,LLBCC:3"), test::sm_of(1, 1, 0, 0, 2), 4));  // a path per warp
  out.push_back(test::make("LC", 255, 1, 1));  // the most warps narrow holds: ids up to 254
  return out;
}

template <class Wide, class Narrow, class WideBest, class NarrowBest>
void expect_same_run(const problem_view& p, const Wide& wide, WideBest wide_best, const Narrow& narrow,
                     NarrowBest narrow_best, std::uint32_t chain) {
  anneal_params a;
  a.seed = 2026;
  a.iter_max = 1500;
  a.reach = chain % 2 ? 0 : 7;
  a.far = 40;
  const auto start = initial_string(p, initial_kind::random, a.seed, chain);  // kept to the barriers
  for (std::uint32_t k = 0; k < p.length; ++k) {
    wide.str[k] = start[k];
    narrow.str[k] = static_cast<std::uint8_t>(start[k]);
  }
  chain_state s1, s2;
  anneal_init(p, wide, wide_best, s1);
  anneal_init(p, narrow, narrow_best, s2);
  ASSERT_EQ(s1.makespan, s2.makespan);
  ASSERT_NE(s1.makespan, no_schedule) << "the random string breaks a barrier";
  // In rounds of different lengths, as the backends split them.
  anneal_run(p, wide, wide_best, s1, a, chain, 500);
  anneal_run(p, wide, wide_best, s1, a, chain, a.iter_max);
  anneal_run(p, narrow, narrow_best, s2, a, chain, 700);
  anneal_run(p, narrow, narrow_best, s2, a, chain, a.iter_max);
  EXPECT_EQ(s1.iter, s2.iter);
  EXPECT_EQ(s1.best, s2.best);
  EXPECT_EQ(s1.makespan, s2.makespan);
  EXPECT_EQ(s1.best_iter, s2.best_iter);
  for (std::uint32_t k = 0; k < p.length; ++k) {
    ASSERT_EQ(wide.str[k], narrow.str[k]) << "chain " << chain << " position " << k;
    ASSERT_EQ(wide_best[k], narrow_best[k]) << "chain " << chain << " position " << k;
    ASSERT_EQ(wide.cycle[k], narrow.cycle[k]) << "chain " << chain << " position " << k;
  }
  for (std::uint32_t t = 0; t <= p.horizon; ++t)
    for (std::uint32_t u = 0; u < p.stride; ++u)
      ASSERT_EQ(wide.usage[std::size_t{t} * p.stride + u], narrow.usage[std::size_t{t} * p.stride + u]);
}

TEST(NarrowChains, SameTrajectoriesAsWideChainsStoredAlone) {
  for (const problem& prob : problems()) {
    const problem_view p = prob.view();
    SCOPED_TRACE(testing::Message() << "W = " << p.warps << ", n = " << p.length);
    ASSERT_TRUE(narrow_fits(p));
    const chain_layout wl = make_chain_layout(p), nl = make_chain_layout(p, chain_packing::narrow);
    for (std::uint32_t chain = 0; chain < 3; ++chain) {
      std::vector<unsigned char> wide(wl.bytes, 0), narrow(nl.bytes, 0);
      expect_same_run(p, chain_view_at(wide.data(), wl), chain_best_at(wide.data(), wl),
                      narrow_view_at(narrow.data(), nl), chain_best_at(narrow.data(), nl), chain);
    }
  }
}

TEST(NarrowChains, SameTrajectoriesInterleaved) {
  // Three narrow chains interleaved (the GPU's layout), against each chain wide and alone.
  for (const problem& prob : problems()) {
    const problem_view p = prob.view();
    SCOPED_TRACE(testing::Message() << "W = " << p.warps << ", n = " << p.length);
    const chain_layout wl = make_chain_layout(p), nl = make_chain_layout(p, chain_packing::narrow);
    constexpr std::uint32_t chains = 3;
    std::vector<unsigned char> together(nl.bytes * chains, 0);
    for (std::uint32_t c = 0; c < chains; ++c) {
      std::vector<unsigned char> wide(wl.bytes, 0);
      expect_same_run(p, chain_view_at(wide.data(), wl), chain_best_at(wide.data(), wl),
                      interleaved_narrow_view_at(together.data(), nl, chains, c),
                      interleaved_best_at(together.data(), nl, chains, c), c + 10);
    }
  }
}

TEST(NarrowChains, LayoutOffsetsAtEachPacking) {
  // 3 warps x 4 instructions (n = 12), horizon h, 2 counters a cycle. Wide: 4-byte cycles, undo,
  // progress, last, then 2-byte usage and string. Narrow: 2-byte, then 1-byte.
  const problem prob = test::make("LCLC", 3, 1, 1);
  const problem_view p = prob.view();
  const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
  const chain_layout w = make_chain_layout(p), n = make_chain_layout(p, chain_packing::narrow);
  EXPECT_EQ(w.undo, 48u);
  EXPECT_EQ(w.progress, 96u);
  EXPECT_EQ(w.last, 108u);
  EXPECT_EQ(w.usage, 120u);
  EXPECT_EQ(w.str, 120u + 2 * cells);
  EXPECT_EQ(n.undo, 24u);
  EXPECT_EQ(n.progress, 48u);
  EXPECT_EQ(n.last, 54u);
  EXPECT_EQ(n.usage, 60u);
  EXPECT_EQ(n.str, 60u + cells);
  EXPECT_EQ(n.best, (60u + cells + 12u + 15u) / 16u * 16u);
  EXPECT_EQ(n.bytes, (n.best + 24u + 15u) / 16u * 16u);
  EXPECT_EQ(n.packing, chain_packing::narrow);
  EXPECT_EQ(w.packing, chain_packing::wide);
}

}  // namespace
}  // namespace warpspan
