// The colex rank of a multiset of warp progress levels, for the dense sweep (host/exact/dense_sweep.cpp).
//
// The W levels sorted ascending, a_1 <= .. <= a_W in [0, I], map to b_i = a_i + i - 1, strictly
// increasing in [0, I + W); the rank is sum_i C(b_i, i), a bijection onto [0, C(I + W, W)). A cycle
// raises some warps one level each, the top warps of each run that moves, so the positions keep
// their order and the rank rises by sum C(b_i, i - 1) over the moved positions: move_delta.
// Host code.
#pragma once

#include <cstdint>
#include <vector>

#include "warpspan/exact/frontier.hpp"

namespace warpspan {

class dense_index {
 public:
  dense_index(std::uint32_t warps, std::uint32_t instructions);

  /// C(I + W, W): the number of multisets (saturates at 2^64 - 1).
  std::uint64_t size() const { return size_; }
  /// C(n, k) for n <= I + W and k <= W (saturating).
  std::uint64_t choose(std::uint32_t n, std::uint32_t k) const {
    return k > warps_ ? 0 : binom_[static_cast<std::size_t>(n) * (warps_ + 1) + k];
  }
  /// What the rank gains when the x warps at ascending positions (top - x, top] (1-based) rise
  /// from level k to k + 1.
  std::uint64_t move_delta(std::uint32_t k, std::uint32_t top, std::uint32_t x) const {
    const std::uint64_t* d = &delta_[static_cast<std::size_t>(k) * (warps_ + 1)];
    return d[top] - d[top - x];
  }
  /// The rank of a packed state (frontier.hpp's layout: the highest level in the low field), of
  /// 8-bit levels (L = std::uint8_t) or 16-bit ones (L = std::uint16_t, a wide_frontier_view's).
  /// These four are defined in host/exact/dense_sweep.cpp for both (out of line, as they were before
  /// the 16-bit levels: inlined, they changed what the compiler inlines in the dense sweep's hot
  /// loop, which ran 15 % slower).
  template <class L = std::uint8_t>
  std::uint64_t rank_of(packed_state key) const;
  /// The ascending levels a[0..W) of the multiset of rank `rank` (< size()).
  template <class L>
  void unrank(std::uint64_t rank, L* a) const;
  /// The packed state of ascending levels a[0..W), a field of 8 * sizeof(L) bits each.
  template <class L>
  packed_state pack(const L* a) const;
  /// The ascending levels of the next rank; false after the last (all at I).
  template <class L>
  bool next(L* a) const;

 private:
  std::uint32_t warps_, instructions_;
  std::uint64_t size_ = 0;
  std::vector<std::uint64_t> binom_, delta_;
};

}  // namespace warpspan
