// The emulation's race checker, barrier check and thread orders (cuda/emulation/racecheck.cpp,
// runtime.cpp), on small kernels written wrong on purpose. This file is traced like the kernels
// under cuda/ (tests/CMakeLists.txt), so the checker sees its kernels' loads and stores. Every
// finding must show in every thread order: a missing barrier where the lower thread writes first
// passes the ascending order's results, but not the checker.
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

#include "common/device_buffer.cuh"
#include "common/launch.cuh"

namespace warpspan {
namespace {

const std::vector<std::string> orders{"ascending", "descending", "random:1", "random:2"};

/// Runs the test body under thread order `order`, with the checker on, and restores both.
class EmulationGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!emu::race_check_traced()) GTEST_SKIP() << "the kernels are not traced (the race checker needs clang)";
    saved_order_ = emu::thread_order();
    saved_check_ = emu::race_check_on();
    emu::set_race_check(true);
    (void)cudaGetLastError();
  }
  void TearDown() override {
    if (saved_order_.empty()) return;
    emu::set_thread_order(saved_order_);
    emu::set_race_check(saved_check_);
  }

 private:
  std::string saved_order_;
  bool saved_check_ = true;
};

/// Each thread adds its left neighbour's value: with the barrier between the writes and the reads
/// it is correct; without it, thread t reads sh[t - 1] in the interval where thread t - 1 writes it.
template <bool Barrier>
__global__ void neighbour_sum(const unsigned* in, unsigned* out) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  const unsigned t = threadIdx.x;
  sh[t] = in[t];
  if constexpr (Barrier) __syncthreads();
  out[t] = sh[t] + (t > 0 ? sh[t - 1] : 0u);
}

std::string launch_neighbour_sum(bool barrier, unsigned threads, std::vector<unsigned>* result = nullptr) {
  std::vector<unsigned> in(threads);
  std::iota(in.begin(), in.end(), 1u);
  device_buffer<unsigned> din(in, nullptr), dout(threads, nullptr);
  if (barrier)
    WARPSPAN_LAUNCH(neighbour_sum<true>, 1, threads, threads * sizeof(unsigned), nullptr)(din.data(), dout.data());
  else
    WARPSPAN_LAUNCH(neighbour_sum<false>, 1, threads, threads * sizeof(unsigned), nullptr)(din.data(), dout.data());
  const cudaError_t e = cudaGetLastError();
  if (result) *result = dout.to_host();
  return e == cudaSuccess ? std::string() : std::string(cudaGetErrorName(e)) + ": " + emu::last_race_report();
}

TEST_F(EmulationGpu, MissingBarrierIsReportedInEveryOrder) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));

    const std::string found = launch_neighbour_sum(false, 70);

    EXPECT_NE(found.find("cudaErrorLaunchFailure"), std::string::npos) << order << ": " << found;
    EXPECT_NE(found.find("kernel neighbour_sum<false>, block (0,0,0)"), std::string::npos) << order << ": " << found;
    EXPECT_NE(found.find("shared memory at offset"), std::string::npos) << order << ": " << found;
    // A thread that reads its neighbour's word before the neighbour wrote it reads shared memory
    // nothing has written yet; one that reads it after, in the same interval, races.
    EXPECT_TRUE(found.find("same barrier interval") != std::string::npos ||
                found.find("no thread of the block has written") != std::string::npos)
        << order << ": " << found;
  }
}

TEST_F(EmulationGpu, TheReportNamesTheOffsetAndBothThreads) {
  ASSERT_TRUE(emu::set_thread_order("ascending"));

  const std::string found = launch_neighbour_sum(false, 2);

  // Thread 0 writes sh[0] (bytes 0-3) and reads it; thread 1 then reads sh[0] in the same interval.
  EXPECT_NE(found.find("thread (1,0,0) reads shared memory at offset 0, which thread (0,0,0) writes"),
            std::string::npos)
      << found;
}

