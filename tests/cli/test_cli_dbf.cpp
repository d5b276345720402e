// The dbf and generate-tasks commands as scripts use them: the JSON contract, backends agreeing,
// batches, reproducible generation, and bad input giving one line on stderr and exit code 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <iomanip>
#include <sstream>

#include "cli/cli_util.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;

using test::cli_result;
using test::count_lines;
using test::run_warpspan;
using test::scratch;

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// The JSON of a run without what depends on the machine.
json without_timing(const std::string& out) {
  json j = json::parse(out);
  j.erase("elapsed_s");
  j.erase("kernel_s");
  j.erase("backend");
  j.erase("points");
  return j;
}

TEST(CliDbf, JsonContractOfFig2Example) {
  const cli_result r =
      run_warpspan("dbf " + test::task_file("fig2_example.json") + " --at 10,50,100 --backend cpu --json");

  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(count_lines(r.out), 1);
  const json j = json::parse(r.out);
  EXPECT_TRUE(j.at("schedulable").is_boolean());
  EXPECT_TRUE(j.at("schedulable").get<bool>());
  EXPECT_DOUBLE_EQ(j.at("utilization").get<double>(), 12.0 / 50.0);
  EXPECT_EQ(j.at("t_max").get<std::uint64_t>(), 31u);  // floor(2 x 12 / (1 - 0.24))
  EXPECT_TRUE(j.at("first_violation").is_null());
  EXPECT_TRUE(j.at("elapsed_s").is_number());
  EXPECT_GE(j.at("elapsed_s").get<double>(), 0.0);
  EXPECT_TRUE(j.at("kernel_s").is_null());  // no GPU kernels on the CPU
  EXPECT_EQ(j.at("backend").get<std::string>(), "cpu");
  EXPECT_EQ(j.at("edf_method").get<std::string>(), "qpa");
  EXPECT_TRUE(j.at("points").is_number_unsigned());
  ASSERT_EQ(j.at("tasks").size(), 1u);
  const json& t = j.at("tasks")[0];
  EXPECT_EQ(t.at("name").get<std::string>(), "fig2");
  EXPECT_EQ(t.at("E").get<int>(), 12);  // v1 -> v3 -> v4
  EXPECT_EQ(t.at("period").get<int>(), 50);
  EXPECT_EQ(t.at("vertices").get<int>(), 4);
  EXPECT_EQ(t.at("rows").get<int>(), 8);
  EXPECT_EQ(t.at("columns").get<int>(), 23);  // demands 0..22: v3 v4 of the first copy, v1 v3 v4 of the second
  // dbf(10): v3 alone (span 10). dbf(50): v3 v4 v1' v3' (span 15 + 10 + 10 + 10). dbf(100) = E + dbf(50).
  const json expected = {{"10", 6}, {"50", 18}, {"100", 30}};
  EXPECT_EQ(t.at("dbf_at"), expected);
  EXPECT_EQ(j.at("total_dbf_at"), expected);
}

TEST(CliDbf, OverloadedSetFailsAtFourteenWithEitherMethod) {
  // At t = 14: 'heavy' (12 within 14) plus 'compute' (6 within 12) = 18 > 14, with U = 0.41.
  const cli_result qpa = run_warpspan("dbf " + test::task_file("overloaded.json") + " --backend cpu --edf qpa --json");
  const cli_result scan =
      run_warpspan("dbf " + test::task_file("overloaded.json") + " --backend cpu --edf scan --json");

  ASSERT_EQ(qpa.code, 0) << qpa.err;
  ASSERT_EQ(scan.code, 0) << scan.err;
  const json a = json::parse(qpa.out), b = json::parse(scan.out);
  EXPECT_FALSE(a.at("schedulable").get<bool>());
  EXPECT_LT(a.at("utilization").get<double>(), 1.0);
  EXPECT_EQ(a.at("first_violation").get<int>(), 14);
  EXPECT_EQ(b.at("first_violation").get<int>(), 14);
}

