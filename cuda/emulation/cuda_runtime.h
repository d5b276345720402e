// The CUDA runtime as the CPU emulation build sees it (WARPSPAN_CUDA_EMULATION=ON): the files under
// cuda/ are compiled by the host compiler with this directory first on the include path, so their
// `#include <cuda_runtime.h>` lands here. Kernels run on the CPU through emu::launch (see
// cuda/common/launch.cuh): the threads of a block take turns on one OS thread as fibers (blocks run
// in parallel on a few OS threads), in an order the environment chooses (WARPSPAN_EMU_ORDER);
// __syncthreads is a real barrier whose divergence fails the launch; dynamic shared memory is a
// per-block buffer of exactly the launch's size with the device's limits; device memory is host
// memory whose allocations the runtime tracks, so that copies outside an allocation fail with the
// error codes of the real runtime; and, where the compiler can trace loads and stores (clang), a
// race checker watches every access of a kernel to shared and device memory (racecheck.cpp). The
// device is an emulated H100 (132 SMs, 80 GiB, compute capability 9.0). What this proves and what
// it cannot: docs/development.md, "CUDA emulation".
#pragma once

#include <atomic>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <exception>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>
#if __has_include(<source_location>)
#include <source_location>
#endif

#define WARPSPAN_CUDA_EMULATED 1

// ---- Keywords: the host compiler sees ordinary C++.
#define __global__
#define __device__
#define __host__
#define __forceinline__ inline
#define __noinline__
#define __launch_bounds__(...)
#define __maxnreg__(...)
#define __align__(n) alignas(n)
// Shared memory must go through WARPSPAN_DYNAMIC_SHARED (cuda/common/launch.cuh), which gives every
// block its own buffer here; a plain __shared__ would be one global shared by all blocks.
#define __shared__ __shared__is_not_emulated_use_WARPSPAN_DYNAMIC_SHARED

// ---- Vector types used by the kernels.
struct uint3 {
  unsigned x = 0, y = 0, z = 0;
};
struct dim3 {
  unsigned x = 1, y = 1, z = 1;
  constexpr dim3(unsigned vx = 1, unsigned vy = 1, unsigned vz = 1) : x(vx), y(vy), z(vz) {}
  constexpr dim3(uint3 v) : x(v.x), y(v.y), z(v.z) {}
  constexpr operator uint3() const { return uint3{x, y, z}; }
};
struct alignas(16) uint4 {
  unsigned x, y, z, w;
};
struct alignas(8) uint2 {
  unsigned x, y;
};

// ---- Errors: the codes (and numbers) of the real runtime for what the project can meet.
enum cudaError_t {
  cudaSuccess = 0,
  cudaErrorInvalidValue = 1,
  cudaErrorMemoryAllocation = 2,
  cudaErrorInitializationError = 3,
  cudaErrorInvalidConfiguration = 9,
  cudaErrorInvalidDevicePointer = 17,
  cudaErrorInvalidMemcpyDirection = 21,
  cudaErrorInsufficientDriver = 35,
  cudaErrorInvalidDeviceFunction = 98,
  cudaErrorNoDevice = 100,
  cudaErrorInvalidDevice = 101,
  cudaErrorInvalidResourceHandle = 400,
  cudaErrorIllegalState = 401,
  cudaErrorNotReady = 600,
  cudaErrorLaunchOutOfResources = 701,
  cudaErrorLaunchFailure = 719,
  cudaErrorStreamCaptureUnsupported = 900,
  cudaErrorStreamCaptureInvalidated = 901,
};
using cudaError = cudaError_t;

enum cudaMemcpyKind {
  cudaMemcpyHostToHost = 0,
  cudaMemcpyHostToDevice = 1,
  cudaMemcpyDeviceToHost = 2,
  cudaMemcpyDeviceToDevice = 3,
  cudaMemcpyDefault = 4,
};

enum cudaDeviceAttr {
  cudaDevAttrMaxThreadsPerBlock = 1,
  cudaDevAttrMaxBlockDimX = 2,
  cudaDevAttrMaxGridDimX = 5,
  cudaDevAttrMaxSharedMemoryPerBlock = 8,
  cudaDevAttrWarpSize = 10,
  cudaDevAttrMultiProcessorCount = 16,
  cudaDevAttrMemoryClockRate = 36,
  cudaDevAttrGlobalMemoryBusWidth = 37,
  cudaDevAttrL2CacheSize = 38,
  cudaDevAttrMaxThreadsPerMultiProcessor = 39,
  cudaDevAttrComputeCapabilityMajor = 75,
  cudaDevAttrComputeCapabilityMinor = 76,
  cudaDevAttrMaxSharedMemoryPerMultiprocessor = 81,
  cudaDevAttrMaxSharedMemoryPerBlockOptin = 97,
};

