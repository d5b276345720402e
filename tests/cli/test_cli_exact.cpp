// `exact` and `bound --exact-up-to` as scripts use them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"

namespace warpspan {
namespace {

using nlohmann::json;

TEST(CliExact, JsonContractAndWitness) {
  const test::cli_result r = test::run_warpspan("exact --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["complete"].get<bool>());
  EXPECT_EQ(j["makespan"].get<int>(), 45);
  EXPECT_EQ(j["method"].get<std::string>(), "search");
  EXPECT_GT(j["states"].get<long>(), 0);
  EXPECT_GE(j["elapsed_s"].get<double>(), 0.0);
  // The witness builds to the answer with the build command.
  std::string ids;
  for (const auto& w : j["best_string"]) ids += std::to_string(w.get<int>()) + " ";
  const test::cli_result b =
      test::run_warpspan("build --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --json --string \"" + ids + "\"");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(json::parse(b.out)["makespan"].get<int>(), 45);
}

TEST(CliExact, StoppedRunReportsAnInterval) {
  const test::cli_result r =
      test::run_warpspan("exact --kernel 5L9C2L9C --warps 9 --sigma L=1,C=4 --max-states 2000 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_TRUE(j["makespan"].is_null());
  EXPECT_LE(j["lower"].get<int>(), j["upper"].get<int>());
  EXPECT_EQ(j["upper"].get<int>(), j["pessimistic"].get<int>());
  EXPECT_TRUE(j.contains("stop_reason"));
}

TEST(CliExact, TractableBound) {
  // T(1..4) = 25, 31, 37, 45: min(16 x 25, 8 x 31, 6 x 37, 4 x 45) = 180.
  const test::cli_result r =
      test::run_warpspan("bound --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --exact-up-to 4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["pessimistic"].get<int>(), 184);
  EXPECT_EQ(j["tractable"].get<int>(), 180);
  EXPECT_EQ(j["tractable_y"].get<int>(), 4);
}

TEST(CliExact, BadInput) {
  for (const char* args : {"exact --kernel 5L9C2L9C --warps 300 --sigma L=1,C=4",
                           "exact --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --method magic",
                           "exact --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --time-limit -1",
                           "exact --kernel 5X --warps 4 --sigma L=1,C=4"}) {
    const test::cli_result r = test::run_warpspan(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(test::count_lines(r.err), 1) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace warpspan
