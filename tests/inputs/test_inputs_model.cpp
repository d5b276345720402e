// The SIMT cost model on tiny kernels whose costs are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"
#include "warpspan/inputs/kernels.hpp"
#include "warpspan/inputs/search.hpp"
#include "warpspan/inputs/model.hpp"

namespace warpspan::inputs {
namespace {

/// A model without throughput limits: a launch costs its slowest warp.
model_config unlimited(std::uint32_t sms = 1) {
  model_config cfg;
  cfg.sm.sigma = {1000, 1000, 0, 0};
  cfg.sm.copies = {1, 1, 0, 0};
  cfg.sms = sms;
  return cfg;
}

namespace hx = warpspan::harness;

// Test kernels, written against warpspan/harness.hpp as a user's harness is; g is the thread's
// one input word.

// work 2; if (g > 0) work 5 else work 3; join; work 1
struct if_else_kernel {
  static constexpr const char* name = "if_else";
  static constexpr std::uint32_t block = 64, branches = 1;
  static constexpr warpspan_field fields[] = {hx::thread_int("g", 0, 4096)};
  static std::uint64_t scratch_words(std::uint32_t) { return 1; }
  template <class H>
  static void thread(H& h, const hx::args& a) {
    h.work(2);
    if (h.branch(0, a.input[a.tid] > 0))
      h.work(5);
    else
      h.work(3);
    h.join(0);
    h.work(1);
  }
};

// work 1; for (i = 0; i < g; ++i) work 4; join; work 2
struct loop_kernel : if_else_kernel {
  template <class H>
  static void thread(H& h, const hx::args& a) {
    h.work(1);
    for (std::int32_t i = 0; h.branch(0, i < a.input[a.tid]); ++i) h.work(4);
    h.join(0);
    h.work(2);
  }
};

// two atomics per thread: on s[g] and on s[64 + tid % 2]
struct atomic_kernel : if_else_kernel {
  static std::uint64_t scratch_words(std::uint32_t) { return 66; }
  template <class H>
  static void thread(H& h, const hx::args& a) {
    h.atomic_add(&a.scratch[a.input[a.tid]], 1);
    h.atomic_add(&a.scratch[64 + a.tid % 2], 1);
  }
};

// work 1; if (g >= 1) { work 2; if (g == 2) work 3 else work 4; join 1; work 5 } else work 6; join 0; work 7
struct nested_kernel : if_else_kernel {
  static constexpr std::uint32_t branches = 2;
  template <class H>
  static void thread(H& h, const hx::args& a) {
    const std::int32_t g = a.input[a.tid];
    h.work(1);
    if (h.branch(0, g >= 1)) {
      h.work(2);
      if (h.branch(1, g == 2))
        h.work(3);
      else
        h.work(4);
      h.join(1);
      h.work(5);
    } else {
      h.work(6);
    }
    h.join(0);
    h.work(7);
  }
};

// one load per thread of word g[tid] of the scratch memory (aligned to 256 bytes by the model)
template <space Space>
struct load_kernel : if_else_kernel {
  static std::uint64_t scratch_words(std::uint32_t) { return 2048; }
  template <class H>
  static void thread(H& h, const hx::args& a) {
    h.load(&a.scratch[a.input[a.tid]], 4, Space);
  }
};

// warp 0 (threads 0..31) works 10, then 1; warp 1 works 2, then 7; a barrier between
struct barrier_kernel : if_else_kernel {
  template <class H>
  static void thread(H& h, const hx::args& a) {
    h.work(a.tid < 32 ? 10 : 2);
    if (a.input[a.tid] != 0) h.barrier();
    h.work(a.tid < 32 ? 1 : 7);
  }
};

// work 2^31 twice in a row, then work 3 after a branch: the lane's merged work is 2^32 instructions
struct long_work_kernel : if_else_kernel {
  template <class H>
  static void thread(H& h, const hx::args& a) {
    h.work(std::uint32_t{1} << 31);
    h.work(std::uint32_t{1} << 31);
    if (h.branch(0, a.input[a.tid] > 0)) h.work(3);
    h.join(0);
  }
};

template <class K>
model_run run(const std::vector<std::int32_t>& g, const model_config& cfg = unlimited()) {
  return run_model(*make_harness(hx::describe<K>()), cfg, g, static_cast<std::uint32_t>(g.size()));
}

TEST(InputsModel, DivergentIfElsePaysBothLegs) {
  const std::vector<std::int32_t> taken(32, 1), not_taken(32, 0);
  std::vector<std::int32_t> mixed(32, 0);
  mixed[7] = 1;

  EXPECT_EQ(run<if_else_kernel>(taken).cycles, 2u + 5 + 1);
  EXPECT_EQ(run<if_else_kernel>(not_taken).cycles, 2u + 3 + 1);
  EXPECT_EQ(run<if_else_kernel>(mixed).cycles, 2u + 5 + 3 + 1);
}

TEST(InputsModel, WarpsAreSeparate) {
  // 40 threads: warp 0 is threads 0..31 (all taken), warp 1 threads 32..39 with one divergent.
  std::vector<std::int32_t> g(40, 1);
  g[35] = 0;

  const auto r = run<if_else_kernel>(g);

  EXPECT_EQ(r.cycles, 11u);  // the divergent warp; the other costs 8
  EXPECT_EQ(r.launches, 1u);
}

TEST(InputsModel, LoopCostsTheLongestTripCount) {
  const std::vector<std::int32_t> trips{0, 3, 5, 1};

  // entry 1 + 5 iterations x 4 + exit leg 0 + after the join 2
  EXPECT_EQ(run<loop_kernel>(trips).cycles, 1u + 5 * 4 + 2);
  EXPECT_EQ(run<loop_kernel>({0, 0}).cycles, 1u + 2);
}

TEST(InputsModel, WorkCallsInARowAddUpBeyond32Bits) {
  // Issue 41: the merged count was 32 bits, and 2^31 + 2^31 wrapped to 0 (the run cost 3 cycles).
  EXPECT_EQ(run<long_work_kernel>({0}).cycles, std::uint64_t{1} << 32);
  EXPECT_EQ(run<long_work_kernel>({1}).cycles, (std::uint64_t{1} << 32) + 3);
}

TEST(InputsModel, NestedDivergenceReconvergesInnerFirst) {
  // Lanes with g = 2, 1, 0: every block runs once for the lanes that reach it: 1 + 2 + 3 + 4 + 5
  // (the inner legs reconverge at join 1 before the 5) + 6 + 7 = 28; all g = 2: 1 + 2 + 3 + 5 + 7.
  EXPECT_EQ(run<nested_kernel>({2, 1, 0}).cycles, 28u);
  EXPECT_EQ(run<nested_kernel>({2, 2, 2}).cycles, 18u);
  EXPECT_EQ(run<nested_kernel>({2, 1, 2, 1}).cycles, 1u + 2 + 3 + 4 + 5 + 7);
}

TEST(InputsModel, ImmediatePostDominatorsOfTheObservedGraph) {
  // The record of the nested kernel's three lanes: entry 0, branch 0 not taken 1 / taken 2, join 0
  // = 3, branch 1 not taken 4 / taken 5, join 1 = 6, EXIT 7.
  block_record rec;
  lane_hooks h(rec, 2);
  const std::vector<std::int32_t> g{2, 1, 0};
  for (std::uint32_t t = 0; t < 3; ++t) {
    h.begin(nullptr);
    nested_kernel::thread(h, hx::args{g.data(), nullptr, nullptr, 3, t, 0, 0, 1, 0});
    h.end();
  }
  h.finish();

  const auto ipdom = observed_ipdom(rec, exit_node(2) + 1);

  EXPECT_EQ(ipdom, (std::vector<std::uint32_t>{3, 3, 6, 7, 6, 6, 3, 7}));  // branch 0 taken: join 1 first
}

TEST(InputsModel, OneLaneLoopingThreeTimesCostsThreeIterations) {
  // Lane 0 iterates 3 times, lanes 1..31 once: the warp runs the body 3 times (the last two with
  // lane 0 alone) before the exit legs reconverge: entry 1 + 3 x 4 + exit leg 0 + after the join 2.
  std::vector<std::int32_t> trips(32, 1);
  trips[0] = 3;

  EXPECT_EQ(run<loop_kernel>(trips).cycles, 1u + 3 * 4 + 2);
  EXPECT_EQ(run<loop_kernel>(std::vector<std::int32_t>(32, 1)).cycles, 1u + 4 + 2);
}

TEST(InputsModel, GlobalLoadsCostTheirSectors) {
  // 32 lanes x 4 bytes: consecutive words fill 4 sectors of 32 bytes; a stride of 2 words touches
  // 8; a stride of 8 words (32 bytes) puts every lane in its own sector: 32; all on one word: 1.
  std::vector<std::int32_t> coalesced(32), stride2(32), stride8(32), same(32, 5);
  for (int t = 0; t < 32; ++t) coalesced[t] = t, stride2[t] = 2 * t, stride8[t] = 8 * t;

  EXPECT_EQ(run<load_kernel<space::global>>(coalesced).cycles, 4u);
  EXPECT_EQ(run<load_kernel<space::global>>(stride2).cycles, 8u);
  EXPECT_EQ(run<load_kernel<space::global>>(stride8).cycles, 32u);
  EXPECT_EQ(run<load_kernel<space::global>>(same).cycles, 1u);
  // Only the active lanes' sectors count: 8 lanes at a stride of 8 words, 8 sectors.
  EXPECT_EQ(run<load_kernel<space::global>>(std::vector<std::int32_t>(stride8.begin(), stride8.begin() + 8)).cycles,
            8u);
}

TEST(InputsModel, SharedLoadsCostTheirBankConflicts) {
  // 32 banks of 4-byte words: consecutive words hit 32 banks once (1); a stride of 2 words puts two
  // distinct words in each of 16 banks (2-way conflict, 2); every lane on word 5 is a broadcast (1);
  // a stride of 32 words puts all 32 in bank 0 (32).
  std::vector<std::int32_t> consecutive(32), stride2(32), stride32(32), same(32, 5);
  for (int t = 0; t < 32; ++t) consecutive[t] = t, stride2[t] = 2 * t, stride32[t] = 32 * t;

  EXPECT_EQ(run<load_kernel<space::shared>>(consecutive).cycles, 1u);
  EXPECT_EQ(run<load_kernel<space::shared>>(stride2).cycles, 2u);
  EXPECT_EQ(run<load_kernel<space::shared>>(same).cycles, 1u);
  EXPECT_EQ(run<load_kernel<space::shared>>(stride32).cycles, 32u);
}

TEST(InputsModel, BarrierWaitsForTheSlowestWarpOfEachSegment) {
  // One block of two warps (unlimited units): warp 0 takes 10 then 1, warp 1 takes 2 then 7. With
  // the barrier the block takes max(10, 2) + max(1, 7) = 17; without it the slowest warp, 11.
  EXPECT_EQ(run<barrier_kernel>(std::vector<std::int32_t>(64, 1)).cycles, 17u);
  EXPECT_EQ(run<barrier_kernel>(std::vector<std::int32_t>(64, 0)).cycles, 11u);
}

TEST(InputsModel, AtomicsOnOneAddressSerialise) {
  std::vector<std::int32_t> one(32, 0), many(32), groups(32);
  for (int t = 0; t < 32; ++t) many[t] = t;
  for (int t = 0; t < 32; ++t) groups[t] = t < 10 ? 3 : (t < 20 ? 4 : t + 20);  // 10, 10 and 12 singles

  const auto a = run<atomic_kernel>(one), b = run<atomic_kernel>(many), c = run<atomic_kernel>(groups);

  // second atomic: 16 lanes each on s[64], s[65] -> 16 rounds every time
  EXPECT_EQ(a.cycles, 32u + 16);
  EXPECT_EQ(b.cycles, 1u + 16);
  EXPECT_EQ(c.cycles, 10u + 16);
  EXPECT_EQ(a.output[0], 32);  // the atomics really add
  EXPECT_EQ(a.output[64], 16);
}

TEST(InputsModel, WarpsShareTheSm) {
  // 64 threads = one block of 2 warps, each 8 C instructions (all taken).
  const std::vector<std::int32_t> g(64, 1);
  model_config cfg = unlimited();

  cfg.sm.sigma[static_cast<int>(unit::C)] = 1;  // one warp instruction per cycle: 2 x 8
  EXPECT_EQ(run<if_else_kernel>(g, cfg).cycles, 16u);
  cfg.sm.sigma[static_cast<int>(unit::C)] = 4;  // throughput no longer binds: the longest warp
  EXPECT_EQ(run<if_else_kernel>(g, cfg).cycles, 8u);
  cfg.sm.schedulers = 1;  // one warp issues per cycle
  EXPECT_EQ(run<if_else_kernel>(g, cfg).cycles, 16u);
}

TEST(InputsModel, BlocksSpreadOverSms) {
  // 128 threads = two blocks of two warps, sigma_C = 1: one SM runs 4 x 8, two SMs 2 x 8 each.
  const std::vector<std::int32_t> g(128, 1);
  model_config one = unlimited(1), two = unlimited(2);
  one.sm.sigma[static_cast<int>(unit::C)] = two.sm.sigma[static_cast<int>(unit::C)] = 1;

  EXPECT_EQ(run<if_else_kernel>(g, one).cycles, 32u);
  EXPECT_EQ(run<if_else_kernel>(g, two).cycles, 16u);
}

TEST(InputsModel, ArtificialWorstCaseByHand) {
  // Every value 42: a warp loads its 32 values (4 sectors, 4 L), issues 4 C and 8 atomics x 32 lanes
  // on one address = 256 L. On the kepler-3.5 SM (sigma_L = 1, copies 1) the 8 warps of one block
  // take 8 x 260 L cycles (the schedulers need only 8 x 264 / 4, a warp alone 264).
  const model_config cfg = make_model("kepler-3.5", 1);
  const std::vector<std::int32_t> all(256, artificial_kernel::constant);
  std::vector<std::int32_t> none(256, 0);

  EXPECT_EQ(run_model(*find_kernel("artificial"), cfg, all, 256).cycles, 8u * 260);
  // No value 42: a warp issues 4 C and 4 + 1 L (32 atomics on 32 addresses: one round); the L units
  // bind: 8 x 5 (the schedulers 8 x 9 / 4 = 18, sigma_C = 6: 32 / 6 rounds up to 6, a warp alone 9).
  EXPECT_EQ(run_model(*find_kernel("artificial"), cfg, none, 256).cycles, 40u);
}

TEST(InputsModel, BfsOnAChainTakesALevelPerNode) {
  // 5 nodes, each with one edge to the next (offset 1): 5 rounds of reaching (the last round
  // reaches nothing but is needed to see that), costs 0..4.
  const std::uint32_t n = 5;
  std::vector<std::int32_t> g(n * bfs_kernel::genes_per_thread, 0);
  for (std::uint32_t v = 0; v + 1 < n; ++v) {
    g[v * bfs_kernel::genes_per_thread] = 1;
    g[v * bfs_kernel::genes_per_thread + 1] = 1;
  }

  const auto r = run_model(*find_kernel("bfs"), make_model(), g, n);

  EXPECT_EQ(r.output, (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(r.launches, 2u * n);
}

TEST(InputsModel, BisectEarlyExitAndFullDepthShareAWarp) {
  // Key 1001 is the first probe (mid 500): entry 4 + its key's load (1 sector) + loop test 5 + found
  // 1 + the store of found[0] (1 sector) = 12. Key 0 is absent: hi goes 500, 250, ..., 1, 0: 10
  // iterations of loop test 5 + go-left 1, after entry 4 and the load = 65. Together: both load
  // their keys in one sector, both run the first loop test, then lane 1 runs its found leg (1 + the
  // store) while lane 0 waits at the loop's exit join: 4 + 1 + 5 + 2 + 1 + 9 x 6 = 67. (A lone warp:
  // the 4 schedulers and sigma_C = 6 do not bind.)
  const model_config cfg = make_model();

  EXPECT_EQ(run_model(*find_kernel("bisect"), cfg, {1001}, 1).cycles, 12u);
  EXPECT_EQ(run_model(*find_kernel("bisect"), cfg, {0}, 1).cycles, 65u);
  EXPECT_EQ(run_model(*find_kernel("bisect"), cfg, {0, 1001}, 2).cycles, 67u);
  EXPECT_EQ(run_model(*find_kernel("bisect"), cfg, {0, 1001}, 2).output, (std::vector<std::int32_t>{-1, 500}));
}

TEST(InputsModel, BisectPairDivergesInEveryIteration) {
  // Issue 24: keys 62 and 1940 are both absent and take opposite sides of `value < key` in all 10
  // iterations (62 goes left first, 1940 right; then 62 right, 1940 left, ...). In lockstep the
  // warp runs the loop test 5 once and both sides (1 + 1) each iteration: entry 4 + keys' load 1 +
  // 10 x 7 = 75. Lanes run one after another (the old model) gave 64 + 1, as 62 twice does now:
  // 4 + 1 + 10 x 6 = 65.
  const model_config cfg = make_model();

  EXPECT_EQ(run_model(*find_kernel("bisect"), cfg, {62, 62}, 2).cycles, 65u);
  EXPECT_EQ(run_model(*find_kernel("bisect"), cfg, {62, 1940}, 2).cycles, 75u);
  EXPECT_EQ(run_model(*find_kernel("bisect"), cfg, {1940, 1940}, 2).cycles, 65u);
}

TEST(InputsModel, PetriNetByHand) {
  // No tokens: entry 2, then 4 rounds x 8 transitions x (3 + the load of m[a], 1 sector) = 130.
  // One token on places 0 and 3, all of colour 0: transition 0 fires once in round 0 (guard 1 leg:
  // 3 + 3 loads; firing: 10 + 2 loads + 6 stores), moving the tokens to places 1 and 5, where
  // transitions 1 and 5 need 2 and 3: 130 + 6 + 18 = 154.
  const model_config cfg = make_model();
  std::vector<std::int32_t> empty(16, 0), one = empty;
  one[0] = one[3] = 1;

  EXPECT_EQ(run_model(*find_kernel("petri"), cfg, empty, 1).cycles, 130u);
  const auto r = run_model(*find_kernel("petri"), cfg, one, 1);
  EXPECT_EQ(r.cycles, 154u);
  EXPECT_EQ(r.output, (std::vector<std::int32_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(InputsModel, LbmByHand) {
  // One cell (a 1 x 1 lattice), every distribution 0 (gene 0). A fluid cell: entry work 4 + the
  // load of its type 1; the 9 loads of f 9, work 20; not inlet, not outlet; rho = 0 is below the
  // floor (work 2); work 8 (u = 0: not capped); the collision 63 and the store of f_0 1; then 8
  // directions, each the load of a type 1 + work 6 + a bounce-back store 1 (every neighbour is off
  // the lattice): 5 + 9 + 20 + 2 + 8 + 64 + 64 = 172. An obstacle: 5 + 9 x (load + store) + 2 = 25.
  const model_config cfg = make_model();
  std::vector<std::int32_t> fluid(10, 0), wall = fluid;
  wall[0] = lbm_kernel::obstacle;

  EXPECT_EQ(run_model(*find_kernel("lbm"), cfg, fluid, 1).cycles, 172u);
  EXPECT_EQ(run_model(*find_kernel("lbm"), cfg, wall, 1).cycles, 25u);
}

TEST(InputsModel, LbmTwoCellsStreamAcrossAndDiverge) {
  // Two fluid cells side by side (a 2-wide lattice, one row): one warp of two lanes. As one cell,
  // but each access of both lanes is one sector, and in direction 1 (+x) cell 0 streams into cell 1
  // while cell 1 bounces back off the edge (and the other way round in direction 3): those two
  // directions run both legs, 1 + 6 + 1 + 1 = 9 each instead of 8: 172 + 2 = 174. Every cell ends
  // at the equilibrium of the floored density, f_d = w_d x 0.05, wherever it streamed.
  const std::vector<std::int32_t> cells(20, 0);

  const model_run r = run_model(*find_kernel("lbm"), make_model(), cells, 2);

  EXPECT_EQ(r.cycles, 174u);
  ASSERT_EQ(r.output.size(), 18u);
  for (int d = 0; d < 9; ++d)
    for (int cell = 0; cell < 2; ++cell)
      EXPECT_EQ(r.output[static_cast<std::size_t>(d * 2 + cell)],
                harness::word_of(lbm_kernel::weight(d) * 0.05f * 1.0f))
          << d << " " << cell;
}

TEST(InputsModel, WrongLengthIsAnInputError) {
  EXPECT_NE(test::error_of([] { run_model(*find_kernel("petri"), make_model(), std::vector<std::int32_t>(7), 1); }),
            "");
}

}  // namespace
}  // namespace warpspan::inputs
