// The command line as scripts use it: the JSON contract of `estimate`, and bad input giving one
// line on stderr and exit code 2.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <vector>
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
  const run_result r =
      run("estimate --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4 --chains 4 --iterations 3000 "
          "--backend cpu --json --quiet");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["upper_bound"].get<int>(), 197);  // 25 + 15 x 7 + floor(15 x 18 / 4)
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

TEST(Cli, BoundOfVoronoiFromPtxIs197) {
  const run_result r = run("bound --ptx " + test::source_path("data/kernels/voronoi_fig11.ptx") +
                           " --ptx-lines 1:66 --warps 16 --sigma L=1,C=4 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["pessimistic"].get<int>(), 197);
  EXPECT_EQ(nlohmann::json::parse(r.out)["pessimistic_001"].get<int>(), 184);
}

TEST(Cli, PtxLoopsAreListedAndOneOffThePathIsAWarning) {
  // A loop the path jumps past: the kernel string lacks it, so `kernel` lists it with no pass and
  // says so on stderr (exit 0: the import itself is fine); `estimate` on that PTX warns the same.
  const std::string ptx = test::write(".ptx",
                                      "ld.global.u32 %r1, [a];\n"  // 1
                                      "bra.uni END;\n"             // 2
                                      "TOP:\n"                     // 3
                                      "add.u32 %r1, %r1, 1;\n"     // 4
                                      "@%p1 bra TOP;\n"            // 5
                                      "END:\n"                     // 6
                                      "st.global.u32 [a], %r1;\n"  // 7
                                      "ret;\n");                   // 8
  const run_result r = run("kernel --ptx " + ptx + " --json");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["kernel"], "LCLC");
  ASSERT_EQ(j["loops"].size(), 1u);
  EXPECT_EQ(j["loops"][0]["head_line"], 4);
  EXPECT_EQ(j["loops"][0]["back_line"], 5);
  EXPECT_EQ(j["loops"][0]["passes"], 0);
  EXPECT_NE(r.err.find("warning: " + ptx + ": the loop at lines 4-5 is not on the path walked"), std::string::npos)
      << r.err;
  const run_result e = run("bound --ptx " + ptx + " --warps 2 --sigma L=1,C=1");
  EXPECT_EQ(e.code, 0) << e.err;
  EXPECT_NE(e.err.find("the loop at lines 4-5"), std::string::npos) << e.err;
  // A block size that does not divide W is one line and exit 2.
  const run_result b = run("bound --kernel LBL --warps 4 --sigma L=1 --block-warps 3");
  EXPECT_EQ(b.code, 2);
  EXPECT_NE(b.err.find("--block-warps 3 must divide the 4 warps"), std::string::npos) << b.err;
}

