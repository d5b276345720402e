// The SIMT cost model on tiny kernels whose costs are worked out by hand in the comments.
#include <gtest/gtest.h>

#include <vector>

#include "test_util.hpp"
#include "warpspan/inputs/kernels.hpp"
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

// work 2; if (g > 0) work 5 else work 3; join; work 1
struct if_else_kernel {
  static constexpr std::uint32_t genes_per_thread = 1, block = 64, branches = 1, stages = 1;
  static constexpr bool iterative = false;
  static std::size_t scratch_size(std::uint32_t) { return 1; }
  static std::size_t flag_index(std::uint32_t) { return 0; }
  static void init_scratch(const std::int32_t*, std::int32_t* s, std::uint32_t) { s[0] = 0; }
  static output_range output(std::uint32_t) { return {0, 1}; }
  template <class H>
  static void thread(H& h, const std::int32_t* g, std::int32_t*, std::uint32_t, std::uint32_t tid, std::uint32_t, int) {
    h.work(2);
    if (h.branch(0, g[tid] > 0))
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
  static void thread(H& h, const std::int32_t* g, std::int32_t*, std::uint32_t, std::uint32_t tid, std::uint32_t, int) {
    h.work(1);
    for (std::int32_t i = 0; h.branch(0, i < g[tid]); ++i) h.work(4);
    h.join(0);
    h.work(2);
  }
};

// two atomics per thread: on s[g] and on s[64 + tid % 2]
struct atomic_kernel : if_else_kernel {
  static std::size_t scratch_size(std::uint32_t) { return 66; }
  static void init_scratch(const std::int32_t*, std::int32_t* s, std::uint32_t) {
    for (int i = 0; i < 66; ++i) s[i] = 0;
  }
  static output_range output(std::uint32_t) { return {0, 66}; }
  template <class H>
  static void thread(H& h, const std::int32_t* g, std::int32_t* s, std::uint32_t, std::uint32_t tid, std::uint32_t, int) {
    h.atomic_add(&s[g[tid]], 1);
    h.atomic_add(&s[64 + tid % 2], 1);
  }
};

template <class K>
model_run run(const std::vector<std::int32_t>& g, const model_config& cfg = unlimited()) {
  return run_model<K>(cfg, g.data(), static_cast<std::uint32_t>(g.size()));
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
  // Every value 42: a warp issues 4 C and 8 atomics x 32 lanes on one address = 256 L. On the
  // kepler-3.5 SM (sigma_L = 1) the 8 warps of one block take 8 x 256 L cycles (the schedulers
  // need only 8 x 260 / 4).
  const model_config cfg = make_model("kepler-3.5", 1);
  const std::vector<std::int32_t> all(256, artificial_kernel::constant);
  std::vector<std::int32_t> none(256, 0);

  EXPECT_EQ(run_model(kernel_id::artificial, cfg, all, 256).cycles, 8u * 256);
  // No value 42: a warp issues 4 C and 1 L; the 4 schedulers bind: (8 x 5) / 4 (sigma_C = 6: 32 / 6
  // rounds up to 6, sigma_L = 1: 8, a warp alone: 5).
  EXPECT_EQ(run_model(kernel_id::artificial, cfg, none, 256).cycles, 10u);
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

  const auto r = run_model(kernel_id::bfs, make_model(), g, n);

  EXPECT_EQ(r.output, (std::vector<std::int32_t>{0, 1, 2, 3, 4}));
  EXPECT_EQ(r.launches, 2u * n);
}

TEST(InputsModel, BisectEarlyExitAndFullDepthShareAWarp) {
  // Key 1001 is the first probe (mid 500): entry 4 + loop test 5 + found 1 = 10. Key 0 is absent:
  // hi goes 500, 250, ..., 1, 0: 10 iterations of loop test 5 + go-left 1, after entry 4 = 64.
  // Together: the found leg is one more block execution, 65. (A lone warp: the 4 schedulers and
  // sigma_C = 6 do not bind.)
  const model_config cfg = make_model();

  EXPECT_EQ(run_model(kernel_id::bisect, cfg, {1001}, 1).cycles, 10u);
  EXPECT_EQ(run_model(kernel_id::bisect, cfg, {0}, 1).cycles, 64u);
  EXPECT_EQ(run_model(kernel_id::bisect, cfg, {0, 1001}, 2).cycles, 65u);
  EXPECT_EQ(run_model(kernel_id::bisect, cfg, {0, 1001}, 2).output, (std::vector<std::int32_t>{-1, 500}));
}

TEST(InputsModel, PetriNetByHand) {
  // No tokens: entry 2, then 4 rounds x 8 transitions x 3 for the first guard = 98. One token on
  // places 0 and 3, all of colour 0: transition 0 fires once in round 0 (guard 1 leg 3, firing 10),
  // moving the tokens to places 1 and 5, where transitions 1 and 5 need 2 and 3: 111.
  const model_config cfg = make_model();
  std::vector<std::int32_t> empty(16, 0), one = empty;
  one[0] = one[3] = 1;

  EXPECT_EQ(run_model(kernel_id::petri, cfg, empty, 1).cycles, 98u);
  const auto r = run_model(kernel_id::petri, cfg, one, 1);
  EXPECT_EQ(r.cycles, 111u);
  EXPECT_EQ(r.output, (std::vector<std::int32_t>{0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(InputsModel, WrongLengthIsAnInputError) {
  EXPECT_NE(test::error_of([] { run_model(kernel_id::petri, make_model(), std::vector<std::int32_t>(7), 1); }), "");
}

}  // namespace
}  // namespace warpspan::inputs