enum cudaFuncAttribute {
  cudaFuncAttributeMaxDynamicSharedMemorySize = 8,
  cudaFuncAttributePreferredSharedMemoryCarveout = 9,
};

struct cudaDeviceProp {
  char name[256] = {};
  std::size_t totalGlobalMem = 0;
  std::size_t sharedMemPerBlock = 0;
  std::size_t sharedMemPerBlockOptin = 0;
  std::size_t sharedMemPerMultiprocessor = 0;
  int warpSize = 0;
  int maxThreadsPerBlock = 0;
  int maxThreadsPerMultiProcessor = 0;
  int multiProcessorCount = 0;
  int major = 0;
  int minor = 0;
  int memoryBusWidth = 0;
  int l2CacheSize = 0;
};

struct CUstream_st;
struct CUevent_st;
using cudaStream_t = CUstream_st*;
using cudaEvent_t = CUevent_st*;
/// The device's stream-ordered memory pool: the emulation keeps its attributes only (a freed
/// allocation goes back to the host at once, whatever the release threshold).
struct CUmemPoolHandle_st;
using cudaMemPool_t = CUmemPoolHandle_st*;
enum cudaMemPoolAttr { cudaMemPoolAttrReleaseThreshold = 4 };
inline constexpr unsigned cudaStreamDefault = 0;
inline constexpr unsigned cudaStreamNonBlocking = 1;
/// Graphs made by stream capture. The emulation records a capturing stream's kernel launches and
/// memsets as the graph's nodes, in issue order (one stream: a chain), and cudaGraphLaunch runs them
/// as launches would run. Anything else issued to a capturing stream (a copy, an allocation, an
/// event, a synchronisation) fails with cudaErrorStreamCaptureUnsupported and invalidates the
/// capture, stricter than the device, which turns some of them into nodes; capturing the legacy
/// stream fails as on the device.
enum cudaStreamCaptureMode {
  cudaStreamCaptureModeGlobal = 0,
  cudaStreamCaptureModeThreadLocal = 1,
  cudaStreamCaptureModeRelaxed = 2,
};
enum cudaStreamCaptureStatus {
  cudaStreamCaptureStatusNone = 0,
  cudaStreamCaptureStatusActive = 1,
  cudaStreamCaptureStatusInvalidated = 2,
};
struct CUgraph_st;
struct CUgraphExec_st;
using cudaGraph_t = CUgraph_st*;
using cudaGraphExec_t = CUgraphExec_st*;

// ---- The runtime calls (cuda/emulation/runtime.cpp).
cudaError_t cudaGetDeviceCount(int* count);
cudaError_t cudaGetDevice(int* device);
cudaError_t cudaSetDevice(int device);
cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device);
cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device);
cudaError_t cudaDeviceSynchronize();
cudaError_t cudaGetLastError();
cudaError_t cudaPeekAtLastError();
const char* cudaGetErrorName(cudaError_t error);
const char* cudaGetErrorString(cudaError_t error);

cudaError_t cudaMalloc(void** ptr, std::size_t bytes);
/// The runtime's typed overload (cuda_runtime.h declares it for C++ callers too).
template <class T>
cudaError_t cudaMalloc(T** ptr, std::size_t bytes) {
  return cudaMalloc(reinterpret_cast<void**>(ptr), bytes);
}
cudaError_t cudaFree(void* ptr);
/// Page-locked host memory: plain host memory here, counted (host_allocation_count) and checked
/// on free (a pointer cudaMallocHost did not give is cudaErrorInvalidValue).
cudaError_t cudaMallocHost(void** ptr, std::size_t bytes);
cudaError_t cudaFreeHost(void* ptr);
cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream);
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream);
cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind);
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind,
                            cudaStream_t stream = nullptr);
cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes);
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream = nullptr);
cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes);
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device);
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value);

