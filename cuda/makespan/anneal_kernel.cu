// CUDA backend of the annealing chains: one thread runs one chain with the shared host/device
// step (include/warpspan/makespan/anneal.hpp), through an interleaved view of the chain's state
// (chains.hpp: element k of chain c at k * chains + c), so that a warp's 32 chains touch 32
// neighbouring elements. The state is as narrow as the problem's values allow (chain_packing:
// compact, every element 8-bit and the usage table to the pessimistic bound; narrow, 16-bit
// cycles; wide), which is what lets a block's worth of Voronoi W = 16 chains live on chip (1,632
// bytes a chain compact). The instruction types are staged in shared memory at block start. A
// chain's working state is copied into shared memory for the launch when a block's worth fits
// there ("on chip", interleaved by 32-bit word and thread, so each thread keeps to its own bank
// at every element width: word_interleaved_view_as), and otherwise is used in place in global
// memory. The best string always lives in global memory (it is
// written only on improvement). The block size comes from the occupancy calculator and the
// default chain count fills the device (plan_cuda_chains()).
#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "common/stream.cuh"
#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/detail/makespan/team_schedule.hpp"

namespace warpspan {

namespace {

/// The largest block the kernel is compiled for, and the blocks of that size an SM should hold at
/// once: __launch_bounds__(256, 3) caps registers at 85 a thread (ptxas, sm_90: 80 registers, no
/// spills, in all three variants; with (256) alone it chose 48 to 64 registers and spilled). The
/// registers then allow 3 blocks of 256 (768 threads) per SM, not 2,048 threads
/// (cuda/emulation/resource_usage.tsv, include/warpspan/core/occupancy.hpp).
constexpr int max_block_threads = 256;
constexpr int min_blocks_per_sm = 3;

/// PerWarp: per-warp kernels (problem_view::starts). Where all warps run one string the kernel
/// sets p.starts to null itself, so that the compiler folds every per-warp branch of the shared
/// step away (with them left to a run-time test the step spilled up to 100 bytes a thread on sm_90
/// under the launch bounds' 80 registers). Packing: the layout's (narrow and compact only with
/// StageTypes: a problem whose types do not fit shared memory runs wide). `p` is
/// chain_problem(view, Packing): a compact chain's horizon is the pessimistic bound.
template <bool OnChip, bool StageTypes, bool PerWarp, chain_packing Packing>
__global__ void __launch_bounds__(max_block_threads, min_blocks_per_sm)
    anneal_kernel(problem_view p, chain_layout layout, unsigned char* base, chain_state* states,
                  const std::uint32_t* ids, anneal_params params, std::uint32_t chains, std::uint64_t count, int init) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(max_block_threads);
  WARPSPAN_DYNAMIC_SHARED(unsigned char, smem);
  if constexpr (!PerWarp) p.starts = nullptr;
  // Stage the instruction types for the whole block (unless they do not fit: then every thread
  // reads them from global memory).
  std::size_t types_bytes = 0;
  if constexpr (StageTypes) {
    const std::uint32_t entries = type_entries(p);  // I, or n with per-warp kernels
    types_bytes = (entries + 15u) / 16u * 16u;      // anneal_types_bytes(p)
    for (std::uint32_t k = threadIdx.x; k < entries; k += blockDim.x) smem[k] = p.types[k];
    __syncthreads();
    p.types = smem;
  }