TEST(CliDbf, CpuParallelGivesTheSameValuesAsCpu) {
  for (const char* file : {"fig2_example.json", "two_tasks_schedulable.json", "overloaded.json"}) {
    const std::string args = "dbf " + test::task_file(file) + " --at 1,7,14,50,99,240,1000 --json --backend ";

    const cli_result cpu = run_warpspan(args + "cpu");
    const cli_result parallel = run_warpspan(args + "cpu-parallel --threads 3");

    ASSERT_EQ(cpu.code, 0) << cpu.err;
    ASSERT_EQ(parallel.code, 0) << parallel.err;
    EXPECT_EQ(json::parse(parallel.out).at("backend").get<std::string>(), "cpu-parallel");
    EXPECT_EQ(without_timing(cpu.out), without_timing(parallel.out)) << file;
  }
}

/// Two one-vertex tasks (e, d, P) in the JSON format.
std::string two_sporadic(int e1, int d1, int p1, int e2, int d2, int p2) {
  auto one = [](const char* name, int e, int d, int p) {
    return std::string(R"({"name": ")") + name + R"(", "period": )" + std::to_string(p) +
           R"(, "vertices": [{"id": "v", "wcet": )" + std::to_string(e) + R"(, "deadline": )" + std::to_string(d) +
           R"(}], "edges": []})";
  };
  return R"({"tasks": [)" + one("a", e1, d1, p1) + ", " + one("b", e2, d2, p2) + "]}";
}

TEST(CliDbf, UtilisationOfOneIsDecidedOverAHyperperiod) {
  // (5, 10, 10) twice: U = 1, sum dbf(t) = 10 floor(t / 10) <= t: schedulable; checked to H + max P = 20.
  const std::string path = scratch(".json");
  std::ofstream(path) << two_sporadic(5, 10, 10, 5, 10, 10);

  const cli_result j = run_warpspan("dbf " + path + " --backend cpu --json");
  const cli_result text = run_warpspan("dbf " + path + " --backend cpu");
  const cli_result scan = run_warpspan("dbf " + path + " --backend cpu --edf scan --json --check");

  ASSERT_EQ(j.code, 0) << j.err;
  const json out = json::parse(j.out);
  EXPECT_TRUE(out.at("schedulable").get<bool>());
  EXPECT_EQ(out.at("utilization_exact").get<std::string>(), "10/10");
  EXPECT_DOUBLE_EQ(out.at("utilization").get<double>(), 1.0);
  EXPECT_TRUE(out.at("t_max").is_null());
  EXPECT_EQ(out.at("checked_to").get<int>(), 20);
  EXPECT_EQ(out.at("hyperperiod").get<int>(), 10);
  EXPECT_TRUE(out.at("first_violation").is_null());
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("utilisation      1 (= 10/10)"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("schedulable by EDF"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("NOT"), std::string::npos) << text.out;
  ASSERT_EQ(scan.code, 0) << scan.err;
  EXPECT_TRUE(json::parse(scan.out).at("schedulable").get<bool>());
}

TEST(CliDbf, UtilisationOfOneWithAShortDeadlineFailsAtFive) {
  // (1, 1, 2) and (3, 5, 6): within 5, three jobs of a and one of b demand 6 > 5; t = 1, 3 are fine.
  const std::string path = scratch(".json");
  std::ofstream(path) << two_sporadic(1, 1, 2, 3, 5, 6);

  for (const char* method : {"qpa", "scan"}) {
    const cli_result r = run_warpspan("dbf " + path + " --backend cpu --json --edf " + method);

    ASSERT_EQ(r.code, 0) << r.err;
    const json out = json::parse(r.out);
    EXPECT_FALSE(out.at("schedulable").get<bool>());
    EXPECT_EQ(out.at("utilization_exact").get<std::string>(), "6/6");
    EXPECT_EQ(out.at("first_violation").get<int>(), 5);
  }
}

TEST(CliDbf, UtilisationJustBelowOneIsPrintedExactly) {
  // (999, 1000, 1000) and (1, 1001, 1001): U = 1 - 1/1,001,000, which four decimals would show as 1.
  const std::string path = scratch(".json");
  std::ofstream(path) << two_sporadic(999, 1000, 1000, 1, 1001, 1001);

  const cli_result text = run_warpspan("dbf " + path + " --backend cpu");
  const cli_result j = run_warpspan("dbf " + path + " --backend cpu --json");

  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("0.999999000999001 (= 1000999/1001000)"), std::string::npos) << text.out;
  ASSERT_EQ(j.code, 0) << j.err;
  const json out = json::parse(j.out);
  EXPECT_EQ(out.at("utilization_exact").get<std::string>(), "1000999/1001000");
  EXPECT_EQ(out.at("t_max").get<std::uint64_t>(), 2'002'000'000u);
  EXPECT_EQ(out.at("checked_to").get<std::uint64_t>(), 1'002'001u);  // H + max P
  EXPECT_TRUE(out.at("schedulable").get<bool>());
}

TEST(CliDbf, UtilisationOneMinusATrillionthEndsQuickly) {
  // Periods 999,999 and 1,000,000 (H ~ 1e12), U = 1 - 1e-12: (999,998, 999,999, 999,999) and
  // (1, 1,000,000, 1,000,000): 999998/999999 + 1/1000000 = 1 - 1/(999999 x 1000000). Checking up to
  // t ~ 1e12 point by point is too much: the command must refuse clearly (exit 2, "undecided") or
  // decide, but not run for minutes (the timeout catches a hang).
  const std::string path = scratch(".json");
  std::ofstream(path) << two_sporadic(999998, 999999, 999999, 1, 1000000, 1000000);

  const cli_result r = run_warpspan("dbf " + path + " --backend cpu --json");

  if (r.code == 0) {
    EXPECT_EQ(json::parse(r.out).at("utilization_exact").get<std::string>(), "999998999999/999999000000");
  } else {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_NE(r.err.find("undecided"), std::string::npos) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
  }
}

TEST(CliDbf, HugeAtValuesAreExactOrRefused) {
  // One vertex e = 2^20, d = 1, P = 1: dbf(t) = 2^20 t, exact up to t = 2^44 - 1, over 2^64 beyond.
  const std::string path = scratch(".json");
  std::ofstream(path)
      << R"({"tasks": [{"name": "h", "period": 1, "vertices": [{"id": "v", "wcet": 1048576, "deadline": 1}]}]})";

  const cli_result fits = run_warpspan("dbf " + path + " --backend cpu --json --at 17592186044415");
  const cli_result over = run_warpspan("dbf " + path + " --backend cpu --at 18446744073709551615");
  const cli_result over_json = run_warpspan("dbf " + path + " --backend cpu --json --at 17592186044416");

  ASSERT_EQ(fits.code, 0) << fits.err;
  EXPECT_EQ(json::parse(fits.out).at("total_dbf_at").at("17592186044415").get<std::uint64_t>(),
            18446744073708503040ull);  // (2^44 - 1) x 2^20 = 2^64 - 2^20
  for (const cli_result* r : {&over, &over_json}) {
    EXPECT_EQ(r->code, 2) << r->err;
    EXPECT_NE(r->err.find("2^64"), std::string::npos) << r->err;
    EXPECT_TRUE(r->out.empty()) << r->out;
  }
}

TEST(CliDbf, CheckGivesTheVerdictAsExitCode) {
  const cli_result bad = run_warpspan("dbf " + test::task_file("overloaded.json") + " --backend cpu --check");
  const cli_result good = run_warpspan("dbf " + test::task_file("fig2_example.json") + " --backend cpu --check");
  const cli_result plain = run_warpspan("dbf " + test::task_file("overloaded.json") + " --backend cpu");
  const cli_result batch =
      run_warpspan("dbf --batch " + test::task_file("variants.jsonl") + " --backend cpu --check --json");
  const cli_result missing = run_warpspan("dbf /nonexistent.json --check");

  EXPECT_EQ(bad.code, 1) << bad.err;
  EXPECT_NE(bad.out.find("NOT schedulable"), std::string::npos);
  EXPECT_EQ(good.code, 0) << good.err;
  EXPECT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(batch.code, 1) << batch.err;  // 6 of its 20 sets fail
  EXPECT_EQ(count_lines(batch.out), 21);  // 20 sets and the end record
  EXPECT_EQ(missing.code, 2);

  // A batch of schedulable sets only: exit 0.
  const std::string dir = scratch("_good");
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(test::task_file("fig2_example.json"), dir + "/a.json");
  std::filesystem::copy_file(test::task_file("two_tasks_schedulable.json"), dir + "/b.json");
  const cli_result all_good = run_warpspan("dbf --batch " + dir + " --backend cpu --check");
  EXPECT_EQ(all_good.code, 0) << all_good.err << all_good.out;
  std::filesystem::copy_file(test::task_file("overloaded.json"), dir + "/c.json");
  EXPECT_EQ(run_warpspan("dbf --batch " + dir + " --backend cpu --check").code, 1);
}

TEST(CliDbf, LongSweepStreamsEveryVariantInOrder) {
  // 700 variants: more than one chunk of 256. Every line in order, and a period sweep (tables shared)
  // agrees with the same variants analysed one at a time (sweeps of one step).
  const cli_result wcet =
      run_warpspan("dbf " + test::task_file("fig2_example.json") + " --backend cpu --json --sweep wcet:1:4:700");
  ASSERT_EQ(wcet.code, 0) << wcet.err;
  ASSERT_EQ(count_lines(wcet.out), 701);  // the variants, then the summary
  std::istringstream lines(wcet.out);
  std::string line;
  double last = 0;
  for (int k = 0; k < 700 && std::getline(lines, line); ++k) {
    const double f = json::parse(line).at("factor").get<double>();
    EXPECT_DOUBLE_EQ(f, 1.0 + 3.0 * k / 699) << k;
    EXPECT_GT(f, last);
    last = f;
  }

  const cli_result period =
      run_warpspan("dbf " + test::task_file("fig2_example.json") + " --backend cpu --json --sweep period:0.6:3:300");
  ASSERT_EQ(period.code, 0) << period.err;
  ASSERT_EQ(count_lines(period.out), 301);
  std::istringstream plines(period.out);
  for (int k = 0; k < 300 && std::getline(plines, line); ++k) {
    if (k % 37 != 0 && k != 299) continue;
    const double f = 0.6 + (3.0 - 0.6) * k / 299;
    std::ostringstream spec;
    spec << std::setprecision(17) << f << ":" << f << ":1";
    const cli_result one = run_warpspan("dbf " + test::task_file("fig2_example.json") +
                                        " --backend cpu --json --sweep period:" + spec.str());
    ASSERT_EQ(one.code, 0) << one.err;
    json a = json::parse(line), b = json::parse(one.out.substr(0, one.out.find('\n')));
    a.erase("factor");
    b.erase("factor");
    EXPECT_EQ(a, b) << k;
  }
}

/// Runs `warpspan ARGS...` and sends it SIG (SIGINT, SIGTERM) a moment after its first line is out,
/// however long that takes a loaded machine: the run is stopped midway with something done. (A fixed
/// two, then four, seconds were too few for the first set under ASan on a loaded 2-core machine.)
cli_result run_signalled(int sig, const std::vector<std::string>& args) {
  const test::signalled_run s = test::run_and_signal(args, sig, 300, -1, 1);
  cli_result r;
  r.code = s.hung ? -2 : s.exited ? s.code : -1;
  r.out = s.out;
  return r;
}

TEST(CliDbf, BatchStopsOnSigintAndKeepsTheSetsDone) {
  // A batch far too long to finish before the signal (1000 sets, tables of 10-vertex tasks with e up
  // to 10,000: about a minute on one core), stopped by SIGINT after its first set: exit 130, every set
  // done printed in order, a last line saying so.
  const std::string jsonl = scratch(".jsonl");
  const cli_result gen =
      run_warpspan("generate-tasks --vertices 10 --tasks 3 --sets 1000 --max-wcet 10000 --seed 2 --out " + jsonl);
  ASSERT_EQ(gen.code, 0) << gen.err;

  const cli_result r = run_signalled(SIGINT, {"dbf", "--batch", jsonl, "--backend", "cpu", "--json"});

  EXPECT_EQ(r.code, 130) << r.out.substr(0, 400);
  std::istringstream lines(r.out);
  std::string line;
  std::vector<json> all;
  while (std::getline(lines, line)) all.push_back(json::parse(line));
  ASSERT_GE(all.size(), 2u) << "no set was done before the signal";
  const json& last = all.back();
  EXPECT_TRUE(last.at("interrupted").get<bool>());
  EXPECT_EQ(last.at("sets_done").get<std::size_t>(), all.size() - 1);
  EXPECT_LT(all.size() - 1, 1000u);
  const std::string name = std::filesystem::path(jsonl).filename().string();
  for (std::size_t k = 0; k + 1 < all.size(); ++k) {
    EXPECT_EQ(all[k].at("set").get<std::string>(), name + ":" + std::to_string(k + 1));
    EXPECT_TRUE(all[k].at("schedulable").is_boolean());
  }
  // The first set done agrees with a run of it alone.
  std::ifstream in(jsonl);
  std::string first;
  std::getline(in, first);
  const std::string one = scratch("_first.json");
  std::ofstream(one) << first;
  const cli_result alone = run_warpspan("dbf " + one + " --backend cpu --json");
  ASSERT_EQ(alone.code, 0) << alone.err;
  EXPECT_EQ(all[0].at("schedulable"), json::parse(alone.out).at("schedulable"));
  EXPECT_EQ(all[0].at("first_violation"), json::parse(alone.out).at("first_violation"));
}

TEST(CliDbf, SweepStopsOnSigterm) {
  const std::string big = scratch(".json");
  ASSERT_EQ(run_warpspan("generate-tasks --vertices 10 --tasks 3 --max-wcet 10000 --seed 4 --out " + big).code, 0);

  const cli_result r = run_signalled(SIGTERM, {"dbf", big, "--backend", "cpu", "--sweep", "wcet:1:1.01:100000"});

  EXPECT_EQ(r.code, 130);
  EXPECT_NE(r.out.find("interrupted after"), std::string::npos)
      << r.out.substr(r.out.size() > 400 ? r.out.size() - 400 : 0);
  EXPECT_EQ(r.out.rfind("wcet x 1.0000", 0), 0u) << "no variant was done before the signal";
}

TEST(CliDbf, SvgMarksTheFirstViolation) {
  const std::string svg = scratch(".svg");

  const cli_result r = run_warpspan("dbf " + test::task_file("overloaded.json") + " --backend cpu --svg " + svg);

  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text(svg);
  EXPECT_EQ(text.rfind("<svg", 0), 0u);
  EXPECT_NE(text.find("first violation: t = 14, demand 18"), std::string::npos);
  EXPECT_NE(text.find("</svg>"), std::string::npos);
}

TEST(CliDbf, BatchOnAGeneratedDirectoryGivesOneLinePerSet) {
  const std::string dir = scratch("_sets");
  std::filesystem::remove_all(dir);
  const cli_result gen =
      run_warpspan("generate-tasks --vertices 6 --tasks 2 --sets 5 --max-wcet 50 --seed 3 --out " + dir);
  ASSERT_EQ(gen.code, 0) << gen.err;

  const cli_result j = run_warpspan("dbf --batch " + dir + " --backend cpu --json");
  const cli_result text = run_warpspan("dbf --batch " + dir + " --backend cpu");

  ASSERT_EQ(j.code, 0) << j.err;
  ASSERT_EQ(count_lines(j.out), 6) << j.out;  // five sets and the end record
  std::istringstream lines(j.out);
  std::string line;
  for (int k = 1; k <= 5 && std::getline(lines, line); ++k) {
    const json set = json::parse(line);
    EXPECT_EQ(set.at("set").get<std::string>(), "set_000" + std::to_string(k) + ".json");
    EXPECT_TRUE(set.at("schedulable").is_boolean());
    EXPECT_TRUE(set.at("utilization").is_number());
    EXPECT_TRUE(set.contains("t_max"));
    EXPECT_TRUE(set.contains("first_violation"));
  }
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_EQ(count_lines(text.out), 6) << text.out;  // five sets and the summary
  EXPECT_NE(text.out.find(" of 5 sets schedulable"), std::string::npos) << text.out;
}

TEST(CliDbf, BatchOfJsonLinesMatchesSingleRuns) {
  const std::string jsonl = scratch(".jsonl");
  ASSERT_EQ(run_warpspan("generate-tasks --vertices 5 --tasks 2 --sets 3 --max-wcet 40 --seed 9 --out " + jsonl).code,
            0);

  const cli_result batch = run_warpspan("dbf --batch " + jsonl + " --backend cpu --json");

  ASSERT_EQ(batch.code, 0) << batch.err;
  ASSERT_EQ(count_lines(batch.out), 4) << batch.out;  // three sets and the end record
  std::istringstream lines(batch.out), sets(read_text(jsonl));
  std::string line, set_text;
  for (int k = 1; std::getline(lines, line) && std::getline(sets, set_text); ++k) {
    const std::string one = scratch("_one.json");
    std::ofstream(one) << set_text;
    const json single = json::parse(run_warpspan("dbf " + one + " --backend cpu --json").out);
    const json b = json::parse(line);
    EXPECT_EQ(b.at("set").get<std::string>(),
              std::filesystem::path(jsonl).filename().string() + ":" + std::to_string(k));
    EXPECT_EQ(b.at("schedulable"), single.at("schedulable"));
    EXPECT_EQ(b.at("t_max"), single.at("t_max"));
    EXPECT_EQ(b.at("first_violation"), single.at("first_violation"));
  }
}

TEST(CliGenerateTasks, SameSeedIsByteIdenticalAndAnotherSeedDiffers) {
  const std::string args =
      "generate-tasks --vertices 8 --tasks 3 --sets 4 --max-wcet 100 --edge-probability 0.3 "
      "--utilization 0.5 --seed ";

  const cli_result a = run_warpspan(args + "5");
  const cli_result b = run_warpspan(args + "5");
  const cli_result c = run_warpspan(args + "6");

  ASSERT_EQ(a.code, 0) << a.err;
  EXPECT_EQ(count_lines(a.out), 4);  // several sets: one JSON line each
  EXPECT_EQ(a.out, b.out);
  EXPECT_NE(a.out, c.out);
}

TEST(CliGenerateTasks, WrittenFilesAreValidTaskSets) {
  const std::string file = scratch(".json");

  const cli_result gen = run_warpspan("generate-tasks --vertices 7 --tasks 2 --seed 4 --out " + file);
  const cli_result r = run_warpspan("dbf " + file + " --backend cpu --json");

  ASSERT_EQ(gen.code, 0) << gen.err;
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  ASSERT_EQ(j.at("tasks").size(), 2u);
  EXPECT_EQ(j.at("tasks")[1].at("name").get<std::string>(), "T2");
  EXPECT_EQ(j.at("tasks")[1].at("vertices").get<int>(), 7);
}

TEST(CliDbf, HelpOnBothCommands) {
  for (const char* sub : {"dbf", "generate-tasks"}) {
    const cli_result r = run_warpspan(std::string(sub) + " --help");

    EXPECT_EQ(r.code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub;
  }
}

// ------------------------------------------------------------------------------------ bad input
/// A task with one vertex list and edge list, for the cases below.
std::string one_task(const std::string& vertices, const std::string& edges, int period = 100) {
  return R"({"tasks": [{"name": "bad", "period": )" + std::to_string(period) + R"(, "vertices": [)" + vertices +
         R"(], "edges": [)" + edges + "]}]}";
}

std::string vertex(const std::string& id, long wcet, long deadline) {
  return R"({"id": ")" + id + R"(", "wcet": )" + std::to_string(wcet) + R"(, "deadline": )" + std::to_string(deadline) +
         "}";
}

std::string edge(const std::string& from, const std::string& to, long separation) {
  return R"({"from": ")" + from + R"(", "to": ")" + to + R"(", "separation": )" + std::to_string(separation) + "}";
}

/// A chain of 40 vertices with the given wcet each, deadlines and separations 1.
std::string long_chain(long wcet) {
  std::string vertices, edges;
  for (int k = 0; k < 40; ++k) {
    // (one wcet one more than the others: a common factor of them all would shrink the table)
    vertices += (k ? ", " : "") + vertex("c" + std::to_string(k), k == 0 ? wcet + 1 : wcet, 1);
    if (k) edges += (k > 1 ? ", " : "") + edge("c" + std::to_string(k - 1), "c" + std::to_string(k), 1);
  }
  return one_task(vertices, edges);
}

const std::string abc = vertex("a", 2, 5) + ", " + vertex("b", 3, 5) + ", " + vertex("c", 1, 5);

struct bad_file {
  const char* name;
  std::string content;  ///< written to a scratch file unless `missing`
  std::string extra_args;
  const char* must_mention;
  bool missing = false;
};

void PrintTo(const bad_file& c, std::ostream* os) { *os << c.name; }

class CliDbfBadInput : public ::testing::TestWithParam<bad_file> {};

TEST_P(CliDbfBadInput, OneLineOnStderrAndExitCode2) {
  const bad_file& c = GetParam();
  const std::string path = scratch(".json");
  std::filesystem::remove(path);
  if (!c.missing) std::ofstream(path) << c.content;

  const cli_result r = run_warpspan("dbf " + path + " " + (c.extra_args.empty() ? "--backend cpu" : c.extra_args));

  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(c.must_mention), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliDbfBadInput,
    ::testing::Values(
        bad_file{"missing_file", "", "", "cannot open", true}, bad_file{"empty_file", "", "", "empty"},
        bad_file{"malformed_json", R"({"tasks": [{"name": "x", )", "", "malformed JSON"},
        bad_file{"cycle", one_task(abc, edge("a", "b", 5) + ", " + edge("b", "c", 5) + ", " + edge("c", "b", 5)), "",
                 "cycle"},
        bad_file{"two_sources", one_task(abc, edge("a", "c", 5) + ", " + edge("b", "c", 5)), "", "2 sources"},
        bad_file{"unknown_vertex", one_task(abc, edge("a", "b", 5) + ", " + edge("b", "zz", 5)), "", "no vertex 'zz'"},
        bad_file{"zero_wcet", one_task(vertex("a", 0, 5) + ", " + vertex("b", 1, 5), edge("a", "b", 5)), "", "wcet"},
        bad_file{"frame_separation", one_task(vertex("a", 1, 10) + ", " + vertex("b", 1, 5), edge("a", "b", 5)), "",
                 "frame separation"},
        bad_file{"period_too_short", one_task(vertex("a", 1, 5) + ", " + vertex("b", 1, 5), edge("a", "b", 5), 9), "",
                 "period 9 is shorter"},
        bad_file{"bad_backend", one_task(vertex("a", 1, 5), ""), "--backend gpu", "unknown backend 'gpu'"},
        bad_file{"bad_edf_method", one_task(vertex("a", 1, 5), ""), "--edf fast", "unknown EDF method 'fast'"},
        bad_file{"at_not_integers", one_task(vertex("a", 1, 5), ""), "--at 10,x", "--at: 'x'"},
        bad_file{"demand_beyond_columns", long_chain(1'000'000'000), "", "task 'bad'"},
        bad_file{"table_too_large", long_chain(20'000'000), "", "MiB"},
        bad_file{"table_over_the_mib_limit", long_chain(1000), "--backend cpu --max-table-mib 1", "would need"},
        bad_file{"period_beyond_double",
                 R"({"tasks": [{"period": 1e400, "vertices": [{"id": "a", "wcet": 1, "deadline": 1}]}]})", "",
                 "\"period\""},
        bad_file{
            "period_beyond_64_bits",
            R"({"tasks": [{"period": 99999999999999999999999, "vertices": [{"id": "a", "wcet": 1, "deadline": 1}]}]})",
            "", "\"period\""},
        bad_file{"negative_wcet", one_task(vertex("a", -3, 5), ""), "", "\"wcet\""},
        bad_file{"fraction_deadline",
                 R"({"tasks": [{"period": 9, "vertices": [{"id": "a", "wcet": 1, "deadline": 2.5}]}]})", "",
                 "\"deadline\""},
        bad_file{"boolean_separation", one_task(abc, R"({"from": "a", "to": "b", "separation": true})"), "",
                 "\"separation\""},
        bad_file{"separation_beyond_double", one_task(abc, R"({"from": "a", "to": "b", "separation": -1e999})"), "",
                 "\"separation\""}),
    [](const ::testing::TestParamInfo<bad_file>& info) { return std::string(info.param.name); });

TEST(CliDbf, FileOrBatchIsRequiredButNotBoth) {
  const std::string fig2 = test::task_file("fig2_example.json");

  const cli_result neither = run_warpspan("dbf --backend cpu");
  const cli_result both = run_warpspan("dbf " + fig2 + " --batch " + fig2);
  const cli_result no_dir = run_warpspan("dbf --batch /nonexistent/sets");

  for (const cli_result* r : {&neither, &both, &no_dir}) {
    EXPECT_EQ(r->code, 2) << r->err;
    EXPECT_EQ(count_lines(r->err), 1) << r->err;
  }
  EXPECT_NE(no_dir.err.find("/nonexistent/sets"), std::string::npos) << no_dir.err;
}

TEST(CliGenerateTasks, BadOptionsExitWithCode2) {
  for (const char* args :
       {"--vertices 1", "--tasks 0", "--max-wcet 0", "--edge-probability 2", "--utilization 0", "--sets 3 --out x.json",
        "--sets -1", "--sets 0", "--sets 1000001", "--vertices -3", "--tasks -1", "--max-wcet -5", "--seed -1"}) {
    const cli_result r = run_warpspan(std::string("generate-tasks ") + args);

    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
    EXPECT_TRUE(r.out.empty()) << args;
  }
}

TEST(CliDbf, NegativeOrHugeOptionsExitWithCode2) {
  const std::string fig2 = test::task_file("fig2_example.json");
  for (const char* args :
       {"--threads -1", "--threads 100000", "--block -1", "--max-table-mib -1", "--max-table-mib 0"}) {
    const cli_result r = run_warpspan("dbf " + fig2 + " --backend cpu-parallel " + args);

    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
  }
}

TEST(CliGenerateTasks, JsonLinesAreTheSameToAFileAndToStdout) {
  const std::string jsonl = scratch(".jsonl");
  const std::string args = "generate-tasks --vertices 6 --tasks 2 --sets 7 --max-wcet 30 --seed 11";

  const cli_result out = run_warpspan(args);
  const cli_result file = run_warpspan(args + " --out " + jsonl);

  ASSERT_EQ(out.code, 0) << out.err;
  ASSERT_EQ(file.code, 0) << file.err;
  EXPECT_EQ(count_lines(out.out), 7);
  EXPECT_EQ(read_text(jsonl), out.out);
}

TEST(CliDbf, FilesThatAreNotTaskSetsAreRefused) {
  const std::string dir = scratch("_dir");
  std::filesystem::create_directories(dir);
  const std::string zero_jsonl = scratch("_zero.jsonl");
  std::filesystem::remove(zero_jsonl);
  std::filesystem::create_symlink("/dev/zero", zero_jsonl);

  struct bad {
    std::string args, mention;
  };
  for (const bad& c :
       {bad{"dbf /dev/zero", "larger than"}, bad{"dbf " + dir, "is a directory"}, bad{"dbf ''", "empty"},
        bad{"dbf --batch ''", "empty"}, bad{"dbf --batch /dev/zero", "larger than"},
        bad{"dbf --batch " + zero_jsonl, "longer than"}, bad{"dbf /dev/zero --sweep wcet:1:2:3", "larger than"}}) {
    const cli_result r = run_warpspan(c.args + " --backend cpu");

    EXPECT_EQ(r.code, 2) << c.args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << c.args << ": " << r.err;
    EXPECT_NE(r.err.find(c.mention), std::string::npos) << c.args << ": " << r.err;
  }
}

}  // namespace
}  // namespace warpspan
