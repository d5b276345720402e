// CUDA backend of the annealing chains: one thread runs one chain with the shared host/device
// step (include/warpspan/makespan/anneal.hpp). The instruction types are staged in shared memory
// at block start; a chain's working state (schedule, counters, string) is copied into shared memory
// for the launch when a block's worth fits there ("on chip"), and otherwise stays in global memory.
// The best string always lives in global memory (it is written only on improvement).
#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/device_buffer.cuh"
#include "common/stream.cuh"
#include "warpspan/core/backend.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {

namespace {

constexpr int block_threads = 64;
// Shared memory we allow one block to take for on-chip chain state (an H100 SM has 228 KiB; two
// blocks per SM should fit).
constexpr std::size_t on_chip_budget = 96 * 1024;

__device__ __forceinline__ void copy_words(unsigned char* dst, const unsigned char* src, std::size_t bytes) {
  // Layouts are multiples of 16 bytes and 16-byte aligned.
  auto* d = reinterpret_cast<uint4*>(dst);
  const auto* s = reinterpret_cast<const uint4*>(src);
  for (std::size_t k = 0; k < bytes / 16; ++k) d[k] = s[k];
}

template <bool OnChip, bool StageTypes>
__global__ void __launch_bounds__(block_threads)
    anneal_kernel(problem_view p, chain_layout layout, std::size_t work_bytes, unsigned char* blocks,
                  chain_state* states, const std::uint32_t* ids, anneal_params params, std::uint32_t chains,
                  std::uint64_t count, int init) {
  WARPSPAN_DYNAMIC_SHARED(unsigned char, smem);
  // Stage the instruction types for the whole block (unless they do not fit: then every thread
  // reads them from global memory).
  std::size_t types_bytes = 0;
  if constexpr (StageTypes) {
    types_bytes = (p.instructions + 15u) / 16u * 16u;
    for (std::uint32_t k = threadIdx.x; k < p.instructions; k += blockDim.x) smem[k] = p.types[k];
    __syncthreads();
    p.types = smem;
  }

  const std::uint32_t chain = blockIdx.x * blockDim.x + threadIdx.x;
  if (chain >= chains) return;
  unsigned char* global_block = blocks + static_cast<std::size_t>(chain) * layout.bytes;
  unsigned char* work = global_block;
  if constexpr (OnChip) {
    work = smem + types_bytes + static_cast<std::size_t>(threadIdx.x) * work_bytes;
    copy_words(work, global_block, work_bytes);
  }
  const chain_view view = chain_view_at(work, layout);
  std::uint16_t* best = chain_best_at(global_block, layout);
  chain_state s = states[chain];
  if (init)
    anneal_init(p, view, best, s);
  else
    anneal_run(p, view, best, s, params, ids[chain], count);
  states[chain] = s;
  if constexpr (OnChip) copy_words(global_block, work, work_bytes);
}

class cuda_runner final : public chain_runner {
 public:
  explicit cuda_runner(const chain_setup& setup)
      : prob_(*setup.prob), params_(setup.params), chains_(static_cast<std::uint32_t>(setup.chain_ids.size())),
        stream_(owned_stream_.get()) {
    const problem_view p = prob_.view();
    if (setup.initial.size() != std::size_t{chains_} * p.length)
      throw std::logic_error("cuda_runner: " + std::to_string(setup.initial.size()) + " initial entries for " +
                             std::to_string(chains_) + " chains of length " + std::to_string(p.length));
    layout_ = make_chain_layout(p);
    // Everything before the best string is working state; make_chain_layout aligns best to 16
    // bytes, so the working bytes are whole 16-byte words and never overlap best.
    work_bytes_ = layout_.best;
    if (work_bytes_ % 16 != 0) throw std::logic_error("cuda_runner: chain layout's best string is not 16-byte aligned");
    types_bytes_ = (p.instructions + 15u) / 16u * 16u;
    on_chip_ = types_bytes_ + block_threads * work_bytes_ <= on_chip_budget;
    // The types are staged when they fit the device's opt-in shared memory (227 KiB on an H100);
    // beyond 48 KiB the launch opts in (see launch()).
    int device = 0;
    WARPSPAN_CUDA_TRY(cudaGetDevice(&device));
    WARPSPAN_CUDA_TRY(cudaDeviceGetAttribute(&smem_optin_, cudaDevAttrMaxSharedMemoryPerBlockOptin, device));
    stage_types_ = on_chip_ || types_bytes_ <= static_cast<std::size_t>(smem_optin_);

    std::size_t free_bytes = 0, total_bytes = 0;
    WARPSPAN_CUDA_TRY(cudaMemGetInfo(&free_bytes, &total_bytes));
    const std::size_t need = layout_.bytes * chains_ + sizeof(chain_state) * chains_;
    if (need > free_bytes / 10 * 9)
      throw input_error("--chains " + std::to_string(chains_) + " need " + std::to_string(need >> 20) +
                        " MiB of GPU memory, more than is free; use fewer chains");

    types_ = device_buffer<std::uint8_t>(prob_.types, stream_);
    ids_ = device_buffer<std::uint32_t>(setup.chain_ids, stream_);
    states_ = device_buffer<chain_state>(chains_, stream_);
    blocks_ = device_buffer<unsigned char>(layout_.bytes * chains_, stream_);
    // Scatter the initial strings into the chain blocks on the host, upload once.
    std::vector<unsigned char> host(layout_.bytes * chains_, 0);
    for (std::uint32_t c = 0; c < chains_; ++c)
      std::memcpy(host.data() + c * layout_.bytes + layout_.str, setup.initial.data() + std::size_t{c} * p.length,
                  sizeof(std::uint16_t) * p.length);
    blocks_.copy_from_host(host.data(), host.size());
    launch(0, true);
  }

