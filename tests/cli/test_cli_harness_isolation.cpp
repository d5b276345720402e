// A harness library cannot take warpspan down or hang it (issue 41, items 2, 10 and 14): it runs in
// worker processes, and whatever it does (crash, abort, exit, throw 42, loop on a hook, hang) ends
// the search with the results so far, the input it failed on saved for replay, one line on stderr
// naming the harness and what it did, and exit 2; Ctrl-C ends a hung harness's search at once.
#include <gtest/gtest.h>
#include <signal.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;
using test::count_lines;
using test::run_warpspan;
using test::run_warpspan_under;
using test::scratch;

// In a sanitizer build the worker's crash would be the sanitizer's report and exit status, and its
// exit() would run the leak checker: the tests see what a user's build does.
const std::string plain = "env ASAN_OPTIONS=\"${ASAN_OPTIONS:+$ASAN_OPTIONS:}handle_segv=0:detect_leaks=0\"";

// Random inputs of 100 threads reach the fixtures' trigger (loop trips adding up to 470) about once
// in 300: with this seed, after some batches of 50 have been evaluated.
const std::string search = " --method random --evaluations 4000 --population 50 --seed 4 --jobs 2 --json -q";

struct failed_search {
  test::cli_result r;
  json j;
};

failed_search run_failing(const std::string& variant, const std::string& save, const std::string& extra = "") {
  failed_search f;
  f.r = run_warpspan_under(
      plain, "inputs --harness " + test::harness_fixture(variant) + search + " --save-input " + save + extra);
  f.j = json::parse(f.r.out, nullptr, false);
  return f;
}

void expect_failed_with_results_so_far(const failed_search& f, const std::string& save, const std::string& what) {
  EXPECT_EQ(f.r.code, 2) << f.r.err;
  EXPECT_EQ(count_lines(f.r.err), 1) << f.r.err;
  EXPECT_NE(f.r.err.find("harness 'fixture' ("), std::string::npos) << f.r.err;
  EXPECT_NE(f.r.err.find(what), std::string::npos) << f.r.err;
  ASSERT_FALSE(f.j.is_discarded()) << f.r.out;
  // The results so far: some batches were evaluated, not all, and the best of them is saved.
  EXPECT_GT(f.j["evaluations"].get<long long>(), 0);
  EXPECT_LT(f.j["evaluations"].get<long long>(), 4000);
  EXPECT_EQ(f.j["history"].back()[1], f.j["best_fitness"]);
  EXPECT_NE(f.j["failure"].get<std::string>().find(what), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(save));
  // The input it failed on: in the JSON and saved for replay; its loop trips add up to 470 or more.
  ASSERT_TRUE(f.j["failing_input"].is_array());
  long long trips = 0;
  for (std::size_t t = 0; t < 100; ++t) trips += f.j["failing_input"][2 * t].get<long long>();
  EXPECT_GE(trips, 470);
  EXPECT_EQ(f.j["saved_failing_input"], save + ".failing");
  EXPECT_NE(f.r.err.find("--eval-input " + save + ".failing"), std::string::npos) << f.r.err;
}

TEST(HarnessIsolation, EachWayAHarnessFailsIsOneLineWithTheResultsSoFar) {
  const std::vector<std::pair<std::string, std::string>> cases{
      {"aborts", "aborted (SIGABRT"},
      {"crash", "crashed with SIGSEGV"},
      {"exits", "exited with status 3 (it called exit())"},
      {"throws_int", "thread 99 (block 1, stage 0) threw an exception that is not a std::exception"},
      {"spin", "thread 99 (block 1, stage 0): it called the hooks more than 4194304 times in one launch"},
  };
  for (const auto& [variant, what] : cases) {
    SCOPED_TRACE(variant);
    const std::string save = scratch("." + variant + ".input");
    const failed_search f = run_failing(variant, save);
    expect_failed_with_results_so_far(f, save, what);
    // The saved failing input fails again alone, the same way; the best input evaluates.
    const auto replay = run_warpspan_under(
        plain, "inputs --harness " + test::harness_fixture(variant) + " --eval-input " + save + ".failing");
    EXPECT_EQ(replay.code, 2) << replay.err;
    EXPECT_EQ(count_lines(replay.err), 1) << replay.err;
    EXPECT_NE(replay.err.find(what), std::string::npos) << replay.err;
    const auto best = run_warpspan_under(
        plain, "inputs --harness " + test::harness_fixture(variant) + " --eval-input " + save + " --json");
    EXPECT_EQ(best.code, 0) << best.err;
    EXPECT_EQ(json::parse(best.out)["best_fitness"], f.j["best_fitness"]);
  }
}

TEST(HarnessIsolation, AHarnessThatHangsIsStoppedAfterItsTimeout) {
  const std::string save = scratch(".input");
  const failed_search f = run_failing("hang", save, " --eval-timeout 1");
  expect_failed_with_results_so_far(f, save, "made no progress for 1 s (an endless loop or a hang?) and was stopped");
}

TEST(HarnessIsolation, CtrlCEndsTheSearchOfAHungHarnessAtOnce) {
  // The hang comes within the first batches; no timeout would stop it for a minute. SIGINT must
  // end the run within seconds, exit 130, with the results so far.
  const test::signalled_run r =
      test::run_and_signal({"inputs", "--harness", test::harness_fixture("hang"), "--method", "random", "--evaluations",
                            "4000", "--population", "50", "--seed", "4", "--json", "-q"},
                           SIGINT, 2000);
  ASSERT_FALSE(r.hung);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
  EXPECT_EQ(r.code, 130);
  EXPECT_LT(r.after_signal_s, 5.0);
  const json j = json::parse(r.out);
  EXPECT_TRUE(j["interrupted"].get<bool>());
  EXPECT_TRUE(j["failure"].is_null());
  EXPECT_GT(j["evaluations"].get<long long>(), 0);
}

TEST(HarnessIsolation, GdivanStopsWhereItsFirstGenerationFails) {
  // GDivAn's first population holds the atoms of most instructions repeated (every n at 8): the
  // trigger at once, after the atoms (whose few threads never reach it). No evaluation finished.
  const auto r =
      run_warpspan_under(plain, "inputs --harness " + test::harness_fixture("aborts") + " --evaluations 400 --json -q");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  const json j = json::parse(r.out);
  EXPECT_EQ(j["evaluations"], 0);
  EXPECT_TRUE(j["best_fitness"].is_null());
  EXPECT_GT(j["atoms"]["count"].get<long long>(), 0);
  EXPECT_NE(j["failure"].get<std::string>().find("aborted (SIGABRT"), std::string::npos);
}

TEST(HarnessIsolation, AHarnessThatAbortsWhileLoadingIsOneLine) {
  for (const std::string args : {"inputs --harness " + test::harness_fixture("load_aborts"),
                                 "inputs --list --harness " + test::harness_fixture("load_aborts")}) {
    const auto r = run_warpspan_under(plain, args);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    // The path is quoted (long ones shortened, as every message quotes a user's text).
    EXPECT_EQ(r.err.rfind("warpspan: harness '", 0), 0u) << r.err;
    EXPECT_NE(r.err.find(": aborted (SIGABRT"), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("while loading"), std::string::npos) << r.err;
  }
}

}  // namespace
}  // namespace warpspan
