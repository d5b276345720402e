#include "warpspan/makespan/problem.hpp"

#include <algorithm>
#include <string>

#include "warpspan/core/error.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {

problem make_problem(const kernel_string& kernel, const normalized_sm& sm, std::int64_t warps,
                     std::int64_t block_warps) {
  if (warps < 1) throw input_error(param("warps") + " must be at least 1 (got " + std::to_string(warps) + ")");
  if (warps > static_cast<std::int64_t>(max_warps))
    throw input_error(param("warps", warps) + " is more than the " + std::to_string(max_warps) +
                      " warps the estimator supports");
  if (kernel.empty()) throw input_error("kernel string: empty");
  const std::uint64_t length = static_cast<std::uint64_t>(warps) * kernel.size();
  if (length > max_string_length)
    throw input_error("W x I = " + std::to_string(length) + " instructions is more than the " +
                      std::to_string(max_string_length) + " a pseudo-precedence string may hold");

  if (block_warps < 0 || block_warps > warps || (block_warps > 0 && warps % block_warps != 0))
    throw input_error(param("block_warps", block_warps) + " must divide the " + std::to_string(warps) +
                      " warps into blocks of equal size (1 to W; 0 or none: one block of all W)");

  problem p;
  p.kernel = kernel;
  p.sm = sm;
  p.warps = static_cast<std::uint32_t>(warps);

  // Dense type indices, in L, C, S, D order of first use by unit, so tables stay small.
  std::array<int, unit_count> dense{-1, -1, -1, -1};
  std::uint32_t ntypes = 0;
  for (int u = 0; u < unit_count; ++u) {
    if (std::find(kernel.begin(), kernel.end(), static_cast<unit>(u)) == kernel.end()) continue;
    if (sm.sigma[u] < 1)
      throw input_error(std::string("the kernel uses ") + unit_letters[u] + " instructions but the SM has no " +
                        unit_letters[u] + " units");
    dense[u] = static_cast<int>(ntypes);
    p.type_unit[ntypes] = static_cast<unit>(u);
    // More than W slots per cycle can never be used, and min(sigma, W) fits 16 bits.
    p.flat.cap[ntypes] = static_cast<std::uint16_t>(std::min<std::int64_t>(sm.sigma[u], warps));
    ++ntypes;
  }
  // The barrier last: it needs no unit, so its capacity is W (a cycle is never full of barriers).
  const bool has_barrier = std::find(kernel.begin(), kernel.end(), unit::B) != kernel.end();
  if (has_barrier) {
    p.flat.barrier = ntypes;
    p.type_unit[ntypes] = unit::B;
    p.flat.cap[ntypes] = static_cast<std::uint16_t>(warps);
    ++ntypes;
  }
  p.types.reserve(kernel.size());
  for (unit u : kernel)
    p.types.push_back(static_cast<std::uint8_t>(u == unit::B ? p.flat.barrier : dense[static_cast<int>(u)]));
  p.flat.block = static_cast<std::uint32_t>(block_warps > 0 ? block_warps : warps);

  std::int64_t all_caps = 0;
  for (std::uint32_t k = 0; k < ntypes; ++k) all_caps += p.flat.cap[k];
  const bool limited = sm.schedulers > 0 && sm.schedulers < all_caps && sm.schedulers < warps;
  p.flat.instructions = static_cast<std::uint32_t>(kernel.size());
  p.flat.warps = p.warps;
  p.flat.length = static_cast<std::uint32_t>(length);
  // Every cycle up to the makespan of a work-conserving schedule issues something, so n cycles
  // always suffice.
  p.flat.horizon = static_cast<std::uint32_t>(length);
  p.flat.ntypes = ntypes;
  p.flat.limited = limited ? 1 : 0;
  p.flat.stride = ntypes + (limited ? 1 : 0);
  if (limited) p.flat.cap[ntypes] = static_cast<std::uint16_t>(sm.schedulers);
  return p;
}

std::uint32_t problem::barriers() const {
  return static_cast<std::uint32_t>(std::count(kernel.begin(), kernel.end(), unit::B));
}

std::uint64_t chain_state_bytes(const problem_view& p) { return make_chain_layout(p).bytes; }

}  // namespace warpspan
