// warpspan_traffic: the memory traffic of the GPU designs, counted by running the shared host/device
// code through counting views (include/warpspan/makespan/traffic.hpp, dbf/traffic.hpp), and the
// bandwidth-bound speeds those counts allow on an H100. Counts, not timings: the output is the same
// on every machine, and the next real GPU run can be held against it. Prints Markdown
// (bench/results/current/gpu_traffic.md is its output).
#include <cstdio>
#include <string>
#include <vector>

#include "warpspan/dbf/generate.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/dbf/traffic.hpp"
#include "warpspan/makespan/traffic.hpp"
#include "warpspan/sm/kernel_string.hpp"

namespace {

using namespace warpspan;

// H100 SXM: HBM3 3.35 TB/s; shared memory 128 bytes per clock per SM x 132 SMs x 1.98 GHz.
constexpr double hbm_bytes_per_s = 3.35e12;
constexpr double smem_bytes_per_s = 128.0 * 132 * 1.98e9;
constexpr double sector = 32;  // bytes a scattered access costs at least in DRAM traffic

problem make(const std::string& kernel, int warps, std::array<int, 4> sigma, int schedulers = 0) {
  normalized_sm sm;
  sm.sigma = sigma;
  for (int u = 0; u < unit_count; ++u) sm.copies[u] = sigma[u] > 0 ? 1 : 0;
  sm.schedulers = schedulers;
  return make_problem(parse_kernel_string(kernel), sm, warps);
}

void anneal_report() {
  struct row {
    std::string name;
    problem prob;
  };
  const std::vector<row> rows = {
      {"Voronoi 5L9C2L9C, W = 3", make("5L9C2L9C", 3, {1, 4, 0, 0})},
      {"Voronoi 5L9C2L9C, W = 4", make("5L9C2L9C", 4, {1, 4, 0, 0})},
      {"Voronoi 5L9C2L9C, W = 16", make("5L9C2L9C", 16, {1, 4, 0, 0})},
      {"LSCDLLCSD, W = 7, 3 schedulers", make("LSCDLLCSD", 7, {1, 2, 1, 1}, 3)},
      {"20L20C20L, W = 64", make("20L20C20L", 64, {1, 2, 0, 0})},
  };
  constexpr std::uint64_t iterations = 20000, per_launch = 1000;
  std::printf("## Annealing: bytes per iteration of one chain\n\n");
  std::printf(
      "One chain from the round-robin string, %llu iterations of `anneal_step` (seed 1, T0 0.3), every\n"
      "element access of its state counted. *State* is what the step reads and writes of the cycles,\n"
      "usage table, counters, string and undo scratch: global memory when the state is too large for\n"
      "chip, shared memory when it is on chip. *Best* is the best string, written on improvement\n"
      "(global memory). *Copy* is what the on-chip kernel moves between global and shared memory per\n"
      "launch per chain; the bound below spreads it over a launch of %llu iterations.\n\n",
      static_cast<unsigned long long>(iterations), static_cast<unsigned long long>(per_launch));
  std::printf(
      "| problem | state B/iter (accesses) | best B/iter | copy B/launch | global path: iter/s bound, coalesced .. "
      "scattered | on-chip path: iter/s bound (shared) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const row& r : rows) {
    anneal_params a;
    a.seed = 1;
    a.iter_max = iterations;
    const anneal_traffic t = measure_anneal_traffic(r.prob, a, iterations);
    const double state = t.state_per_iteration(), best = t.best_per_iteration();
    const double accesses = static_cast<double>(t.state.accesses + t.best.accesses) / t.iterations;
    const double global_ideal = hbm_bytes_per_s / (state + best);
    const double global_scattered = hbm_bytes_per_s / (accesses * sector);
    const double chip_global = best + static_cast<double>(t.working_bytes) / per_launch;
    const double chip = std::min(smem_bytes_per_s / state, hbm_bytes_per_s / chip_global);
    // The CUDA backend's rule (cuda/makespan/anneal_kernel.cu): on chip when 64 chains' working
    // state and the staged types fit in 96 KiB.
    const problem_view p = r.prob.view();
    const bool fits = (p.instructions + 15) / 16 * 16 + 64 * make_chain_layout(p).best <= 96 * 1024;
    char chip_text[32] = "does not fit";
    if (fits) std::snprintf(chip_text, sizeof chip_text, "%.3g", chip);
    std::printf("| %s | %.1f (%.1f) | %.2f | %llu | %.3g .. %.3g | %s |\n", r.name.c_str(), state,
                static_cast<double>(t.state.accesses) / t.iterations, best,
                static_cast<unsigned long long>(t.working_bytes), global_ideal, global_scattered, chip_text);
  }
  std::printf("\n");
}

void dbf_report() {
  std::printf("## Demand-bound tables: bytes per cell\n\n");
  std::printf(
      "Every cell of the table of one generated task (paper 003's generator: seed 1, largest\n"
      "execution requirement 10,000), computed as the level kernels do: a thread a column of a level's\n"
      "rows, `dbf_cell` for each, the cell stored where a later level reads it (only those rows keep\n"
      "a slot of the table), and the level's least folded into the running minimum (read and written\n"
      "once a level). *DRAM* is the predecessor cells read, the kept cells written and the running\n"
      "minimum (neighbouring threads take neighbouring demands, so these coalesce). *Tuples* are the\n"
      "predecessor tuples: the threads of a block on one row read the same one at once, from L1 for\n"
      "GPU and from shared memory for GPU-SM, which stages a level's tuples once per block of 256\n"
      "threads (*staged*, from global memory).\n\n");
  std::printf(
      "| vertices | cells | DRAM B/cell | tuples B/cell | staged B/cell | cells/s bound, DRAM | cells/s bound, shared "
      "(GPU-SM) |\n");
  std::printf("|---|---|---|---|---|---|---|\n");
  for (std::uint32_t vertices : {10u, 20u, 30u}) {
    task_generator_options o;
    o.vertices = vertices;
    o.tasks = 1;
    o.max_wcet = 10000;
    o.seed = 1;
    const unrolled_graph g = unroll(generate_task(o, 0, 0));
    const dbf_traffic t = measure_dbf_traffic(g);
    const double dram = t.per_cell(t.table) + t.per_cell(t.min_span), tuples = t.per_cell(t.tuples);
    const double blocks_per_row = static_cast<double>((g.columns() + 255) / 256);
    const double staged = static_cast<double>(t.staged) * blocks_per_row / static_cast<double>(t.cells);
    std::printf("| %u | %llu | %.1f | %.1f | %.3f | %.3g | %.3g |\n", vertices,
                static_cast<unsigned long long>(t.cells), dram, tuples, staged, hbm_bytes_per_s / (dram + staged),
                smem_bytes_per_s / tuples);
  }
  std::printf("\n");
}

}  // namespace

int main() {
  std::printf("# Memory traffic of the GPU designs, counted in emulation\n\n");
  std::printf(
      "Produced by `build/bench/warpspan_traffic` (bench/traffic/traffic_report.cpp): counts of the\n"
      "shared host/device code run through counting pointers, the same on every machine. Bounds use\n"
      "an H100 SXM's 3.35 TB/s of HBM3 and %.1f TB/s of shared memory (128 B per clock per SM, 132\n"
      "SMs, 1.98 GHz). *Coalesced* assumes the 32 chains of a warp touch the same element (the\n"
      "interleaved layout then makes one transaction of it); *scattered* charges every access a\n"
      "32-byte sector, which is what data-dependent indices (each chain's own positions and\n"
      "cycles) cost. The truth on a GPU lies between, and caches can only help the scattered side.\n\n",
      smem_bytes_per_s / 1e12);
  anneal_report();
  dbf_report();
  return 0;
}