TEST(Cli, AnSmPresetCountsPtxSequencesAsItsTableSays) {
  // div.rn.f32 is one C without an SM, and on ampere-8.0 the fast path of its compiled code
  // (data/sm/README.md, "PTX rules"): S10C. The trace says which instruction a rule counted.
  const std::string ptx = test::write(".ptx",
                                      "ld.global.f32 %f1, [a];\n"    // 1
                                      "div.rn.f32 %f2, %f1, %f1;\n"  // 2
                                      "st.global.f32 [a], %f2;\n"    // 3
                                      "ret;\n");                     // 4
  const run_result plain = run("kernel --ptx " + ptx + " --json");
  ASSERT_EQ(plain.code, 0) << plain.err;
  EXPECT_EQ(nlohmann::json::parse(plain.out)["kernel"], "LCLC");
  EXPECT_EQ(nlohmann::json::parse(plain.out)["by_sm_rule"], 0);
  const run_result a = run("kernel --ptx " + ptx + " --sm ampere-8.0 --json --trace");
  ASSERT_EQ(a.code, 0) << a.err;
  const auto j = nlohmann::json::parse(a.out);
  EXPECT_EQ(j["kernel"], "LS10CLC");
  EXPECT_EQ(j["by_sm_rule"], 1);
  EXPECT_EQ(j["trace"][1]["opcode"], "div.rn.f32");
  EXPECT_EQ(j["trace"][1]["runs_as"], "S10C");
  EXPECT_FALSE(j["trace"][0].contains("runs_as"));
  // --sigma alone names no SM, so no table; the text output names the rule's count.
  EXPECT_EQ(nlohmann::json::parse(run("kernel --ptx " + ptx + " --sigma L=1,C=2 --json").out)["kernel"], "LCLC");
  const run_result t = run("kernel --ptx " + ptx + " --sm hopper-9.0 --trace");
  EXPECT_NE(t.out.find("SM rules    1 instruction counted"), std::string::npos) << t.out;
  EXPECT_NE(t.out.find("div.rn.f32  runs as S9C"), std::string::npos) << t.out;
  // The sequence reaches the analyses: two warps on ampere (sigma C = 2) issue 12 C's each.
  const run_result e = run("exact --ptx " + ptx + " --warps 2 --sm ampere-8.0 --json");
  ASSERT_EQ(e.code, 0) << e.err;
  EXPECT_GT(nlohmann::json::parse(e.out)["makespan"].get<int>(),
            nlohmann::json::parse(run("exact --ptx " + ptx + " --warps 2 --sigma L=1,C=2,S=1/2 --json").out)["makespan"]
                .get<int>());
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
        bad_case{"nosuchcommand", "unknown command 'nosuchcommand'"},
        // Issue 9: threads, negative numbers, whole tokens, empty paths, hostile numbers.
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --threads 100000", "--threads: 100000 threads"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --threads -1", "--threads: -1"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --iterations -1",
                 "--iterations: must be an integer from 0 to"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --chains -1",
                 "--chains: must be an integer from 0 to"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --schedulers -5",
                 "--schedulers: must not be negative"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --reach -1", "--reach: must be an integer from 0 to"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --validate -1",
                 "--validate: must be an integer from 0 to"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --seed -1", "--seed: must be an integer from 0 to"},
        bad_case{"build --kernel LCL --warps 4 --sigma L=1,C=1 --schedulers -5", "--schedulers: must not be negative"},
        bad_case{"kernel --kernel LC --sigma L=1,C=1 --schedulers -1", "--schedulers: must not be negative"},
        bad_case{"estimate --kernel LC --warps 32768 --sigma L=1,C=1", "more than the 32767 warps"},
        bad_case{"kernel --ptx " WARPSPAN_SOURCE_DIR "/data/kernels/voronoi_fig11.ptx --ptx-lines 1x:2000y",
                 "'1x:2000y' is not of the form A:B"},
        bad_case{"kernel --ptx " WARPSPAN_SOURCE_DIR "/data/kernels/voronoi_fig11.ptx --ptx-lines 1:+5",
                 "is not of the form A:B"},
        bad_case{"kernel --ptx " WARPSPAN_SOURCE_DIR "/data/kernels/voronoi_fig11.ptx --ptx-lines 9:3", "1 <= A <= B"},
        bad_case{"kernel --ptx " WARPSPAN_SOURCE_DIR "/data/kernels/voronoi_fig11.ptx --ptx-lines ''", "--ptx-lines"},
        bad_case{"kernel --ptx ''", "PTX file: the path is empty"},
        bad_case{"estimate --ptx '' --warps 4 --sigma L=1,C=1", "PTX file: the path is empty"},
        bad_case{"kernel --ptx /tmp", "is a directory"}, bad_case{"kernel --ptx /dev/zero", "larger than"},
        bad_case{"kernel --kernel LC --sm ''", "--sm: empty"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --sm ''", "--sm: empty"},
        bad_case{"sm ''", "--sm: empty"}, bad_case{"sm /tmp", "is a directory"},
        bad_case{"estimate --kernel LC --warps 4 --sigma ''", "--sigma: empty"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --svg-dir ''", "--svg-dir: the path is empty"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1e300,C=1", "too large"},
        bad_case{"kernel --kernel LC --sigma L=1e-300,C=1", "too small"},
        bad_case{"kernel --kernel LC --sigma L=0.0000001,C=1", "too small"},
        bad_case{"kernel --kernel LC --sigma L=4.garbage,C=1", "not a number"},
        bad_case{"kernel --kernel LC --sigma L=1,C=1,L=2", "L is given twice"},
        bad_case{"kernel --kernel LC --sigma L=1/2147483647,C=1", "too small"},
        bad_case{"kernel --kernel 99999999999C --sigma C=1", "too large"},
        bad_case{"estimate --kernel LC --warps 4 --sigma L=1,C=1 --seconds -1", "--seconds"}),
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

TEST(CliFiles, SmJsonOverflowsAreInputErrorsNamingTheField) {
  const std::string dir = ::testing::TempDir();
  const std::string huge = dir + "huge_latency_sm.json", wide = dir + "wide_sm.json";
  std::ofstream(huge) << R"({"warp_size": 32, "units": {"L": {"units": 32, "latency": 1e400}}})";
  // 1 unit for warps of 1,000,000 threads at latency 1,000,000: 10^12 cycles an instruction.
  std::ofstream(wide) << R"({"warp_size": 1000000, "units": {"L": {"units": 1, "latency": 1000000}}})";

  const run_result a = run("sm " + huge);
  const run_result b = run("kernel --kernel L --sm " + wide);

  EXPECT_EQ(a.code, 2) << a.err;  // was exit 1, an internal error
  EXPECT_EQ(lines(a.err), 1) << a.err;
  EXPECT_NE(a.err.find("units.L.latency"), std::string::npos) << a.err;
  EXPECT_EQ(b.code, 2) << b.err;
  EXPECT_EQ(lines(b.err), 1) << b.err;
  EXPECT_NE(b.err.find("1000000000000"), std::string::npos) << b.err;
}

/// `warpspan ARGS` under PREFIX (e.g. "timeout 20").
run_result run_under(const std::string& prefix, const std::string& args) {
  return test::run_warpspan_under(prefix, args);
}

/// The makespan `build` gives the string of an estimate's JSON.
int rebuilt_makespan(const std::string& problem_args, const nlohmann::json& j) {
  std::string ids;
  for (const auto& v : j["best_string"]) ids += std::to_string(v.get<int>()) + " ";
  const run_result b = run("build " + problem_args + " --json --string \"" + ids + "\"");
  EXPECT_EQ(b.code, 0) << b.err;
  return b.code == 0 ? nlohmann::json::parse(b.out)["makespan"].get<int>() : -1;
}

TEST(CliLimits, SecondsBoundTheWholeRunOfABigInstance) {
  // 8192 warps of the Voronoi kernel: one annealing iteration of a chain rebuilds up to 200,000
  // placements, and the set-up used to grow with W^2 (most-pending string, first builds). 124 from
  // the outer timeout would mean --seconds 1 did not hold (the bound is generous on purpose).
  const run_result r = run_under("timeout 60",
                                 "estimate --kernel 5L9C2L9C --warps 8192 --sigma L=1,C=4 --seconds 1 "
                                 "--backend cpu --json --quiet");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // No --iterations: the cooling follows the budget, so the run ends by its plan or by the budget.
  EXPECT_TRUE(j["cooling_fitted_to_seconds"].get<bool>());
  EXPECT_FALSE(j["interrupted"].get<bool>());
  EXPECT_EQ(j["best_string"].size(), 8192u * 25u);
  EXPECT_LE(j["best_makespan"].get<int>(), j["upper_bound"].get<int>());
  ASSERT_TRUE(j.contains("proven"));  // the interval ran within the budget, not after it
  EXPECT_GE(j["proven"]["lower"].get<int>(), j["best_makespan"].get<int>());
  EXPECT_LE(j["proven"]["upper"].get<int>(), j["upper_bound"].get<int>());
}

TEST(CliLimits, SecondsWithoutIterationsFitTheCoolingAndIterationsKeepIt) {
  const std::string base =
      "estimate --kernel 5L9C2L9C --warps 6 --sigma L=1,C=4 --seconds 0.6 --exact-seconds 0 "
      "--backend cpu --json --quiet";
  const run_result fitted = run_under("timeout 60", base);
  ASSERT_EQ(fitted.code, 0) << fitted.err;
  EXPECT_TRUE(nlohmann::json::parse(fitted.out)["cooling_fitted_to_seconds"].get<bool>());

  // A fixed count with a budget it cannot exhaust: the beam's set-up takes 0.2 s here and more
  // than 0.6 s under the sanitizers on a loaded machine, which left no time for one iteration.
  const run_result fixed = run_under("timeout 60",
                                     "estimate --kernel 5L9C2L9C --warps 6 --sigma L=1,C=4 --seconds 30 "
                                     "--exact-seconds 0 --backend cpu --json --quiet --iterations 500");
  ASSERT_EQ(fixed.code, 0) << fixed.err;
  const auto j = nlohmann::json::parse(fixed.out);
  EXPECT_FALSE(j["cooling_fitted_to_seconds"].get<bool>());
  EXPECT_EQ(j["iterations_per_chain"].get<long long>(), 500);
}

TEST(CliLimits, WarpsAtTheLimitRun) {
  // 32767 warps of one L at sigma 1: every work-conserving schedule takes exactly W cycles.
  const run_result r = run_under("timeout 60",
                                 "estimate --kernel L --warps 32767 --sigma L=1 --seconds 2 "
                                 "--exact-seconds 0.2 --backend cpu --json --quiet");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["best_makespan"].get<int>(), 32767);
  EXPECT_EQ(j["upper_bound"].get<int>(), 32767);
  EXPECT_EQ(j["best_string"].size(), 32767u);
  std::vector<int> seen(32767, 0);
  for (const auto& v : j["best_string"]) ++seen.at(static_cast<std::size_t>(v.get<int>() - 1));
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 1), 32767);
}

