// What a real-time engineer brings and expects (issue 14): sporadic tasks in short JSON and CSV, the
// NP tool's job sets, kernel strings from files, strict keys, batches and sweeps that keep going, the
// critical scaling factor, generators that reach their utilisation and leave no stale files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli_util.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;
using test::cli_result;
using test::count_lines;
using test::run_warpspan;
using test::scratch;
using test::write;

/// dbf of a sporadic task by the textbook formula (Baruah, Mok and Rosier 1990).
std::uint64_t sporadic_dbf(std::uint64_t c, std::uint64_t d, std::uint64_t p, std::uint64_t t) {
  return t < d ? 0 : ((t - d) / p + 1) * c;
}

TEST(CliFormats, SporadicCsvMatchesTheTextbookDemandBound) {
  const std::string csv =
      test::source_path("data/tasks/sporadic.csv");  // audio 2/8/10, video 10/30/40, control 5/20/20
  const cli_result r = run_warpspan("dbf " + csv + " --backend cpu --json --at 100,7,8,29,30,40,59,60,1000");
  ASSERT_EQ(r.code, 0) << r.err;
  const nlohmann::ordered_json j = nlohmann::ordered_json::parse(r.out);  // keeps the keys' order
  std::vector<std::string> keys;
  for (const auto& [k, v] : j.at("total_dbf_at").items()) {
    keys.push_back(k);
    const std::uint64_t t = std::stoull(k);
    EXPECT_EQ(v.get<std::uint64_t>(),
              sporadic_dbf(2, 8, 10, t) + sporadic_dbf(10, 30, 40, t) + sporadic_dbf(5, 20, 20, t))
        << "t = " << t;
  }
  // Numeric keys in numeric order.
  EXPECT_EQ(keys, (std::vector<std::string>{"7", "8", "29", "30", "40", "59", "60", "100", "1000"}));
  EXPECT_TRUE(j.at("schedulable").get<bool>());
}

TEST(CliFormats, ShortJsonFormEqualsTheCsv) {
  const std::string js = write(".json",
                               R"({"tasks": [{"name": "audio", "wcet": 2, "deadline": 8, "period": 10},
                                             {"name": "video", "wcet": 10, "deadline": 30, "period": 40},
                                             {"name": "control", "wcet": 5, "period": 20, "deadline": 20}]})");
  const cli_result a = run_warpspan("dbf " + js + " --backend cpu --json --at 10,60,333");
  const cli_result b =
      run_warpspan("dbf " + test::source_path("data/tasks/sporadic.csv") + " --backend cpu --json --at 10,60,333");
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(json::parse(a.out).at("total_dbf_at"), json::parse(b.out).at("total_dbf_at"));
  // The deadline defaults to the period; a deadline beyond it is outside the model.
  const cli_result implicit =
      run_warpspan("dbf " + write(".json", R"({"tasks": [{"wcet": 3, "period": 7}]})") + " --json --at 7");
  ASSERT_EQ(implicit.code, 0) << implicit.err;
  EXPECT_EQ(json::parse(implicit.out).at("total_dbf_at").at("7"), 3);
  const cli_result arbitrary =
      run_warpspan("dbf " + write(".json", R"({"tasks": [{"wcet": 3, "deadline": 9, "period": 7}]})"));
  EXPECT_EQ(arbitrary.code, 2);
  EXPECT_EQ(count_lines(arbitrary.err), 1);
  EXPECT_NE(arbitrary.err.find("deadline <= period"), std::string::npos) << arbitrary.err;
}

TEST(CliFormats, UnknownKeysAreRefusedByName) {
  for (const std::string text :
       {R"({"tasks": [{"wcet": 3, "period": 7, "deadine": 5}]})",
        R"({"tasks": [{"period": 9, "vertices": [{"id": "a", "wcet": 1, "deadline": 2, "prio": 1}]}]})",
        R"({"task": [], "tasks": [{"wcet": 1, "period": 2}]})"}) {
    const cli_result r = run_warpspan("dbf " + write(".json", text));
    EXPECT_EQ(r.code, 2) << text;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find("unknown key"), std::string::npos) << r.err;
  }
}

