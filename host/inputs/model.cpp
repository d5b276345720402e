// The SIMT cost model (include/warpspan/inputs/model.hpp) and the table of shipped kernels.
#include "warpspan/inputs/model.hpp"

#include <algorithm>
#include <bit>

#include "warpspan/core/error.hpp"
#include "warpspan/inputs/kernels.hpp"
#include "warpspan/sm/presets.hpp"

namespace warpspan::inputs {

namespace {
template <class K>
kernel_info describe(kernel_id id, std::uint32_t default_threads, std::string description) {
  return {id, K::name, std::move(description), default_threads, K::genes_per_thread, K::block, K::branches};
}
}  // namespace

const std::vector<kernel_info>& kernels() {
  static const std::vector<kernel_info> all{
      describe<artificial_kernel>(kernel_id::artificial, 1u << 15,
                                  "paper 004 Listing 1: values == 42 do 8 atomics on one address (worst case known)"),
      describe<bfs_kernel>(kernel_id::bfs, 1024, "Rodinia-style BFS, a thread per node, degree and 7 edge offsets per node"),
      describe<petri_kernel>(kernel_id::petri, 4096, "coloured Petri net per thread (NSICHNEU spirit): 8 places x 8 transitions, 4 rounds"),
      describe<bisect_kernel>(kernel_id::bisect, 4096, "bisection search per thread with an early exit"),
  };
  return all;
}

const kernel_info& info(kernel_id id) { return kernels()[static_cast<std::size_t>(id)]; }

const kernel_info& find_kernel(const std::string& name) {
  std::string names;
  for (const auto& k : kernels()) {
    if (k.name == name) return k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  throw input_error("unknown kernel '" + name + "' (kernels: " + names + ")");
}

void check_threads(std::int64_t threads) {
  if (threads < 1 || threads > static_cast<std::int64_t>(max_threads))
    throw input_error(param("threads") + " must be between 1 and " + std::to_string(max_threads) + ", got " +
                      std::to_string(threads));
}

std::vector<gene_range> genome_ranges(kernel_id id, std::uint32_t threads) {
  return with_kernel(id, [&](auto k) {
    using K = decltype(k);
    std::vector<gene_range> r(std::size_t{threads} * K::genes_per_thread);
    for (std::size_t i = 0; i < r.size(); ++i)
      r[i] = K::range(threads, static_cast<std::uint32_t>(i % K::genes_per_thread));
    return r;
  });
}

model_config make_model(const std::string& sm, std::int64_t sms) {
  if (sms < 1 || sms > 100000)
    throw input_error(param("sms") + " must be between 1 and 100000, got " + std::to_string(sms));
  const sm_config config = load_sm(sm);
  model_config cfg;
  cfg.sm = normalize(config);
  cfg.sm_name = config.name;
  cfg.sms = static_cast<std::uint32_t>(sms);
  cfg.warp_size = static_cast<std::uint32_t>(config.warp_size);
  if (cfg.sm.sigma[static_cast<int>(unit::C)] == 0 || cfg.sm.sigma[static_cast<int>(unit::L)] == 0)
    throw input_error("the SM '" + config.name + "' needs C and L units for the inputs model");
  return cfg;
}

std::vector<std::uint32_t> observed_ipdom(const block_record& rec, std::uint32_t nodes) {
  // Post-dominator sets as bitsets over the observed edges, by the usual fixed point from EXIT.
  const std::uint32_t exit = nodes - 1;
  const std::size_t words = (nodes + 63) / 64;
  thread_local std::vector<std::uint64_t> succ, pdom, next;
  thread_local std::vector<std::uint8_t> seen;
  succ.assign(std::size_t{nodes} * words, 0);
  seen.assign(nodes, 0);
  for (std::size_t l = 0; l < rec.lanes(); ++l) {
    for (std::uint32_t i = rec.lane_begin[l]; i < rec.lane_begin[l + 1]; ++i) {
      const std::uint32_t n = rec.node[i];
      seen[n] = 1;
      if (i + 1 < rec.lane_begin[l + 1]) {
        const std::uint32_t m = rec.node[i + 1];
        succ[n * words + m / 64] |= std::uint64_t{1} << (m % 64);
      }
    }
  }
  // Blocks of one launch mostly trace the same graph: the last answer is kept.
  thread_local std::vector<std::uint64_t> last_succ;
  thread_local std::vector<std::uint8_t> last_seen;
  thread_local std::vector<std::uint32_t> last_ipdom;
  if (succ == last_succ && seen == last_seen && last_ipdom.size() == nodes) return last_ipdom;
  pdom.assign(std::size_t{nodes} * words, ~std::uint64_t{0});
  for (std::size_t w = 0; w < words; ++w) pdom[exit * words + w] = 0;
  pdom[exit * words + exit / 64] = std::uint64_t{1} << (exit % 64);
  next.assign(words, 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t n = nodes; n-- > 0;) {
      if (n == exit || !seen[n]) continue;
      std::fill(next.begin(), next.end(), ~std::uint64_t{0});
      bool any = false;
      for (std::uint32_t m = 0; m < nodes; ++m) {
        if (!(succ[n * words + m / 64] >> (m % 64) & 1)) continue;
        any = true;
        for (std::size_t w = 0; w < words; ++w) next[w] &= pdom[m * words + w];
      }
      if (!any) std::fill(next.begin(), next.end(), 0);  // cannot happen: every lane ends at EXIT
      next[n / 64] |= std::uint64_t{1} << (n % 64);
      for (std::size_t w = 0; w < words; ++w) {
        if (pdom[n * words + w] != next[w]) {
          pdom[n * words + w] = next[w];
          changed = true;
        }
      }
    }
  }
  const auto size_of = [&](std::uint32_t n) {
    int c = 0;
    for (std::size_t w = 0; w < words; ++w) c += std::popcount(pdom[n * words + w]);
    return c;
  };
  std::vector<std::uint32_t> ipdom(nodes, nodes);
  ipdom[exit] = exit;
  for (std::uint32_t n = 0; n < nodes; ++n) {
    if (n == exit || !seen[n]) continue;
    // The strict post-dominators form a chain; the immediate one has the largest set of its own.
    const int want = size_of(n) - 1;
    for (std::uint32_t d = 0; d < nodes; ++d)
      if (d != n && (pdom[n * words + d / 64] >> (d % 64) & 1) && size_of(d) == want) ipdom[n] = d;
  }
  last_succ = succ;
  last_seen = seen;
  last_ipdom = ipdom;
  return ipdom;
}

namespace {

/// Warp instructions of the active lanes' ops at one index of a node execution.
struct request_costs {
  std::vector<std::uint64_t> addresses;
  /// Sorts `addresses` (lanes usually come in address order already) and drops repeats.
  void sort_unique() {
    if (!std::is_sorted(addresses.begin(), addresses.end())) std::sort(addresses.begin(), addresses.end());
    addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
  }
  /// Distinct 32-byte sectors of the global accesses in `ops`.
  std::uint64_t sectors(const std::vector<const lane_op*>& ops) {
    addresses.clear();
    for (const lane_op* o : ops)
      for (std::uint64_t s = o->address >> 5; s <= (o->address + o->size - 1) >> 5; ++s) addresses.push_back(s);
    sort_unique();
    return addresses.size();
  }
  /// Bank-conflict degree of shared accesses: the most distinct 4-byte words in one of 32 banks.
  std::uint64_t conflicts(const std::vector<const lane_op*>& ops) {
    addresses.clear();
    for (const lane_op* o : ops)
      for (std::uint64_t w = o->address >> 2; w <= (o->address + o->size - 1) >> 2; ++w) addresses.push_back(w);
    sort_unique();
    std::uint64_t per_bank[32] = {};
    std::uint64_t degree = 0;
    for (std::uint64_t w : addresses) degree = std::max(degree, ++per_bank[w % 32]);
    return degree;
  }
  /// Atomics: the most lanes on one address.
  std::uint64_t rounds(const std::vector<const lane_op*>& ops) {
    addresses.clear();
    for (const lane_op* o : ops) addresses.push_back(o->address);
    if (!std::is_sorted(addresses.begin(), addresses.end())) std::sort(addresses.begin(), addresses.end());
    std::uint64_t best = 0, run = 0;
    for (std::size_t i = 0; i < addresses.size(); ++i) {
      run = (i > 0 && addresses[i] == addresses[i - 1]) ? run + 1 : 1;
      best = std::max(best, run);
    }
    return best;
  }
};

}  // namespace

block_cost simulate_block(const model_config& cfg, const block_record& rec, std::uint32_t nodes) {
  const std::uint32_t exit = nodes - 1;
  const std::vector<std::uint32_t> ipdom = observed_ipdom(rec, nodes);
  const std::uint32_t ws = std::min<std::uint32_t>(std::max<std::uint32_t>(cfg.warp_size, 1), 64);
  const std::uint64_t copies_c = static_cast<std::uint64_t>(cfg.sm.copies[static_cast<int>(unit::C)]);
  const std::uint64_t copies_l = static_cast<std::uint64_t>(cfg.sm.copies[static_cast<int>(unit::L)]);
  const std::size_t lanes = rec.lanes();
  struct entry {
    std::uint32_t pc;
    std::uint64_t mask;
    std::uint32_t rpc;
  };
  thread_local std::vector<entry> stack;
  thread_local std::vector<std::uint32_t> cursor;
  thread_local std::vector<std::vector<std::uint64_t>> segments;  // per warp, cycles per barrier segment
  thread_local std::vector<const lane_op*> groups_by_kind[3];  // global, shared, atomic
  thread_local request_costs req;
  block_cost cost;
  const std::size_t warps = (lanes + ws - 1) / ws;
  if (segments.size() < warps) segments.resize(warps);
  for (std::size_t w = 0; w < warps; ++w) {
    auto& seg = segments[w];
    seg.assign(1, 0);
    const std::size_t first = w * ws, count = std::min<std::size_t>(ws, lanes - first);
    cursor.assign(count, 0);
    for (std::size_t l = 0; l < count; ++l) cursor[l] = rec.lane_begin[first + l];
    stack.clear();
    const std::uint64_t all = count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    stack.push_back({rec.node[cursor[0]], all, exit});
    while (!stack.empty()) {
      entry& top = stack.back();
      if (top.pc == top.rpc || top.pc == exit) {  // reconverged (or done): the entry below goes on
        stack.pop_back();
        continue;
      }
      const std::uint64_t mask = top.mask;
      // Execute node pc for the active lanes, the k-th op of every lane as one warp instruction.
      std::size_t longest = 0;
      for (std::uint64_t m = mask; m; m &= m - 1) {
        const std::size_t l = static_cast<std::size_t>(__builtin_ctzll(m));
        const std::uint32_t i = cursor[l];
        longest = std::max<std::size_t>(longest, rec.ops_begin[i + 1] - rec.ops_begin[i]);
      }
      for (std::size_t k = 0; k < longest; ++k) {
        std::uint64_t work = 0;
        bool barrier = false;
        for (auto& g : groups_by_kind) g.clear();
        for (std::uint64_t m = mask; m; m &= m - 1) {
          const std::uint32_t i = cursor[static_cast<std::size_t>(__builtin_ctzll(m))];
          if (rec.ops_begin[i] + k >= rec.ops_begin[i + 1]) continue;
          const lane_op& o = rec.ops[rec.ops_begin[i] + k];
          switch (o.kind) {
            case op_kind::work: work = std::max<std::uint64_t>(work, o.size); break;
            case op_kind::barrier: barrier = true; break;
            case op_kind::global: groups_by_kind[0].push_back(&o); break;
            case op_kind::shared: groups_by_kind[1].push_back(&o); break;
            case op_kind::atomic: groups_by_kind[2].push_back(&o); break;
          }
        }
        std::uint64_t slots = 0;
        if (!groups_by_kind[0].empty()) slots += req.sectors(groups_by_kind[0]);
        if (!groups_by_kind[1].empty()) slots += req.conflicts(groups_by_kind[1]);
        if (!groups_by_kind[2].empty()) slots += req.rounds(groups_by_kind[2]);
        cost.memory += slots;
        cost.compute += work;
        seg.back() += slots * copies_l + work * copies_c;
        if (barrier) seg.push_back(0);
      }
      // Advance the active lanes and group them by their next node.
      std::uint32_t next_nodes[64];
      std::uint64_t next_masks[64];
      std::size_t groups = 0;
      for (std::uint64_t m = mask; m; m &= m - 1) {
        const std::size_t l = static_cast<std::size_t>(__builtin_ctzll(m));
        const std::uint32_t nx = rec.node[++cursor[l]];
        std::size_t g = 0;
        while (g < groups && next_nodes[g] != nx) ++g;
        if (g == groups) {
          next_nodes[groups] = nx;
          next_masks[groups++] = 0;
        }
        next_masks[g] |= std::uint64_t{1} << l;
      }
      if (groups == 1) {
        top.pc = next_nodes[0];
        continue;
      }
      // Divergence: wait at the immediate post-dominator, the groups run one after another (the
      // lowest node first). When it is the entry's own reconvergence point, the entry is replaced.
      const std::uint32_t r = ipdom[top.pc];
      if (r == top.rpc) {
        stack.pop_back();
      } else {
        top.pc = r;
      }
      std::sort(next_nodes, next_nodes + groups);  // masks re-derived below, in node order
      for (std::size_t g = groups; g-- > 0;) {
        std::uint64_t gm = 0;
        for (std::uint64_t m = mask; m; m &= m - 1) {
          const std::size_t l = static_cast<std::size_t>(__builtin_ctzll(m));
          if (rec.node[cursor[l]] == next_nodes[g]) gm |= std::uint64_t{1} << l;
        }
        stack.push_back({next_nodes[g], gm, r});
      }
    }
  }
  // Barrier segments: a block waits for its slowest warp in each.
  std::size_t most = 0;
  for (std::size_t w = 0; w < warps; ++w) most = std::max(most, segments[w].size());
  for (std::size_t s = 0; s < most; ++s) {
    std::uint64_t slowest = 0;
    for (std::size_t w = 0; w < warps; ++w)
      if (s < segments[w].size()) slowest = std::max(slowest, segments[w][s]);
    cost.cycles += slowest;
  }
  return cost;
}

std::uint64_t sm_cycles(const model_config& cfg, std::uint64_t max_warp, std::uint64_t compute, std::uint64_t memory) {
  const auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
  const int C = static_cast<int>(unit::C), L = static_cast<int>(unit::L);
  std::uint64_t t = max_warp;
  t = std::max(t, ceil_div(compute * static_cast<std::uint64_t>(cfg.sm.copies[C]), static_cast<std::uint64_t>(cfg.sm.sigma[C])));
  t = std::max(t, ceil_div(memory * static_cast<std::uint64_t>(cfg.sm.copies[L]), static_cast<std::uint64_t>(cfg.sm.sigma[L])));
  if (cfg.sm.schedulers > 0) t = std::max(t, ceil_div(compute + memory, static_cast<std::uint64_t>(cfg.sm.schedulers)));
  return t;
}

model_run run_model(kernel_id id, const model_config& cfg, const std::vector<std::int32_t>& genome,
                    std::uint32_t threads, std::vector<thread_trace>* traces) {
  return with_kernel(id, [&](auto k) {
    using K = decltype(k);
    if (genome.size() != std::size_t{threads} * K::genes_per_thread)
      throw input_error("an input for " + std::string(K::name) + " with " + std::to_string(threads) + " threads has " +
                        std::to_string(std::size_t{threads} * K::genes_per_thread) + " integers, got " +
                        std::to_string(genome.size()));
    return run_model<K>(cfg, genome.data(), threads, traces);
  });
}

std::vector<std::uint64_t> model_cycles_batch(kernel_id id, const model_config& cfg,
                                              const std::vector<std::vector<std::int32_t>>& genomes,
                                              std::uint32_t threads, thread_pool& pool) {
  std::vector<std::uint64_t> out(genomes.size());
  pool.run(genomes.size(), [&](std::size_t i) { out[i] = run_model(id, cfg, genomes[i], threads).cycles; });
  return out;
}

}  // namespace warpspan::inputs
