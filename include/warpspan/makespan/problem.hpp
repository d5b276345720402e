// A makespan problem: a normalised kernel string run by W identical warps on one SM (000 III-E,
// IV), or, with per-warp kernels, groups of warps each running its own string (docs/makespan.md,
// "A path per warp"). `problem` owns the host data; `problem_view` is the flat, trivially copyable form that the
// shared host/device code reads (and that a kernel receives by value).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/core/macros.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {

/// At most this many warps (ids are 16-bit) and this many instructions in a pseudo-precedence string.
inline constexpr std::uint32_t max_warps = 32767;  // usage deltas are 16-bit signed
inline constexpr std::uint64_t max_string_length = std::uint64_t{1} << 24;
/// Dense instruction types at most: the four units, then the barrier (sm_config.hpp, unit::B).
inline constexpr std::uint32_t max_types = unit_count + 1;
/// problem_view::barrier of a kernel without barriers.
inline constexpr std::uint32_t no_barrier = 0xFFu;

struct problem_view {
  /// Dense type index of each normalised instruction: length I, or with per-warp kernels every
  /// warp's string one after the other (length n, warp w's from starts[w]).
  const std::uint8_t* types = nullptr;
  /// Per-warp kernels only (null when every warp runs the same string, and then nothing below
  /// reads it): starts[w] is where warp w's instructions begin in `types` and in a chain's cycle
  /// array (starts[W] = n); then, with barriers, W x bars entries, warp w's k-th barrier's
  /// instruction index at W + 1 + w * bars + k; then n entries, the ordinal k of each barrier
  /// instruction among its warp's barriers (problem::warp_table). Read it through the accessors below.
  const std::uint32_t* starts = nullptr;
  std::uint32_t bars = 0;          ///< per-warp kernels with barriers: barriers of each warp
  std::uint32_t instructions = 0;  ///< I, after normalisation (per-warp kernels: the longest warp's)
  std::uint32_t warps = 0;         ///< W
  std::uint32_t length = 0;        ///< n = W * I
  std::uint32_t horizon = 0;       ///< every makespan is <= horizon (cycles are 1-based)
  /// pessimistic_bound() (bounds.hpp), at most the horizon: no schedule the builder makes, nor any
  /// prefix of one, has a cycle past it. Compact chains (chains.hpp) keep their usage table only
  /// that far. 0 in a view not made by make_problem.
  std::uint32_t bound = 0;
  std::uint32_t ntypes = 0;               ///< unit types the kernel uses
  std::uint32_t stride = 0;               ///< counters per cycle: ntypes, +1 with a scheduler limit
  std::uint32_t limited = 0;              ///< 1 when the scheduler limit can bind
  std::uint32_t barrier = no_barrier;     ///< the barrier's dense type (the last), or no_barrier
  std::uint32_t block = 0;                ///< warps per block: warps w and v share barriers iff w / block == v / block
  std::uint16_t cap[max_types + 1] = {};  ///< per dense type (a barrier's: W, never full), then the scheduler limit
};

/// The last cycle any placement can take: the pessimistic bound where the view has one, else the
/// horizon.
WARPSPAN_HD_INLINE std::uint32_t last_placed_cycle(const problem_view& p) {
  return p.bound != 0 && p.bound < p.horizon ? p.bound : p.horizon;
}

/// Where warp w's instructions begin in a chain's cycle array (w * I when all warps run one string).
WARPSPAN_HD_INLINE std::uint32_t warp_begin(const problem_view& p, std::uint32_t w) {
  return p.starts ? p.starts[w] : w * p.instructions;
}
/// The number of instructions warp w runs.
WARPSPAN_HD_INLINE std::uint32_t warp_length(const problem_view& p, std::uint32_t w) {
  return p.starts ? p.starts[w + 1] - p.starts[w] : p.instructions;
}
/// The dense type of warp w's instruction j.
WARPSPAN_HD_INLINE std::uint32_t type_at(const problem_view& p, std::uint32_t w, std::uint32_t j) {
  return p.types[p.starts ? p.starts[w] + j : j];
}
/// The number of entries of `types`: I, or n with per-warp kernels.
WARPSPAN_HD_INLINE std::uint32_t type_entries(const problem_view& p) { return p.starts ? p.length : p.instructions; }

/// Whether warp w's instruction j waits for a barrier: the one before it is a barrier (j >= 1).
WARPSPAN_HD_INLINE bool after_barrier(const problem_view& p, std::uint32_t w, std::uint32_t j) {
  return p.barrier != no_barrier && j != 0 && type_at(p, w, j - 1) == p.barrier;
}