  // The stream is owned by owned_stream_, declared before the buffers: if the constructor throws,
  // the buffers are freed and then the stream is destroyed (it used to leak).

  void advance(std::uint64_t iterations) override {
    launch(iterations, false);
    WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  std::vector<chain_summary> summaries() override {
    const std::vector<chain_state> s = states_.to_host();
    std::vector<std::uint32_t> ids = ids_.to_host();
    std::vector<chain_summary> out(chains_);
    for (std::uint32_t c = 0; c < chains_; ++c) out[c] = {ids[c], s[c].best, s[c].makespan, s[c].iter, s[c].best_iter};
    return out;
  }

  std::vector<std::uint16_t> best_string(std::size_t index) override {
    std::vector<std::uint16_t> out(prob_.length());
    WARPSPAN_CUDA_TRY(cudaMemcpyAsync(out.data(), blocks_.data() + index * layout_.bytes + layout_.best,
                                      sizeof(std::uint16_t) * out.size(), cudaMemcpyDeviceToHost, stream_));
    WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_));
    return out;
  }

  std::string name() const override {
    return cuda_backend_name() + (on_chip_ ? " (chain state on chip)" : " (chain state in global memory)");
  }

 private:
  void launch(std::uint64_t count, bool init) {
    if (on_chip_)
      launch_with<true, true>(types_bytes_ + block_threads * work_bytes_, count, init);
    else if (stage_types_)
      launch_with<false, true>(types_bytes_, count, init);
    else
      launch_with<false, false>(0, count, init);
  }

  template <bool OnChip, bool StageTypes>
  void launch_with(std::size_t smem, std::uint64_t count, bool init) {
    problem_view p = prob_.view();
    p.types = types_.data();
    const unsigned grid = (chains_ + block_threads - 1) / block_threads;
    auto* const kernel = anneal_kernel<OnChip, StageTypes>;
    if (smem > 48 * 1024)
      WARPSPAN_CUDA_TRY(
          cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem)));
    WARPSPAN_LAUNCH(kernel, grid, block_threads, smem, stream_)(
        p, layout_, work_bytes_, blocks_.data(), states_.data(), ids_.data(), params_, chains_, count, init ? 1 : 0);
    WARPSPAN_CUDA_CHECK_LAST();
  }

  const problem& prob_;
  anneal_params params_;
  std::uint32_t chains_;
  cuda_stream owned_stream_;
  chain_layout layout_;
  std::size_t work_bytes_ = 0;
  std::size_t types_bytes_ = 0;
  bool on_chip_ = false;
  bool stage_types_ = true;
  int smem_optin_ = 0;
  cudaStream_t stream_ = nullptr;
  device_buffer<std::uint8_t> types_;
  device_buffer<std::uint32_t> ids_;
  device_buffer<chain_state> states_;
  device_buffer<unsigned char> blocks_;
};

}  // namespace

std::unique_ptr<chain_runner> make_cuda_runner(const chain_setup& setup) {
  return std::make_unique<cuda_runner>(setup);
}

}  // namespace warpspan
