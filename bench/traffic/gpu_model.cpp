// warpspan_gpu_model: a model of an H100, an A100 and an H200 from the CUDA emulation's
// memory-request counts (cuda/emulation/counts.cpp): bandwidth bounds for every kernel, and for the
// annealing kernel latency and scattered-sector bounds with the H200 calibration's constants. The real kernels (cuda/makespan/anneal_kernel.cu,
// cuda/dbf/dbf_kernels.cu) run on the CPU with the counter on; their global-memory sectors, shared-
// memory wavefronts and atomics per annealing move or per dbf cell become moves and cells per second
// at each device's DRAM and shared-memory bandwidth. Built only in the emulation build (cpu-emu,
// clang-asan: it needs clang's load/store tracing). Prints Markdown; `--json FILE` writes the
// predictions that bench/compare_model.py holds against a GPU run's warpspan_bench JSON.
// bench/results/current/gpu_model_emulated.md and .json are its output.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <cuda_runtime.h>

#include "cache_model.hpp"  // cuda/emulation: the counter's L1 and L2 model

#include <chrono>

#include <nlohmann/json.hpp>

#include "../cases.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/detail/dbf/level_plan.hpp"
#include "warpspan/detail/dbf/onchip_pack.hpp"
#include "warpspan/core/occupancy.hpp"
#include "warpspan/detail/makespan/team_schedule.hpp"

namespace {

using namespace warpspan;

struct device_spec {
  const char* name;
  double dram_bytes_per_s;  // HBM
  int sms;
  double clock_hz;  // boost clock
  double smem_bytes_per_clock_per_sm;
  double scatter_bytes_per_s;  // random 32-byte sectors at saturation (16+ warps a SM)
  double shared_latency;       // clocks, a dependent shared-memory load
  double global_latency;       // clocks, a dependent global load that misses L1
  double collective_latency;   // clocks, a warp collective a lane waits for (__ballot_sync, __syncwarp)
  double l2_bytes;             // the L2's capacity
  double l2_bytes_per_s;       // the L2's read bandwidth at its peak
};
// H100 SXM5 80 GB: HBM3 3.35 TB/s, 132 SMs, 1.98 GHz boost; A100 SXM4 80 GB: HBM2e 2.039 TB/s,
// 108 SMs, 1.41 GHz; H200: HBM3e 4.8 TB/s, 132 SMs, 1.98 GHz. All serve shared memory at 128 bytes
// (one wavefront of 32 banks) per clock per SM. The latencies and the scattered-sector bandwidth
// are the H200's calibration run (bench/results/current/gpu_h200_2026-11-27.md: BM_Calibrate*): a shared
// load 28.7 clocks, an L2 hit 280 (HBM not yet measured: the chase's HBM point hit L2), random
// sectors 1.334 TB/s from 16 warps a SM on. The H100's and A100's scattered bandwidth is the
// H200's scaled by their HBM peaks, their latencies the H200's in clocks: assumptions until a
// lent H100 runs the calibration. A warp collective's latency (the warp design's ballots and
// syncs) is not measured yet: 12 clocks assumed (a vote and the dependent bit scan).
// The L2: 50 MiB (H100 SXM, H200) and 40 MiB (A100), as cudaGetDeviceProperties reports them; its
// read bandwidth 5,120 bytes a clock at the boost clock, the A100 whitepaper's figure (NVIDIA
// publishes none for Hopper): assumed for all three until BM_CalibrateStream measures it.
constexpr double h200_scatter = 1.334e12, h200_hbm = 4.8e12, l2_bytes_per_clock = 5120;
constexpr double mib = 1024.0 * 1024.0;
const device_spec devices[] = {
    {"H100 SXM", 3.35e12, 132, 1.98e9, 128, h200_scatter * 3.35e12 / h200_hbm, 28.7, 280, 12, 50 * mib,
     l2_bytes_per_clock * 1.98e9},
    {"A100 SXM 80GB", 2.039e12, 108, 1.41e9, 128, h200_scatter * 2.039e12 / h200_hbm, 28.7, 280, 12, 40 * mib,
     l2_bytes_per_clock * 1.41e9},
    {"H200", h200_hbm, 132, 1.98e9, 128, h200_scatter, 28.7, 280, 12, 50 * mib, l2_bytes_per_clock * 1.98e9},
};
/// The share of the L2 a kernel's data may fill: half. The L2 is two partitions, and each keeps
/// what the SMs beside it read, so data every SM reads may be held twice (an assumption: the
/// conservative reading of how the partitions share; a lent GPU's BM_CalibrateStream tells).
constexpr double l2_usable_share = 0.5;
const device_spec& h200_spec = devices[2];
constexpr double sector_bytes = 32;

/// Counts of the kernels whose name starts with `prefix`, summed.
emu::kernel_counts sum_counts(const std::vector<std::string>& prefixes) {
  emu::kernel_counts s;
  for (const emu::kernel_counts& k : emu::counts()) {
    if (std::none_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return k.kernel.rfind(p, 0) == 0; }))
      continue;
    s.launches += k.launches;
    s += k;
  }
  return s;
}

/// The cache model's counts of the kernels whose name starts with `prefix`, summed.
emu::cache_counts sum_cache(const std::vector<std::string>& prefixes) {
  emu::cache_counts s;
  for (const emu::cache_counts& k : emu::cache_counts_of_kernels())
    if (std::any_of(prefixes.begin(), prefixes.end(), [&](const std::string& p) { return k.kernel.rfind(p, 0) == 0; }))
      s += k;
  return s;
}

/// What the caches make of an item's sectors (cache_model.hpp): the sectors that reach the L2 and
/// those between the L2 and DRAM, for an L2 of a given size; and how many blocks the count ran,
/// against how many a device holds at once (the L2 a counted block may use is its share).
struct cached_item {
  double l1_hits = 0, l2_sectors = 0;
  std::function<double(double)> dram_sectors;  ///< per item, at an L2 of that many bytes for the counted blocks
  /// The L2 a counted block may use: the usable L2 over the warps the device holds at once, per
  /// counted block. In the emulation a block's warps run one after another (between barriers; the
  /// annealing kernel has none), so one warp of each counted block is active at a time, where a
  /// device runs `resident_per_sm` warps on each SM side by side.
  double counted_blocks = 0;
  double resident_per_sm = 0;  ///< warps; 0: the count is the whole run (one table): its L2 is the device's
  bool used = false;           ///< counted: the bounds are shown
  bool predicts = false;       ///< the prediction takes them (the dbf tables; see the note on the annealing rows)

  /// The L2 bytes the counted blocks have on `d` (its usable share, scaled by the blocks).
  double capacity(const device_spec& d, double sms) const {
    const double whole = d.l2_bytes * l2_usable_share;
    if (resident_per_sm <= 0 || counted_blocks <= 0) return whole;
    return whole * std::min(1.0, counted_blocks / (resident_per_sm * sms));
  }
};
cached_item cached(const emu::cache_counts& c, double items, double blocks, double resident_per_sm) {
  cached_item r;
  r.l1_hits = static_cast<double>(c.l1_hit_sectors) / items;
  r.l2_sectors = static_cast<double>(c.l2_sectors) / items;
  r.dram_sectors = [c, items](double bytes) {
    return static_cast<double>(c.dram_sectors(static_cast<std::uint64_t>(bytes))) / items;
  };
  r.counted_blocks = blocks;
  r.resident_per_sm = resident_per_sm;
  r.used = r.predicts = true;
  return r;
}

/// Per item (an annealing move, a dbf cell).
struct per_item {
  double requests = 0, sectors = 0, ideal_sectors = 0, store_sectors = 0, shared_requests = 0, wavefronts = 0,
         ideal_wavefronts = 0, atomics = 0, collectives = 0;
};

per_item divide(const emu::kernel_counts& k, double items) {
  per_item p;
  p.requests = static_cast<double>(k.global_requests) / items;
  p.sectors = static_cast<double>(k.global_sectors) / items;
  p.ideal_sectors = static_cast<double>(k.global_ideal_sectors) / items;
  p.store_sectors = static_cast<double>(k.global_store_sectors) / items;
  p.shared_requests = static_cast<double>(k.shared_requests) / items;
  p.wavefronts = static_cast<double>(k.shared_wavefronts) / items;
  p.ideal_wavefronts = static_cast<double>(k.shared_ideal_wavefronts) / items;
  p.atomics = static_cast<double>(k.atomics) / items;
  p.collectives = static_cast<double>(k.collectives) / items;
  return p;
}

struct prediction {
  double dram = 0, shared = 0, predicted = 0, coalesced = 0, reads_cached = 0;
  /// The cache model's bounds (cached_item): DRAM for what the L2 misses and writes back, and the
  /// L2 for what the L1 misses; `dram` above is every sector from DRAM.
  double dram_after_l2 = INFINITY, l2 = INFINITY;
  double latency = INFINITY, scatter = INFINITY;  ///< anneal: the latency and scattered-sector bounds
  double issue = INFINITY;                        ///< anneal: the instruction-issue bound (an estimate: --issue)
  double kernel = 0;    ///< dbf_batch: the kernel's bound alone (predicted is then end to end)
  double kernel_s = 0;  ///< dbf_batch: the kernel's predicted time a set
};

double bound(double rate, double per) { return per > 0 ? rate / per : INFINITY; }

/// The annealing kernel's latency bound: a chain's move is a chain of dependent accesses, and a
/// warp's requests (lanes that diverge issue several) wait one after another, so each of the
/// `warps` resident warps of `sms` SMs completes a move per lane every r_g L_g + r_s L_s clocks
/// (r: warp requests a move, L: a dependent load's latency), plus c L_c for the warp design's c
/// collectives a move. No overlap between the warps' requests beyond the warps themselves; no
/// instruction-issue limit.
double latency_bound(const device_spec& d, const per_item& p, double warps, double sms) {
  const double clocks =
      p.requests * d.global_latency + p.shared_requests * d.shared_latency + p.collectives * d.collective_latency;
  return clocks > 0 && warps > 0 ? sms * d.clock_hz * warps / clocks : INFINITY;
}