  using small = typename chain_elements<Packing>::small;
  using large = typename chain_elements<Packing>::large;
  const std::uint32_t chain = blockIdx.x * blockDim.x + threadIdx.x;
  if (chain >= chains) return;
  const auto global = interleaved_view_as<small, large>(base, layout, chains, chain);
  const strided_ptr<std::uint16_t> best = interleaved_best_at(base, layout, chains, chain);
  chain_state s = states[chain];
  if constexpr (OnChip) {
    // The block's working states, interleaved by word and thread, after the staged types.
    const auto local = word_interleaved_view_as<small, large>(smem + types_bytes, layout, blockDim.x, threadIdx.x);
    if (init) {
      for (std::uint32_t k = 0; k < p.length; ++k) local.str[k] = global.str[k];
      anneal_init(p, local, best, s);
    } else {
      copy_working_state(p, local, global);
      anneal_run(p, local, best, s, params, ids[chain], count);
    }
    copy_working_state(p, global, local);
  } else {
    if (init)
      anneal_init(p, global, best, s);
    else
      anneal_run(p, global, best, s, params, ids[chain], count);
  }
  states[chain] = s;
}

/// The 32 lanes of a warp as a team (team.hpp): the warp design's chain.
struct warp_team {
  static constexpr std::uint32_t size = 32;
  __device__ std::uint32_t rank() const { return threadIdx.x & 31u; }
  __device__ bool leader() const { return (threadIdx.x & 31u) == 0; }
  __device__ void sync() const { __syncwarp(); }
  __device__ std::uint32_t ballot(bool b) const { return __ballot_sync(0xFFFFFFFFu, b ? 1 : 0); }
  __device__ std::uint32_t max(std::uint32_t v) const { return __reduce_max_sync(0xFFFFFFFFu, v); }
  __device__ std::uint32_t match(std::uint32_t v) const { return __match_any_sync(0xFFFFFFFFu, v); }
  /// An 8- or 16-bit counter changes by an atomic add on its 32-bit word, shifted into place: a
  /// counter never passes 0 or its width's top (a usage count is at most W, a progress at most
  /// I, both within the packing's widths), so no carry or borrow reaches its neighbours.
  template <class T>
  __device__ void add(T& x, int d) const {
    if constexpr (sizeof(T) == 4) {
      atomicAdd(reinterpret_cast<unsigned*>(&x), static_cast<unsigned>(d));
    } else {
      const auto at = reinterpret_cast<std::uintptr_t>(&x);
      const unsigned shift = static_cast<unsigned>(at & 3u) * 8u;
      atomicAdd(reinterpret_cast<unsigned*>(at & ~std::uintptr_t{3}), static_cast<unsigned>(d) << shift);
    }
  }
};

/// The warp design (chain_design::warp): a block of one warp runs one chain, stored whole (not
/// interleaved) at base + chain x layout.bytes; the lanes copy its working state into shared
/// memory after the staged types, run the team step (team_schedule.hpp) and copy it back. The
/// dynamic shared memory is anneal_warp_shared_bytes(): types, working state, then the team's
/// scratch (a count a warp, then the read-ahead of 32 placements).
/// Its registers are set, not left to ptxas: with __launch_bounds__(32) alone ptxas (13.0, sm_90)
/// held the compact kernel to 72 registers and the narrow one to 80 and spilled 40 and 100 bytes a
/// thread once the rebuild read ahead (team_read_ahead). 80 registers keep the compact kernel
/// without a spill (24 blocks an SM in the emulation's occupancy arithmetic, where registers bound its blocks); 88 leave the narrow one 4
/// bytes (24 and 20 blocks an SM at W = 48 and 64); the
/// wide one (88) spills only in its per-warp form. A block is one warp
/// (WARPSPAN_CHECK_LAUNCH_BOUNDS below); __maxnreg__ and __launch_bounds__ cannot be given together.
template <bool PerWarp, chain_packing Packing>
__global__ void __maxnreg__(Packing == chain_packing::compact ? 80 : 88)
    anneal_warp_kernel(problem_view p, chain_layout layout, unsigned char* base, chain_state* states,
                       const std::uint32_t* ids, anneal_params params, std::uint32_t chains, std::uint64_t count,
                       int init) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(32);
  WARPSPAN_DYNAMIC_SHARED(unsigned char, smem);
  if constexpr (!PerWarp) p.starts = nullptr;
  const warp_team team;
  const std::uint32_t entries = type_entries(p);
  const std::size_t types_bytes = (entries + 15u) / 16u * 16u;  // anneal_types_bytes(p)
  for (std::uint32_t k = team.rank(); k < entries; k += warp_team::size) smem[k] = p.types[k];
  p.types = smem;
  const std::uint32_t chain = blockIdx.x;
  if (chain >= chains) return;
  unsigned char* const global = base + static_cast<std::size_t>(chain) * layout.bytes;
  unsigned char* const local = smem + types_bytes;
  // The working state (layout.best bytes, a multiple of 16) in 32-bit words: a warp moves 128
  // neighbouring bytes a request.
  const std::size_t words = layout.best / 4;
  for (std::size_t k = team.rank(); k < words; k += warp_team::size)
    reinterpret_cast<std::uint32_t*>(local)[k] = reinterpret_cast<const std::uint32_t*>(global)[k];
  team.sync();
  using small = typename chain_elements<Packing>::small;
  using large = typename chain_elements<Packing>::large;
  const auto view = view_as<small, large>(local, layout);
  std::uint16_t* const best = chain_best_at(global, layout);
  std::uint32_t* const pre = reinterpret_cast<std::uint32_t*>(local + layout.best);
  chain_state s = states[chain];
  if (init) {
    team_anneal_init(p, view, best, s, team);
  } else {
    // The rejoin keeps its bookkeeping in registers, as many as the packing's blocks can afford
    // (rejoin_registers, team_schedule.hpp).
    ahead_pair* const ahead = reinterpret_cast<ahead_pair*>(local + layout.best + anneal_warp_pre_bytes(p));
    const packing_rejoin_rebuild<Packing, warp_team, std::uint32_t*> rebuild{team, pre, nullptr, ahead};
    anneal_run_by(p, view, best, s, params, ids[chain], count, rebuild, team);
  }
  team.sync();
  for (std::size_t k = team.rank(); k < words; k += warp_team::size)
    reinterpret_cast<std::uint32_t*>(global)[k] = reinterpret_cast<const std::uint32_t*>(local)[k];
  if (team.leader()) states[chain] = s;
}

