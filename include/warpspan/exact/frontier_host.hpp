// Shared by the CPU and CUDA level-by-level searches (host code).
#pragma once

#include <cstdint>
#include <vector>

#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan::exact_detail {

/// The view, after checking the limits of the packed state (input_error beyond them).
frontier_view checked_view(const problem& prob);

/// A schedule of `makespan` cycles through the levels (levels[t]: states after t cycles), as a
/// pseudo-precedence string ordered by cycle.
std::vector<std::uint16_t> witness_from_levels(const frontier_view& v, const std::vector<std::vector<packed_state>>& levels,
                                               std::uint32_t makespan);

/// For a run stopped early: lower = the best of the standard strings (or more, if r.lower already
/// holds more), upper = the pessimistic bound; best_string attains lower.
void fill_interval(const problem& prob, exact_result& r, std::uint32_t unused = 0);

}  // namespace warpspan::exact_detail
