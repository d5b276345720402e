// The CUDA backends of Algorithm 1 against the CPU reference, cell by cell. Skipped without a GPU.
#include <gtest/gtest.h>

#include <random>

#include "dbf/dbf_test_util.hpp"
#include "test_util.hpp"
#include "warpspan/dbf/dbf.hpp"

namespace warpspan {
namespace {

std::vector<unrolled_graph> random_graphs(std::uint64_t seed, int count, std::uint32_t vertices, std::uint64_t wcet) {
  std::mt19937_64 rng(seed);
  std::vector<unrolled_graph> out;
  for (int k = 0; k < count; ++k) out.push_back(unroll(test::random_small_task(rng, vertices, wcet, wcet / 2 + 1)));
  return out;
}

TEST(CudaDbf, RowKernelsMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  for (const auto& g : random_graphs(11, 30, 12, 2000)) {
    const dbf_table ref = dbf_table_cpu(g, true);
    for (bool sm : {false, true})
      for (unsigned block : {32u, 256u, 1024u}) {
        const dbf_table gpu = cuda_dbf_table(g, sm, block, true);
        ASSERT_EQ(gpu.cells, ref.cells) << "shared " << sm << " block " << block;
        ASSERT_EQ(gpu.min_span, ref.min_span) << "shared " << sm << " block " << block;
      }
  }
}

TEST(CudaDbf, BatchKernelMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(12, 300, 10, 500);
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
  const std::vector<unrolled_graph> graphs = random_graphs(13, 5, 20, 10000);
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

TEST(CudaDbf, BadBlockSizeIsAnInputErrorGpu) {
  WARPSPAN_REQUIRE_GPU();
  const std::vector<unrolled_graph> graphs = random_graphs(14, 1, 4, 10);
  EXPECT_THROW(cuda_dbf_table(graphs[0], true, 100, false), input_error);
}

}  // namespace
}  // namespace warpspan
