// The CUDA occupancy calculator's arithmetic for one SM (what cuda_occupancy.h does for
// cudaOccupancyMaxActiveBlocksPerMultiprocessor and cudaOccupancyMaxPotentialBlockSize), written
// once for the CUDA emulation's runtime (cuda/emulation/occupancy.cpp, with every kernel's registers
// from cuda/emulation/resource_usage.tsv) and for the annealing plan's tests, which run without a
// GPU. On a device the driver's calculator is the authority; this one gives the same answers for
// the limits below.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>

namespace warpspan {

/// The limits of one SM that bound how many blocks of a kernel it holds at once.
struct sm_limits {
  // Registers: the SM's file, split into 4 sub-partitions with their own; a warp takes them in
  // units of 256; a thread at most 255, a block at most 65,536.
  int registers_per_sm = 65536, register_unit = 256, register_subpartitions = 4;
  int max_registers_per_thread = 255, registers_per_block = 65536;
  // Threads and blocks.
  int max_threads_per_sm = 2048, max_threads_per_block = 1024, max_blocks_per_sm = 32, warp_size = 32;
  // Shared memory: the largest carveout per SM, the most a block may opt into
  // (cudaDevAttrMaxSharedMemoryPerBlockOptin), the 1 KiB the system takes from every block, and
  // the unit it is allocated in.
  std::size_t shared_per_sm = 228 * 1024, shared_per_block_optin = 227 * 1024;
  std::size_t shared_reserved_per_block = 1024, shared_unit = 128;
};

/// An H100's SM (compute capability 9.0).
constexpr sm_limits sm90_limits() { return {}; }

/// What a kernel takes (nvcc's report: cuda/emulation/resource_usage.tsv).
struct kernel_resources {
  int registers = 0;
  std::size_t static_shared = 0;  ///< without the reserved 1 KiB
  int max_threads = 1024;         ///< __launch_bounds__
};

/// Which limit bounds the blocks an SM holds.
enum class occupancy_limit { none, threads, blocks, registers, shared_memory };

struct sm_occupancy {
  int blocks = 0;  ///< resident blocks of this size per SM (0: the block cannot run)
  occupancy_limit limit = occupancy_limit::none;
};

constexpr std::size_t round_up(std::size_t value, std::size_t unit) { return (value + unit - 1) / unit * unit; }

/// Blocks of `threads` threads with `dynamic_shared` bytes of dynamic shared memory that one SM
/// holds at once, and what limits them (the smallest of the four limits, as cuda_occupancy.h):
/// * threads: max_threads_per_sm / (threads rounded up to whole warps);
/// * blocks: max_blocks_per_sm;
/// * registers: a warp takes registers x 32 rounded up to the 256-register unit (so a thread's
///   registers count in multiples of 8); each of the 4 sub-partitions holds
///   floor(16384 / that) warps, the SM 4 times as many, and the blocks are those warps divided by
///   the block's warps (a block over 65,536 registers cannot run);
/// * shared memory: static + dynamic + the 1 KiB reserved, rounded up to 128 bytes, into 228 KiB
///   (a block over the 227 KiB a block may opt into cannot run).
constexpr sm_occupancy blocks_per_sm(const sm_limits& sm, const kernel_resources& k, int threads,
                                     std::size_t dynamic_shared) {
  sm_occupancy out;
  if (threads <= 0 || threads > std::min(sm.max_threads_per_block, k.max_threads) ||
      k.registers > sm.max_registers_per_thread)
    return out;
  const int warps = (threads + sm.warp_size - 1) / sm.warp_size;
  out.blocks = sm.max_threads_per_sm / (warps * sm.warp_size);
  out.limit = occupancy_limit::threads;
  const auto take = [&out](int blocks, occupancy_limit why) {
    if (blocks < out.blocks) {
      out.blocks = blocks;
      out.limit = why;
    }
  };
  take(sm.max_blocks_per_sm, occupancy_limit::blocks);
  if (k.registers > 0) {
    const int per_warp =
        static_cast<int>(round_up(static_cast<std::size_t>(k.registers) * sm.warp_size, sm.register_unit));
    if (per_warp * warps > sm.registers_per_block) {
      take(0, occupancy_limit::registers);
    } else {
      const int warps_per_subpartition = sm.registers_per_sm / sm.register_subpartitions / per_warp;
      take(warps_per_subpartition * sm.register_subpartitions / warps, occupancy_limit::registers);
    }
  }
  const std::size_t shared = k.static_shared + dynamic_shared;
  if (shared > sm.shared_per_block_optin) {
    take(0, occupancy_limit::shared_memory);
  } else {
    const std::size_t per_block = round_up(shared + sm.shared_reserved_per_block, sm.shared_unit);
    take(static_cast<int>(sm.shared_per_sm / per_block), occupancy_limit::shared_memory);
  }
  if (out.blocks == 0 && out.limit == occupancy_limit::threads) out.limit = occupancy_limit::none;
  return out;
}

/// cudaOccupancyMaxPotentialBlockSize(VariableSMem): the block size (a multiple of the warp size,
/// at most `block_limit` when positive and the kernel's max_threads) that lets the most threads be
/// resident on an SM, the larger block among equals (the calculator tries sizes from the largest
/// down and keeps only a strictly better one); `smem_of(threads)` is the dynamic shared memory such
/// a block asks for, and a size whose request is over `dynamic_limit` (the kernel's
/// cudaFuncAttributeMaxDynamicSharedMemorySize) is skipped. threads_per_sm is 0 when no size runs.
struct block_size_choice {
  int block = 0;
  int blocks_per_sm = 0;
  int threads_per_sm = 0;
};

template <class SmemOf>
constexpr block_size_choice max_potential_block_size(const sm_limits& sm, const kernel_resources& k, SmemOf&& smem_of,
                                                     std::size_t dynamic_limit, int block_limit = 0) {
  int largest = std::min(sm.max_threads_per_block, k.max_threads);
  if (block_limit > 0) largest = std::min(largest, block_limit);
  block_size_choice best;
  const int full = sm.max_threads_per_sm;
  for (int aligned = (largest + sm.warp_size - 1) / sm.warp_size * sm.warp_size; aligned > 0; aligned -= sm.warp_size) {
    const int threads = std::min(largest, aligned);
    const std::size_t smem = static_cast<std::size_t>(smem_of(threads));
    if (smem > dynamic_limit) continue;
    const sm_occupancy o = blocks_per_sm(sm, k, threads, smem);
    if (o.blocks * threads > best.threads_per_sm) {
      best = {threads, o.blocks, o.blocks * threads};
      if (best.threads_per_sm == full) break;
    }
  }
  return best;
}

}  // namespace warpspan