cudaError_t cudaStreamCreate(cudaStream_t* stream);
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags);
cudaError_t cudaStreamDestroy(cudaStream_t stream);
cudaError_t cudaStreamSynchronize(cudaStream_t stream);
cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode);
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph);
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status);
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags = 0);
/// Runs the nodes in order; returns (and records) the first error a node met.
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream);
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec);
cudaError_t cudaGraphDestroy(cudaGraph_t graph);

cudaError_t cudaEventCreate(cudaEvent_t* event);
cudaError_t cudaEventDestroy(cudaEvent_t event);
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream = nullptr);
cudaError_t cudaEventSynchronize(cudaEvent_t event);
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop);

namespace warpspan::emu {
// Hooks for the project's tests (declared for them in tests/emulation_hooks.hpp).
/// Streams created and not yet destroyed.
std::size_t live_streams();
/// Graphs and executable graphs made and not yet destroyed.
std::size_t live_graphs();
/// Whether `stream` is capturing (the launcher then hands launch() a body that owns its parameters).
bool stream_capturing(cudaStream_t stream);
/// Successful device allocations so far.
std::size_t allocation_count();
/// Successful cudaMallocHost calls so far, and the blocks not yet freed.
std::size_t host_allocation_count();
std::size_t live_host_allocations();
/// The most device memory allocated at once (bytes) since the last reset; `reset` starts anew
/// from what is allocated now.
std::size_t allocation_peak(bool reset);
/// Makes the emulated device this small (bytes; 0: back to 80 GiB), to test out-of-memory paths.
void set_memory_limit(std::size_t bytes);
/// Events created and not yet destroyed.
std::size_t live_events();
/// The default memory pool's release threshold (cudaMemPoolAttrReleaseThreshold) as last set.
std::uint64_t pool_release_threshold();
/// Makes the runtime call named `call` (e.g. "cudaEventCreate") fail with `error` once, after it has
/// succeeded `after` more times; WARPSPAN_EMU_FAIL=call:error[:after] does the same from the
/// environment (e.g. cudaGetDeviceCount:35 for a driver too old for the runtime).
void fail_call(const std::string& call, cudaError_t error, int after = 0);
/// The order in which the threads of a block run within each barrier interval: "ascending",
/// "descending" or "random:SEED" (a new permutation per interval and block). False, and nothing
/// changes, for anything else. The environment's WARPSPAN_EMU_ORDER sets it at the first launch.
bool set_thread_order(const std::string& order);
std::string thread_order();
/// Turns the race checker (and barrier-divergence check) on or off; WARPSPAN_EMU_RACECHECK=0 turns
/// it off at the first launch. On by default where the kernels are traced (race_check_traced()).
void set_race_check(bool on);
bool race_check_on();
/// Whether the kernels were compiled with load and store tracing (clang's sanitizer coverage).
bool race_check_traced();
/// What the race checker reported about the last failed launch ("" when none did).
std::string last_race_report();
cudaError_t set_function_attribute(const void* function, cudaFuncAttribute attr, int value);
/// cudaOccupancyMaxPotentialBlockSize(VariableSMem): `smem_of(block)` is the dynamic shared memory
/// a block of that many threads asks for.
/// with the kernel's registers, static shared memory and __launch_bounds__ from nvcc's sm_90 report
/// (cuda/emulation/resource_usage.tsv; occupancy.cpp) under the sm_90 limits. A kernel not in that
/// table fails with cudaErrorInvalidDeviceFunction.
cudaError_t occupancy_max_potential_block_size(int* min_grid, int* block, const void* function,
                                               const std::function<std::size_t(int)>& smem_of, int block_limit);
/// cudaOccupancyMaxActiveBlocksPerMultiprocessor, from the same table.
cudaError_t occupancy_max_active_blocks(int* blocks, const void* function, int threads, std::size_t dynamic_smem);
/// What the memory-request counter (counts.cpp) saw of one kernel (by launch name), over its counted
/// launches: a device's warp requests rebuilt from the lanes' traced accesses (see counts.cpp).
/// What the counter counts (a block's, a launch's or a kernel's): blocks, memory requests,
/// collectives, the critical path. `+=` adds another's (the most dynamic shared memory of both).
struct request_counts {
  std::uint64_t blocks = 0;
  /// Global memory (the device allocations): warp requests (loads and stores), the distinct 32-byte
  /// sectors they touch, and the sectors the same distinct bytes would need packed together.
  std::uint64_t global_requests = 0, global_load_requests = 0, global_store_requests = 0;
  std::uint64_t global_sectors = 0, global_ideal_sectors = 0, global_store_sectors = 0;  ///< (of which stores)
  std::uint64_t global_accesses = 0, global_bytes = 0;  ///< the lanes' accesses and their bytes
  /// Shared memory: requests, wavefronts (the most distinct words one of the 32 banks delivers, per
  /// request), the conflict-free minimum (distinct words / 32, rounded up) and the requests above it.
  std::uint64_t shared_requests = 0, shared_wavefronts = 0, shared_ideal_wavefronts = 0, shared_accesses = 0;
  std::uint64_t shared_conflicted_requests = 0;
  /// Atomics: lane operations, warp requests, and the sum over requests of the most lanes on one
  /// address (what the device serialises).
  std::uint64_t atomics = 0, atomic_requests = 0, atomic_serialised = 0;
  /// Warp collectives (__syncwarp, __ballot_sync, __reduce_max_sync, __shfl_sync, __match_any_sync), one a warp.
  std::uint64_t collectives = 0;
  /// The blocks' critical paths, summed over blocks: per barrier interval of a block, the load
  /// requests of the warp that issued the most loads in it (shared and global apart), and the
  /// intervals (the barriers passed, plus one). A latency-bound block takes about as long as its
  /// path's loads one after another plus its barriers.
  std::uint64_t path_shared_loads = 0, path_global_loads = 0, path_intervals = 0;
  /// The blocks' threads, summed, and the most dynamic shared memory a block had.
  std::uint64_t threads = 0, dynamic_shared = 0;

