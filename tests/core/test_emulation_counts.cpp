// The emulation's memory-request counter (cuda/emulation/counts.cpp) on small kernels whose counts
// are worked out by hand: coalesced and strided global loads, shared-memory bank conflicts and
// broadcasts, atomics on one address. This file is traced like the kernels under cuda/
// (tests/CMakeLists.txt), so the counter sees its kernels' loads and stores. The counts must not
// depend on the order the lanes run in.
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
#include <gtest/gtest.h>

#include <list>
#include <numeric>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "cache_model.hpp"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"

namespace warpspan {
namespace {

const std::vector<std::string> orders{"ascending", "descending", "random:1", "random:7"};

class EmulationCountsGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!emu::race_check_traced()) GTEST_SKIP() << "the kernels are not traced (the counter needs clang)";
    saved_order_ = emu::thread_order();
    saved_counting_ = emu::counting_on();
    emu::set_counting(true);
    emu::reset_counts();
    (void)cudaGetLastError();
  }
  void TearDown() override {
    if (saved_order_.empty()) return;
    emu::set_thread_order(saved_order_);
    emu::set_counting(saved_counting_);
    emu::reset_counts();
  }

  /// The counts of kernel `name` (launch name), or all zero when it was not counted.
  static emu::kernel_counts of(const std::string& name) {
    for (const emu::kernel_counts& k : emu::counts())
      if (k.kernel == name) return k;
    return {};
  }

 private:
  std::string saved_order_;
  bool saved_counting_ = false;
};

__global__ void copy_strided(const float* in, float* out, unsigned stride) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t * stride];
}

__global__ void shared_strided(unsigned* out, unsigned stride) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  const unsigned t = threadIdx.x;
  sh[t * stride] = t;
  __syncthreads();
  out[t] = sh[t * stride];
}

__global__ void shared_broadcast(unsigned* out) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  const unsigned t = threadIdx.x;
  sh[t] = t;
  __syncthreads();
  out[t] = sh[0];
}

__global__ void add_to_one(unsigned* counter) { atomicAdd(counter, 1u); }

/// Lane t loads t % 4 + 1 elements in a loop, then all store once: the loop's k-th pass is one
/// request of the lanes that make it (32, 24, 16 and 8 lanes), as a device's warp runs it.
__global__ void divergent_loop(const unsigned* in, unsigned* out) {
  const unsigned t = threadIdx.x;
  unsigned sum = 0;
  for (unsigned k = 0; k <= t % 4; ++k) sum += in[k * 32 + t];
  out[t] = sum;
}

TEST_F(EmulationCountsGpu, CoalescedLoadIsFourSectorsARequest) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    emu::reset_counts();
    device_buffer<float> in(std::vector<float>(64, 1.0f), nullptr), out(64, nullptr);

    WARPSPAN_LAUNCH(copy_strided, 1, 64, 0, nullptr)(in.data(), out.data(), 1u);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);

    const emu::kernel_counts k = of("copy_strided");
    EXPECT_EQ(k.launches, 1u) << order;
    // Two warps, one load and one store each, 4 sectors of 32 bytes per 32 lanes x 4 bytes.
    EXPECT_EQ(k.global_load_requests, 2u) << order;
    EXPECT_EQ(k.global_store_requests, 2u) << order;
    EXPECT_EQ(k.global_sectors, 16u) << order;
    EXPECT_EQ(k.global_ideal_sectors, 16u) << order;
    EXPECT_EQ(k.global_accesses, 128u) << order;
    EXPECT_EQ(k.shared_requests, 0u) << order;
  }
}

TEST_F(EmulationCountsGpu, StridedLoadIsOneSectorALane) {
  device_buffer<float> in(std::vector<float>(32 * 32, 1.0f), nullptr), out(32, nullptr);

  WARPSPAN_LAUNCH(copy_strided, 1, 32, 0, nullptr)(in.data(), out.data(), 32u);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);

  const emu::kernel_counts k = of("copy_strided");
  EXPECT_EQ(k.global_requests, 2u);
  // The load: 32 floats 128 bytes apart, a sector each (ideal 4); the store: 4 sectors.
  EXPECT_EQ(k.global_sectors, 32u + 4u);
  EXPECT_EQ(k.global_ideal_sectors, 4u + 4u);
}

