// The string `build --init WORD` builds, for the command line and Python alike. In the
// orchestrator: the beam is exact code, and the makespan layer does not include exact.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "warpspan/makespan/problem.hpp"

namespace warpspan {

/// rr (also for an empty word), fp, mpwf, starve (makespan/chains.hpp), or beam (one beam of the
/// default width, exact/beam.hpp); random and mix are an input_error, and so is beam beyond 16
/// warps or 254 instructions.
std::vector<std::uint16_t> constructed_string(const problem& prob, std::string_view word);

}  // namespace warpspan
