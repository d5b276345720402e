// The multisets of W progress levels in [0, I] grouped by their sum, for the dense sweep on a GPU
// (cuda/exact/dense_kernels.cu): the j-th multiset of a sum, and the colex rank of a multiset (the
// dense table's index, as include/warpspan/detail/exact/dense_index.hpp ranks it). A cycle raises the sum,
// so the states of one sum can all be expanded at once, one thread each. Host/device code over
// tables the host builds (build_dense_sum_tables) and copies to the device.
#pragma once

#include <cstdint>
#include <vector>

#include "warpspan/core/macros.hpp"
#include "warpspan/exact/frontier.hpp"

namespace warpspan {

/// The tables as the device reads them.
struct dense_sum_view {
  const std::uint64_t* binom = nullptr;  ///< C(n, k) at n * (warps + 1) + k, n <= I + W, k <= W
  const std::uint64_t* count =
      nullptr;  ///< multisets of w levels in [0, m] with sum s, at (w * (I + 1) + m) * (sums) + s
  std::uint32_t warps = 0, instructions = 0, sums = 0;  ///< sums = W I + 1
};

WARPSPAN_HD_INLINE std::uint64_t dense_sum_count(const dense_sum_view& d, std::uint32_t w, std::uint32_t m,
                                                 std::uint32_t s) {
  return d.count[(static_cast<std::size_t>(w) * (d.instructions + 1) + m) * d.sums + s];
}

/// The ascending levels a[0..W) of the j-th multiset with sum `s` (j < dense_sum_count(d, W, I, s)):
/// the largest level first, counting the multisets under each choice.
WARPSPAN_HD_INLINE void dense_sum_unrank(const dense_sum_view& d, std::uint32_t s, std::uint64_t j, std::uint8_t* a) {
  std::uint32_t m = d.instructions, left = s;
  for (std::uint32_t w = d.warps; w >= 1; --w) {
    // The largest of w levels summing to `left` is at least ceil(left / w) and at most min(m, left).
    const std::uint32_t top = m < left ? m : left, least = (left + w - 1) / w;
    std::uint32_t level = top;
    for (; level > least; --level) {
      const std::uint64_t c = dense_sum_count(d, w - 1, level, left - level);
      if (j < c) break;
      j -= c;
    }
    a[w - 1] = static_cast<std::uint8_t>(level);
    m = level;
    left -= level;
  }
}

/// The inverse of dense_sum_unrank: the index j of ascending levels a[0..W) among the multisets of
/// their sum `s`. Unranking skips, for each w from W down, the multisets whose w-th level is above
/// a[w - 1]: those of w levels in [0, m] with the sum left, less those in [0, a[w - 1]].
WARPSPAN_HD_INLINE std::uint64_t dense_sum_index(const dense_sum_view& d, std::uint32_t s, const std::uint8_t* a) {
  std::uint64_t j = 0;
  std::uint32_t m = d.instructions, left = s;
  for (std::uint32_t w = d.warps; w >= 1; --w) {
    const std::uint32_t level = a[w - 1];
    j += dense_sum_count(d, w, m, left) - dense_sum_count(d, w, level, left);
    m = level;
    left -= level;
  }
  return j;
}

/// The progress sum of a packed state and its index among that sum's multisets.
WARPSPAN_HD_INLINE std::uint64_t dense_sum_index_of(const dense_sum_view& d, packed_state key, std::uint32_t& sum) {
  std::uint8_t a[frontier_max_warps];
  sum = 0;
  for (std::uint32_t i = d.warps; i >= 1; --i) {  // the highest level in the low byte
    a[i - 1] = static_cast<std::uint8_t>((key & 0xFF) - 1);
    sum += a[i - 1];
    key >>= 8;
  }
  return dense_sum_index(d, sum, a);
}

/// The colex rank of ascending levels: sum over i of C(a_i + i - 1, i), i = 1..W.
WARPSPAN_HD_INLINE std::uint64_t dense_sum_rank(const dense_sum_view& d, const std::uint8_t* a) {
  std::uint64_t rank = 0;
  for (std::uint32_t i = 1; i <= d.warps; ++i)
    rank += d.binom[static_cast<std::size_t>(a[i - 1] + i - 1) * (d.warps + 1) + i];
  return rank;
}

/// The colex rank of a packed state (frontier.hpp's layout: the highest level in the low byte).
WARPSPAN_HD_INLINE std::uint64_t dense_sum_rank_of(const dense_sum_view& d, packed_state key) {
  std::uint64_t rank = 0;
  for (std::uint32_t i = d.warps; i >= 1; --i) {
    const std::uint32_t level = static_cast<std::uint32_t>(key & 0xFF) - 1;
    key >>= 8;
    rank += d.binom[static_cast<std::size_t>(level + i - 1) * (d.warps + 1) + i];
  }
  return rank;
}

/// The packed state of ascending levels.
WARPSPAN_HD_INLINE packed_state dense_sum_pack(const dense_sum_view& d, const std::uint8_t* a) {
  packed_state key = 0;
  for (std::uint32_t i = 0; i < d.warps; ++i) key = (key << 8) | (a[i] + 1u);
  return key;
}

/// The host's copy of the tables (W <= 16, I <= 254; counts saturate at 2^64 - 1, which no table
/// the device could hold reaches).
struct dense_sum_tables {
  std::vector<std::uint64_t> binom, count;
  std::uint32_t warps = 0, instructions = 0, sums = 0;
  dense_sum_view view() const { return {binom.data(), count.data(), warps, instructions, sums}; }
};

dense_sum_tables build_dense_sum_tables(std::uint32_t warps, std::uint32_t instructions);

}  // namespace warpspan