prediction predict(const device_spec& d, const per_item& p, const cached_item* c = nullptr, double sms = 0) {
  prediction r;
  const double wavefronts_per_s = d.sms * d.clock_hz;  // 128 B a clock per SM
  r.dram = bound(d.dram_bytes_per_s, p.sectors * sector_bytes);
  r.shared = bound(wavefronts_per_s, p.wavefronts);
  r.predicted = std::min(r.dram, r.shared);
  if (c && c->used) {  // the caches' bounds (sms: those in use), which may replace every-sector-from-DRAM
    const double in_use = sms > 0 ? sms : d.sms;
    r.dram_after_l2 = bound(d.dram_bytes_per_s, c->dram_sectors(c->capacity(d, in_use)) * sector_bytes);
    r.l2 = bound(d.l2_bytes_per_s * in_use / d.sms, c->l2_sectors * sector_bytes);
    if (c->predicts) r.predicted = std::min({r.dram_after_l2, r.l2, r.shared});
  }
  r.coalesced =
      std::min(bound(d.dram_bytes_per_s, p.ideal_sectors * sector_bytes), bound(wavefronts_per_s, p.ideal_wavefronts));
  r.reads_cached = std::min(bound(d.dram_bytes_per_s, p.store_sectors * sector_bytes), r.shared);
  return r;
}

struct row {
  std::string kind, name, unit, bench, note;
  per_item per;
  double warps_per_sm = 0;     ///< anneal: resident warps a SM at the plan's occupancy (0: no latency bound)
  double host_s_per_item = 0;  ///< dbf_batch: the stream threads' part of each set: (parse_s +) unroll_s + test_s
  double unroll_s = 0;         ///< dbf_batch: unrolling a set, on one of the stream's threads
  double test_s = 0;           ///< dbf_batch: a set's curves and QPA test, on one of the stream's threads
  bool from_file = false;      ///< dbf_batch: the sets read from a .jsonl (BM_DbfFromFile), not from memory
  double read_s = 0;           ///< dbf_batch from a file: reading a set's line, on the one reading thread
  double parse_s = 0;          ///< dbf_batch from a file: parsing it, on one of the stream's threads
  double efficiency = 1;       ///< dbf_batch: the share of the kernel's bound a GPU achieved (measured)
  double call_host_s = 0;      ///< dbf_batch: the device call's host share a set (planning, packing, unpacking)
  double path_clocks = 0;      ///< dbf_batch on chip: a block's time by the latency model (clocks; 0: not on chip)
  double issue_clocks = 0;     ///< dbf_batch on chip: a table's warp instructions over an SM's 4 schedulers
  double tables_per_item = 0;  ///< dbf_batch: tables (blocks) a set
  int blocks_per_sm = 0;       ///< dbf_batch on chip: blocks an SM holds
  double copied_bytes = 0;     ///< dbf_batch: bytes a set copied up and down
  double launches = 0;         ///< dbf_table_time: kernels a table
  bool graph = false;          ///< dbf_table_time: launched as one CUDA graph
  double sectors_per_request = 0, ideal_per_request = 0, wavefronts_per_request = 0;
  std::string step;              ///< anneal: the step its kernel runs (issue_estimate.py's name)
  int warps = 0;                 ///< anneal: W
  double lanes_per_request = 0;  ///< anneal: the lanes a warp's memory request keeps active
  double warp_instructions = 0;  ///< anneal: warp instructions a move (--issue; 0: unknown)
  double warp_instructions_low = 0, warp_instructions_high = 0;
  cached_item cache;  ///< the cache model's view (shown where cache.used; predicted from where cache.predicts)
  std::vector<prediction> pred;
};

std::string fmt(double x) {
  if (std::isinf(x)) return "-";
  char b[32];
  std::snprintf(b, sizeof b, "%.3g", x);
  return b;
}

/// The annealing kernel's counts per move at `per_launch` iterations a launch: a launch of no
/// iterations counts the per-launch part (the staging of the types, the on-chip kernel's copies in
/// and out), a launch of `n` the rest, which is spread over n moves per chain. The chains start
/// from the strings `warm` moves of annealing on the CPU reached (0: the estimator's initial ones)
/// and move as the estimator's do (chains_of), or over the whole string (`whole_string`).
row anneal_row(const std::string& name, int warps, std::uint64_t n, std::uint64_t per_launch, std::uint64_t warm,
               const std::string& bench, std::optional<chain_packing> packing = std::nullopt,
               std::optional<chain_design> design = std::nullopt, bool whole_string = false) {
  const problem prob = bench_cases::voronoi(warps);
  const cuda_chain_plan plan = plan_cuda_chains(prob.view(), packing, design);
  // One block of a thread a chain, or 8 chains of a warp each: the counts per move do not depend on
  // the count.
  const std::uint32_t chains = plan.design == chain_design::warp ? 8 : plan.block;
  chain_setup setup = bench_cases::chains_of(prob, chains);
  setup.packing = packing;
  setup.design = design;
  if (whole_string) {  // as the H200 ran the benchmark (the held-out check)
    setup.params.reach = 0;
    setup.params.far = 0;
  }
  if (warm > 0) {
    // The counted moves start from annealed strings, not from the constructive ones: a benchmark's
    // chains run thousands of moves, and how far a rebuild reaches (where it rejoins the old
    // schedule) differs between the two. The CPU runner makes the same trajectories as the kernels
    // (the ...MatchesCpu tests), so it anneals them, and each chain starts from its best string.
    auto cpu = make_cpu_runner(setup, 0);
    cpu->advance(warm);
    setup.initial.clear();
    for (std::uint32_t c = 0; c < chains; ++c) {
      const std::vector<std::uint16_t> b = cpu->best_string(c);
      setup.initial.insert(setup.initial.end(), b.begin(), b.end());
    }
  }
  auto runner = make_cuda_runner(setup);
  runner->advance(4);  // past the first moves of the counted strings
  emu::cache_counts cache_a, cache_b;
  const auto counted = [&](std::uint64_t iterations, emu::cache_counts& cache) {
    emu::reset_counts();
    runner->advance(iterations);
    cache = sum_cache({"kernel"});
    return sum_counts({"kernel"});  // anneal_kernel is launched as `kernel` (launch_with)
  };
  const emu::kernel_counts a = counted(0, cache_a), b = counted(n, cache_b);
  if (a.launches != 1 || b.launches != 1) std::fprintf(stderr, "warpspan_gpu_model: expected one launch each\n");
  const per_item pa = divide(a, 1.0), pb = divide(b, 1.0);
  const double moves = static_cast<double>(n) * chains, launch_moves = static_cast<double>(per_launch) * chains;
  const auto per_move = [moves, launch_moves](double fixed, double launch) {  // by value: kept by r.cache
    return std::max(0.0, launch - fixed) / moves + fixed / launch_moves;
  };
  row r;
  r.kind = "anneal";
  r.name = name;
  r.unit = "moves/s";
  r.bench = bench;
  r.per.requests = per_move(pa.requests, pb.requests);
  r.per.sectors = per_move(pa.sectors, pb.sectors);
  r.per.ideal_sectors = per_move(pa.ideal_sectors, pb.ideal_sectors);
  r.per.store_sectors = per_move(pa.store_sectors, pb.store_sectors);
  r.per.shared_requests = per_move(pa.shared_requests, pb.shared_requests);
  r.per.wavefronts = per_move(pa.wavefronts, pb.wavefronts);
  r.per.ideal_wavefronts = per_move(pa.ideal_wavefronts, pb.ideal_wavefronts);
  r.per.atomics = per_move(pa.atomics, pb.atomics);
  r.per.collectives = per_move(pa.collectives, pb.collectives);
  // The caches, per move alike (each counted launch starts with an empty L2: the moves before it
  // were not counted); the counted blocks' share of the L2 is theirs among the warps a device
  // holds at the plan's occupancy (cached_item::capacity).
  r.cache.l1_hits = per_move(static_cast<double>(cache_a.l1_hit_sectors), static_cast<double>(cache_b.l1_hit_sectors));
  r.cache.l2_sectors = per_move(static_cast<double>(cache_a.l2_sectors), static_cast<double>(cache_b.l2_sectors));
  r.cache.dram_sectors = [cache_a, cache_b, per_move](double bytes) {
    const auto at = static_cast<std::uint64_t>(bytes);
    return per_move(static_cast<double>(cache_a.dram_sectors(at)), static_cast<double>(cache_b.dram_sectors(at)));
  };
  r.cache.counted_blocks = static_cast<double>(b.blocks);
  r.cache.resident_per_sm = plan.threads_per_sm / 32.0;
  r.cache.used = true;
  r.sectors_per_request = static_cast<double>(b.global_sectors) / std::max<double>(1, b.global_requests);
  r.ideal_per_request = static_cast<double>(b.global_ideal_sectors) / std::max<double>(1, b.global_requests);
  r.wavefronts_per_request = static_cast<double>(b.shared_wavefronts) / std::max<double>(1, b.shared_requests);
  r.warps_per_sm = plan.threads_per_sm / 32.0;
  r.warps = warps;
  // The warp kernel's rebuild for the packing (rejoin_registers): bench/count/team_step.cpp's names.
  const auto rejoin = [](std::uint32_t slots, std::uint32_t words) {
    return "rejoin" + std::to_string(slots) + "x" + std::to_string(words);
  };
  r.step =
      plan.design == chain_design::thread ? std::string("thread")
      : plan.packing == chain_packing::compact
          ? rejoin(rejoin_registers<chain_packing::compact>::slots, rejoin_registers<chain_packing::compact>::words)
          : rejoin(rejoin_registers<chain_packing::narrow>::slots, rejoin_registers<chain_packing::narrow>::words);
  r.lanes_per_request = static_cast<double>(b.global_accesses + b.shared_accesses) /
                        std::max<double>(1, static_cast<double>(b.global_requests + b.shared_requests));
  r.note = std::string(plan.design == chain_design::warp ? "a warp a chain, " : "") + packing_name(plan.packing) +
           " state " + (plan.on_chip ? "on chip" : "in global memory") + " (" + std::to_string(plan.chain_bytes) +
           " bytes a chain), " + std::to_string(plan.block) + " threads a block, " +
           std::to_string(plan.threads_per_sm / 32) + " warps a SM, " + std::to_string(per_launch) + " moves a launch" +
           (plan.design == chain_design::warp ? ", " + fmt(r.per.collectives) + " warp collectives a move" : "");
  return r;
}

