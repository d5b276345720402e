// Bounds on the worst-case makespan.
#pragma once

#include <cstdint>

#include "warpspan/makespan/problem.hpp"

namespace warpspan {

/// The pessimistic bound of 001 Sec. 4, sum_U ceil(W / sigma_U) I_U over the normalised string,
/// with sigma_U replaced by min(sigma_U, schedulers) under a scheduler limit.
std::uint64_t pessimistic_bound(const problem& prob);

}  // namespace warpspan
