// Time for the envelope to reach a target makespan on the Voronoi case (000 VIII: 160 cycles),
// per backend and search setting, over seeds 1..8 run one after another. Reports the median
// seconds to 160 (a seed that never reaches it counts as the run's whole time plus one second, so
// it sorts last) and how many seeds reached it. Every run does all its iterations.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {
namespace {

constexpr int seeds = 8;

/// range(0): iterations per chain; range(1): T0 x 1000; range(2): chains (0: the default);
/// range(3): reach (0: the default, 4 W; 400 = W x I: the whole string).
void time_to_target(benchmark::State& state, backend_kind kind) {
  if (kind == backend_kind::cuda && cuda_device_count() == 0) {
    state.SkipWithError(cuda_compiled() ? "no CUDA device present" : "built without CUDA");
    return;
  }
  normalized_sm sm;
  sm.sigma = {1, 4, 0, 0};
  sm.copies = {1, 1, 0, 0};
  const problem prob = make_problem(parse_kernel_string("5L9C2L9C"), sm, 16);
  const std::uint32_t target = 160;
  estimate_options o;
  o.backend = kind;
  o.iterations = static_cast<std::uint64_t>(state.range(0));
  o.t0 = static_cast<double>(state.range(1)) / 1000.0;
  o.chains = static_cast<std::uint32_t>(state.range(2));
  o.reach = static_cast<std::uint32_t>(state.range(3));
  o.seconds = 120;
  std::vector<double> reached;
  int hits = 0;
  double total = 0;
  for (auto _ : state) {
    reached.clear();
    hits = 0;
    total = 0;
    for (int seed = 1; seed <= seeds; ++seed) {
      o.seed = static_cast<std::uint64_t>(seed);
      const estimate_result r = run_estimate(prob, o);
      total += r.elapsed_s;
      double at = r.elapsed_s + 1;
      for (const auto& e : r.envelope)
        if (e.best >= target) {
          at = e.seconds;
          ++hits;
          break;
        }
      reached.push_back(at);
    }
    state.SetIterationTime(total);
  }
  std::sort(reached.begin(), reached.end());
  state.counters["median_s_to_160"] = (reached[seeds / 2 - 1] + reached[seeds / 2]) / 2;
  state.counters["seeds_reaching_160"] = hits;
  state.counters["seeds_within_2s"] =
      static_cast<double>(std::count_if(reached.begin(), reached.end(), [](double s) { return s <= 2.0; }));
}

void BM_TimeTo160Cpu(benchmark::State& state) { time_to_target(state, backend_kind::cpu); }
void BM_TimeTo160Cuda(benchmark::State& state) { time_to_target(state, backend_kind::cuda); }
// The previous defaults (T0 0.3 as in the paper, 8 chains per thread: 16 here, whole-string moves),
// each of the three changes on its own, the current defaults with whole-string moves, the current defaults (T0 0.01, 2 chains per thread, reach
// 4 W), and one chain per core.
BENCHMARK(BM_TimeTo160Cpu)
    ->Args({200000, 300, 16, 400})
    ->Args({200000, 10, 16, 400})
    ->Args({200000, 300, 0, 400})
    ->Args({200000, 300, 16, 0})
    ->Args({200000, 10, 0, 400})
    ->Args({200000, 10, 0, 0})
    ->Args({300000, 10, 2, 0})
    ->ArgNames({"iterations", "t0_milli", "chains", "reach"})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);
BENCHMARK(BM_TimeTo160Cuda)
    ->Args({20000, 10, 0, 0})
    ->Args({200000, 10, 0, 0})
    ->ArgNames({"iterations", "t0_milli", "chains", "reach"})
    ->Iterations(1)
    ->UseManualTime()
    ->Unit(benchmark::kSecond);

}  // namespace
}  // namespace warpspan
