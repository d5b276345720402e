// Who runs one chain's step: one thread (serial_team: the CPU, and the GPU's thread-per-chain
// kernels), or the 32 lanes of a warp together (warp_team, cuda/makespan/anneal_kernel.cu: the
// one-warp-per-chain kernel for problems whose chain does not fit a thread's share of the chip).
//
// A team runs the scalar part of the step redundantly in every lane (the same values in every
// lane's registers), shares the bulk loops among its lanes, searches for a free cycle 32 cycles at
// a time with a ballot, and lets its leader write what every lane reads, with a sync after it. A
// team type provides:
//   size            lanes (a constant);
//   rank()          this lane, in [0, size);
//   leader()        rank() == 0;
//   sync()          every lane's earlier accesses to the chain's state are visible to every lane;
//   ballot(b)       bit r set where lane r's b is true (a sync too);
//   max(v)          the largest of the lanes' v, in every lane;
//   match(v)        bit r set where lane r's v equals this lane's (a sync too);
//   add(x, d)       x += d for an 8-, 16- or 32-bit counter that several lanes may change at once.
// serial_team is the degenerate team of one: every loop is the plain loop, every sync nothing, so
// the team's algorithm run by it is an ordinary sequential one (the host tests run it so).
#pragma once

#include <cstdint>

#include "warpspan/core/macros.hpp"

namespace warpspan {

struct serial_team {
  static constexpr std::uint32_t size = 1;
  WARPSPAN_HD_INLINE std::uint32_t rank() const { return 0; }
  WARPSPAN_HD_INLINE bool leader() const { return true; }
  WARPSPAN_HD_INLINE void sync() const {}
  WARPSPAN_HD_INLINE std::uint32_t ballot(bool b) const { return b ? 1u : 0u; }
  WARPSPAN_HD_INLINE std::uint32_t max(std::uint32_t v) const { return v; }
  WARPSPAN_HD_INLINE std::uint32_t match(std::uint32_t) const { return 1u; }
  template <class T>
  WARPSPAN_HD_INLINE void add(T& x, int d) const {
    x = static_cast<T>(x + d);
  }
};

/// The lowest set bit of a non-zero mask.
WARPSPAN_HD_INLINE std::uint32_t lowest_bit(std::uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__ffs(static_cast<int>(mask)) - 1);
#else
  return static_cast<std::uint32_t>(__builtin_ctz(mask));
#endif
}

/// The number of set bits of a mask.
WARPSPAN_HD_INLINE std::uint32_t bit_count(std::uint32_t mask) {
#if defined(__CUDA_ARCH__)
  return static_cast<std::uint32_t>(__popc(mask));
#else
  return static_cast<std::uint32_t>(__builtin_popcount(mask));
#endif
}

/// Swaps str[i] and str[j] (the leader does; every lane sees it afterwards, and none still reads
/// the old values when it does).
template <class Team, class Str>
WARPSPAN_HD_INLINE void team_swap(const Team& team, const Str& str, std::uint32_t i, std::uint32_t j) {
  team.sync();
  if (team.leader()) {
    const std::uint16_t tmp = str[i];  // a value, not the element's reference (views may be proxies)
    str[i] = str[j];
    str[j] = tmp;
  }
  team.sync();
}

}  // namespace warpspan
