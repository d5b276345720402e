// Options and layouts (issue 41): options a command would ignore or does not know, output
// that lines up or reads, "wrote" only after writing, and the end record of a dbf --batch --json
// stream (also after merge).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;
using test::cli_result;
using test::count_lines;
using test::expect_refused;
using test::run_warpspan;
using test::scratch;
using test::write;

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

TEST(CliIssue41b, InputsListRefusesWhatItWouldIgnore) {
  expect_refused(run_warpspan("inputs --list --json"), "--list excludes --json");
  expect_refused(run_warpspan("inputs --list --compare"), "--list excludes --compare");
  expect_refused(run_warpspan("inputs --list --kernel bfs"), "--kernel excludes --list");
  const cli_result list = run_warpspan("inputs --list");
  EXPECT_EQ(list.code, 0) << list.err;
  EXPECT_EQ(list.out.rfind("artificial", 0), 0u) << list.out;
}

TEST(CliIssue41b, AnUnknownOptionIsSaidBeforeAMissingOne) {
  // --warp (for --warps) was reported as "--warps is required".
  expect_refused(run_warpspan("estimate --kernel LC --warp 4 --sigma L=1,C=1"),
                 "unknown option '--warp' for warpspan estimate (see warpspan estimate --help)");
  expect_refused(run_warpspan("estimate --kernel LC --warp=4 --sigma L=1,C=1"), "unknown option '--warp'");
  expect_refused(run_warpspan("bound --kernel LC --warps 4 --sigma L=1,C=1 extra"), "unexpected argument 'extra'");
  expect_refused(run_warpspan("estimate --kernel LC --sigma L=1,C=1"), "--warps is required");  // still said alone
}

TEST(CliIssue41b, WcetAcceptsQuietAsEveryAnalysisDoes) {
  const std::string cfg = test::source_path("data/wcet/fig4.cfg.json"),
                    trace = test::source_path("data/wcet/fig4.trace");
  const cli_result plain = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --json");
  const cli_result quiet = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --json -q");
  ASSERT_EQ(plain.code, 0) << plain.err;
  ASSERT_EQ(quiet.code, 0) << quiet.err;
  EXPECT_EQ(json::parse(quiet.out).at("z_hybrid"), 38);  // 002's Fig. 4 (data/wcet/README.md)
  EXPECT_EQ(json::parse(quiet.out).at("z_hybrid"), json::parse(plain.out).at("z_hybrid"));
}

TEST(CliIssue41b, BatchTextColumnsStayInPlace) {
  // A short name, then a long one, then an invalid set: the columns U, t_max and first violation
  // begin at the same place on every line (they shifted by the longest name so far).
  const std::string dir = scratch("_cols");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(test::task_file("fig2_example.json"), dir + "/a.json");
  std::filesystem::copy_file(test::task_file("overloaded.json"), dir + "/b_with_a_much_longer_name_than_a.json");
  std::ofstream(dir + "/c.json") << R"({"tasks": [{"wcet": 3}]})";

  const cli_result r = run_warpspan("dbf --batch " + dir + " --backend cpu --keep-going");

  EXPECT_EQ(r.code, 2) << r.err;
  const std::vector<std::string> lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 4u) << r.out;
  EXPECT_EQ(lines[0].rfind("schedulable ", 0), 0u) << lines[0];  // fig2_example: schedulable
  EXPECT_EQ(lines[1].rfind("NOT schedulable ", 0), 0u) << lines[1];
  EXPECT_EQ(lines[2].rfind("invalid ", 0), 0u) << lines[2];
  for (const char* column : {" U ", "  t_max ", "  first violation "})
    EXPECT_EQ(lines[0].find(column), lines[1].find(column)) << column << "\n" << r.out;
  // the names last, at one column; the invalid set's message where the names begin
  const std::size_t names = lines[0].find("  a.json") + 2;
  EXPECT_EQ(lines[1].find("b_with_a_much_longer_name_than_a.json"), names) << r.out;
  EXPECT_EQ(lines[2].find_first_not_of(' ', std::string("invalid").size()), names) << r.out;
  EXPECT_NE(lines[2].find("c.json"), std::string::npos) << r.out;
  // overloaded.json: demand 18 > 14 at t = 14 (data/tasks/README.md), t_max 88 (docs/schedulability.md)
  EXPECT_NE(lines[1].find("first violation                   14"), std::string::npos) << lines[1];
}

