// The GPU model's calibration microbenchmarks (issue 42, item 5), about a minute on an H100 or H200:
//   BM_CalibrateChase      one thread's dependent loads: cycles (clock64) and ns a load, by where the
//                          array lives (0 shared, 1 global through L1, 2 global past L1) and its size,
//                          so the footprints fall in shared memory, L1, L2 (each walked once first,
//                          so it is resident) and HBM (256 MiB, cold: no walk first);
//   BM_CalibrateScatter    independent 4-byte loads, each its own 32-byte sector of a 2 GiB buffer, by
//                          warps a SM (1 to 64): the sector bandwidth the latency allows at each
//                          occupancy (what the chain kernels' scattered requests get);
//   BM_CalibrateStream     every SM reads a buffer of 4 MiB to 2 GiB over and over, coalesced, past
//                          L1: the read bandwidth of a footprint that stays in L2 against HBM's (the
//                          GPU model charges every load to HBM until this has run);
//   BM_CalibrateWarpCollective  one warp's dependent ballots (with a __syncwarp after each, or
//                          not): cycles a step, what the warp-a-chain annealing step pays a placement
//                          beyond its loads (the GPU model assumes 12 until this has run)
//   BM_CalibrateLaunchGap  back-to-back launches of an empty kernel, by blocks (1, a wave, 8 waves):
//                          the launch cost and the price of a grid-wide barrier made of kernel boundaries.
//   BM_CalibrateCopy       pinned host-device copies of 4 KB to 16 MB either way: the dbf batch
//                          call's copy rate and fixed cost in the GPU model.
// Every run's `check` is compared with the CPU's; a mismatch fails the benchmark.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <vector>

#include "../device.hpp"
#include "warpspan/core/calibration.hpp"

