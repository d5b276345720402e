// Narrow chains (chain_packing::narrow: 8-bit string and usage counters, 16-bit cycles, progress,
// last and undo) and compact ones (every element 8-bit, the usage table only to the pessimistic
// bound) run the same arithmetic as wide ones: the same schedules, the same trajectories, the same
// best strings, stored alone (as the CPU stores a chain), interleaved by element (as the GPU does
// in global memory) and by word (on chip), on kernels with a scheduler limit, barriers in blocks
// and a path per warp. The CUDA backend runs them (tests/makespan/test_cuda_anneal.cpp:
// ...MatchesCpu at every packing).
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
  out.push_back(
      make_problem(parse_warp_kernels("LBCCL:3,CLBC:2,LLBCC:3"), test::sm_of(1, 1, 0, 0, 2), 4));  // a path per warp
  out.push_back(test::make("LC", 255, 1, 1));  // the most warps narrow holds: ids up to 254
  return out;
}

/// `q`: the problem as the narrow chain is built with (chain_problem(p, packing)); a compact chain's
/// usage table ends at the bound, and the wide one must have nothing after it.
template <class Wide, class Narrow, class WideBest, class NarrowBest>
void expect_same_run(const problem_view& p, const Wide& wide, WideBest wide_best, const Narrow& narrow,
                     NarrowBest narrow_best, std::uint32_t chain, const problem_view* q = nullptr) {
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
  const problem_view& pn = q ? *q : p;
  chain_state s1, s2;
  anneal_init(p, wide, wide_best, s1);
  anneal_init(pn, narrow, narrow_best, s2);
  ASSERT_EQ(s1.makespan, s2.makespan);
  ASSERT_NE(s1.makespan, no_schedule) << "the random string breaks a barrier";
  // In rounds of different lengths, as the backends split them.
  anneal_run(p, wide, wide_best, s1, a, chain, 500);
  anneal_run(p, wide, wide_best, s1, a, chain, a.iter_max);
  anneal_run(pn, narrow, narrow_best, s2, a, chain, 700);
  anneal_run(pn, narrow, narrow_best, s2, a, chain, a.iter_max);
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
    for (std::uint32_t u = 0; u < p.stride; ++u) {
      const std::size_t cell = std::size_t{t} * p.stride + u;
      if (t <= pn.horizon)
        ASSERT_EQ(wide.usage[cell], narrow.usage[cell]) << "cycle " << t;
      else
        ASSERT_EQ(wide.usage[cell], 0u) << "cycle " << t << " is past the bound " << pn.horizon;
    }
}

TEST(NarrowChains, SameTrajectoriesAsWideChainsStoredAlone) {
  for (const problem& prob : problems()) {
    const problem_view p = prob.view();
    SCOPED_TRACE(testing::Message() << "W = " << p.warps << ", n = " << p.length);
    ASSERT_TRUE(narrow_fits(p));
    const problem_view q = chain_problem(p, chain_packing::narrow);  // the usage table to the bound
    const chain_layout wl = make_chain_layout(p), nl = make_chain_layout(p, chain_packing::narrow);
    for (std::uint32_t chain = 0; chain < 3; ++chain) {
      std::vector<unsigned char> wide(wl.bytes, 0), narrow(nl.bytes, 0);
      expect_same_run(p, chain_view_at(wide.data(), wl), chain_best_at(wide.data(), wl),
                      narrow_view_at(narrow.data(), nl), chain_best_at(narrow.data(), nl), chain, &q);
    }
  }
}

TEST(NarrowChains, SameTrajectoriesInterleaved) {
  // Three narrow chains interleaved (the GPU's layout), against each chain wide and alone.
  for (const problem& prob : problems()) {
    const problem_view p = prob.view();
    SCOPED_TRACE(testing::Message() << "W = " << p.warps << ", n = " << p.length);
    const problem_view q = chain_problem(p, chain_packing::narrow);
    const chain_layout wl = make_chain_layout(p), nl = make_chain_layout(p, chain_packing::narrow);
    constexpr std::uint32_t chains = 3;
    std::vector<unsigned char> together(nl.bytes * chains, 0);
    for (std::uint32_t c = 0; c < chains; ++c) {
      std::vector<unsigned char> wide(wl.bytes, 0);
      expect_same_run(p, chain_view_at(wide.data(), wl), chain_best_at(wide.data(), wl),
                      interleaved_narrow_view_at(together.data(), nl, chains, c),
                      interleaved_best_at(together.data(), nl, chains, c), c + 10, &q);
    }
  }
}

