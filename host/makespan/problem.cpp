#include "warpspan/makespan/problem.hpp"

#include <algorithm>
#include <string>

#include "warpspan/core/error.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {

namespace {

/// problem_view::bound. A schedule the builder makes is work-conserving (a warp waits only in
/// cycles already full for its type or the limit, and they stay full), which is all the proof of
/// pessimistic_bound() asks; a prefix of one that a later barrier breaks is a prefix of a complete
/// schedule too (the warps of a block can always go on to their next common barrier), so no cycle
/// the builder ever places exceeds the bound.
void set_bound(problem& p) {
  p.flat.bound = static_cast<std::uint32_t>(std::min<std::uint64_t>(p.flat.horizon, pessimistic_bound(p)));
}

}  // namespace

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
  set_bound(p);
  return p;
}

std::uint32_t problem::barriers() const {
  // Per-warp kernels: the most of any warp (blocks may differ; the searches that take one block
  // only must see a barrier anywhere).
  auto most = static_cast<std::uint32_t>(std::count(kernel.begin(), kernel.end(), unit::B));
  for (const warp_group& g : groups)
    most = std::max(most, static_cast<std::uint32_t>(std::count(g.kernel.begin(), g.kernel.end(), unit::B)));
  return most;
}

std::uint32_t problem::group_of(std::uint32_t w) const {
  std::uint32_t g = 0;
  for (std::uint32_t first = 0; g + 1 < groups.size() && w >= first + groups[g].warps; ++g) first += groups[g].warps;
  return g;
}

std::string problem::kernel_text() const {
  if (groups.empty()) return to_run_length(kernel);
  std::string s;
  for (const warp_group& g : groups) {
    if (!s.empty()) s += ',';
    s.append(to_run_length(g.kernel)).append(":").append(std::to_string(g.warps));
  }
  return s;
}

problem make_problem(const std::vector<warp_group>& groups, const normalized_sm& sm, std::int64_t block_warps) {
  if (groups.empty()) throw input_error(param("warp_kernels") + ": no group of warps");
  std::int64_t warps = 0;
  std::uint64_t length = 0;
  bool same = true;
  for (std::size_t g = 0; g < groups.size(); ++g) {
    if (groups[g].warps < 1)
      throw input_error(param("warp_kernels") + ": group " + std::to_string(g + 1) +
                        " has no warps (counts are 1 or more)");
    if (groups[g].kernel.empty())
      throw input_error(param("warp_kernels") + ": group " + std::to_string(g + 1) + " has an empty kernel");
    warps += groups[g].warps;
    length += std::uint64_t{groups[g].warps} * groups[g].kernel.size();
    same = same && groups[g].kernel == groups[0].kernel;
  }
  if (warps > static_cast<std::int64_t>(max_warps))
    throw input_error(param("warp_kernels") + ": " + std::to_string(warps) + " warps in all is more than the " +
                      std::to_string(max_warps) + " warps the estimator supports");
  if (length > max_string_length)
    throw input_error("the warps' " + std::to_string(length) + " instructions in all are more than the " +
                      std::to_string(max_string_length) + " a pseudo-precedence string may hold");
  if (same) {
    problem p = make_problem(groups[0].kernel, sm, warps, block_warps);
    p.groups = groups;
    return p;
  }
  // The types and capacities of the union of the kernels: the one-kernel problem of one
  // instruction of each unit any of them uses (its checks of the SM and the block size), then the
  // per-warp strings.
  kernel_string all;
  for (const warp_group& g : groups)
    for (unit u : g.kernel)
      if (std::find(all.begin(), all.end(), u) == all.end()) all.push_back(u);
  problem p = make_problem(all, sm, warps, block_warps);
  p.kernel = groups[0].kernel;
  p.groups = groups;
  std::array<std::uint8_t, unit_count + 1> dense{};
  for (std::uint32_t k = 0; k < p.flat.ntypes; ++k)
    dense[static_cast<int>(p.type_unit[k])] = static_cast<std::uint8_t>(k);
  const std::uint32_t W = static_cast<std::uint32_t>(warps);
  std::vector<std::uint32_t> starts(W + 1, 0), bars(W, 0);
  p.types.clear();
  p.types.reserve(length);
  std::uint32_t longest = 0;
  for (std::uint32_t w = 0, g = 0, left = groups[0].warps; w < W; ++w, --left) {
    if (left == 0) left = groups[++g].warps;
    const kernel_string& k = groups[g].kernel;
    starts[w] = static_cast<std::uint32_t>(p.types.size());
    for (unit u : k) p.types.push_back(dense[static_cast<int>(u)]);
    bars[w] = static_cast<std::uint32_t>(std::count(k.begin(), k.end(), unit::B));
    longest = std::max(longest, static_cast<std::uint32_t>(k.size()));
  }
  starts[W] = static_cast<std::uint32_t>(p.types.size());
  const std::uint32_t block = p.flat.block;
  for (std::uint32_t w = 0; w < W; ++w)
    if (bars[w] != bars[w / block * block])
      throw input_error("warps " + std::to_string(w / block * block + 1) + " and " + std::to_string(w + 1) +
                        " of one block run kernels with " + std::to_string(bars[w / block * block]) + " and " +
                        std::to_string(bars[w]) + " barriers: every warp of a block must issue the same barriers (" +
                        param("block_warps") + ")");
  const std::uint32_t nb = p.flat.barrier == no_barrier ? 0 : *std::max_element(bars.begin(), bars.end());
  p.warp_table = std::move(starts);
  if (nb > 0) {
    // Warp w's k-th barrier's index, then each barrier's ordinal in its warp. Warps of different
    // blocks may issue different numbers (a block's own pair up); unused entries stay 0.
    p.warp_table.resize(W + 1 + std::size_t{W} * nb + length, 0);
    std::uint32_t* at = p.warp_table.data() + W + 1;
    std::uint32_t* ordinal = at + std::size_t{W} * nb;
    for (std::uint32_t w = 0; w < W; ++w) {
      std::uint32_t k = 0;
      for (std::uint32_t j = p.warp_table[w]; j < p.warp_table[w + 1]; ++j)
        if (p.types[j] == p.flat.barrier) {
          at[std::size_t{w} * nb + k] = j - p.warp_table[w];
          ordinal[j] = k++;
        }
    }
  }
  p.flat.bars = nb;
  p.flat.instructions = longest;
  p.flat.length = static_cast<std::uint32_t>(length);
  p.flat.horizon = static_cast<std::uint32_t>(length);  // every cycle up to the makespan issues something
  set_bound(p);
  return p;
}

