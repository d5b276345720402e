#include "warpspan/makespan/traffic.hpp"

#include <algorithm>
#include <vector>

#include "warpspan/makespan/chains.hpp"

namespace warpspan {

anneal_traffic measure_anneal_traffic(const problem& prob, const anneal_params& params, std::uint64_t iterations,
                                      std::uint32_t chain) {
  const problem_view p = prob.view();
  const chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> block(layout.bytes, 0);
  const chain_view plain = chain_view_at(block.data(), layout);
  const std::vector<std::uint16_t> start = round_robin_string(p);
  std::copy(start.begin(), start.end(), plain.str);

  anneal_traffic out;
  const counting_chain_view counted = counting_view(plain, &out.state);
  const counting_ptr<std::uint16_t> best{chain_best_at(block.data(), layout), &out.best};

  chain_state s;
  anneal_init(p, plain, chain_best_at(block.data(), layout), s);
  for (std::uint64_t k = 0; k < iterations && s.iter < params.iter_max; ++k)
    anneal_step(p, counted, best, s, params, chain);
  out.iterations = s.iter;
  out.final_best = s.best;
  // What the on-chip kernel moves per launch: copy_working_state() from global memory and back,
  // counted on the global side (reads in, writes out).
  access_tally global;
  const counting_chain_view global_side = counting_view(plain, &global);
  std::vector<unsigned char> chip(layout.bytes, 0);
  const chain_view local = chain_view_at(chip.data(), layout);
  copy_working_state(p, local, global_side);
  copy_working_state(p, global_side, local);
  out.working_bytes = global.bytes();
  return out;
}

}  // namespace warpspan
