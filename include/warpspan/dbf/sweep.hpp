// Design-space exploration: every variant of a base task set under a one-parameter sweep, for
// analysing all of them in one batch (`warpspan dbf FILE --sweep ...`).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/core/error.hpp"
#include "warpspan/dbf/task.hpp"

namespace warpspan {

struct sweep_spec {
  std::string kind;         ///< wcet | deadline | separation | period
  double from = 1, to = 1;  ///< factors applied to the base values
  std::uint32_t steps = 1;  ///< variants, factors evenly spaced from `from` to `to`
  std::string task;         ///< only this task's values; empty: every task
};

/// One variant of a sweep as analysed: its factor, utilisation and verdict (0 schedulable, 1 not,
/// 2 invalid).
struct sweep_point {
  double factor = 0;
  double utilization = 0;
  int verdict = 0;
};

/// Parses KIND:FROM:TO:STEPS[:TASK], e.g. "wcet:0.5:1.5:101" or "period:0.8:1.2:41:T2".
sweep_spec parse_sweep(std::string_view text);

struct sweep_variant {
  double factor = 1;
  task_set set;
  message error;  ///< why the variant breaks the model's assumptions; empty when valid
};

/// The variants of `base`: each value of the swept kind becomes max(1, round(value x factor)).
/// Variants that break an assumption (for example a period below the longest chain of separations)
/// are kept with `error` set, so a sweep reports where the design space ends.
/// All variants at once (tests; the command line makes them one at a time with sweep_variant_at).
std::vector<sweep_variant> sweep_variants(const task_set& base, const sweep_spec& spec);
/// The variant at any factor (bisection between grid points).
sweep_variant sweep_variant_with(const task_set& base, const sweep_spec& spec, double factor);
/// Variant k (0 <= k < spec.steps) alone.
sweep_variant sweep_variant_at(const task_set& base, const sweep_spec& spec, std::uint32_t k);
/// input_error when spec names a task the set does not have.
void check_sweep_task(const task_set& base, const sweep_spec& spec);

}  // namespace warpspan
