// The CUDA helpers of cuda/common, compiled against the emulated runtime: the device_pool that the
// exact sweeps hand to Thrust for its temporaries (the runtime's allocation counter shows what
// reaches the device), and launch bounds.
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
#include <gtest/gtest.h>

#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/sort.h>

#include <new>

#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/device_pool.cuh"
#include "common/graph.cuh"
#include "common/launch.cuh"
#include "common/stream.cuh"
#include "cli/cli_util.hpp"
#include "test_util.hpp"
#include "warpspan/core/error.hpp"
#include "emulation_hooks.hpp"

namespace warpspan {
namespace {

void not_in_the_table(int* out) { *out = 1; }

TEST(EmulatedOccupancyGpu, AKernelMissingFromNvccsTableIsAnError) {
  // The emulation finds a kernel by its symbol and its registers in resource_usage.tsv; a kernel
  // nvcc never compiled (this one) has no row, and the calculator says so instead of guessing.
  EXPECT_EQ(emu::kernel_name(reinterpret_cast<const void*>(&not_in_the_table)),
            "warpspan::(anonymous namespace)::not_in_the_table");
  int grid = -1, block = -1, blocks = -1;
  EXPECT_EQ(cudaOccupancyMaxPotentialBlockSize(&grid, &block, not_in_the_table), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, not_in_the_table, 256, 0),
            cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaGetLastError(), cudaErrorInvalidDeviceFunction);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(DevicePoolGpu, FreedBlocksServeTheNextRequestsThatFit) {
  device_pool pool;
  const std::size_t before = emu::allocation_count();
  char* a = pool.allocate(1000);
  pool.deallocate(a, 1000);
  EXPECT_EQ(pool.cached_bytes(), 1000u);
  EXPECT_EQ(pool.allocate(600), a);  // fits, and wastes less than half
  EXPECT_EQ(pool.cached_bytes(), 0u);
  char* b = pool.allocate(400);  // 1000 would waste more than half: a new block
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

__global__ void __launch_bounds__(64) bounded_kernel(int* out) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(64);
  out[blockIdx.x * blockDim.x + threadIdx.x] = 1;
}

TEST(LaunchBoundsGpu, MoreThreadsThanTheBoundFailTheLaunch) {
  int* out = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&out), 256 * sizeof(int)), cudaSuccess);
  ASSERT_EQ(cudaMemset(out, 0, 256 * sizeof(int)), cudaSuccess);
  (void)cudaGetLastError();
  WARPSPAN_LAUNCH(bounded_kernel, 2, 64, 0, nullptr)(out);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  WARPSPAN_LAUNCH(bounded_kernel, 1, 128, 0, nullptr)(out + 128);
  EXPECT_EQ(cudaGetLastError(), cudaErrorLaunchOutOfResources);
  int host[256];
  ASSERT_EQ(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  for (int k = 0; k < 128; ++k) EXPECT_EQ(host[k], 1) << k;
  for (int k = 128; k < 256; ++k) EXPECT_EQ(host[k], 0) << k;  // the refused launch wrote nothing
  ASSERT_EQ(cudaFree(out), cudaSuccess);
}

__global__ void through_shared(int* out) {
  WARPSPAN_DYNAMIC_SHARED(int, sh);
  sh[threadIdx.x] = static_cast<int>(threadIdx.x) + 1;
  __syncthreads();
  out[threadIdx.x] = sh[threadIdx.x];
}

TEST(DynamicSharedGpu, RaisingTheLimitForLessNeverLowersItForMore) {
  // Host threads that launch one kernel at once (a dbf stream's two chunks in flight) each raise
  // its limit before their launch; one asking for less must not undo the raise another made for
  // more before that one launches.
  ASSERT_TRUE(allow_dynamic_shared(through_shared, 100 * 1024));
  ASSERT_TRUE(allow_dynamic_shared(through_shared, 60 * 1024));
  int* out = nullptr;
  ASSERT_EQ(cudaMalloc(reinterpret_cast<void**>(&out), 32 * sizeof(int)), cudaSuccess);
  (void)cudaGetLastError();
  WARPSPAN_LAUNCH(through_shared, 1, 32, 100 * 1024, nullptr)(out);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
  int host[32] = {};
  ASSERT_EQ(cudaMemcpy(host, out, sizeof host, cudaMemcpyDeviceToHost), cudaSuccess);
  EXPECT_EQ(host[31], 32);
  ASSERT_EQ(cudaFree(out), cudaSuccess);
  EXPECT_FALSE(allow_dynamic_shared(through_shared, query_device(false).shared_optin + 1)) << "over the opt-in";
}

TEST(CudaTimerGpu, ACreateOrRecordThatThrowsLeavesNoEvent) {
  const std::size_t before = emu::live_events();

  emu::fail_call("cudaEventCreate", cudaErrorMemoryAllocation, 1);  // the second create fails
  EXPECT_THROW(cuda_timer(nullptr), cuda_error);
  const std::size_t after_create = emu::live_events();
  emu::fail_call("cudaEventRecord", cudaErrorInvalidResourceHandle);
  EXPECT_THROW(cuda_timer(nullptr), cuda_error);
  const std::size_t after_record = emu::live_events();

  EXPECT_EQ(after_create, before);
  EXPECT_EQ(after_record, before);
  (void)cudaGetLastError();
}

__global__ void add_to_each(unsigned* values, unsigned n, unsigned add) {
  const unsigned k = blockIdx.x * blockDim.x + threadIdx.x;
  if (k < n) values[k] = values[k] * 10u + add;
}