row dbf_row(std::uint32_t vertices, bool staged) {
  const unrolled_graph g = bench_cases::table_one_graph(vertices);
  emu::reset_counts();
  (void)cuda_dbf_table(g, staged, 256, false, nullptr);
  const emu::kernel_counts k = sum_counts({"dbf_level_kernel"});
  const emu::cache_counts cache = sum_cache({"dbf_level_kernel"});
  row r;
  r.kind = "dbf";
  r.name = std::string("dbf table, ") + std::to_string(vertices) + " vertices, " + (staged ? "cuda-sm" : "cuda");
  r.unit = "cells/s";
  r.bench = "BM_DbfTable/backend:" + std::to_string(staged ? 3 : 2) + "/vertices:" + std::to_string(vertices) +
            "/block:256/manual_time";
  r.per = divide(k, static_cast<double>(g.cells()));
  r.sectors_per_request = static_cast<double>(k.global_sectors) / std::max<double>(1, k.global_requests);
  r.ideal_per_request = static_cast<double>(k.global_ideal_sectors) / std::max<double>(1, k.global_requests);
  r.wavefronts_per_request = static_cast<double>(k.shared_wavefronts) / std::max<double>(1, k.shared_requests);
  r.cache = cached(cache, static_cast<double>(g.cells()), static_cast<double>(k.blocks), 0);
  r.note = std::to_string(g.cells()) + " cells, " + std::to_string(g.preds.size()) + " edges, block 256";
  return r;
}

/// Back-to-back launches on one stream: the H200 run of 2026-11-27 measured 3.77 to 4.00 us from one
/// empty kernel's start to the next's (BM_CalibrateLaunchGap, graph:0), the host's enqueue. A node of
/// a CUDA graph: 1.5 us assumed, not yet measured (BM_CalibrateLaunchGap/graph:1 measures it).
constexpr double stream_launch_gap_s = 3.9e-6, graph_node_gap_s = 1.5e-6;

/// One table's kernel time (issue 43, item 3; bar: 0.2 ms for 50 vertices on an H100), as dbf runs
/// it: the level kernels, then the steps built on the device, launched one by one (`graph` false, as
/// the H200 measured it) or as one graph. Its prediction is the table's work at the smaller of the
/// DRAM and shared bounds plus a gap a launch: the work and the gaps are not overlapped, an upper
/// estimate where kernels outlast the gaps.
std::vector<row> dbf_time_rows(std::uint32_t vertices) {
  const unrolled_graph g = bench_cases::table_one_graph(vertices);
  emu::reset_counts();  // the kernels and their counts are the same either way: counted once
  (void)cuda_dbf_table(g, false, 256, false, nullptr, nullptr, {.graph = true, .steps_only = true});
  const std::vector<std::string> kernels = {"dbf_level_kernel", "dbf_tile_min_kernel", "dbf_tile_steps_kernel",
                                            "dbf_steps_gather_kernel"};
  const emu::kernel_counts k = sum_counts(kernels);
  const emu::cache_counts cache = sum_cache(kernels);
  // What the device holds of the table: the rows a later level still reads, and the running minimum.
  const detail::level_plan kept = detail::plan_levels(g, false);
  const double kept_mb = static_cast<double>((std::size_t{kept.slots} + 1) * g.columns() * sizeof(std::uint32_t)) / 1e6;
  std::vector<row> out;
  for (bool graph : {false, true}) {
    row r;
    r.kind = "dbf_table_time";
    r.name = "dbf table, " + std::to_string(vertices) + " vertices, cuda, " +
             (graph ? "one graph" : "launch by launch") + ", steps on the device: kernel time";
    r.unit = "ms";
    r.bench = "BM_DbfTableLaunch/backend:2/vertices:" + std::to_string(vertices) + "/launch:" + (graph ? "2" : "0") +
              "/manual_time";
    r.per = divide(k, 1.0);
    r.cache = cached(cache, 1.0, static_cast<double>(k.blocks), 0);
    r.launches = static_cast<double>(k.launches);
    r.graph = graph;
    r.sectors_per_request = static_cast<double>(k.global_sectors) / std::max<double>(1, k.global_requests);
    r.ideal_per_request = static_cast<double>(k.global_ideal_sectors) / std::max<double>(1, k.global_requests);
    r.wavefronts_per_request = static_cast<double>(k.shared_wavefronts) / std::max<double>(1, k.shared_requests);
    r.note = std::to_string(g.cells()) + " cells, " + std::to_string(k.launches) + " kernels, " +
             fmt((graph ? graph_node_gap_s : stream_launch_gap_s) * 1e6) + " us a launch" +
             (graph ? " (a graph's node: assumed)" : " (the H200's launch gap)") + "; " + std::to_string(kept.slots) +
             " of " + std::to_string(g.rows) + " rows kept at once, " + fmt(kept_mb) + " MB with the running minimum";
    out.push_back(std::move(r));
  }
  return out;
}

/// The device call around the kernel until 2026-11-29: the H200 run of 2026-11-27 measured 12.1 ms
/// of wall time around 4.64 ms of kernel for 1,000 sets of 3 x 10 vertices in one call
/// (BM_DbfBatch, on chip), 7.46 us a set, when each call still allocated its device and pinned
/// memory and the chunks took turns on the device. Kept for the note's comparison only: the call's
/// parts are now its host share (BM_DbfHostShare's call_host_us/set, on the chunk's own worker
/// thread since each chunk in flight has its own workspace) and its copies and waits (below).
constexpr double old_call_s_per_set = 7.46e-6;
/// Host-device copies, pinned, either way: 25 GB/s, about half of what a PCIe Gen5 x16 link
/// carries (assumed until BM_CalibrateCopy runs on a lent GPU); and each call's fixed cost
/// (its launch, memset, three copies and two waits): 30 us, assumed, for a chunk of at most
/// dbf_chunk_max_sets sets.
constexpr double copy_bytes_per_s = 25e9, call_fixed_s = 30e-6;
/// Chunks in flight, each with its own worker thread making its device calls (analyse_sets).
constexpr double chunk_workers = 2;
/// Host cores of the lent GPU machines: the EDF pipeline's test pool.
constexpr double host_cores = 16;
/// The share of its bound each dbf batch kernel achieved on the H200 (2026-11-27): the on-chip
/// kernel 4.64 ms for 1,000 sets of 3 x 10 vertices against a shared-memory bound of 0.594 ms; the
/// staged batch kernel (50-vertex windows fall off the chip) 104.3 ms against a DRAM bound of 82.3 ms.
double measured_efficiency(std::uint32_t vertices) { return vertices <= 10 ? 0.594 / 4.64 : 82.3 / 104.3; }

/// BM_DbfHostShare's figures from a release build (`--host-share FILE`, its JSON), per vertex count.
struct host_share {
  double unroll_s = 0, test_s = 0, read_s = 0, parse_s = 0;  // read and parse: 0 in files before 2026-11-29
  double call_s = 0;  // the device call's host share: 0 in files before 2026-11-29 (the second)
};
std::map<std::uint32_t, host_share> read_host_share(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::map<std::uint32_t, host_share> out;
  for (const auto& b : j.at("benchmarks")) {
    const std::string name = b.at("name");
    const auto at = name.find("BM_DbfHostShare/sets:");
    const auto v = name.find("/vertices:");
    if (at != 0 || v == std::string::npos) continue;
    out[static_cast<std::uint32_t>(std::stoul(name.substr(v + 10)))] = {
        b.at("unroll_us/set").get<double>() * 1e-6, b.at("curves_and_test_us/set").get<double>() * 1e-6,
        b.value("read_us/set", 0.0) * 1e-6, b.value("parse_us/set", 0.0) * 1e-6,
        b.value("call_host_us/set", 0.0) * 1e-6};
  }
  return out;
}

/// bench/count/issue_estimate.py's JSON: per (step, W), the x86 instructions of one lane's move and,
/// for the warp design, the warp instructions they stand for (low: the inlined helpers counted as
/// shared, high: as serial; `mid`: each helper instruction in the part it was inlined into, where
/// the file gives it, else the midpoint of the two).
struct issue_row {
  double x86 = 0, low = 0, high = 0, mid = 0;
};
std::map<std::pair<std::string, int>, issue_row> read_issue(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("cannot read " + path);
  const nlohmann::json j = nlohmann::json::parse(in);
  std::map<std::pair<std::string, int>, issue_row> out;
  for (const auto& r : j.at("rows")) {
    issue_row x;
    x.x86 = r.at("x86_per_move").get<double>();
    x.low = r.value("warp_instructions_low", 0.0);
    x.high = r.value("warp_instructions_high", 0.0);
    x.mid = r.value("warp_instructions", (x.low + x.high) / 2);
    out[{r.at("step").get<std::string>(), r.at("warps").get<int>()}] = x;
  }
  return out;
}

