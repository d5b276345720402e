// A makespan problem: a normalised kernel string run by W identical warps on one SM (000 III-E,
// IV). `problem` owns the host data; `problem_view` is the flat, trivially copyable form that the
// shared host/device code reads (and that a kernel receives by value).
#pragma once

#include <array>
#include <cstdint>
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
  const std::uint8_t* types = nullptr;  ///< dense type index of each normalised instruction, length I
  std::uint32_t instructions = 0;       ///< I, after normalisation
  std::uint32_t warps = 0;              ///< W
  std::uint32_t length = 0;             ///< n = W * I
  std::uint32_t horizon = 0;            ///< every makespan is <= horizon (cycles are 1-based)
  std::uint32_t ntypes = 0;             ///< unit types the kernel uses
  std::uint32_t stride = 0;             ///< counters per cycle: ntypes, +1 with a scheduler limit
  std::uint32_t limited = 0;            ///< 1 when the scheduler limit can bind
  std::uint32_t barrier = no_barrier;   ///< the barrier's dense type (the last), or no_barrier
  std::uint32_t block = 0;              ///< warps per block: warps w and v share barriers iff w / block == v / block
  std::uint16_t cap[max_types + 1] = {};  ///< per dense type (a barrier's: W, never full), then the scheduler limit
};

/// Whether warp w's instruction j waits for a barrier: the one before it is a barrier (j >= 1).
WARPSPAN_HD_INLINE bool after_barrier(const problem_view& p, std::uint32_t j) {
  return p.barrier != no_barrier && j != 0 && p.types[j - 1] == p.barrier;
}

struct problem {
  kernel_string kernel;                 ///< normalised: every instruction takes one cycle
  normalized_sm sm;
  std::uint32_t warps = 0;
  std::vector<std::uint8_t> types;      ///< dense type index per instruction
  std::array<unit, max_types> type_unit{};  ///< dense index -> unit (unit::B for the barrier)
  problem_view flat;                    ///< without the types pointer (see view())

  std::uint32_t instructions() const { return flat.instructions; }
  /// Barriers in the kernel (instructions of type B).
  std::uint32_t barriers() const;
  /// Warps per block (W when one block holds them all).
  std::uint32_t block_warps() const { return flat.block; }
  std::uint32_t length() const { return flat.length; }
  /// The view with `types` pointing into this object (valid while it lives and is not moved).
  problem_view view() const {
    problem_view v = flat;
    v.types = types.data();
    return v;
  }
};

/// Builds the problem from a normalised kernel. `block_warps` groups the W warps into blocks of that
/// many for the barriers (0: one block of all W, as when one block fills the SM). Throws
/// input_error for W < 1, too many warps or a string too long to search, a kernel that uses a type
/// the SM lacks, or a block size that is not a divisor of W.
problem make_problem(const kernel_string& normalized_kernel, const normalized_sm& sm, std::int64_t warps,
                     std::int64_t block_warps = 0);

/// Bytes one chain's state takes (string, cycles, usage table, per-warp counters, best string).
std::uint64_t chain_state_bytes(const problem_view& p);

}  // namespace warpspan