TEST(CliLimits, HugeTablesBecomeANote) {
  // 32767 warps x 32767 cycles would be a gigabyte of table; the note is one line.
  const run_result big = run_under("timeout 60", "build --kernel L --warps 32767 --sigma L=1 --init rr");
  const run_result small = run("build --kernel LCL --warps 4 --sigma L=1,C=1 --init rr");

  ASSERT_EQ(big.code, 0) << big.err;
  EXPECT_NE(big.out.find("(table of 32767 warps x 32767 cycles omitted"), std::string::npos);
  EXPECT_LT(big.out.size(), std::size_t{1} << 20);
  ASSERT_EQ(small.code, 0) << small.err;
  EXPECT_NE(small.out.find("warp 4"), std::string::npos) << small.out;
}

TEST(CliLimits, ProvenIntervalStopsAtTheExactSearchLimit) {
  // 300 warps of one L (beyond the sweep's 16 warps): the string's 300 attains the pessimistic
  // bound, W I = 300. (The interval used to go on to T(256), which the exact search refuses: exit
  // 2 after the whole annealing.)
  const run_result r = run_under("timeout 60",
                                 "estimate --kernel L --warps 300 --sigma L=1 --iterations 10 "
                                 "--exact-seconds 5 --backend cpu --json --quiet");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["proven"]["lower"].get<int>(), 300);
  EXPECT_EQ(j["proven"]["upper"].get<int>(), 300);
  EXPECT_EQ(j["proven"]["upper_from"], "pessimistic");
  EXPECT_TRUE(j["proven"]["exact"].get<bool>());
}

