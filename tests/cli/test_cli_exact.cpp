// `exact` and `bound --exact-up-to` as scripts use them.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"
#include "test_util.hpp"
#include "warpspan/core/backend.hpp"
#include "warpspan/exact/search.hpp"

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
  // W = 5: the exact search finishes (well within the budget, even under sanitizers on a loaded
  // machine; it stops as soon as it is done), so the interval is one value.
  test::cli_result r = test::run_warpspan(
      "estimate --kernel 5L9C2L9C --warps 5 --sigma L=1,C=4 --iterations 2000 --chains 4 --exact-seconds 60 --json "
      "--quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  json j = json::parse(r.out)["proven"];
  EXPECT_TRUE(j["exact"].get<bool>());
  EXPECT_EQ(j["lower"].get<int>(), 57);
  EXPECT_EQ(j["upper"].get<int>(), 57);
  // W = 16: the search does not finish; the upper end is the pessimistic bound (197) or what the
  // stopped search proves below it. (The tractable estimate 4 x T(4) = 180 is not a bound.)
  r = test::run_warpspan(
      "estimate --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --iterations 2000 --chains 4 --exact-seconds 12 --json "
      "--quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const json all = json::parse(r.out);
  j = all["proven"];
  EXPECT_FALSE(j["exact"].get<bool>());
  EXPECT_GE(j["lower"].get<int>(), all["best_makespan"].get<int>());
  EXPECT_LE(j["upper"].get<int>(), 197);
  EXPECT_GE(j["upper"].get<int>(), 160) << "annealing reaches 160 (paper 000)";
  EXPECT_TRUE(j["upper_from"] == "search" || j["upper_from"] == "pessimistic") << j["upper_from"];
  EXPECT_FALSE(j.contains("exact_T"));
  // --exact-seconds 0 skips it.
  r = test::run_warpspan(
      "estimate --kernel LCL --warps 3 --sigma L=1,C=1 --iterations 100 --exact-seconds 0 --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_TRUE(json::parse(r.out).at("proven").is_null());
}

TEST(CliExact, SweepOptions) {
  // --threads and --no-prune change the work, not the answer.
  for (const char* extra : {"--threads 1", "--threads 2 --no-prune"}) {
    const test::cli_result r =
        test::run_warpspan(std::string("exact --kernel 5L9C2L9C --warps 5 --sigma L=1,C=4 --json ") + extra);
    ASSERT_EQ(r.code, 0) << r.err;
    const json j = json::parse(r.out);
    EXPECT_EQ(j["makespan"].get<int>(), 57) << extra;
    EXPECT_EQ(j["algorithm"].get<std::string>(), "dense") << "the table of C(30, 5) multisets fits";
  }
}

TEST(CliExact, TractableEstimate) {
  // T(1..4) = 25, 31, 37, 45: min(16 x 25, 8 x 31, 6 x 37, 4 x 45) = 180 (001 eq. 42, an estimate:
  // tests/makespan/test_bounds.cpp has a case the worst case exceeds it).
  const test::cli_result r =
      test::run_warpspan("bound --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --exact-up-to 4 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["pessimistic"].get<int>(), 197);
  EXPECT_EQ(j["pessimistic_001"].get<int>(), 184);
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
  EXPECT_EQ(j["algorithm"].get<std::string>(), "sweep");  // 16-bit levels past 254 instructions (issue 40)
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
      "estimate --kernel 300C300L --warps 8 --sigma L=1,C=4 --iterations 2000 --chains 4 --exact-seconds 3 --json "
      "--quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  j = json::parse(r.out)["proven"];
  EXPECT_GE(j["lower"].get<int>(), 2700);
  EXPECT_LE(j["lower"].get<int>(), j["upper"].get<int>());
  EXPECT_LE(j["upper"].get<int>(), 600 + 7 * 300 + 7 * 300 / 4);  // the pessimistic bound
  // T(1), T(2) of the same kernel, as bound computes them: 600 and 900.
  r = test::run_warpspan("bound --kernel 300C300L --warps 8 --sigma L=1,C=4 --exact-up-to 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(json::parse(r.out)["exact_T"], json::parse("[600, 900]"));
}

TEST(CliExact, KernelsPast254InstructionsTakeTheLevelSearches) {
  // 300 instructions, W = 2 and 8: 16-bit levels. `exact` runs the hash sweep for them (also with
  // --max-states, which asks for it), not the dense one (docs/makespan.md), and answers the
  // depth-first value.
  struct one_case {
    const char* args;
    problem prob;
  };
  const one_case cases[] = {
      {"--kernel 100L100C100L --warps 2 --sigma L=1,C=2", test::make("100L100C100L", 2, 1, 2)},
      {"--kernel 100L100C100L --warps 2 --sigma L=1,C=2 --schedulers 1", test::make("100L100C100L", 2, 1, 2, 0, 0, 1)},
      {"--kernel 120C1B130C2L48C --warps 8 --sigma L=1,C=8 --schedulers 8",
       test::make("120C1B130C2L48C", 8, 1, 8, 0, 0, 8)},
  };
  for (const one_case& c : cases) {
    const std::uint32_t worst = exact_search_cpu(c.prob).makespan;
    for (const char* method : {"", " --max-states 100000000"}) {
      const std::string args = std::string("exact ") + c.args + method + " --json --no-table --quiet";
      const test::cli_result r = test::run_warpspan(args);
      ASSERT_EQ(r.code, 0) << args << ": " << r.err;
      const json j = json::parse(r.out);
      EXPECT_EQ(j["makespan"].get<std::uint32_t>(), worst) << args;
      const std::string algorithm = j["algorithm"].get<std::string>();
      EXPECT_EQ(algorithm, "sweep") << args;
    }
  }
  // estimate proves its interval with them, the beam chain among its starts.
  const test::cli_result r = test::run_warpspan(
      "estimate --kernel 100L100C100L --warps 2 --sigma L=1,C=2 --iterations 2000 --chains 4 --exact-seconds 60 --json "
      "--quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out)["proven"];
  EXPECT_TRUE(j["exact"].get<bool>());
  EXPECT_EQ(j["upper"].get<std::uint32_t>(), exact_search_cpu(cases[0].prob).makespan);
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

TEST(CliExact, NegativeAndAbsurdCountsAreRefused) {
  // CLI11 wrapped -1 into an unsigned --max-states (no limit instead of an error), and --threads
  // took any count (clamped silently).
  for (const char* args : {"exact --kernel LCL --warps 3 --sigma L=1,C=1 --max-states -1",
                           "exact --kernel LCL --warps 3 --sigma L=1,C=1 --threads -1",
                           "exact --kernel LCL --warps 3 --sigma L=1,C=1 --threads 100000",
                           "exact --kernel LCL --warps 3 --sigma L=1,C=1 --time-limit -1",
                           "bound --kernel LCL --warps 3 --sigma L=1,C=1 --exact-up-to -1",
                           "bound --kernel LCL --warps 3 --sigma L=1,C=1 --exact-up-to 2 --time-limit -1"}) {
    const test::cli_result r = test::run_warpspan(args);
    EXPECT_EQ(r.code, 2) << args;
    EXPECT_EQ(test::count_lines(r.err), 1) << args << ": " << r.err;
  }
}

/// Voronoi T(1..11) (docs/makespan.md, bench/results; T(1..6) also in the unit tests).
const int voronoi_t[] = {25, 31, 37, 45, 57, 67, 77, 86, 95, 104, 114};

/// Checks bound's per-T entries against the known T(y): complete ones equal, unfinished ones hold it.
void expect_t_entries(const json& j, int up_to) {
  ASSERT_EQ(j["T"].size(), static_cast<std::size_t>(up_to));
  json unfinished = json::array(), exact = json::array();
  for (int y = 1; y <= up_to; ++y) {
    const json& e = j["T"][y - 1];
    EXPECT_EQ(e["y"].get<int>(), y);
    if (e["complete"].get<bool>()) {
      EXPECT_TRUE(unfinished.empty()) << "a solved T(" << y << ") after an unfinished one";
      EXPECT_EQ(e["lower"].get<int>(), voronoi_t[y - 1]) << y;
      EXPECT_EQ(e["upper"].get<int>(), voronoi_t[y - 1]) << y;
      exact.push_back(voronoi_t[y - 1]);
    } else {
      unfinished.push_back(y);
      EXPECT_LE(e["lower"].get<int>(), voronoi_t[y - 1]) << y;
      EXPECT_GE(e["upper"].get<int>(), voronoi_t[y - 1]) << y;
      EXPECT_FALSE(e["stop_reason"].get<std::string>().empty());
    }
  }
  EXPECT_EQ(j["unfinished"], unfinished);
  EXPECT_EQ(j["exact_T"], exact);
}

TEST(CliExact, BoundSaysWhichTItCouldNotFinish) {
  // T(11) takes the sweep 44 minutes on 2 cores: 2 seconds cannot reach it, so T(11) (at least) is
  // reported unfinished, with an interval that holds its known value.
  test::cli_result r =
      test::run_warpspan("bound --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --exact-up-to 11 --time-limit 2 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  expect_t_entries(j, 11);
  ASSERT_FALSE(j["unfinished"].empty());
  EXPECT_EQ(j["unfinished"].back().get<int>(), 11);
  EXPECT_EQ(j["stopped_at"], j["unfinished"][0]);
  EXPECT_FALSE(j["interrupted"].get<bool>());
  r = test::run_warpspan("bound --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --exact-up-to 11 --time-limit 1");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("<= T(11) <="), std::string::npos) << r.out;
}

/// Starts `warpspan ARGS...` with stdout to a file, sends SIGINT after `delay`, and returns its exit
/// code (-1 if it did not exit normally; killed after a generous minute so a hang fails).
int interrupt_after(const std::vector<std::string>& args, std::chrono::milliseconds delay,
                    const std::string& out_file) {
  const pid_t pid = fork();
  if (pid == 0) {
    FILE* out = std::freopen(out_file.c_str(), "w", stdout);
    if (!out) _exit(126);
    std::vector<char*> argv{const_cast<char*>(WARPSPAN_BINARY)};
    for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(WARPSPAN_BINARY, argv.data());
    _exit(127);
  }
  if (pid < 0) return -2;
  std::this_thread::sleep_for(delay);
  kill(pid, SIGINT);
  int status = 0;
  for (int waited = 0; waited < 600; ++waited) {
    if (waitpid(pid, &status, WNOHANG) == pid) return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  kill(pid, SIGKILL);
  waitpid(pid, &status, 0);
  return -1;
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CliExact, InterruptedSearchPrintsTheIntervalSoFar) {
  // Voronoi W = 11 takes 44 minutes: Ctrl-C after 2 s stops it with exit 130 and an interval that
  // holds T(11) = 114, its lower end built by the witness.
  const std::string out = test::scratch(".json");
  const int code = interrupt_after(
      {"exact", "--kernel", "5L9C2L9C", "--warps", "11", "--sigma", "L=1,C=4", "--json", "--no-table", "--quiet"},
      std::chrono::milliseconds(2000), out);
  ASSERT_EQ(code, 130) << slurp(out);
  const json j = json::parse(slurp(out));
  EXPECT_TRUE(j["interrupted"].get<bool>());
  EXPECT_FALSE(j["complete"].get<bool>());
  EXPECT_LE(j["lower"].get<int>(), 114);
  EXPECT_GE(j["upper"].get<int>(), 114);
  std::string ids;
  for (const auto& w : j["best_string"]) ids += std::to_string(w.get<int>()) + " ";
  const test::cli_result b =
      test::run_warpspan("build --kernel 5L9C2L9C --warps 11 --sigma L=1,C=4 --json --string \"" + ids + "\"");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(json::parse(b.out)["makespan"], j["lower"]);
  // The table form says so too.
  const int text_code =
      interrupt_after({"exact", "--kernel", "5L9C2L9C", "--warps", "11", "--sigma", "L=1,C=4", "--no-table", "--quiet"},
                      std::chrono::milliseconds(2000), out);
  EXPECT_EQ(text_code, 130);
  const std::string text = slurp(out);
  EXPECT_NE(text.find("interrupted"), std::string::npos) << text;
  EXPECT_NE(text.find("<= worst case <="), std::string::npos) << text;
}

TEST(CliExact, InterruptedBoundKeepsTheSolvedT) {
  // T(1..8) take seconds, T(11) 44 minutes: after 3 s the solved T(y) are kept and the rest are
  // unfinished with intervals holding their known values.
  const std::string out = test::scratch(".json");
  const int code = interrupt_after(
      {"bound", "--kernel", "5L9C2L9C", "--warps", "16", "--sigma", "L=1,C=4", "--exact-up-to", "11", "--json"},
      std::chrono::milliseconds(3000), out);
  ASSERT_EQ(code, 130) << slurp(out);
  const json j = json::parse(slurp(out));
  EXPECT_TRUE(j["interrupted"].get<bool>());
  expect_t_entries(j, 11);
  EXPECT_FALSE(j["unfinished"].empty());
}

TEST(CliExact, CudaBackendWithoutADeviceSaysWhy) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device is present (CudaSweepMatchesCpu covers the device)";
  const test::cli_result r = test::run_warpspan("exact --kernel LCL --warps 3 --sigma L=1,C=1 --backend cuda");
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(test::count_lines(r.err), 1) << r.err;
}

}  // namespace
}  // namespace warpspan
