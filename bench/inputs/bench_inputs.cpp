// Fitness evaluations per second of `warpspan inputs`: the SIMT cost model on one CPU thread and
// on all of them (a generation of 100 at a time, as the search runs it), and the gpu backend (one
// timed run per input, CUDA events) beside them; items are kernel evaluations.
#include <benchmark/benchmark.h>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/inputs/gpu.hpp"
#include "warpspan/inputs/kernels.hpp"
#include "warpspan/inputs/ga.hpp"
#include "warpspan/inputs/model.hpp"

namespace warpspan::inputs {
namespace {

/// Random inputs at the kernel's default thread count (seeded; never all zero).
const kernel_harness& builtin(std::int64_t i) { return *builtin_kernels().at(static_cast<std::size_t>(i)); }

std::vector<genome> batch_of(const kernel_harness& k, std::size_t n) {
  const auto ranges = k.genome_ranges(k.default_threads());
  std::vector<genome> out;
  for (std::size_t i = 0; i < n; ++i) out.push_back(random_genome(ranges, 2026, 1, i));
  return out;
}

void model_one_thread(benchmark::State& state) {
  const kernel_harness& k = builtin(state.range(0));
  const auto inputs = batch_of(k, 8);
  const model_config cfg = make_model();
  std::size_t i = 0;
  for (auto _ : state) benchmark::DoNotOptimize(run_model(k, cfg, inputs[i++ % inputs.size()], k.default_threads()));
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(k.name());
}

void model_all_cores(benchmark::State& state) {
  const kernel_harness& k = builtin(state.range(0));
  const auto inputs = batch_of(k, 100);
  const model_config cfg = make_model();
  thread_pool pool(resolve_threads(0));
  for (auto _ : state) benchmark::DoNotOptimize(model_cycles_batch(k, cfg, inputs, k.default_threads(), pool));
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(inputs.size()));
  state.SetLabel(k.name() + ", " + std::to_string(pool.size()) + " threads");
}

void gpu_backend(benchmark::State& state) {
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device present");
    return;
  }
  const kernel_harness& k = builtin(state.range(0));
  const auto inputs = batch_of(k, 10);
  for (auto _ : state) {
    double ms = 0;
    for (const auto& t : cuda_time_inputs(k, k.default_threads(), inputs, 1)) ms += t.median_ms;
    state.SetIterationTime(ms / 1000.0);
  }
  state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(inputs.size()));
  state.SetLabel(k.name() + " (kernel time only)");
}

BENCHMARK(model_one_thread)->DenseRange(0, builtin_count - 1)->Unit(benchmark::kMillisecond);
BENCHMARK(model_all_cores)->DenseRange(0, builtin_count - 1)->Unit(benchmark::kMillisecond)->UseRealTime();
BENCHMARK(gpu_backend)->DenseRange(0, builtin_count - 1)->Unit(benchmark::kMillisecond)->UseManualTime();

}  // namespace
}  // namespace warpspan::inputs
