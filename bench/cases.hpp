// The benchmark cases that warpspan_bench times and warpspan_gpu_model (bench/traffic/gpu_model.cpp)
// counts in emulation, defined once so that a prediction and a measurement are of the same thing.
#pragma once

#include <cstdint>

#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/generate.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/sm/kernel_string.hpp"

namespace warpspan::bench_cases {

/// Voronoi 5L9C2L9C with `warps` warps, sigma L=1, C=4.
inline problem voronoi(int warps = 16) {
  normalized_sm sm;
  sm.sigma = {1, 4, 0, 0};
  sm.copies = {1, 1, 0, 0};
  return make_problem(parse_kernel_string("5L9C2L9C"), sm, warps);
}

/// `chains` chains of `prob` (which must outlive the setup) as the estimator starts them (its mix of
/// initial strings, its T0), with a cooling schedule too long to matter.
inline chain_setup chains_of(const problem& prob, std::uint32_t chains) {
  chain_setup setup;
  setup.prob = &prob;
  setup.params.iter_max = std::uint64_t{1} << 40;
  setup.params.t0 = estimate_options{}.t0;
  estimate_options mix;
  for (std::uint32_t c = 0; c < chains; ++c) {
    setup.chain_ids.push_back(c);
    const auto s = initial_string(prob.view(), chain_initial_kind(mix, c), 1, c);
    setup.initial.insert(setup.initial.end(), s.begin(), s.end());
  }
  return setup;
}

/// The Table I graph of paper 003 with `vertices` vertices (seed 1, set 0, task 0, e up to 10,000).
inline unrolled_graph table_one_graph(std::uint32_t vertices) {
  task_generator_options o;
  o.vertices = vertices;
  o.tasks = 1;
  o.max_wcet = 10000;
  o.seed = 1;
  return unroll(generate_task(o, 0, 0));
}

}  // namespace warpspan::bench_cases