TEST(CudaGraphGpu, ACapturedChainRunsOnlyWhenLaunchedAndEachTime) {
  const std::size_t graphs = emu::live_graphs();
  cuda_stream stream;
  device_buffer<unsigned> d(std::vector<unsigned>(40, 7u), nullptr);
  {
    const cuda_graph graph(stream.get(), [&] {
      WARPSPAN_CUDA_TRY(cudaMemsetAsync(d.data(), 0, 40 * sizeof(unsigned), stream.get()));
      for (unsigned add = 1; add <= 3; ++add) {  // each launch's parameters outlive the loop variable
        WARPSPAN_LAUNCH(add_to_each, 2, 32, 0, stream.get())(d.data(), 40u, add);
        WARPSPAN_CUDA_CHECK_LAST();
      }
    });
    EXPECT_EQ(emu::live_graphs(), graphs + 2);  // the graph and its executable form
    EXPECT_EQ(d.to_host(), std::vector<unsigned>(40, 7u)) << "captured work ran at capture";
    graph.launch(stream.get());
    stream.sync();
    EXPECT_EQ(d.to_host(), std::vector<unsigned>(40, 123u));                 // ((0 * 10 + 1) * 10 + 2) * 10 + 3
    WARPSPAN_LAUNCH(add_to_each, 1, 32, 0, stream.get())(d.data(), 1u, 4u);  // the stream launches again
    graph.launch(stream.get());
    EXPECT_EQ(d.to_host(), std::vector<unsigned>(40, 123u));
  }
  EXPECT_EQ(emu::live_graphs(), graphs);
  EXPECT_EQ(cudaGetLastError(), cudaSuccess);
}

TEST(CudaGraphGpu, WhatCannotBeCapturedFailsTheCaptureAndLeavesNothing) {
  const std::size_t graphs = emu::live_graphs();
  cuda_stream stream;
  device_buffer<unsigned> d(std::vector<unsigned>(8, 1u), nullptr);
  unsigned host[8] = {};
  // A copy, a synchronisation or an event on a capturing stream: refused, the capture invalidated.
  for (int what = 0; what < 3; ++what) {
    EXPECT_THROW(cuda_graph(stream.get(),
                            [&] {
                              WARPSPAN_LAUNCH(add_to_each, 1, 32, 0, stream.get())(d.data(), 8u, 1u);
                              if (what == 0)
                                WARPSPAN_CUDA_TRY(
                                    cudaMemcpyAsync(host, d.data(), sizeof host, cudaMemcpyDeviceToHost, stream.get()));
                              if (what == 1) stream.sync();
                              if (what == 2) cuda_timer timer(stream.get());
                            }),
                 cuda_error)
        << what;
    cudaStreamCaptureStatus status = cudaStreamCaptureStatusActive;
    EXPECT_EQ(cudaStreamIsCapturing(stream.get(), &status), cudaSuccess);
    EXPECT_EQ(status, cudaStreamCaptureStatusNone) << what;
  }
  // A capture whose work throws is ended and dropped; a bad configuration invalidates it.
  EXPECT_THROW(cuda_graph(stream.get(), [] { throw input_error("no"); }), input_error);
  EXPECT_THROW(cuda_graph(stream.get(),
                          [&] {
                            WARPSPAN_LAUNCH(add_to_each, 0, 32, 0, stream.get())(d.data(), 8u, 1u);
                            WARPSPAN_CUDA_CHECK_LAST();
                          }),
               cuda_error);
  cudaGraph_t g = nullptr;
  EXPECT_EQ(cudaStreamBeginCapture(nullptr, cudaStreamCaptureModeGlobal), cudaErrorStreamCaptureUnsupported);
  EXPECT_EQ(cudaStreamEndCapture(stream.get(), &g), cudaErrorIllegalState);
  (void)cudaGetLastError();
  EXPECT_EQ(emu::live_graphs(), graphs);
  EXPECT_EQ(d.to_host(), std::vector<unsigned>(8, 1u)) << "nothing captured ran";
  WARPSPAN_LAUNCH(add_to_each, 1, 32, 0, stream.get())(d.data(), 8u, 2u);  // the stream works on
  EXPECT_EQ(d.to_host(), std::vector<unsigned>(8, 12u));
}

TEST(DriverErrorGpu, ADriverTooOldIsNamedOnceAndTheCpuRuns) {
  // Error 35 from cudaGetDeviceCount: a driver that is there but older than the runtime needs.
  const std::string file = test::source_path("data/tasks/sporadic.csv");

  const auto injected = test::run_warpspan_under("env WARPSPAN_EMU_FAIL=cudaGetDeviceCount:35", "dbf " + file);
  const auto forced =
      test::run_warpspan_under("env WARPSPAN_EMU_FAIL=cudaGetDeviceCount:35", "dbf " + file + " --backend cuda");

  EXPECT_EQ(injected.code, 0) << injected.err;
  EXPECT_NE(injected.out.find("verdict          schedulable by EDF"), std::string::npos) << injected.out;
  EXPECT_NE(injected.out.find(" on cpu-parallel,"), std::string::npos) << injected.out;  // the CPU ran
  const std::string said = "the CUDA device is unusable: cudaErrorInsufficientDriver";
  EXPECT_NE(injected.err.find(said), std::string::npos) << injected.err;
  EXPECT_EQ(injected.err.find(said), injected.err.rfind(said)) << injected.err;  // once
  EXPECT_NE(injected.err.find("the NVIDIA driver is older than CUDA 13 needs"), std::string::npos) << injected.err;
  EXPECT_NE(forced.code, 0);
  EXPECT_NE(forced.err.find("cudaErrorInsufficientDriver"), std::string::npos) << forced.err;
}

}  // namespace
}  // namespace warpspan
#endif