TEST_F(EmulationCountsGpu, SharedStrideTwoIsATwoWayConflict) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    emu::reset_counts();
    device_buffer<unsigned> out(32, nullptr);

    WARPSPAN_LAUNCH(shared_strided, 1, 32, 64 * sizeof(unsigned), nullptr)(out.data(), 2u);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess) << emu::last_race_report();

    const emu::kernel_counts k = of("shared_strided");
    // Words 0, 2, .., 62: banks 0, 2, .., 30 hold two words each, for the store and the load.
    EXPECT_EQ(k.shared_requests, 2u) << order;
    EXPECT_EQ(k.shared_wavefronts, 4u) << order;
    EXPECT_EQ(k.shared_ideal_wavefronts, 2u) << order;
    EXPECT_EQ(k.shared_conflicted_requests, 2u) << order;
    EXPECT_EQ(k.global_sectors, 4u) << order;
  }
}

TEST_F(EmulationCountsGpu, SharedStrideOneAndBroadcastHaveNoConflict) {
  device_buffer<unsigned> out(32, nullptr);

  WARPSPAN_LAUNCH(shared_strided, 1, 32, 32 * sizeof(unsigned), nullptr)(out.data(), 1u);
  WARPSPAN_LAUNCH(shared_broadcast, 1, 32, 32 * sizeof(unsigned), nullptr)(out.data());
  ASSERT_EQ(cudaGetLastError(), cudaSuccess) << emu::last_race_report();

  for (const char* name : {"shared_strided", "shared_broadcast"}) {
    const emu::kernel_counts k = of(name);
    EXPECT_EQ(k.shared_requests, 2u) << name;
    EXPECT_EQ(k.shared_wavefronts, 2u) << name;
    EXPECT_EQ(k.shared_conflicted_requests, 0u) << name;
  }
  // Stride 32 puts every lane in bank 0: a 32-way conflict.
  emu::reset_counts();
  WARPSPAN_LAUNCH(shared_strided, 1, 32, 32 * 32 * sizeof(unsigned), nullptr)(out.data(), 32u);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess) << emu::last_race_report();
  EXPECT_EQ(of("shared_strided").shared_wavefronts, 64u);
}

TEST_F(EmulationCountsGpu, AtomicsOnOneAddressSerialise) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    emu::reset_counts();
    device_buffer<unsigned> counter(std::vector<unsigned>{0u}, nullptr);

    WARPSPAN_LAUNCH(add_to_one, 1, 64, 0, nullptr)(counter.data());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);

    const emu::kernel_counts k = of("add_to_one");
    EXPECT_EQ(k.atomics, 64u) << order;
    EXPECT_EQ(k.atomic_requests, 2u) << order;     // one per warp
    EXPECT_EQ(k.atomic_serialised, 64u) << order;  // 32 lanes on one address, twice
    EXPECT_EQ(k.global_requests, 0u) << order;
    EXPECT_EQ(counter.to_host()[0], 64u);
  }
}

/// Two warps, two barrier intervals: before the barrier warp 0 loads three global words a lane and
/// warp 1 one; after it warp 0 one shared word a lane and warp 1 two.
__global__ void two_intervals(const unsigned* in, unsigned* out) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  const unsigned t = threadIdx.x, warp = t / 32;
  unsigned sum = 0;
  for (unsigned k = 0; k < (warp == 0 ? 3u : 1u); ++k) sum += in[k * 64 + t];
  sh[t] = sum;
  __syncthreads();
  for (unsigned k = 0; k < (warp == 0 ? 1u : 2u); ++k) sum += sh[(t + k) % 64];
  out[blockIdx.x * 64 + t] = sum;
}

TEST_F(EmulationCountsGpu, CriticalPathIsTheBusiestWarpsLoadsInEachInterval) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    emu::reset_counts();
    std::vector<unsigned> host(3 * 64);
    std::iota(host.begin(), host.end(), 0u);
    device_buffer<unsigned> in(host, nullptr), out(2 * 64, nullptr);

    WARPSPAN_LAUNCH(two_intervals, 2, 64, 64 * sizeof(unsigned), nullptr)(in.data(), out.data());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);

    const emu::kernel_counts k = of("two_intervals");
    // Per block: warp 0's three global loads in the first interval, warp 1's two shared loads in
    // the second (stores are not on the path); two intervals; 64 threads and 256 bytes a block.
    EXPECT_EQ(k.blocks, 2u) << order;
    EXPECT_EQ(k.path_global_loads, 2u * 3u) << order;
    EXPECT_EQ(k.path_shared_loads, 2u * 2u) << order;
    EXPECT_EQ(k.path_intervals, 2u * 2u) << order;
    EXPECT_EQ(k.threads, 2u * 64u) << order;
    EXPECT_EQ(k.dynamic_shared, 64u * sizeof(unsigned)) << order;
    EXPECT_EQ(out.to_host()[32], 32u + 32u + 33u) << order;  // in[32], then sh[32] and sh[33]
  }
}

