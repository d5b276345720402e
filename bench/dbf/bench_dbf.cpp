// The demand-bound table of paper 003 (Table I): random task graphs of 10..50 vertices, largest
// execution requirement 10,000, on every backend side by side; the thread-block size of GPU-SM
// swept as the paper did; and batches of 1,000 task sets.
//
// Times are wall-clock for the whole table call (for CUDA: upload, kernels, download of min_span);
// `kernel_ms` is the CUDA kernels alone (events), and `GB/s` the bytes the cells read and write
// (each predecessor cell, the cell, and the running minimum) over the kernel time, next to the
// device's peak (`peak_GB/s`).
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <chrono>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <thread>

#include "warpspan/core/backend.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/batch_source.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/generate.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/detail/dbf/onchip_pack.hpp"
#include "../cases.hpp"
#include "../device.hpp"

namespace warpspan {
namespace {

constexpr int kCpu = 0, kCpuParallel = 1, kCuda = 2, kCudaSm = 3, kCudaOnChip = 4;

const char* backend_name(int b) {
  // cuda-sm (staged): the tuples staged, the table in global memory, min_span back (the batch as it
  // was); cuda-sm (on chip): the table in shared memory, the steps back (what the EDF pipeline runs).
  static const char* names[] = {"cpu", "cpu-parallel", "cuda", "cuda-sm (staged)", "cuda-sm (on chip)"};
  return names[b];
}

using bench_cases::table_one_graph;

double model_bytes(const unrolled_graph& g) {
  double bytes = 0;
  for (std::uint32_t r = 0; r < g.rows; ++r)
    bytes += static_cast<double>(g.columns()) * (4.0 * (g.pred_begin[r + 1] - g.pred_begin[r]) + 12.0);
  return bytes;
}

bool skip_without_gpu(benchmark::State& state, int backend) {
  return backend >= kCuda && bench_cases::skip_without_device(state);
}

using clock_type = std::chrono::steady_clock;

/// One table of `vertices` (table_one_graph) on `backend`, the CUDA call launching as `how` says.
void time_table(benchmark::State& state, int backend, std::uint32_t vertices, unsigned block, cuda_table_launch how) {
  if (skip_without_gpu(state, backend)) return;
  const unrolled_graph g = table_one_graph(vertices);
  float kernel_ms = 0;
  double kernel_total = 0;
  dbf_workspace workspace;  // a run's memory, as dbf keeps it: allocated by the first iteration
  for (auto _ : state) {
    const auto start = clock_type::now();
    dbf_table t;
    switch (backend) {
      case kCpu: t = dbf_table_cpu(g); break;
      case kCpuParallel: t = dbf_table_cpu_parallel(g); break;
      default: t = cuda_dbf_table(g, backend == kCudaSm, block, false, &kernel_ms, &workspace, how); break;
    }
    benchmark::DoNotOptimize(t.min_span.data());
    benchmark::DoNotOptimize(t.step_spans.data());
    state.SetIterationTime(std::chrono::duration<double>(clock_type::now() - start).count());
    kernel_total += kernel_ms;
  }
  state.counters["rows"] = g.rows;
  state.counters["edges"] = static_cast<double>(g.preds.size());
  state.counters["columns"] = static_cast<double>(g.columns());
  state.counters["cells/s"] =
      benchmark::Counter(static_cast<double>(g.cells()), benchmark::Counter::kIsIterationInvariantRate);
  if (backend >= kCuda) {
    const double ms = kernel_total / static_cast<double>(state.iterations());
    state.counters["kernel_ms"] = ms;
    state.counters["GB/s"] = model_bytes(g) / (ms * 1e-3) / 1e9;
    state.counters["peak_GB/s"] = cuda_peak_bandwidth_gbs();
  }
  state.SetLabel(std::string(backend_name(backend)) + (backend >= kCuda ? ", block " + std::to_string(block) : "") +
                 (backend >= kCuda ? std::string(how.graph ? ", a graph" : ", launch by launch") +
                                         (how.steps_only ? ", steps on the device" : "")
                                   : "") +
                 ", " + std::to_string(std::thread::hardware_concurrency()) + " host cores");
}

/// One table as dbf computes it (the CUDA backends: one graph of the level kernels).
void BM_DbfTable(benchmark::State& state) {
  time_table(state, static_cast<int>(state.range(0)), static_cast<std::uint32_t>(state.range(1)),
             static_cast<unsigned>(state.range(2)), {});
}

/// The single table's launches compared (issue 43, item 3): 0 the level kernels one by one on the
/// stream (as before the graph), 1 one graph bringing back the running minimum, 2 one graph that
/// also builds the steps on the device and brings back only them.
void BM_DbfTableLaunch(benchmark::State& state) {
  const int launch = static_cast<int>(state.range(2));
  time_table(state, static_cast<int>(state.range(0)), static_cast<std::uint32_t>(state.range(1)), 256,
             {.graph = launch >= 1, .steps_only = launch == 2});
}
BENCHMARK(BM_DbfTableLaunch)
    ->ArgsProduct({{kCuda, kCudaSm}, {10, 50}, {0, 1, 2}})
    ->ArgNames({"backend", "vertices", "launch"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

void table_one_args(benchmark::internal::Benchmark* b) {
  for (int backend : {kCpu, kCpuParallel, kCuda, kCudaSm})
    for (int v : {10, 20, 30, 40, 50}) b->Args({backend, v, 256});
  // The paper swept the block size of GPU-SM on the largest graph.
  for (int block : {32, 64, 128, 512, 1024}) b->Args({kCudaSm, 50, block});
  for (int block : {32, 64, 128, 512, 1024}) b->Args({kCuda, 50, block});
  b->ArgNames({"backend", "vertices", "block"});
}
BENCHMARK(BM_DbfTable)->Apply(table_one_args)->UseManualTime()->Unit(benchmark::kMillisecond);

/// 1,000 task sets of 3 tasks (10 or 50 vertices, wcet up to 1,000): every table of every set in
/// one call, as the EDF pipeline computes a chunk's. The CUDA variants are called directly so that
/// their kernel time (`kernel_ms`, CUDA events) stands beside the wall time of the whole call.
void BM_DbfBatch(benchmark::State& state) {
  const int backend = static_cast<int>(state.range(0));
  const auto sets = static_cast<std::uint64_t>(state.range(1));
  const auto vertices = static_cast<std::uint32_t>(state.range(2));
  if (skip_without_gpu(state, backend)) return;
  const task_generator_options o = bench_cases::dse_sets(vertices);
  std::vector<unrolled_graph> graphs;
  for (std::uint64_t s = 0; s < sets; ++s)
    for (const task& t : generate_task_set(o, s).tasks) graphs.push_back(unroll(t));
  std::vector<const unrolled_graph*> ptrs;
  std::size_t cells = 0;
  for (const auto& g : graphs) {
    ptrs.push_back(&g);
    cells += g.cells();
  }
  dbf_options opt;
  opt.backend = backend == kCpu ? dbf_backend::cpu : dbf_backend::cpu_parallel;
  double kernel_total = 0;
  std::size_t fell_back = 0;
  // The memory a run keeps across its calls (dbf_session's): grown by the first iteration, reused.
  dbf_workspace workspace;
  for (auto _ : state) {
    const auto start = clock_type::now();
    float ms = 0;
    std::vector<dbf_table> tables;
    switch (backend) {
      case kCuda: tables = cuda_dbf_tables_batch(ptrs, false, 256, false, &ms, &workspace); break;
      case kCudaSm: tables = cuda_dbf_tables_batch(ptrs, true, 256, false, &ms, &workspace); break;
      case kCudaOnChip: tables = cuda_dbf_steps_batch(ptrs, 256, 0, &ms, &fell_back, &workspace); break;
      default: tables = dbf_tables(ptrs, opt); break;
    }
    benchmark::DoNotOptimize(tables.data());
    state.SetIterationTime(std::chrono::duration<double>(clock_type::now() - start).count());
    kernel_total += ms;
  }
  state.counters["tables"] = static_cast<double>(graphs.size());
  state.counters["cells/s"] =
      benchmark::Counter(static_cast<double>(cells), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["sets/s"] =
      benchmark::Counter(static_cast<double>(sets), benchmark::Counter::kIsIterationInvariantRate);
  if (backend >= kCuda) state.counters["kernel_ms"] = kernel_total / static_cast<double>(state.iterations());
  if (backend == kCudaOnChip) {
    state.counters["fell_back"] = static_cast<double>(fell_back);
    // The call's parts besides the kernel, per set: the host's own share (planning, packing,
    // unpacking) and the bytes copied; the rest of the wall time is the copies, the launch and the
    // waits (the GPU model's figures for the call: bench/traffic/gpu_model.cpp).
    const dbf_workspace::totals d = workspace.done();
    const double per = 1.0 / (static_cast<double>(state.iterations()) * static_cast<double>(sets));
    state.counters["host_us/set"] = d.host_seconds * 1e6 * per;
    state.counters["copied_bytes/set"] = static_cast<double>(d.bytes_up + d.bytes_down) * per;
  }
  state.SetLabel(std::string(backend_name(backend)) + ", " + std::to_string(vertices) + " vertices, " +
                 std::to_string(std::thread::hardware_concurrency()) + " host cores");
}
BENCHMARK(BM_DbfBatch)
    ->ArgsProduct({{kCpu, kCpuParallel, kCuda, kCudaSm, kCudaOnChip}, {1000}, {10, 50}})
    ->ArgNames({"backend", "sets", "vertices"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

/// GPU against GPU-SM with only the tuples' home varied (issue 43, item 4): a fork-join task whose
/// sink rows have `width` predecessors (2 to 512), one table by level kernels (tuples read from
/// global memory, or staged in shared memory), and 256 copies by the batch kernels (global, staged)
/// and the on-chip kernel. Paper 003 saw GPU-SM gain where global loads had no cache: a build with
/// -DWARPSPAN_CUDA_UNCACHED_LOADS=ON (-Xptxas -dlcm=cg) recreates that (bench/run_on_gpu.sh,
/// phase bench_uncached).
void BM_DbfPredecessors(benchmark::State& state) {
  const int variant = static_cast<int>(state.range(0));  // 0 global, 1 staged (one table); 2, 3, 4: batch
  const auto width = static_cast<std::uint32_t>(state.range(1));
  if (skip_without_gpu(state, kCuda)) return;
  const unrolled_graph g = unroll(fork_join_task(width, 1000));  // the columns stay in the thousands
  const std::vector<const unrolled_graph*> batch(256, &g);
  double kernel_total = 0;
  std::size_t cells = variant < 2 ? g.cells() : g.cells() * batch.size();
  dbf_workspace ws;
  for (auto _ : state) {
    const auto start = clock_type::now();
    float ms = 0;
    switch (variant) {
      case 0: benchmark::DoNotOptimize(cuda_dbf_table(g, false, 256, false, &ms, &ws)); break;
      case 1: benchmark::DoNotOptimize(cuda_dbf_table(g, true, 256, false, &ms, &ws)); break;
      case 2: benchmark::DoNotOptimize(cuda_dbf_tables_batch(batch, false, 256, false, &ms, &ws)); break;
      case 3: benchmark::DoNotOptimize(cuda_dbf_tables_batch(batch, true, 256, false, &ms, &ws)); break;
      default: benchmark::DoNotOptimize(cuda_dbf_steps_batch(batch, 256, 0, &ms, nullptr, &ws)); break;
    }
    state.SetIterationTime(std::chrono::duration<double>(clock_type::now() - start).count());
    kernel_total += ms;
  }
  static const char* names[] = {"one table, tuples global", "one table, tuples staged", "batch, tuples global",
                                "batch, tuples staged", "batch, table on chip"};
  const double ms = kernel_total / static_cast<double>(state.iterations());
  state.counters["kernel_ms"] = ms;
  state.counters["kernel_cells/s"] = static_cast<double>(cells) / (ms * 1e-3);
  state.counters["predecessors"] = static_cast<double>(g.max_preds());
  state.SetLabel(names[variant]);
}
BENCHMARK(BM_DbfPredecessors)
    ->ArgsProduct({{0, 1, 2, 3, 4}, {2, 8, 32, 128, 512}})
    ->ArgNames({"variant", "width"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

/// The on-chip batch's plan (issue 43): 1,000 sets of 3 x 10 vertices as the H200 ran them on
/// 2026-11-27 (256 threads a block, passes of 512 columns: plan 0), and as the library plans them
/// now (tile 0: passes as wide as the window allows, 1,024 threads a block where one window fills
/// an SM: plan 1). The GPU model predicts their kernel times from one latency model
/// (bench/results/current/gpu_model_emulated.md, "The on-chip dbf kernel's latency model"): this
/// measures the prediction's ratio.
void BM_DbfOnChipPlan(benchmark::State& state) {
  const bool own = state.range(0) != 0;
  if (skip_without_gpu(state, kCudaOnChip)) return;
  const task_generator_options o = bench_cases::dse_sets(10);
  std::vector<unrolled_graph> graphs;
  for (std::uint64_t s = 0; s < 1000; ++s)
    for (const task& t : generate_task_set(o, s).tasks) graphs.push_back(unroll(t));
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  dbf_workspace workspace;
  double kernel_total = 0;
  for (auto _ : state) {
    const auto start = clock_type::now();
    float ms = 0;
    benchmark::DoNotOptimize(cuda_dbf_steps_batch(ptrs, 256, own ? 0 : 512, &ms, nullptr, &workspace).data());
    state.SetIterationTime(std::chrono::duration<double>(clock_type::now() - start).count());
    kernel_total += ms;
  }
  state.counters["kernel_ms"] = kernel_total / static_cast<double>(state.iterations());
  state.SetLabel(own ? "the library's own plan (tile 0)" : "256 threads, passes of 512 columns (as on 2026-11-27)");
}
BENCHMARK(BM_DbfOnChipPlan)->Arg(0)->Arg(1)->ArgName("own")->UseManualTime()->Unit(benchmark::kMillisecond);

/// The host's share of a set in the EDF pipeline, on one core (issue 43): reading its line of a
/// .jsonl (the reading thread's part, serial: batch_source::next_unparsed), parsing it, unrolling
/// its tasks, its curves from the steps a GPU would send, and the QPA test (the stream's threads'
/// part); the tables are computed outside the timed region. What a GPU batch cannot take off the
/// host.
void BM_DbfHostShare(benchmark::State& state) {
  const auto sets = static_cast<std::uint64_t>(state.range(0));
  const auto vertices = static_cast<std::uint32_t>(state.range(1));
  const task_generator_options o = bench_cases::dse_sets(vertices);
  std::vector<task_set> all;
  std::vector<std::string> texts;  // each set as a line of a .jsonl holds it
  std::vector<std::vector<dbf_table>> stepped;
  for (std::uint64_t s = 0; s < sets; ++s) {
    all.push_back(generate_task_set(o, s));
    texts.push_back(task_set_json(all.back(), true));
    std::vector<dbf_table> tables;
    for (const task& t : all.back().tasks) tables.push_back(bench_cases::steps_table(unroll(t)));
    stepped.push_back(std::move(tables));
  }
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("warpspan_bench_share_" + std::to_string(::getpid()) + ".jsonl");
  {
    std::ofstream out(file);
    for (const std::string& t : texts) out << t << '\n';
    if (!out) {
      state.SkipWithError("cannot write the sets' file");
      return;
    }
  }
  // The device call's host share (cuda_dbf_steps_batch: each window planned, a chunk's tables
  // packed into the kernel's arrays and copied into the pinned block, their steps unpacked), from
  // the kernel's output layout made here of the CPU's steps: chunks of dbf_chunk_max_sets sets,
  // the H100's and H200's 227 KiB of shared memory a block.
  std::vector<unrolled_graph> graphs;
  for (const task_set& set : all)
    for (const task& t : set.tasks) graphs.push_back(unroll(t));
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  std::vector<std::uint32_t> where, steps_out;
  for (const auto& tables : stepped)
    for (const dbf_table& t : tables) {
      where.push_back(static_cast<std::uint32_t>(steps_out.size() / 2));
      where.push_back(static_cast<std::uint32_t>(t.step_spans.size()));
      for (std::size_t i = t.step_spans.size(); i-- > 0;) {  // the kernel finds them from the right
        steps_out.push_back(static_cast<std::uint32_t>(t.step_spans[i]));
        steps_out.push_back(static_cast<std::uint32_t>(t.step_columns[i]));
      }
    }
  std::vector<unsigned char> pinned;  // the workspace's host block stands in for it
  double read_s = 0, parse_s = 0, unroll_s = 0, test_s = 0, call_s = 0;
  for (auto _ : state) {
    const auto call_start = clock_type::now();
    const std::size_t per_chunk = dbf_chunk_max_sets * 3;
    for (std::size_t first = 0; first < ptrs.size(); first += per_chunk) {
      const std::size_t last = std::min(ptrs.size(), first + per_chunk);
      std::vector<detail::window_plan> plans(ptrs.size());
      std::vector<std::size_t> order;
      for (std::size_t k = first; k < last; ++k)
        if (detail::plan_window(*ptrs[k], 256, 0, 227 * 1024, plans[k])) order.push_back(k);
      const detail::onchip_inputs in = detail::pack_onchip(ptrs, order, 0, order.size(), plans, 256);
      const std::size_t bytes =
          in.items.size() * sizeof(detail::onchip_item) +
          (in.wcet.size() + in.deadline.size() + in.pred_begin.size() + in.level_begin.size() + in.level_rows.size()) *
              sizeof(std::uint32_t) +
          in.preds.size() * sizeof(dbf_pred);
      if (pinned.size() < bytes) pinned.resize(bytes);
      std::size_t at = 0;
      const auto put = [&](const auto& v) {
        std::memcpy(pinned.data() + at, v.data(), v.size() * sizeof(v[0]));
        at += v.size() * sizeof(v[0]);
      };
      put(in.items), put(in.wcet), put(in.deadline), put(in.pred_begin), put(in.preds), put(in.level_begin);
      put(in.level_rows);
      benchmark::DoNotOptimize(pinned.data());
      std::vector<dbf_table> out(order.size());
      for (std::size_t i = 0; i < order.size(); ++i)
        detail::take_steps(out[i], where.data(), order[i], steps_out.data());
      benchmark::DoNotOptimize(out.data());
    }
    call_s += std::chrono::duration<double>(clock_type::now() - call_start).count();
    const auto read_start = clock_type::now();
    {
      batch_source source(file.string());
      for (unparsed_set raw; source.next_unparsed(raw);) benchmark::DoNotOptimize(raw.text.data());
    }
    read_s += std::chrono::duration<double>(clock_type::now() - read_start).count();
    for (std::uint64_t s = 0; s < sets; ++s) {
      const auto parse_start = clock_type::now();
      benchmark::DoNotOptimize(parse_task_set(texts[s], "bench.jsonl:1"));
      auto t0 = clock_type::now();
      parse_s += std::chrono::duration<double>(t0 - parse_start).count();
      const std::vector<unrolled_graph> graphs = unroll_all(all[s], dbf_options{});
      auto t1 = clock_type::now();
      std::vector<dbf_curve> curves;
      for (std::size_t k = 0; k < graphs.size(); ++k) curves.emplace_back(stepped[s][k], graphs[k]);
      benchmark::DoNotOptimize(edf_test(curves));
      auto t2 = clock_type::now();
      unroll_s += std::chrono::duration<double>(t1 - t0).count();
      test_s += std::chrono::duration<double>(t2 - t1).count();
    }
  }
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
  const double n = static_cast<double>(sets) * static_cast<double>(state.iterations());
  state.counters["read_us/set"] = read_s / n * 1e6;
  state.counters["parse_us/set"] = parse_s / n * 1e6;
  state.counters["unroll_us/set"] = unroll_s / n * 1e6;
  state.counters["curves_and_test_us/set"] = test_s / n * 1e6;
  state.counters["call_host_us/set"] = call_s / n * 1e6;
  state.counters["sets/s"] =
      benchmark::Counter(static_cast<double>(sets), benchmark::Counter::kIsIterationInvariantRate);
  state.SetLabel(std::to_string(vertices) + " vertices, one core");
}
BENCHMARK(BM_DbfHostShare)
    ->ArgsProduct({{1000}, {10, 50}})
    ->ArgNames({"sets", "vertices"})
    ->Unit(benchmark::kMillisecond);

/// The `dbf --backend` word of a benchmark's backend.
dbf_backend session_backend(int backend) {
  return backend == kCpu           ? dbf_backend::cpu
         : backend == kCpuParallel ? dbf_backend::cpu_parallel
         : backend == kCuda        ? dbf_backend::cuda
                                   : dbf_backend::cuda_sm;
}

/// Design-space exploration end to end (issue 43, item 5): 1,000 generated task sets of 3 tasks
/// through the EDF pipeline as `dbf --batch` runs them (unrolled, each chunk's tables in one call,
/// curves, the QPA test, every verdict), on the CPU's cores, cuda and cuda-sm (the tables on the
/// chip, only steps back). sets/s is what a user exploring designs gets.
void BM_DbfEndToEnd(benchmark::State& state) {
  const int backend = static_cast<int>(state.range(0));
  const auto sets = static_cast<std::uint64_t>(state.range(1));
  const auto vertices = static_cast<std::uint32_t>(state.range(2));
  if (skip_without_gpu(state, backend)) return;
  const task_generator_options o = bench_cases::dse_sets(vertices);
  std::vector<task_set> all;
  for (std::uint64_t s = 0; s < sets; ++s) all.push_back(generate_task_set(o, s));
  // The run's settings as `dbf --batch` makes them: every core for cpu-parallel's tables and for
  // the tests of every backend but cpu (the one-thread reference).
  const dbf_session session(session_backend(backend), 0, default_dbf_block, default_max_table_mib, edf_method::qpa);
  const stream_options so = session.streaming();
  std::uint64_t schedulable = 0;
  for (auto _ : state) {
    const auto start = clock_type::now();
    std::uint64_t next = 0;
    schedulable = 0;
    double elapsed = 0;
    analyse_sets(
        [&](analysed_set& s) {
          if (next == all.size()) return false;
          s.index = next;
          s.set = all[next++];
          s.unroll_in_stream = true;  // as analyse_batch reads sets: unrolled on the stream's threads
          return true;
        },
        [&](analysed_set& s) { schedulable += s.result.schedulable ? 1 : 0; }, so, elapsed);
    state.SetIterationTime(std::chrono::duration<double>(clock_type::now() - start).count());
  }
  state.counters["sets/s"] =
      benchmark::Counter(static_cast<double>(sets), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["schedulable"] = static_cast<double>(schedulable);
  state.SetLabel(std::string(backend_name(backend == kCudaSm ? kCudaOnChip : backend)) + ", " +
                 std::to_string(vertices) + " vertices, " + std::to_string(std::thread::hardware_concurrency()) +
                 " host cores");
}
BENCHMARK(BM_DbfEndToEnd)
    ->ArgsProduct({{kCpu, kCpuParallel, kCuda, kCudaSm}, {1000}, {10, 50}})
    ->ArgNames({"backend", "sets", "vertices"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

/// The same from a file to the verdicts, as a user's `dbf --batch SETS.jsonl` runs (issue 43, item
/// 5): the generated sets written once to a .jsonl (one set a line), then each iteration reads,
/// parses and analyses them through the library's batch (batch_source, analyse_batch). 100,000 sets
/// at 10 vertices (about 150 MB of JSON); the one-core reference only at 1,000.
void BM_DbfFromFile(benchmark::State& state) {
  const int backend = static_cast<int>(state.range(0));
  const auto sets = static_cast<std::uint64_t>(state.range(1));
  const auto vertices = static_cast<std::uint32_t>(state.range(2));
  if (skip_without_gpu(state, backend)) return;
  const std::filesystem::path file =
      std::filesystem::temp_directory_path() / ("warpspan_bench_" + std::to_string(sets) + "x" +
                                                std::to_string(vertices) + "_" + std::to_string(::getpid()) + ".jsonl");
  {
    const task_generator_options o = bench_cases::dse_sets(vertices);
    std::ofstream out(file);
    for (std::uint64_t s = 0; s < sets; ++s) out << task_set_json(generate_task_set(o, s), true) << '\n';
    if (!out) {
      state.SkipWithError("cannot write the sets' file");
      return;
    }
  }
  const dbf_session session(session_backend(backend), 0, default_dbf_block, default_max_table_mib, edf_method::qpa);
  std::uint64_t schedulable = 0, seen = 0;
  for (auto _ : state) {
    const auto start = clock_type::now();
    batch_source source(file.string());
    double elapsed = 0;
    schedulable = 0;
    analyse_batch(
        source, session, {}, [&](analysed_set& s) { schedulable += s.result.schedulable ? 1 : 0; }, elapsed, seen);
    state.SetIterationTime(std::chrono::duration<double>(clock_type::now() - start).count());
  }
  std::error_code ignored;
  std::filesystem::remove(file, ignored);
  state.counters["sets/s"] =
      benchmark::Counter(static_cast<double>(sets), benchmark::Counter::kIsIterationInvariantRate);
  state.counters["schedulable"] = static_cast<double>(schedulable);
  state.SetLabel(std::string(backend_name(backend == kCudaSm ? kCudaOnChip : backend)) + ", " +
                 std::to_string(vertices) + " vertices, from a .jsonl file, " +
                 std::to_string(std::thread::hardware_concurrency()) + " host cores");
}
BENCHMARK(BM_DbfFromFile)
    ->Args({kCpu, 1000, 10})
    ->ArgsProduct({{kCpuParallel, kCuda, kCudaSm}, {1000, 100000}, {10}})
    ->ArgsProduct({{kCpuParallel, kCuda, kCudaSm}, {1000}, {50}})
    ->ArgNames({"backend", "sets", "vertices"})
    ->UseManualTime()
    ->Unit(benchmark::kMillisecond);

}  // namespace
}  // namespace warpspan