/// Warp instructions an SM issues a clock: four schedulers of one each (Volta to Hopper).
constexpr double issue_per_clock_per_sm = 4;

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARPSPAN_MODEL_ASAN 1
#endif
#endif
#if defined(WARPSPAN_MODEL_ASAN)
constexpr const char* host_build = " (an AddressSanitizer build: several times a release build's)";
#else
constexpr const char* host_build = "";
#endif

/// The on-chip dbf kernel's latency model (issue 43). The kernel runs a block a table whose threads
/// meet at a barrier after every level of every pass; with the one window that fills an SM's shared
/// memory, its warps cannot hide their loads' latency (the H200 ran it at 12.8 % of its
/// shared-memory bound). A block's time is its critical path as the emulation counts it
/// (emu::kernel_counts::path_*: per barrier interval, the loads of the warp that issued the most,
/// each at a dependent load's latency: 28.7 clocks shared, 280 global, the H200 calibration) plus a
/// cost per interval (the barrier, and the work between loads the path does not count), fitted once
/// to the H200's measured batch below; the SMs take the blocks in waves of the blocks one SM holds
/// (sm_90's occupancy arithmetic with nvcc's 32 registers, cuda/emulation/resource_usage.tsv),
/// and each launch adds the H200's measured launch gap.
struct onchip_path {
  double shared = 0, global = 0, intervals = 0;  ///< a block's (table's), averaged
  double blocks = 0;
  unsigned threads = 0;
  std::size_t smem = 0;
  int per_sm = 0;
  /// At the H200's calibrated latencies (the model's devices share them).
  double clocks(double per_interval) const {
    return shared * h200_spec.shared_latency + global * h200_spec.global_latency + intervals * per_interval;
  }
};
/// dbf_onchip_kernel as nvcc compiled it (cuda/emulation/resource_usage.tsv): 32 registers.
constexpr kernel_resources onchip_resources{32, 0, 1024};
onchip_path path_of(const emu::kernel_counts& k) {
  onchip_path p;
  p.blocks = static_cast<double>(k.blocks);
  if (k.blocks == 0) return p;
  p.shared = static_cast<double>(k.path_shared_loads) / p.blocks;
  p.global = static_cast<double>(k.path_global_loads) / p.blocks;
  p.intervals = static_cast<double>(k.path_intervals) / p.blocks;
  p.threads = static_cast<unsigned>(k.threads / k.blocks);
  p.smem = k.dynamic_shared;
  p.per_sm = blocks_per_sm(sm90_limits(), onchip_resources, static_cast<int>(p.threads), p.smem).blocks;
  return p;
}
/// The on-chip kernel's counts for `ptrs` at exactly `block` threads and passes of `tile` columns.
onchip_path measure_path(const std::vector<const unrolled_graph*>& ptrs, unsigned block, unsigned tile) {
  dbf_workspace ws;
  emu::reset_counts();
  (void)cuda_dbf_steps_batch(ptrs, block, tile, nullptr, nullptr, &ws);
  return path_of(sum_counts({"dbf_onchip_kernel"}));
}
/// The H200's on-chip batch of 2026-11-27 (bench/results/current/gpu_h200_2026-11-27/bench_dbf_home.json,
/// BM_DbfBatch/backend:4/sets:1000/vertices:10): one launch of 3,000 blocks of 256 threads, passes
/// of 512 columns (2 x the threads, as the plan was then), 4.643 ms of kernel.
constexpr double h200_onchip_ms = 4.643, h200_onchip_tables = 3000;
double waves(double blocks, int per_sm, double sms) { return std::ceil(blocks / (sms * std::max(per_sm, 1))); }
/// The cost an interval, fitted: the H200's kernel time less its critical path's loads, a block
/// after another in its waves, over its intervals.
double fit_interval_clocks(const onchip_path& old) {
  const double per_block = (h200_onchip_ms * 1e-3 - stream_launch_gap_s) * h200_spec.clock_hz /
                           waves(h200_onchip_tables, old.per_sm, h200_spec.sms);
  return (per_block - old.clocks(0)) / old.intervals;
}
struct onchip_fit {
  double per_interval = 0;
  double issue = 0;  ///< the sets' tables: a table's warp instructions over 4 a clock (issue_clocks_of)
  onchip_path old, now;
  std::string held_out;  ///< markdown rows: the fork-join tables BM_DbfPredecessors ran on the H200
};
/// Fits the interval cost on the sets of 3 x 10 vertices as the H200 ran them, predicts the five
/// fork-join batches the same run measured (held out), and counts the batch as the library runs it
/// now (its own plan: tile 0).
onchip_fit fit_onchip(const std::vector<const unrolled_graph*>& ptrs) {
  onchip_fit f;
  f.old = measure_path(ptrs, 256, 512);
  f.per_interval = fit_interval_clocks(f.old);
  f.now = measure_path(ptrs, 256, 0);
  // BM_DbfPredecessors/variant:4 (256 copies, block 256, one pass: the whole table fits), kernel ms.
  const std::pair<std::uint32_t, double> measured[] = {
      {2, 0.01453}, {8, 0.01711}, {32, 0.01609}, {128, 0.02682}, {512, 0.06057}};
  const std::size_t limit = sm90_limits().shared_per_block_optin;
  for (const auto& [width, ms] : measured) {
    const unrolled_graph g = unroll(fork_join_task(width, 1000));
    detail::window_plan plan;
    if (!detail::plan_window(g, 256, 0, limit, plan)) continue;
    // One pass, exactly 256 threads: the tile asked for is the table's columns.
    onchip_path p = measure_path({&g}, 256, static_cast<unsigned>(g.columns()));
    p.smem = plan.bytes;  // the window as the H200's plan made it (one pass, no wcet's margin)
    p.per_sm = blocks_per_sm(sm90_limits(), onchip_resources, 256, p.smem).blocks;
    const double predicted =
        (waves(256, p.per_sm, h200_spec.sms) * p.clocks(f.per_interval) / h200_spec.clock_hz + stream_launch_gap_s) *
        1e3;
    char line[320];
    std::snprintf(line, sizeof line,
                  "| fork-join, %u predecessors, 256 tables | %.0f | %.0f | %.0f | %d | %.4f | %.4f | %+.0f %% |\n",
                  width, p.shared, p.global, p.intervals, p.per_sm, predicted, ms, (predicted / ms - 1) * 100);
    f.held_out += line;
  }
  return f;
}

std::optional<onchip_fit> onchip_model;  // the latency model's fit, once a dbf_batch row made it

/// The on-chip kernel's instructions a cell, counted in its PTX (nvcc 13.0, sm_90, -O3): 66 around
/// the cell (its row and column, the checks, the store) and 20 a predecessor (the tuple, the
/// predecessor's cell, the compare), the loop unrolled by four. A cell below its row's wcet leaves
/// after about 29: counted as a full one.
constexpr double cell_instructions = 66, pred_instructions = 20;
/// A table's warp instructions on its cells, over the 4 warp instructions an SM issues a clock.
double issue_clocks_of(const unrolled_graph& g) {
  double lane = 0;
  for (std::uint32_t r = 0; r < g.rows; ++r)
    lane += static_cast<double>(g.columns()) *
            (cell_instructions + pred_instructions * (g.pred_begin[r + 1] - g.pred_begin[r]));
  return lane / 32 / issue_per_clock_per_sm;
}