/// Copies chain `chain`'s best string (strided in the interleaved region) into `out`.
__global__ void __launch_bounds__(256) gather_best(chain_layout layout, unsigned char* base, std::uint32_t chains,
                                                   std::uint32_t chain, std::uint32_t length, std::uint16_t* out) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(256);
  const strided_ptr<std::uint16_t> best = interleaved_best_at(base, layout, chains, chain);
  for (std::uint32_t k = blockIdx.x * blockDim.x + threadIdx.x; k < length; k += gridDim.x * blockDim.x)
    out[k] = best[k];
}

/// Lets `kernel` take `smem` bytes of dynamic shared memory; the plan never asks for more than the
/// device allows.
template <class Kernel>
void allow_shared(Kernel* kernel, std::size_t smem) {
  if (!allow_dynamic_shared(kernel, smem))
    throw std::logic_error("the annealing plan asks for " + std::to_string(smem) +
                           " bytes of shared memory a block, more than the device allows");
}

/// Resident threads per SM of `kernel` at the block size the device's calculator picks (0 when no
/// block size runs), and that block size.
template <class Kernel, class SmemOf>
block_size_choice occupancy_of(Kernel* kernel, SmemOf smem_of, int sms) {
  int min_grid = 0, block = 0;
  WARPSPAN_CUDA_TRY(
      cudaOccupancyMaxPotentialBlockSizeVariableSMem(&min_grid, &block, kernel, smem_of, max_block_threads));
  block_size_choice c;
  if (block <= 0 || min_grid <= 0) return c;
  c.block = block;
  c.blocks_per_sm = min_grid / sms;
  c.threads_per_sm = c.blocks_per_sm * block;
  return c;
}

/// Both paths' occupancy from the device's calculator, then the cost model of
/// choose_chain_memory() (chains.hpp) picks the faster one; plan_chains_for() is the same plan from
/// the sm_90 arithmetic.
/// Resident blocks a SM of the warp design's kernel for `p` at `packing` (0 where its block does
/// not fit on chip).
int warp_blocks_per_sm(const problem_view& p, chain_packing packing, std::size_t optin) {
  const std::size_t smem = anneal_warp_shared_bytes(p, packing);
  if (smem > optin) return 0;
  const auto blocks = [smem](auto* kernel) {
    allow_shared(kernel, smem);
    int n = 0;
    WARPSPAN_CUDA_TRY(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, kernel, 32, smem));
    return n;
  };
  switch (packing) {
    case chain_packing::compact: return blocks(anneal_warp_kernel<false, chain_packing::compact>);
    case chain_packing::narrow: return blocks(anneal_warp_kernel<false, chain_packing::narrow>);
    case chain_packing::wide: break;
  }
  return blocks(anneal_warp_kernel<false, chain_packing::wide>);
}

