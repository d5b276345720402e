// The CUDA chains must equal the CPU chains exactly: same seed, same chain ids, same iterations.
#include <gtest/gtest.h>

#include <stdexcept>

#include "emulation_hooks.hpp"
#include "test_util.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {
namespace {

class CudaAnneal : public ::testing::Test {
 protected:
  void SetUp() override { WARPSPAN_REQUIRE_GPU(); }
};

/// `packing`: the GPU chains' widths (unset: the narrowest that fits, as estimate runs them).
/// `design`: a thread or a warp a chain (unset: as the plan picks).
void expect_same_chains(const problem& prob, std::uint32_t chains, std::uint64_t iterations, std::uint32_t reach,
                        std::optional<chain_packing> packing = std::nullopt,
                        std::optional<chain_design> design = std::nullopt) {
  chain_setup setup;
  setup.packing = packing;
  setup.design = design;
  setup.prob = &prob;
  setup.params.seed = 2026;
  setup.params.iter_max = iterations;
  setup.params.reach = reach;
  estimate_options mix;  // the estimate's mix of first strings, the beam's among them
  mix.seed = setup.params.seed;
  for (std::uint32_t c = 0; c < chains; ++c)
    setup.chain_ids.push_back(c * 3 + 1);  // ids that are not 0..n-1 on purpose
  setup.initial = chain_initial_strings(prob, mix, setup.chain_ids);
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

/// A runner of one chain of `prob` asked for `packing` and `design` is refused (std::invalid_argument).
void expect_runner_refused(const problem& prob, std::optional<chain_packing> packing,
                           std::optional<chain_design> design) {
  chain_setup setup;
  setup.prob = &prob;
  setup.packing = packing;
  setup.design = design;
  setup.chain_ids = {0};
  setup.initial = round_robin_string(prob.view());
  EXPECT_THROW(make_cuda_runner(setup), std::invalid_argument);
}

TEST_F(CudaAnneal, VoronoiChainsMatchesCpu) {
  // The emulation traces every access of the global-memory path for its race checker: fewer
  // iterations there.
  expect_same_chains(test::make("5L9C2L9C", 16, 1, 4), 100, test::gpu_test_size(3000, 300), 0);
}

TEST_F(CudaAnneal, SchedulerLimitAndAllUnitsMatchesCpu) {
  expect_same_chains(test::make("LSCDLLCSD", 7, 1, 2, 1, 1, 3), 67, 2000, 5);
}

TEST_F(CudaAnneal, OnChipVoronoiFewWarpsMatchesCpu) {
  // 3 and 4 warps of the Voronoi kernel keep their state on chip; before the best string was
  // 16-byte aligned, each launch's copy back overwrote its first entries with stale working bytes.
  for (int warps : {3, 4}) expect_same_chains(test::make("5L9C2L9C", warps, 1, 4), 70, 1500, 0);
}

TEST_F(CudaAnneal, LargeStateInGlobalMemoryMatchesCpu) {
  // 64 warps x 60 instructions, a thread a chain: too big for the on-chip path, so this runs from
  // global memory.
  expect_same_chains(test::make("20L20C20L", 64, 1, 2), 33, test::gpu_test_size(300, 30), 0, std::nullopt,
                     chain_design::thread);
}

TEST_F(CudaAnneal, EveryPackingMatchesCpu) {
  // Every packing on both paths: Voronoi with 4 warps on chip (word-interleaved), 50 warps of 30
  // instructions in global memory (the tests above run the chains the plan picks), a scheduler
  // limit, per-warp kernels with barriers. Compact needs the bound within 255 cycles, which the 50
  // warps' (1,255) is not.
  const problem on_chip = test::make("5L9C2L9C", 4, 1, 4), global = test::make("10L10C10L", 50, 1, 2),
                limited = test::make("LSCDLLCSD", 7, 1, 2, 1, 1, 3),
                per_warp = make_problem(parse_warp_kernels("LBCCL:3,CLBC:2,LLBCC:3"), test::sm_of(1, 1, 0, 0, 2), 4);
  EXPECT_FALSE(compact_fits(global.view()));
  for (const chain_packing packing : {chain_packing::wide, chain_packing::narrow, chain_packing::compact}) {
    SCOPED_TRACE(to_string(packing));
    EXPECT_TRUE(plan_cuda_chains(on_chip.view(), packing).on_chip);
    expect_same_chains(on_chip, 40, test::gpu_test_size(1000, 200), 0, packing);
    if (packing != chain_packing::compact) {  // a thread a chain (left to itself the plan gives these a warp)
      EXPECT_FALSE(plan_cuda_chains(global.view(), packing, chain_design::thread).on_chip);
      expect_same_chains(global, 33, test::gpu_test_size(200, 20), 0, packing, chain_design::thread);
    }
    expect_same_chains(limited, 40, 800, 5, packing);
    expect_same_chains(per_warp, 40, 600, 0, packing);
  }
}

TEST_F(CudaAnneal, WarpDesignMatchesCpu) {
  // A warp a chain (team_schedule.hpp: the lanes share the loops, search 32 cycles at once by
  // ballot, and count with atomics), asked of problems of every size the issue names: the Voronoi
  // kernel (25 instructions) at W = 3, 16, 48 and 64, 200 instructions, a scheduler limit,
  // barriers in one block and in blocks, per-warp kernels; every packing at W = 16. In the
  // emulation every ballot and sync is a barrier of the block's 32 fibers: few iterations there.
  const auto warp = chain_design::warp;
  const std::optional<chain_packing> any;
  expect_same_chains(test::make("5L9C2L9C", 3, 1, 4), 12, test::gpu_test_size(3000, 60), 0, any, warp);
  for (const chain_packing packing : {chain_packing::wide, chain_packing::narrow, chain_packing::compact}) {
    SCOPED_TRACE(to_string(packing));
    expect_same_chains(test::make("5L9C2L9C", 16, 1, 4), 3, test::gpu_test_size(2000, 20), 0, packing, warp);
  }
  expect_same_chains(test::make("5L9C2L9C", 16, 1, 4), 3, test::gpu_test_size(2000, 30), 25, any, warp);
  expect_same_chains(test::make("5L9C2L9C", 48, 1, 4), 2, test::gpu_test_size(1000, 8), 0, any, warp);
  expect_same_chains(test::make("5L9C2L9C", 64, 1, 4), 2, test::gpu_test_size(1000, 6), 0, any, warp);
  expect_same_chains(test::make("50L50C50L50C", 4, 1, 2), 3, test::gpu_test_size(1000, 12), 0, any, warp);
  expect_same_chains(test::make("LSCDLLCSD", 7, 1, 2, 1, 1, 3), 6, test::gpu_test_size(2000, 80), 5, any, warp);
  expect_same_chains(test::make("LBCCBL", 6, 1, 2), 6, test::gpu_test_size(2000, 80), 0, any, warp);
  expect_same_chains(test::make_blocks("LCBLCBC", 8, 1, 2, 0, 2), 6, test::gpu_test_size(2000, 80), 0, any, warp);
  expect_same_chains(make_problem(parse_warp_kernels("LBCCL:3,CLBC:2,LLBCC:3"), test::sm_of(1, 1, 0, 0, 2), 4), 6,
                     test::gpu_test_size(2000, 80), 0, any, warp);
}

TEST_F(CudaAnneal, ChainsTooLargeForAThreadRunAWarpEachGpu) {
  // Voronoi at W = 64 (narrow: 12,960 bytes a chain) does not fit a warp of thread-per-chain
  // chains on chip, so the plan gives each chain a warp (a block of 32 threads) and its state on
  // chip; at W = 16 (compact, 2,432 bytes) a thread a chain stays on chip. A warp asked where a
  // chain is larger than a block's shared memory is refused before anything is allocated.
  const problem large = test::make("5L9C2L9C", 64, 1, 4), small = test::make("5L9C2L9C", 16, 1, 4);
  const cuda_chain_plan a = plan_cuda_chains(large.view()), b = plan_cuda_chains(small.view());
  EXPECT_EQ(a.design, chain_design::warp);
  EXPECT_TRUE(a.on_chip);
  EXPECT_EQ(a.block, 32u);
  EXPECT_EQ(a.shared_bytes, anneal_warp_shared_bytes(large.view(), a.packing));
  EXPECT_EQ(a.device_chains, a.sms * (a.threads_per_sm / 32));
  EXPECT_EQ(b.design, chain_design::thread);
  EXPECT_TRUE(b.on_chip);
  EXPECT_EQ(plan_cuda_chains(large.view(), std::nullopt, chain_design::thread).design, chain_design::thread);
  EXPECT_FALSE(plan_cuda_chains(large.view(), std::nullopt, chain_design::thread).on_chip);
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
  // The emulated H100: the sm_90 arithmetic with the warp kernel's registers (resource_usage.tsv).
  const cuda_chain_plan want = plan_chains_for(large.view(), sm90_limits(), {80, 0, 256}, 132, std::size_t{80} << 30,
                                               std::nullopt, std::nullopt, {64, 0, 32});
  EXPECT_EQ(a.device_chains, want.device_chains);
  EXPECT_EQ(a.threads_per_sm, want.threads_per_sm);
#endif
  const problem huge = test::make("400L400C", 200, 1, 1);  // 160,000 instructions: 1.3 MB a chain
  expect_runner_refused(huge, std::nullopt, chain_design::warp);
}

TEST_F(CudaAnneal, VoronoiSixteenWarpsRunsCompactOnChipGpu) {
  // The plans of test_chain_memory.cpp on the device: compact chains of 1,632 working bytes (the
  // default) and narrow ones of 2,464 on chip; wide ones (5,744 bytes) in global memory a thread
  // a chain, on chip a warp a chain (the plan's pick for them).
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  const cuda_chain_plan compact = plan_cuda_chains(prob.view()),
                        narrow = plan_cuda_chains(prob.view(), chain_packing::narrow),
                        wide = plan_cuda_chains(prob.view(), chain_packing::wide, chain_design::thread);
  EXPECT_EQ(plan_cuda_chains(prob.view(), chain_packing::wide).design, chain_design::warp);
  EXPECT_EQ(compact.packing, chain_packing::compact);
  EXPECT_TRUE(compact.on_chip);
  EXPECT_EQ(compact.chain_bytes, 2432u);
  EXPECT_EQ(narrow.packing, chain_packing::narrow);
  EXPECT_TRUE(narrow.on_chip);
  EXPECT_EQ(narrow.chain_bytes, 3264u);
  EXPECT_EQ(wide.packing, chain_packing::wide);
  EXPECT_FALSE(wide.on_chip);
  EXPECT_EQ(wide.chain_bytes, 5744u + 800u);
  // Narrow asked of a problem it does not fit: refused before anything is allocated.
  expect_runner_refused(test::make("LC", 256, 1, 1), chain_packing::narrow, std::nullopt);
}

TEST_F(CudaAnneal, EstimateWithValidationMatchesCpu) {
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  estimate_options o;
  o.backend = backend_kind::cuda;
  o.chains = test::gpu_test_size(500, 100);  // the emulation traces every global-memory access
  o.iterations = test::gpu_test_size(2000, 300);
  o.validate = 8;

  const estimate_result r = run_estimate(prob, o);

  EXPECT_EQ(r.validated, 8u);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
}

TEST_F(CudaAnneal, EstimateFittedToSecondsReplaysItsPlanMatchesCpu) {
  // The cooling schedule changes every round; --validate must replay the same plan on the CPU.
  const problem prob = test::make("5L9C2L9C", 8, 1, 4);
  estimate_options o;
  o.backend = backend_kind::cuda;
  o.chains = 64;
  o.iterations = std::uint64_t{1} << 40;
  o.seconds = 1.0;
  o.fit_to_seconds = true;
  o.validate = 8;

  const estimate_result r = run_estimate(prob, o);

  EXPECT_LT(r.iterations_planned, std::uint64_t{1} << 30);
  EXPECT_EQ(r.validated, 8u);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
}

TEST_F(CudaAnneal, ManyInstructionsMatchesCpu) {
  // 50,000 instruction types (over the 48 KiB default: staged after opting in) and 240,000 (over
  // the 227 KiB device limit: read from global memory). Before, both launches failed.
  expect_same_chains(test::make("25000L25000C", 1, 1, 1), 3, 40, 64);
  expect_same_chains(test::make("120000C120000L", 1, 1, 1), 2, 20, 64);
}

TEST_F(CudaAnneal, InitialStringsOfTheWrongSizeAreRefusedGpu) {
  const problem prob = test::make("LCL", 2, 1, 1);
  chain_setup setup;
  setup.prob = &prob;
  setup.chain_ids = {0, 1};
  setup.initial = round_robin_string(prob.view());  // one string for two chains
  EXPECT_THROW(make_cuda_runner(setup), std::logic_error);
}

#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
TEST_F(CudaAnneal, ConstructorThatThrowsFreesItsStreamGpu) {
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  chain_setup setup;
  setup.prob = &prob;
  for (std::uint32_t c = 0; c < 500; ++c) {
    setup.chain_ids.push_back(c);
    const auto s = round_robin_string(prob.view());
    setup.initial.insert(setup.initial.end(), s.begin(), s.end());
  }
  const std::size_t before = emu::live_streams();
  emu::set_memory_limit(std::size_t{1} << 20);  // 500 compact Voronoi chains (2,432 bytes each) need more than 1 MiB
  EXPECT_THROW(make_cuda_runner(setup), input_error);
  emu::set_memory_limit(0);
  EXPECT_EQ(emu::live_streams(), before);
}
#endif

TEST_F(CudaAnneal, EstimateOnChipBestStringRebuildsMatchesCpu) {
  for (int warps : {3, 4}) {
    const problem prob = test::make("5L9C2L9C", warps, 1, 4);
    estimate_options o;
    o.backend = backend_kind::cuda;
    o.chains = 96;
    o.iterations = test::gpu_test_size(1500, 300);  // the emulation traces every access
    o.validate = 16;
    const estimate_result r = run_estimate(prob, o);
    EXPECT_EQ(r.validated, 16u);
    EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan) << warps << " warps";
  }
}

TEST_F(CudaAnneal, PlanFillsTheDeviceGpu) {
  // Voronoi with 4 warps keeps its (compact) state on chip; 64 warps of 60 instructions do not (the
  // cost model of choose_chain_memory, chains.hpp) when a thread runs a chain (left to itself, the
  // plan gives those a warp each: ChainsTooLargeForAThreadRunAWarpEachGpu).
  const problem small = test::make("5L9C2L9C", 4, 1, 4), large = test::make("20L20C20L", 64, 1, 2);
  const cuda_chain_plan a = plan_cuda_chains(small.view()),
                        b = plan_cuda_chains(large.view(), std::nullopt, chain_design::thread);
  EXPECT_TRUE(a.on_chip);
  EXPECT_FALSE(b.on_chip);
  for (const cuda_chain_plan& plan : {a, b}) {
    EXPECT_EQ(plan.block % 32, 0u);
    EXPECT_GE(plan.block, 32u);
    EXPECT_LE(plan.block, 256u);
    EXPECT_LE(plan.shared_bytes, plan.shared_limit);
    // At least one block on every SM, whole blocks only.
    EXPECT_GE(plan.device_chains, plan.sms * plan.block);
    EXPECT_EQ(plan.device_chains % plan.block, 0u);
  }
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
  EXPECT_EQ(a.sms, 132u);  // the emulated H100
  EXPECT_EQ(a.shared_limit, 227u * 1024);
  // The emulated calculator applies nvcc's registers (80, resource_usage.tsv) with the sm_90
  // limits: the plan is the one worked out in test_chain_memory.cpp (768 threads an SM in global
  // memory, 512 threads on chip for Voronoi with 4 warps' compact chains), not 2,048 threads
  // an SM.
  for (const problem* prob : {&small, &large}) {
    const cuda_chain_plan want = plan_chains_for(prob->view(), sm90_limits(), {80, 0, 256}, 132, std::size_t{80} << 30,
                                                 std::nullopt, chain_design::thread);
    const cuda_chain_plan got = prob == &small ? a : b;
    EXPECT_EQ(got.on_chip, want.on_chip);
    EXPECT_EQ(got.block, want.block);
    EXPECT_EQ(got.threads_per_sm, want.threads_per_sm);
    EXPECT_EQ(got.device_chains, want.device_chains);
    EXPECT_EQ(got.shared_bytes, want.shared_bytes);
  }
  EXPECT_EQ(a.device_chains, 132u * 512);
  EXPECT_EQ(b.device_chains, 132u * 768);
#endif
  // On chip, a block's working states and the staged types fill its shared memory.
  const chain_layout l = make_chain_layout(small.view(), a.packing);
  EXPECT_EQ(a.shared_bytes, (small.instructions() + 15) / 16 * 16 + a.block * l.best);
}

TEST_F(CudaAnneal, BestStringOfAChainThatDoesNotExistIsRefusedGpu) {
  const problem prob = test::make("LCL", 2, 1, 1);
  chain_setup setup;
  setup.prob = &prob;
  setup.params.iter_max = 10;
  setup.chain_ids = {0};
  setup.initial = round_robin_string(prob.view());
  auto gpu = make_cuda_runner(setup);
  EXPECT_EQ(gpu->best_string(0), setup.initial);
  EXPECT_THROW(gpu->best_string(1), std::out_of_range);
}

}  // namespace
}  // namespace warpspan
