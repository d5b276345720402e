// What a new user hit (issue 21), command by command: numbers in every option read the same way and
// are refused in the option's own terms, seeds alike everywhere, conflicting options refused, task
// CSVs as spreadsheets write them, a batch that stops at a bad set still printing the sets before it,
// and the inputs search reporting progress and stopping cleanly.
#include <gtest/gtest.h>
#include <signal.h>

#include <cstdlib>
#include <filesystem>
#include <iterator>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "cli/cli_util.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;
using test::cli_result;
using test::count_lines;
using test::expect_refused;
using test::run_warpspan;
using test::run_warpspan_under;
using test::scratch;
using test::write;

/// The refusals here are short: no 300-digit bound quoted back.
constexpr std::size_t input_check_longest = 200;

TEST(CliOptions, SeedsAreCheckedAlikeInEveryCommand) {
  const std::string range = "--seed: must be an integer from 0 to 18446744073709551615";
  const std::string task = test::source_path("data/tasks/fig2_example.json");
  const std::string commands[] = {
      "estimate --kernel LC --warps 2 --sm fermi-2.0 --iterations 10 --exact-seconds 0",
      "inputs --kernel bisect --evaluations 10",
      "wcet-collect reduce_sequential --runs 1 --out " + scratch(".bin") + " --cfg-out " + scratch(".json"),
      "generate-tasks --sets 1",
  };
  for (const std::string& c : commands) {
    for (const char* bad : {"-1", "99999999999999999999999", "0x10", "1e3", "''", "1,5"}) {
      SCOPED_TRACE(c + " --seed " + bad);
      expect_refused(run_warpspan(c + " --seed " + bad), range, input_check_longest);
    }
  }
  // The largest seed is a seed like any other.
  EXPECT_EQ(run_warpspan("generate-tasks --sets 1 --seed 18446744073709551615").code, 0);
}

TEST(CliOptions, RangeErrorsAreShortAndInTheOptionsTerms) {
  expect_refused(run_warpspan("generate-tasks --vertices -1"), "--vertices: must be an integer from 0 to",
                 input_check_longest);
  expect_refused(run_warpspan("generate-tasks --tasks 3.5"), "--tasks: must be an integer", input_check_longest);
  expect_refused(run_warpspan("estimate --kernel LC --warps 2 --ptx-loops 0"),
                 "--ptx-loops: must be an integer from 1 to 1000000, got '0'", input_check_longest);
  expect_refused(run_warpspan("estimate --kernel LC --warps 2 --t0 nan"), "--t0: must be a finite number, got 'nan'",
                 input_check_longest);
  expect_refused(run_warpspan("dbf x.json --block -32"), "--block: must be an integer from 0 to", input_check_longest);
  // Octal and hex never sneak in: 010 is not 8.
  expect_refused(run_warpspan("estimate --kernel LC --warps 010x --iterations 10"), "--warps: must be an integer",
                 input_check_longest);
  expect_refused(run_warpspan("estimate --kernel LC --warps 0x8 --iterations 10"), "--warps: must be an integer",
                 input_check_longest);
  const cli_result ten = run_warpspan("bound --kernel LC --warps 010 --sigma L=1,C=1 --json");
  ASSERT_EQ(ten.code, 0) << ten.err;
  EXPECT_EQ(json::parse(ten.out).at("problem").at("warps").get<int>(), 10);
}

TEST(CliOptions, InputsRefusesConflictingOptions) {
  const cli_result both = run_warpspan("inputs --kernel bisect --compare --method random --evaluations 10");
  EXPECT_EQ(both.code, 2);
  EXPECT_NE(both.err.find("--compare"), std::string::npos) << both.err;
  EXPECT_NE(both.err.find("--method"), std::string::npos) << both.err;
  const cli_result eval = run_warpspan("inputs --kernel bisect --eval-input x.txt --evaluations 10");
  EXPECT_EQ(eval.code, 2);
  EXPECT_NE(eval.err.find("--eval-input"), std::string::npos) << eval.err;
  EXPECT_NE(eval.err.find("--evaluations"), std::string::npos) << eval.err;
}

