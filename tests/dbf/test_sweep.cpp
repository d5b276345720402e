// Parameter sweeps: parsing, the scaled values, and variants outside the model flagged, not dropped.
#include <gtest/gtest.h>

#include "cli/cli_util.hpp"
#include "test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/dbf/sweep.hpp"

namespace warpspan {
namespace {

task_set base() { return load_task_set(test::source_path("data/tasks/fig2_example.json")); }

TEST(Sweep, ParsesSpecs) {
  const sweep_spec s = parse_sweep("period:0.8:1.2:41:fig2");
  EXPECT_EQ(s.kind, "period");
  EXPECT_DOUBLE_EQ(s.from, 0.8);
  EXPECT_DOUBLE_EQ(s.to, 1.2);
  EXPECT_EQ(s.steps, 41u);
  EXPECT_EQ(s.task, "fig2");
  for (const char* bad : {"wcet", "wcet:1:2", "speed:1:2:3", "wcet:0:2:3", "wcet:1:x:3", "wcet:1:2:0", "wcet:1:2:-4",
                          "wcet:1:2:99999999", "wcet:1:2:3:"})
    EXPECT_THROW(parse_sweep(bad), input_error) << bad;
}

TEST(Sweep, ScalesTheChosenValuesOnly) {
  const task_set b = base();
  const auto variants = sweep_variants(b, parse_sweep("wcet:1:3:5"));
  ASSERT_EQ(variants.size(), 5u);
  EXPECT_DOUBLE_EQ(variants[2].factor, 2.0);
  for (std::size_t k = 0; k < b.tasks[0].vertices.size(); ++k) {
    EXPECT_EQ(variants[2].set.tasks[0].vertices[k].wcet, 2 * b.tasks[0].vertices[k].wcet);
    EXPECT_EQ(variants[2].set.tasks[0].vertices[k].deadline, b.tasks[0].vertices[k].deadline);
  }
  EXPECT_EQ(variants[2].set.tasks[0].period, b.tasks[0].period);
  EXPECT_THROW(sweep_variants(b, parse_sweep("wcet:1:3:5:nosuch")), input_error);
}

TEST(Sweep, VariantsOutsideTheModelAreFlagged) {
  // fig2's period must stay at least 26 (separations 10 + 12 plus d(sink) 4): 50 x 0.1 = 5 is not.
  const auto variants = sweep_variants(base(), parse_sweep("period:0.1:1:10"));
  ASSERT_EQ(variants.size(), 10u);
  EXPECT_NE(variants.front().error.neutral().find("period"), std::string::npos) << variants.front().error.neutral();
  EXPECT_TRUE(variants.back().error.empty()) << variants.back().error.neutral();
}

TEST(Sweep, CommandLineReportsEveryVariant) {
  const test::cli_result r = test::run_warpspan("dbf " + test::source_path("data/tasks/fig2_example.json") +
                                                " --sweep period:0.1:1:10 --backend cpu --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(test::count_lines(r.out), 11);  // ten variants and the summary
  EXPECT_NE(r.out.find("\"error\""), std::string::npos);
  const std::string summary = r.out.substr(r.out.rfind("{\"summary\""));
  EXPECT_NE(summary.find("\"variants\":10"), std::string::npos) << summary;
  // The last variant is the base set itself: the same verdict as analysing the file.
  const test::cli_result one =
      test::run_warpspan("dbf " + test::source_path("data/tasks/fig2_example.json") + " --backend cpu --json");
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_NE(one.out.find("\"t_max\":31"), std::string::npos);
  const std::string variants = r.out.substr(0, r.out.rfind("{\"summary\""));
  EXPECT_NE(variants.substr(variants.rfind("{")).find("\"t_max\":31"), std::string::npos) << r.out;
  const test::cli_result both = test::run_warpspan("dbf --batch x --sweep wcet:1:2:3");
  EXPECT_EQ(both.code, 2);
  EXPECT_EQ(test::count_lines(both.err), 1);
}

}  // namespace
}  // namespace warpspan