  request_counts& operator+=(const request_counts& o) {
    blocks += o.blocks;
    global_requests += o.global_requests;
    global_load_requests += o.global_load_requests;
    global_store_requests += o.global_store_requests;
    global_sectors += o.global_sectors;
    global_ideal_sectors += o.global_ideal_sectors;
    global_store_sectors += o.global_store_sectors;
    global_accesses += o.global_accesses;
    global_bytes += o.global_bytes;
    shared_requests += o.shared_requests;
    shared_wavefronts += o.shared_wavefronts;
    shared_ideal_wavefronts += o.shared_ideal_wavefronts;
    shared_accesses += o.shared_accesses;
    shared_conflicted_requests += o.shared_conflicted_requests;
    atomics += o.atomics;
    atomic_requests += o.atomic_requests;
    atomic_serialised += o.atomic_serialised;
    collectives += o.collectives;
    path_shared_loads += o.path_shared_loads;
    path_global_loads += o.path_global_loads;
    path_intervals += o.path_intervals;
    threads += o.threads;
    dynamic_shared = dynamic_shared > o.dynamic_shared ? dynamic_shared : o.dynamic_shared;
    return *this;
  }
};
/// One kernel's counts over its launches.
struct kernel_counts : request_counts {
  std::string kernel;
  std::uint64_t launches = 0;
};
/// Turns the counter on or off (off by default; WARPSPAN_EMU_COUNTS=1 turns it on at the first
/// launch and prints counts_table() to stderr at exit). Needs the traced build (race_check_traced()).
void set_counting(bool on);
bool counting_on();
/// Every counted kernel so far, by name; reset_counts() forgets them.
std::vector<kernel_counts> counts();
void reset_counts();
/// counts() as tab-separated text with a header line.
std::string counts_table();
/// A reconvergence point for the counter: the calling lane's next passes of every access site start
/// a new round (the annealing loop calls it once per iteration). Nothing when not counting.
void warp_reconverge() noexcept;
/// The name the emulation knows a kernel by (its demangled name without return type and
/// parameters, as scripts/resource_usage.py keys nvcc's report); "" when its symbol is not found.
std::string kernel_name(const void* function);
}  // namespace warpspan::emu

