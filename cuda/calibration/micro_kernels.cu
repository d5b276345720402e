// The GPU model's calibration microbenchmarks (include/warpspan/core/calibration.hpp): a pointer
// chase in shared memory and global memory (through L1, or past it with ld.global.cg), scattered
// 32-byte sectors against the warps a SM holds, coalesced reads of a footprint in L2 or HBM, and
// back-to-back launches.
#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/graph.cuh"
#include "common/launch.cuh"
#include "common/stream.cuh"
#include "warpspan/core/calibration.hpp"
#include "warpspan/core/error.hpp"

namespace warpspan {
namespace {

constexpr unsigned chase_block = 256;  // threads that copy the array into shared memory; one chases

__device__ __forceinline__ std::uint32_t load_past_l1(const std::uint32_t* p) {
#if defined(WARPSPAN_CUDA_EMULATED)
  return *p;
#else
  return __ldcg(p);
#endif
}

/// One thread follows next[] for `steps` loads from index 0; out[0] = the last index, out[1] = the
/// cycles the loads took. Mode 0: global through L1, 1: global past L1, 2: shared (copied in first).
__global__ void __launch_bounds__(chase_block) chase_kernel(const std::uint32_t* next, std::uint32_t elements,
                                                            std::uint32_t steps, int mode, unsigned long long* out) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(chase_block);
  WARPSPAN_DYNAMIC_SHARED(std::uint32_t, staged);
  if (mode == 2) {
    for (std::uint32_t i = threadIdx.x; i < elements; i += blockDim.x) staged[i] = next[i];
    __syncthreads();
  }
  if (threadIdx.x != 0) return;
  std::uint32_t at = 0;
  const long long start = clock64();
  if (mode == 2) {
    for (std::uint32_t s = 0; s < steps; ++s) at = staged[at];
  } else if (mode == 1) {
    for (std::uint32_t s = 0; s < steps; ++s) at = load_past_l1(next + at);
  } else {
    for (std::uint32_t s = 0; s < steps; ++s) at = next[at];
  }
  const long long stop = clock64();
  out[0] = at;
  out[1] = static_cast<unsigned long long>(stop - start);
}

/// One warp: `steps` dependent ballots (and syncs); out[0] = the last ballot, out[1] = the cycles.
__global__ void __launch_bounds__(32) collective_kernel(std::uint32_t steps, int with_sync, unsigned long long* out) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(32);
  const std::uint32_t lane = threadIdx.x;
  std::uint32_t v = 0;
  const long long start = clock64();
  if (with_sync) {
    for (std::uint32_t s = 0; s < steps; ++s) {
      v = __ballot_sync(0xFFFFFFFFu, collective_vote(v, lane));
      __syncwarp();
    }
  } else {
    for (std::uint32_t s = 0; s < steps; ++s) v = __ballot_sync(0xFFFFFFFFu, collective_vote(v, lane));
  }
  const long long stop = clock64();
  if (lane == 0) {
    out[0] = v;
    out[1] = static_cast<unsigned long long>(stop - start);
  }
}

__global__ void __launch_bounds__(256) scatter_fill_kernel(std::uint32_t* buffer, std::uint64_t n) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(256);
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  for (std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x; i < n; i += stride)
    buffer[i] = scatter_value(i);
}

/// Each thread issues `loads` independent loads, the k-th at the first word of sector
/// scatter_sector(thread, k); its sum goes to sums[thread].
__global__ void __launch_bounds__(1024)
    scatter_kernel(const std::uint32_t* buffer, std::uint64_t sectors, std::uint32_t loads, std::uint64_t salt,
                   unsigned long long* sums) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  unsigned long long sum = 0;
  for (std::uint32_t k = 0; k < loads; ++k) sum += load_past_l1(buffer + scatter_sector(thread + salt, k, sectors) * 8);
  sums[thread] = sum;
}

__device__ __forceinline__ uint4 load_past_l1(const uint4* p) {
#if defined(WARPSPAN_CUDA_EMULATED)
  return *p;
#else
  return __ldcg(p);
#endif
}

