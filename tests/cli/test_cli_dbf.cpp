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

std::string task_file(const std::string& name) { return test::source_path("data/tasks/" + name); }

std::string read_text(const std::string& path) {
  std::ifstream in(path);
  return {std::istreambuf_iterator<char>(in), {}};
}

/// The JSON of a run without what depends on the machine.
json without_timing(const std::string& out) {
  json j = json::parse(out);
  j.erase("elapsed_s");
  j.erase("backend");
  j.erase("points");
  return j;
}

TEST(CliDbf, JsonContractOfFig2Example) {
  const cli_result r = run_warpspan("dbf " + task_file("fig2_example.json") + " --at 10,50,100 --backend cpu --json");

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
  const cli_result qpa = run_warpspan("dbf " + task_file("overloaded.json") + " --backend cpu --edf qpa --json");
  const cli_result scan = run_warpspan("dbf " + task_file("overloaded.json") + " --backend cpu --edf scan --json");

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
    const std::string args = "dbf " + task_file(file) + " --at 1,7,14,50,99,240,1000 --json --backend ";

    const cli_result cpu = run_warpspan(args + "cpu");
    const cli_result parallel = run_warpspan(args + "cpu-parallel --threads 3");

    ASSERT_EQ(cpu.code, 0) << cpu.err;
    ASSERT_EQ(parallel.code, 0) << parallel.err;
    EXPECT_EQ(json::parse(parallel.out).at("backend").get<std::string>(), "cpu-parallel");
    EXPECT_EQ(without_timing(cpu.out), without_timing(parallel.out)) << file;
  }
}

TEST(CliDbf, UtilisationOfOneIsNotSchedulableWithoutTmax) {
  const std::string path = scratch(".json");
  std::ofstream(path) << R"({"tasks": [{"name": "full", "period": 10, "vertices": [{"id": "a", "wcet": 10, "deadline": 10}]}]})";

  const cli_result j = run_warpspan("dbf " + path + " --backend cpu --json");
  const cli_result text = run_warpspan("dbf " + path + " --backend cpu");

  ASSERT_EQ(j.code, 0) << j.err;
  const json out = json::parse(j.out);
  EXPECT_FALSE(out.at("schedulable").get<bool>());
  EXPECT_TRUE(out.at("t_max").is_null());
  EXPECT_TRUE(out.at("first_violation").is_null());
  ASSERT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("utilisation >= 1"), std::string::npos) << text.out;
}

TEST(CliDbf, SvgMarksTheFirstViolation) {
  const std::string svg = scratch(".svg");

  const cli_result r = run_warpspan("dbf " + task_file("overloaded.json") + " --backend cpu --svg " + svg);

  ASSERT_EQ(r.code, 0) << r.err;
  const std::string text = read_text(svg);
  EXPECT_EQ(text.rfind("<svg", 0), 0u);
  EXPECT_NE(text.find("first violation: t = 14, demand 18"), std::string::npos);
  EXPECT_NE(text.find("</svg>"), std::string::npos);
}

TEST(CliDbf, BatchOnAGeneratedDirectoryGivesOneLinePerSet) {
  const std::string dir = scratch("_sets");
  std::filesystem::remove_all(dir);
  const cli_result gen = run_warpspan("generate-tasks --vertices 6 --tasks 2 --sets 5 --max-wcet 50 --seed 3 --out " + dir);
  ASSERT_EQ(gen.code, 0) << gen.err;

  const cli_result j = run_warpspan("dbf --batch " + dir + " --backend cpu --json");
  const cli_result text = run_warpspan("dbf --batch " + dir + " --backend cpu");

  ASSERT_EQ(j.code, 0) << j.err;
  ASSERT_EQ(count_lines(j.out), 5) << j.out;
  std::istringstream lines(j.out);
  std::string line;
  for (int k = 1; std::getline(lines, line); ++k) {
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
  ASSERT_EQ(run_warpspan("generate-tasks --vertices 5 --tasks 2 --sets 3 --max-wcet 40 --seed 9 --out " + jsonl).code, 0);

  const cli_result batch = run_warpspan("dbf --batch " + jsonl + " --backend cpu --json");

  ASSERT_EQ(batch.code, 0) << batch.err;
  ASSERT_EQ(count_lines(batch.out), 3) << batch.out;
  std::istringstream lines(batch.out), sets(read_text(jsonl));
  std::string line, set_text;
  for (int k = 1; std::getline(lines, line) && std::getline(sets, set_text); ++k) {
    const std::string one = scratch("_one.json");
    std::ofstream(one) << set_text;
    const json single = json::parse(run_warpspan("dbf " + one + " --backend cpu --json").out);
    const json b = json::parse(line);
    EXPECT_EQ(b.at("set").get<std::string>(), std::filesystem::path(jsonl).filename().string() + ":" + std::to_string(k));
    EXPECT_EQ(b.at("schedulable"), single.at("schedulable"));
    EXPECT_EQ(b.at("t_max"), single.at("t_max"));
    EXPECT_EQ(b.at("first_violation"), single.at("first_violation"));
  }
}

TEST(CliGenerateTasks, SameSeedIsByteIdenticalAndAnotherSeedDiffers) {
  const std::string args = "generate-tasks --vertices 8 --tasks 3 --sets 4 --max-wcet 100 --edge-probability 0.3 "
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
  return R"({"id": ")" + id + R"(", "wcet": )" + std::to_string(wcet) + R"(, "deadline": )" + std::to_string(deadline) + "}";
}

std::string edge(const std::string& from, const std::string& to, long separation) {
  return R"({"from": ")" + from + R"(", "to": ")" + to + R"(", "separation": )" + std::to_string(separation) + "}";
}

/// A chain of 40 vertices with the given wcet each, deadlines and separations 1.
std::string long_chain(long wcet) {
  std::string vertices, edges;
  for (int k = 0; k < 40; ++k) {
    vertices += (k ? ", " : "") + vertex("c" + std::to_string(k), wcet, 1);
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
        bad_file{"missing_file", "", "", "cannot open", true},
        bad_file{"empty_file", "", "", "empty"},
        bad_file{"malformed_json", R"({"tasks": [{"name": "x", )", "", "malformed JSON"},
        bad_file{"cycle", one_task(abc, edge("a", "b", 5) + ", " + edge("b", "c", 5) + ", " + edge("c", "b", 5)), "", "cycle"},
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
        bad_file{"table_too_large", long_chain(20'000'000), "", "MiB"}),
    [](const ::testing::TestParamInfo<bad_file>& info) { return std::string(info.param.name); });

TEST(CliDbf, FileOrBatchIsRequiredButNotBoth) {
  const std::string fig2 = task_file("fig2_example.json");

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
  for (const char* args : {"--vertices 1", "--tasks 0", "--max-wcet 0", "--edge-probability 2", "--utilization 0",
                           "--sets 3 --out x.json"}) {
    const cli_result r = run_warpspan(std::string("generate-tasks ") + args);

    EXPECT_EQ(r.code, 2) << args << ": " << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << ": " << r.err;
  }
}

}  // namespace
}  // namespace warpspan