TEST(CliEstimate, ALongerScheduleFromTheProvenIntervalBecomesTheEstimate) {
  // Four round-robin chains of two iterations find less than T(8) = 67 (`exact`, and the sweep's
  // witness); the interval's search solves W = 8 within its seconds, and its witness, built again,
  // is the estimate. The chains are counted (by default there are two per core, and 32 of them, on
  // 16 cores, reach 67) and start from rr (the default mix's beam chain starts at 67).
  const run_result r = run_under("timeout 120",
                                 "estimate --kernel CCCCCCLCCLCCLLCCCCCLCCCC --warps 8 --sigma L=1,C=4 "
                                 "--iterations 2 --chains 4 --init rr --exact-seconds 60 --backend cpu --json --quiet");
  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  ASSERT_TRUE(j["proven"]["exact"].get<bool>());
  EXPECT_EQ(j["proven"]["lower"].get<int>(), 67);
  EXPECT_EQ(j["best_makespan"].get<int>(), 67);
  EXPECT_EQ(j["best_from"], "exact search");
  EXPECT_LT(j["annealing_best"].get<int>(), 67);
  std::string ids;
  for (const auto& v : j["best_string"]) ids += std::to_string(v.get<int>()) + " ";
  const run_result built =
      run("build --kernel CCCCCCLCCLCCLLCCCCCLCCCC --warps 8 --sigma L=1,C=4 --json --string \"" + ids + "\"");
  ASSERT_EQ(built.code, 0) << built.err;
  EXPECT_EQ(nlohmann::json::parse(built.out)["makespan"].get<int>(), 67);
}