namespace warpspan {
namespace {

const std::vector<std::uint32_t>& cycle_of(std::size_t elements) {
  static std::map<std::size_t, std::vector<std::uint32_t>> cycles;
  auto it = cycles.find(elements);
  if (it == cycles.end()) it = cycles.emplace(elements, chase_cycle(elements, 42)).first;
  return it->second;
}

/// Times `run` once an iteration against the CPU's `expect`; false (the benchmark skipped with
/// `wrong`) at the first mismatch.
template <class Run>
bool timed_and_checked(benchmark::State& state, calibration_point& p, std::uint64_t expect, const char* wrong,
                       Run run) {
  for (auto _ : state) {
    p = run();
    if (p.check != expect) {
      state.SkipWithError(wrong);
      return false;
    }
    state.SetIterationTime(p.kernel_ms * 1e-3);
  }
  return true;
}

void BM_CalibrateWarpCollective(benchmark::State& state) {
  const bool sync = state.range(0) != 0;
  if (bench_cases::skip_without_device(state)) return;
  constexpr std::uint32_t steps = 100000;
  calibration_point p;
  if (!timed_and_checked(state, p, warp_collectives_cpu(steps), "the ballots ended at the wrong value",
                         [&] { return cuda_warp_collectives(steps, sync); }))
    return;
  state.counters["cycles/step"] = p.cycles_per_op;
  state.counters["ns/step"] = p.ns_per_op;
  state.SetLabel(sync ? "__ballot_sync then __syncwarp" : "__ballot_sync");
}
BENCHMARK(BM_CalibrateWarpCollective)
    ->Arg(0)
    ->Arg(1)
    ->ArgName("sync")
    ->Iterations(2)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_CalibrateChase(benchmark::State& state) {
  const auto where = static_cast<chase_memory>(state.range(0));
  const auto bytes = static_cast<std::size_t>(state.range(1));
  if (bench_cases::skip_without_device(state)) return;
  const std::vector<std::uint32_t>& next = cycle_of(bytes / sizeof(std::uint32_t));
  const std::uint32_t steps = where == chase_memory::shared ? 200000 : 20000;
  calibration_point p;
  if (!timed_and_checked(state, p, pointer_chase_cpu(next, steps), "the chase ended at the wrong index", [&] {
        return cuda_pointer_chase(next, where, steps, /*warm=*/bytes <= (std::size_t{32} << 20));
      }))
    return;
  state.counters["cycles/load"] = p.cycles_per_op;
  state.counters["ns/load"] = p.ns_per_op;
  state.counters["footprint_KiB"] = static_cast<double>(bytes) / 1024;
  static const char* names[] = {"shared", "global (L1)", "global (ld.cg)"};
  state.SetLabel(names[state.range(0)]);
}
BENCHMARK(BM_CalibrateChase)
    ->ArgsProduct({{0}, {4 << 10, 32 << 10, 128 << 10}})
    ->ArgsProduct({{1, 2}, {8 << 10, 128 << 10, 4 << 20, 32 << 20, 256 << 20}})
    ->ArgNames({"memory", "bytes"})
    ->Iterations(2)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_CalibrateScatter(benchmark::State& state) {
  const auto warps = static_cast<std::uint32_t>(state.range(0));
  if (bench_cases::skip_without_device(state)) return;
  constexpr std::size_t bytes = std::size_t{2} << 30;
  constexpr std::uint32_t loads = 64;
  calibration_point p;
  for (auto _ : state) {
    p = cuda_scattered_sectors(bytes, warps, loads);
    state.SetIterationTime(p.kernel_ms * 1e-3);
  }
  // The CPU recomputes the sum where that is quick (up to 8 warps a SM: 2 million loads on 132 SMs).
  if (warps <= 8 && p.check != scattered_sectors_cpu(bytes, warps, loads, p.sms)) {
    state.SkipWithError("the scattered loads read the wrong values");
    return;
  }
  state.counters["GB/s"] = p.bytes_per_s / 1e9;
  state.counters["ns/load"] = p.ns_per_op;
  state.counters["warps/SM"] = warps;
}
BENCHMARK(BM_CalibrateScatter)
    ->RangeMultiplier(2)
    ->Range(1, 64)
    ->ArgNames({"warps_per_sm"})
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_CalibrateStream(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  if (bench_cases::skip_without_device(state)) return;
  // At least 4 GiB read a run: about a millisecond at HBM3's peak.
  const auto passes = static_cast<std::uint32_t>(std::max<std::size_t>(2, (std::size_t{4} << 30) / bytes));
  static std::map<std::size_t, std::uint64_t> expected;  // the CPU's sum, once a size
  if (!expected.count(bytes)) expected[bytes] = stream_read_cpu(bytes, 1);
  calibration_point p;
  if (!timed_and_checked(state, p, expected[bytes] * passes, "the reads summed to the wrong value",
                         [&] { return cuda_stream_read(bytes, passes); }))
    return;
  state.counters["GB/s"] = p.bytes_per_s / 1e9;
  state.counters["passes"] = passes;
  state.counters["footprint_MiB"] = static_cast<double>(bytes) / (1 << 20);
}
BENCHMARK(BM_CalibrateStream)
    ->Arg(4 << 20)
    ->Arg(16 << 20)
    ->Arg(32 << 20)
    ->Arg(64 << 20)
    ->Arg(256 << 20)
    ->Arg(std::int64_t{2} << 30)
    ->ArgName("bytes")
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_CalibrateLaunchGap(benchmark::State& state) {
  const auto blocks = static_cast<std::uint32_t>(state.range(0));
  const bool graph = state.range(1) != 0;
  if (bench_cases::skip_without_device(state)) return;
  constexpr std::uint32_t launches = 2000;
  calibration_point p;
  for (auto _ : state) {
    p = cuda_launch_gap(launches, blocks, 256, graph);
    if (p.check != static_cast<std::uint64_t>(launches + 1) * blocks) {
      state.SkipWithError("a launch did not run every block");
      return;
    }
    state.SetIterationTime(p.kernel_ms * 1e-3);
  }
  state.counters["ns/launch"] = p.ns_per_op;
  state.counters["blocks"] = blocks;
}
/// graph:1 the same launches as one CUDA graph (cuda_dbf_table's levels): the gap a node.
BENCHMARK(BM_CalibrateLaunchGap)
    ->ArgsProduct({{1, 132, 1056}, {0, 1}})
    ->ArgNames({"blocks", "graph"})
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

void BM_CalibrateCopy(benchmark::State& state) {
  const auto bytes = static_cast<std::size_t>(state.range(0));
  const bool up = state.range(1) != 0;
  if (bench_cases::skip_without_device(state)) return;
  constexpr std::uint32_t repeats = 20;
  calibration_point p;
  for (auto _ : state) {
    p = cuda_copy_rate(bytes, up, repeats);
    if (p.check != copy_check(bytes)) {
      state.SkipWithError("a copy did not carry the bytes");
      return;
    }
    state.SetIterationTime(p.kernel_ms * 1e-3);
  }
  state.counters["us/copy"] = p.ns_per_op * 1e-3;
  state.counters["GB/s"] = static_cast<double>(bytes) / (p.ns_per_op * 1e-9) * 1e-9;
}
/// Pinned host memory to the device (up:1) and back, at a dbf batch call's sizes (a chunk of 256 sets
/// of 3 x 10 vertices copies about 1 MB): the GPU model's copy rate and a call's fixed cost.
BENCHMARK(BM_CalibrateCopy)
    ->ArgsProduct({{4096, 1 << 20, 16 << 20}, {1, 0}})
    ->ArgNames({"bytes", "up"})
    ->Iterations(3)
    ->UseManualTime()
    ->Unit(benchmark::kMicrosecond);

}  // namespace
}  // namespace warpspan
