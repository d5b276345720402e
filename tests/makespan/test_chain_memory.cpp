// Where the CUDA backend keeps the annealing chains' state and how many chains fill an H100, from
// the sm_90 occupancy arithmetic with the annealing kernel's registers as nvcc reports them
// (cuda/emulation/resource_usage.tsv: 80 registers, __launch_bounds__(256)), and the cost model
// of choose_chain_memory (include/warpspan/makespan/chains.hpp).
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {
namespace {

constexpr kernel_resources anneal_kernel_sm90{80, 0, 256};
constexpr std::size_t h100_memory = std::size_t{80} << 30;

cuda_chain_plan h100_plan(const problem& prob) {
  return plan_chains_for(prob.view(), sm90_limits(), anneal_kernel_sm90, 132, h100_memory);
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
  const cuda_chain_plan plan = plan_chains_for(prob.view(), sm90_limits(), anneal_kernel_sm90, 132, 1000 * per_chain);
  EXPECT_EQ(plan.device_chains, 900u);  // 90 % of free memory
}

}  // namespace
}  // namespace warpspan
