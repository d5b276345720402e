// The exact search on the Voronoi case (5L9C2L9C, sigma_L = 1, sigma_C = 4): time and states per
// second for W warps. The goal: T(4) in under a second.
#include <benchmark/benchmark.h>

#include "warpspan/exact/search.hpp"

namespace warpspan {
namespace {

void BM_ExactVoronoi(benchmark::State& state) {
  normalized_sm sm;
  sm.sigma = {1, 4, 0, 0};
  sm.copies = {1, 1, 0, 0};
  const problem prob = make_problem(parse_kernel_string("5L9C2L9C"), sm, state.range(0));
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

}  // namespace
}  // namespace warpspan
