// The device_pool (cuda/common/device_pool.cuh) that the exact sweeps hand to Thrust for its
// temporaries: compiled against the emulated runtime, whose allocation counter shows what reaches
// the device.
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
#include <gtest/gtest.h>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <new>

#include "common/device_pool.cuh"
#include "emulation_hooks.hpp"

namespace warpspan {
namespace {

TEST(DevicePoolGpu, FreedBlocksServeTheNextRequestsThatFit) {
  device_pool pool;
  const std::size_t before = emu::allocation_count();
  char* a = pool.allocate(1000);
  pool.deallocate(a, 1000);
  EXPECT_EQ(pool.cached_bytes(), 1000u);
  EXPECT_EQ(pool.allocate(600), a);  // fits, and wastes less than half
  EXPECT_EQ(pool.cached_bytes(), 0u);
  char* b = pool.allocate(400);      // 1000 would waste more than half: a new block
  EXPECT_NE(b, a);
  EXPECT_EQ(emu::allocation_count() - before, 2u);
  pool.deallocate(a, 600);
  pool.deallocate(b, 400);
  EXPECT_EQ(pool.cached_bytes(), 1400u);
  pool.release();
  EXPECT_EQ(pool.cached_bytes(), 0u);
}

TEST(DevicePoolGpu, OutOfMemoryFreesTheCacheAndTriesAgain) {
  emu::set_memory_limit(std::size_t{1} << 20);
  {
    device_pool pool;
    char* a = pool.allocate(600 << 10);
    pool.deallocate(a, 600 << 10);
    // 800 KiB do not fit beside the cached 600 KiB in 1 MiB, but do once the cache is freed.
    char* b = pool.allocate(800 << 10);
    EXPECT_NE(b, nullptr);
    EXPECT_EQ(pool.cached_bytes(), 0u);
    EXPECT_THROW(pool.allocate(900 << 10), std::bad_alloc);
    pool.deallocate(b, 800 << 10);
  }
  emu::set_memory_limit(0);
}

TEST(DevicePoolGpu, RepeatedSortsStopAllocating) {
  // What a sweep does level after level: the same Thrust calls on buffers of similar sizes. With the
  // pool, once the first calls have filled it, no call's temporaries reach the device.
  device_pool pool;
  thrust::device_vector<unsigned> keys(5000), values(5000);
  std::size_t settled = 0;
  for (int level = 0; level < 20; ++level) {
    if (level == 5) settled = emu::allocation_count();
    for (std::size_t i = 0; i < keys.size(); ++i) keys[i] = static_cast<unsigned>((i * 7919 + level) % 5000);
    thrust::sort_by_key(thrust::device(pool), keys.begin(), keys.end(), values.begin(),
                        [](unsigned a, unsigned b) { return a < b; });
    ASSERT_TRUE(thrust::is_sorted(keys.begin(), keys.end()));
  }
  EXPECT_EQ(emu::allocation_count(), settled);
  EXPECT_GT(pool.cached_bytes(), 0u);
}

}  // namespace
}  // namespace warpspan
#endif
