// The gpu fitness backend runs the same thread functions as the model: every kernel's output must
// equal the CPU model's, launch for launch. In the CUDA emulation build these run on the CPU.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "warpspan/inputs/gpu.hpp"
#include "warpspan/inputs/model.hpp"
#include "warpspan/inputs/search.hpp"

namespace warpspan::inputs {
namespace {

class CudaInputs : public ::testing::Test {
 protected:
  void SetUp() override { WARPSPAN_REQUIRE_GPU(); }
};

void expect_same_outputs(const kernel_harness& k, std::uint32_t threads, int inputs) {
  const std::string name = k.name();
  const auto ranges = k.genome_ranges(threads);
  std::vector<genome> batch;
  for (int i = 0; i < inputs; ++i) batch.push_back(random_genome(ranges, 77, 1, static_cast<std::uint64_t>(i)));
  if (name == "artificial") batch.push_back(genome(threads, 42));  // the worst case: atomics on one address
  if (name == "bfs") {                                             // a chain: one level per node
    genome chain(ranges.size(), 0);
    for (std::uint32_t v = 0; v < threads; ++v)
      chain[std::size_t{v} * k.genes_per_thread()] = 1, chain[std::size_t{v} * k.genes_per_thread() + 1] = 1;
    batch.push_back(chain);
  }
  if (name == "lbm") {  // every cell type, in stripes, and distributions at both ends of their range
    genome cells(ranges.size(), 0);
    for (std::uint32_t v = 0; v < threads; ++v) {
      cells[std::size_t{v} * 10] = static_cast<std::int32_t>(v % 7 < 4 ? v % 7 : 0);
      for (std::uint32_t d = 0; d < 9; ++d) cells[std::size_t{v} * 10 + 1 + d] = (v + d) % 3 ? 1024 : 0;
    }
    batch.push_back(cells);
  }

  const auto gpu = cuda_time_inputs(k, threads, batch, 2);

  ASSERT_EQ(gpu.size(), batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i) {
    const model_run cpu = run_model(k, make_model(), batch[i], threads);
    EXPECT_EQ(gpu[i].output, cpu.output) << name << " input " << i;
    EXPECT_EQ(gpu[i].launches, cpu.launches) << name << " input " << i;
  }
}

// Thread counts that are not multiples of the warp or the block.
void expect_same_outputs(const std::string& name, std::uint32_t threads, int inputs) {
  expect_same_outputs(*find_kernel(name), threads, inputs);
}

TEST_F(CudaInputs, ArtificialMatchesCpu) { expect_same_outputs("artificial", 300, test::gpu_test_size(20, 3)); }
TEST_F(CudaInputs, BfsMatchesCpu) {
  expect_same_outputs("bfs", test::gpu_test_size(1000, 70), test::gpu_test_size(20, 3));
}
TEST_F(CudaInputs, PetriMatchesCpu) { expect_same_outputs("petri", 130, test::gpu_test_size(20, 3)); }
TEST_F(CudaInputs, BisectMatchesCpu) { expect_same_outputs("bisect", 201, test::gpu_test_size(20, 3)); }
// A 15 x 14 lattice of 203 cells (the last row short): walls inside and at the edges.
TEST_F(CudaInputs, LbmMatchesCpu) { expect_same_outputs("lbm", 203, test::gpu_test_size(20, 3)); }

// Harnesses of one's own with their GPU entries (warpspan/harness.hpp's time_gpu): the test fixture
// (a loop, a float branch, shared memory, an atomic; 3 blocks of 64, the last one short) and
// examples/spmv, built by nvcc or, in the emulation build, as C++ against the emulated runtime whose
// calls this binary answers (tests/CMakeLists.txt).
std::string gpu_harness(const std::string& name) {
  return std::string(WARPSPAN_HARNESS_FIXTURES) + "/lib" + name + ".so";
}

TEST_F(CudaInputs, HarnessFixtureMatchesCpu) {
  const harness_ref k = load_harness(gpu_harness("fixture_gpu"));
  ASSERT_TRUE(k->has_gpu_entry());
  expect_same_outputs(*k, 150, test::gpu_test_size(20, 3));
}

TEST_F(CudaInputs, HarnessSpmvMatchesCpu) {
  const harness_ref k = load_harness(gpu_harness("spmv_gpu"));
  ASSERT_TRUE(k->has_gpu_entry());
  expect_same_outputs(*k, test::gpu_test_size(1000, 300), test::gpu_test_size(20, 3));
}

/// A random+GA search with the GPU fitness spends its 30 evaluations and times each in ms.
void expect_gpu_search_spends_its_evaluations(harness_ref kernel, std::uint32_t threads) {
  search_options o;
  o.kernel = std::move(kernel);
  o.threads = threads;
  o.method = search_method::random_ga;
  o.fitness = fitness_kind::gpu;
  o.model = make_model();
  o.ga.population = 10;
  o.ga.evaluations = 30;
  o.ga.patience = 0;
  o.gpu_repetitions = 2;

  const auto r = run_search(o);

  EXPECT_EQ(r.fitness_unit, "ms");
  EXPECT_EQ(r.trace.evaluations, 30u);
  EXPECT_EQ(r.trace.best.size(), o.kernel->genes(threads));
  EXPECT_GT(r.trace.best_fitness, 0.0);
}

TEST_F(CudaInputs, HarnessGpuFitnessSearchSpendsItsEvaluations) {
  expect_gpu_search_spends_its_evaluations(load_harness(gpu_harness("spmv_gpu")), 256);
}

TEST_F(CudaInputs, GpuFitnessSearchSpendsItsEvaluations) {
  expect_gpu_search_spends_its_evaluations(find_kernel("artificial"), 100);
}

}  // namespace
}  // namespace warpspan::inputs