TEST(CliInputs, CtrlCPrintsTheBestSoFarAndExits130) {
  // A search far longer than the 2 s before SIGINT; the JSON says interrupted, with a best.
  const cli_result r = run_warpspan_under("timeout --preserve-status -s INT 2",
                                          "inputs --kernel artificial --threads 4096 --evaluations 100000000 "
                                          "--method random --json");
  ASSERT_EQ(r.code, 130) << r.err;
  const json j = json::parse(r.out);
  EXPECT_TRUE(j.at("interrupted").get<bool>());
  EXPECT_GT(j.at("evaluations").get<std::uint64_t>(), 0u);
  EXPECT_LT(j.at("evaluations").get<std::uint64_t>(), 100000000u);
  EXPECT_GT(j.at("best_fitness").get<double>(), 0.0);
}

/// Runs `warpspan ARGS` with its stderr on a pseudo-terminal (script(1), util-linux): what a user
/// at a terminal sees, progress lines included ('\r' between updates).
std::string on_a_terminal(const std::string& args) {
  const std::string out = scratch(".tty");
  const std::string cmd =
      "script -qec \"" + std::string(WARPSPAN_BINARY) + " " + args + " >/dev/null\" " + out + " >/dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0) return {};
  std::ifstream in(out, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

TEST(CliInputs, ProgressOnATerminalHasATotalAndTheBestSoFar) {
  const std::string tty = on_a_terminal("inputs --kernel artificial --threads 4096 --method random --evaluations 3000");
  EXPECT_NE(tty.find("[evaluations "), std::string::npos) << tty;
  EXPECT_NE(tty.find("/3000, "), std::string::npos) << tty;
  EXPECT_NE(tty.find("left, random best "), std::string::npos) << tty;
  // piped, never
  EXPECT_EQ(run_warpspan("inputs --kernel artificial --threads 64 --method random --evaluations 200").err, "");
}

TEST(CliDbfFiles, BatchProgressOnATerminalHasATotal) {
  const std::string good =
      R"({"tasks": [{"name": "a", "period": 10, "vertices": [{"id": "v", "wcet": 1, "deadline": 5}], "edges": []}]})";
  std::string text;
  for (int k = 0; k < 40; ++k) text += good + "\n\n";  // blank lines are not sets
  const std::string tty = on_a_terminal("dbf --batch " + write(".jsonl", text) + " --backend cpu");
  EXPECT_NE(tty.find("[sets done "), std::string::npos) << tty;
  EXPECT_NE(tty.find("/40, "), std::string::npos) << tty;
}

TEST(CliInputs, IdleSmsCostNothing) {
  // 1,024 threads of bfs: 100,000 SMs give the answer of 1,024 (at least one thread a block: the
  // SMs past the blocks get none).
  const std::string args = "inputs --kernel bfs --threads 1024 --evaluations 20 --population 10 --method random --json";
  const cli_result one = run_warpspan(args + " --sms 1024");
  const cli_result many = run_warpspan_under("timeout 60", args + " --sms 100000");
  ASSERT_EQ(one.code, 0) << one.err;
  ASSERT_EQ(many.code, 0) << many.err;
  EXPECT_EQ(json::parse(one.out).at("best_fitness"), json::parse(many.out).at("best_fitness"));
}

TEST(CliDbfFiles, CsvWithByteOrderMarkAndCdtHeader) {
  const std::string plain = write(".csv", "name,wcet,deadline,period\na,1,4,5\nb,2,9,10\n");
  const std::string bom = write("_bom.csv", "\xEF\xBB\xBFname,wcet,deadline,period\na,1,4,5\nb,2,9,10\n");
  const std::string cdt = write("_cdt.csv", "task,C,D,T\na,1,4,5\nb,2,9,10\n");
  const std::string shuffled = write("_tcd.csv", "T,C,task,D\n5,1,a,4\n10,2,b,9\n");
  const std::string implicit = write("_ct.csv", "\xEF\xBB\xBFtask,C,T\na,1,4\nb,2,9\n");  // deadline = period
  const cli_result want = run_warpspan("dbf " + plain + " --backend cpu --json");
  ASSERT_EQ(want.code, 0) << want.err;
  const auto verdict = [](const std::string& out) {
    json j = json::parse(out);
    return json{j.at("schedulable"), j.at("utilization"), j.at("t_max"), j.at("tasks").size()};
  };
  for (const std::string& f : {bom, cdt, shuffled}) {
    const cli_result r = run_warpspan("dbf " + f + " --backend cpu --json");
    ASSERT_EQ(r.code, 0) << f << ": " << r.err;
    EXPECT_EQ(verdict(r.out), verdict(want.out)) << f;
  }
  const cli_result ct = run_warpspan("dbf " + implicit + " --backend cpu --json");
  ASSERT_EQ(ct.code, 0) << ct.err;
  EXPECT_DOUBLE_EQ(json::parse(ct.out).at("utilization").get<double>(), 1.0 / 4 + 2.0 / 9);
  // An unknown header word is named, with the names that are known.
  const cli_result odd = run_warpspan("dbf " + write("_odd.csv", "task,budget,D,T\na,1,4,5\n") + " --backend cpu");
  expect_refused(odd, "'budget' is not a column name", 400);
  EXPECT_NE(odd.err.find("wcet (or c, e, cost)"), std::string::npos) << odd.err;
}

TEST(CliDbfFiles, SporadicDeadlineBeyondPeriodSaysSo) {
  // data/tasks/sporadic.csv scaled: video's period 40 x 0.5 = 20 under its deadline 30.
  const cli_result r = run_warpspan("dbf " + test::source_path("data/tasks/sporadic.csv") +
                                    " --sweep period:0.5:0.5:1:video --backend cpu --json");
  EXPECT_NE(r.out.find("deadline 30 > period 20"), std::string::npos) << r.out << r.err;
  EXPECT_EQ(r.out.find("source-to-sink"), std::string::npos) << r.out;
}

TEST(CliDbfFiles, BatchStoppedByABadSetPrintsTheSetsBeforeIt) {
  const std::string good =
      R"({"tasks": [{"name": "a", "period": 10, "vertices": [{"id": "v", "wcet": 1, "deadline": 5}], "edges": []}]})";
  const std::string lines = write(".jsonl", good + "\n" + good + "\n{\"tasks\": 3}\n" + good + "\n");
  for (const char* fmt : {"", " --json"}) {
    const cli_result r = run_warpspan("dbf --batch " + lines + " --backend cpu -q" + fmt);
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << r.err;
    EXPECT_NE(r.err.find(":3"), std::string::npos) << r.err;  // names the third set's line
    EXPECT_EQ(count_lines(r.out), 2) << r.out;                // the two sets before it
  }
}

TEST(CliDbfFiles, OneVertexTasksNeedNoDemandTable) {
  // Three sporadic tasks in nanoseconds: counted in their own wcet (the gcd of a task's wcets), a
  // one-vertex task's table has 2 columns instead of wcet + 1 (about 600 MB for these).
  const std::string set = write(".csv",
                                "name,wcet,deadline,period\na,50000000,200000000,250000000\n"
                                "b,30000000,100000000,100000000\nc,7,1000,1000\n");
  const cli_result r = run_warpspan("dbf " + set + " --backend cpu --json --at 200000000,250000000");
  ASSERT_EQ(r.code, 0) << r.err;
  const json j = json::parse(r.out);
  for (const json& t : j.at("tasks")) EXPECT_EQ(t.at("columns").get<std::uint64_t>(), 2u) << t;
  // dbf of a sporadic task: (floor((t - D) / P) + 1) C for t >= D.
  const json& at = j.at("total_dbf_at");
  EXPECT_EQ(at.at("200000000").get<std::uint64_t>(), 50000000u + 2 * 30000000u + 200000u * 7);
  EXPECT_EQ(at.at("250000000").get<std::uint64_t>(), 50000000u + 2 * 30000000u + 250000u * 7);
}

}  // namespace
}  // namespace warpspan
