// The kernel harness of `warpspan inputs` (paper 004, GDivAn): a kernel under test is written once as
// host/device code against a hooks object H, and is driven the same way by the CPU cost model
// (host/inputs/model.cpp: H records) and by the CUDA backend (cuda/inputs: H times, hooks are empty).
//
// A kernel K provides
//   static constexpr const char* name;
//   static constexpr std::uint32_t genes_per_thread, block, branches, stages;
//   static constexpr bool iterative;        // launch all stages again while scratch[flag] != 0
//   static gene_range range(std::uint32_t threads, std::uint32_t slot);          // host only
//   static std::size_t scratch_size(std::uint32_t threads);
//   WARPSPAN_HD static std::size_t flag_index(std::uint32_t threads);             // iterative only
//   static void init_scratch(const std::int32_t* genome, std::int32_t* scratch, std::uint32_t threads);
//   static output_range output(std::uint32_t threads);                            // what a run computes
//   template <class H> WARPSPAN_HD static void thread(H& h, const std::int32_t* genome, std::int32_t* scratch,
//       std::uint32_t threads, std::uint32_t tid, std::uint32_t block, int stage);
//
// Hooks (H) the kernel calls:
//   bool branch(id, taken)    a conditional branch; returns `taken`; its leg opens a block
//   void compare(id, a, b)    the operands of a branch condition (input-to-state candidates)
//   void work(n)              n instructions in the current block
//   void join(id)             branch id's legs reconverge here; opens the block after it
//   int  atomic_add(p, v)     atomicAdd(p, v), recorded by its address
//   void load(p, bytes, sp)   the kernel reads `bytes` at p in memory space sp (global or shared);
//   void store(p, bytes, sp)  writes them: the hook only records the access, the kernel does it
//   void barrier()            __syncthreads(): every thread of the block must reach it (on the device
//                             the hook is the barrier itself, so such a kernel needs whole blocks)
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "warpspan/core/macros.hpp"

namespace warpspan::inputs {

/// The memory space of a load or store hook: global costs by 32-byte sectors, shared by banks.
enum class space : std::uint8_t { global = 0, shared = 1 };

/// Inclusive bounds of one gene (one integer of a kernel's input).
struct gene_range {
  std::int32_t lo = 0;
  std::int32_t hi = 0;
};

/// A slice [offset, offset + size) of the scratch memory that holds a run's result.
struct output_range {
  std::size_t offset = 0;
  std::size_t size = 0;
};

/// The kernels shipped with warpspan (include/warpspan/inputs/kernels.hpp).
enum class kernel_id { artificial, bfs, petri, bisect };

/// What a user and the search need to know about a kernel, without its code.
struct kernel_info {
  kernel_id id = kernel_id::artificial;
  std::string name;
  std::string description;
  std::uint32_t default_threads = 0;
  std::uint32_t genes_per_thread = 0;
  std::uint32_t block = 0;
  std::uint32_t branches = 0;
};

/// Most threads a run may have (genomes are held in memory per individual).
inline constexpr std::uint32_t max_threads = 1u << 20;

/// All shipped kernels, in the order above.
const std::vector<kernel_info>& kernels();
/// The kernel called `name`; input_error listing the names otherwise.
const kernel_info& find_kernel(const std::string& name);
const kernel_info& info(kernel_id id);
/// The bounds of every gene of a genome for `threads` threads (threads * genes_per_thread entries).
std::vector<gene_range> genome_ranges(kernel_id id, std::uint32_t threads);
/// Throws input_error for zero threads or more than max_threads.
void check_threads(std::int64_t threads);

/// Blocks of a launch of `threads` threads of kernel K.
template <class K>
WARPSPAN_HD_INLINE std::uint32_t blocks_of(std::uint32_t threads) {
  return (threads + K::block - 1) / K::block;
}

}  // namespace warpspan::inputs