TEST(CliIssue41b, DbfAtHugePointsIsGroupedInColumns) {
  // A run of 18 digits ran into the next column. dbf is periodic (dbf(t + k P) = dbf(t) + k E past
  // one period), which checks the value at t = 999,999,999,999,999,999 from one at a small r.
  const std::uint64_t t = 999999999999999999ull;
  const json one =
      json::parse(run_warpspan("dbf " + test::task_file("fig2_example.json") + " --backend cpu --json").out);
  ASSERT_EQ(one.at("tasks").size(), 1u);
  const auto P = one.at("tasks")[0].at("period").get<std::uint64_t>(),
             E = one.at("tasks")[0].at("E").get<std::uint64_t>();
  const std::uint64_t r = t % P + P;
  const std::string at = " --at 10," + std::to_string(r) + "," + std::to_string(t);
  const cli_result text = run_warpspan("dbf " + test::task_file("fig2_example.json") + " --backend cpu" + at);
  const cli_result j = run_warpspan("dbf " + test::task_file("fig2_example.json") + " --backend cpu --json" + at);
  ASSERT_EQ(text.code, 0) << text.err;
  ASSERT_EQ(j.code, 0) << j.err;
  const json parsed = json::parse(j.out);
  const json& total = parsed.at("total_dbf_at");
  const std::uint64_t value = total.at(std::to_string(t)).get<std::uint64_t>();
  EXPECT_EQ(value, total.at(std::to_string(r)).get<std::uint64_t>() + (t - r) / P * E);
  EXPECT_EQ(value, 240000000000000006ull);  // as the table shows it, below
  const std::vector<std::string> lines = lines_of(text.out);
  ASSERT_GE(lines.size(), 3u);
  const std::string& last = lines.back();
  EXPECT_EQ(last.rfind("  999 999 999 999 999 999  ", 0), 0u) << text.out;
  EXPECT_NE(last.find("  240 000 000 000 000 006"), std::string::npos) << text.out;
  EXPECT_EQ(lines[lines.size() - 3].size(), last.size()) << text.out;  // the columns line up
  EXPECT_EQ(lines[lines.size() - 4].size(), last.size()) << text.out;  // with the header too
}

TEST(CliIssue41b, GenerateTasksSaysWroteOnlyAfterWriting) {
  // A file whose parent is a file: the set cannot be written, and nothing says it was.
  const std::string file = write(".blocker", "x");
  const cli_result r =
      run_warpspan("generate-tasks --sets 1 --tasks 2 --vertices 4 --seed 1 -q --out " + file + "/one.json");
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_EQ(r.out.find("wrote"), std::string::npos) << r.out;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

TEST(CliIssue41b, BatchJsonEndsWithAnEndRecordAlsoWhenMerged) {
  // variants.jsonl: 20 sets; the end record's counts are those of the lines before it.
  const std::string args = "dbf --batch " + test::task_file("variants.jsonl") + " --backend cpu -q --json";
  const cli_result whole = run_warpspan(args);
  ASSERT_EQ(whole.code, 0) << whole.err;
  const std::vector<std::string> lines = lines_of(whole.out);
  ASSERT_EQ(lines.size(), 21u) << whole.out;
  // Its times: the run's seconds, and no GPU kernel time on the CPU.
  json end = json::parse(lines.back());
  EXPECT_GE(end.at("elapsed_s").get<double>(), 0.0);
  EXPECT_TRUE(end.at("kernel_s").is_null());
  end.erase("elapsed_s");
  end.erase("kernel_s");
  EXPECT_EQ(end, json::parse(R"({"end": true, "sets": 20, "schedulable": 15, "not_schedulable": 5, "invalid": 0})"));
  std::size_t schedulable = 0;
  for (std::size_t k = 0; k + 1 < lines.size(); ++k) schedulable += json::parse(lines[k]).at("schedulable").get<bool>();
  EXPECT_EQ(schedulable, 15u);

  std::vector<std::string> files;
  for (int i = 0; i < 2; ++i) {
    const cli_result s = run_warpspan(args + " --shard " + std::to_string(i) + "/2");
    ASSERT_EQ(s.code, 0) << s.err;
    EXPECT_EQ(s.out.find("\"end\""), std::string::npos);  // a shard ends with shard_end
    files.push_back(write("_shard" + std::to_string(i), s.out));
  }
  const cli_result merged = run_warpspan("merge " + files[0] + " " + files[1]);
  ASSERT_EQ(merged.code, 0) << merged.err;
  // The same lines, the end record's times apart (merge gives the shards' summed seconds).
  const std::vector<std::string> merged_lines = lines_of(merged.out);
  ASSERT_EQ(merged_lines.size(), lines.size()) << merged.out;
  for (std::size_t k = 0; k + 1 < lines.size(); ++k) EXPECT_EQ(merged_lines[k], lines[k]);
  json merged_end = json::parse(merged_lines.back());
  EXPECT_TRUE(merged_end.at("kernel_s").is_null());
  merged_end.erase("elapsed_s");
  merged_end.erase("kernel_s");
  EXPECT_EQ(merged_end, end);
}

}  // namespace
}  // namespace warpspan
