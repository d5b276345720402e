// The `gpu` fitness backend of `warpspan inputs` (include/warpspan/inputs/gpu.hpp): each shipped
// kernel's thread function (include/warpspan/inputs/kernels.hpp) runs under hooks that compile to
// nothing except the atomic and the barrier themselves, and a run is timed with CUDA events.
#include <cuda_runtime.h>

#include <algorithm>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/stream.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/inputs/gpu.hpp"
#include "warpspan/inputs/kernels.hpp"

namespace warpspan::inputs {

namespace {

/// The hooks of a timed run: nothing is recorded.
struct timed_hooks {
  WARPSPAN_HD_INLINE bool branch(std::uint32_t, bool taken) const { return taken; }
  WARPSPAN_HD_INLINE void compare(std::uint32_t, std::int32_t, std::int32_t) const {}
  WARPSPAN_HD_INLINE void work(std::uint32_t) const {}
  WARPSPAN_HD_INLINE void join(std::uint32_t) const {}
  WARPSPAN_HD_INLINE void load(const void*, std::uint32_t, space = space::global) const {}
  WARPSPAN_HD_INLINE void store(const void*, std::uint32_t, space = space::global) const {}
  WARPSPAN_HD_INLINE void barrier() const {
#if defined(__CUDA_ARCH__) || defined(WARPSPAN_CUDA_EMULATED)
    __syncthreads();  // a kernel that uses it needs whole blocks (input_kernel returns past `threads`)
#endif
  }
  WARPSPAN_HD_INLINE std::int32_t atomic_add(std::int32_t* p, std::int32_t v) const {
#if defined(__CUDA_ARCH__) || defined(WARPSPAN_CUDA_EMULATED)
    return atomicAdd(p, v);
#else
    (void)p;
    (void)v;
    return 0;  // never called: the host pass of nvcc only
#endif
  }
};

template <class K>
__global__ void __launch_bounds__(K::block) input_kernel(const std::int32_t* genome, std::int32_t* scratch,
                                                          std::uint32_t threads, int stage) {
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (tid >= threads) return;
  timed_hooks h;
  K::thread(h, genome, scratch, threads, static_cast<std::uint32_t>(tid), blockIdx.x, stage);
}

/// One run of K: every stage once, again while an iterative kernel sets its flag (the host reads the
/// flag back each round, as Rodinia's BFS does). Returns the launches.
template <class K>
std::uint32_t run_once(const device_buffer<std::int32_t>& genome, device_buffer<std::int32_t>& scratch,
                       std::uint32_t threads, cudaStream_t stream) {
  const std::uint32_t blocks = blocks_of<K>(threads);
  std::uint32_t launches = 0;
  for (std::uint32_t round = 0;; ++round) {
    const std::int32_t zero = 0;
    if (K::iterative) scratch.copy_from_host(&zero, 1, K::flag_index(threads));
    for (std::uint32_t stage = 0; stage < K::stages; ++stage) {
      WARPSPAN_LAUNCH(input_kernel<K>, blocks, K::block, 0, stream)(genome.data(), scratch.data(), threads,
                                                                    static_cast<int>(stage));
      WARPSPAN_CUDA_CHECK_LAST();
      ++launches;
    }
    if (!K::iterative || round >= threads) break;
    std::int32_t again = 0;
    scratch.copy_to_host(&again, 1, K::flag_index(threads));
    if (again == 0) break;
  }
  return launches;
}

template <class K>
gpu_timing time_one(const std::vector<std::int32_t>& g, std::uint32_t threads, int repetitions, cudaStream_t stream) {
  if (g.size() != std::size_t{threads} * K::genes_per_thread)
    throw input_error("an input for " + std::string(K::name) + " has the wrong length");
  std::vector<std::int32_t> initial(K::scratch_size(threads));
  K::init_scratch(g.data(), initial.data(), threads);
  device_buffer<std::int32_t> genome(g, stream);
  device_buffer<std::int32_t> scratch(initial.size(), stream);
  gpu_timing out;
  std::vector<float> ms;
  for (int r = -1; r < repetitions; ++r) {  // r = -1: the warm-up run, not timed
    scratch.copy_from_host(initial.data(), initial.size());
    cuda_timer timer(stream);
    out.launches = run_once<K>(genome, scratch, threads, stream);
    const float t = timer.elapsed_ms();
    if (r >= 0) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  out.median_ms = n == 0 ? 0.0 : (n % 2 ? ms[n / 2] : 0.5 * (static_cast<double>(ms[n / 2 - 1]) + ms[n / 2]));
  const output_range range = K::output(threads);
  out.output.resize(range.size);
  if (range.size > 0) scratch.copy_to_host(out.output.data(), range.size, range.offset);
  return out;
}

}  // namespace

std::vector<gpu_timing> cuda_time_inputs(kernel_id kernel, std::uint32_t threads,
                                         const std::vector<std::vector<std::int32_t>>& genomes, int repetitions) {
  if (threads == 0) throw input_error(param("threads") + " must be at least 1");
  if (repetitions < 1) throw input_error("the GPU fitness needs at least one timed run");
  cuda_stream stream;
  std::vector<gpu_timing> out;
  out.reserve(genomes.size());
  for (const auto& g : genomes)
    out.push_back(with_kernel(kernel, [&](auto k) { return time_one<decltype(k)>(g, threads, repetitions, stream.get()); }));
  return out;
}

}  // namespace warpspan::inputs
