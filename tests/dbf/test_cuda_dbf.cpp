// The CUDA backends of Algorithm 1 against the CPU reference, cell by cell. Skipped without a GPU.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <random>
#include <tuple>

#include "dbf/dbf_test_util.hpp"
#include "emulation_hooks.hpp"
#include "test_util.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/generate.hpp"
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
#include <cuda_runtime.h>  // the emulation's: its counter (emu::counts)
#endif

namespace warpspan {
namespace {

std::vector<unrolled_graph> random_graphs(std::uint64_t seed, int count, std::uint32_t vertices, std::uint64_t wcet) {
  std::mt19937_64 rng(seed);
  std::vector<unrolled_graph> out;
  for (int k = 0; k < count; ++k) out.push_back(unroll(test::random_small_task(rng, vertices, wcet, wcet / 2 + 1)));
  return out;
}

TEST(CudaDbf, LevelKernelsMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  for (const auto& g : random_graphs(11, test::gpu_test_size(30, 5), 12, test::gpu_test_size(2000, 600))) {
    const dbf_table ref = dbf_table_cpu(g, true);
    for (bool sm : {false, true})
      for (unsigned block : {32u, 256u, 1024u})
        for (bool graph : {true, false}) {
          if (!graph && block != 256) continue;  // launch by launch once a backend: the graph runs the same kernels
          const dbf_table gpu = cuda_dbf_table(g, sm, block, true, nullptr, nullptr, {.graph = graph});
          ASSERT_EQ(gpu.cells, ref.cells) << "shared " << sm << " block " << block << " graph " << graph;
          ASSERT_EQ(gpu.min_span, ref.min_span) << "shared " << sm << " block " << block << " graph " << graph;
          // Without the cells the table keeps only the rows a later level reads (level_plan.hpp).
          if (block != 32) continue;
          const dbf_table kept = cuda_dbf_table(g, sm, block, false, nullptr, nullptr, {.graph = graph});
          ASSERT_EQ(kept.min_span, ref.min_span) << "shared " << sm << " graph " << graph;
          EXPECT_TRUE(kept.cells.empty());
        }
  }
}

/// One table's steps built across the device (a block a tile of columns, the tiles right of each
/// folded in) equal the CPU's curve, for tables of one tile and of many, whether the kernels run as
/// a graph or one by one.
TEST(CudaDbf, SingleTableStepsMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  std::vector<unrolled_graph> graphs =
      random_graphs(21, test::gpu_test_size(12, 4), 12, test::gpu_test_size(2000, 600));
  for (auto& g : random_graphs(22, 3, 3, 9)) graphs.push_back(std::move(g));  // a few columns: one tile
  std::size_t many_tiles = 0;
  for (const auto& g : graphs) {
    const dbf_curve ref(dbf_table_cpu(g).min_span, g);
    many_tiles += g.columns() > 2 * 1024;
    // Every block width as a graph; the staged tuples and launch by launch once (the steps' kernels
    // are the same; LevelKernelsMatchesCpu covers the levels).
    for (const auto& [sm, block, graph] : {std::tuple{false, 32u, true}, std::tuple{false, 256u, true},
                                           std::tuple{false, 1024u, true}, std::tuple{true, 256u, false}}) {
      const dbf_table gpu = cuda_dbf_table(g, sm, block, false, nullptr, nullptr, {.graph = graph, .steps_only = true});
      ASSERT_TRUE(gpu.has_steps());
      EXPECT_TRUE(gpu.min_span.empty());
      const dbf_curve mine(gpu, g);
      ASSERT_EQ(mine.step_spans(), ref.step_spans()) << g.columns() << " columns, block " << block;
      ASSERT_EQ(mine.step_demands(), ref.step_demands()) << g.columns() << " columns, block " << block;
    }
  }
  EXPECT_GT(many_tiles, 0u) << "no table spans more than two tiles of the widest block";
}

TEST(CudaDbf, BatchKernelMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(12, test::gpu_test_size(300, 40), 10, 500);
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  for (bool sm : {false, true}) {
    const std::vector<dbf_table> gpu = cuda_dbf_tables_batch(ptrs, sm, 256, true);
    ASSERT_EQ(gpu.size(), graphs.size());
    for (std::size_t k = 0; k < graphs.size(); ++k) {
      const dbf_table ref = dbf_table_cpu(graphs[k], true);
      ASSERT_EQ(gpu[k].cells, ref.cells) << k;
      ASSERT_EQ(gpu[k].min_span, ref.min_span) << k;
    }
  }
}

TEST(CudaDbf, DispatchMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs =
      random_graphs(13, test::gpu_test_size(5, 2), 20, test::gpu_test_size(10000, 2000));
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  dbf_options cpu;
  cpu.backend = dbf_backend::cpu;
  const auto ref = dbf_tables(ptrs, cpu);
  for (dbf_backend b : {dbf_backend::cuda, dbf_backend::cuda_sm, dbf_backend::automatic}) {
    dbf_options o;
    o.backend = b;
    const auto got = dbf_tables(ptrs, o);
    for (std::size_t k = 0; k < graphs.size(); ++k) ASSERT_EQ(got[k].min_span, ref[k].min_span) << k;
  }
}

TEST(CudaDbf, KernelTimeIsCountedGpu) {
  // The CUDA backends add their kernels' time (CUDA events) where asked, level kernels and batch
  // alike; the CPU adds nothing. `dbf --json` reports it as kernel_s (CliCuda.DbfReportsKernelTimeGpu).
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(7, 67, 6, 60);
  std::vector<const unrolled_graph*> few, many;
  for (const auto& g : graphs) (few.size() < 3 ? few : many).push_back(&g);
  ASSERT_GE(many.size(), cuda_batch_threshold);
  for (dbf_backend b : {dbf_backend::cpu, dbf_backend::cuda, dbf_backend::cuda_sm})
    for (const auto* set : {&few, &many}) {
      std::atomic<std::uint64_t> ns{0};
      dbf_options o;
      o.backend = b;
      o.kernel_ns = &ns;
      (void)compute_tables(*set, o);
      if (b == dbf_backend::cpu)
        EXPECT_EQ(ns.load(), 0u);
      else
        EXPECT_GT(ns.load(), 0u) << to_string(b) << ", " << set->size() << " tables";
    }
}

/// The curve of `t` as dbf_curve builds it from the CPU reference's min_span.
void expect_same_steps(const dbf_table& got, const unrolled_graph& g, const std::string& what) {
  ASSERT_TRUE(got.has_steps()) << what;
  EXPECT_TRUE(got.min_span.empty()) << what;
  const dbf_curve ref(dbf_table_cpu(g, false).min_span, g), mine(got, g);
  EXPECT_EQ(mine.step_spans(), ref.step_spans()) << what;
  EXPECT_EQ(mine.step_demands(), ref.step_demands()) << what;
  EXPECT_EQ(mine.residues(), ref.residues()) << what;
}

TEST(CudaDbf, OnChipStepsMatchesCpu) {
  // The table in shared memory, tile by tile and level by level, the steps built on the device:
  // the same steps as the CPU reference's min_span gives, for one pass (tile 0: the whole table
  // fits), tiles narrower than the largest wcet (the window wraps many times), a tile that does
  // not divide the columns, and blocks of 32 to 1024 threads (the steps' scans chunk by chunk).
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(21, test::gpu_test_size(200, 6), 10, 300);
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  const std::pair<unsigned, unsigned> configs[] = {{0, 256}, {32, 32}, {100, 256}, {32, 1024}};  // tile, block
  for (const auto& [tile, block] : configs) {
    std::size_t fell_back = 9;
    const std::vector<dbf_table> got = cuda_dbf_steps_batch(ptrs, block, tile, nullptr, &fell_back);
    ASSERT_EQ(got.size(), graphs.size());
    EXPECT_EQ(fell_back, 0u);
    for (std::size_t k = 0; k < graphs.size(); ++k)
      expect_same_steps(
          got[k], graphs[k],
          "tile " + std::to_string(tile) + " block " + std::to_string(block) + " table " + std::to_string(k));
  }
}

TEST(CudaDbf, OnChipOwnPlanWithWindowsThatFillAnSmMatchesCpu) {
  // Sets as design-space exploration makes them (3 tasks of 10 vertices, wcets up to 1,000): each
  // window (every row, 2,048 columns) fills an SM's shared memory, so the batch's own plan (tile 0)
  // runs passes of every column the window holds past the largest wcet, and more threads a block
  // than asked (1,024: one block a SM either way). The steps are the CPU's, as with the block and
  // the passes asked for exactly.
  WARPSPAN_REQUIRE_GPU();
  task_generator_options o;
  o.vertices = 10;
  o.max_wcet = 1000;
  o.seed = 7;
  std::vector<unrolled_graph> graphs;
  for (std::uint64_t s = 0; s < static_cast<std::uint64_t>(test::gpu_test_size(20, 1)); ++s)
    for (const task& t : generate_task_set(o, s).tasks) graphs.push_back(unroll(t));
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  ASSERT_GT(onchip_window_bytes(graphs[0], 512), 227 * 1024 / 2) << "one window a SM";
  for (const unsigned tile : {0u, 512u}) {
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
    // The threads a block the kernel ran, where the emulation counts them (a traced build).
    const bool counting = emu::race_check_traced() && !emu::counting_on();
    if (counting) {
      emu::reset_counts();
      emu::set_counting(true);
    }
#endif
    std::size_t fell_back = 9;
    const std::vector<dbf_table> got = cuda_dbf_steps_batch(ptrs, 256, tile, nullptr, &fell_back);
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
    if (counting) {
      emu::set_counting(false);
      for (const emu::kernel_counts& k : emu::counts())
        if (k.kernel.rfind("dbf_onchip_kernel", 0) == 0)
          EXPECT_EQ(k.threads, k.blocks * (tile == 0 ? 1024u : 256u)) << "tile " << tile;
      emu::reset_counts();
    }
#endif
    EXPECT_EQ(fell_back, 0u);
    for (std::size_t k = 0; k < graphs.size(); ++k)
      expect_same_steps(got[k], graphs[k], "tile " + std::to_string(tile) + " table " + std::to_string(k));
  }
}

TEST(CudaDbf, OnChipWindowOverSharedMemoryFallsBackMatchesCpu) {
  // wcets in the thousands (gcd 1): a window of every row and 32 columns past the largest wcet is
  // over the device's shared memory, so those tables go to the staged kernel, whose minima give
  // their steps on the device; small ones beside them stay on the chip. Both give the CPU's steps.
  WARPSPAN_REQUIRE_GPU();
  std::vector<unrolled_graph> graphs = random_graphs(22, 2, 12, test::gpu_test_size(20000, 9000));
  for (auto& g : random_graphs(23, 3, 6, 50)) graphs.push_back(std::move(g));
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  std::size_t big = 0;
  for (const auto& g : graphs) big += onchip_window_bytes(g, 32) > 227 * 1024 ? 1 : 0;
  ASSERT_GE(big, 1u);
  std::size_t fell_back = 0;
  const std::vector<dbf_table> got = cuda_dbf_steps_batch(ptrs, 256, 0, nullptr, &fell_back);
  EXPECT_EQ(fell_back, big);
  for (std::size_t k = 0; k < graphs.size(); ++k) {
    const dbf_curve ref(dbf_table_cpu(graphs[k], false).min_span, graphs[k]), mine(got[k], graphs[k]);
    EXPECT_TRUE(got[k].has_steps()) << k << ": only steps come back";
    EXPECT_TRUE(got[k].min_span.empty()) << k;
    EXPECT_EQ(mine.step_spans(), ref.step_spans()) << k;
    EXPECT_EQ(mine.step_demands(), ref.step_demands()) << k;
  }
}

TEST(CudaDbf, PipelineTakesStepsFromTheChipMatchesCpu) {
  // dbf_tables as the EDF pipeline calls it (steps suffice): cuda-sm with a batch's worth of
  // tables builds steps on the chip; cuda and the CPU return min_span; the curves agree.
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(24, static_cast<int>(cuda_batch_threshold) + 2, 6, 100);
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  dbf_options cpu, sm;
  cpu.backend = dbf_backend::cpu;
  sm.backend = dbf_backend::cuda_sm;
  sm.steps_suffice = true;
  const auto ref = dbf_tables(ptrs, cpu);
  const auto got = dbf_tables(ptrs, sm);
  for (std::size_t k = 0; k < graphs.size(); ++k) {
    ASSERT_TRUE(got[k].has_steps()) << k;
    const dbf_curve a(ref[k], graphs[k]), b(got[k], graphs[k]);
    EXPECT_EQ(a.step_spans(), b.step_spans()) << k;
    EXPECT_EQ(a.step_demands(), b.step_demands()) << k;
  }
}

#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
TEST(CudaDbf, FreedDeviceMemoryStaysInThePoolBetweenCallsGpu) {
  // A batch's calls reuse the memory their predecessors freed (issue 43): the first stream sets
  // the default pool's release threshold to min(1 GiB, a sixteenth of the device), once a process.
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(5, 2, 6, 100);
  (void)cuda_dbf_table(graphs[0], false, 256, true);
  const std::uint64_t keep = emu::pool_release_threshold();
  EXPECT_GT(keep, 0u);
  EXPECT_LE(keep, std::uint64_t{1} << 30);
  (void)cuda_dbf_table(graphs[1], true, 256, true);
  EXPECT_EQ(emu::pool_release_threshold(), keep);
}
#endif

TEST(CudaDbf, BatchesOfARunShareOneWorkspaceMatchesCpu) {
  // A run's batch calls (dbf_workspace, issue 43): the first call allocates the device block and
  // the pinned host block, calls no larger than it allocate nothing, on every path (batches global,
  // staged and on chip, a table alone by level kernels, the on-chip batch's fallback to the staged
  // kernel); the results are the
  // CPU's. A larger call grows the block once. Without a workspace a call stages in pageable
  // memory (it pins nothing).
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(31, test::gpu_test_size(120, 8), 8, 200);
  std::vector<unrolled_graph> big = random_graphs(32, 1, 12, test::gpu_test_size(20000, 9000));  // falls back
  std::vector<const unrolled_graph*> ptrs, half, with_big;
  for (const auto& g : graphs) ptrs.push_back(&g);
  half.assign(ptrs.begin(), ptrs.begin() + static_cast<std::ptrdiff_t>(ptrs.size() / 2));
  with_big = half;
  with_big.push_back(&big[0]);
  std::map<const unrolled_graph*, std::vector<std::uint32_t>> cpu;  // each reference computed once
  const auto expect_cpu = [&](const std::vector<dbf_table>& got, const std::vector<const unrolled_graph*>& in,
                              const std::string& what) {
    ASSERT_EQ(got.size(), in.size()) << what;
    for (std::size_t k = 0; k < in.size(); ++k) {
      auto [it, fresh] = cpu.try_emplace(in[k]);
      if (fresh) it->second = dbf_table_cpu(*in[k], false).min_span;
      const dbf_curve ref(it->second, *in[k]), mine(got[k], *in[k]);
      ASSERT_EQ(mine.step_spans(), ref.step_spans()) << what << ", table " << k;
      ASSERT_EQ(mine.step_demands(), ref.step_demands()) << what << ", table " << k;
    }
  };
  dbf_workspace ws;
  EXPECT_EQ(ws.device_allocations(), 0u);  // nothing before the first call
  EXPECT_EQ(ws.device_bytes(), 0u);
  expect_cpu(cuda_dbf_tables_batch(ptrs, false, 256, false, nullptr, &ws), ptrs, "global, first");
  EXPECT_EQ(ws.device_allocations(), 1u);
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
  const std::size_t device_calls = emu::allocation_count(), host_calls = emu::host_allocation_count();
#endif
  expect_cpu(cuda_dbf_tables_batch(ptrs, true, 256, false, nullptr, &ws), ptrs, "staged");
  expect_cpu(cuda_dbf_tables_batch(half, false, 256, false, nullptr, &ws), half, "global, half");
  expect_cpu(cuda_dbf_steps_batch(ptrs, 256, 0, nullptr, nullptr, &ws), ptrs, "on chip");
  expect_cpu(cuda_dbf_steps_batch(ptrs, 256, 0, nullptr, nullptr, &ws), ptrs, "on chip, again");
  for (std::size_t k = 0; k < 3; ++k)  // a few tables alone, by level kernels (the stream's small chunks)
    expect_cpu({cuda_dbf_table(*ptrs[k], k % 2 == 1, 256, false, nullptr, &ws, {.steps_only = k != 1})}, {ptrs[k]},
               "level kernels");
  EXPECT_EQ(ws.device_allocations(), 1u);
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
  EXPECT_EQ(emu::allocation_count(), device_calls) << "a call within the workspace's size allocated device memory";
  EXPECT_EQ(emu::host_allocation_count(), host_calls) << "a call within the workspace's size pinned host memory";
#endif
  // A table far larger than the others: the fallback's call grows the block.
  std::size_t fell_back = 0;
  expect_cpu(cuda_dbf_steps_batch(with_big, 256, 0, nullptr, &fell_back, &ws), with_big, "with a large table");
  EXPECT_EQ(fell_back, 1u);
  EXPECT_EQ(ws.device_allocations(), 2u);
  EXPECT_GT(ws.device_bytes(), 0u);
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
  const std::size_t pinned_calls = emu::host_allocation_count(), pinned_live = emu::live_host_allocations();
  expect_cpu(cuda_dbf_steps_batch(half, 256, 0, nullptr, nullptr, nullptr), half, "no workspace");
  EXPECT_EQ(emu::host_allocation_count(), pinned_calls);
  EXPECT_EQ(emu::live_host_allocations(), pinned_live);
#endif
}

TEST(CudaDbf, ManyPredecessorsOptInOrFallBackMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  // 7,000 tuples = 56,000 bytes: over the 48 KiB default, so the staged kernels must opt in;
  // 30,000 tuples = 240,000 bytes: over the 227 KiB device limit, so they must fall back to the
  // unstaged kernels. Before, both launches failed. Blocks of one warp: the batch kernel passes a
  // barrier a row (7,000 and 30,000 rows), which the emulation runs thread by thread (this test took
  // 148 s in the emulation build with 256 threads a block, 30 s with 32).
  constexpr unsigned block = 32;
  for (std::uint32_t width : {7000u, 30000u}) {
    const unrolled_graph g = unroll(fork_join_task(width, 10));
    ASSERT_GT(g.max_preds(), width - 1);
    const dbf_table ref = dbf_table_cpu(g, false);
    EXPECT_EQ(cuda_dbf_table(g, true, block, false).min_span, ref.min_span) << width;
    const std::vector<dbf_table> batch = cuda_dbf_tables_batch({&g}, true, block, false);
    ASSERT_EQ(batch.size(), 1u);
    EXPECT_EQ(batch[0].min_span, ref.min_span) << width;
  }
}

#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
/// The input_error `f` throws ("" when it throws nothing; other exceptions go through).
template <class F>
std::string input_error_of(F f) {
  try {
    f();
  } catch (const input_error& e) {
    return e.what();
  }
  return "";
}

TEST(CudaDbf, InputsThatDoNotFitBesideTheTableAreAnInputErrorGpu) {
  // A device with room for the table (with the checks' slack: 10 % single, 20 % batched) but not
  // for the predecessor tuples beside it: refused up front with the memory needed, for one table
  // and a batch. Before, the table alone was checked and the allocation failed as a CUDA error.
  WARPSPAN_REQUIRE_GPU();
  const unrolled_graph g = unroll(fork_join_task(2000, 10));
  const std::size_t table = (g.cells() + g.columns()) * sizeof(std::uint32_t);
  ASSERT_GT(g.preds.size() * sizeof(dbf_pred), table * 3 / 10);  // more than the 26 % the limit leaves
  const emu::device_memory_scope small(table + table / 4 + table / 100);
  const std::string single = input_error_of([&] { cuda_dbf_table(g, true, 256, false); });
  const std::string batch = input_error_of([&] { cuda_dbf_tables_batch({&g}, true, 256, false); });
  EXPECT_NE(single.find("MiB of GPU memory"), std::string::npos) << single;
  EXPECT_NE(batch.find("MiB of GPU memory"), std::string::npos) << batch;
}
#endif

TEST(CudaDbf, BadBlockSizeIsAnInputErrorGpu) {
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(14, 1, 4, 10);
  EXPECT_THROW(cuda_dbf_table(graphs[0], true, 100, false), input_error);
}

}  // namespace
}  // namespace warpspan
