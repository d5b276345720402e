// The look-ahead of the exact searches' time limits (step_deadline): stop before the step that
// would pass the limit, with the finishing pass counted.
#include <gtest/gtest.h>

#include "warpspan/core/step_deadline.hpp"

namespace warpspan {
namespace {

TEST(StepDeadline, WithoutALimitNeverStops) {
  step_deadline d(0);
  EXPECT_FALSE(d.limited());
  for (double t : {1.0, 10.0, 1e6}) EXPECT_FALSE(d.stop_after_step(t, 1e9));
}

TEST(StepDeadline, StopsBeforeTheStepThatWouldPassTheLimit) {
  // Steps of 1 s under a 10 s limit: after the step ending at t, the next ends near t + 1.3
  // (the margin), so the last step begun is the one ending at 9 s (8 + 1.3 < 10, 9 + 1.3 > 10).
  step_deadline d(10);
  for (int t = 1; t <= 8; ++t) EXPECT_FALSE(d.stop_after_step(t)) << t;
  EXPECT_TRUE(d.stop_after_step(9));
}

TEST(StepDeadline, TheFinishCounts) {
  // A finish of 2 s after steps of 1 s: 6 + 1.3 * (1 + 2) = 9.9 goes on, 7 + 3.9 stops.
  step_deadline d(10);
  for (int t = 1; t <= 6; ++t) EXPECT_FALSE(d.stop_after_step(t, 2)) << t;
  EXPECT_TRUE(d.stop_after_step(7, 2));
}

TEST(StepDeadline, GrowingStepsArePredictedToGrowAtMostTwofold) {
  // Steps of 1, 2, 4 s (ending at 1, 3, 7): after the third the next is predicted at 8 s, so with a
  // 20 s limit 7 + 1.3 * 8 = 17.4 goes on; steps of 1, 3 then 9 (ending at 13) stop at once.
  step_deadline d(20);
  EXPECT_FALSE(d.stop_after_step(1));
  EXPECT_FALSE(d.stop_after_step(3));
  EXPECT_FALSE(d.stop_after_step(7));
  step_deadline e(20);
  EXPECT_FALSE(e.stop_after_step(1));
  EXPECT_FALSE(e.stop_after_step(4));   // 4 + 1.3 * 3 * 2 = 11.8
  EXPECT_TRUE(e.stop_after_step(13));   // 13 + 1.3 * 9 * 2 = 36.4
  // A shorter step is predicted as long as itself (4 + 1.3 * 4 = 9.2, then 5.5 + 1.3 * 1.5 = 7.45),
  // a longer one as grown by its ratio (8 + 1.3 * 2.5 * 2.5 / 1.5 = 13.4).
  step_deadline f(10);
  EXPECT_FALSE(f.stop_after_step(4));
  EXPECT_FALSE(f.stop_after_step(5.5));
  EXPECT_TRUE(f.stop_after_step(8));
}

}  // namespace
}  // namespace warpspan