TEST_F(EmulationGpu, WithTheBarrierEveryOrderPassesAndAgrees) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    std::vector<unsigned> out;

    const std::string found = launch_neighbour_sum(true, 70, &out);

    EXPECT_EQ(found, "") << order;
    for (unsigned t = 0; t < 70; ++t) EXPECT_EQ(out[t], 2 * t + 1) << order << " thread " << t;  // (t+1) + t
  }
}

/// Threads 0-15 wait at one barrier, the rest at another.
__global__ void divergent_barriers(unsigned* out) {
  if (threadIdx.x < 16)
    __syncthreads();
  else
    __syncthreads();
  out[threadIdx.x] = threadIdx.x;
}

/// Thread 5 returns before the barrier the others wait at.
__global__ void early_return(unsigned* out) {
  if (threadIdx.x == 5) return;
  __syncthreads();
  out[threadIdx.x] = threadIdx.x;
}

TEST_F(EmulationGpu, BarrierDivergenceFailsTheLaunchInEveryOrder) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    device_buffer<unsigned> out(64, nullptr);

    WARPSPAN_LAUNCH(divergent_barriers, 1, 64, 0, nullptr)(out.data());
    const cudaError_t different = cudaGetLastError();
    const std::string different_report = emu::last_race_report();
    WARPSPAN_LAUNCH(early_return, 1, 64, 0, nullptr)(out.data());
    const cudaError_t returned = cudaGetLastError();
    const std::string returned_report = emu::last_race_report();

    EXPECT_EQ(different, cudaErrorLaunchFailure) << order;
    EXPECT_NE(different_report.find("kernel divergent_barriers"), std::string::npos) << different_report;
    EXPECT_NE(different_report.find("barrier divergence"), std::string::npos) << different_report;
    EXPECT_NE(different_report.find("test_emulation_racecheck.cpp:"), std::string::npos) << different_report;
    EXPECT_EQ(returned, cudaErrorLaunchFailure) << order;
    EXPECT_NE(returned_report.find("thread (5,0,0) never reaches (it returned)"), std::string::npos)
        << order << ": " << returned_report;
  }
}

/// Reads one element past what the block staged.
__global__ void reads_unstaged(const unsigned* in, unsigned* out) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  sh[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = sh[threadIdx.x + 1];  // the last thread reads sh[blockDim.x]: never written
}

TEST_F(EmulationGpu, UninitialisedSharedReadIsReported) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    device_buffer<unsigned> in(std::vector<unsigned>(32, 7u), nullptr), out(32, nullptr);

    WARPSPAN_LAUNCH(reads_unstaged, 1, 32, 33 * sizeof(unsigned), nullptr)(in.data(), out.data());

    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure) << order;
    EXPECT_NE(emu::last_race_report().find("thread (31,0,0) reads shared memory at offset 128, which no thread"),
              std::string::npos)
        << emu::last_race_report();
  }
}

/// A shared histogram: atomics on the same bins are no race; a plain read of a bin in the interval
/// in which other threads add to it is.
template <bool ReadEarly>
__global__ void shared_histogram(const unsigned* data, unsigned* hist, unsigned bins) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) sh[b] = 0;
  __syncthreads();
  atomicAdd(&sh[data[threadIdx.x] % bins], 1u);
  if constexpr (!ReadEarly) __syncthreads();
  if (threadIdx.x < bins) hist[threadIdx.x] = sh[threadIdx.x];
}

TEST_F(EmulationGpu, AtomicsDoNotRaceWithEachOtherButWithPlainAccesses) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    std::vector<unsigned> data(96);
    for (unsigned k = 0; k < 96; ++k) data[k] = k * 7;
    device_buffer<unsigned> d(data, nullptr), hist(8, nullptr);

    WARPSPAN_LAUNCH(shared_histogram<false>, 1, 96, 8 * sizeof(unsigned), nullptr)(d.data(), hist.data(), 8u);
    const cudaError_t synced = cudaGetLastError();
    const auto counts = hist.to_host();
    WARPSPAN_LAUNCH(shared_histogram<true>, 1, 96, 8 * sizeof(unsigned), nullptr)(d.data(), hist.data(), 8u);
    const cudaError_t early = cudaGetLastError();

    EXPECT_EQ(synced, cudaSuccess) << order << ": " << emu::last_race_report();
    EXPECT_EQ(counts, std::vector<unsigned>(8, 12u)) << order;  // k * 7 mod 8 takes every bin 12 times
    EXPECT_EQ(early, cudaErrorLaunchFailure) << order;
    EXPECT_NE(emu::last_race_report().find("atomically updates"), std::string::npos) << emu::last_race_report();
  }
}

