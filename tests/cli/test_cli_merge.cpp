// `warpspan merge` checks what the shards claim (issue 41): an estimate shard's best string must
// build the makespan it claims, within the upper bound; a dbf record's verdict must be what its
// line says; and shards of runs on different input files are never combined.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "cli/cli_util.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;
using test::cli_result;
using test::count_lines;
using test::expect_refused;
using test::run_warpspan;
using test::scratch;
using test::write;

const std::string tasks = std::string(WARPSPAN_SOURCE_DIR) + "/data/tasks/";

/// The output of `ARGS --shard I/N` for every I, each a file ending in `suffix` + I.
std::vector<std::string> shards(const std::string& args, int n, const std::string& suffix) {
  std::vector<std::string> files;
  for (int i = 0; i < n; ++i) {
    const cli_result r = run_warpspan(args + " --shard " + std::to_string(i) + "/" + std::to_string(n));
    EXPECT_EQ(r.code, 0) << r.err;
    files.push_back(write(suffix + std::to_string(i), r.out));
  }
  return files;
}

std::string merge(const std::vector<std::string>& files) {
  std::string args = "merge";
  for (const auto& f : files) args += " " + f;
  return args;
}

std::vector<json> json_lines(const std::string& path) {
  std::ifstream in(path);
  std::vector<json> out;
  for (std::string line; std::getline(in, line);) out.push_back(json::parse(line));
  return out;
}

std::string lines_text(const std::vector<json>& lines) {
  std::string out;
  for (const auto& j : lines) out += j.dump() + "\n";
  return out;
}

// ------------------------------------------------------------------------------------- estimate

const std::string estimate =
    "estimate --kernel 5L9C2L9C --warps 6 --sigma L=1,C=4 --chains 4 --iterations 300 "
    "--exact-seconds 0 --beam-width 8 -q";

TEST(CliMerge, EstimateShardsOfOneRunMerge) {
  const auto files = shards(estimate, 2, "_e");

  const cli_result r = run_warpspan(merge(files));

  ASSERT_EQ(r.code, 0) << r.err;
  const json whole = json::parse(run_warpspan(estimate + " --json").out), merged = json::parse(r.out);
  EXPECT_EQ(merged["best_makespan"], whole["best_makespan"]);
  EXPECT_EQ(merged["best_string"], whole["best_string"]);
  EXPECT_EQ(merged["upper_bound"], 82);  // the pessimistic bound of 5L9C2L9C, W = 6, sigma L=1, C=4
}

TEST(CliMerge, EstimateShardsWithBarriersInBlocksMerge) {
  // The shards' best strings keep the barriers of blocks of 2: merge rebuilds them in those blocks
  // (in one block of 6 some would break a barrier).
  const std::string barriers =
      "estimate --kernel 2LCB3CL --warps 6 --block-warps 2 --sigma L=1,C=2 --chains 4 "
      "--iterations 300 --exact-seconds 0 --beam-width 8 -q";
  const auto files = shards(barriers, 2, "_b");

  const cli_result r = run_warpspan(merge(files));

  ASSERT_EQ(r.code, 0) << r.err;
  const json whole = json::parse(run_warpspan(barriers + " --json").out), merged = json::parse(r.out);
  EXPECT_EQ(merged["best_makespan"], whole["best_makespan"]);
  EXPECT_EQ(merged["problem"]["block_warps"], 2);
}

TEST(CliMerge, EstimateShardClaimingMoreThanItsStringBuildsIsRefused) {
  const auto files = shards(estimate, 2, "_e");
  std::ifstream in(files[0]);
  json part = json::parse(in);
  const auto claimed = part["best_makespan"].get<std::uint32_t>();
  ASSERT_LT(claimed, 82u);

  json above = part, longer = part, not_a_string = part, other_cycles = part;
  above["best_makespan"] = 83;  // over the upper bound, 82
  longer["best_makespan"] = claimed + 1;
  not_a_string["best_string"][0] = 7;  // warp 7 of 6
  other_cycles["warp_cycle_string"][0] = 1000;

  expect_refused(run_warpspan(merge({write("_above", above.dump() + "\n"), files[1]})),
                 {"_above", "best_makespan 83 is above the upper bound 82"});
  expect_refused(run_warpspan(merge({write("_longer", longer.dump() + "\n"), files[1]})),
                 {"_longer", "builds a schedule of " + std::to_string(claimed) + " cycles, not the best_makespan " +
                                 std::to_string(claimed + 1)});
  expect_refused(run_warpspan(merge({write("_string", not_a_string.dump() + "\n"), files[1]})),
                 {"_string", "best_string"});
  expect_refused(run_warpspan(merge({write("_cycles", other_cycles.dump() + "\n"), files[1]})),
                 {"_cycles", "warp_cycle_string"});
}

