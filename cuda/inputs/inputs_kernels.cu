// The `gpu` fitness backend of `warpspan inputs` for the built-ins (include/warpspan/inputs/gpu.hpp):
// each built-in's thread function (include/warpspan/inputs/kernels.hpp) runs under the device hooks
// of warpspan/harness.hpp, which compile to nothing except the atomic and the barrier themselves,
// and a run is timed with CUDA events. The host prepares each run's input and scratch memory
// through the harness descriptor (host/inputs/gpu.cpp); only the launch is per kernel here.
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

template <class K>
__global__ void __launch_bounds__(K::block)
    input_kernel(const std::int32_t* input, std::int32_t* scratch, std::uint32_t threads, std::uint32_t stage) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(K::block);
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (tid >= threads) return;
  const warpspan::harness::device_hooks h;
  const warpspan::harness::args a{input,
                                  scratch,
                                  nullptr,  // no built-in uses shared memory
                                  threads,
                                  static_cast<std::uint32_t>(tid),
                                  blockIdx.x,
                                  stage,
                                  warpspan::harness::detail::record_words<K>::per_thread,
                                  warpspan::harness::detail::record_words<K>::per_block};
  K::thread(h, a);
}

/// One run of K: every stage once, again while an iterative kernel sets its flag (the host reads the
/// flag back each round, as Rodinia's BFS does). Returns the launches.
template <class K>
std::uint32_t run_once(const device_buffer<std::int32_t>& input, device_buffer<std::int32_t>& scratch,
                       std::uint32_t threads, std::uint64_t flag, cudaStream_t stream) {
  constexpr bool iterative = warpspan::harness::detail::iterative_of<K>::value;
  constexpr std::uint32_t stages = warpspan::harness::detail::stages_of<K>::value;
  const std::uint32_t blocks = (threads + K::block - 1) / K::block;
  std::uint32_t launches = 0;
  for (std::uint32_t round = 0;; ++round) {
    const std::int32_t zero = 0;
    if (iterative) scratch.copy_from_host(&zero, 1, flag);
    for (std::uint32_t stage = 0; stage < stages; ++stage) {
      WARPSPAN_LAUNCH(input_kernel<K>, blocks, K::block, 0, stream)(input.data(), scratch.data(), threads, stage);
      WARPSPAN_CUDA_CHECK_LAST();
      ++launches;
    }
    if (!iterative || round >= threads) break;
    std::int32_t again = 0;
    scratch.copy_to_host(&again, 1, flag);
    if (again == 0) break;
  }
  return launches;
}

template <class K>
gpu_timing time_one(const gpu_launch_input& in, std::uint32_t threads, std::uint64_t flag, output_range range,
                    int repetitions, cudaStream_t stream) {
  device_buffer<std::int32_t> input(in.input, stream);
  device_buffer<std::int32_t> scratch(std::max<std::size_t>(in.scratch.size(), 1), stream);
  gpu_timing out;
  std::vector<float> ms;
  for (int r = -1; r < repetitions; ++r) {  // r = -1: the warm-up run, not timed
    scratch.copy_from_host(in.scratch.data(), in.scratch.size());
    cuda_timer timer(stream);
    out.launches = run_once<K>(input, scratch, threads, flag, stream);
    const float t = timer.elapsed_ms();
    if (r >= 0) ms.push_back(t);
  }
  std::sort(ms.begin(), ms.end());
  const std::size_t n = ms.size();
  out.median_ms = n == 0 ? 0.0 : (n % 2 ? ms[n / 2] : 0.5 * (static_cast<double>(ms[n / 2 - 1]) + ms[n / 2]));
  out.output.resize(range.size);
  if (range.size > 0) scratch.copy_to_host(out.output.data(), range.size, range.offset);
  return out;
}

}  // namespace

std::vector<gpu_timing> cuda_time_builtin(int builtin, std::uint32_t threads,
                                          const std::vector<gpu_launch_input>& inputs, std::uint64_t flag,
                                          output_range output, int repetitions) {
  if (threads == 0) throw input_error(param("threads") + " must be at least 1");
  if (repetitions < 1) throw input_error("the GPU fitness needs at least one timed run");
  cuda_stream stream;
  std::vector<gpu_timing> out;
  out.reserve(inputs.size());
  for (const auto& in : inputs)
    out.push_back(with_builtin(
        builtin, [&](auto k) { return time_one<decltype(k)>(in, threads, flag, output, repetitions, stream.get()); }));
  return out;
}

}  // namespace warpspan::inputs