template <class T>
cudaError_t cudaFuncSetAttribute(T* function, cudaFuncAttribute attr, int value) {
  return warpspan::emu::set_function_attribute(reinterpret_cast<const void*>(function), attr, value);
}
template <class T>
cudaError_t cudaOccupancyMaxPotentialBlockSize(int* min_grid, int* block, T* function, std::size_t dynamic_smem = 0,
                                               int block_limit = 0) {
  return warpspan::emu::occupancy_max_potential_block_size(
      min_grid, block, reinterpret_cast<const void*>(function), [dynamic_smem](int) { return dynamic_smem; },
      block_limit);
}
template <class T>
cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int* blocks, T* function, int threads,
                                                          std::size_t dynamic_smem) {
  return warpspan::emu::occupancy_max_active_blocks(blocks, reinterpret_cast<const void*>(function), threads,
                                                    dynamic_smem);
}
template <class T, class SmemOf>
cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(int* min_grid, int* block, T* function, SmemOf smem_of,
                                                           int block_limit = 0, unsigned flags = 0) {
  (void)flags;
  return warpspan::emu::occupancy_max_potential_block_size(
      min_grid, block, reinterpret_cast<const void*>(function),
      [&smem_of](int threads) { return static_cast<std::size_t>(smem_of(threads)); }, block_limit);
}

// ---- Inside kernels.
namespace warpspan::emu {

/// Where the calling emulated thread is: set by the launch for each thread it runs.
struct thread_context {
  uint3 thread_idx, block_idx;
  dim3 block_dim, grid_dim;
  unsigned char* dynamic_shared = nullptr;
  struct block_state* block = nullptr;
  unsigned linear = 0;  ///< the thread's index in its block
  unsigned phase = 0;   ///< barriers this thread has arrived at
};
thread_context& current() noexcept;
/// __syncthreads: waits until every thread of the block that has not exited arrives; `file` and
/// `line` name the barrier, so that threads waiting at different ones are reported.
void syncthreads(const char* file, unsigned line);
/// An atomic access of `bytes` at `address` (atomics are not traced as loads and stores).
void note_atomic(const void* address, std::size_t bytes) noexcept;
/// The warp collectives (__syncwarp, __ballot_sync, __shfl_sync, __reduce_max_sync,
/// __match_any_sync), emulated in blocks of one warp
/// (at most 32 threads), where a warp's barrier is the block's: each is a barrier of the block
/// (named by `file` and `line`, so lanes at different collectives are reported as diverged), and
/// the lanes' values cross it through a per-block slot, double-buffered by barrier count. A
/// collective in a larger block, or whose mask leaves out a thread of the block, throws: the
/// emulation does not run a warp apart from its block's other warps.
void syncwarp(unsigned mask, const char* file, unsigned line);
unsigned warp_ballot(unsigned mask, bool predicate, const char* file, unsigned line);
unsigned long long warp_shuffle(unsigned mask, unsigned long long value, int source, const char* file, unsigned line);
unsigned warp_reduce_max(unsigned mask, unsigned value, const char* file, unsigned line);
unsigned warp_match_any(unsigned mask, unsigned long long value, const char* file, unsigned line);
/// A probe site (WARPSPAN_IPOINT, include/warpspan/wcet/probe.cuh): its Ipoint and where it is in
/// the source (the function, file, line and column of the macro's use; column 0 where the compiler
/// cannot say).
struct probe_site {
  unsigned point;
  const char* function;
  const char* file;
  unsigned line, column;
};
/// The probe_site of a WARPSPAN_IPOINT(id) (include/warpspan/wcet/probe.cuh): where the macro is used.
#if defined(__has_builtin)
#if __has_builtin(__builtin_COLUMN)
#define WARPSPAN_EMU_PROBE_COLUMN() __builtin_COLUMN()
#endif
#endif
#if !defined(WARPSPAN_EMU_PROBE_COLUMN) && defined(__cpp_lib_source_location)
#define WARPSPAN_EMU_PROBE_COLUMN() std::source_location::current().column()
#endif
#if !defined(WARPSPAN_EMU_PROBE_COLUMN)
#define WARPSPAN_EMU_PROBE_COLUMN() 0u
#endif
#define WARPSPAN_EMU_PROBE_SITE(id)                                                                               \
  ::warpspan::emu::probe_site {                                                                                   \
    (id), __func__, __FILE__, static_cast<unsigned>(__LINE__), static_cast<unsigned>(WARPSPAN_EMU_PROBE_COLUMN()) \
  }
/// One record as the probe stores it (probe.cuh's probe_record: the same layout).
struct probe_slot {
  std::uint32_t point, sm;
  std::int64_t clock, global_ns;
};
/// Where a warp's records go: slot `warp * capacity + k` of `records` for its k-th record, its count
/// in `counts[warp]` (which goes on beyond capacity: the records lost).
struct probe_target {
  probe_slot* records;
  unsigned* counts;
  unsigned capacity;
  unsigned long long warp;
};
/// The probe's stand-in for "the warp's first active lane records {point, %smid, %clock64,
/// %globaltimer}". On a device the lanes of a warp run in lockstep (SIMT): a divergent side runs
/// for its lanes while the others wait, a loop runs while any lane is in it, and the lanes
/// reconverge after; one record per instance. Here the lanes run one after another, so each lane's
/// own sequence of sites (with the host clock) is kept, and when every thread of the block has
/// reached the next barrier or returned, each warp's lanes are merged into the order a SIMT warp
/// runs them in: the lanes whose next site comes first in the source run it together (one record),
/// where a lane going back to a loop's header waits at the loop's end, after the sites of the loop
/// body (the order a compiler lays structured code out in, in which a warp that runs the lowest
/// address first reconverges at every join). The clocks are the warp's: each record comes after
/// the previous one by the longest time any of its lanes took since its own previous record. A
/// warp whose lanes took different paths through sites of more than one function cannot be
/// ordered by source position: its records are refused (take_probe_refusal).
void probe_pass(const probe_site& site, const probe_target& target);
/// Why the emulation refused records meant for `counts` since the last call (empty when it did
/// not), and forgets it (probe.cuh's probe_buffer::collect throws it).
std::string take_probe_refusal(const unsigned* counts);
/// WARPSPAN_CHECK_LAUNCH_BOUNDS (cuda/common/launch.cuh): false, and the launch fails with
/// cudaErrorLaunchOutOfResources as on the device, when the block has more threads than the
/// kernel's __launch_bounds__ (which expands to nothing here).
bool within_launch_bounds(unsigned max_threads);
/// The launch: validates the configuration like the device would (the error is what
/// cudaGetLastError then returns) and runs every block's threads to completion, or on a capturing
/// stream keeps the launch as the graph's next node (`thread_body` must then own what it uses). `name` (what the
/// race checker's messages say) defaults to the kernel's own, from the symbol of `function`.
void launch(const void* function, dim3 grid, dim3 block, std::size_t dynamic_smem, cudaStream_t stream,
            const std::function<void()>& thread_body, const char* name = nullptr);

template <class... Params>
struct launcher {
  void (*function)(Params...);
  dim3 grid, block;
  std::size_t smem;
  cudaStream_t stream;
  const char* name;