TEST_F(EmulationCountsGpu, DivergentLoopPassesAreRequestsOfTheLanesThatMakeThem) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    emu::reset_counts();
    std::vector<unsigned> host(4 * 32);
    std::iota(host.begin(), host.end(), 0u);
    device_buffer<unsigned> in(host, nullptr), out(32, nullptr);

    WARPSPAN_LAUNCH(divergent_loop, 1, 32, 0, nullptr)(in.data(), out.data());
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);

    const emu::kernel_counts k = of("divergent_loop");
    // Passes 1..4 by 32, 24, 16, 8 lanes: each within one 128-byte row, so 4 sectors at most and
    // one per 8 neighbouring lanes (lanes t % 4 >= k are spread over all four sectors of the row).
    EXPECT_EQ(k.global_load_requests, 4u) << order;
    EXPECT_EQ(k.global_accesses, 32u + 24u + 16u + 8u + 32u) << order;
    EXPECT_EQ(k.global_sectors, 4u * 4u + 4u) << order;
    EXPECT_EQ(out.to_host()[3], 3u + 35u + 67u + 99u);
  }
}

TEST_F(EmulationCountsGpu, NothingIsCountedWhenOff) {
  emu::set_counting(false);
  device_buffer<float> in(std::vector<float>(32, 1.0f), nullptr), out(32, nullptr);

  WARPSPAN_LAUNCH(copy_strided, 1, 32, 0, nullptr)(in.data(), out.data(), 1u);
  ASSERT_EQ(cudaGetLastError(), cudaSuccess);

  EXPECT_TRUE(emu::counts().empty());
}

TEST_F(EmulationCountsGpu, TheTableNamesEveryCountedKernel) {
  device_buffer<unsigned> counter(std::vector<unsigned>{0u}, nullptr);
  WARPSPAN_LAUNCH(add_to_one, 2, 32, 0, nullptr)(counter.data());
  WARPSPAN_LAUNCH(add_to_one, 1, 32, 0, nullptr)(counter.data());

  const std::string table = emu::counts_table();

  EXPECT_EQ(table.rfind("kernel\tlaunches", 0), 0u) << table;
  EXPECT_NE(table.find("add_to_one\t2\t"), std::string::npos) << table;
  EXPECT_EQ(of("add_to_one").blocks, 3u);
  EXPECT_EQ(of("add_to_one").atomic_serialised, 96u);
}

// ---- The cache model (cuda/emulation/cache_model.cpp).

/// A plain LRU cache of `capacity` sectors, one access at a time: the reads it misses and the
/// dirty sectors it writes back (on eviction, and those left at the end).
struct brute_lru {
  std::size_t capacity;
  std::list<std::uint64_t> order;  // most recent first
  struct slot {
    std::list<std::uint64_t>::iterator at;
    bool dirty;
  };
  std::unordered_map<std::uint64_t, slot> held;
  std::uint64_t read_misses = 0, writebacks = 0;

  void access(std::uint64_t sector, emu::caching::sector_use use) {
    const bool reads = use != emu::caching::sector_use::store, writes = use != emu::caching::sector_use::load;
    auto it = held.find(sector);
    if (it == held.end()) {
      if (reads) ++read_misses;
      if (held.size() == capacity) {
        const std::uint64_t victim = order.back();
        order.pop_back();
        if (held.at(victim).dirty) ++writebacks;
        held.erase(victim);
      }
      order.push_front(sector);
      held[sector] = slot{order.begin(), writes};
      return;
    }
    order.splice(order.begin(), order, it->second.at);
    it->second.dirty = it->second.dirty || writes;
  }
  std::uint64_t writebacks_with_left() const {
    std::uint64_t n = writebacks;
    for (const auto& [sector, s] : held) n += s.dirty;
    return n;
  }
};