TEST(CliFormats, NpToolJobSetsImportWhenPeriodic) {
  const std::string periodic =
      write(".csv",
            "Task ID, Job ID, Arrival min, Arrival max, Cost min, Cost max, Deadline, Priority\n"
            "1, 1, 0, 0, 1, 2, 10, 1\n1, 2, 10, 10, 1, 3, 20, 1\n1, 3, 20, 20, 1, 2, 30, 1\n"
            "2, 1, 0, 0, 3, 4, 15, 2\n2, 2, 20, 20, 3, 4, 35, 2\n");
  const cli_result r = run_warpspan("dbf " + periodic + " --backend cpu --json --at 10,15,20,35,100");
  ASSERT_EQ(r.code, 0) << r.err;
  const json at = json::parse(r.out).at("total_dbf_at");
  // T1: cost 3 (largest Cost max), deadline 10, period 10; T2: cost 4, deadline 15, period 20.
  for (std::uint64_t t : {10, 15, 20, 35, 100})
    EXPECT_EQ(at.at(std::to_string(t)).get<std::uint64_t>(), sporadic_dbf(3, 10, 10, t) + sporadic_dbf(4, 15, 20, t));
  const cli_result jitter =
      run_warpspan("dbf " + write(".csv",
                                  "Task ID, Job ID, Arrival min, Arrival max, Cost min, Cost max, Deadline, Priority\n"
                                  "1, 1, 0, 2, 1, 2, 10, 1\n1, 2, 10, 10, 1, 2, 20, 1\n"));
  EXPECT_EQ(jitter.code, 2);
  EXPECT_NE(jitter.err.find(":2: release jitter"), std::string::npos) << jitter.err;
}

TEST(CliFormats, KernelFromAFileEqualsTheString) {
  const std::string args =
      " --warps 5 --sigma L=1,C=4 --iterations 300 --chains 4 --seed 3 --exact-seconds 0 --json -q";
  const cli_result a = run_warpspan("estimate --kernel @" + test::source_path("data/kernels/voronoi.txt") + args);
  const cli_result b = run_warpspan("estimate --kernel 5L9C2L9C" + args);
  ASSERT_EQ(a.code, 0) << a.err;
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(json::parse(a.out).at("best_string"), json::parse(b.out).at("best_string"));
  const cli_result missing = run_warpspan("estimate --kernel @" + scratch(".nope") + args);
  EXPECT_EQ(missing.code, 2);
  EXPECT_EQ(count_lines(missing.err), 1);
}

TEST(CliFormats, WorstStringOnlyWhenAskedForInTables) {
  const std::string args =
      "estimate -k 5L9C2L9C --warps 3 --sigma L=1,C=4 --iterations 100 --exact-seconds 0 -q --no-table";
  const cli_result plain = run_warpspan(args);
  const cli_result shown = run_warpspan(args + " --show-string");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_NE(plain.out.find("--show-string"), std::string::npos) << plain.out;
  EXPECT_NE(shown.out.find("): 1 "), std::string::npos) << shown.out;
}

TEST(CliFormats, BatchKeepsGoingPastBadSets) {
  const std::string dir = scratch("_dir");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(test::source_path("data/tasks/fig2_example.json"), dir + "/a.json");
  std::ofstream(dir + "/b.json") << R"({"tasks": [{"wcet": 3}]})";
  std::filesystem::copy_file(test::source_path("data/tasks/overloaded.json"), dir + "/c.json");
  const cli_result stop = run_warpspan("dbf --batch " + dir + " --backend cpu");
  EXPECT_EQ(stop.code, 2);
  const cli_result going = run_warpspan("dbf --batch " + dir + " --backend cpu --keep-going");
  EXPECT_EQ(going.code, 2) << going.out;
  const auto invalid = going.out.find("\ninvalid ");  // the verdict column first, then the message naming the set
  ASSERT_NE(invalid, std::string::npos) << going.out;
  EXPECT_NE(going.out.substr(invalid, going.out.find('\n', invalid + 1) - invalid).find("b.json"), std::string::npos)
      << going.out;
  EXPECT_NE(going.out.find("c.json"), std::string::npos) << going.out;  // the run went on
  EXPECT_NE(going.out.find("1 of 3 sets schedulable (1 not schedulable, 1 invalid)"), std::string::npos) << going.out;
  const cli_result lines = run_warpspan("dbf --batch " + dir + " --backend cpu --keep-going --json");
  EXPECT_EQ(count_lines(lines.out), 4);  // three sets and the end record
  EXPECT_NE(lines.out.find("\"error\""), std::string::npos);
  EXPECT_NE(lines.out.find(R"({"end":true,"sets":3,"schedulable":1,"not_schedulable":1,"invalid":1,"elapsed_s":)"),
            std::string::npos)
      << lines.out;
}