/// The instruction index, in warp v, of the barrier that pairs with warp w's barrier at its
/// instruction j (the k-th barrier of w pairs with the k-th of every warp of its block): j itself
/// when all warps run one string.
WARPSPAN_HD_INLINE std::uint32_t paired_barrier(const problem_view& p, std::uint32_t w, std::uint32_t j,
                                                std::uint32_t v) {
  if (!p.starts) return j;
  const std::uint32_t* at = p.starts + p.warps + 1;
  const std::uint32_t k = at[static_cast<std::size_t>(p.warps) * p.bars + p.starts[w] + j];
  return at[static_cast<std::size_t>(v) * p.bars + k];
}

/// A group of warps that run one kernel (--warp-kernels K1:n1,K2:n2).
struct warp_group {
  kernel_string kernel;
  std::uint32_t warps = 0;
};

struct problem {
  /// Normalised: every instruction takes one cycle. With per-warp kernels (per_warp()), the first
  /// group's; kernel_of(w) gives any warp's.
  kernel_string kernel;
  normalized_sm sm;
  std::uint32_t warps = 0;
  std::vector<std::uint8_t> types;          ///< dense type index per instruction
  std::array<unit, max_types> type_unit{};  ///< dense index -> unit (unit::B for the barrier)
  problem_view flat;                        ///< without the types pointer (see view())
  /// The groups as given to make_problem(groups), normalised (empty for make_problem(kernel)).
  /// Warps are numbered group after group. Groups that all run one string make an ordinary problem
  /// (per_warp() false) that still lists them.
  std::vector<warp_group> groups;
  /// Per-warp kernels: problem_view::starts' array (empty otherwise).
  std::vector<std::uint32_t> warp_table;

  /// Whether the warps run different strings.
  bool per_warp() const { return !warp_table.empty(); }
  /// The group of warp w (0 without groups).
  std::uint32_t group_of(std::uint32_t w) const;
  /// Warp w's normalised kernel.
  const kernel_string& kernel_of(std::uint32_t w) const { return groups.empty() ? kernel : groups[group_of(w)].kernel; }
  /// The kernel for people: the run-length string, or "K1:n1,K2:n2" for groups.
  std::string kernel_text() const;

  std::uint32_t instructions() const { return flat.instructions; }
  /// Barriers in the kernel (instructions of type B; per-warp kernels: of each warp, the same in a block).
  std::uint32_t barriers() const;
  /// Warps per block (W when one block holds them all).
  std::uint32_t block_warps() const { return flat.block; }
  std::uint32_t length() const { return flat.length; }
  /// The view with `types` (and `starts`) pointing into this object (valid while it lives and is
  /// not moved).
  problem_view view() const {
    problem_view v = flat;
    v.types = types.data();
    v.starts = warp_table.empty() ? nullptr : warp_table.data();
    return v;
  }
};

/// Builds the problem from a normalised kernel. `block_warps` groups the W warps into blocks of that
/// many for the barriers (0: one block of all W, as when one block fills the SM). Throws
/// input_error for W < 1, too many warps or a string too long to search, a kernel that uses a type
/// the SM lacks, or a block size that is not a divisor of W.
problem make_problem(const kernel_string& normalized_kernel, const normalized_sm& sm, std::int64_t warps,
                     std::int64_t block_warps = 0);

/// Builds a problem of per-warp kernels: group g's warps run groups[g].kernel (normalised), the
/// warps numbered group after group; W is the sum of the counts. Throws input_error as
/// make_problem() does, and for no group, a count below 1, or warps of one block with different
/// numbers of barriers (the k-th barrier of each warp of a block pairs with the k-th of the others).
/// Groups that all run one string give make_problem(kernel, W) with `groups` kept.
problem make_problem(const std::vector<warp_group>& groups, const normalized_sm& sm, std::int64_t block_warps = 0);

/// "K1:n1,K2:n2,..." (kernels plain or run-length, counts >= 1) into groups of raw kernels. Throws
/// input_error naming param("warp_kernels") for an empty group, a missing or bad count.
std::vector<warp_group> parse_warp_kernels(std::string_view text);

/// Bytes one chain's state takes (string, cycles, usage table, per-warp counters, best string).
std::uint64_t chain_state_bytes(const problem_view& p);

}  // namespace warpspan
