// When work done in steps (the sums of a sweep, the levels of a search, the chunks of a pass) stops:
// the time limit of work closed by a finishing pass (a bound over the states held), which stops
// before the step that would pass the limit so that the whole, finish included, ends within it;
// the stop criteria (states, the search's own limit, time, interrupt) and their combination.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <tuple>
#include <utility>

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

/// What the stop criteria see after a step of a search that works in steps (the sums of a sweep,
/// the levels of a search).
struct step_status {
  double elapsed_s = 0;            ///< seconds into the run when the step ended
  std::uint64_t states = 0;        ///< states memoised or reached so far
  double finish_s = 0;             ///< the finishing pass a stop would still run (a bound over the states held)
  std::string own_limit;           ///< a limit of the search's own that the step reached (its reason), or empty
  bool interrupt = interrupted();  ///< stop for an interrupt (ranks pass the one they agreed on)
};

/// Stop criteria, one concern each (as Ginkgo's stop criteria): after every step, why the run
/// stops (empty: it goes on). A criterion may keep state between steps (time_limit_stop does).

/// The state limit (`max_states`, 0: none).
struct state_limit_stop {
  std::uint64_t max_states = 0;
  std::string check(const step_status& s) const {
    return max_states > 0 && s.states > max_states ? "state limit (" + std::to_string(max_states) + " states) reached"
                                                   : std::string();
  }
};

/// A limit the search keeps itself (memory, a device's buffers): its reason, passed in the status.
struct own_limit_stop {
  std::string check(const step_status& s) const { return s.own_limit; }
};

/// The time limit, looking ahead: stops before the step that would pass it with the finish after
/// it (step_deadline). Must see every step, to predict the next from the last two.
class time_limit_stop {
 public:
  explicit time_limit_stop(double limit_s) : deadline_(limit_s) {}
  std::string check(const step_status& s) {
    return deadline_.stop_after_step(s.elapsed_s, s.finish_s) ? "time limit reached" : std::string();
  }

 private:
  step_deadline deadline_;
};

/// SIGINT or SIGTERM (core/interrupt.hpp), as the status says.
struct interrupt_stop {
  std::string check(const step_status& s) const { return s.interrupt ? "interrupted" : std::string(); }
};

/// Criteria combined: every one sees every step, and of those that stop the run the last listed
/// gives the reason (so list them from the least to the most telling).
template <class... Criteria>
class combined_stop {
 public:
  explicit combined_stop(Criteria... c) : criteria_(std::move(c)...) {}

  std::string after_step(const step_status& s) {
    std::string why;
    std::apply(
        [&](auto&... c) {
          (
              [&](std::string reason) {
                if (!reason.empty()) why = std::move(reason);
              }(c.check(s)),
              ...);
        },
        criteria_);
    return why;
  }

 private:
  std::tuple<Criteria...> criteria_;
};

/// Why a search that works in steps stops after one, decided in one place for every search and
/// backend (the exact searches' result says it: exact_result::stop_reason): the state limit, the
/// search's own limit, the time limit (with the search's finish after the stop), then an
/// interrupt, the user's last word.
class step_stop : public combined_stop<state_limit_stop, own_limit_stop, time_limit_stop, interrupt_stop> {
 public:
  /// `limit_s` <= 0: no time limit; `max_states` 0: no state limit.
  step_stop(double limit_s, std::uint64_t max_states) : combined_stop({max_states}, {}, time_limit_stop(limit_s), {}) {}

  using combined_stop::after_step;
  /// The status given field by field (the searches' call; the CUDA sources are C++17, without
  /// designated initializers).
  std::string after_step(double elapsed_s, std::uint64_t states, double finish_s = 0, std::string own_limit = {},
                         bool interrupt = interrupted()) {
    step_status s;
    s.elapsed_s = elapsed_s;
    s.states = states;
    s.finish_s = finish_s;
    s.own_limit = std::move(own_limit);
    s.interrupt = interrupt;
    return after_step(s);
  }
};

}  // namespace warpspan