std::vector<warp_group> parse_warp_kernels(std::string_view text) {
  std::vector<warp_group> out;
  std::size_t at = 0;
  for (;;) {
    const std::size_t comma = std::min(text.find(',', at), text.size());
    const std::string_view item = text.substr(at, comma - at);
    const std::string number = std::to_string(out.size() + 1);
    const std::size_t colon = item.rfind(':');
    if (item.empty())
      throw input_error(param("warp_kernels") + ": group " + number + " is empty (expected KERNEL:COUNT)");
    if (colon == std::string_view::npos)
      throw input_error(param("warp_kernels") + ": group " + number + " '" + std::string(item) +
                        "' has no count (expected KERNEL:COUNT, e.g. LCL:3)");
    const std::string_view count = item.substr(colon + 1);
    std::uint64_t n = 0;
    bool ok = !count.empty() && count.size() <= 9;
    for (char c : count) ok = ok && c >= '0' && c <= '9';
    if (ok)
      for (char c : count) n = n * 10 + static_cast<std::uint64_t>(c - '0');
    if (!ok || n < 1)
      throw input_error(param("warp_kernels") + ": group " + number + " has count '" + std::string(count) +
                        "' (expected a whole number of warps, 1 or more)");
    if (colon == 0)
      throw input_error(param("warp_kernels") + ": group " + number + " has no kernel (expected KERNEL:COUNT)");
    warp_group g;
    try {
      g.kernel = parse_kernel_string(item.substr(0, colon));
    } catch (const input_error& e) {
      throw input_error(param("warp_kernels") + ": group " + number + ": " + e.description());
    }
    g.warps = static_cast<std::uint32_t>(std::min<std::uint64_t>(n, max_warps + 1));
    out.push_back(std::move(g));
    if (comma == text.size()) break;
    at = comma + 1;
  }
  return out;
}

std::uint64_t chain_state_bytes(const problem_view& p) { return make_chain_layout(p).bytes; }

}  // namespace warpspan
