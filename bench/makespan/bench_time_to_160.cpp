// Time for the envelope to reach a target makespan on the Voronoi case (000 VIII: 160 cycles),
// per backend. Reports the seconds as a counter; the search stops at the target or the budget.
#include <benchmark/benchmark.h>

#include "warpspan/core/backend.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {
namespace {

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
  o.seconds = 120;
  double reached = -1;
  std::uint32_t best = 0;
  for (auto _ : state) {
    const estimate_result r = run_estimate(prob, o);
    best = r.best_makespan;
    reached = -1;
    for (const auto& e : r.envelope)
      if (e.best >= target) {
        reached = e.seconds;
        break;
      }
    state.SetIterationTime(r.elapsed_s);
    state.SetItemsProcessed(static_cast<std::int64_t>(r.iterations));
  }
  state.counters["seconds_to_160"] = reached;  // -1: not reached within the run
  state.counters["best"] = best;
}

void BM_TimeTo160Cpu(benchmark::State& state) { time_to_target(state, backend_kind::cpu); }
void BM_TimeTo160Cuda(benchmark::State& state) { time_to_target(state, backend_kind::cuda); }
BENCHMARK(BM_TimeTo160Cpu)->Arg(200000)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);
BENCHMARK(BM_TimeTo160Cuda)->Arg(20000)->Arg(200000)->Iterations(1)->UseManualTime()->Unit(benchmark::kSecond);

}  // namespace
}  // namespace warpspan
