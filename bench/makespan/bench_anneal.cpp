// Annealing throughput: one chain with full versus incremental rebuild (the reason for 000 VII),
// and all chains on the CPU backend versus the CUDA backend, side by side in one binary.
// items_per_second counts annealing iterations (proposed moves, accepted or not).
#include <benchmark/benchmark.h>

#include <chrono>
#include <thread>

#include "warpspan/core/backend.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/checkpoints.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "../cases.hpp"

namespace warpspan {
namespace {

using bench_cases::voronoi;

/// The annealing step with a full rebuild of every candidate: the baseline of 000 VII.
void anneal_step_full(const problem_view& p, const chain_view& c, chain_state& s, const anneal_params& a) {
  const philox_out r = draw(a.seed, 0, s.iter);
  const std::uint64_t iter = s.iter++;
  const std::uint32_t i = bounded(r.v[0], p.length);
  std::uint32_t j = 0;
  if (!pick_partner(p, c.str, i, r.v[1], a.reach, j)) return;
  std::swap(c.str[i], c.str[j]);
  const std::uint32_t candidate = build_full(p, c);
  bool accept = candidate >= s.makespan;
  if (!accept) {
    const double temperature = a.t0 * (1.0 - static_cast<double>(iter) / static_cast<double>(a.iter_max));
    accept = unit_double(r.v[2], r.v[3]) < temperature / static_cast<double>(s.makespan - candidate);
  }
  if (accept) {
    s.makespan = candidate;
    s.best = candidate > s.best ? candidate : s.best;
  } else {
    std::swap(c.str[i], c.str[j]);
    build_full(p, c);
  }
}

/// One chain at equal iterations: mode 0 the full rebuild, 1 the shared incremental step (000 VII),
/// 2 the CPU runner's checkpointed rebuild every `interval` positions (0: its default; issue 26).
void BM_OneChainRebuild(benchmark::State& state) {
  const auto mode = state.range(0);
  const problem prob = voronoi();
  const problem_view p = prob.view();
  const chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> block(layout.bytes);
  const chain_view c = chain_view_at(block.data(), layout);
  const auto start = round_robin_string(p);
  std::copy(start.begin(), start.end(), c.str);
  anneal_params a;
  a.iter_max = std::uint64_t{1} << 40;
  a.t0 = estimate_options{}.t0;  // the estimator's default: most worse moves are rejected and restored
  a.reach = static_cast<std::uint32_t>(state.range(1));
  chain_state s;
  anneal_init(p, c, chain_best_at(block.data(), layout), s);
  chain_checkpoints checkpoints(p, static_cast<std::uint32_t>(state.range(2)));
  checkpoints.capture(p, c);
  for (auto _ : state) {
    if (mode == 1)
      anneal_step(p, c, chain_best_at(block.data(), layout), s, a, 0);
    else if (mode == 2)
      anneal_step_by(p, c, chain_best_at(block.data(), layout), s, a, 0, checkpoints);
    else
      anneal_step_full(p, c, s, a);
  }
  benchmark::DoNotOptimize(s.best);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(mode == 1   ? "incremental (000 VII)"
                 : mode == 2 ? "checkpoints every " + std::to_string(checkpoints.interval())
                             : "full rebuild");
}
BENCHMARK(BM_OneChainRebuild)
    ->ArgsProduct({{0, 1, 2}, {0, 16, 64}, {0}})
    ->Args({2, 64, 16})
    ->Args({2, 64, 64})
    ->ArgNames({"mode", "reach", "interval"});

/// All chains of one backend, `iters` iterations each, timed as one advance() (CUDA: the launch
/// plus synchronisation, measured by wall clock since a launch covers the whole round).
void run_backend(benchmark::State& state, backend_kind kind, int warps = 16) {
  if (kind == backend_kind::cuda && cuda_device_count() == 0) {
    state.SkipWithError(cuda_compiled() ? "no CUDA device present" : "built without CUDA");
    return;
  }
  const problem prob = voronoi(warps);
  const auto chains = static_cast<std::uint32_t>(state.range(0));
  const std::uint64_t iters = static_cast<std::uint64_t>(state.range(1));
  const chain_setup setup = bench_cases::chains_of(prob, chains);
  auto runner = kind == backend_kind::cuda ? make_cuda_runner(setup) : make_cpu_runner(setup, 0);
  runner->advance(std::max<std::uint64_t>(1, iters / 10));  // warm-up
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    runner->advance(iters);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * chains * static_cast<std::int64_t>(iters));
  state.SetLabel(runner->name() + ", " + std::to_string(std::thread::hardware_concurrency()) + " host cores");
}

void BM_ChainsCpu(benchmark::State& state) { run_backend(state, backend_kind::cpu); }
void BM_ChainsCuda(benchmark::State& state) { run_backend(state, backend_kind::cuda); }
BENCHMARK(BM_ChainsCpu)->Args({64, 2000})->UseManualTime()->Unit(benchmark::kMillisecond);
BENCHMARK(BM_ChainsCuda)->Args({16896, 2000})->Args({67584, 2000})->UseManualTime()->Unit(benchmark::kMillisecond);
// Voronoi W = 3: the chain state on chip (25,344 chains fill an H100's 132 SMs at 192 a SM), the
// small case of the emulated model (bench/results/gpu_model_emulated.md).
void BM_ChainsCudaOnChip(benchmark::State& state) { run_backend(state, backend_kind::cuda, 3); }
BENCHMARK(BM_ChainsCudaOnChip)->Args({25344, 2000})->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace warpspan