constexpr unsigned stream_block = 256, stream_blocks_per_sm = 8;

/// `passes` coalesced grid-stride passes over `vectors` 16-byte words, past L1; each thread's sum
/// of the words it read goes to sums[thread].
__global__ void __launch_bounds__(stream_block)
    stream_kernel(const uint4* buffer, std::uint64_t vectors, std::uint32_t passes, unsigned long long* sums) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(stream_block);
  const std::uint64_t thread = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  const std::uint64_t stride = static_cast<std::uint64_t>(gridDim.x) * blockDim.x;
  unsigned long long sum = 0;
  for (std::uint32_t pass = 0; pass < passes; ++pass)
    for (std::uint64_t i = thread; i < vectors; i += stride) {
      const uint4 v = load_past_l1(buffer + i);
      sum += static_cast<unsigned long long>(v.x) + v.y + v.z + v.w;
    }
  sums[thread] = sum;
}

__global__ void __launch_bounds__(1024) empty_kernel(unsigned* ran) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(1024);
  if (threadIdx.x == 0) ran[blockIdx.x] += 1;
}

/// A dependent chain's point from its kernel's {last value, clocks} and the kernel time.
calibration_point chain_point(float kernel_ms, const device_buffer<unsigned long long>& out, std::uint32_t steps) {
  calibration_point p;
  p.kernel_ms = kernel_ms;
  const std::vector<unsigned long long> r = out.to_host();
  p.check = r[0];
  p.cycles_per_op = steps ? static_cast<double>(r[1]) / steps : 0;
  p.ns_per_op = steps ? p.kernel_ms * 1e6 / steps : 0;
  return p;
}

/// A bandwidth run's point: the kernel time, the threads' sums added up as the check, and `bytes`
/// read in `ops` loads over that time.
calibration_point summed_point(float kernel_ms, const device_buffer<unsigned long long>& sums, std::uint32_t sms,
                               double bytes, double ops) {
  calibration_point p;
  p.kernel_ms = kernel_ms;
  for (unsigned long long v : sums.to_host()) p.check += v;
  p.sms = sms;
  p.bytes_per_s = kernel_ms > 0 ? bytes / (kernel_ms * 1e-3) : 0;
  p.ns_per_op = ops > 0 ? kernel_ms * 1e6 / ops : 0;
  return p;
}

}  // namespace

calibration_point cuda_pointer_chase(const std::vector<std::uint32_t>& next, chase_memory where, std::uint32_t steps,
                                     bool warm) {
  if (next.empty()) throw input_error("a pointer chase needs at least one element");
  const std::size_t smem = where == chase_memory::shared ? next.size() * sizeof(std::uint32_t) : 0;
  if (!allow_dynamic_shared(chase_kernel, smem))
    throw input_error("a pointer chase of " + std::to_string(smem) + " bytes does not fit the " +
                      std::to_string(query_device(false).shared_optin) + " bytes of shared memory a block may have");
  cuda_stream stream;
  device_buffer<std::uint32_t> d_next(next, stream.get());
  device_buffer<unsigned long long> d_out(2, stream.get());
  const int mode = where == chase_memory::shared ? 2 : where == chase_memory::global_l2 ? 1 : 0;
  if (warm) {  // the whole cycle once: the array is resident wherever it fits
    WARPSPAN_LAUNCH(chase_kernel, 1, chase_block, smem, stream.get())
    (d_next.data(), static_cast<std::uint32_t>(next.size()), static_cast<std::uint32_t>(next.size()), mode,
     d_out.data());
    WARPSPAN_CUDA_CHECK_LAST();
  }
  cuda_timer timer(stream.get());
  WARPSPAN_LAUNCH(chase_kernel, 1, chase_block, smem, stream.get())
  (d_next.data(), static_cast<std::uint32_t>(next.size()), steps, mode, d_out.data());
  WARPSPAN_CUDA_CHECK_LAST();
  return chain_point(timer.elapsed_ms(), d_out, steps);
}