/// Design-space exploration end to end (issue 43): sets of 3 tasks of `vertices` vertices (wcet up
/// to 1,000, seed 7: BM_DbfEndToEnd's) through the on-chip batch. The kernel's counts come from
/// `sample` sets; the host's part of a set (unrolling, the curve from its steps, the QPA test) is
/// timed here on `host_sample` sets, on one core of this machine, in this build.
row dbf_batch_row(std::uint32_t vertices, std::uint64_t sample, std::uint64_t host_sample, const host_share* given) {
  const task_generator_options o = bench_cases::dse_sets(vertices);
  std::vector<unrolled_graph> graphs;
  for (std::uint64_t s = 0; s < sample; ++s)
    for (const task& t : generate_task_set(o, s).tasks) graphs.push_back(unroll(t));
  std::vector<const unrolled_graph*> ptrs;
  std::size_t cells = 0;
  for (const auto& g : graphs) {
    ptrs.push_back(&g);
    cells += g.cells();
  }
  // A session's workspace, warm as in a run (its memory grown by a first call, not counted): the
  // second call's totals time the call's host share and count its copies.
  dbf_workspace workspace;
  (void)cuda_dbf_steps_batch(ptrs, 256, 0, nullptr, nullptr, &workspace);
  const dbf_workspace::totals warm = workspace.done();
  emu::reset_counts();
  std::size_t fell_back = 0;
  (void)cuda_dbf_steps_batch(ptrs, 256, 0, nullptr, &fell_back, &workspace);
  dbf_workspace::totals call = workspace.done();
  call.host_seconds -= warm.host_seconds;
  call.bytes_up -= warm.bytes_up;
  call.bytes_down -= warm.bytes_down;
  const emu::kernel_counts k = sum_counts({"dbf_onchip_kernel", "dbf_batch_kernel", "dbf_steps_kernel"});
  row r;
  r.kind = "dbf_batch";
  r.name = "dbf batch, sets of 3 tasks x " + std::to_string(vertices) + " vertices, cuda-sm on chip, end to end";
  r.unit = "sets/s";
  r.bench = "BM_DbfEndToEnd/backend:3/sets:1000/vertices:" + std::to_string(vertices) + "/manual_time";
  r.per = divide(k, static_cast<double>(sample));
  r.sectors_per_request = static_cast<double>(k.global_sectors) / std::max<double>(1, k.global_requests);
  r.ideal_per_request = static_cast<double>(k.global_ideal_sectors) / std::max<double>(1, k.global_requests);
  r.wavefronts_per_request = static_cast<double>(k.shared_wavefronts) / std::max<double>(1, k.shared_requests);
  // The host's part: everything but the tables (computed on the CPU here, untimed), or a release
  // build's BM_DbfHostShare figures when given.
  double unroll = 0, test = 0, parse = 0;
  for (std::uint64_t s = 0; !given && s < host_sample; ++s) {
    const task_set set = generate_task_set(o, s);
    const std::string text = task_set_json(set, true);
    auto t0 = std::chrono::steady_clock::now();
    (void)parse_task_set(text, "model.jsonl:1");
    parse += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    t0 = std::chrono::steady_clock::now();
    const std::vector<unrolled_graph> gs = unroll_all(set, dbf_options{});
    unroll += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    std::vector<dbf_table> stepped;
    for (const auto& g : gs) stepped.push_back(bench_cases::steps_table(g));
    t0 = std::chrono::steady_clock::now();
    std::vector<dbf_curve> curves;
    for (std::size_t i = 0; i < gs.size(); ++i) curves.emplace_back(stepped[i], gs[i]);
    (void)edf_test(curves);
    test += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  r.unroll_s = given ? given->unroll_s : unroll / static_cast<double>(host_sample);
  r.test_s = given ? given->test_s : test / static_cast<double>(host_sample);
  r.parse_s = given ? given->parse_s : parse / static_cast<double>(host_sample);
  r.read_s = given ? given->read_s : 0;
  r.host_s_per_item = r.unroll_s + r.test_s;
  r.efficiency = measured_efficiency(vertices);
  r.tables_per_item = static_cast<double>(graphs.size()) / static_cast<double>(sample);
  if (fell_back == 0) {  // every table on the chip: the latency model (fit_onchip) sets the kernel's time
    onchip_model = fit_onchip(ptrs);
    r.path_clocks = onchip_model->now.clocks(onchip_model->per_interval);
    r.blocks_per_sm = onchip_model->now.per_sm;
    for (const auto& g : graphs) r.issue_clocks += issue_clocks_of(g) / static_cast<double>(graphs.size());
    onchip_model->issue = r.issue_clocks;
  }
  // The call's host share: a release build's BM_DbfHostShare where given (call_host_us/set), else
  // as the workspace timed it here (one call of `sample` sets: a noisy figure).
  const bool call_given = given && given->call_s > 0;
  r.call_host_s = call_given ? given->call_s : call.host_seconds / static_cast<double>(sample);
  r.copied_bytes = static_cast<double>(call.bytes_up + call.bytes_down) / static_cast<double>(sample);
  r.note = std::to_string(sample) + " sets counted (" + std::to_string(cells / sample) + " cells a set, " +
           std::to_string(fell_back) + " tables off the chip); host: unroll " + fmt(r.unroll_s * 1e6) +
           " us, curves and test " + fmt(r.test_s * 1e6) + " us a set on one core " +
           (given ? std::string("(a release build's BM_DbfHostShare)") : std::string("here") + host_build) + "; " +
           "the device call's host share " + fmt(r.call_host_s * 1e6) + " us a set (" +
           (call_given ? std::string("BM_DbfHostShare") : std::string("timed here") + host_build) + "), " +
           fmt(r.copied_bytes) + " bytes a set copied; " +
           (r.path_clocks > 0 ? "the kernel by the latency model (" + fmt(r.path_clocks) + " clocks a table; issue " +
                                    fmt(r.issue_clocks) + ", " + std::to_string(onchip_model->now.threads) +
                                    " threads a block, " + std::to_string(r.blocks_per_sm) + " a SM)"
                              : "the kernel at " + fmt(r.efficiency * 100) + " % of its bound (measured)");
  return r;
}

/// The same batch from a .jsonl file (BM_DbfFromFile, `dbf --batch SETS.jsonl`): the one reading
/// thread reads each set's line (its serial stage, beside the stream's), the stream's threads parse
/// it before they unroll it. Without a release build's read and parse figures (`--host-share`), none.
std::optional<row> dbf_from_file_row(const row& in_memory, std::uint32_t vertices) {
  if (in_memory.read_s <= 0 || in_memory.parse_s <= 0) return std::nullopt;
  row r = in_memory;
  r.from_file = true;
  r.name = "dbf batch, sets of 3 tasks x " + std::to_string(vertices) +
           " vertices, cuda-sm on chip, from a .jsonl file, end to end";
  r.bench = "BM_DbfFromFile/backend:3/sets:1000/vertices:" + std::to_string(vertices) + "/manual_time";
  r.host_s_per_item = r.parse_s + r.unroll_s + r.test_s;
  r.note += "; from the file: reading " + fmt(r.read_s * 1e6) + " us a set on the reading thread, parsing " +
            fmt(r.parse_s * 1e6) + " us on one core";
  return r;
}

void json_number(std::string& out, const char* key, double x, bool comma = true) {
  char b[96];
  if (std::isinf(x))
    std::snprintf(b, sizeof b, "\"%s\": null", key);
  else
    std::snprintf(b, sizeof b, "\"%s\": %.6g", key, x);
  out += b;
  if (comma) out += ", ";
}

}  // namespace

/// The H200's three annealing measurements (bench/results/current/gpu_h200_2026-11-27/bench.json, wide
/// chains as they then ran) against the bounds at the occupancy each run had. Held out: the model's
/// constants come from the calibration microbenchmarks of the same run, not from these. The counts
/// are of chains that move as those runs' did (over the whole string), from their initial strings.
static void held_out(std::uint64_t moves16, std::uint64_t moves3, std::uint64_t per_launch) {
  const device_spec& h200 = h200_spec;
  std::vector<row> rows;
  rows.push_back(anneal_row("Voronoi 5L9C2L9C, W = 16, sigma L=1,C=4, wide", 16, moves16, per_launch, 0,
                            "BM_ChainsCudaWide/0/2000/16/", chain_packing::wide, chain_design::thread, true));
  rows.push_back(anneal_row("Voronoi 5L9C2L9C, W = 3, sigma L=1,C=4, wide", 3, moves3, per_launch, 0,
                            "BM_ChainsCudaWide/0/2000/3/", chain_packing::wide, chain_design::thread, true));
  const auto find = [&](const std::string& name) -> const row* {
    for (const row& r : rows)
      if (r.name == name) return &r;
    return nullptr;
  };
  struct run {
    const char* what;
    const char* row_name;
    double sms, warps, measured;
  };
  // 16,896 chains are 66 blocks of 256 (66 SMs, 8 warps each); 67,584 are 264 (132 SMs, 2 blocks
  // of 8 warps); W = 3's 25,344 are 132 blocks of 192 (6 warps).
  const run runs[] = {
      {"W = 16, wide, global, 16,896 chains (66 SMs x 8 warps)", "Voronoi 5L9C2L9C, W = 16, sigma L=1,C=4, wide", 66, 8,
       7.6918e6},
      {"W = 16, wide, global, 67,584 chains (132 SMs x 16 warps)", "Voronoi 5L9C2L9C, W = 16, sigma L=1,C=4, wide", 132,
       16, 1.38138e7},
      {"W = 3, wide, on chip, 25,344 chains (132 SMs x 6 warps)", "Voronoi 5L9C2L9C, W = 3, sigma L=1,C=4, wide", 132,
       6, 5.63959e8},
  };
  std::printf(
      "\n## Held out: the H200's annealing runs against the model\n\n"
      "The constants are the H200 calibration's (latencies, scattered-sector bandwidth); the\n"
      "three runs below did not set them. Each at the occupancy it ran with; the scattered-sector\n"
      "bound scaled by the SMs in use. Counted as those runs moved (over the whole string, not\n"
      "estimate's reach), from the initial strings. *With the caches*: the prediction if the cache\n"
      "model's bounds replaced every-sector-from-DRAM (the scattered sectors those DRAM serves after\n"
      "the L2, the L2 shared by the warps the run had resident): the annealing rows do not take it,\n"
      "since it does not bring these runs closer.\n\n"
      "| run | latency bound | scattered-sector bound | scattered, after the L2 | DRAM, no caches | DRAM after the L2 "
      "| "
      "L2 bound | shared bound | **predicted** | measured | error | with the caches | error |\n"
      "|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const run& x : runs) {
    const row* r = find(x.row_name);
    if (!r) continue;
    cached_item cache = r->cache;  // the L2 shared by the warps this run had resident
    cache.resident_per_sm = x.warps;
    const prediction p = predict(h200, r->per, &cache, x.sms);
    const double latency = latency_bound(h200, r->per, x.warps, x.sms);
    const double sms_share = x.sms / h200.sms;
    const double scatter = bound(h200.scatter_bytes_per_s * sms_share, r->per.sectors * sector_bytes);
    const double scatter_cached =
        bound(h200.scatter_bytes_per_s * sms_share, cache.dram_sectors(cache.capacity(h200, x.sms)) * sector_bytes);
    const double predicted = std::min({p.predicted, latency, scatter});
    const double with_caches = std::min({p.dram_after_l2, p.l2, p.shared, latency, scatter_cached});
    std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | **%s** | %s | %+.0f %% | %s | %+.0f %% |\n", x.what,
                fmt(latency).c_str(), fmt(scatter).c_str(), fmt(scatter_cached).c_str(), fmt(p.dram).c_str(),
                fmt(p.dram_after_l2).c_str(), fmt(p.l2).c_str(), fmt(p.shared).c_str(), fmt(predicted).c_str(),
                fmt(x.measured).c_str(), (predicted / x.measured - 1) * 100, fmt(with_caches).c_str(),
                (with_caches / x.measured - 1) * 100);
  }
}

