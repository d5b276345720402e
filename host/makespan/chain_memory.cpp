// The CUDA backend's plan for the annealing chains (cuda/makespan/anneal_kernel.cu) made from the
// sm_90 occupancy arithmetic instead of a device's calculator: the same choice between on chip and
// global memory (choose_chain_memory, chains.hpp), checkable without a GPU.
#include <algorithm>
#include <stdexcept>

#include "warpspan/makespan/chains.hpp"

namespace warpspan {

std::string to_string(chain_packing k) {
  switch (k) {
    case chain_packing::compact:
      return "compact (8-bit string, usage and cycles, usage table to the pessimistic bound)";
    case chain_packing::narrow: return "narrow (8-bit string and usage, 16-bit cycles)";
    case chain_packing::wide: break;
  }
  return "wide (16-bit string and usage, 32-bit cycles)";
}

cuda_chain_plan plan_chains_for(const problem_view& p, const sm_limits& sm, const kernel_resources& kernel,
                                std::uint32_t sms, std::size_t free_bytes, std::optional<chain_packing> packing,
                                std::optional<chain_design> design, const kernel_resources& warp_kernel) {
  cuda_chain_plan plan;
  plan.sms = sms;
  plan.shared_limit = sm.shared_per_block_optin;
  plan.stage_types = anneal_types_bytes(p) <= sm.shared_per_block_optin;
  plan.packing = resolve_chain_packing(p, packing, plan.stage_types);
  plan.chain_bytes = make_chain_layout(p, plan.packing).bytes;
  const auto smem = [&](bool on_chip) {
    return [&p, &plan, on_chip](int threads) {
      return anneal_shared_bytes(p, on_chip, plan.stage_types, threads, plan.packing);
    };
  };
  const block_size_choice global = max_potential_block_size(sm, kernel, smem(false), sm.shared_per_block_optin);
  block_size_choice chip;
  if (plan.stage_types) chip = max_potential_block_size(sm, kernel, smem(true), sm.shared_per_block_optin);
  plan.memory = choose_chain_memory(global.threads_per_sm, chip.threads_per_sm);
  plan.on_chip = plan.memory.on_chip;
  const block_size_choice& c = plan.on_chip ? chip : global;
  plan.block = static_cast<unsigned>(c.block);
  plan.threads_per_sm = static_cast<unsigned>(c.threads_per_sm);
  plan.shared_bytes = smem(plan.on_chip)(c.block);
  plan.device_chains = device_chain_count(std::uint64_t{plan.threads_per_sm} * sms, free_bytes, plan.chain_bytes);
  const std::size_t warp_shared = anneal_warp_shared_bytes(p, plan.packing);
  const int warp_blocks = plan.stage_types && warp_shared <= sm.shared_per_block_optin
                              ? blocks_per_sm(sm, warp_kernel, 32, warp_shared).blocks
                              : 0;
  plan_design(plan, p, design, warp_blocks, free_bytes);
  return plan;
}

}  // namespace warpspan
