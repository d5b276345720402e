// Nothing lost (issue 41): a result that could not be written is exit 2 with one line saying so,
// never a silent 0; output files appear whole or not at all, and a link planted where one is
// written is replaced, never followed.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "cli/cli_util.hpp"

namespace warpspan {
namespace {

namespace fs = std::filesystem;
using test::cli_result;
using test::count_lines;
using test::run_warpspan;
using test::scratch;
using test::write;

const std::string source = WARPSPAN_SOURCE_DIR;
const std::string wcet_args =
    "wcet --cfg " + source + "/data/wcet/fig4.cfg.json --trace " + source + "/data/wcet/fig4.trace";

std::string read(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), {});
}

/// Exit 2 and exactly one line on stderr, holding `what`.
void expect_one_line(const cli_result& r, const std::string& what) {
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << "expected '" << what << "' in: " << r.err;
}

// ----------------------------------------------------------------------------- standard output

TEST(CliOutputs, StandardOutputThatCannotBeWrittenIsExit2) {
  const std::string full = "cannot write standard output: No space left on device";
  const std::string batch = source + "/data/tasks/variants.jsonl";

  expect_one_line(run_warpspan("estimate --kernel 5L9C2L9C --warps 4 --sigma L=1,C=4 --chains 2 --iterations 200 "
                               "--exact-seconds 0 --quiet --json > /dev/full"),
                  full);
  expect_one_line(run_warpspan("dbf --batch " + batch + " --backend cpu --json -q > /dev/full"), full);
  expect_one_line(run_warpspan(wcet_args + " --json > /dev/full"), full);
  expect_one_line(run_warpspan("sm > /dev/full"), full);
  // Closed: the descriptor is gone.
  expect_one_line(run_warpspan(wcet_args + " --json >&-"), "cannot write standard output: Bad file descriptor");
  // The same commands written to a pipe are exit 0 (the check itself never fails a good run).
  const cli_result ok = run_warpspan(wcet_args + " --json");
  EXPECT_EQ(ok.code, 0) << ok.err;
  EXPECT_EQ(ok.err, "");
}

TEST(CliOutputs, AFailedCommandKeepsItsOneLine) {
  // The command's own error is the line; the output check adds none.
  const cli_result r = run_warpspan("wcet --cfg /nonexistent.json --trace /nonexistent.trace --json > /dev/full");

  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.find("standard output"), std::string::npos) << r.err;
}

// --------------------------------------------------------------------------------- output files

TEST(CliOutputs, OutputFileThatCannotBeWrittenIsExit2NamingIt) {
  // /dev/full takes the open and fails the write: the old stream check passed before the data
  // was flushed, at close.
  expect_one_line(run_warpspan(wcet_args + " --dot /dev/full"), "cannot write /dev/full (No space left on device)");
  expect_one_line(run_warpspan(wcet_args + " --lp /dev/full"), "cannot write /dev/full (No space left on device)");
  const std::string not_a_dir = write(".txt", "a file, not a directory");
  expect_one_line(run_warpspan(wcet_args + " --dot " + not_a_dir + "/g.dot"), not_a_dir + "/g.dot");
}

/// A directory holding `victim` and, where a command will write `name`, a link to the victim.
struct planted {
  std::string dir, victim, link;
  explicit planted(const std::string& name) {
    dir = scratch("_planted_" + name);
    fs::create_directories(dir);
    victim = dir + "/victim.txt";
    std::ofstream(victim) << "precious";
    link = dir + "/" + name;
    fs::create_symlink(victim, link);
  }
  /// The victim untouched, the link replaced by a regular file, and no temporary left behind.
  void expect_replaced_not_followed() const {
    EXPECT_EQ(read(victim), "precious");
    EXPECT_FALSE(fs::is_symlink(link)) << link;
    EXPECT_TRUE(fs::is_regular_file(link)) << link;
    std::size_t entries = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
      ++entries;
      EXPECT_EQ(e.path().filename().string().find(".tmp"), std::string::npos) << e.path();
    }
    EXPECT_EQ(entries, 2u);
  }
};

TEST(CliOutputs, APlantedLinkIsReplacedNotFollowed) {
  const planted dot("g.dot"), lp("g.lp"), set("set.json"), sets("sets.jsonl"), svg("s.svg"), input("best.input");

  const cli_result w = run_warpspan(wcet_args + " --dot " + dot.link + " --lp " + lp.link);
  const cli_result g = run_warpspan("generate-tasks --vertices 5 --tasks 2 --seed 1 -q --out " + set.link);
  const cli_result gl = run_warpspan("generate-tasks --vertices 5 --tasks 2 --sets 3 --seed 1 -q --out " + sets.link);
  const cli_result b = run_warpspan(
      "build --kernel LCL --warps 4 --sigma L=1,C=1 --string \"1 1 2 2 3 3 1 2 3 4 4 4\" --svg " + svg.link);
  const cli_result i = run_warpspan(
      "inputs --kernel bisect --threads 40 --method random-ga --evaluations 50 --seed 2 "
      "--save-input " +
      input.link);

  ASSERT_EQ(w.code, 0) << w.err;
  ASSERT_EQ(g.code, 0) << g.err;
  ASSERT_EQ(gl.code, 0) << gl.err;
  ASSERT_EQ(b.code, 0) << b.err;
  ASSERT_EQ(i.code, 0) << i.err;
  for (const planted* p : {&dot, &lp, &set, &sets, &svg, &input}) p->expect_replaced_not_followed();
  EXPECT_EQ(read(dot.link).rfind("digraph", 0), 0u) << read(dot.link);
  EXPECT_NE(read(lp.link).find("Maximize"), std::string::npos);
  EXPECT_EQ(count_lines(read(sets.link)), 3);
  EXPECT_NE(read(svg.link).find("</svg>"), std::string::npos);
}

}  // namespace
}  // namespace warpspan