TEST(NarrowChains, LayoutOffsetsAtEachPacking) {
  // 3 warps x 4 instructions (n = 12), horizon 12, 2 counters a cycle (26 cells), every array a
  // whole number of 32-bit words. Wide: 4-byte cycles, undo, progress, last, then 2-byte usage and
  // string. Narrow: 2-byte, then 1-byte. Compact: 1-byte, the usage table to the bound, 4 + 2 x 2
  // + 2 x 2 = 12 cycles here (13 rows, 26 cells; the bound equals the horizon).
  const problem prob = test::make("LCLC", 3, 1, 1);
  const problem_view p = prob.view();
  ASSERT_EQ(p.horizon, 12u);
  ASSERT_EQ(p.bound, 12u);
  const chain_layout w = make_chain_layout(p), n = make_chain_layout(p, chain_packing::narrow),
                     c = make_chain_layout(p, chain_packing::compact);
  EXPECT_EQ(w.undo, 48u);
  EXPECT_EQ(w.progress, 96u);
  EXPECT_EQ(w.last, 108u);
  EXPECT_EQ(w.usage, 120u);
  EXPECT_EQ(w.str, 120u + 52u);
  EXPECT_EQ(n.undo, 24u);
  EXPECT_EQ(n.progress, 48u);
  EXPECT_EQ(n.last, 56u);  // 6 bytes of progress take 2 words
  EXPECT_EQ(n.usage, 64u);
  EXPECT_EQ(n.str, 64u + 28u);  // 26 one-byte cells take 7 words
  EXPECT_EQ(n.best, 112u);      // 92 + 12, rounded to 16
  EXPECT_EQ(n.bytes, 144u);     // 112 + 24, rounded to 16
  EXPECT_EQ(c.undo, 12u);
  EXPECT_EQ(c.progress, 24u);
  EXPECT_EQ(c.last, 28u);
  EXPECT_EQ(c.usage, 32u);
  EXPECT_EQ(c.str, 60u);
  EXPECT_EQ(c.best, 80u);
  EXPECT_EQ(c.bytes, 112u);
  EXPECT_EQ(c.packing, chain_packing::compact);
  EXPECT_EQ(n.packing, chain_packing::narrow);
  EXPECT_EQ(w.packing, chain_packing::wide);
}

TEST(CompactChains, VoronoiSixteenWarpsTakes1632WorkingBytes) {
  // Voronoi 5L9C2L9C, W = 16, sigma L=1, C=4: the bound is 25 + 15 x 7 / 1 + floor(15 x 18 / 4) =
  // 25 + 105 + 67 = 197 (bounds.hpp), so the usage table has 198 rows of 2 counters; 400 cycles,
  // 400 undo entries, 16 + 16 counters and 400 ids, a byte each: 1,628 bytes, 1,632 aligned (narrow:
  // 2,464, the same table with 16-bit cycles), and the 800-byte best string.
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  const problem_view p = prob.view();
  EXPECT_EQ(p.bound, 197u);
  EXPECT_EQ(p.horizon, 400u);
  ASSERT_TRUE(compact_fits(p));
  EXPECT_EQ(pick_chain_packing(p), chain_packing::compact);
  EXPECT_EQ(chain_problem(p, chain_packing::compact).horizon, 197u);
  EXPECT_EQ(chain_problem(p, chain_packing::narrow).horizon, 197u);  // the same table, 16-bit cycles
  EXPECT_EQ(chain_problem(p, chain_packing::wide).horizon, 400u);
  const chain_layout c = make_chain_layout(p, chain_packing::compact);
  EXPECT_EQ(c.usage, 832u);
  EXPECT_EQ(c.str, 832u + 396u);
  EXPECT_EQ(c.best, 1632u);
  EXPECT_EQ(c.bytes, 1632u + 800u);
  // The same from the compact problem itself: the layout depends on the bound alone.
  EXPECT_EQ(make_chain_layout(chain_problem(p, chain_packing::compact), chain_packing::compact).bytes, c.bytes);
}

TEST(CompactChains, FitsWhereTheBoundWarpsAndInstructionsFitAByte) {
  EXPECT_TRUE(compact_fits(test::make("LCLC", 3, 1, 1).view()));
  // 255 warps of LC at sigma 1: the bound is 2 + 254 + 254 = 510 cycles: narrow, not compact.
  const problem many = test::make("LC", 255, 1, 1);
  EXPECT_EQ(many.view().bound, 510u);
  EXPECT_FALSE(compact_fits(many.view()));
  EXPECT_EQ(pick_chain_packing(many.view()), chain_packing::narrow);
  // A kernel of 256 instructions on one warp: I does not fit (progress counts to I).
  EXPECT_FALSE(compact_fits(test::make("128L128C", 1, 1, 1).view()));
  // A view not made by make_problem has no bound: never compact.
  problem_view bare = test::make("LCLC", 3, 1, 1).view();
  bare.bound = 0;
  EXPECT_FALSE(compact_fits(bare));
  EXPECT_THROW(resolve_chain_packing(many.view(), chain_packing::compact), std::invalid_argument);
  EXPECT_THROW(resolve_chain_packing(test::make("LCLC", 3, 1, 1).view(), chain_packing::compact, false),
               std::invalid_argument);
  EXPECT_EQ(resolve_chain_packing(many.view(), std::nullopt, false), chain_packing::wide);
}

