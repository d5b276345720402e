// The occupancy calculator's arithmetic for an sm_90 SM (include/warpspan/core/occupancy.hpp),
// against figures worked out by hand from the limits: 65,536 registers in 4 sub-partitions,
// allocated per warp in units of 256; 2,048 threads, 32 blocks, 228 KiB of shared memory with 1 KiB
// reserved per block in 128-byte units.
#include <gtest/gtest.h>

#include "warpspan/core/occupancy.hpp"

namespace warpspan {
namespace {

constexpr sm_limits sm90 = sm90_limits();

TEST(Occupancy, EightyRegistersHoldThreeBlocksOf256) {
  // 80 x 32 = 2,560 registers a warp; 16,384 / 2,560 = 6 warps a sub-partition, 24 an SM; a block of
  // 256 threads is 8 warps: 3 blocks, 768 threads (not 2,048).
  const sm_occupancy o = blocks_per_sm(sm90, {80, 0, 256}, 256, 0);
  EXPECT_EQ(o.blocks, 3);
  EXPECT_EQ(o.limit, occupancy_limit::registers);
  // The annealing kernel's block size: every size from 32 to 256 gives 768 threads at best, and the
  // largest of equals is kept.
  const block_size_choice c = max_potential_block_size(
      sm90, {80, 0, 256}, [](int) { return 0; }, 48 * 1024);
  EXPECT_EQ(c.block, 256);
  EXPECT_EQ(c.blocks_per_sm, 3);
  EXPECT_EQ(c.threads_per_sm, 768);
}

TEST(Occupancy, RegistersCountInUnitsOfEightAThread) {
  // 81 registers take 88 a thread (2,816 a warp): 5 warps a sub-partition, 20 an SM, 2 blocks of 8.
  EXPECT_EQ(blocks_per_sm(sm90, {81, 0, 1024}, 256, 0).blocks, 2);
  EXPECT_EQ(blocks_per_sm(sm90, {88, 0, 1024}, 256, 0).blocks, 2);
  // 89 registers: 96 a thread, 3,072 a warp, 5 warps a sub-partition (15,360 of 16,384).
  EXPECT_EQ(blocks_per_sm(sm90, {89, 0, 1024}, 256, 0).blocks, 2);
  // 32 registers: 16 warps a sub-partition, 64 an SM: the thread limit binds first.
  const sm_occupancy o = blocks_per_sm(sm90, {32, 0, 1024}, 256, 0);
  EXPECT_EQ(o.blocks, 8);
  EXPECT_EQ(o.limit, occupancy_limit::threads);
}

TEST(Occupancy, ABlockOverTheRegisterFileDoesNotRun) {
  // 255 registers: 8,192 a warp; 32 warps would need 262,144 of 65,536.
  const sm_occupancy o = blocks_per_sm(sm90, {255, 0, 1024}, 1024, 0);
  EXPECT_EQ(o.blocks, 0);
  EXPECT_EQ(o.limit, occupancy_limit::registers);
  // 8 warps of 255 registers fit in the register file (65,536), but a sub-partition holds only 2.
  EXPECT_EQ(blocks_per_sm(sm90, {255, 0, 1024}, 256, 0).blocks, 1);
}

TEST(Occupancy, SharedMemoryLimitsBlocks) {
  // 100 KiB dynamic + 1 KiB reserved = 103,424 bytes a block; 233,472 / 103,424 = 2 blocks.
  const sm_occupancy o = blocks_per_sm(sm90, {32, 0, 1024}, 256, 100 * 1024);
  EXPECT_EQ(o.blocks, 2);
  EXPECT_EQ(o.limit, occupancy_limit::shared_memory);
  // Static shared memory counts with the dynamic: 60 KiB + 40 KiB is the same 2 blocks.
  EXPECT_EQ(blocks_per_sm(sm90, {32, 60 * 1024, 1024}, 256, 40 * 1024).blocks, 2);
  // 227 KiB is the most a block may take: one block; a byte more, none.
  EXPECT_EQ(blocks_per_sm(sm90, {32, 0, 1024}, 256, 227 * 1024).blocks, 1);
  EXPECT_EQ(blocks_per_sm(sm90, {32, 0, 1024}, 256, 227 * 1024 + 1).blocks, 0);
  // 1 byte is a 128-byte unit beside the reserved 1 KiB: 1,152 a block, 202 blocks by shared
  // memory, so the 32-block limit binds.
  const sm_occupancy small = blocks_per_sm(sm90, {16, 0, 1024}, 32, 1);
  EXPECT_EQ(small.blocks, 32);
  EXPECT_EQ(small.limit, occupancy_limit::blocks);
  // 7 KiB + 1 KiB = 8 KiB a block: 28 blocks of 32 threads.
  EXPECT_EQ(blocks_per_sm(sm90, {16, 0, 1024}, 32, 7 * 1024).blocks, 28);
}

TEST(Occupancy, BlockSizeWithSharedMemoryGrowingWithTheBlock) {
  // 1 KiB of shared memory a thread (the on-chip annealing kernel's shape), 80 registers, at most 256
  // threads: 256 threads would need 256 KiB. 224 threads: 225 KiB a block, 1 block (224 threads);
  // 96 threads: 97 KiB, 2 blocks (192); 64 threads: 65 KiB, 3 blocks (192); the best is 224 x 1.
  const auto smem = [](int threads) { return static_cast<std::size_t>(threads) * 1024; };
  const block_size_choice c = max_potential_block_size(sm90, {80, 0, 256}, smem, 227 * 1024);
  EXPECT_EQ(c.block, 224);
  EXPECT_EQ(c.blocks_per_sm, 1);
  EXPECT_EQ(c.threads_per_sm, 224);
  // Without opting in (48 KiB), the largest block is 48 threads' worth: 32 threads, 33 KiB, 6 blocks.
  const block_size_choice d = max_potential_block_size(sm90, {80, 0, 256}, smem, 48 * 1024);
  EXPECT_EQ(d.block, 32);
  EXPECT_EQ(d.threads_per_sm, 192);
  // Nothing fits: no block size.
  EXPECT_EQ(max_potential_block_size(
                sm90, {80, 0, 256}, [](int) { return std::size_t{300} << 10; }, 227 * 1024)
                .threads_per_sm,
            0);
}

}  // namespace
}  // namespace warpspan