int main(int argc, char** argv) {
  std::string json_path, host_share_path, issue_path, only;
  bool quick = false;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--json") == 0 && i + 1 < argc)
      json_path = argv[++i];
    else if (std::strcmp(argv[i], "--quick") == 0)
      quick = true;
    else if (std::strcmp(argv[i], "--host-share") == 0 && i + 1 < argc)
      host_share_path = argv[++i];
    else if (std::strcmp(argv[i], "--issue") == 0 && i + 1 < argc)
      issue_path = argv[++i];
    else if (std::strcmp(argv[i], "--only") == 0 && i + 1 < argc)
      only = argv[++i];  // rows whose name holds it ("dbf": every dbf row); for trying a change
    else {
      std::fprintf(stderr,
                   "usage: warpspan_gpu_model [--json FILE] [--quick] [--host-share BM_DbfHostShare.json] "
                   "[--issue issue_estimate_cpu.json] [--only TEXT]\n");
      return 2;
    }
  }
  if (!emu::race_check_traced()) {
    std::fprintf(stderr, "warpspan_gpu_model: the kernels are not traced (build with clang: cpu-emu or clang-asan)\n");
    return 1;
  }
  emu::set_race_check(false);          // counts only (the tests run the race checker)
  emu::set_thread_order("ascending");  // warps lane after lane: one warp's requests held at a time
  emu::set_counting(true);

  std::map<std::uint32_t, host_share> shares;
  if (!host_share_path.empty()) {
    try {
      shares = read_host_share(host_share_path);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "warpspan_gpu_model: --host-share %s: %s\n", host_share_path.c_str(), e.what());
      return 2;
    }
  }
  std::map<std::pair<std::string, int>, issue_row> issue;
  if (!issue_path.empty()) {
    try {
      issue = read_issue(issue_path);
    } catch (const std::exception& e) {
      std::fprintf(stderr, "warpspan_gpu_model: --issue %s: %s\n", issue_path.c_str(), e.what());
      return 2;
    }
  }
  std::vector<row> rows;
  constexpr std::uint64_t per_launch = 2000;  // BM_ChainsCuda's iterations a launch
  const std::uint64_t moves16 = quick ? 2 : 32, moves3 = quick ? 20 : 100, moves64 = quick ? 1 : 4;
  // Every counted chain starts from where one launch of annealing (2,000 moves) took it.
  const std::uint64_t warm = quick ? 200 : 2000;
  const auto wanted = [&](const std::string& name) { return only.empty() || name.find(only) != std::string::npos; };
  const auto anneal = [&](const std::string& name, int w, std::uint64_t n, std::uint64_t launch,
                          const std::string& bench, std::optional<chain_packing> packing = std::nullopt,
                          std::optional<chain_design> design = std::nullopt) {
    if (wanted(name)) rows.push_back(anneal_row(name, w, n, launch, warm, bench, packing, design));
  };
  anneal("Voronoi 5L9C2L9C, W = 16, sigma L=1,C=4", 16, moves16, per_launch, "BM_ChainsCuda/0/");
  anneal("Voronoi 5L9C2L9C, W = 16, sigma L=1,C=4, narrow", 16, moves16, per_launch, "BM_ChainsCudaNarrow/0/2000/16/",
         chain_packing::narrow);
  // Wide a thread a chain, as the H200 ran them (the held-out check): left to itself, the plan
  // gives wide W = 16 chains a warp each.
  anneal("Voronoi 5L9C2L9C, W = 16, sigma L=1,C=4, wide", 16, moves16, per_launch, "BM_ChainsCudaWide/0/2000/16/",
         chain_packing::wide, chain_design::thread);
  anneal("Voronoi 5L9C2L9C, W = 16, sigma L=1,C=4, a warp a chain", 16, moves16, per_launch,
         "BM_ChainsCudaWarp/0/2000/16/", std::nullopt, chain_design::warp);
  anneal("Voronoi 5L9C2L9C, W = 3, sigma L=1,C=4", 3, moves3, per_launch, "BM_ChainsCudaOnChip/0/");
  anneal("Voronoi 5L9C2L9C, W = 3, sigma L=1,C=4, narrow", 3, moves3, per_launch, "BM_ChainsCudaNarrow/0/2000/3/",
         chain_packing::narrow);
  anneal("Voronoi 5L9C2L9C, W = 3, sigma L=1,C=4, wide", 3, moves3, per_launch, "BM_ChainsCudaWide/0/2000/3/",
         chain_packing::wide, chain_design::thread);
  anneal("Voronoi 5L9C2L9C, W = 64, sigma L=1,C=4", 64, moves64, 500, "BM_ChainsW64Cuda/0/");
  anneal("Voronoi 5L9C2L9C, W = 64, sigma L=1,C=4, a thread a chain", 64, moves64, 500, "BM_ChainsW64CudaThread/0/",
         std::nullopt, chain_design::thread);
  anneal("Voronoi 5L9C2L9C, W = 48, sigma L=1,C=4", 48, moves64, 500, "BM_ChainsW48Cuda/0/");
  if (wanted("dbf")) {
    for (std::uint32_t v : quick ? std::vector<std::uint32_t>{10} : std::vector<std::uint32_t>{10, 20})
      for (bool staged : {false, true}) rows.push_back(dbf_row(v, staged));
    for (std::uint32_t v : quick ? std::vector<std::uint32_t>{10} : std::vector<std::uint32_t>{10, 50}) {
      rows.push_back(dbf_batch_row(v, quick ? 4 : 16, quick ? 20 : 200, shares.count(v) ? &shares.at(v) : nullptr));
      if (std::optional<row> f = dbf_from_file_row(rows.back(), v)) rows.push_back(std::move(*f));
    }
    for (row& r : dbf_time_rows(quick ? 10 : 50)) rows.push_back(std::move(r));
  }
  for (row& r : rows) {
    // Warp instructions a move: a thread a chain issues its lane's instructions once for the lanes a
    // request keeps active; a warp a chain the estimate (its helpers by the code they were inlined
    // into), plus its counted collectives.
    const auto it = issue.find({r.step, r.warps});
    if (r.kind == "anneal" && it != issue.end()) {
      const issue_row& x = it->second;
      if (r.step == "thread") {
        r.warp_instructions = r.warp_instructions_low = r.warp_instructions_high =
            x.x86 / std::max(1.0, r.lanes_per_request);
      } else {
        r.warp_instructions_low = x.low + r.per.collectives;
        r.warp_instructions_high = x.high + r.per.collectives;
        r.warp_instructions = x.mid + r.per.collectives;
      }
    }
    for (const device_spec& d : devices) {
      prediction p = predict(d, r.per, &r.cache);
      if (r.kind == "anneal") {  // the plan fills every SM (the benchmarks' chain count 0)
        p.latency = latency_bound(d, r.per, r.warps_per_sm, d.sms);
        // Every sector at the random-sector bandwidth (the caches' figures are shown, not used: the
        // held-out runs below do not bear their credit out for scattered chain state).
        p.scatter = bound(d.scatter_bytes_per_s, r.per.sectors * sector_bytes);
        p.issue = bound(d.sms * d.clock_hz * issue_per_clock_per_sm, r.warp_instructions);
        p.predicted = std::min({p.predicted, p.latency, p.scatter, p.issue});
      }
      if (r.kind == "dbf_table_time") {  // per table: work (seconds) plus the launches' gaps, in ms
        p.kernel = p.predicted;
        const double gaps = r.launches * (r.graph ? graph_node_gap_s : stream_launch_gap_s);
        const auto ms = [&](double rate) { return std::isinf(rate) ? gaps * 1e3 : (1.0 / rate + gaps) * 1e3; };
        p.predicted = ms(p.predicted);
        p.dram = ms(p.dram);
        p.shared = ms(p.shared);
        p.coalesced = ms(p.coalesced);
        p.reads_cached = ms(p.reads_cached);
        p.dram_after_l2 = ms(p.dram_after_l2);
        p.l2 = ms(p.l2);
      }
      if (r.kind == "dbf_batch") {
        // End to end, four stages side by side (two chunks in flight, each with its own workspace):
        // the stream's threads' part on every core (parse, unroll, curves and test); the chunks'
        // workers, each making its chunk's device calls (their host share); the device (the kernel,
        // the copies and each call's fixed cost, added as if nothing of one chunk's overlapped the
        // other's kernel); and the reading thread (from memory it only hands sets on; from a file
        // it reads their lines). The slowest sets the rate.
        p.kernel = p.predicted;
        const double pool = r.host_s_per_item / host_cores;
        const double workers = r.call_host_s / chunk_workers;
        // The kernel: on the chip, the latency model (its blocks in waves of those an SM holds),
        // never faster than its shared-memory and DRAM bounds; off the chip, the share of its bound
        // the H200 measured.
        const double kernel =
            r.path_clocks > 0 ? std::max(r.tables_per_item * std::max(r.path_clocks / r.blocks_per_sm, r.issue_clocks) /
                                             (d.sms * d.clock_hz),
                                         1.0 / p.kernel)
                              : 1.0 / (p.kernel * r.efficiency);
        p.kernel_s = kernel;
        const double device =
            kernel + r.copied_bytes / copy_bytes_per_s + call_fixed_s / static_cast<double>(dbf_chunk_max_sets);
        p.predicted = 1.0 / std::max({pool, workers, device, r.from_file ? r.read_s : 0.0});
      }
      r.pred.push_back(p);
    }
  }

  std::printf(
      "# A model of the H100, A100 and H200 (bandwidth, and latency for the annealing kernel), from the emulation's "
      "memory-request counts\n\n");
  std::printf(
      "Produced by `warpspan_gpu_model%s` (bench/traffic/gpu_model.cpp) in the CUDA emulation build: the\n"
      "real kernels run on the CPU with the memory-request counter on (cuda/emulation/counts.cpp), which\n"
      "rebuilds each warp's requests from the lanes' traced loads and stores. Counts, not timings: the\n"
      "same on every machine (for one compiler: clang's loads and stores stand in for nvcc's).\n\n",
      quick ? " --quick" : "");
  std::printf(
      "Assumptions: global sectors (32 bytes) go through the emulation's cache model\n"
      "(cuda/emulation/cache_model.hpp, since 2026-11-29): each block's own %zu KiB L1 for its loads,\n"
      "then one LRU L2 of which a kernel's data may fill half (%g of the 50 MiB of an H100 or H200 and the\n"
      "40 MiB of an A100: the two partitions may each hold what their SMs read), for the annealing rows\n"
      "shared by the counted blocks as by the warps a device holds at once; DRAM serves what that L2 misses and\n"
      "writes back (*DRAM after the L2*), the L2 what the L1 misses, at 5,120 bytes a clock (the A100\n"
      "whitepaper's L2 read bandwidth, assumed for Hopper: *L2 bound*); *DRAM, no caches* is every\n"
      "sector from DRAM, as this model had it until then (the dbf_batch rows keep it: their kernels'\n"
      "efficiency was measured against it). DRAM at its\n"
      "peak (H100 SXM: HBM3 3.35 TB/s; A100 SXM 80 GB: HBM2e 2.039 TB/s); shared memory one wavefront\n"
      "(128 bytes, 32 banks) per clock per SM at the boost clock (H100: 132 SMs x 1.98 GHz; A100: 108\n"
      "SMs x 1.41 GHz). The annealing rows have two more bounds (issue 42, item 5): *latency*, each\n"
      "resident warp's requests one after another at a dependent load's latency (the plan's warps a\n"
      "SM; 28.7 clocks shared, 280 global: the H200 calibration; the warp-a-chain design's warp\n"
      "collectives, ballots and syncs, at 12 clocks each: assumed, not measured), and *scattered sectors*, every\n"
      "sector DRAM serves at the random-sector bandwidth the H200 calibration measured (1.334 TB/s; H100 and A100\n"
      "scaled by their HBM peaks), and, where --issue gives the estimate, *issue*: 4 warp instructions a\n"
      "clock an SM (four schedulers), the warp instructions of a move estimated from the CPU's\n"
      "instruction counts of the same step (bench/count/issue_estimate.py: one SASS instruction per\n"
      "x86-64 one; a thread a chain issues its lane's instructions once for the lanes a request keeps\n"
      "active; a warp a chain its serial part once, its loops over pairs a 32nd each, and its read-ahead\n"
      "of 32 positions once a read, each inlined helper instruction in the part it was inlined into,\n"
      "plus its collectives). *Predicted* is the smallest bound;\n"
      "for the dbf rows the least of the DRAM-after-the-L2, L2 and shared-memory bounds; *coalesced* the\n"
      "DRAM (no caches) and shared bounds with every request at\n"
      "its ideal sectors and conflict-free wavefronts; *reads cached* charges DRAM only the stores (as\n"
      "if every load hit L1/L2: the dbf tables of 10 and 20 vertices, 4 and 15 MB, fit the H100's 50 MB\n"
      "L2). Annealing: one block of chains (a warp a chain: 8 chains), each started from the best string\n"
      "%llu moves of annealing on the CPU reached (the same trajectory as the kernels'), counted over %llu\n"
      "moves a chain (W = 16), %llu (W = 3) or %llu (W = 48, 64) after 4, at %llu moves a launch (W = 48, 64:\n"
      "500): a launch of no moves counts the per-launch part (the types' staging, the on-chip kernel's\n"
      "copies in and out), spread over those moves.\n\n",
      emu::l1_bytes_per_block / 1024, l2_usable_share, static_cast<unsigned long long>(warm),
      static_cast<unsigned long long>(moves16), static_cast<unsigned long long>(moves3),
      static_cast<unsigned long long>(moves64), static_cast<unsigned long long>(per_launch));
  std::printf("## Requests\n\n");
  std::printf(
      "| case | global requests / item | sectors / request (ideal; 4 for 32 lanes x 4 B) | sectors / item | of which "
      "stores | "
      "shared requests / item | wavefronts / request | atomics / item | |\n|---|---|---|---|---|---|---|---|---|\n");
  for (const row& r : rows)
    std::printf("| %s | %s | %.2f (%.2f) | %s | %s | %s | %.2f | %s | %s |\n", r.name.c_str(),
                fmt(r.per.requests).c_str(), r.sectors_per_request, r.ideal_per_request, fmt(r.per.sectors).c_str(),
                fmt(r.per.store_sectors).c_str(), fmt(r.per.shared_requests).c_str(), r.wavefronts_per_request,
                fmt(r.per.atomics).c_str(), r.note.c_str());
  std::printf(
      "\n## The caches (cuda/emulation/cache_model.hpp)\n\n"
      "Per item: the load sectors each block's own %zu KiB L1 served, the sectors that reached the L2,\n"
      "and those between the L2 and DRAM (its misses and write-backs) for the L2 the counted blocks\n"
      "have on an H100 (half its 50 MiB; for the annealing rows, the counted blocks' share of it beside\n"
      "the warps a device holds at once, since the emulation runs a block's warps one after another),\n"
      "and for the whole 50 MiB; beside every sector, as if nothing were cached.\n\n"
      "| case | L1 hits / item | L2 sectors / item | the counted blocks' L2 on an H100 | DRAM sectors / item | "
      "with all 50 MiB | every sector |\n|---|---|---|---|---|---|---|\n",
      emu::l1_bytes_per_block / 1024);
  for (const row& r : rows) {
    if (!r.cache.used) continue;
    const double c = r.cache.capacity(devices[0], devices[0].sms);
    const double whole = c / l2_usable_share;
    std::printf("| %s | %s | %s | %s MiB | %s | %s | %s |\n", r.name.c_str(), fmt(r.cache.l1_hits).c_str(),
                fmt(r.cache.l2_sectors).c_str(), fmt(c / mib).c_str(), fmt(r.cache.dram_sectors(c)).c_str(),
                fmt(r.cache.dram_sectors(whole)).c_str(), fmt(r.per.sectors).c_str());
  }
  for (std::size_t d = 0; d < std::size(devices); ++d) {
    std::printf("\n## Predicted on %s\n\n", devices[d].name);
    std::printf(
        "| case | unit | DRAM, no caches | DRAM after the L2 | L2 bound | shared bound | latency bound | "
        "scattered-sector bound | issue bound (estimate) | **predicted** | coalesced | reads cached |\n"
        "|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for (const row& r : rows) {
      const prediction& p = r.pred[d];
      std::printf("| %s | %s | %s | %s | %s | %s | %s | %s | %s | **%s** | %s | %s |\n", r.name.c_str(), r.unit.c_str(),
                  fmt(p.dram).c_str(), fmt(p.dram_after_l2).c_str(), fmt(p.l2).c_str(), fmt(p.shared).c_str(),
                  fmt(p.latency).c_str(), fmt(p.scatter).c_str(), fmt(p.issue).c_str(), fmt(p.predicted).c_str(),
                  fmt(p.coalesced).c_str(), fmt(p.reads_cached).c_str());
    }
  }
  if (wanted("held out")) held_out(moves16, moves3, per_launch);
  for (const row& r : rows)
    if (r.kind == "dbf_table_time" && !r.graph && r.name.find(", 50 vertices,") != std::string::npos) {
      // bench/results/current/gpu_h200_2026-11-27.md, and the model's figure for those kernels then
      // (bench/results/archive/gpu/gpu_model_emulated_52b18fc.md).
      constexpr double measured_ms = 0.320, then_predicted_ms = 0.362;
      std::printf(
          "\nHeld out: one table of 50 vertices on the H200 (BM_DbfTable, cuda, launch by launch) took %.3f ms\n"
          "of kernel on 2026-11-27, as its kernels were then (a thread a cell, every row kept, the column\n"
          "minima after the last level): the model put those at %.3f ms (%+.0f %%, every sector from DRAM). Since "
          "2026-11-29 a\n"
          "level's thread takes a column of its rows, a row is kept only while a later level reads it,\n"
          "and each level folds the running minimum: predicted %s ms on the H200, not yet measured.\n",
          measured_ms, then_predicted_ms, (then_predicted_ms / measured_ms - 1) * 100,
          fmt(r.pred[2].predicted).c_str());
    }
  std::printf(
      "\nThe dbf_batch rows are end to end as the EDF stream runs since 2026-11-29, two chunks in flight,\n"
      "each with its own workspace (stream, device and pinned memory): the slowest of four stages that\n"
      "run side by side, the sets unrolled and their curves and tests on %g host cores; the chunks'\n"
      "%g workers, each making its chunk's device calls (their host share: planning, packing and\n"
      "unpacking: a release build's BM_DbfHostShare, call_host_us/set); the device (the kernel by the latency\n"
      "model below where its tables stay on the chip, else at the share of its bound an H200 measured,\n"
      "the bytes copied at %g GB/s and %g us a call of %zu sets, both assumed\n"
      "until BM_CalibrateCopy runs, added as if nothing overlapped); and the reading thread, which\n"
      "hands the sets on. The rows \"from a .jsonl file\" add the parsing of each set to the cores' stage\n"
      "and the reading of its line to the reading thread's (a release build's BM_DbfHostShare:\n"
      "read_us/set, parse_us/set). Until 2026-11-29 the device's stage carried %g us a set around the\n"
      "call, measured on the H200 when each call allocated its memory and the chunks took turns on one\n"
      "workspace. The kernel's bound alone is in the JSON (`kernel_bound`).\n",
      host_cores, chunk_workers, copy_bytes_per_s * 1e-9, call_fixed_s * 1e6, dbf_chunk_max_sets,
      old_call_s_per_set * 1e6);
  if (onchip_model) {
    const onchip_fit& f = *onchip_model;
    std::printf(
        "\n### The on-chip dbf kernel's latency model\n\n"
        "A block a table; its threads meet at a barrier after every level of every pass, and the window\n"
        "that fills an SM's shared memory leaves room for one block. A block's time: its critical path\n"
        "(per barrier interval, the loads of the warp that issued the most, each at a dependent load's\n"
        "latency: 28.7 clocks shared, 280 global) plus %.0f clocks an interval (the barrier, and the\n"
        "work between loads the path does not count), fitted to the one measurement of the kernel on\n"
        "whole sets (the H200, 2026-11-27: 1,000 sets of 3 x 10 vertices, 3,000 blocks of 256 threads,\n"
        "passes of 512 columns, %.2f ms); the SMs take the blocks in waves of those an SM holds; a\n"
        "launch adds %.1f us (the H200's launch gap). The same run's fork-join batches, held out:\n\n"
        "| case | path: shared loads a block | global loads | intervals | blocks a SM | predicted ms | measured ms | "
        "error |\n"
        "|---|---|---|---|---|---|---|---|\n%s\n"
        "The sets of 3 x 10 vertices as the H200 ran them (256 threads, passes of 512 columns): %.0f\n"
        "shared and %.0f global loads on the path, %.0f intervals, %d block a SM. As the library runs them\n"
        "now (its own plan: passes as wide as the window allows, and %u threads a block, as many as\n"
        "an SM holds beside one window): %.0f and %.0f loads, %.0f intervals, %d block a SM; %.0f clocks\n"
        "a table against %.0f, %.2fx, with the fitted interval cost unchanged (more warps at a barrier\n"
        "may cost more; no division a cell any more may cost less: neither is credited). The issue bound\n"
        "beside it: a table's instructions (%g a cell and %g a predecessor, counted in the kernel's PTX)\n"
        "over the 4 warp instructions an SM issues a clock, %.0f clocks a table; at 256 threads the path\n"
        "was %.2f times that (the kernel then also divided a cell), at %u it is %.2f times it. The\n"
        "kernel's predicted time is the larger of the two (and of its shared-memory and DRAM bounds);\n"
        "where they are this close a device may take longer than either.\n",
        f.per_interval, h200_onchip_ms, stream_launch_gap_s * 1e6, f.held_out.c_str(), f.old.shared, f.old.global,
        f.old.intervals, f.old.per_sm, f.now.threads, f.now.shared, f.now.global, f.now.intervals, f.now.per_sm,
        f.now.clocks(f.per_interval), f.old.clocks(f.per_interval),
        f.old.clocks(f.per_interval) / f.now.clocks(f.per_interval), cell_instructions, pred_instructions, f.issue,
        f.old.clocks(f.per_interval) / f.issue, f.now.threads, f.now.clocks(f.per_interval) / f.issue);
  }
  std::printf(
      "\nThe dbf_table_time rows are one table's kernel time in ms, its bounds as times: the table's\n"
      "work at the DRAM (or shared-memory) rate plus a gap a launch, %g us back to back on a stream (the\n"
      "H200's measured launch gap, the host's enqueue) or %g us a node of one CUDA graph (assumed until\n"
      "BM_CalibrateLaunchGap/graph:1 runs). Work and gaps are added, not overlapped: an upper estimate\n"
      "where the kernels outlast the gaps. The device keeps only the rows a later level reads (their\n"
      "count and bytes in the note): the cache model follows them through the L2 from level to level\n"
      "(the L2 outlives a launch), so the prediction charges DRAM only what an L2 of half the device's\n"
      "misses and writes back, and the L2 its traffic at the assumed 5,120 bytes a clock; neither the\n"
      "L2's bandwidth nor how its two partitions share is measured yet (BM_CalibrateStream measures\n"
      "the first beside HBM's on the next lent GPU).\n",
      stream_launch_gap_s * 1e6, graph_node_gap_s * 1e6);
  std::printf(
      "\n`bash bench/run_on_gpu.sh --run OUT` ends with `bench/compare_model.py`, which prints each\n"
      "prediction beside the benchmark's measured rate (bench/results/current/gpu_h200_2026-11-27.md).\n");

  if (!json_path.empty()) {
    std::string out = "{\n  \"generator\": \"warpspan_gpu_model (bench/traffic/gpu_model.cpp)\",\n";
    out +=
        "  \"assumptions\": \"global sectors through the emulation's cache model (a 16 KiB L1 a block; an LRU L2 of "
        "which a kernel may fill half, for the annealing rows shared by the counted blocks as by the warps a device "
        "holds at once; the "
        "L2 at 5,120 bytes a clock, assumed); dbf_batch rows: every global sector from DRAM; DRAM and shared memory "
        "at peak; "
        "annealing rows also bounded by latency (the plan's resident warps, H200-calibrated load latencies) and "
        "by the H200's random-sector bandwidth (scaled by HBM peak) and, with --issue, by instruction issue (4 warp "
        "instructions a clock an SM; warp instructions a move estimated from the CPU's instruction counts of the same "
        "step, bench/count/issue_estimate.py); annealing moves at " +
        std::to_string(per_launch) + " a launch (W = 64: 500)\",\n  \"devices\": [";
    for (std::size_t d = 0; d < std::size(devices); ++d) {
      out += std::string(d ? ", " : "") + "{\"name\": \"" + devices[d].name + "\", ";
      json_number(out, "dram_bytes_per_s", devices[d].dram_bytes_per_s);
      json_number(out, "sms", devices[d].sms);
      json_number(out, "clock_hz", devices[d].clock_hz);
      json_number(out, "shared_bytes_per_clock_per_sm", devices[d].smem_bytes_per_clock_per_sm, false);
      out += "}";
    }
    out += "],\n  \"rows\": [\n";
    for (std::size_t i = 0; i < rows.size(); ++i) {
      const row& r = rows[i];
      out += "    {\"kind\": \"" + r.kind + "\", \"name\": \"" + r.name + "\", \"unit\": \"" + r.unit +
             "\", \"bench_prefix\": \"" + r.bench + "\", \"note\": \"" + r.note + "\", ";
      json_number(out, "global_requests_per_item", r.per.requests);
      json_number(out, "sectors_per_item", r.per.sectors);
      json_number(out, "ideal_sectors_per_item", r.per.ideal_sectors);
      json_number(out, "store_sectors_per_item", r.per.store_sectors);
      json_number(out, "sectors_per_request", r.sectors_per_request);
      json_number(out, "ideal_sectors_per_request", r.ideal_per_request);
      json_number(out, "shared_requests_per_item", r.per.shared_requests);
      json_number(out, "wavefronts_per_item", r.per.wavefronts);
      json_number(out, "wavefronts_per_request", r.wavefronts_per_request);
      json_number(out, "atomics_per_item", r.per.atomics);
      if (r.cache.used) {
        json_number(out, "l1_hit_sectors_per_item", r.cache.l1_hits);
        json_number(out, "l2_sectors_per_item", r.cache.l2_sectors);
        json_number(out, "dram_sectors_after_l2_per_item_h100",
                    r.cache.dram_sectors(r.cache.capacity(devices[0], devices[0].sms)));
      }
      if (r.kind == "anneal") {
        json_number(out, "warps_per_sm", r.warps_per_sm);
        json_number(out, "lanes_per_request", r.lanes_per_request);
        json_number(out, "warp_instructions_per_item", r.warp_instructions);
        json_number(out, "warp_instructions_low", r.warp_instructions_low);
        json_number(out, "warp_instructions_high", r.warp_instructions_high);
      }
      if (r.kind == "dbf_table_time") json_number(out, "launches", r.launches);
      if (r.kind == "dbf_batch") {
        json_number(out, "host_s_per_item", r.host_s_per_item);
        json_number(out, "unroll_s_per_item", r.unroll_s);
        json_number(out, "test_s_per_item", r.test_s);
        if (r.from_file) {
          json_number(out, "read_s_per_item", r.read_s);
          json_number(out, "call_host_s_per_item", r.call_host_s);
          json_number(out, "copied_bytes_per_item", r.copied_bytes);
          json_number(out, "parse_s_per_item", r.parse_s);
        }
        json_number(out, "kernel_efficiency", r.efficiency);
        if (r.path_clocks > 0) {  // the latency model's: a table's clocks now and as the H200 ran it
          json_number(out, "path_clocks_per_table", r.path_clocks);
          json_number(out, "path_clocks_per_table_as_on_the_h200",
                      onchip_model->old.clocks(onchip_model->per_interval));
          json_number(out, "interval_clocks_fitted", onchip_model->per_interval);
          json_number(out, "threads_per_block", onchip_model->now.threads);
          json_number(out, "issue_clocks_per_table", r.issue_clocks);
          json_number(out, "blocks_per_sm", r.blocks_per_sm);
        }
      }
      out += "\"predicted\": {";
      for (std::size_t d = 0; d < std::size(devices); ++d) {
        const prediction& p = r.pred[d];
        out += std::string(d ? ", " : "") + "\"" + devices[d].name + "\": {";
        json_number(out, "dram_bound", p.dram);
        json_number(out, "dram_after_l2_bound", p.dram_after_l2);
        json_number(out, "l2_bound", p.l2);
        json_number(out, "shared_bound", p.shared);
        json_number(out, "predicted", p.predicted);
        json_number(out, "coalesced", p.coalesced);
        if (r.kind == "dbf_batch") {
          json_number(out, "kernel_bound", p.kernel);
          json_number(out, "kernel_s_per_item", p.kernel_s);
        }
        if (r.kind == "dbf_table_time") json_number(out, "work_bound_per_s", p.kernel);
        if (r.kind == "anneal") {
          json_number(out, "latency_bound", p.latency);
          json_number(out, "scatter_bound", p.scatter);
          json_number(out, "issue_bound", p.issue);
        }
        json_number(out, "reads_cached", p.reads_cached, false);
        out += "}";
      }
      out += "}}" + std::string(i + 1 < rows.size() ? "," : "") + "\n";
    }
    out += "  ]\n}\n";
    std::ofstream(json_path) << out;
  }
  return 0;
}