TEST(CliMerge, EstimateShardsOfDifferentKernelFilesAreRefused) {
  // The same kernel both times (the problem is equal), but the file changed between the shards.
  const std::string kernel = scratch("_kernel.txt");
  std::ofstream(kernel) << "5L9C2L9C\n";
  const std::string args = "estimate --kernel @" + kernel +
                           " --warps 6 --sigma L=1,C=4 --chains 4 --iterations 300 "
                           "--exact-seconds 0 --beam-width 8 -q";
  const cli_result first = run_warpspan(args + " --shard 0/2");
  std::ofstream(kernel) << "# edited\n5L9C2L9C\n";
  const cli_result second = run_warpspan(args + " --shard 1/2");
  ASSERT_EQ(first.code, 0) << first.err;
  ASSERT_EQ(second.code, 0) << second.err;
  const std::string a = write("_k0", first.out), b = write("_k1", second.out);
  json old = json::parse(first.out);
  old["shard"].erase("inputs");

  expect_refused(run_warpspan(merge({a, b})), {"_k1", "the content of --kernel", "_kernel.txt", "different runs"});
  expect_refused(run_warpspan(merge({write("_old", old.dump() + "\n"), b})),
                 {"_old", "no inputs", "run the shards again"});
}

// ------------------------------------------------------------------------------------------ dbf

TEST(CliMerge, DbfRecordWhoseVerdictIsNotItsLineIsRefused) {
  for (const std::string format : {"", " --json"}) {
    const auto files = shards("dbf --batch " + tasks + "variants.jsonl --backend cpu -q" + format, 2, "_d");
    std::vector<json> lines = json_lines(files[0]);
    ASSERT_GE(lines.size(), 3u);  // the header, a record, shard_end
    ASSERT_EQ(run_warpspan(merge(files)).code, 0);
    lines[1]["verdict"] = lines[1]["verdict"].get<int>() == 0 ? 1 : 0;

    expect_refused(
        run_warpspan(merge({write("_verdict" + std::to_string(format.size()), lines_text(lines)), files[1]})),
        {"_verdict", ":2: set 0's verdict", "is not what its line says"});
  }
}

TEST(CliMerge, DbfShardsOfDifferentBatchContentsAreRefused) {
  const std::string dir = scratch("_sets");
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(tasks + "fig2_example.json", dir + "/a.json");
  std::filesystem::copy_file(tasks + "two_tasks_schedulable.json", dir + "/b.json");
  const std::string args = "dbf --batch " + dir + " --backend cpu -q --json";
  const cli_result first = run_warpspan(args + " --shard 0/2");
  std::filesystem::copy_file(tasks + "overloaded.json", dir + "/b.json",
                             std::filesystem::copy_options::overwrite_existing);
  const cli_result second = run_warpspan(args + " --shard 1/2");
  ASSERT_EQ(first.code, 0) << first.err;
  ASSERT_EQ(second.code, 0) << second.err;

  expect_refused(run_warpspan(merge({write("_b0", first.out), write("_b1", second.out)})),
                 {"_b1", "a shard of another run", "the input files' content"});
}

TEST(CliMerge, DbfSweepWhoseTaskFileChangedSinceIsRefused) {
  const std::string file = scratch("_sweep.json");
  std::filesystem::copy_file(tasks + "fig2_example.json", file);
  const auto files = shards("dbf " + file + " --sweep wcet:1:4:7 --backend cpu -q", 2, "_s");
  ASSERT_EQ(run_warpspan(merge(files)).code, 0);

  std::filesystem::copy_file(tasks + "overloaded.json", file, std::filesystem::copy_options::overwrite_existing);

  expect_refused(run_warpspan(merge(files)), {"_sweep.json", "changed since the shards ran"});
}

}  // namespace
}  // namespace warpspan