calibration_point cuda_scattered_sectors(std::size_t bytes, std::uint32_t warps_per_sm, std::uint32_t loads,
                                         std::uint32_t sms) {
  if (sms == 0) sms = static_cast<std::uint32_t>(query_device(false).sms);
  const scatter_shape shape = scattered_sectors_shape(warps_per_sm, sms);
  const std::uint64_t words = bytes / sizeof(std::uint32_t);
  const std::uint64_t sectors = words / 8;
  if (sectors == 0) throw input_error("scattered sectors need a buffer of at least 32 bytes");
  cuda_stream stream;
  device_buffer<std::uint32_t> buffer(words, stream.get());
  const std::uint64_t threads = static_cast<std::uint64_t>(shape.blocks) * shape.threads;
  device_buffer<unsigned long long> sums(threads, stream.get());
  WARPSPAN_LAUNCH(scatter_fill_kernel, std::max<std::uint32_t>(sms, 1) * 8, 256, 0, stream.get())(buffer.data(), words);
  WARPSPAN_CUDA_CHECK_LAST();
  // Once to warm the TLB, on other sectors (salted) so that the timed loads do not hit L2; then timed.
  WARPSPAN_LAUNCH(scatter_kernel, shape.blocks, shape.threads, 0, stream.get())
  (buffer.data(), sectors, std::min<std::uint32_t>(loads, 4), threads, sums.data());
  WARPSPAN_CUDA_CHECK_LAST();
  cuda_timer timer(stream.get());
  WARPSPAN_LAUNCH(scatter_kernel, shape.blocks, shape.threads, 0, stream.get())
  (buffer.data(), sectors, loads, 0, sums.data());
  WARPSPAN_CUDA_CHECK_LAST();
  const float ms = timer.elapsed_ms();
  const double reads = static_cast<double>(threads) * loads;
  return summed_point(ms, sums, sms, reads * 32, reads);
}

calibration_point cuda_stream_read(std::size_t bytes, std::uint32_t passes, std::uint32_t sms) {
  const std::uint64_t vectors = bytes / 16;
  if (vectors == 0 || passes == 0) throw input_error("a stream read needs at least 16 bytes and one pass");
  if (sms == 0) sms = static_cast<std::uint32_t>(query_device(false).sms);
  const unsigned blocks = std::max<std::uint32_t>(sms, 1) * stream_blocks_per_sm;
  cuda_stream stream;
  device_buffer<uint4> buffer(vectors, stream.get());
  device_buffer<unsigned long long> sums(std::size_t{blocks} * stream_block, stream.get());
  WARPSPAN_LAUNCH(scatter_fill_kernel, blocks, 256, 0, stream.get())
  (reinterpret_cast<std::uint32_t*>(buffer.data()), vectors * 4);
  WARPSPAN_CUDA_CHECK_LAST();
  // One pass untimed: what fits L2 is there when the timed passes start.
  WARPSPAN_LAUNCH(stream_kernel, blocks, stream_block, 0, stream.get())(buffer.data(), vectors, 1, sums.data());
  WARPSPAN_CUDA_CHECK_LAST();
  cuda_timer timer(stream.get());
  WARPSPAN_LAUNCH(stream_kernel, blocks, stream_block, 0, stream.get())(buffer.data(), vectors, passes, sums.data());
  WARPSPAN_CUDA_CHECK_LAST();
  const float ms = timer.elapsed_ms();
  const double loads = static_cast<double>(vectors) * passes;
  return summed_point(ms, sums, sms, loads * 16, loads);
}

calibration_point cuda_warp_collectives(std::uint32_t steps, bool with_sync) {
  cuda_stream stream;
  device_buffer<unsigned long long> out(2, stream.get());
  WARPSPAN_LAUNCH(collective_kernel, 1, 32, 0, stream.get())
  (std::min(steps, 16u), with_sync ? 1 : 0, out.data());  // warm-up
  WARPSPAN_CUDA_CHECK_LAST();
  cuda_timer timer(stream.get());
  WARPSPAN_LAUNCH(collective_kernel, 1, 32, 0, stream.get())(steps, with_sync ? 1 : 0, out.data());
  WARPSPAN_CUDA_CHECK_LAST();
  return chain_point(timer.elapsed_ms(), out, steps);
}

