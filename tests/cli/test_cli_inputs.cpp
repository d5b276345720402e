// `warpspan inputs` as scripts use it: the JSON contract, saved inputs read back, the plot, and bad
// input giving one line on stderr and exit code 2.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;
using test::count_lines;
using test::run_warpspan;
using test::scratch;

void expect_one_line_exit_2(const std::string& args, const std::string& needle) {
  const auto r = run_warpspan(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

TEST(CliInputs, JsonHasTheDocumentedKeys) {
  const auto r = run_warpspan("inputs --kernel artificial --threads 512 --evaluations 300 --seed 4 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  for (const char* key :
       {"best_fitness", "fitness_unit", "evaluations", "reached_at", "coverage", "method", "seed", "history"})
    EXPECT_TRUE(j.contains(key)) << key;
  EXPECT_EQ(j["method"], "gdivan");
  EXPECT_EQ(j["seed"], 4);
  EXPECT_EQ(j["fitness_unit"], "cycles");
  // 2 blocks x 8 warps x (the values' load, 4 sectors + 8 atomics x 32 lanes), sigma_L = 1
  EXPECT_EQ(j["best_fitness"], 2.0 * 8 * (4 + 8 * 32));
  EXPECT_EQ(j["history"].back()[0], j["reached_at"]);
  EXPECT_EQ(j["history"].back()[1], j["best_fitness"]);
}

TEST(CliInputs, SavedInputEvaluatesToTheReportedBest) {
  const std::string file = scratch(".input");

  const auto search = run_warpspan(
      "inputs --kernel bisect --threads 100 --method random-ga --evaluations 200 --json --save-input " + file);
  const auto again = run_warpspan("inputs --kernel bisect --threads 100 --eval-input " + file + " --json");

  ASSERT_EQ(search.code, 0) << search.err;
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_EQ(json::parse(again.out)["best_fitness"], json::parse(search.out)["best_fitness"]);
}

TEST(CliInputs, CompareRunsThreeMethodsAndDrawsThem) {
  const std::string dir = scratch("_svg");

  const auto r = run_warpspan("inputs --kernel petri --threads 70 --compare --evaluations 150 --svg-dir " + dir);

  ASSERT_EQ(r.code, 0) << r.err;
  for (const char* m : {"gdivan", "random-ga", "random"}) EXPECT_NE(r.out.find(m), std::string::npos) << m;
  std::ifstream svg(dir + "/inputs_petri.svg");
  const std::string text{std::istreambuf_iterator<char>(svg), {}};
  EXPECT_NE(text.find("<svg"), std::string::npos);
  std::size_t lines = 0;
  for (std::size_t at = 0; (at = text.find("<polyline", at)) != std::string::npos; ++at) ++lines;
  EXPECT_EQ(lines, 3u);
  std::ifstream timed(dir + "/inputs_petri_time.svg");  // 004 Fig. 5: against time
  const std::string time_text{std::istreambuf_iterator<char>(timed), {}};
  EXPECT_NE(time_text.find("seconds since the search started"), std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST(CliInputs, CompareGivesEveryMethodTheSameEvaluations) {
  // Without --patience, --compare spends the whole budget in every method (the GA's default
  // patience of 2 generations used to stop gdivan and random-ga early: 280 / 1,990 / 2,000).
  const auto r = run_warpspan("inputs --kernel bisect --threads 64 --compare --evaluations 250 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j["runs"].size(), 3u);
  for (const auto& run : j["runs"]) EXPECT_EQ(run["evaluations"], 250) << run["method"];
}

TEST(CliInputs, BadInputIsOneLineAndExitTwo) {
  const std::string short_file = scratch(".short");
  std::ofstream(short_file) << "# two threads of bfs need 16 integers\n1 1 0 0 0 0 0 0\n";
  const std::string outside = scratch(".outside");
  std::ofstream(outside) << "42 300\n";

  expect_one_line_exit_2("inputs --kernel nosuch", "unknown kernel 'nosuch'");
  expect_one_line_exit_2("inputs --kernel artificial --threads 0", "--threads");
  expect_one_line_exit_2("inputs --kernel bfs --threads 2 --eval-input " + short_file, "found 8");
  expect_one_line_exit_2("inputs --kernel artificial --threads 2 --eval-input " + outside, "outside [0, 255]");
  expect_one_line_exit_2("inputs --kernel artificial --method annealing", "unknown method");
  expect_one_line_exit_2("inputs --kernel artificial --fitness cpu", "unknown fitness");
  expect_one_line_exit_2("inputs --kernel artificial --evaluations 0", "--evaluations");
  expect_one_line_exit_2("inputs", "--harness (a harness library of your own) is required");
  expect_one_line_exit_2("inputs --kernel bfs --jobs -1", "--jobs");
}

TEST(CliInputs, HelpAndList) {
  const auto help = run_warpspan("inputs --help");
  const auto list = run_warpspan("inputs --list");

  EXPECT_EQ(help.code, 0);
  EXPECT_NE(help.out.find("--fitness"), std::string::npos);
  EXPECT_EQ(list.code, 0);
  EXPECT_EQ(count_lines(list.out), 5);
}

TEST(CliInputs, HarnessIsSearchedLikeABuiltin) {
  const auto r =
      run_warpspan("inputs --harness " + test::harness_fixture("good") + " --compare --evaluations 150 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["kernel"], "fixture");
  EXPECT_EQ(j["harness"], test::harness_fixture("good"));
  EXPECT_EQ(j["threads"], 100);  // the harness's default
  ASSERT_EQ(j["runs"].size(), 3u);
  for (const auto& run : j["runs"]) EXPECT_EQ(run["evaluations"], 150) << run["method"];
  EXPECT_EQ(json::parse(run_warpspan("inputs --kernel bisect --threads 8 --evaluations 100 --json").out)["harness"],
            nullptr);
}

TEST(CliInputs, ListDescribesAHarness) {
  const auto r = run_warpspan("inputs --list --harness " + test::harness_fixture("good"));

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("fixture (harness " + test::harness_fixture("good") + ", ABI version 1)"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("x  per thread, float in [-1, 1], 16 steps"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("mode  per block, int in [0, 3]"), std::string::npos) << r.out;
}

TEST(CliInputs, TheWorstInputGoesToAMakespanInTwoCommands) {
  // inputs writes the best input's slowest block as warps of the makespan model; estimate and
  // exact take the file as --warp-kernels @FILE (issue 40, item 3).
  const std::string warps = scratch(".warps");
  const auto search = run_warpspan("inputs --harness " + test::harness_fixture("good") +
                                   " --threads 40 --method random --evaluations 60 "
                                   "--population 20 --json -q --save-warp-kernels " +
                                   warps);
  ASSERT_EQ(search.code, 0) << search.err;
  const json j = json::parse(search.out);
  const json& w = j["worst_block"];
  ASSERT_TRUE(w["warp_kernels"].is_string()) << j.dump();
  EXPECT_EQ(w["block"], 0);  // 40 threads: one block of 64
  EXPECT_EQ(w["warps"], 2);  // a warp of 32 and one of 8
  EXPECT_EQ(j["saved_warp_kernels"], warps);
  const auto bound = run_warpspan("bound --warp-kernels @" + warps + " --sigma L=1,C=4 --json");
  ASSERT_EQ(bound.code, 0) << bound.err;
  const json b = json::parse(bound.out);
  EXPECT_EQ(b["problem"]["warps"], 2);
  const auto estimate = run_warpspan("estimate --warp-kernels @" + warps +
                                     " --sigma L=1,C=4 --iterations 2000 --chains 4 "
                                     "--exact-seconds 0 --json --quiet");
  ASSERT_EQ(estimate.code, 0) << estimate.err;
  const json e = json::parse(estimate.out);
  EXPECT_LE(e["best_makespan"].get<long long>(), b["pessimistic"].get<long long>());
  // The same from the saved best input.
  const std::string best = scratch(".input");
  ASSERT_EQ(run_warpspan("inputs --harness " + test::harness_fixture("good") +
                         " --threads 40 --method random --evaluations 60 "
                         "--population 20 -q --save-input " +
                         best)
                .code,
            0);
  const auto eval =
      run_warpspan("inputs --harness " + test::harness_fixture("good") + " --eval-input " + best + " --json");
  ASSERT_EQ(eval.code, 0) << eval.err;
  EXPECT_EQ(json::parse(eval.out)["worst_block"], w);
}

TEST(CliInputs, HarnessErrorsAreOneLineAndExitTwo) {
  expect_one_line_exit_2("inputs --harness ./no_such_lib.so", "harness './no_such_lib.so': no such file");
  expect_one_line_exit_2("inputs --harness " + test::harness_fixture("no_entry"),
                         "no entry point warpspan_harness_entry");
  expect_one_line_exit_2("inputs --harness " + test::harness_fixture("bad_abi"), "built for harness ABI version 99");
  expect_one_line_exit_2("inputs --harness " + test::harness_fixture("zero_genes"), "zero genes");
  expect_one_line_exit_2("inputs --harness " + test::harness_fixture("bad_range"), "bad range [5, 1]");
  expect_one_line_exit_2(
      "inputs --harness " + test::harness_fixture("throws") + " --threads 64 --method random --evaluations 50",
      "threw: n = 7 is not allowed");
  expect_one_line_exit_2("inputs --harness " + test::harness_fixture("good") + " --fitness gpu", "has no GPU entry");
  expect_one_line_exit_2("inputs --kernel bfs --harness " + test::harness_fixture("good"), "--harness");
}

}  // namespace
}  // namespace warpspan
