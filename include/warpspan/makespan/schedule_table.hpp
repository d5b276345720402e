// A built schedule in the forms people read: per warp and instruction the cycle, the warp cycle
// string (000 VII), and the table of the paper's figures.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "warpspan/makespan/problem.hpp"
#include "warpspan/makespan/schedule.hpp"

namespace warpspan {

struct built_schedule {
  std::uint32_t makespan = 0;
  std::vector<std::uint32_t> cycle;          ///< cycle[w * I + j], 1-based
  std::vector<std::uint32_t> warp_cycle;     ///< cycle of each position of the string (000 VII)
};

/// Builds the schedule of c.str exactly as build_full() does (the same cycles, usage table and
/// per-warp counters), but finds each warp's cycle through per-type links to the next cycle with
/// room instead of scanning full cycles one by one: about n steps, where build_full() takes up to
/// n x W / sigma when many warps wait for one unit. Host only; returns the makespan.
std::uint32_t build_full_host(const problem_view& p, const chain_view& c);

/// Builds the schedule of a pseudo-precedence string of 0-based warp ids (build_full_host()).
/// Throws input_error when the string is not a permutation of the multiset (each id I times).
built_schedule build_schedule(const problem& prob, std::span<const std::uint16_t> str);

/// Parses "1 2 2 3 ..." (1-based ids, spaces or commas) into 0-based ids; checks the multiset.
std::vector<std::uint16_t> parse_warp_string(const problem& prob, std::string_view text);

/// Largest table render_table() draws, in characters (W + 2 rows of makespan + 10).
inline constexpr std::uint64_t max_table_chars = std::uint64_t{16} << 20;

/// The paper's table: warps as rows, cycles as columns, one letter per issued instruction, under a
/// ruler numbering every tenth cycle. With `width` > 0 (a terminal's columns) the cycles are cut
/// into blocks that fit it, one below the other. Beyond max_table_chars, one line saying it was left
/// out.
std::string render_table(const problem& prob, const built_schedule& s, std::size_t width = 0);

}  // namespace warpspan