calibration_point cuda_launch_gap(std::uint32_t launches, std::uint32_t blocks, std::uint32_t threads, bool graph) {
  if (launches == 0 || blocks == 0 || threads == 0 || threads > 1024)
    throw input_error("a launch gap needs launches and blocks above 0 and 1 to 1024 threads a block");
  cuda_stream stream;
  device_buffer<unsigned> ran(blocks, stream.get());
  WARPSPAN_CUDA_TRY(cudaMemsetAsync(ran.data(), 0, ran.bytes(), stream.get()));
  WARPSPAN_LAUNCH(empty_kernel, blocks, threads, 0, stream.get())(ran.data());  // the first launch loads the module
  WARPSPAN_CUDA_CHECK_LAST();
  stream.sync();
  const auto issue = [&] {
    for (std::uint32_t i = 0; i < launches; ++i) {
      WARPSPAN_LAUNCH(empty_kernel, blocks, threads, 0, stream.get())(ran.data());
      WARPSPAN_CUDA_CHECK_LAST();
    }
  };
  calibration_point p;
  if (graph) {
    const cuda_graph captured(stream.get(), issue);
    cuda_timer timer(stream.get());
    captured.launch(stream.get());
    p.kernel_ms = timer.elapsed_ms();
  } else {
    cuda_timer timer(stream.get());
    issue();
    p.kernel_ms = timer.elapsed_ms();
  }
  std::uint64_t check = 0;
  for (unsigned v : ran.to_host()) check += v;
  p.check = check;  // (launches + 1) x blocks
  p.ns_per_op = p.kernel_ms * 1e6 / launches;
  return p;
}

calibration_point cuda_copy_rate(std::size_t bytes, bool up, std::uint32_t repeats) {
  if (bytes == 0 || repeats == 0) throw input_error("a copy rate needs bytes and repeats above 0");
  cuda_stream stream;
  pinned_buffer<unsigned char> host(bytes);
  device_buffer<unsigned char> device(bytes, stream.get());
  for (std::size_t k = 0; k < bytes; ++k) host.data()[k] = static_cast<unsigned char>(k);
  // Copies down time the device's bytes, made the index pattern first (one copy up, untimed): either
  // way the last copy's destination holds it.
  if (!up) {
    WARPSPAN_CUDA_TRY(cudaMemcpyAsync(device.data(), host.data(), bytes, cudaMemcpyHostToDevice, stream.get()));
    stream.sync();
    std::fill(host.data(), host.data() + bytes, static_cast<unsigned char>(0));
  }
  calibration_point p;
  {
    cuda_timer timer(stream.get());
    for (std::uint32_t i = 0; i < repeats; ++i)
      WARPSPAN_CUDA_TRY(
          cudaMemcpyAsync(up ? static_cast<void*>(device.data()) : static_cast<void*>(host.data()),
                          up ? static_cast<const void*>(host.data()) : static_cast<const void*>(device.data()), bytes,
                          up ? cudaMemcpyHostToDevice : cudaMemcpyDeviceToHost, stream.get()));
    p.kernel_ms = timer.elapsed_ms();
  }
  const std::vector<unsigned char> arrived =
      up ? device.to_host() : std::vector<unsigned char>(host.data(), host.data() + bytes);
  std::uint64_t check = 0;
  for (const unsigned char b : arrived) check += b;
  p.check = check;
  p.ns_per_op = p.kernel_ms * 1e6 / repeats;
  return p;
}

std::uint64_t copy_check(std::size_t bytes) {
  std::uint64_t check = 0;
  for (std::size_t k = 0; k < bytes; ++k) check += static_cast<unsigned char>(k);
  return check;
}

}  // namespace warpspan
