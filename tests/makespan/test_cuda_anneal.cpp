// The CUDA chains must equal the CPU chains exactly: same seed, same chain ids, same iterations.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {
namespace {

class CudaAnneal : public ::testing::Test {
 protected:
  void SetUp() override { WARPSPAN_REQUIRE_GPU(); }
};

void expect_same_chains(const problem& prob, std::uint32_t chains, std::uint64_t iterations, std::uint32_t reach) {
  chain_setup setup;
  setup.prob = &prob;
  setup.params.seed = 2026;
  setup.params.iter_max = iterations;
  setup.params.reach = reach;
  estimate_options mix;
  for (std::uint32_t c = 0; c < chains; ++c) {
    setup.chain_ids.push_back(c * 3 + 1);  // ids that are not 0..n-1 on purpose
    const auto s = initial_string(prob.view(), chain_initial_kind(mix, c), setup.params.seed, c * 3 + 1);
    setup.initial.insert(setup.initial.end(), s.begin(), s.end());
  }
  auto cpu = make_cpu_runner(setup, 0);
  auto gpu = make_cuda_runner(setup);

  cpu->advance(iterations / 2);
  cpu->advance(iterations - iterations / 2);
  gpu->advance(iterations / 3);
  gpu->advance(iterations - iterations / 3);

  const auto a = cpu->summaries(), b = gpu->summaries();
  ASSERT_EQ(a.size(), b.size());
  for (std::size_t c = 0; c < a.size(); ++c) {
    EXPECT_EQ(a[c].best, b[c].best) << "chain " << c;
    EXPECT_EQ(a[c].current, b[c].current) << "chain " << c;
    EXPECT_EQ(a[c].iter, b[c].iter) << "chain " << c;
    EXPECT_EQ(a[c].best_iter, b[c].best_iter) << "chain " << c;
    EXPECT_EQ(cpu->best_string(c), gpu->best_string(c)) << "chain " << c;
  }
}

TEST_F(CudaAnneal, VoronoiChainsMatchesCpu) {
  expect_same_chains(test::make("5L9C2L9C", 16, 1, 4), 100, 3000, 0);
}

TEST_F(CudaAnneal, SchedulerLimitAndAllUnitsMatchesCpu) {
  expect_same_chains(test::make("LSCDLLCSD", 7, 1, 2, 1, 1, 3), 67, 2000, 5);
}

TEST_F(CudaAnneal, LargeStateInGlobalMemoryMatchesCpu) {
  // 64 warps x 60 instructions: too big for the on-chip path, so this runs from global memory.
  expect_same_chains(test::make("20L20C20L", 64, 1, 2), 33, 300, 0);
}

TEST_F(CudaAnneal, EstimateWithValidationMatchesCpu) {
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  estimate_options o;
  o.backend = backend_kind::cuda;
  o.chains = 500;
  o.iterations = 2000;
  o.validate = 8;

  const estimate_result r = run_estimate(prob, o);

  EXPECT_EQ(r.validated, 8u);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
}

}  // namespace
}  // namespace warpspan