/// Every thread of the block writes the same word of device memory.
__global__ void same_word(unsigned* out) { out[blockIdx.x] = threadIdx.x; }

TEST_F(EmulationGpu, DeviceMemoryRaceWithinABlockIsReported) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    device_buffer<unsigned> out(3, nullptr);

    WARPSPAN_LAUNCH(same_word, 3, 40, 0, nullptr)(out.data());

    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure) << order;
    EXPECT_NE(emu::last_race_report().find("device memory at offset"), std::string::npos) << emu::last_race_report();
  }
}

/// Thread t writes byte t of the array, then reads its neighbour's byte after a barrier: the bytes
/// share 8-byte words (the checker's slots), but no two threads touch one byte in one interval.
__global__ void own_bytes(unsigned char* bytes, unsigned char* seen) {
  bytes[threadIdx.x] = static_cast<unsigned char>(threadIdx.x + 1);
  __syncthreads();
  seen[threadIdx.x] = bytes[(threadIdx.x + 1) % blockDim.x];
}

/// As own_bytes without the barrier: the read of a neighbour's byte races with its write.
__global__ void own_bytes_unsynced(unsigned char* bytes, unsigned char* seen) {
  bytes[threadIdx.x] = static_cast<unsigned char>(threadIdx.x + 1);
  seen[threadIdx.x] = bytes[(threadIdx.x + 1) % blockDim.x];
}

TEST_F(EmulationGpu, NeighbouringBytesOfOneWordDoNotRace) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    device_buffer<unsigned char> bytes(20, nullptr), seen(20, nullptr);

    WARPSPAN_LAUNCH(own_bytes, 1, 20, 0, nullptr)(bytes.data(), seen.data());
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << order << ": " << emu::last_race_report();
    const std::vector<unsigned char> got = seen.to_host();
    for (unsigned t = 0; t < 20; ++t) EXPECT_EQ(got[t], (t + 1) % 20 + 1) << order;

    WARPSPAN_LAUNCH(own_bytes_unsynced, 1, 20, 0, nullptr)(bytes.data(), seen.data());
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure) << order;
    EXPECT_NE(emu::last_race_report().find("device memory at offset"), std::string::npos) << emu::last_race_report();
  }
}

/// Every thread sets the same flag to 1 (as Rodinia's BFS does): writes of one value do not race.
__global__ void set_flag(unsigned* flag) { *flag = 1u; }

TEST_F(EmulationGpu, WritesOfTheSameValueDoNotRace) {
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    device_buffer<unsigned> flag(std::vector<unsigned>{0}, nullptr);

    WARPSPAN_LAUNCH(set_flag, 2, 64, 0, nullptr)(flag.data());

    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << order << ": " << emu::last_race_report();
    EXPECT_EQ(flag.to_host(), std::vector<unsigned>{1u});
  }
}

/// The warp collectives of a block of one warp: a ballot, a shuffle, a maximum, a match, and a
/// lane's shared-memory write that the others read after a __syncwarp (or, without it, in the same
/// interval).
template <bool Sync>
__global__ void warp_collectives(unsigned* out) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  const unsigned lane = threadIdx.x;
  const unsigned ballot = __ballot_sync(0xFFFFFFFFu, lane % 3 == 0);
  const unsigned from7 = __shfl_sync(0xFFFFFFFFu, lane * 10, 7);
  const unsigned most = __reduce_max_sync(0xFFFFFFFFu, (lane * 37) % 32);
  const unsigned same = __match_any_sync(0xFFFFFFFFu, lane % 4);  // lanes with this lane's lane % 4
  if (lane == 0) sh[0] = 1234;
  if constexpr (Sync) __syncwarp();
  out[lane] = ballot ^ from7 ^ most ^ sh[0] ^ same;
}

