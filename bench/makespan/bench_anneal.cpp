// Annealing throughput: one chain with full versus incremental rebuild (the reason for 000 VII),
// and all chains on the CPU backend versus the CUDA backend, side by side in one binary.
// items_per_second counts annealing iterations (proposed moves, accepted or not).
#include <benchmark/benchmark.h>

#include <chrono>
#include <optional>
#include <thread>

#include "warpspan/core/backend.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/detail/makespan/team_schedule.hpp"
#include "../cases.hpp"

namespace warpspan {
namespace {

using bench_cases::voronoi;

/// One chain at equal iterations: mode 0 the full rebuild, 1 the shared incremental step (000 VII),
/// 2 the CPU runner's checkpointed rebuild every `interval` positions (0: its default; issue 26).
/// warpspan_one_chain (bench/count/one_chain.cpp) runs the same loop for valgrind's counts.
void BM_OneChainRebuild(benchmark::State& state) {
  bench_cases::one_chain chain(static_cast<std::uint32_t>(state.range(1)), static_cast<std::uint32_t>(state.range(2)));
  for (auto _ : state) chain.step(static_cast<int>(state.range(0)));
  benchmark::DoNotOptimize(chain.state.best);
  state.SetItemsProcessed(state.iterations());
  state.SetLabel(chain.label(static_cast<int>(state.range(0))));
}
BENCHMARK(BM_OneChainRebuild)
    ->ArgsProduct({{0, 1, 2}, {0, 16, 64}, {0}})
    ->Args({2, 64, 16})
    ->Args({2, 64, 64})
    ->ArgNames({"mode", "reach", "interval"});

/// One chain of the warp design's team step (team_schedule.hpp) run by one lane on the CPU, from the
/// starved string, as estimate's chains run (reach 4 W, far moves, T0 0.01): `rejoin` 0 the plain
/// rebuild, else the rebuild that stops where the schedule rejoins the old one, with room for that
/// many differences (the CUDA kernel's: 8). The counter
/// `placements` is the placements a move: on the GPU the team's serial part (a search, a ballot and
/// a sync each), which the rejoin exists to cut; the loops over pairs that a warp shares 32 ways
/// run here on one lane, so the CPU time says little about the warp's.
void BM_TeamStep(benchmark::State& state) {
  const problem prob = voronoi(static_cast<int>(state.range(1)));
  const problem_view p = prob.view();
  const chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> block(layout.bytes);
  const chain_view c = chain_view_at(block.data(), layout);
  const auto start = starved_string(p);
  std::copy(start.begin(), start.end(), c.str);
  anneal_params a;
  a.iter_max = std::uint64_t{1} << 40;
  a.t0 = estimate_options{}.t0;
  a.reach = 4 * p.warps;
  a.far = 512;
  chain_state s;
  const serial_team one;
  team_anneal_init(p, c, chain_best_at(block.data(), layout), s, one);
  std::vector<std::uint32_t> pre(p.warps);
  std::uint64_t placed = 0;
  const team_rebuild<serial_team, std::uint32_t*> plain{one, pre.data(), &placed};
  const team_rejoin_rebuild<serial_team, std::uint32_t*, 4> rejoin4{one, pre.data(), &placed};
  const team_rejoin_rebuild<serial_team, std::uint32_t*, 8> rejoin8{one, pre.data(), &placed};
  const team_rejoin_rebuild<serial_team, std::uint32_t*, 64> rejoin64{one, pre.data(), &placed};
  const auto run = [&](std::uint64_t n) {
    const auto best = chain_best_at(block.data(), layout);
    switch (state.range(0)) {
      case 0: anneal_run_by(p, c, best, s, a, 0, n, plain, one); break;
      case 4: anneal_run_by(p, c, best, s, a, 0, n, rejoin4, one); break;
      case 8: anneal_run_by(p, c, best, s, a, 0, n, rejoin8, one); break;
      default: anneal_run_by(p, c, best, s, a, 0, n, rejoin64, one); break;
    }
  };
  run(20000);  // past the first moves from the starved string
  placed = 0;
  const std::uint64_t moves_before = s.iter;
  for (auto _ : state) run(1);
  state.SetItemsProcessed(state.iterations());
  state.counters["placements"] = static_cast<double>(placed) / static_cast<double>(s.iter - moves_before);
  state.counters["best"] = s.best;
  state.SetLabel(state.range(0) == 0 ? "plain" : "rejoin, " + std::to_string(state.range(0)) + " differences");
}
BENCHMARK(BM_TeamStep)->ArgsProduct({{0, 4, 8, 64}, {16, 64}})->ArgNames({"rejoin", "W"});

/// All chains of one backend, `iters` iterations each, timed as one advance() (CUDA: the launch
/// plus synchronisation, measured by wall clock since a launch covers the whole round).
/// `packing`: the CUDA chains' widths (unset: the narrowest that fits, as estimate runs them).
/// `design`: a thread or a warp a chain (unset: as the plan picks).
void run_backend(benchmark::State& state, backend_kind kind, int warps = 16,
                 std::optional<chain_packing> packing = std::nullopt,
                 std::optional<chain_design> design = std::nullopt) {
  if (kind == backend_kind::cuda && cuda_device_count() == 0) {
    state.SkipWithError(cuda_compiled() ? "no CUDA device present" : "built without CUDA");
    return;
  }
  const problem prob = voronoi(warps);
  // CUDA: a count <= 0 is -k times the chains the device keeps resident (the occupancy
  // calculator's plan, every SM filled; 0 is one such residency), so that no SM idles.
  std::string plan_note;
  auto chains = static_cast<std::uint32_t>(state.range(0));
  if (state.range(0) <= 0) {
    const cuda_chain_plan plan = plan_cuda_chains(prob.view(), packing, design);
    const auto k = static_cast<std::uint32_t>(std::max<std::int64_t>(1, -state.range(0)));
    chains = plan.device_chains * k;
    plan_note = ", " + std::to_string(k) + " x " + std::to_string(plan.device_chains) + " resident (" +
                std::to_string(plan.threads_per_sm / 32) + " warps a SM on " + std::to_string(plan.sms) + " SMs, " +
                (plan.design == chain_design::warp ? "a warp a chain, " : "") + (plan.on_chip ? "on chip" : "global") +
                ")";
  }
  const std::uint64_t iters = static_cast<std::uint64_t>(state.range(1));
  chain_setup setup = bench_cases::chains_of(prob, chains);
  setup.packing = packing;
  setup.design = design;
  auto runner = kind == backend_kind::cuda ? make_cuda_runner(setup) : make_cpu_runner(setup, 0);
  runner->advance(std::max<std::uint64_t>(1, iters / 10));  // warm-up
  for (auto _ : state) {
    const auto t0 = std::chrono::steady_clock::now();
    runner->advance(iters);
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations()) * chains * static_cast<std::int64_t>(iters));
  state.SetLabel(runner->name() + ", " + std::to_string(chains) + " chains" + plan_note + ", " +
                 std::to_string(std::thread::hardware_concurrency()) + " host cores");
}

void BM_ChainsCpu(benchmark::State& state) { run_backend(state, backend_kind::cpu); }
void BM_ChainsCuda(benchmark::State& state) { run_backend(state, backend_kind::cuda); }
BENCHMARK(BM_ChainsCpu)->Args({64, 2000})->UseManualTime()->Unit(benchmark::kMillisecond);
// 16,896 and 67,584: the first GPU runs' counts (16,896 left half of an H200's SMs idle); 0 and -4:
// one and four residencies of the device's plan. The chains are as narrow as the problem allows
// (chain_packing: compact at W = 16, on chip, 4 warps a SM on an H100); BM_ChainsCudaWide runs
// them wide, in global memory, as the first GPU runs did, and BM_ChainsCudaNarrow with 16-bit
// cycles (2 warps a SM).
BENCHMARK(BM_ChainsCuda)
    ->Args({16896, 2000})
    ->Args({67584, 2000})
    ->Args({0, 2000})
    ->Args({-4, 2000})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
// Voronoi W = 3: the chain state on chip (25,344 chains fill an H100's 132 SMs at 192 a SM), the
// small case of the emulated model (bench/results/current/gpu_model_emulated.md).
void BM_ChainsCudaOnChip(benchmark::State& state) { run_backend(state, backend_kind::cuda, 3); }
BENCHMARK(BM_ChainsCudaOnChip)->Args({25344, 2000})->Args({0, 2000})->UseManualTime()->Unit(benchmark::kMillisecond);
void BM_ChainsCudaWide(benchmark::State& state) {  // a thread a chain, as the earlier GPU runs had them
  run_backend(state, backend_kind::cuda, static_cast<int>(state.range(2)), chain_packing::wide, chain_design::thread);
}
BENCHMARK(BM_ChainsCudaWide)
    ->Args({16896, 2000, 16})
    ->Args({0, 2000, 16})
    ->Args({0, 2000, 3})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);
