// The SIMT cost model (include/warpspan/inputs/model.hpp) and the table of shipped kernels.
#include "warpspan/inputs/model.hpp"

#include <algorithm>

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

warp_cost merge_warp(std::vector<model_event>& events) {
  // Block executions: an open-addressing table from exec to the most work a lane did in it (a sort
  // of all events cost 10x more on the Petri net); atomics, few, are sorted and grouped.
  thread_local std::vector<std::uint64_t> keys, works;
  thread_local std::vector<model_event> atomics;
  constexpr std::uint64_t empty = ~std::uint64_t{0};
  int bits = 6;
  while ((std::size_t{1} << bits) < 2 * events.size()) ++bits;
  const std::size_t mask = (std::size_t{1} << bits) - 1;
  keys.assign(mask + 1, empty);
  works.assign(mask + 1, 0);
  atomics.clear();
  warp_cost cost;
  for (const model_event& e : events) {
    if (e.kind != 0) {
      atomics.push_back(e);
      continue;
    }
    std::size_t h = static_cast<std::size_t>((e.exec * 0x9E3779B97F4A7C15ull) >> (64 - bits));
    while (keys[h] != empty && keys[h] != e.exec) h = (h + 1) & mask;
    if (keys[h] == empty) {
      keys[h] = e.exec;
      works[h] = e.value;
      cost.compute += e.value;
    } else if (e.value > works[h]) {  // the block execution costs the most work any lane did in it
      cost.compute += e.value - works[h];
      works[h] = e.value;
    }
  }
  std::sort(atomics.begin(), atomics.end());
  std::size_t i = 0;
  while (i < atomics.size()) {
    const model_event& head = atomics[i];
    std::uint64_t rounds = 0, run = 0;  // lanes on one address serialise: the longest run of equal values
    std::size_t j = i;
    for (; j < atomics.size() && atomics[j].exec == head.exec && atomics[j].seq == head.seq; ++j) {
      run = (j > i && atomics[j].value == atomics[j - 1].value) ? run + 1 : 1;
      rounds = std::max(rounds, run);
    }
    cost.memory += rounds;
    i = j;
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