  template <class... Args>
  void operator()(Args&&... args) const {
    // Kernel parameters are copied once, as to the device; every thread gets its own copy of
    // them (a kernel may change its parameters, as anneal_kernel does with p.types).
    auto* f = function;
    if (stream_capturing(stream)) {  // a graph's node: it runs later, so it owns the parameters
      auto owned = std::make_shared<const std::tuple<std::decay_t<Params>...>>(std::forward<Args>(args)...);
      launch(
          reinterpret_cast<const void*>(f), grid, block, smem, stream,
          [owned, f] {
            std::tuple<std::decay_t<Params>...> mine(*owned);
            std::apply(f, std::move(mine));
          },
          name);
      return;
    }
    std::tuple<std::decay_t<Params>...> params(std::forward<Args>(args)...);
    launch(
        reinterpret_cast<const void*>(f), grid, block, smem, stream,
        [&params, f] {
          std::tuple<std::decay_t<Params>...> mine(params);
          std::apply(f, std::move(mine));
        },
        name);
  }
};

template <class... Params>
launcher<Params...> make_launcher(void (*function)(Params...), dim3 grid, dim3 block, std::size_t smem = 0,
                                  cudaStream_t stream = nullptr, const char* name = nullptr) {
  return {function, grid, block, smem, stream, name};
}

// The atomics tell the race checker themselves, and read the old value with a read-modify-write
// (which tracing does not see) rather than a load (which it would take for a plain read).
template <class T>
T atomic_max(T* address, T value) {
  note_atomic(address, sizeof(T));
  std::atomic_ref<T> a(*address);
  T old = a.fetch_add(T{0});
  while (old < value && !a.compare_exchange_weak(old, value)) {
  }
  return old;
}
template <class T>
T atomic_min(T* address, T value) {
  note_atomic(address, sizeof(T));
  std::atomic_ref<T> a(*address);
  T old = a.fetch_add(T{0});
  while (value < old && !a.compare_exchange_weak(old, value)) {
  }
  return old;
}

}  // namespace warpspan::emu

