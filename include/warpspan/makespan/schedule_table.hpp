// A built schedule in the forms people read: per warp and instruction the cycle, the warp cycle
// string (000 VII), and the table of the paper's figures.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "warpspan/makespan/problem.hpp"

namespace warpspan {

struct built_schedule {
  std::uint32_t makespan = 0;
  std::vector<std::uint32_t> cycle;          ///< cycle[w * I + j], 1-based
  std::vector<std::uint32_t> warp_cycle;     ///< cycle of each position of the string (000 VII)
};

/// Builds the schedule of a pseudo-precedence string of 0-based warp ids with the shared builder.
/// Throws input_error when the string is not a permutation of the multiset (each id I times).
built_schedule build_schedule(const problem& prob, std::span<const std::uint16_t> str);

/// Parses "1 2 2 3 ..." (1-based ids, spaces or commas) into 0-based ids; checks the multiset.
std::vector<std::uint16_t> parse_warp_string(const problem& prob, std::string_view text);

/// The paper's table: warps as rows, cycles as columns, one letter per issued instruction.
std::string render_table(const problem& prob, const built_schedule& s);

}  // namespace warpspan
