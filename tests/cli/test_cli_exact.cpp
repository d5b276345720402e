// `exact` and `bound --exact-up-to` as scripts use them.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"
#include "warpspan/core/backend.hpp"

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
  EXPECT_LE(j["upper"].get<int>(), j["pessimistic"].get<int>());
  EXPECT_GE(j["upper"].get<int>(), 95) << "T(9) = 95 (bench/results)";
  EXPECT_TRUE(j.contains("stop_reason"));
}

TEST(CliExact, EstimateProvesAnInterval) {
  // W = 5: the exact search finishes within the default budget, so the interval is one value.
  test::cli_result r = test::run_warpspan(
      "estimate --kernel 5L9C2L9C --warps 5 --sigma L=1,C=4 --iterations 2000 --chains 4 --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  json j = json::parse(r.out)["proven"];
  EXPECT_TRUE(j["exact"].get<bool>());
  EXPECT_EQ(j["lower"].get<int>(), 57);
  EXPECT_EQ(j["upper"].get<int>(), 57);
  // W = 16: T(1..4) at least fit in the budget, so the upper end is at most 4 x T(4) = 180.
  r = test::run_warpspan(
      "estimate --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --iterations 2000 --chains 4 --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const json all = json::parse(r.out);
  j = all["proven"];
  EXPECT_FALSE(j["exact"].get<bool>());
  EXPECT_GE(j["lower"].get<int>(), all["best_makespan"].get<int>());
  EXPECT_LE(j["upper"].get<int>(), 180);
  EXPECT_GE(j["upper"].get<int>(), 160) << "annealing reaches 160 (paper 000)";
  EXPECT_GE(j["exact_T"].size(), 4u);
  // --exact-seconds 0 skips it.
  r = test::run_warpspan("estimate --kernel LCL --warps 3 --sigma L=1,C=1 --iterations 100 --exact-seconds 0 --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(json::parse(r.out).contains("proven"));
}

TEST(CliExact, SweepOptions) {
  // --threads and --no-prune change the work, not the answer.
  for (const char* extra : {"--threads 1", "--threads 2 --no-prune"}) {
    const test::cli_result r =
        test::run_warpspan(std::string("exact --kernel 5L9C2L9C --warps 5 --sigma L=1,C=4 --json ") + extra);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["makespan"].get<int>(), 57) << extra;
    EXPECT_EQ(j["algorithm"].get<std::string>(), "sweep");
  }
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

TEST(CliExact, LongKernelsDoNotCrash) {
  // These overflowed the depth-first search's call stack (exit 139). sigma_C = 1: W warps of 400 C
  // take 400 W cycles.
  test::cli_result r = test::run_warpspan("exact --kernel 400C --warps 2 --sigma C=1 --json --no-table");
  ASSERT_EQ(r.code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["makespan"].get<int>(), 800);
  EXPECT_EQ(j["algorithm"].get<std::string>(), "depth-first");
  // T(1), T(2) = 400, 800: min(4 x 400, 2 x 800) = 1600, first at y = 1.
  r = test::run_warpspan("bound --kernel 400C --warps 4 --sigma C=1 --exact-up-to 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_EQ(j["exact_T"], json::parse("[400, 800]"));
  EXPECT_EQ(j["tractable"].get<int>(), 1600);
  // estimate runs the exact search after annealing. One warp of 300C300L runs 600 cycles, two 900
  // (side by side through C, then one at a time through L); with 8 warps the L alone take 2400
  // cycles after the first warp's 300 C, so the worst case is at least 2700.
  r = test::run_warpspan(
      "estimate --kernel 300C300L --warps 8 --sigma L=1,C=4 --iterations 2000 --chains 4 --exact-seconds 3 --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  j = json::parse(r.out)["proven"];
  EXPECT_GE(j["lower"].get<int>(), 2700);
  EXPECT_LE(j["lower"].get<int>(), j["upper"].get<int>());
  ASSERT_GE(j["exact_T"].size(), 1u);
  EXPECT_EQ(j["exact_T"][0].get<int>(), 600);
  if (j["exact_T"].size() >= 2) EXPECT_EQ(j["exact_T"][1].get<int>(), 900);
}

TEST(CliExact, MakespansBeyondSixteenBits) {
  // 70,000 C one at a time: 70,000 cycles (a 16-bit memo wrapped; the recursion crashed first).
  test::cli_result r = test::run_warpspan("exact --kernel 70000C --warps 1 --sigma C=1 --json --no-table");
  ASSERT_EQ(r.code, 0) << r.err;
  json j = json::parse(r.out);
  EXPECT_EQ(j["makespan"].get<int>(), 70000);
  EXPECT_EQ(j["best_string"].size(), 70000u);
  r = test::run_warpspan("bound --kernel 70000C --warps 2 --sigma C=1 --exact-up-to 1 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  j = json::parse(r.out);
  EXPECT_EQ(j["exact_T"], json::parse("[70000]"));
  EXPECT_EQ(j["tractable"].get<int>(), 140000);
}

TEST(CliExact, BadInput) {
  for (const char* args : {"exact --kernel 5L9C2L9C --warps 300 --sigma L=1,C=4",
                           "exact --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --method magic",
                           "exact --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --time-limit -1",
                           "exact --kernel 5X --warps 4 --sigma L=1,C=4",
                           "exact --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --backend gpu",
                           "estimate --kernel LCL --warps 3 --sigma L=1,C=1 --exact-seconds -1",
                           "bound --kernel LCL --warps 3 --sigma L=1,C=1 --exact-up-to 2 --time-limit -2"}) {
    const test::cli_result r = test::run_warpspan(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(test::count_lines(r.err), 1) << args << ": " << r.err;
  }
}

TEST(CliExact, CudaBackendWithoutADeviceSaysWhy) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present (CudaSweepMatchesCpu covers the device)";
  const test::cli_result r = test::run_warpspan("exact --kernel LCL --warps 3 --sigma L=1,C=1 --backend cuda");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace warpspan
