// What the CPU and CUDA progress sweeps share (host code): the bookkeeping of one pass, the
// witness backtracked through the kept states, and the driver that runs a first pass and, when the
// answer beats the lower bound but the states were too many to keep, a second pass that keeps
// only the states that can lie on a path as long as the answer.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/frontier_host.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan::exact_detail {

/// A state with its longest known way in (cycles from the initial state).
struct sweep_entry {
  packed_state key;
  std::uint16_t way_in;
};

/// The states expanded at one progress sum, sorted by key.
struct taken_states {
  std::vector<packed_state> keys;
  std::vector<std::uint16_t> way_in;
};

/// The most warps one cycle can issue: the largest step of the progress sum.
std::uint32_t most_issues(const frontier_view& v);

/// Backtracks a path of `length` cycles from the initial to the final state through the kept
/// states (a predecessor has a smaller sum, by at most `reach`, a way in one less, and the current
/// state among its successors) and returns its pseudo-precedence string.
std::vector<std::uint16_t> sweep_witness(const frontier_view& v, const std::vector<taken_states>& taken,
                                         std::uint32_t reach, std::uint32_t length);

/// way_in + remaining_bound of a packed state.
std::uint32_t held_bound(const frontier_view& v, packed_state key, std::uint32_t way_in);

/// One pass of a sweep; the backends fill in run() and held_bound().
class sweep_pass {
 public:
  virtual ~sweep_pass() = default;
  /// Runs to the final sum or to a limit (then stop_reason() says which).
  virtual void run(std::chrono::steady_clock::time_point start) = 0;
  /// Over the states still held when stopped: the largest way in plus remaining bound.
  virtual std::uint32_t held_bound() const = 0;

  std::uint32_t reached() const { return reached_; }
  bool stopped() const { return !stop_.empty(); }
  const std::string& stop_reason() const { return stop_; }
  bool kept_all() const { return keeping_; }
  std::uint64_t states() const { return states_; }
  std::uint64_t pruned() const { return pruned_; }
  const std::vector<taken_states>& taken() const { return taken_; }
  std::uint32_t reach() const { return reach_; }

 protected:
  /// Keeps the states expanded at `sum` for the witness while they fit the budget (sorts them).
  void keep(std::uint32_t sum, std::vector<sweep_entry>& expanded) {
    if (!keeping_) return;
    if (taken_.size() <= sum) taken_.resize(sum + 1);
    kept_ += expanded.size();
    if (kept_ > keep_limit_) {
      keeping_ = false;
      taken_.clear();
      return;
    }
    std::sort(expanded.begin(), expanded.end(), [](const sweep_entry& a, const sweep_entry& b) { return a.key < b.key; });
    taken_[sum].keys.reserve(expanded.size());
    taken_[sum].way_in.reserve(expanded.size());
    for (const sweep_entry& e : expanded) {
      taken_[sum].keys.push_back(e.key);
      taken_[sum].way_in.push_back(e.way_in);
    }
  }

  std::uint32_t reach_ = 1;
  std::uint32_t floor_ = 0;          ///< prune states whose way in + bound is at most this
  std::uint64_t keep_limit_ = 0;
  bool keeping_ = true;
  std::uint64_t kept_ = 0, states_ = 0, pruned_ = 0;
  std::uint32_t reached_ = 0;
  std::string stop_;
  std::vector<taken_states> taken_;
};

/// Runs a sweep: `make(floor, keep_limit)` gives a pass (std::unique_ptr<sweep_pass>).
template <class Make>
exact_result run_sweeps(const problem& prob, const frontier_view& v, const exact_options& options, Make&& make) {
  const auto start = std::chrono::steady_clock::now();
  const std::uint64_t keep_limit = options.witness_states ? options.witness_states : std::uint64_t{100'000'000};
  exact_result r;
  // The lower bound to beat, with the string that attains it.
  if (!options.lower_string.empty()) {
    r.lower = build_schedule(prob, options.lower_string).makespan;
    r.best_string = options.lower_string;
  } else {
    fill_interval(prob, r);
  }
  const std::unique_ptr<sweep_pass> first = make(options.prune ? r.lower : 0u, keep_limit);
  first->run(start);
  r.states = first->states();
  r.pruned = first->pruned();
  if (first->stopped()) {
    // Every path to completion passes through a held state (or a pruned one, which cannot beat
    // the lower bound): the largest way in plus bound over them is a proven upper bound.
    r.complete = false;
    r.stop_reason = first->stop_reason();
    r.upper = std::max(r.lower, first->held_bound());
  } else {
    r.complete = true;
    if (first->reached() > r.lower) {
      r.lower = first->reached();
      if (first->kept_all()) {
        r.best_string = sweep_witness(v, first->taken(), first->reach(), r.lower);
      } else {
        const std::unique_ptr<sweep_pass> second = make(r.lower - 1, ~std::uint64_t{0});
        second->run(start);
        if (second->stopped() || second->reached() != r.lower)
          throw std::logic_error("progress sweep: the second pass did not find the answer again");
        r.best_string = sweep_witness(v, second->taken(), second->reach(), r.lower);
      }
    }
    r.makespan = r.upper = r.lower;
  }
  r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace warpspan::exact_detail
