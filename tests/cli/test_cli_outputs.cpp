// Nothing lost (issue 41): a result that could not be written is exit 2 with one line saying so,
// never a silent 0.
#include <gtest/gtest.h>

#include <string>

#include "cli/cli_util.hpp"

namespace warpspan {
namespace {

using test::cli_result;
using test::count_lines;
using test::run_warpspan;

const std::string source = WARPSPAN_SOURCE_DIR;
const std::string wcet_args = "wcet --cfg " + source + "/data/wcet/fig4.cfg.json --trace " + source + "/data/wcet/fig4.trace";

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

}  // namespace
}  // namespace warpspan