TEST(CompactChains, SameTrajectoriesAsWideChainsStoredAlone) {
  int ran = 0;
  for (const problem& prob : problems()) {
    const problem_view p = prob.view();
    if (!compact_fits(p)) continue;
    ++ran;
    SCOPED_TRACE(testing::Message() << "W = " << p.warps << ", n = " << p.length << ", bound " << p.bound);
    const problem_view q = chain_problem(p, chain_packing::compact);
    const chain_layout wl = make_chain_layout(p), cl = make_chain_layout(p, chain_packing::compact);
    for (std::uint32_t chain = 0; chain < 3; ++chain) {
      std::vector<unsigned char> wide(wl.bytes, 0), compact(cl.bytes, 0);
      expect_same_run(p, chain_view_at(wide.data(), wl), chain_best_at(wide.data(), wl),
                      compact_view_at(compact.data(), cl), chain_best_at(compact.data(), cl), chain, &q);
    }
  }
  EXPECT_EQ(ran, 4);  // all but the 255 warps
}

TEST(CompactChains, EveryPackingWordInterleavedAsOnChip) {
  // The on-chip layout (word_interleaved_view_as): 64 chains of each packing interleaved by
  // 32-bit word, against each chain wide and alone: the first, a middle and the last chain run
  // (each in its own words; the others stay zero).
  for (const problem& prob : problems()) {
    const problem_view p = prob.view();
    SCOPED_TRACE(testing::Message() << "W = " << p.warps << ", n = " << p.length);
    const chain_layout wl = make_chain_layout(p);
    constexpr std::uint32_t chains = 64;
    const auto run_all = [&](chain_packing packing, auto small, auto large) {
      using Small = decltype(small);
      using Large = decltype(large);
      SCOPED_TRACE(to_string(packing));
      const problem_view q = chain_problem(p, packing);
      const chain_layout l = make_chain_layout(p, packing);
      std::vector<unsigned char> together(l.best * chains, 0);
      std::vector<std::uint16_t> best(std::size_t{p.length} * chains);
      for (const std::uint32_t c : {0u, 29u, chains - 1}) {
        std::vector<unsigned char> wide(wl.bytes, 0);
        expect_same_run(p, chain_view_at(wide.data(), wl), chain_best_at(wide.data(), wl),
                        word_interleaved_view_as<Small, Large>(together.data(), l, chains, c),
                        best.data() + std::size_t{c} * p.length, c + 20, &q);
      }
    };
    run_all(chain_packing::wide, std::uint16_t{}, std::uint32_t{});
    run_all(chain_packing::narrow, std::uint8_t{}, std::uint16_t{});
    if (compact_fits(p)) run_all(chain_packing::compact, std::uint8_t{}, std::uint8_t{});
  }
}

TEST(CompactChains, WordInterleavedElementsLieInTheChainsOwnWords) {
  // Element k of chain c, 8-bit, 64 chains: byte (k / 4) x 64 x 4 + 4 c + k % 4 of the region.
  std::vector<std::uint8_t> region(64 * 4 * 3, 0);
  const word_strided_ptr<std::uint8_t> seven{region.data() + 4 * 7, 64};
  for (std::uint8_t k = 0; k < 12; ++k) seven[k] = static_cast<std::uint8_t>(k + 1);
  for (std::size_t k = 0; k < 12; ++k) EXPECT_EQ(region[(k / 4) * 256 + 28 + k % 4], k + 1) << k;
  // Arithmetic keeps the element, not the address: a row of the usage table.
  EXPECT_EQ(&(seven + 5)[2], &seven[7]);
  // 16-bit: two a word.
  std::vector<std::uint16_t> halves(64 * 2 * 2, 0);
  const word_strided_ptr<std::uint16_t> three{halves.data() + 2 * 3, 64};
  three[3] = 99;
  EXPECT_EQ(halves[(3 / 2) * 128 + 6 + 1], 99);
}

}  // namespace
}  // namespace warpspan