cuda_chain_plan make_plan(const problem_view& p, const device_facts& d, std::optional<chain_packing> packing,
                          std::optional<chain_design> design) {
  const std::size_t optin = d.shared_optin;
  cuda_chain_plan plan;
  plan.sms = static_cast<std::uint32_t>(d.sms);
  plan.shared_limit = optin;
  plan.stage_types = anneal_types_bytes(p) <= optin;
  plan.packing = resolve_chain_packing(p, packing, plan.stage_types);
  const chain_layout layout = make_chain_layout(p, plan.packing);
  plan.chain_bytes = layout.bytes;
  const auto smem = [&p, &plan](bool on_chip) {
    return [&p, &plan, on_chip](int threads) {
      return anneal_shared_bytes(p, on_chip, plan.stage_types, threads, plan.packing);
    };
  };
  block_size_choice global, chip;
  if (plan.stage_types) {
    // The per-warp kernels have the same launch bounds and shared memory: the same plan.
    const auto paths = [&](auto* kernel, auto* on_chip) {
      allow_shared(kernel, smem(false)(0));
      global = occupancy_of(kernel, smem(false), d.sms);
      // On chip only where a warp's working states fit beside the types at all.
      if (smem(true)(32) <= optin) {
        allow_shared(on_chip, optin);
        chip = occupancy_of(on_chip, smem(true), d.sms);
      }
    };
    constexpr auto wide = chain_packing::wide, narrow = chain_packing::narrow, compact = chain_packing::compact;
    if (plan.packing == compact)
      paths(anneal_kernel<false, true, false, compact>, anneal_kernel<true, true, false, compact>);
    else if (plan.packing == narrow)
      paths(anneal_kernel<false, true, false, narrow>, anneal_kernel<true, true, false, narrow>);
    else
      paths(anneal_kernel<false, true, false, wide>, anneal_kernel<true, true, false, wide>);
  } else {
    global = occupancy_of(anneal_kernel<false, false, false, chain_packing::wide>, smem(false), d.sms);
  }
  plan.memory = choose_chain_memory(global.threads_per_sm, chip.threads_per_sm);
  plan.on_chip = plan.memory.on_chip;
  const block_size_choice& c = plan.on_chip ? chip : global;
  if (c.threads_per_sm <= 0) throw std::logic_error("plan_cuda_chains: the occupancy calculator found no block size");
  plan.block = static_cast<unsigned>(c.block);
  plan.threads_per_sm = static_cast<unsigned>(c.threads_per_sm);
  plan.shared_bytes = smem(plan.on_chip)(c.block);
  plan.device_chains = device_chain_count(std::uint64_t{plan.threads_per_sm} * plan.sms, d.free_bytes, layout.bytes);
  plan_design(plan, p, design, plan.stage_types ? warp_blocks_per_sm(p, plan.packing, optin) : 0, d.free_bytes);
  return plan;
}