using test::run_and_signal;
using ended = test::signalled_run;

TEST(CliInterrupt, SigintPrintsTheBestSoFarAndExits130) {
  // SIGINT after about a second of a run that would take hours. It must end by exit(130) with its
  // result printed, not be killed by the signal (which a shell would also report as 130).
  const ended r =
      run_and_signal({"estimate", "--kernel", "5L9C2L9C", "--warps", "16", "--sigma", "L=1,C=4", "--iterations",
                      "1000000000", "--chains", "4", "--backend", "cpu", "--json", "--quiet"},
                     SIGINT, 1000);

  ASSERT_FALSE(r.hung);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
  ASSERT_EQ(r.code, 130);
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j["interrupted"].get<bool>());
  EXPECT_FALSE(j["time_limited"].get<bool>());
  EXPECT_TRUE(j.at("proven").is_null());  // skipped: the user asked to stop
  EXPECT_LT(j["iterations_per_chain"].get<long long>(), 1'000'000'000LL);
  EXPECT_EQ(j["envelope"].back()[1], j["best_makespan"]);
  EXPECT_EQ(rebuilt_makespan("--kernel 5L9C2L9C --warps 16 --sigma L=1,C=4", j), j["best_makespan"].get<int>());
}

TEST(CliInterrupt, SigtermMarksTheTable) {
  const ended r = run_and_signal({"estimate", "--kernel", "5L9C2L9C", "--warps", "16", "--sigma", "L=1,C=4",
                                  "--iterations", "1000000000", "--chains", "4", "--backend", "cpu", "--no-table"},
                                 SIGTERM, 1000);

  ASSERT_FALSE(r.hung);
  ASSERT_TRUE(r.exited) << "killed by signal " << r.signal;
  ASSERT_EQ(r.code, 130);
  EXPECT_EQ(r.out.rfind("INTERRUPTED", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("worst string"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("proven      (skipped: interrupted)"), std::string::npos) << r.out;
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

namespace warpspan {
namespace {

TEST(CliCuda, DbfReportsKernelTimeGpu) {
  // `dbf --json` says how much of elapsed_s the GPU's kernels took (CUDA events); null on the CPU.
  WARPSPAN_REQUIRE_GPU();
  const std::string file = test::source_path("data/tasks/fig2_example.json");
  for (const char* backend : {"cuda", "cuda-sm", "cpu"}) {
    const run_result r = test::run_warpspan("dbf " + file + " --backend " + backend + " --json");
    ASSERT_EQ(r.code, 0) << backend << ": " << r.err;
    const auto j = nlohmann::json::parse(r.out);
    if (std::string(backend) == "cpu") {
      EXPECT_TRUE(j["kernel_s"].is_null());
    } else {
      ASSERT_TRUE(j["kernel_s"].is_number()) << backend << ": " << r.out;
      EXPECT_GT(j["kernel_s"].get<double>(), 0.0) << backend;
      EXPECT_LE(j["kernel_s"].get<double>(), j["elapsed_s"].get<double>()) << backend;
    }
  }
  // A batch's and a sweep's last line: the run's seconds and its kernels' share; the text says it.
  // (One set and two variants: the emulation runs 20 sets in minutes.)
  for (const char* backend : {"cuda", "cpu"}) {
    const bool gpu = std::string(backend) != "cpu";
    for (const std::string& run : {"dbf --batch " + file, "dbf " + file + " --sweep wcet:1:2:2"}) {
      const run_result r = test::run_warpspan(run + " -q --json --backend " + backend);
      ASSERT_EQ(r.code, 0) << run << ": " << r.err;
      const std::string last = r.out.substr(r.out.rfind('\n', r.out.size() - 2) + 1);
      const auto end = nlohmann::json::parse(last);
      ASSERT_TRUE(end["elapsed_s"].is_number()) << r.out;
      if (!gpu) {
        EXPECT_TRUE(end["kernel_s"].is_null()) << run;
        continue;
      }
      ASSERT_TRUE(end["kernel_s"].is_number()) << run << ": " << r.out;
      EXPECT_GT(end["kernel_s"].get<double>(), 0.0) << run;
      EXPECT_LE(end["kernel_s"].get<double>(), end["elapsed_s"].get<double>()) << run;
      const run_result text = test::run_warpspan(run + " -q --backend " + backend);
      EXPECT_NE(text.out.find("s for all tables and tests, GPU kernels "), std::string::npos) << text.out;
    }
  }
}

TEST(CliCuda, EstimateValidatesBitForBitAgainstTheCpuGpu) {
  // `estimate --backend cuda --validate 16` re-runs 16 chains on the CPU and fails (exit 3) on any
  // difference; the whole result must also equal a CPU run with the same seed, chains and
  // iterations. Voronoi W = 3, 4 and 16 keep their (compact) chain state on chip; the last case has
  // a scheduler limit and all four unit types.
  WARPSPAN_REQUIRE_GPU();
  for (const std::string problem :
       {"--kernel 5L9C2L9C --warps 3 --sigma L=1,C=4", "--kernel 5L9C2L9C --warps 4 --sigma L=1,C=4",
        "--kernel 5L9C2L9C --warps 16 --sigma L=1,C=4",
        "--kernel LSCDLLCSD --warps 7 --sigma L=1,C=2,S=1,D=1 --schedulers 3"}) {
    // Fewer iterations in the emulation, which traces every access.
    const std::string common = "estimate " + problem + " --chains 64 --iterations " +
                               std::to_string(test::gpu_test_size(1500, 300)) + " --seed 9 --exact-seconds 0 --json";
    const run_result gpu = test::run_warpspan(common + " --backend cuda --validate 16");
    ASSERT_EQ(gpu.code, 0) << problem << ": " << gpu.err;
    const run_result cpu = test::run_warpspan(common + " --backend cpu");
    ASSERT_EQ(cpu.code, 0) << problem << ": " << cpu.err;
    const auto g = nlohmann::json::parse(gpu.out), c = nlohmann::json::parse(cpu.out);
    EXPECT_EQ(g["backend"].get<std::string>().rfind(cuda_backend_name(), 0), 0u) << g["backend"];
    EXPECT_EQ(g["best_makespan"], c["best_makespan"]) << problem;
    EXPECT_EQ(g["best_string"], c["best_string"]) << problem;
    EXPECT_EQ(g["iterations"], c["iterations"]) << problem;
    // The plan: Voronoi on chip, compact (W = 16: 1,632 working bytes and the 800-byte best string
    // a chain, tests/makespan/test_chain_memory.cpp), and so are the others (bounds of 39 to 197); 64 chains in blocks of the plan's size; the
    // resident chains are the SMs' resident threads (memory allows them here).
    const auto& plan = g["cuda_plan"];
    ASSERT_TRUE(plan.is_object()) << g.dump();
    EXPECT_TRUE(c["cuda_plan"].is_null());
    const bool voronoi = problem.find("5L9C2L9C") != std::string::npos;
    if (voronoi) EXPECT_TRUE(plan["on_chip"].get<bool>()) << problem;
    EXPECT_EQ(plan["packing"], "compact") << problem;
    if (problem.find("--warps 16 ") != std::string::npos) EXPECT_EQ(plan["chain_bytes"], 2432) << problem;
    const auto block = plan["block"].get<unsigned>();
    ASSERT_GT(block, 0u);
    EXPECT_EQ(plan["blocks"].get<unsigned>(), (64 + block - 1) / block) << problem;
    EXPECT_EQ(plan["resident_chains"].get<std::uint64_t>(),
              plan["resident_threads_per_sm"].get<std::uint64_t>() * plan["sms"].get<std::uint64_t>())
        << problem;
    EXPECT_EQ(plan["resident_warps_per_sm"].get<unsigned>(), plan["resident_threads_per_sm"].get<unsigned>() / 32);
    EXPECT_GT(plan["chain_bytes"].get<std::size_t>(), 0u);
    if (voronoi)
      EXPECT_GE(plan["shared_bytes_per_block"].get<std::size_t>(), block * plan["chain_bytes"].get<std::size_t>() / 2);
  }
}

}  // namespace
}  // namespace warpspan