void BM_ChainsCudaNarrow(benchmark::State& state) {
  run_backend(state, backend_kind::cuda, static_cast<int>(state.range(2)), chain_packing::narrow);
}
BENCHMARK(BM_ChainsCudaNarrow)->Args({0, 2000, 16})->Args({0, 2000, 3})->UseManualTime()->Unit(benchmark::kMillisecond);
// Voronoi W = 64 (1,600 positions a string): narrow chains of 9.8 KB, a warp each on chip (the
// plan's choice), and a thread each in global memory as before; W = 48 a warp each; the CPU's all
// cores beside them.
void BM_ChainsW64Cuda(benchmark::State& state) { run_backend(state, backend_kind::cuda, 64); }
BENCHMARK(BM_ChainsW64Cuda)->Args({0, 500})->Args({-4, 500})->UseManualTime()->Unit(benchmark::kMillisecond);
void BM_ChainsW64CudaThread(benchmark::State& state) {
  run_backend(state, backend_kind::cuda, 64, std::nullopt, chain_design::thread);
}
BENCHMARK(BM_ChainsW64CudaThread)->Args({0, 500})->UseManualTime()->Unit(benchmark::kMillisecond);
// A warp a chain where a thread's chains fit on chip too (W = 16 compact): the two designs side by side.
void BM_ChainsCudaWarp(benchmark::State& state) {
  run_backend(state, backend_kind::cuda, static_cast<int>(state.range(2)), std::nullopt, chain_design::warp);
}
BENCHMARK(BM_ChainsCudaWarp)->Args({0, 2000, 16})->UseManualTime()->Unit(benchmark::kMillisecond);
void BM_ChainsW48Cuda(benchmark::State& state) { run_backend(state, backend_kind::cuda, 48); }
BENCHMARK(BM_ChainsW48Cuda)->Args({0, 500})->UseManualTime()->Unit(benchmark::kMillisecond);
void BM_ChainsW64Cpu(benchmark::State& state) { run_backend(state, backend_kind::cpu, 64); }
BENCHMARK(BM_ChainsW64Cpu)->Args({64, 500})->UseManualTime()->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace warpspan