class cuda_runner final : public chain_runner {
 public:
  explicit cuda_runner(const chain_setup& setup)
      : prob_(*setup.prob),
        params_(setup.params),
        chains_(static_cast<std::uint32_t>(setup.chain_ids.size())),
        stream_(owned_stream_.get()) {
    const problem_view p = prob_.view();
    if (setup.initial.size() != std::size_t{chains_} * p.length)
      throw std::logic_error("cuda_runner: " + std::to_string(setup.initial.size()) + " initial entries for " +
                             std::to_string(chains_) + " chains of length " + std::to_string(p.length));
    const device_facts limits = query_device();
    plan_ = make_plan(p, limits, setup.packing, setup.design);
    layout_ = make_chain_layout(p, plan_.packing);
    const std::size_t need = layout_.bytes * chains_ + sizeof(chain_state) * chains_;
    if (need > usable_device_bytes(limits.free_bytes))
      throw input_error(param("chains", chains_) + " need " + std::to_string(need >> 20) +
                        " MiB of GPU memory, more than is free; use fewer chains");

    types_ = device_buffer<std::uint8_t>(prob_.types, stream_);
    if (prob_.per_warp()) warp_table_ = device_buffer<std::uint32_t>(prob_.warp_table, stream_);
    ids_ = device_buffer<std::uint32_t>(setup.chain_ids, stream_);
    states_ = device_buffer<chain_state>(chains_, stream_);
    chains_base_ = device_buffer<unsigned char>(layout_.bytes * chains_, stream_);
    // The warp design copies a chain's whole working state on chip, the bytes the init launch
    // builds included: no uninitialised byte is read.
    WARPSPAN_CUDA_TRY(cudaMemsetAsync(chains_base_.data(), 0, layout_.bytes * chains_, stream_));
    // Only the strings go up, interleaved (element k of chain c at k * chains + c); the init launch
    // builds everything else on the device.
    if (plan_.packing == chain_packing::wide)
      upload_strings<std::uint16_t>(setup.initial);
    else
      upload_strings<std::uint8_t>(setup.initial);
    launch(0, true);
    WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_));  // `strings` goes out of scope
  }

  // The stream is owned by owned_stream_, declared before the buffers: if the constructor throws,
  // the buffers are freed and then the stream is destroyed (it used to leak).

  void advance(std::uint64_t iterations) override {
    launch(iterations, false);
    WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_));
  }

  void set_iter_max(std::uint64_t n_max) override { params_.iter_max = n_max; }

  std::vector<chain_summary> summaries() override {
    const std::vector<chain_state> s = states_.to_host();
    std::vector<std::uint32_t> ids = ids_.to_host();
    std::vector<chain_summary> out(chains_);
    for (std::uint32_t c = 0; c < chains_; ++c) out[c] = {ids[c], s[c].best, s[c].makespan, s[c].iter, s[c].best_iter};
    return out;
  }

  /// Only the one string comes back: a small kernel gathers it from the interleaved region (the
  /// warp design keeps it whole: one copy).
  std::vector<std::uint16_t> best_string(std::size_t index) override {
    if (index >= chains_) throw std::out_of_range("cuda_runner::best_string: no chain " + std::to_string(index));
    const std::uint32_t length = prob_.length();
    if (plan_.design == chain_design::warp) {
      std::vector<std::uint16_t> out(length);
      WARPSPAN_CUDA_TRY(cudaMemcpyAsync(out.data(), chains_base_.data() + index * layout_.bytes + layout_.best,
                                        length * sizeof(std::uint16_t), cudaMemcpyDeviceToHost, stream_));
      WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_));
      return out;
    }
    device_buffer<std::uint16_t> gathered(length, stream_);
    const unsigned grid = std::max(1u, std::min(1024u, (length + 255u) / 256u));
    WARPSPAN_LAUNCH(gather_best, grid, 256, 0, stream_)
    (layout_, chains_base_.data(), chains_, static_cast<std::uint32_t>(index), length, gathered.data());
    WARPSPAN_CUDA_CHECK_LAST();
    return gathered.to_host();
  }

  std::string name() const override {
    if (plan_.design == chain_design::warp)
      return cuda_backend_name() + " (a warp a chain, state on chip, " + packing_name(plan_.packing) + ")";
    return cuda_backend_name() + (plan_.on_chip ? " (chain state on chip" : " (chain state in global memory") + ", " +
           (plan_.packing == chain_packing::wide ? std::string() : packing_name(plan_.packing) + std::string(", ")) +
           std::to_string(plan_.block) + " threads a block)";
  }

 private:
  /// The first strings go up as the packing's string elements, interleaved (element k of chain c at
  /// k * chains + c): narrowing a warp id is exact, since the packing was chosen where ids fit.
  template <class T>
  void upload_strings(const std::vector<std::uint16_t>& initial) {
    const std::uint32_t length = prob_.length();
    if (plan_.design == chain_design::warp) {  // each chain whole, its string at layout.str
      std::vector<unsigned char> blocks(std::size_t{chains_} * layout_.bytes, 0);
      for (std::uint32_t c = 0; c < chains_; ++c) {
        T* const str = reinterpret_cast<T*>(blocks.data() + std::size_t{c} * layout_.bytes + layout_.str);
        for (std::uint32_t k = 0; k < length; ++k) str[k] = static_cast<T>(initial[std::size_t{c} * length + k]);
      }
      if (!blocks.empty())
        WARPSPAN_CUDA_TRY(
            cudaMemcpyAsync(chains_base_.data(), blocks.data(), blocks.size(), cudaMemcpyHostToDevice, stream_));
      WARPSPAN_CUDA_TRY(cudaStreamSynchronize(stream_));  // `blocks` goes out of scope
      return;
    }
    std::vector<T> strings(std::size_t{chains_} * length);
    for (std::uint32_t c = 0; c < chains_; ++c)
      for (std::uint32_t k = 0; k < length; ++k)
        strings[std::size_t{k} * chains_ + c] = static_cast<T>(initial[std::size_t{c} * length + k]);
    if (!strings.empty())
      WARPSPAN_CUDA_TRY(cudaMemcpyAsync(chains_base_.data() + layout_.str * chains_, strings.data(),
                                        strings.size() * sizeof(T), cudaMemcpyHostToDevice, stream_));
  }

  void launch(std::uint64_t count, bool init) {
    if (prob_.per_warp())
      launch_as<true>(count, init);
    else
      launch_as<false>(count, init);
  }

  template <bool PerWarp>
  void launch_as(std::uint64_t count, bool init) {
    // make_plan: narrow and compact only with staged types.
    if (plan_.stage_types)
      launch_staged<PerWarp>(count, init);
    else
      launch_with<false, false, PerWarp, chain_packing::wide>(count, init);
  }

  template <bool PerWarp>
  void launch_staged(std::uint64_t count, bool init) {
    switch (plan_.packing) {
      case chain_packing::compact: return launch_packed<PerWarp, chain_packing::compact>(count, init);
      case chain_packing::narrow: return launch_packed<PerWarp, chain_packing::narrow>(count, init);
      case chain_packing::wide: break;
    }
    launch_packed<PerWarp, chain_packing::wide>(count, init);
  }

  template <bool PerWarp, chain_packing Packing>
  void launch_packed(std::uint64_t count, bool init) {
    if (plan_.design == chain_design::warp) {
      problem_view p = chain_problem(prob_.view(), Packing);
      p.types = types_.data();
      if (prob_.per_warp()) p.starts = warp_table_.data();
      auto* const kernel = anneal_warp_kernel<PerWarp, Packing>;
      allow_shared(kernel, plan_.shared_bytes);
      WARPSPAN_LAUNCH(kernel, chains_, 32, plan_.shared_bytes, stream_)
      (p, layout_, chains_base_.data(), states_.data(), ids_.data(), params_, chains_, count, init ? 1 : 0);
      WARPSPAN_CUDA_CHECK_LAST();
      return;
    }
    if (plan_.on_chip)
      launch_with<true, true, PerWarp, Packing>(count, init);
    else
      launch_with<false, true, PerWarp, Packing>(count, init);
  }

  template <bool OnChip, bool StageTypes, bool PerWarp, chain_packing Packing>
  void launch_with(std::uint64_t count, bool init) {
    problem_view p = chain_problem(prob_.view(), Packing);
    p.types = types_.data();
    if (prob_.per_warp()) p.starts = warp_table_.data();
    const unsigned grid = (chains_ + plan_.block - 1) / plan_.block;
    auto* const kernel = anneal_kernel<OnChip, StageTypes, PerWarp, Packing>;
    allow_shared(kernel, plan_.shared_bytes);
    WARPSPAN_LAUNCH(kernel, grid, plan_.block, plan_.shared_bytes, stream_)
    (p, layout_, chains_base_.data(), states_.data(), ids_.data(), params_, chains_, count, init ? 1 : 0);
    WARPSPAN_CUDA_CHECK_LAST();
  }

  const problem& prob_;
  anneal_params params_;
  std::uint32_t chains_;
  cuda_stream owned_stream_;
  chain_layout layout_;
  cuda_chain_plan plan_;
  cudaStream_t stream_ = nullptr;
  device_buffer<std::uint8_t> types_;
  device_buffer<std::uint32_t> warp_table_;  // problem_view::starts' array (per-warp kernels only)
  device_buffer<std::uint32_t> ids_;
  device_buffer<chain_state> states_;
  device_buffer<unsigned char> chains_base_;
};

}  // namespace

cuda_chain_plan plan_cuda_chains(const problem_view& p, std::optional<chain_packing> packing,
                                 std::optional<chain_design> design) {
  return make_plan(p, query_device(), packing, design);
}

std::unique_ptr<chain_runner> make_cuda_runner(const chain_setup& setup) {
  return std::make_unique<cuda_runner>(setup);
}

}  // namespace warpspan