#define threadIdx (::warpspan::emu::current().thread_idx)
#define blockIdx (::warpspan::emu::current().block_idx)
#define blockDim (::warpspan::emu::current().block_dim)
#define gridDim (::warpspan::emu::current().grid_dim)
inline constexpr int warpSize = 32;

// Clocks for probes (include/warpspan/wcet/probe.cuh): clock64() and the %globaltimer stand-in read
// the host's steady clock in nanoseconds, one clock for all SMs; the %smid stand-in is the linear
// block index modulo the emulated device's 132 SMs.
namespace warpspan::emu {
long long clock_cycles() noexcept;
unsigned long long global_timer_ns() noexcept;
unsigned sm_id() noexcept;
}  // namespace warpspan::emu
inline long long clock64() { return ::warpspan::emu::clock_cycles(); }

// The defaults name the caller's line (std::source_location needs a newer clang than CI's).
inline void __syncthreads(const char* file = __builtin_FILE(), unsigned line = __builtin_LINE()) {
  ::warpspan::emu::syncthreads(file, line);
}
inline void __threadfence() { std::atomic_thread_fence(std::memory_order_seq_cst); }
inline void __syncwarp(unsigned mask = 0xFFFFFFFFu, const char* file = __builtin_FILE(),
                       unsigned line = __builtin_LINE()) {
  ::warpspan::emu::syncwarp(mask, file, line);
}
inline unsigned __ballot_sync(unsigned mask, int predicate, const char* file = __builtin_FILE(),
                              unsigned line = __builtin_LINE()) {
  return ::warpspan::emu::warp_ballot(mask, predicate != 0, file, line);
}
template <class T>
T __shfl_sync(unsigned mask, T value, int source, int width = 32, const char* file = __builtin_FILE(),
              unsigned line = __builtin_LINE()) {
  static_assert(std::is_trivially_copyable_v<T> && sizeof(T) <= 8, "__shfl_sync of up to 8 bytes");
  if (width != 32) {
    std::fprintf(stderr, "warpspan emulation: __shfl_sync with width %d is not emulated\n", width);
    std::terminate();
  }
  unsigned long long bits = 0;
  std::memcpy(&bits, &value, sizeof(T));
  bits = ::warpspan::emu::warp_shuffle(mask, bits, source, file, line);
  std::memcpy(&value, &bits, sizeof(T));
  return value;
}
inline unsigned __reduce_max_sync(unsigned mask, unsigned value, const char* file = __builtin_FILE(),
                                  unsigned line = __builtin_LINE()) {
  return ::warpspan::emu::warp_reduce_max(mask, value, file, line);
}
template <class T>
unsigned __match_any_sync(unsigned mask, T value, const char* file = __builtin_FILE(),
                          unsigned line = __builtin_LINE()) {
  static_assert(std::is_integral_v<T> && sizeof(T) <= 8, "__match_any_sync of a 32- or 64-bit integer");
  return ::warpspan::emu::warp_match_any(mask, static_cast<unsigned long long>(value), file, line);
}
inline int __ffs(int x) { return x == 0 ? 0 : __builtin_ctz(static_cast<unsigned>(x)) + 1; }
inline int __popc(unsigned x) { return __builtin_popcount(x); }

template <class T>
T atomicAdd(T* address, T value) {
  ::warpspan::emu::note_atomic(address, sizeof(T));
  return std::atomic_ref<T>(*address).fetch_add(value);
}
template <class T>
T atomicMax(T* address, T value) {
  return ::warpspan::emu::atomic_max(address, value);
}
template <class T>
T atomicMin(T* address, T value) {
  return ::warpspan::emu::atomic_min(address, value);
}
template <class T>
T atomicExch(T* address, T value) {
  ::warpspan::emu::note_atomic(address, sizeof(T));
  return std::atomic_ref<T>(*address).exchange(value);
}
template <class T>
T atomicCAS(T* address, T compare, T value) {
  ::warpspan::emu::note_atomic(address, sizeof(T));
  std::atomic_ref<T>(*address).compare_exchange_strong(compare, value);
  return compare;
}

// The device's integer min/max (CUDA declares them for the kernels' unqualified calls).
// By value (as the device's overloads): a decltype of `a < b ? a : b` would be a reference to a
// parameter.
template <class T, class U>
constexpr std::common_type_t<T, U> min(T a, U b) {
  return b < a ? b : a;
}
template <class T, class U>
constexpr std::common_type_t<T, U> max(T a, U b) {
  return a < b ? b : a;
}
