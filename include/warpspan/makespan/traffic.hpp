// The memory traffic of the GPU designs, counted by running the shared host/device code through
// counting views (detail/core/counting_ptr.hpp): what one annealing iteration and one dbf cell read and
// write, and what the kernels' staging moves around them. These counts are what the CUDA emulation
// can say about speed: a bandwidth bound that a real GPU run can be held against.
#pragma once

#include <cstdint>

#include "warpspan/detail/core/counting_ptr.hpp"
#include "warpspan/makespan/anneal.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/problem.hpp"

namespace warpspan {

struct anneal_traffic {
  std::uint64_t iterations = 0;
  access_tally state;               ///< the chain's working arrays (global memory, or shared when on chip)
  access_tally best;                ///< the best string (always global memory)
  std::uint64_t working_bytes = 0;  ///< what the on-chip kernel copies in and out per launch per chain
  std::uint32_t final_best = 0;     ///< the chain's best makespan after the run (to compare with a plain run)
  double state_per_iteration() const { return iterations ? static_cast<double>(state.bytes()) / iterations : 0; }
  double best_per_iteration() const { return iterations ? static_cast<double>(best.bytes()) / iterations : 0; }
};

using counting_chain_view = basic_chain_view<counting_ptr<std::uint16_t>, counting_ptr<std::uint32_t>>;

/// The chain of `v`, every access counted in `tally`.
inline counting_chain_view counting_view(const chain_view& v, access_tally* tally) {
  counting_chain_view c;
  c.str = {v.str, tally};
  c.cycle = {v.cycle, tally};
  c.usage = {v.usage, tally};
  c.progress = {v.progress, tally};
  c.last = {v.last, tally};
  c.undo = {v.undo, tally};
  return c;
}

/// Runs one chain (id `chain`, starting from the round-robin string) for `iterations` iterations of
/// anneal_step through a counting view and returns what it touched. The chain's trajectory is the
/// same as through a plain view (counting changes no value).
anneal_traffic measure_anneal_traffic(const problem& prob, const anneal_params& params, std::uint64_t iterations,
                                      std::uint32_t chain = 0);

}  // namespace warpspan
