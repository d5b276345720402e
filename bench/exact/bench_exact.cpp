// The exact search on the Voronoi case (5L9C2L9C, sigma_L = 1, sigma_C = 4): time and states per
// second for W warps. The goal: T(4) in under a second.
#include <benchmark/benchmark.h>

#include <functional>
#include <random>
#include <string>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/exact/beam.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan {
namespace {

problem voronoi(std::int64_t warps) {
  normalized_sm sm;
  sm.sigma = {1, 4, 0, 0};
  sm.copies = {1, 1, 0, 0};
  return make_problem(parse_kernel_string("5L9C2L9C"), sm, warps);
}

void BM_ExactVoronoi(benchmark::State& state) {
  const problem prob = voronoi(state.range(0));
  exact_result r;
  for (auto _ : state) {
    r = exact_search_cpu(prob);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["T"] = r.makespan;
  state.counters["states"] = static_cast<double>(r.states);
  state.counters["states/s"] =
      benchmark::Counter(static_cast<double>(r.states), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel("cpu search, one thread");
}
BENCHMARK(BM_ExactVoronoi)->DenseRange(1, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactVoronoi)->DenseRange(6, 7)->Iterations(1)->Unit(benchmark::kMillisecond);

/// The level-by-level search (states counts every level's states, so it exceeds the depth-first
/// count: a state reachable at several cycles appears in several levels). Arg 1: 0 CPU, 1 CUDA.
void BM_ExactFrontier(benchmark::State& state) {
  const bool cuda = state.range(1) != 0;
  if (cuda && (!cuda_compiled() || cuda_device_count() == 0)) {
    state.SkipWithError(cuda_compiled() ? "no CUDA device present" : "built without CUDA");
    return;
  }
  const problem prob = voronoi(state.range(0));
  exact_result r;
  for (auto _ : state) {
    r = cuda ? exact_frontier_cuda(prob) : exact_frontier_cpu(prob);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["T"] = r.makespan;
  state.counters["states"] = static_cast<double>(r.states);
  state.counters["states/s"] =
      benchmark::Counter(static_cast<double>(r.states), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(cuda ? "cuda level by level" : "cpu level by level, one thread");
}
BENCHMARK(BM_ExactFrontier)->ArgsProduct({{4, 5, 6}, {0, 1}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactFrontier)->ArgsProduct({{7}, {0, 1}})->Iterations(1)->Unit(benchmark::kMillisecond);

/// One search's entry point, handed exact_search's options and taking its share of them.
using exact_fn = std::function<exact_result(const problem&, const exact_options&)>;

/// One exact search on Voronoi W = arg 0 with arg 1 CPU threads, or on the device when arg 1 is 0;
/// `name` labels it ("sweep", "dense").
void run_exact_bench(benchmark::State& state, exact_fn cpu_search, exact_fn cuda_search, const std::string& name) {
  const bool cuda = state.range(1) == 0;
  if (cuda && (!cuda_compiled() || cuda_device_count() == 0)) {
    state.SkipWithError(cuda_compiled() ? "no CUDA device present" : "built without CUDA");
    return;
  }
  const problem prob = voronoi(state.range(0));
  exact_options o;
  o.threads = static_cast<unsigned>(state.range(1));
  exact_result r;
  for (auto _ : state) {
    r = (cuda ? cuda_search : cpu_search)(prob, o);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["T"] = r.makespan;
  state.counters["states"] = static_cast<double>(r.states);
  if (name == "sweep") state.counters["pruned"] = static_cast<double>(r.pruned);
  state.counters["states/s"] =
      benchmark::Counter(static_cast<double>(r.states), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(cuda ? "cuda " + name : "cpu " + name + ", " + std::to_string(o.threads) + " thread(s)");
}

/// The progress sweep (each state once; `states` = the depth-first count + 1). Arg 1: CPU threads,
/// or 0 for the CUDA sweep. Pruning on, against the best standard string, as `exact` runs it.
void BM_ExactSweep(benchmark::State& state) {
  run_exact_bench(
      state, [](const problem& p, const exact_options& o) { return exact_sweep_cpu(p, o); },
      [](const problem& p, const exact_options& o) { return exact_sweep_cuda(p, o); }, "sweep");
}
BENCHMARK(BM_ExactSweep)->ArgsProduct({{4, 5, 6}, {0, 1, 2}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactSweep)->ArgsProduct({{7, 8}, {0, 1, 2}})->Iterations(1)->Unit(benchmark::kMillisecond);
// Larger W: `warpspan exact --backend cuda` in bench/run_on_gpu.sh (one run each, time-limited).

/// The dense sweep (every multiset in a table; `states` = those reached). Arg 1: CPU threads, or 0
/// for the device's dense sweep (by progress sum, compare-and-swap on the table).
void BM_ExactDense(benchmark::State& state) {
  run_exact_bench(
      state, [](const problem& p, const exact_options& o) { return exact_dense_cpu(p, o.dense()); },
      [](const problem& p, const exact_options& o) { return exact_dense_cuda(p, o.dense()); }, "dense");
}
BENCHMARK(BM_ExactDense)->ArgsProduct({{6, 7, 8}, {0, 1, 2}})->Iterations(1)->Unit(benchmark::kMillisecond);

/// What 16-bit levels cost (the packing of kernels past 254 instructions, wide_levels)
/// against 8-bit ones on the same states: Voronoi W = arg 0, arg 1 the search (0 the hash sweep,
/// 1 the dense sweep, 2 the level-by-level search), arg 2 the bits a level (8 or 16); one thread.
void BM_ExactWideLevels(benchmark::State& state) {
  const problem prob = voronoi(state.range(0));
  exact_options o;
  o.threads = 1;
  o.wide_levels = state.range(2) == 16;
  const exact_fn search[] = {
      [](const problem& p, const exact_options& x) { return exact_sweep_cpu(p, x); },
      [](const problem& p, const exact_options& x) { return exact_dense_cpu(p, x.dense()); },
      [](const problem& p, const exact_options& x) { return exact_frontier_cpu(p, x.frontier()); }};
  const char* names[] = {"sweep", "dense", "frontier"};
  exact_result r;
  for (auto _ : state) {
    r = search[state.range(1)](prob, o);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["T"] = r.makespan;
  state.counters["states"] = static_cast<double>(r.states);
  state.counters["states/s"] =
      benchmark::Counter(static_cast<double>(r.states), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::string(names[state.range(1)]) + ", " + std::to_string(state.range(2)) + "-bit levels");
}
BENCHMARK(BM_ExactWideLevels)->ArgsProduct({{6, 7}, {0, 1, 2}, {8, 16}})->Iterations(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ExactWideLevels)->ArgsProduct({{8}, {0, 1}, {8, 16}})->Iterations(1)->Unit(benchmark::kMillisecond);

/// One beam (exact/beam.hpp) on Voronoi: W, width, threads; `T` is the beam's makespan (a lower
/// bound), `expanded` the states it expanded.
void BM_Beam(benchmark::State& state) {
  const problem prob = voronoi(state.range(0));
  beam_options o;
  o.width = static_cast<std::uint32_t>(state.range(1));
  o.threads = static_cast<int>(state.range(2));
  beam_result r;
  for (auto _ : state) {
    r = beam_search(prob, o);
    benchmark::DoNotOptimize(r.makespan);
  }
  state.counters["T"] = r.makespan;
  state.counters["expanded"] = static_cast<double>(r.expanded);
  state.counters["expanded/s"] =
      benchmark::Counter(static_cast<double>(r.expanded), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_Beam)->ArgsProduct({{8, 11, 16}, {256, 1024}, {1, 2}})->Unit(benchmark::kMillisecond);

/// The remaining-work bound every pruning search takes per state (exact/frontier.hpp), on 4,096
/// random multisets of W warps: Voronoi (Arg 1 = 1) or Voronoi four times over (100 instructions,
/// Arg 1 = 4), where a bound by the levels rather than the warps' runs would cost four times more.
void BM_RemainingBound(benchmark::State& state) {
  normalized_sm sm;
  sm.sigma = {1, 4, 0, 0};
  sm.copies = {1, 1, 0, 0};
  std::string kernel;
  for (std::int64_t i = 0; i < state.range(1); ++i) kernel += "5L9C2L9C";
  const problem prob = make_problem(parse_kernel_string(kernel), sm, state.range(0));
  const frontier_view v = make_frontier_view(prob.view());
  std::mt19937_64 rng(42);
  std::vector<packed_state> keys(4096);
  for (packed_state& key : keys) {
    std::uint8_t count[256] = {};
    for (std::uint32_t w = 0; w < v.warps; ++w) ++count[rng() % (v.instructions + 1)];
    key = pack_counts(count, v.instructions);
  }
  std::uint64_t sum = 0;
  for (auto _ : state)
    for (const packed_state key : keys) sum += remaining_bound(v, key);
  benchmark::DoNotOptimize(sum);
  state.counters["states/s"] =
      benchmark::Counter(static_cast<double>(keys.size()), benchmark::Counter::kIsIterationInvariantRate);
}
BENCHMARK(BM_RemainingBound)->ArgsProduct({{8, 16}, {1, 4}})->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace warpspan
