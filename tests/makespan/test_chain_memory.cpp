// Where the CUDA backend keeps the annealing chains' state and how many chains fill an H100, from
// the sm_90 occupancy arithmetic with the annealing kernel's registers as nvcc reports them
// (cuda/emulation/resource_usage.tsv: 80 registers, __launch_bounds__(256)), and the cost model
// of choose_chain_memory (include/warpspan/makespan/chains.hpp). The figures of the wide chains
// (16-bit string and usage, 32-bit cycles) are checked with the packing asked for; the narrow ones
// (8-bit and 16-bit), which the plan picks wherever they fit, at the end.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {
namespace {

constexpr kernel_resources anneal_kernel_sm90{80, 0, 256};
constexpr kernel_resources anneal_warp_kernel_sm90{64, 0, 32};  // ptxas: 62 to 64 registers, __launch_bounds__(32)
constexpr std::size_t h100_memory = std::size_t{80} << 30;

/// A thread a chain unless `design` says otherwise (the tests below but the last ones are about
/// that design; left to itself, the plan gives chains that a thread cannot keep on chip a warp).
cuda_chain_plan h100_plan(const problem& prob, std::optional<chain_packing> packing = chain_packing::wide,
                          std::optional<chain_design> design = chain_design::thread) {
  return plan_chains_for(prob.view(), sm90_limits(), anneal_kernel_sm90, 132, h100_memory, packing, design,
                         anneal_warp_kernel_sm90);
}

TEST(ChainMemory, TheModelComparesLatencyBoundRatesCappedByBandwidth) {
  // Global: min(768 / 600, 12.8 / 4) = 1.28 accesses a clock per SM. On chip, one warp: 32 / 30 =
  // 1.07, fewer; two warps: 2.13, more.
  const chain_memory_choice one_warp = choose_chain_memory(768, 32), two_warps = choose_chain_memory(768, 64);
  EXPECT_DOUBLE_EQ(one_warp.global_rate, 1.28);
  EXPECT_NEAR(one_warp.on_chip_rate, 32.0 / 30, 1e-12);
  EXPECT_FALSE(one_warp.on_chip);
  EXPECT_TRUE(two_warps.on_chip);
  // Nothing on chip: global, whatever the global occupancy.
  EXPECT_FALSE(choose_chain_memory(32, 0).on_chip);
  // Shared memory's bandwidth caps the on-chip rate at 128 / 4 = 32 accesses a clock.
  EXPECT_DOUBLE_EQ(choose_chain_memory(768, 2048).on_chip_rate, 32.0);
}

TEST(ChainMemory, ChainsTooLargeForAThreadGetAWarp) {
  // Voronoi W = 64, narrow: 1,600 positions; cycles and undo 1,600 x 2 bytes each, progress and
  // last 64 x 2, usage to the pessimistic bound 749 (750 cycles x 2 counters) x 1 = 1,500, string
  // 1,600 x 1: 9,756 bytes, 9,760 in 16-byte words. A warp of thread-per-chain chains needs 32 x
  // that on chip: global memory. A warp a chain takes 32 bytes of types + 9,760 + 256 of scratch
  // (a count a warp) + 512 of read-ahead (16 bytes a lane) = 10,560 bytes a block, 11,648 with the
  // reserved KiB in 128-byte units: 20 blocks in 228 KiB (the 64 registers of 32 threads allow 32).
  // 20 x 132 = 2,640 chains fill the device.
  const problem prob = test::make("5L9C2L9C", 64, 1, 4);
  EXPECT_EQ(make_chain_layout(prob.view(), chain_packing::narrow).best, 9760u);
  const cuda_chain_plan thread = h100_plan(prob, std::nullopt), warp = h100_plan(prob, std::nullopt, std::nullopt);
  EXPECT_EQ(thread.design, chain_design::thread);
  EXPECT_FALSE(thread.on_chip);
  EXPECT_EQ(warp.design, chain_design::warp);
  EXPECT_EQ(warp.packing, chain_packing::narrow);
  EXPECT_TRUE(warp.on_chip);
  EXPECT_EQ(warp.block, 32u);
  EXPECT_EQ(warp.shared_bytes, 10560u);
  EXPECT_EQ(warp.threads_per_sm, 20u * 32);
  EXPECT_EQ(warp.device_chains, 20u * 132);
  // Where a thread's chains stay on chip, the plan keeps them (Voronoi W = 16, compact).
  EXPECT_EQ(h100_plan(test::make("5L9C2L9C", 16, 1, 4), std::nullopt, std::nullopt).design, chain_design::thread);
  // A warp asked where its chain cannot fit a block: refused, saying why.
  const problem huge = test::make("400L400C", 200, 1, 1);
  EXPECT_THROW(h100_plan(huge, std::nullopt, chain_design::warp), std::invalid_argument);
  EXPECT_EQ(h100_plan(huge, std::nullopt, std::nullopt).design, chain_design::thread);
}

TEST(ChainMemory, GlobalPathHoldsWhatTheRegistersAllow) {
  // 20L20C20L with 64 warps: a chain's working state is far beyond what a warp's worth of shared
  // memory holds, so global memory, 3 blocks of 256 (80 registers) per SM: 768 x 132 = 101,376 chains.
  const problem large = test::make("20L20C20L", 64, 1, 2);
  const cuda_chain_plan plan = h100_plan(large);
  EXPECT_FALSE(plan.on_chip);
  EXPECT_EQ(plan.memory.on_chip_rate, 0.0);
  EXPECT_EQ(plan.block, 256u);
  EXPECT_EQ(plan.threads_per_sm, 768u);
  EXPECT_EQ(plan.device_chains, 101376u);
  EXPECT_EQ(plan.shared_bytes, (large.instructions() + 15u) / 16u * 16u);  // the staged types only
  // Voronoi with 16 warps: 64 working states do not fit in 227 KiB either; the same 101,376 chains.
  const cuda_chain_plan v16 = h100_plan(test::make("5L9C2L9C", 16, 1, 4));
  EXPECT_EQ(v16.device_chains, 101376u);
}

TEST(ChainMemory, VoronoiWithThreeAndFourWarpsStaysOnChipAtLowOccupancy) {
  for (const int warps : {3, 4}) {
    const problem prob = test::make("5L9C2L9C", warps, 1, 4);
    const chain_layout layout = make_chain_layout(prob.view());
    const std::size_t types = (prob.instructions() + 15u) / 16u * 16u;
    const cuda_chain_plan plan = h100_plan(prob);
    // By hand: the largest multiple of 32 threads whose working states fit beside the types in
    // 227 KiB, one block per SM (two do not fit in 228 KiB).
    unsigned block = 256;
    while (types + block * layout.best > 227 * 1024) block -= 32;
    SCOPED_TRACE(testing::Message() << warps << " warps, " << layout.best << " bytes of working state a chain");
    EXPECT_TRUE(plan.on_chip);
    EXPECT_EQ(plan.block, block);
    EXPECT_EQ(plan.threads_per_sm, block);
    EXPECT_EQ(plan.device_chains, 132u * block);
    // Its rate beats the global path's 768 threads by the model: block / 30 against 1.28.
    EXPECT_NEAR(plan.memory.on_chip_rate, block / 30.0, 1e-12);
    EXPECT_DOUBLE_EQ(plan.memory.global_rate, 1.28);
    EXPECT_GT(plan.memory.on_chip_rate, 3 * plan.memory.global_rate);
  }
  // The figures (make_chain_layout): 3 warps, 192 threads an SM (9.4 % of 2,048), 25,344 chains;
  // 4 warps, 160 threads (7.8 %), 21,120 chains.
  EXPECT_EQ(h100_plan(test::make("5L9C2L9C", 3, 1, 4)).device_chains, 25344u);
  EXPECT_EQ(h100_plan(test::make("5L9C2L9C", 4, 1, 4)).device_chains, 21120u);
}

TEST(ChainMemory, SmallProblemFillsTheRegisterLimitOnChip) {
  // LCL with 4 warps: a few dozen bytes a chain, so 256-thread blocks fit 3 to an SM by shared
  // memory too and the registers bind: 768 threads on chip, 101,376 chains.
  const problem prob = test::make("LCL", 4, 1, 1);
  const cuda_chain_plan plan = h100_plan(prob);
  EXPECT_TRUE(plan.on_chip);
  EXPECT_EQ(plan.block, 256u);
  EXPECT_EQ(plan.threads_per_sm, 768u);
  EXPECT_EQ(plan.device_chains, 101376u);
  EXPECT_EQ(plan.shared_bytes, 16u + 256u * make_chain_layout(prob.view()).best);
}

TEST(ChainMemory, OneWarpOnChipLosesToTheGlobalPath) {
  // A working state between 227 KiB / 64 and 227 KiB / 32 a chain: only one warp's states fit in a
  // block, one block per SM, 32 threads: 1.07 accesses a clock against the global path's 1.28.
  for (int warps = 4; warps < 64; ++warps) {
    const problem prob = test::make("20L20C20L", warps, 1, 2);
    const std::size_t work = make_chain_layout(prob.view()).best, types = (prob.instructions() + 15u) / 16u * 16u;
    if (types + 64 * work <= 227 * 1024 || types + 32 * work > 227 * 1024) continue;
    const cuda_chain_plan plan = h100_plan(prob);
    EXPECT_FALSE(plan.on_chip) << warps << " warps";
    EXPECT_NEAR(plan.memory.on_chip_rate, 32.0 / 30, 1e-12);
    EXPECT_EQ(plan.threads_per_sm, 768u);
    return;
  }
  FAIL() << "no warp count puts one warp's states on chip";
}

TEST(ChainMemory, FreeMemoryBoundsTheChains) {
  const problem prob = test::make("20L20C20L", 64, 1, 2);
  const std::size_t per_chain = make_chain_layout(prob.view()).bytes + sizeof(chain_state);
  const cuda_chain_plan plan = plan_chains_for(prob.view(), sm90_limits(), anneal_kernel_sm90, 132, 1000 * per_chain,
                                               chain_packing::wide, chain_design::thread);
  EXPECT_EQ(plan.device_chains, 900u);  // 90 % of free memory
  // Narrow chains take under half the working bytes (their usage table ends at the pessimistic
  // bound; the best string stays 16-bit): the same memory holds 1.84 times as many here.
  const cuda_chain_plan narrow = plan_chains_for(prob.view(), sm90_limits(), anneal_kernel_sm90, 132, 1000 * per_chain,
                                                 std::nullopt, chain_design::thread);
  EXPECT_EQ(narrow.packing, chain_packing::narrow);
  EXPECT_EQ(narrow.device_chains, 1000 * per_chain / 10 * 9 / (narrow.chain_bytes + sizeof(chain_state)));
  EXPECT_EQ(narrow.device_chains, 1660u);
}

TEST(ChainMemory, NarrowChainsHalveTheVoronoiSixteenWarpState) {
  // Voronoi W = 16 (25 instructions, 400 positions; horizon + 1 = 401 cycles x 2 counters). Wide:
  // cycles and undo 400 x 4 bytes each, progress and last 16 x 4, usage 802 x 2, string 400 x 2 =
  // 5,732 bytes, 5,744 with the best string's alignment. Narrow: 400 x 2 twice, 16 x 2 twice, the
  // usage table to the pessimistic bound 197 (198 x 2 = 396) x 1, 400 x 1 = 2,460, 2,464 aligned;
  // the best string stays 16-bit (800 bytes).
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  ASSERT_TRUE(narrow_fits(prob.view()));
  EXPECT_EQ(make_chain_layout(prob.view(), chain_packing::wide).best, 5744u);
  EXPECT_EQ(make_chain_layout(prob.view(), chain_packing::narrow).best, 2464u);
  EXPECT_EQ(make_chain_layout(prob.view(), chain_packing::narrow).bytes, 2464u + 800u);
}

TEST(ChainMemory, NarrowVoronoiSixteenWarpsGoesOnChip) {
  // Wide, 64 working states (368 KiB) do not fit an SM's 227 KiB and one warp's (184 KiB) loses to
  // the global path: global memory, 101,376 chains (GlobalPathHoldsWhatTheRegistersAllow). Narrow,
  // 64 states are 64 x 2,464 = 157,696 bytes beside 32 bytes of types: one block of 64 threads per
  // SM (two warps; 96 threads would need 236,576 bytes, past the 227 KiB a block may have, and two
  // blocks of 32 hold as many), 2.13 accesses a clock against 1.28: on chip, 132 x 64 = 8,448 chains.
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  const cuda_chain_plan plan = h100_plan(prob, chain_packing::narrow);
  EXPECT_EQ(plan.packing, chain_packing::narrow);
  EXPECT_EQ(plan.chain_bytes, 3264u);
  EXPECT_TRUE(plan.on_chip);
  EXPECT_EQ(plan.block, 64u);
  EXPECT_EQ(plan.threads_per_sm, 64u);
  EXPECT_EQ(plan.device_chains, 8448u);
  EXPECT_EQ(plan.shared_bytes, 32u + 64u * 2464u);
  EXPECT_NEAR(plan.memory.on_chip_rate, 64 / 30.0, 1e-12);
  EXPECT_DOUBLE_EQ(plan.memory.global_rate, 1.28);
}

TEST(ChainMemory, NarrowVoronoiWithThreeAndFourWarpsHoldsMoreThreadsOnChip) {
  // Narrow working states of 480 (W = 3: cycles and undo 150 each, 152 in whole words, progress
  // and last 8 each, the usage table to the pessimistic bound 39, 40 x 2 = 80, string 76: 476,
  // aligned to 16) and 624 bytes (W = 4: 200 + 200 + 8 + 8 + 47 x 2 = 96 + 100 = 612), under half
  // the wide ones. W = 3: blocks of 224 take 32 + 224 x 480 = 107,552 bytes (108,672 with 1 KiB
  // reserved, in 128-byte units), two an SM: 448 threads (wide: 192). W = 4: a block of 32 takes
  // 20,000 bytes (21,120), eleven an SM: 352 threads (larger blocks hold fewer: 64 x 5 = 320, 160
  // x 2 = 320, 192 x 1; wide: 160).
  const cuda_chain_plan w3 = h100_plan(test::make("5L9C2L9C", 3, 1, 4), chain_packing::narrow),
                        w4 = h100_plan(test::make("5L9C2L9C", 4, 1, 4), chain_packing::narrow);
  EXPECT_EQ(make_chain_layout(test::make("5L9C2L9C", 3, 1, 4).view(), chain_packing::narrow).best, 480u);
  EXPECT_EQ(make_chain_layout(test::make("5L9C2L9C", 4, 1, 4).view(), chain_packing::narrow).best, 624u);
  EXPECT_TRUE(w3.on_chip);
  EXPECT_EQ(w3.block, 224u);
  EXPECT_EQ(w3.shared_bytes, 32u + 224u * 480u);
  EXPECT_EQ(w3.threads_per_sm, 448u);
  EXPECT_EQ(w3.device_chains, 448u * 132);
  EXPECT_TRUE(w4.on_chip);
  EXPECT_EQ(w4.block, 32u);
  EXPECT_EQ(w4.shared_bytes, 32u + 32u * 624u);
  EXPECT_EQ(w4.threads_per_sm, 352u);
  EXPECT_EQ(w4.device_chains, 352u * 132);
}

TEST(ChainMemory, CompactVoronoiSixteenWarpsHoldsFourWarpsAnSM) {
  // Compact (test_narrow_chains.cpp): 1,632 working bytes. A block of 128 states takes 32 + 128 x
  // 1,632 = 208,928 bytes (209,952 with the 1 KiB reserved), one an SM; 160 would need 261,152,
  // past the 227 KiB a block may have; two blocks of 64 (105,504 each) hold 128 too. Four warps a SM
  // against narrow's two: 132 x 128 = 16,896 chains, twice narrow's 8,448. On chip: 128 / 30 = 4.27
  // accesses a clock against the global path's 1.28.
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  const cuda_chain_plan plan = h100_plan(prob, std::nullopt);
  EXPECT_EQ(plan.packing, chain_packing::compact);
  EXPECT_EQ(plan.chain_bytes, 1632u + 800u);
  EXPECT_TRUE(plan.on_chip);
  EXPECT_EQ(plan.threads_per_sm, 128u);
  EXPECT_EQ(plan.device_chains, 16896u);
  EXPECT_EQ(plan.shared_bytes, 32u + plan.block * 1632u);
  EXPECT_NEAR(plan.memory.on_chip_rate, 128 / 30.0, 1e-12);
}

TEST(ChainMemory, CompactVoronoiWithThreeAndFourWarps) {
  // W = 3: the bound is 25 + 2 x 7 = 39 (sigma_C = 4 is more than the W - 1 = 2 other warps, so C
  // never stalls: bounds.cpp), so 76 + 76 + 4 + 4 + 80 + 76 = 316, 320 aligned, working bytes (75
  // cycles, undo entries and ids, 3 + 3 counters, 40 x 2 usage cells, each array in whole words).
  // Blocks of 224 take 32 + 224 x 320 + 1,024 = 72,736 bytes, three an SM (218,208 of 233,472;
  // the registers, 7 warps x 2,560 of 65,536, allow three too; three of 256 would need 248,928):
  // 672 threads, against narrow's 384. W = 4: bound 25 + 21 = 46: 100 + 100 + 4 + 4 + 96 + 100 =
  // 404, 416 aligned; 512 threads an SM (two blocks of 256 take 2 x 107,552 bytes), against
  // narrow's 320.
  const problem three = test::make("5L9C2L9C", 3, 1, 4), four = test::make("5L9C2L9C", 4, 1, 4);
  EXPECT_EQ(three.view().bound, 39u);
  EXPECT_EQ(four.view().bound, 46u);
  EXPECT_EQ(make_chain_layout(three.view(), chain_packing::compact).best, 320u);
  EXPECT_EQ(make_chain_layout(four.view(), chain_packing::compact).best, 416u);
  const cuda_chain_plan w3 = h100_plan(three, std::nullopt), w4 = h100_plan(four, std::nullopt);
  EXPECT_EQ(w3.packing, chain_packing::compact);
  EXPECT_TRUE(w3.on_chip);
  EXPECT_EQ(w3.threads_per_sm, 672u);
  EXPECT_EQ(w3.device_chains, 132u * 672u);
  EXPECT_EQ(w4.packing, chain_packing::compact);
  EXPECT_TRUE(w4.on_chip);
  EXPECT_EQ(w4.threads_per_sm, 512u);
  EXPECT_EQ(w4.device_chains, 132u * 512u);
}

TEST(ChainMemory, NarrowOnlyWhereEveryValueFits) {
  // 255 warps fit (ids 0..254, at most 255 instructions of a type a cycle); 256 do not. Asked for
  // narrow where it does not fit: refused, naming the values.
  EXPECT_TRUE(narrow_fits(test::make("LC", 255, 1, 1).view()));
  const problem wide = test::make("LC", 256, 1, 1);
  EXPECT_FALSE(narrow_fits(wide.view()));
  EXPECT_EQ(pick_chain_packing(wide.view()), chain_packing::wide);
  EXPECT_EQ(h100_plan(wide, std::nullopt).packing, chain_packing::wide);
  try {
    h100_plan(wide, chain_packing::narrow);
    ADD_FAILURE() << "narrow chains were planned for 256 warps";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("W = 256"), std::string::npos) << e.what();
  }
  // A kernel of 70,000 instructions: I and the horizon past 65,535.
  const problem long_kernel = test::make("70000C", 1, 1, 1);
  EXPECT_FALSE(narrow_fits(long_kernel.view()));
}

}  // namespace
}  // namespace warpspan
