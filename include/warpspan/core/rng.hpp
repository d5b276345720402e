// Counter-based random numbers: Philox-4x32-10 (Salmon et al., "Parallel random numbers: as easy as
// 1, 2, 3", SC'11). Every draw is a pure function of (key, counter), so a chain's randomness depends
// only on the seed, the chain id and the iteration, never on which thread or device runs it. The same
// function runs on host and device and gives bit-identical results.
#pragma once

#include <cstdint>

#include "warpspan/core/macros.hpp"

namespace warpspan {

struct philox_out {
  std::uint32_t v[4];
};

namespace detail {
WARPSPAN_HD_INLINE void mulhilo32(std::uint32_t a, std::uint32_t b, std::uint32_t& hi, std::uint32_t& lo) {
  const std::uint64_t p = static_cast<std::uint64_t>(a) * b;
  hi = static_cast<std::uint32_t>(p >> 32);
  lo = static_cast<std::uint32_t>(p);
}
}  // namespace detail

/// Philox-4x32 with 10 rounds. `counter` is four 32-bit words, `key` two.
WARPSPAN_HD_INLINE philox_out philox4x32(std::uint32_t c0, std::uint32_t c1, std::uint32_t c2, std::uint32_t c3,
                                         std::uint32_t k0, std::uint32_t k1) {
  constexpr std::uint32_t m0 = 0xD2511F53u, m1 = 0xCD9E8D57u;
  constexpr std::uint32_t w0 = 0x9E3779B9u, w1 = 0xBB67AE85u;
  for (int round = 0; round < 10; ++round) {
    std::uint32_t hi0, lo0, hi1, lo1;
    detail::mulhilo32(m0, c0, hi0, lo0);
    detail::mulhilo32(m1, c2, hi1, lo1);
    const std::uint32_t n0 = hi1 ^ c1 ^ k0;
    const std::uint32_t n2 = hi0 ^ c3 ^ k1;
    c0 = n0;
    c1 = lo1;
    c2 = n2;
    c3 = lo0;
    k0 += w0;
    k1 += w1;
  }
  return philox_out{{c0, c1, c2, c3}};
}

/// The draw for one (seed, stream, index) triple; `stream` separates uses (a chain's moves, a random
/// initial string, ...).
WARPSPAN_HD_INLINE philox_out draw(std::uint64_t seed, std::uint32_t stream, std::uint64_t index,
                                   std::uint32_t tag = 0) {
  return philox4x32(static_cast<std::uint32_t>(index), static_cast<std::uint32_t>(index >> 32), stream, tag,
                    static_cast<std::uint32_t>(seed), static_cast<std::uint32_t>(seed >> 32));
}

/// Maps a uniform 32-bit word onto [0, n) without division (Lemire's multiply-shift).
WARPSPAN_HD_INLINE std::uint32_t bounded(std::uint32_t r, std::uint32_t n) {
  return static_cast<std::uint32_t>((static_cast<std::uint64_t>(r) * n) >> 32);
}

/// A double in [0, 1) from two words, 53 random bits; exact on host and device.
WARPSPAN_HD_INLINE double unit_double(std::uint32_t a, std::uint32_t b) {
  const std::uint64_t bits = (static_cast<std::uint64_t>(a) << 21) ^ (b >> 11);
  return static_cast<double>(bits & ((std::uint64_t{1} << 53) - 1)) * 0x1.0p-53;
}

}  // namespace warpspan
