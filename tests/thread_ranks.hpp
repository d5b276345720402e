// Ranks as threads with a barrier: rank_group's collectives in memory, so what runs across the
// ranks of mpirun (the estimate's agreement, the exact sweep's exchange) is tested in every build,
// under the sanitizers too.
#pragma once

#include <barrier>
#include <functional>
#include <string>
#include <thread>
#include <vector>

#include "warpspan/core/ranks.hpp"

namespace warpspan::test {

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
  std::string broadcast(const std::string& data, int root) override {
    return allgather(data)[static_cast<std::size_t>(root)];
  }
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

/// Runs `body(ranks)` on `n` thread ranks and returns their results by rank.
template <class Result>
std::vector<Result> on_thread_ranks(int n, const std::function<Result(rank_group&)>& body) {
  board b(n);
  std::vector<Result> results(static_cast<std::size_t>(n));
  std::vector<std::thread> threads;
  for (int r = 0; r < n; ++r)
    threads.emplace_back([&, r] {
      thread_rank me(b, r);
      results[static_cast<std::size_t>(r)] = body(me);
    });
  for (auto& t : threads) t.join();
  return results;
}

}  // namespace warpspan::test
