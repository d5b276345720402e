// The benchmark cases that warpspan_bench times and warpspan_gpu_model (bench/traffic/gpu_model.cpp)
// counts in emulation, defined once so that a prediction and a measurement are of the same thing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/generate.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/detail/makespan/checkpoints.hpp"
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
/// initial strings, its T0, its moves: reach 4 W and a quarter far), with a cooling schedule too
/// long to matter. (Before 2026-11-28 the moves reached the whole string: the H200's runs.)
inline chain_setup chains_of(const problem& prob, std::uint32_t chains) {
  chain_setup setup;
  setup.prob = &prob;
  setup.params = chain_params(prob.view(), estimate_options{});
  setup.params.iter_max = std::uint64_t{1} << 40;
  for (std::uint32_t c = 0; c < chains; ++c) setup.chain_ids.push_back(c);
  setup.initial = chain_initial_strings(prob, estimate_options{}, setup.chain_ids);  // seed 1
  return setup;
}

/// The annealing step with a full rebuild of every candidate: the baseline of 000 VII.
inline void anneal_step_full(const problem_view& p, const chain_view& c, chain_state& s, const anneal_params& a) {
  const philox_out r = draw(a.seed, 0, s.iter);
  const std::uint64_t iter = s.iter++;
  const std::uint32_t i = bounded(r.v[0], p.length);
  std::uint32_t j = 0;
  if (!pick_partner(p, c.str, i, r.v[1], a.reach, j)) return;
  std::swap(c.str[i], c.str[j]);
  const std::uint32_t candidate = build_full(p, c);
  bool accept = candidate >= s.makespan;
  if (!accept) {
    const double temperature = a.t0 * (1.0 - static_cast<double>(iter) / static_cast<double>(a.iter_max));
    accept = unit_double(r.v[2], r.v[3]) < temperature / static_cast<double>(s.makespan - candidate);
  }
  if (accept) {
    s.makespan = candidate;
    s.best = candidate > s.best ? candidate : s.best;
  } else {
    std::swap(c.str[i], c.str[j]);
    build_full(p, c);
  }
}

/// One chain of Voronoi W = 16 from round robin at the estimator's T0 (most worse moves are
/// rejected and restored), seed 1, chain 0, a cooling schedule too long to matter: the case of
/// BM_OneChainRebuild and warpspan_one_chain (issue 26, bench/results/archive/annealing/anneal_issue26_profile.md).
struct one_chain {
  problem prob = voronoi();
  problem_view p = prob.view();
  chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> block = std::vector<unsigned char>(layout.bytes);
  chain_view c = chain_view_at(block.data(), layout);
  anneal_params a;
  chain_state state;
  chain_checkpoints checkpoints;

  one_chain(std::uint32_t reach, std::uint32_t interval) {
    const auto start = round_robin_string(p);
    std::copy(start.begin(), start.end(), c.str);
    a.iter_max = std::uint64_t{1} << 40;
    a.t0 = estimate_options{}.t0;
    a.reach = reach;
    anneal_init(p, c, chain_best_at(block.data(), layout), state);
    checkpoints = chain_checkpoints(p, interval);
    checkpoints.capture(p, c);
  }
  /// One iteration: mode 0 the full rebuild, 1 the shared incremental step (000 VII), 2 the CPU
  /// runner's checkpointed rebuild.
  void step(int mode) {
    if (mode == 1)
      anneal_step(p, c, chain_best_at(block.data(), layout), state, a, 0);
    else if (mode == 2)
      anneal_step_by(p, c, chain_best_at(block.data(), layout), state, a, 0, checkpoints);
    else
      anneal_step_full(p, c, state, a);
  }
  std::string label(int mode) const {
    return mode == 1   ? "incremental (000 VII)"
           : mode == 2 ? "checkpoints every " + std::to_string(checkpoints.interval())
                       : "full rebuild";
  }
};

/// The Table I graph of paper 003 with `vertices` vertices (seed 1, set 0, task 0, e up to 10,000).
inline unrolled_graph table_one_graph(std::uint32_t vertices) {
  task_generator_options o;
  o.vertices = vertices;
  o.tasks = 1;
  o.max_wcet = 10000;
  o.seed = 1;
  return unroll(generate_task(o, 0, 0));
}

/// The design-space sets of issue 43's benchmarks and model rows: 3 tasks of `vertices` vertices,
/// wcet up to 1,000, seed 7.
inline task_generator_options dse_sets(std::uint32_t vertices) {
  task_generator_options o;
  o.vertices = vertices;
  o.tasks = 3;
  o.max_wcet = 1000;
  o.seed = 7;
  return o;
}

/// The table of `g` as the on-chip batch returns it (its steps only), built from the CPU reference.
inline dbf_table steps_table(const unrolled_graph& g) {
  const dbf_curve c(dbf_table_cpu(g).min_span, g);
  dbf_table t;
  t.steps_only = true;
  t.step_spans = c.step_spans();
  for (std::uint32_t d : c.step_demands()) t.step_columns.push_back(d / g.demand_unit);
  return t;
}

}  // namespace warpspan::bench_cases
