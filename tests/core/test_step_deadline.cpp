// The look-ahead of the exact searches' time limits (step_deadline): stop before the step that
// would pass the limit, with the finishing pass counted.
#include <gtest/gtest.h>

#include "warpspan/detail/core/step_deadline.hpp"

namespace warpspan {
namespace {

TEST(StepDeadline, WithoutALimitNeverStops) {
  step_deadline d(0);
  EXPECT_FALSE(d.limited());
  for (double t : {1.0, 10.0, 1e6}) EXPECT_FALSE(d.stop_after_step(t, 1e9));
}

TEST(StepDeadline, StopsBeforeTheStepThatWouldPassTheLimit) {
  // Steps of 1 s under a 10 s limit: the last one begun is the one ending at 9 s (8 + 1 <= 10).
  step_deadline d(10);
  for (int t = 1; t <= 8; ++t) EXPECT_FALSE(d.stop_after_step(t)) << t;
  EXPECT_TRUE(d.stop_after_step(9.5));
}

TEST(StepDeadline, TheFinishCountsWithItsMargin) {
  // A finish of 2 s after steps of 1 s: 6 + 1 + 1.3 * 2 = 9.6 goes on, 7 + 1 + 2.6 stops.
  step_deadline d(10);
  for (int t = 1; t <= 6; ++t) EXPECT_FALSE(d.stop_after_step(t, 2)) << t;
  EXPECT_TRUE(d.stop_after_step(7, 2));
}

TEST(StepDeadline, GrowingStepsArePredictedToGrowByAtMostHalf) {
  // Steps of 1, 2, 4 s (ending at 1, 3, 7): the next is predicted at 4 x 1.5 = 6 s, so a 13 s limit
  // lets it begin (7 + 6 = 13) and a 12.5 s one does not.
  step_deadline d(13), e(12.5);
  for (double t : {1.0, 3.0}) {
    EXPECT_FALSE(d.stop_after_step(t));
    EXPECT_FALSE(e.stop_after_step(t));
  }
  EXPECT_FALSE(d.stop_after_step(7));
  EXPECT_TRUE(e.stop_after_step(7));
  // A shorter step is predicted as long as itself: 4 + 4 = 8, then 5.5 + 1.5 = 7 go on under 10;
  // a longer one grows by its ratio: 7 + 1.5 = 8.5 goes on, 9.5 + 2.5 x 1.5 stops.
  step_deadline f(10);
  EXPECT_FALSE(f.stop_after_step(4));
  EXPECT_FALSE(f.stop_after_step(5.5));
  EXPECT_FALSE(f.stop_after_step(7));
  EXPECT_TRUE(f.stop_after_step(9.5));
}

/// The stopping rule every exact search uses: each later reason overrides the earlier (the state
/// limit, the search's other limit, the time limit, an interrupt), and nothing stops a step within
/// every limit.
TEST(StepStop, LaterReasonsOverrideEarlierOnes) {
  clear_interrupt();
  step_stop none(0, 0);
  EXPECT_EQ(none.after_step(100, 1u << 30), "");
  step_stop states(0, 10);
  EXPECT_EQ(states.after_step(1, 10), "");
  EXPECT_EQ(states.after_step(2, 11), "state limit (10 states) reached");
  EXPECT_EQ(states.after_step(3, 11, 0, "memory limit reached"), "memory limit reached");
  step_stop time(5, 10);
  EXPECT_EQ(time.after_step(1, 11), "state limit (10 states) reached");
  EXPECT_EQ(time.after_step(3, 11, 0, "memory limit reached"), "time limit reached");  // 3 + 2 x 1.5 > 5
  step_stop later(100, 10);
  request_interrupt();  // the default: an interrupt requested now
  EXPECT_EQ(later.after_step(1, 11, 0, "memory limit reached"), "interrupted");
  clear_interrupt();
  EXPECT_EQ(later.after_step(2, 5), "");
  // Ranks pass the interrupt they agreed on, whatever this process saw.
  EXPECT_EQ(later.after_step(3, 0, 0, "", true), "interrupted");
}

step_status status(double elapsed_s, std::uint64_t states, bool interrupt = false) {
  step_status s;
  s.elapsed_s = elapsed_s;
  s.states = states;
  s.interrupt = interrupt;
  return s;
}

/// Criteria combine in any order and number; the last listed that stops gives the reason, and
/// each sees every step (the time limit predicts from steps where another criterion stopped).
TEST(StepStop, CriteriaCombine) {
  combined_stop<time_limit_stop, state_limit_stop> states_last(time_limit_stop(5), state_limit_stop{10});
  EXPECT_EQ(states_last.after_step(status(1, 11)), "state limit (10 states) reached");
  // A step of 2 s after one of 1 s: the next taken as 1.5 times longer, 3 + 2 x 1.5 > 5.
  EXPECT_EQ(states_last.after_step(status(3, 0)), "time limit reached");
  // A short step (0.5 s): the time limit goes on (3.5 + 0.5 <= 5), the state limit stops.
  EXPECT_EQ(states_last.after_step(status(3.5, 20)), "state limit (10 states) reached");
  combined_stop<interrupt_stop> only_interrupt{interrupt_stop{}};
  EXPECT_EQ(only_interrupt.after_step(status(1e9, ~std::uint64_t{0})), "");
  EXPECT_EQ(only_interrupt.after_step(status(0, 0, true)), "interrupted");
}

}  // namespace
}  // namespace warpspan