TEST(CliFormats, SweepFindsTheCriticalFactorByBisection) {
  // One sporadic task, wcet 2, deadline 10, period 10: schedulable while round(2 f) <= 10, so the
  // verdict changes at f = 5.25 (round(10.5) = 11).
  const std::string one = write(".json", R"({"tasks": [{"name": "a", "wcet": 2, "deadline": 10, "period": 10}]})");
  const std::string svg = scratch(".svg");
  const cli_result r = run_warpspan("dbf " + one + " --backend cpu --json --sweep wcet:1:8:8 --svg " + svg);
  ASSERT_EQ(r.code, 0) << r.err;
  const json summary = json::parse(r.out.substr(r.out.rfind("{\"summary\""))).at("summary");
  EXPECT_NEAR(summary.at("critical_factor").get<double>(), 5.25, 1e-5) << summary;
  EXPECT_EQ(summary.at("transitions"), 1);
  std::ifstream drawn(svg);
  const std::string text((std::istreambuf_iterator<char>(drawn)), std::istreambuf_iterator<char>());
  EXPECT_NE(text.find("critical factor 5.25"), std::string::npos);
  EXPECT_NE(text.find("wcet scaling factor"), std::string::npos);
}

TEST(CliFormats, GeneratorReachesItsUtilisationAndReplacesItsOwnFiles) {
  const std::string dir = scratch("_gen");
  const cli_result five = run_warpspan("generate-tasks --sets 5 --tasks 3 --utilization 0.8 --out " + dir);
  ASSERT_EQ(five.code, 0) << five.err;
  EXPECT_NE(five.err.find("mean 0.8000"), std::string::npos) << five.err;
  const cli_result two = run_warpspan("generate-tasks --sets 2 --tasks 3 --utilization 0.5 -q --out " + dir);
  ASSERT_EQ(two.code, 0) << two.err;
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir), std::filesystem::directory_iterator()), 2);
  const cli_result batch = run_warpspan("dbf --batch " + dir + " --backend cpu --json");
  ASSERT_EQ(batch.code, 0) << batch.err;
  for (const std::string line : {batch.out.substr(0, batch.out.find('\n'))})
    EXPECT_NEAR(json::parse(line).at("utilization").get<double>(), 0.5, 1e-3);
  std::ofstream(dir + "/mine.json") << "{}";
  EXPECT_EQ(run_warpspan("generate-tasks --sets 2 -q --out " + dir).code, 2);  // not mixed into
  const std::string txt = scratch(".txt");
  ASSERT_EQ(run_warpspan("generate-tasks --sets 3 -q --out " + txt).code, 0);
  EXPECT_TRUE(std::filesystem::is_regular_file(txt));
  std::ifstream in(txt);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(count_lines(text), 3);
}

std::string read_all(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(CliFormats, PlotsCarryWhatAReaderNeeds) {
  // dbf: labelled axes, each task's own curve, t_max.
  const std::string dbf = scratch(".svg");
  ASSERT_EQ(
      run_warpspan("dbf " + test::source_path("data/tasks/two_tasks_schedulable.json") + " --backend cpu --svg " + dbf)
          .code,
      0);
  const std::string d = read_all(dbf);
  EXPECT_NE(d.find("demand (time units)"), std::string::npos);
  EXPECT_NE(d.find("interval length t (time units)"), std::string::npos);
  EXPECT_NE(d.find("t_max = 134"), std::string::npos);
  EXPECT_NE(d.find(">dbf of "), std::string::npos);
  // estimate: the proven interval on the envelope; build --svg draws the schedule.
  const std::string dir = scratch("_svg");
  ASSERT_EQ(
      run_warpspan("estimate -k 5L9C2L9C --warps 4 --sigma L=1,C=4 --iterations 200 -q --no-table --svg-dir " + dir)
          .code,
      0);
  const std::string e = read_all(dir + "/envelope.svg");
  EXPECT_NE(e.find("proven: worst case in [45, 45] (exact)"), std::string::npos) << e.substr(0, 2000);
  EXPECT_NE(e.find("makespan (cycles)"), std::string::npos);
  const std::string b = scratch(".svg");
  const cli_result built = run_warpspan("build -k 5L9C2L9C --warps 64 --sigma L=1,C=4 --svg " + b);
  ASSERT_EQ(built.code, 0) << built.err;
  const std::string s = read_all(b);
  EXPECT_NE(s.find(">warp 64</text>"), std::string::npos);  // 64 warps: every row labelled
  EXPECT_NE(s.find(">warp 63</text>"), std::string::npos);
}

}  // namespace
}  // namespace warpspan