TEST(EmulationCacheModel, StackDistancesMatchAnLruCacheOfEverySize) {
  // Two kernels' accesses, loads, stores and atomics, over 3,000 sectors with a hot set, against a
  // plain LRU cache at nine of the model's capacities (8 KiB to 128 KiB: 256 to 4,096 sectors).
  std::mt19937_64 rng(11);
  std::vector<std::pair<std::uint64_t, emu::caching::sector_use>> trace;
  for (int i = 0; i < 60000; ++i) {
    const std::uint64_t sector = rng() % 4 == 0 ? rng() % 3000 : rng() % 200;
    const auto r = rng() % 10;
    trace.emplace_back(sector, r < 6   ? emu::caching::sector_use::load
                               : r < 9 ? emu::caching::sector_use::store
                                       : emu::caching::sector_use::atomic);
  }
  emu::caching::l2_stack l2;
  std::vector<emu::cache_counts> counts;
  for (std::size_t i = 0; i < trace.size(); ++i) l2.access(trace[i].first, trace[i].second, i < 30000 ? 0 : 1, counts);
  counts = l2.with_dirty_left(counts);
  emu::cache_counts both = counts.at(0);
  both += counts.at(1);
  EXPECT_EQ(both.l2_sectors, trace.size());
  for (std::size_t c = 0; c <= 32; c += 4) {
    const std::uint64_t bytes = emu::l2_capacity(c);
    brute_lru lru{static_cast<std::size_t>(bytes / 32), {}, {}};
    for (const auto& [sector, use] : trace) lru.access(sector, use);
    EXPECT_EQ(both.read_misses(bytes), lru.read_misses) << bytes << " bytes";
    EXPECT_EQ(both.writebacks(bytes), lru.writebacks_with_left()) << bytes << " bytes";
    // A capacity between two of the model's is answered for the lower.
    EXPECT_EQ(both.read_misses(emu::l2_capacity(c + 1) - 1), lru.read_misses) << bytes << " bytes";
  }
  EXPECT_EQ(emu::l2_capacity(0), 8u * 1024u);
  EXPECT_EQ(emu::l2_capacity(emu::l2_capacities - 1), 128u << 20);
}

__global__ void sum_rows(const unsigned* in, unsigned* out, unsigned columns) {
  const unsigned t = blockIdx.x * blockDim.x + threadIdx.x;
  out[t] = in[t] + in[columns];  // in[columns]: one word every thread of the grid reads
}

TEST_F(EmulationCountsGpu, TheCachesServeRepeatedReadsByTheirSize) {
  for (const auto& order : {std::string("ascending"), std::string("random:3")}) {
    ASSERT_TRUE(emu::set_thread_order(order));
    emu::reset_counts();
    // 64 KiB read twice (two launches) by 8 blocks of 256, and one word read by every thread.
    constexpr unsigned n = 16384;
    device_buffer<unsigned> in(std::vector<unsigned>(n + 1, 1u), nullptr), out(n, nullptr);
    WARPSPAN_LAUNCH(sum_rows, n / 256, 256, 0, nullptr)(in.data(), out.data(), n);
    WARPSPAN_LAUNCH(sum_rows, n / 256, 256, 0, nullptr)(in.data(), out.data(), n);
    ASSERT_EQ(cudaGetLastError(), cudaSuccess);

    const std::vector<emu::cache_counts> all = emu::cache_counts_of_kernels();
    ASSERT_EQ(all.size(), 1u) << order;
    const emu::cache_counts& k = all[0];
    EXPECT_EQ(k.kernel, "sum_rows");
    // Loads: 2,048 sectors of rows a launch, each read once, and the shared word's sector, which
    // each block's L1 serves after its first warp: 64 blocks a launch, 8 warps each.
    EXPECT_EQ(k.l1_hit_sectors, 2u * 64u * 7u) << order;
    EXPECT_EQ(k.l2_reads, 2u * (2048u + 64u)) << order;
    EXPECT_EQ(k.l2_sectors, 2u * (2048u + 64u + 2048u)) << order;  // and 2,048 stored a launch
    // An L2 that holds the 128 KiB both buffers take (and the word) misses only the first launch's
    // reads: 2,049 sectors; one of 32 KiB misses the second's too, and the word's sector again
    // where the launch's last reads of it were more than 1,024 sectors before the next's first.
    EXPECT_EQ(k.read_misses(256u << 10), 2049u) << order;
    EXPECT_GE(k.read_misses(32u << 10), 2u * 2048u + 1u) << order;
    EXPECT_LE(k.read_misses(32u << 10), 2u * 2048u + 2u) << order;
    // Stores: every sector of `out` written back once where the cache holds it, twice where not.
    EXPECT_EQ(k.writebacks(256u << 10), 2048u) << order;
    EXPECT_EQ(k.writebacks(32u << 10), 2u * 2048u) << order;
    EXPECT_EQ(out.to_host()[5], 2u);
  }
  emu::reset_counts();
  EXPECT_TRUE(emu::cache_counts_of_kernels().empty());
}

}  // namespace
}  // namespace warpspan
#endif
