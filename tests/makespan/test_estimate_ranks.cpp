// Chains split by id (--shard, MPI ranks) give the whole run's result. The ranks here are threads
// with a barrier (rank_group's collectives in memory), so the agreement logic runs in every build.
#include <gtest/gtest.h>

#include <thread>

#include "test_util.hpp"
#include "thread_ranks.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {
namespace {

estimate_options rank_options() {
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.chains = 7;
  o.iterations = 3000;
  o.threads = 1;
  o.seed = 9;
  o.init = initial_kind::random;  // the best is found during the run, not by a start
  return o;
}

TEST(EstimateRanks, ShardsTogetherAreTheWholeRun) {
  const problem prob = test::make("5L9C2L9C", 12, 1, 4);
  const estimate_result whole = run_estimate(prob, rank_options());
  std::uint32_t best = 0, chain = 0;
  std::uint64_t iterations = 0;
  std::vector<std::uint16_t> string;
  for (std::uint32_t s = 0; s < 3; ++s) {
    estimate_options o = rank_options();
    o.slice = s;
    o.slices = 3;
    const estimate_result part = run_estimate(prob, o);
    EXPECT_EQ(part.chain_begin, s * 7 / 3);
    EXPECT_EQ(part.chain_end, (s + 1) * 7 / 3);
    EXPECT_EQ(part.chains, 7u);
    iterations += part.iterations;
    if (s == 0 || part.best_makespan > best) {  // slices in id order: ties keep the lower id
      best = part.best_makespan;
      chain = part.best_chain;
      string = part.best_string;
    }
  }
  EXPECT_EQ(best, whole.best_makespan);
  EXPECT_EQ(chain, whole.best_chain);
  EXPECT_EQ(string, whole.best_string);
  EXPECT_EQ(iterations, whole.iterations);
}

TEST(EstimateRanks, ThreeRanksAgreeOnTheWholeRun) {
  const problem prob = test::make("5L9C2L9C", 12, 1, 4);
  const estimate_result whole = run_estimate(prob, rank_options());
  test::board b(3);
  std::vector<estimate_result> results(3);
  std::vector<std::thread> ranks;
  for (int r = 0; r < 3; ++r)
    ranks.emplace_back([&b, &results, &prob, r] {
      test::thread_rank me(b, r);
      estimate_options o = rank_options();
      o.ranks = &me;
      results[static_cast<std::size_t>(r)] = run_estimate(prob, o);
    });
  for (auto& t : ranks) t.join();
  for (const estimate_result& r : results) {
    EXPECT_EQ(r.best_makespan, whole.best_makespan);
    EXPECT_EQ(r.best_chain, whole.best_chain);
    EXPECT_EQ(r.best_string, whole.best_string);
    EXPECT_EQ(r.iterations, whole.iterations);
    EXPECT_EQ(r.iterations_per_chain, whole.iterations_per_chain);
    EXPECT_EQ(r.chains, 7u);
    EXPECT_EQ(r.envelope.back().best, whole.best_makespan);
    EXPECT_EQ(r.rounds, results[0].rounds);  // every rank ran the same rounds
  }
}

TEST(EstimateRanks, FewerChainsThanSlicesIsAnInputError) {
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  estimate_options o = rank_options();
  o.chains = 2;
  o.slice = 0;
  o.slices = 3;
  EXPECT_THROW(run_estimate(prob, o), input_error);
  o.slice = 3;
  o.chains = 7;
  EXPECT_THROW(run_estimate(prob, o), input_error);
}

}  // namespace
}  // namespace warpspan
