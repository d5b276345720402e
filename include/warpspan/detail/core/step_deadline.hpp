// The time limit of work done in steps (the sums of a sweep, the levels of a search, the chunks of
// a pass) and closed by a finishing pass (a bound over the states held): the work stops before the
// step that would pass the limit, so that the whole, finish included, ends within it.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>

#include "warpspan/core/interrupt.hpp"

namespace warpspan {

class step_deadline {
 public:
  /// `limit_s` <= 0: no limit.
  explicit step_deadline(double limit_s) : limit_s_(limit_s) {}

  bool limited() const { return limit_s_ > 0; }

  /// After a step that ended `elapsed` seconds into the run: whether one more step and then a
  /// finish of `finish_s` seconds would pass the limit. The next step is predicted from the last
  /// two: it grows as they grew, by at most half (a sweep without pruning widens from sum to sum:
  /// taken as the last one's length it overran a 5 s limit by 6 %; taken as doubling, it stopped
  /// a 20 s run at 11 s). The finish, a rate times a count, carries a margin for a machine shared
  /// with other work.
  bool stop_after_step(double elapsed, double finish_s = 0) {
    const double step = std::max(elapsed - last_end_, 0.0);
    const double growth = previous_step_ > 0 ? std::clamp(step / previous_step_, 1.0, max_growth) : 1.0;
    previous_step_ = step;
    last_end_ = elapsed;
    return limited() && elapsed + step * growth + margin * std::max(finish_s, 0.0) > limit_s_;
  }

  static constexpr double max_growth = 1.5;
  /// The margin on a predicted finish: measured on a 2-core machine beside a compiler, a scan
  /// predicted at 0.84 s took 1.06 (dense sweep, Voronoi W = 12).
  static constexpr double margin = 1.3;

  /// Where a finishing pass that can give up (and answer less precisely) gives up: a few percent
  /// past the limit, for a prediction that was still short.
  static constexpr double finish_cutoff = 1.03;

 private:
  double limit_s_ = 0, last_end_ = 0, previous_step_ = 0;
};

/// Why a search that works in steps stops after one (empty: it goes on), decided in one place for
/// every search and backend (the exact searches' result says it: exact_result::stop_reason). Each
/// later reason overrides the earlier: the state limit (`max_states`, 0: none), another limit the
/// search has (`other`, its reason when reached), the time limit (step_deadline, with the search's
/// finish after the stop), then an interrupt, the user's last word.
class step_stop {
 public:
  step_stop(double limit_s, std::uint64_t max_states) : deadline_(limit_s), max_states_(max_states) {}

  /// After a step that ended `elapsed` seconds into the run with `states` memoised; called after
  /// every step (the time limit predicts the next from the last two). `interrupt`: whether to stop
  /// for an interrupt (ranks pass the one they agreed on, so that every rank stops alike).
  std::string after_step(double elapsed, std::uint64_t states, double finish_s = 0, const std::string& other = {},
                         bool interrupt = interrupted()) {
    std::string why;
    if (max_states_ > 0 && states > max_states_)
      why = "state limit (" + std::to_string(max_states_) + " states) reached";
    if (!other.empty()) why = other;
    if (deadline_.stop_after_step(elapsed, finish_s)) why = "time limit reached";
    if (interrupt) why = "interrupted";
    return why;
  }

 private:
  step_deadline deadline_;
  std::uint64_t max_states_ = 0;
};

}  // namespace warpspan
