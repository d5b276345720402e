// Chains split by id (--shard, MPI ranks) give the whole run's result. The ranks here are threads
// with a barrier (rank_group's collectives in memory), so the agreement logic runs in every build.
#include <gtest/gtest.h>

#include <barrier>
#include <thread>

#include "test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {
namespace {

/// What the thread ranks share: one slot per rank, one row per rank for alltoall.
struct board {
  explicit board(int n) : size(n), sync(n), slots(static_cast<std::size_t>(n)), rows(static_cast<std::size_t>(n)) {}
  int size;
  std::barrier<> sync;
  std::vector<std::string> slots;
  std::vector<std::vector<std::string>> rows;
};

class thread_rank final : public rank_group {
 public:
  thread_rank(board& b, int r) : b_(b), r_(r) {}
  int rank() const override { return r_; }
  int size() const override { return b_.size; }
  std::vector<std::string> allgather(const std::string& mine) override {
    b_.slots[static_cast<std::size_t>(r_)] = mine;
    b_.sync.arrive_and_wait();
    auto out = b_.slots;
    b_.sync.arrive_and_wait();
    return out;
  }
  std::vector<std::string> gather(const std::string& mine) override {
    auto all = allgather(mine);
    return r_ == 0 ? all : std::vector<std::string>{};
  }
  std::string broadcast(const std::string& data, int root) override { return allgather(data)[static_cast<std::size_t>(root)]; }
  std::vector<std::string> alltoall(const std::vector<std::string>& out) override {
    b_.rows[static_cast<std::size_t>(r_)] = out;
    b_.sync.arrive_and_wait();
    std::vector<std::string> in;
    for (const auto& row : b_.rows) in.push_back(row[static_cast<std::size_t>(r_)]);
    b_.sync.arrive_and_wait();
    return in;
  }
  std::uint64_t bytes_sent() const override { return 0; }

 private:
  board& b_;
  int r_;
};

estimate_options options() {
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
  const estimate_result whole = run_estimate(prob, options());
  std::uint32_t best = 0, chain = 0;
  std::uint64_t iterations = 0;
  std::vector<std::uint16_t> string;
  for (std::uint32_t s = 0; s < 3; ++s) {
    estimate_options o = options();
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
  const estimate_result whole = run_estimate(prob, options());
  board b(3);
  std::vector<estimate_result> results(3);
  std::vector<std::thread> ranks;
  for (int r = 0; r < 3; ++r)
    ranks.emplace_back([&b, &results, &prob, r] {
      thread_rank me(b, r);
      estimate_options o = options();
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
  estimate_options o = options();
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
