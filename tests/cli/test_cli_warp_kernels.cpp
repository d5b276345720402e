// --warp-kernels (issue 40, item 3, a path per warp) on the makespan commands: the groups in the text
// and the JSON, the same answers as the library, its errors as one line and exit 2, and a --kernel
// with white space inside refused with the way to per-warp paths.
#include <gtest/gtest.h>

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

json json_of(const std::string& args) {
  const cli_result r = run_warpspan(args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.err;
  return json::parse(r.out.empty() ? "{}" : r.out);
}

const std::string sm = " --sigma L=1,C=1";

TEST(CliWarpKernels, EveryMakespanCommandTakesGroups) {
  // docs/makespan.md, "A path per warp": LCL:1,CCL:2 has worst case 6 (counted there by hand; the
  // brute force agrees, tests/makespan/test_warp_kernels.cpp) and pessimistic bound 10.
  const json exact = json_of("exact --warp-kernels LCL:1,CCL:2" + sm + " --json");
  EXPECT_EQ(exact["makespan"], 6);
  EXPECT_EQ(exact["problem"]["warps"], 3);
  EXPECT_EQ(exact["problem"]["kernel"], "LCL:1,2CL:2");
  ASSERT_EQ(exact["problem"]["warp_kernels"].size(), 2u);
  EXPECT_EQ(exact["problem"]["warp_kernels"][1]["kernel"], "2CL");
  EXPECT_EQ(exact["problem"]["warp_kernels"][1]["warps"], 2);
  EXPECT_EQ(exact["algorithm"], "depth-first");

  const json bound = json_of("bound --warp-kernels LCL:1,CCL:2" + sm + " --json");
  EXPECT_EQ(bound["pessimistic"], 10);

  const json build = json_of("build --warp-kernels LCL:1,CCL:2" + sm + " --string '1 2 2 2 3 3 1 3 1' --json");
  EXPECT_EQ(build["makespan"], 6);
  EXPECT_EQ(build["warp_cycle_string"], json::parse("[1,1,2,3,3,4,5,5,6]"));

  const json estimate = json_of("estimate --warp-kernels LCL:1,CCL:2" + sm + " --iterations 2000 --chains 4 --json");
  EXPECT_EQ(estimate["best_makespan"], 6);
  EXPECT_EQ(estimate["problem"]["warp_kernels"][0]["warps"], 1);

  const cli_result text = run_warpspan("exact --warp-kernels LCL:1,CCL:2" + sm);
  EXPECT_EQ(text.code, 0) << text.err;
  EXPECT_NE(text.out.find("kernel      LCL:1,2CL:2, W = 3"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("exact       6 cycles"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("warp 1   L...CL"), std::string::npos) << text.out;

  const json kernel = json_of("kernel --warp-kernels 2L3C:2,CCL:1 --json");
  EXPECT_EQ(kernel["warp_kernels"][0]["plain"], "LLCCC");
}

TEST(CliWarpKernels, OneGroupGivesTodaysAnswer) {
  const json a = json_of("exact --warp-kernels LCL:4" + sm + " --json");
  const json b = json_of("exact --kernel LCL --warps 4" + sm + " --json");
  EXPECT_EQ(a["makespan"], b["makespan"]);
  EXPECT_EQ(a["best_string"], b["best_string"]);
  EXPECT_EQ(a["problem"]["kernel"], "LCL");
  const json c = json_of("estimate --warp-kernels LCL:4" + sm + " --iterations 500 --chains 2 --json");
  const json d = json_of("estimate --kernel LCL --warps 4" + sm + " --iterations 500 --chains 2 --json");
  EXPECT_EQ(c["best_makespan"], d["best_makespan"]);
  EXPECT_EQ(c["best_string"], d["best_string"]);
}

TEST(CliWarpKernels, ShardsMergeAsTheWholeRun) {
  // merge rebuilds the problem from the shards' JSON (its groups) to check their best strings.
  const std::string args = "estimate --warp-kernels LCL:1,CCL:2,LLC:2" + sm + " --iterations 500 --chains 4 --json";
  std::string files;
  for (int i = 0; i < 2; ++i) {
    const cli_result r = run_warpspan(args + " --shard " + std::to_string(i) + "/2");
    ASSERT_EQ(r.code, 0) << r.err;
    const std::string file = test::scratch("." + std::to_string(i) + ".json");
    std::ofstream(file) << r.out;
    files += " " + file;
  }
  const json merged = json_of("merge" + files);
  const json whole = json_of(args);
  EXPECT_EQ(merged["best_makespan"], whole["best_makespan"]);
  EXPECT_EQ(merged["best_string"], whole["best_string"]);
  EXPECT_EQ(merged["problem"]["warp_kernels"], whole["problem"]["warp_kernels"]);
}

TEST(CliWarpKernels, ErrorsAreOneLine) {
  expect_refused(run_warpspan("exact --warp-kernels LCL:0,CCL:1" + sm), "--warp-kernels: group 1 has count '0'");
  expect_refused(run_warpspan("exact --warp-kernels LCL:x" + sm), "--warp-kernels: group 1 has count 'x'");
  expect_refused(run_warpspan("exact --warp-kernels LCL:2,,CCL:1" + sm), "--warp-kernels: group 2 is empty");
  expect_refused(run_warpspan("exact --warp-kernels LCL" + sm), "--warp-kernels: group 1 'LCL' has no count");
  expect_refused(run_warpspan("exact --warp-kernels LCL:2 --kernel LCL" + sm), "leave out --kernel");
  expect_refused(run_warpspan("estimate --warp-kernels LCL:2 --warps 2" + sm), "leave out --warps");
  expect_refused(run_warpspan("exact --kernel 'LCL CCL' --warps 2" + sm),
                 "kernel string: 'LCL CCL' has white space at position 4");
  expect_refused(run_warpspan("exact --kernel 'LCL CCL' --warps 2" + sm), "--warp-kernels (e.g. LCL:2,CCL:1)");
  expect_refused(run_warpspan("exact --kernel LCL" + sm), "--warps is required");
  // Where a search cannot take per-warp kernels it says so.
  expect_refused(run_warpspan("exact --warp-kernels LCL:2,CCL:1 --method ilp" + sm),
                 "the ILP models one kernel run by all warps, not per-warp kernels (--warp-kernels)");
  expect_refused(run_warpspan("bound --warp-kernels LCL:2,CCL:1 --exact-up-to 2" + sm), "--exact-up-to: the tractable");
  expect_refused(run_warpspan("build --warp-kernels LCL:2,CCL:1 --init beam" + sm), "--init: beam takes one kernel");
  expect_refused(run_warpspan("exact --warp-kernels LBC:1,CL:1" + sm),
                 "every warp of a block must issue the same barriers");
}

}  // namespace
}  // namespace warpspan
