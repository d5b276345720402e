// Seeded random task graphs and task sets, reproducing the experiment of paper 003 Sec. V
// (10..50 vertices, largest execution requirement 10,000). The same seed gives the same sets on
// every machine (Philox counter-based randomness, no std distributions).
#pragma once

#include <cstdint>

#include "warpspan/dbf/task.hpp"

namespace warpspan {

struct task_generator_options {
  std::uint32_t vertices = 10;     ///< per task, >= 2
  std::uint32_t tasks = 3;         ///< per set
  std::uint64_t max_wcet = 10000;  ///< e(v) uniform in [1, max_wcet]
  double edge_probability = 0.2;   ///< extra forward edges beyond the spanning ones
  double deadline_factor = 0;      ///< f: d(v) uniform in [f e, 2 f e]; 0 = the number of tasks,
                                   ///< so no vertex asks more than its share of the processor
  double utilization = 0.7;        ///< target sum E/P of a set (periods chosen to meet it where
                                   ///< the graph allows; never below the model's minimum)
  std::uint64_t seed = 1;
};

/// Task `index` of set `set_index`: a DAG on `vertices` vertices, vertex 0 the only source and the
/// last the only sink, deadlines in [f e, 2 f e], separations in [d(u), 2 d(u)], and a period meeting
/// the model's minimum and the utilisation share.
task generate_task(const task_generator_options& options, std::uint64_t set_index, std::uint32_t index);
task_set generate_task_set(const task_generator_options& options, std::uint64_t set_index);

/// A fork-join task named "wide": a source, `width` parallel vertices (wcet 1 + k mod 3, deadline 2)
/// and a sink, so the sink's rows in T' have `width` predecessors: the case for wide predecessor
/// lists (the dbf kernels' tuples). Its demand grows with the width; `period` is its period.
task fork_join_task(std::uint32_t width, std::uint64_t period);

}  // namespace warpspan
