// The CPU's side of the calibration microbenchmarks (include/warpspan/core/calibration.hpp): the
// chase's cycle, and what the device's runs must return.
#include "warpspan/core/calibration.hpp"

#include <string>
#include <utility>

#include "warpspan/core/error.hpp"
#include "warpspan/core/rng.hpp"

namespace warpspan {

std::vector<std::uint32_t> chase_cycle(std::size_t elements, std::uint64_t seed) {
  if (elements == 0 || elements > (std::size_t{1} << 32))
    throw input_error("a pointer chase needs 1 to 2^32 elements, not " + std::to_string(elements));
  // Sattolo's shuffle of 0..n-1 gives a permutation of one cycle; next[order[k]] = order[k + 1].
  std::vector<std::uint32_t> order(elements);
  for (std::size_t i = 0; i < elements; ++i) order[i] = static_cast<std::uint32_t>(i);
  for (std::size_t i = elements - 1; i > 0; --i) {
    const philox_out d = draw(seed, 0, i);
    const std::uint64_t r = (static_cast<std::uint64_t>(d.v[0]) << 32) | d.v[1];
    std::swap(order[i], order[r % i]);
  }
  std::vector<std::uint32_t> next(elements);
  for (std::size_t k = 0; k < elements; ++k) next[order[k]] = order[(k + 1) % elements];
  return next;
}

std::uint32_t warp_collectives_cpu(std::uint32_t steps) {
  std::uint32_t v = 0;
  for (std::uint32_t s = 0; s < steps; ++s) {
    std::uint32_t next = 0;
    for (std::uint32_t lane = 0; lane < 32; ++lane)
      next |= static_cast<std::uint32_t>(collective_vote(v, lane)) << lane;
    v = next;
  }
  return v;
}

std::uint64_t pointer_chase_cpu(const std::vector<std::uint32_t>& next, std::uint32_t steps) {
  std::uint32_t at = 0;
  for (std::uint32_t s = 0; s < steps; ++s) at = next.at(at);
  return at;
}

scatter_shape scattered_sectors_shape(std::uint32_t warps_per_sm, std::uint32_t sms) {
  if (warps_per_sm == 0 || warps_per_sm > 64)
    throw input_error("warps a SM must be from 1 to 64, not " + std::to_string(warps_per_sm));
  scatter_shape s;
  const std::uint32_t blocks_per_sm = (warps_per_sm + 31) / 32;
  s.threads = warps_per_sm / blocks_per_sm * 32;
  s.blocks = blocks_per_sm * sms;
  return s;
}

std::uint64_t scattered_sectors_cpu(std::size_t bytes, std::uint32_t warps_per_sm, std::uint32_t loads,
                                    std::uint32_t sms) {
  const scatter_shape shape = scattered_sectors_shape(warps_per_sm, sms);
  const std::uint64_t sectors = bytes / sizeof(std::uint32_t) / 8;
  const std::uint64_t threads = static_cast<std::uint64_t>(shape.blocks) * shape.threads;
  std::uint64_t sum = 0;
  for (std::uint64_t t = 0; t < threads; ++t)
    for (std::uint32_t k = 0; k < loads; ++k) sum += scatter_value(scatter_sector(t, k, sectors) * 8);
  return sum;
}

std::uint64_t stream_read_cpu(std::size_t bytes, std::uint32_t passes) {
  const std::uint64_t words = bytes / 16 * 4;
  std::uint64_t sum = 0;
  for (std::uint64_t i = 0; i < words; ++i) sum += scatter_value(i);
  return sum * passes;
}

}  // namespace warpspan
