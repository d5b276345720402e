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
  std::vector<std::uint32_t> cycle;       ///< cycle[warp_begin(w) + j] (w * I + j), 1-based
  std::vector<std::uint32_t> warp_cycle;  ///< cycle of each position of the string (000 VII)
};

/// Builds the schedule of c.str exactly as build_full() does (the same cycles, usage table and
/// per-warp counters), but finds each warp's cycle through per-type links to the next cycle with
/// room instead of scanning full cycles one by one: about n steps, where build_full() takes up to
/// n x W / sigma when many warps wait for one unit. Host only; returns the makespan.
/// Returns no_schedule for a string that breaks a barrier (the schedule left part-built).
std::uint32_t build_full_host(const problem_view& p, const chain_view& c);

/// Keeps a string of 0-based ids to the barriers: an id whose warp would pass a barrier before a
/// warp of its block has issued it waits, with that warp's later ids, until the last of them has;
/// then they follow in their order. A string that keeps them is left as it is; one that does not
/// gets one that does (every schedule is the schedule of some such string: docs/makespan.md).
void keep_barriers(const problem_view& p, std::vector<std::uint16_t>& str);

/// Where a string breaks a barrier, as a message ("warp string: position 7 puts warp 2's
/// instruction 4 ..."); empty when it keeps them.
std::string barrier_breach(const problem& prob, std::span<const std::uint16_t> str);

/// Builds the schedule of a pseudo-precedence string of 0-based warp ids (build_full_host()).
/// Throws input_error when the string is not a permutation of the multiset (each id I times), or
/// breaks a barrier (barrier_breach()).

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
