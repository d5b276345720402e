// What the CPU and CUDA progress sweeps share (host code): the bookkeeping of one pass, the
// witness backtracked through the kept states, and the driver that runs a first pass and, when the
// answer beats the lower bound but the states were too many to keep, a second pass that keeps
// only the states that can lie on a path as long as the answer.
#pragma once

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/detail/core/step_deadline.hpp"
#include "warpspan/exact/search.hpp"

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

/// The most warps one cycle can issue: the largest step of the progress sum. The functions here
/// take a frontier_view or a wide_frontier_view (16-bit levels, host only).
template <class V>
std::uint32_t most_issues(const V& v);

/// Backtracks a path of `length` cycles from the initial to the final state through the kept
/// states (a predecessor has a smaller sum, by at most `reach`, a way in one less, and the current
/// state among its successors) and returns its pseudo-precedence string.
template <class V>
std::vector<std::uint16_t> sweep_witness(const V& v, const std::vector<taken_states>& taken, std::uint32_t reach,
                                         std::uint32_t length);

/// way_in + remaining_bound of a packed state.
template <class V>
std::uint32_t held_bound(const V& v, packed_state key, std::uint32_t way_in);

/// Seconds one held_bound call takes, timed on the first 4,096 of `states` (about a millisecond),
/// for a time limit that must leave room for bounding the held states; -1 when there are fewer.
template <class V>
double time_held_bound(const V& v, const std::vector<sweep_entry>& states);

/// One pass of a sweep. The loop over the progress sums and its stop are written once, in run();
/// a backend (the CPU's threads, MPI's ranks, CUDA) fills in step(), one sum's work, and
/// held_bound().
template <class V>
class basic_sweep_pass {
 public:
  /// A pass over `v` pruning states whose way in + bound is at most `floor_value`, keeping at most
  /// `keep_limit` expanded states for the witness, within the limits of `options` (time_limit_s,
  /// max_states; its progress is told after every sum).
  basic_sweep_pass(const V& v, const sweep_options& options, std::uint32_t floor_value, std::uint64_t keep_limit)
      : v_(v),
        last_sum_(v.warps * v.instructions),
        reach_(most_issues(v)),
        floor_(floor_value),
        keep_limit_(keep_limit),
        options_(options) {}
  virtual ~basic_sweep_pass() = default;

  /// Runs to the final sum or to a limit (then stop_reason() says which): every sum's step, then
  /// the stop (step_stop: the state limit, the backend's own limit, the time limit with the bound
  /// over the held states after it, an interrupt), from what the step reports, which with ranks is
  /// alike on every rank.
  void run(std::chrono::steady_clock::time_point start) {
    step_stop stopping(options_.time_limit_s, options_.max_states);
    begin();
    for (std::uint32_t sum = 0; sum <= last_sum_; ++sum) {
      const step_report s = step(sum, start);
      if (!s.failed.empty()) {
        stop_ = s.failed;
        break;
      }
      stop_ = stopping.after_step(s.elapsed, states_, s.finish_s, s.limit, s.interrupt);
      if (options_.progress) options_.progress({sum + 1, last_sum_ + 1, states_, s.elapsed});
      if (!stop_.empty()) break;
    }
    end();
  }
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
  /// What one sum's step tells run(), the inputs of its stop (with ranks, alike on every rank).
  struct step_report {
    double elapsed = 0;      ///< seconds since the start when the step ended (ranks: rank 0's clock)
    double finish_s = 0;     ///< the predicted time of held_bound() were the pass to stop now
    std::string limit;       ///< a limit of the backend reached (the memory), empty: none
    bool interrupt = false;  ///< interrupted (ranks: any rank)
    std::string failed;      ///< the step could not be done (GPU memory): the pass stops before the checks
  };
  /// Before the first sum: the initial state into the backend's tables.
  virtual void begin() = 0;
  /// The states of progress sum `sum`: taken (counted in states_), expanded (successors into the
  /// tables of the sums ahead; pruned_ and reached_ counted) and kept for the witness (keep()).
  virtual step_report step(std::uint32_t sum, std::chrono::steady_clock::time_point start) = 0;
  /// After the last sum run (a stop included).
  virtual void end() {}

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
    std::sort(expanded.begin(), expanded.end(),
              [](const sweep_entry& a, const sweep_entry& b) { return a.key < b.key; });
    taken_[sum].keys.reserve(expanded.size());
    taken_[sum].way_in.reserve(expanded.size());
    for (const sweep_entry& e : expanded) {
      taken_[sum].keys.push_back(e.key);
      taken_[sum].way_in.push_back(e.way_in);
    }
  }

  const V& v_;
  std::uint32_t last_sum_;  ///< W * I: the progress sum of the final state
  std::uint32_t reach_;     ///< the largest step of the progress sum
  std::uint32_t floor_;     ///< prune states whose way in + bound is at most this
  std::uint64_t keep_limit_;
  bool keeping_ = true;
  std::uint64_t kept_ = 0, states_ = 0, pruned_ = 0;
  std::uint32_t reached_ = 0;
  std::string stop_;
  std::vector<taken_states> taken_;
  const sweep_options& options_;
};

using sweep_pass = basic_sweep_pass<frontier_view>;

/// Makes one pass: prune states whose way in + bound is at most `floor`, keep at most `keep_limit`.
template <class V>
using basic_sweep_factory =
    std::function<std::unique_ptr<basic_sweep_pass<V>>(std::uint32_t floor, std::uint64_t keep_limit)>;
using sweep_factory = basic_sweep_factory<frontier_view>;

/// Runs a sweep to its result: the lower bound (options.lower_string or the standard strings), a
/// first pass, and a second one for the witness when the answer beats the lower bound but the
/// first pass could not keep its states.
exact_result run_sweeps(const problem& prob, const frontier_view& v, const sweep_options& options,
                        const sweep_factory& make);
exact_result run_sweeps(const problem& prob, const wide_frontier_view& v, const sweep_options& options,
                        const basic_sweep_factory<wide_frontier_view>& make);

}  // namespace warpspan::exact_detail
