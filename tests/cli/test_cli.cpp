// The command line as scripts use it: the JSON contract of `estimate`, and bad input giving one
// line on stderr and exit code 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

using run_result = test::cli_result;
run_result run(const std::string& args) { return test::run_warpspan(args); }
int lines(const std::string& s) { return test::count_lines(s); }

TEST(Cli, EstimateJsonContract) {
  const run_result r = run("estimate --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --chains 4 --iterations 3000 "
                           "--backend cpu --json --quiet");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["upper_bound"].get<int>(), 184);
  EXPECT_EQ(j["iterations"].get<long>(), 4 * 3000);
  EXPECT_EQ(j["backend"].get<std::string>(), "cpu");
  EXPECT_EQ(j["best_string"].size(), 16u * 25u);
  EXPECT_GE(j["elapsed_s"].get<double>(), 0.0);
  ASSERT_FALSE(j["envelope"].empty());
  EXPECT_EQ(j["envelope"].back()[1].get<int>(), j["best_makespan"].get<int>());
  // The reported string rebuilds, through the build command, to the reported makespan.
  std::string ids;
  for (const auto& v : j["best_string"]) ids += std::to_string(v.get<int>()) + " ";
  const run_result b = run("build --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --json --string \"" + ids + "\"");
  ASSERT_EQ(b.code, 0) << b.err;
  EXPECT_EQ(nlohmann::json::parse(b.out)["makespan"], j["best_makespan"]);
}

TEST(Cli, BuildReproducesFig5) {
  const run_result r = run("build --kernel LCL --warps 4 --sigma L=1,C=1 --json --string \"1 1 2 2 3 3 1 2 3 4 4 4\"");

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["makespan"].get<int>(), 9);
}

TEST(Cli, BoundOfVoronoiFromPtxIs184) {
  const run_result r =
      run("bound --ptx " + test::source_path("data/kernels/voronoi_fig11.ptx") + " --warps 16 --sigma L=1,C=4 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["pessimistic"].get<int>(), 184);
}

TEST(Cli, SmPresetNormalisesFermiLoads) {
  // Fermi (2.0): 16 load/store units for warps of 32, so each L becomes two single-cycle L's.
  const run_result r = run("kernel --kernel LC --sm fermi-2.0 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["normalized"].get<std::string>(), "2LC");
}

struct bad_case {
  const char* args;
  const char* must_mention;
};

class CliBadInput : public ::testing::TestWithParam<bad_case> {};

TEST_P(CliBadInput, OneLineOnStderrAndExitCode2) {
  const run_result r = run(GetParam().args);

  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(GetParam().must_mention), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
}

INSTANTIATE_TEST_SUITE_P(
    Cases, CliBadInput,
    ::testing::Values(
        bad_case{"estimate --kernel 5L9X --warps 16 --sigma L=1,C=4", "'X' at position 4"},
        bad_case{"estimate --kernel 5L9C --warps 0 --sigma L=1,C=4", "--warps must be at least 1"},
        bad_case{"estimate --kernel 5L9C --warps -3 --sigma L=1,C=4", "--warps"},
        bad_case{"estimate --kernel 5L9C --warps 4 --sigma L=0,C=4", "zero units"},
        bad_case{"estimate --kernel 5L9C2S --warps 4 --sigma L=1,C=4", "no S units"},
        bad_case{"estimate --kernel 5L9C --warps 4 --sigma L=1,C=4 --backend gpu", "unknown backend 'gpu'"},
        bad_case{"estimate --kernel 5L9C --warps 4 --sigma L=1,C=4 --init best", "unknown kind 'best'"},
        bad_case{"estimate --ptx /nonexistent/k.ptx --warps 4 --sigma L=1,C=4", "/nonexistent/k.ptx"},
        bad_case{"estimate --kernel LC --warps 4 --sm no-such-gpu", "no-such-gpu"},
        bad_case{"estimate --kernel LC --warps 4", "--sigma"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,Q=2", "unknown unit 'Q'"},
        bad_case{"estimate --kernel LC --warps 40000 --sigma L=1,C=1", "40000"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --iterations 0", "--iterations"},
        bad_case{"estimate --kernel LC --warps many --sigma L=1,C=1", "--warps"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --bogus", "bogus"},
        bad_case{"build --kernel LCL --warps 4 --sigma L=1,C=1 --string \"1 2 3\"", "expected W x I"},
        bad_case{"nosuchcommand", "unknown command 'nosuchcommand'"}),
    [](const ::testing::TestParamInfo<bad_case>& info) { return "case" + std::to_string(info.index); });

TEST(CliFiles, MalformedPtxAndJsonNameTheFile) {
  const std::string dir = ::testing::TempDir();
  {
    std::ofstream(dir + "bad.ptx") << ".visible .entry k()\n{\n  add.s32 %r1, %r2, %r3\n  ret;\n}\n";
    std::ofstream(dir + "bad_sm.json") << "{\"name\": \"x\", \"warp_size\": 32, \"units\": {\"L\": {\"units\": ";
  }

  const run_result ptx = run("kernel --ptx " + dir + "bad.ptx");
  const run_result sm = run("estimate --kernel LC --warps 2 --sm " + dir + "bad_sm.json");

  EXPECT_EQ(ptx.code, 2);
  EXPECT_EQ(lines(ptx.err), 1) << ptx.err;
  EXPECT_NE(ptx.err.find("bad.ptx:3"), std::string::npos) << ptx.err;
  EXPECT_EQ(sm.code, 2);
  EXPECT_EQ(lines(sm.err), 1) << sm.err;
  EXPECT_NE(sm.err.find("bad_sm.json"), std::string::npos) << sm.err;
}

TEST(Cli, HelpEverywhere) {
  for (const char* sub : {"", "estimate", "build", "bound", "kernel", "sm"}) {
    const run_result r = run(std::string(sub) + " --help");

    EXPECT_EQ(r.code, 0) << sub;
    EXPECT_NE(r.out.find("Usage"), std::string::npos) << sub;
  }
}

}  // namespace
}  // namespace warpspan