TEST_F(EmulationGpu, WarpCollectivesInABlockOfOneWarp) {
  unsigned ballot = 0;
  for (unsigned lane = 0; lane < 32; lane += 3) ballot |= 1u << lane;
  std::vector<unsigned> want(32);
  for (unsigned lane = 0; lane < 32; ++lane) want[lane] = ballot ^ 70u ^ 31u ^ 1234u ^ (0x11111111u << (lane % 4));
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    device_buffer<unsigned> out(32, nullptr);
    WARPSPAN_LAUNCH(warp_collectives<true>, 2, 32, sizeof(unsigned), nullptr)(out.data());
    EXPECT_EQ(cudaGetLastError(), cudaSuccess) << order << ": " << emu::last_race_report();
    EXPECT_EQ(out.to_host(), want) << order;
    // Without the __syncwarp the other lanes read lane 0's word in the interval it writes it.
    WARPSPAN_LAUNCH(warp_collectives<false>, 1, 32, sizeof(unsigned), nullptr)(out.data());
    EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchFailure) << order;
  }
  // Collectives of a warp apart from its block's other warps are not emulated: refused, saying so.
  device_buffer<unsigned> out(64, nullptr);
  try {
    WARPSPAN_LAUNCH(warp_collectives<true>, 1, 64, sizeof(unsigned), nullptr)(out.data());
    ADD_FAILURE() << "a warp collective in a block of two warps ran";
  } catch (const std::logic_error& e) {
    EXPECT_NE(std::string(e.what()).find("only in blocks of one warp"), std::string::npos) << e.what();
  }
  (void)cudaGetLastError();
}

/// Writes the order in which the block's threads ran each interval.
__global__ void record_order(unsigned* seen, unsigned* counter) {
  seen[atomicAdd(counter, 1u)] = threadIdx.x;
  __syncthreads();
  seen[atomicAdd(counter, 1u)] = threadIdx.x;
}

std::vector<unsigned> observed_order(const std::string& order) {
  EXPECT_TRUE(emu::set_thread_order(order));
  device_buffer<unsigned> seen(80, nullptr), counter(std::vector<unsigned>{0}, nullptr);
  WARPSPAN_LAUNCH(record_order, 1, 40, 0, nullptr)(seen.data(), counter.data());
  EXPECT_EQ(cudaGetLastError(), cudaSuccess) << emu::last_race_report();
  return seen.to_host();
}

TEST_F(EmulationGpu, ThreadOrderIsAParameter) {
  std::vector<unsigned> up(40), down(40);
  std::iota(up.begin(), up.end(), 0u);
  std::iota(down.rbegin(), down.rend(), 0u);

  const auto ascending = observed_order("ascending");
  const auto descending = observed_order("descending");
  const auto random = observed_order("random:7");
  const auto again = observed_order("random:7");
  const auto other = observed_order("random:8");

  EXPECT_EQ(std::vector<unsigned>(ascending.begin(), ascending.begin() + 40), up);
  EXPECT_EQ(std::vector<unsigned>(ascending.begin() + 40, ascending.end()), up);
  EXPECT_EQ(std::vector<unsigned>(descending.begin(), descending.begin() + 40), down);
  EXPECT_EQ(random, again);  // seeded: a failing order can be replayed
  EXPECT_NE(random, other);
  const std::vector<unsigned> first(random.begin(), random.begin() + 40), second(random.begin() + 40, random.end());
  EXPECT_NE(first, second);  // a new permutation per interval
  EXPECT_NE(first, up);
  EXPECT_NE(first, down);
  EXPECT_TRUE(std::is_permutation(first.begin(), first.end(), up.begin()));
  EXPECT_TRUE(std::is_permutation(second.begin(), second.end(), up.begin()));
  EXPECT_FALSE(emu::set_thread_order("sideways"));
  EXPECT_EQ(emu::thread_order(), "random:8");
}

}  // namespace
}  // namespace warpspan
#endif
