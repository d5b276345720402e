// What `wcet` refuses or warns about (issue 21): no recursion as deep as the input, no estimate below
// an observed time without a word, CFG keys and duplicates, skipped simulator lines, the trace size
// limit, conflicting options, file content quoted in messages and no CUDA device for wcet-collect.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <regex>

#include "cli/cli_util.hpp"
#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/io/wcet_svg.hpp"
#include "warpspan/wcet/calc.hpp"
#include "warpspan/wcet/trace.hpp"
#include "wcet_test_util.hpp"

namespace warpspan::wcet {
namespace {

using warpspan::test::count_lines;
using warpspan::test::run_warpspan;
using warpspan::test::scratch;

using test::data;
using test::expect_refused;
using test::write;

/// True when every byte is printable ASCII or a newline.
bool printable(const std::string& s) {
  for (const char c : s)
    if (c != '\n' && (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) >= 0x7f)) return false;
  return true;
}

/// A loop b5 <-> b6 between b1 and b7, an Ipoint on every block; the warp goes round it twice
/// (i1 -> i5 10, i5 -> i6 3, i6 -> i5 7, i5 -> i7 10: 40 in all).
const char* loop_cfg = R"({"name": "loop", "entry": "b1", "exit": "b7", "blocks": ["b1", "b5", "b6", "b7"],
  "edges": [["b1", "b5"], ["b5", "b6"], ["b6", "b5"], ["b5", "b7"]],
  "ipoints": {"b1": "i1", "b5": "i5", "b6": "i6", "b7": "i7"}})";
const char* loop_trace =
    "0 0 0 0 i1 0\n0 0 0 0 i5 10\n0 0 0 0 i6 13\n0 0 0 0 i5 20\n0 0 0 0 i6 23\n"
    "0 0 0 0 i5 30\n0 0 0 0 i7 40\n";

// Item 1: the enumeration went one call deeper per edge of the path and died at b5=100000.

TEST(WcetEnumerate, LoopBoundOf100000NeedsNoDeepStack) {
  const auto p = test::program_of(loop_cfg);
  wcet_options o;
  o.method = wcet_method::enumerate;
  o.loop_bounds["b5"] = 100000;

  const auto r = analyse_wcet(p, test::traces_of(p, loop_trace), o);

  EXPECT_EQ(r.method, "enumerate");
  EXPECT_EQ(r.z_warp, 10 + 100000 * (3 + 7) + 10);
}

TEST(WcetEnumerate, CliLoopBoundOf100000) {
  const std::string cfg = write(".json", loop_cfg), trace = write(".trace", loop_trace);

  const auto r =
      run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --method enumerate --loop-bound b5=100000 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["z_warp"], 1000020);
}

TEST(WcetEnumerate, TooManyPathsIsRefusedNotACrash) {
  // Two loops one after the other: (N + 1)^2 paths, beyond the enumeration's budget.
  const std::string cfg =
      write(".json", R"({"name": "two", "entry": "a", "exit": "z", "blocks": ["a", "h", "b", "g", "c", "z"],
    "edges": [["a", "h"], ["h", "b"], ["b", "h"], ["h", "g"], ["g", "c"], ["c", "g"], ["g", "z"]],
    "ipoints": {"a": "a", "h": "h", "b": "b", "g": "g", "c": "c", "z": "z"}})");
  const std::string trace = write(".trace",
                                  "0 0 0 0 a 0\n0 0 0 0 h 1\n0 0 0 0 b 2\n0 0 0 0 h 3\n0 0 0 0 g 4\n"
                                  "0 0 0 0 c 5\n0 0 0 0 g 6\n0 0 0 0 z 7\n");

  expect_refused(
      "wcet --cfg " + cfg + " --trace " + trace + " --method enumerate --loop-bound h=100000 --loop-bound g=100000",
      {"--method enumerate", "20000000", "--method ilp"});
}

TEST(WcetEnumerate, AgreesWithTheTreeOnFig1) {
  const auto p = test::program_of(test::fig1_cfg);
  std::ifstream in(data + "fig1.trace");
  const std::string text((std::istreambuf_iterator<char>(in)), {});
  const auto traces = test::traces_of(p, text);
  wcet_options tree, walk;
  tree.method = wcet_method::tree;
  walk.method = wcet_method::enumerate;

  EXPECT_EQ(analyse_wcet(p, traces, walk).z_warp, analyse_wcet(p, traces, tree).z_warp);
  EXPECT_EQ(analyse_wcet(p, traces, walk).z_warp, 31);
}

// Issue 41: the tree-based calculation wrapped a loop bound x a long body around 2^64 and printed
// the rest with exit 0, where the ILP and the enumeration refuse.
TEST(WcetTree, EstimateBeyond64BitsIsRefusedAsByTheOtherMethods) {
  // i5 -> i6 takes 10^18 cycles, i6 -> i5 10: 100 iterations are 100 (10^18 + 10) > 2^63.
  const std::string cfg = write(".json", loop_cfg),
                    trace = write(".trace",
                                  "0 0 0 0 i1 0\n0 0 0 0 i5 10\n0 0 0 0 i6 1000000000000000010\n"
                                  "0 0 0 0 i5 1000000000000000020\n0 0 0 0 i7 1000000000000000030\n");
  const std::string args = "wcet --cfg " + cfg + " --trace " + trace + " --loop-bound b5=100 --method ";

  expect_refused(args + "tree", {"does not fit 64 bits"});
  expect_refused(args + "enumerate", {"does not fit 64 bits"});
  if (ipet_compiled()) expect_refused(args + "ilp", {"does not fit 64 bits"});
  // 9 iterations fit: 10 + 9 (10^18 + 10) + 10 by the tree, as by hand.
  const auto fits = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --loop-bound b5=9 --method tree --json");
  ASSERT_EQ(fits.code, 0) << fits.err;
  EXPECT_EQ(nlohmann::json::parse(fits.out)["z_warp"].get<std::int64_t>(), 9000000000000000110);
}

// Item 4: an estimate below an observed time is never printed silently.

TEST(WcetSafety, LoopBoundBelowTheObservedIterationsIsRefused) {
  const std::string cfg = write(".json", loop_cfg), trace = write(".trace", loop_trace);

  expect_refused("wcet --cfg " + cfg + " --trace " + trace + " --loop-bound b5=1",
                 {"--loop-bound b5=1", "2 iterations", "loop b5"});
  expect_refused("wcet --cfg " + cfg + " --trace " + trace + " --loop-bound b5=0 --method tree",
                 {"b5=0", "2 iterations"});
  EXPECT_EQ(run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --loop-bound b5=2").code, 0);
}

TEST(WcetSafety, ProbeCostAboveTheShortestTransitionIsRefused) {
  const std::string cfg = write(".json", loop_cfg), trace = write(".trace", loop_trace);

  // i5 -> i6 takes 3 cycles (line 3): a probe of 4 would make it 0.
  expect_refused("wcet --cfg " + cfg + " --trace " + trace + " --probe-cost 4",
                 {"--probe-cost 4", "shortest observed transition, 3 cycles", ".trace:3"});
  const auto r = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --probe-cost 3 --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["probe_cost"], 3);
  EXPECT_EQ(nlohmann::json::parse(r.out)["z_warp"], 40 - 6 * 3);
}

std::string binary_loop_trace(std::int64_t probe_cost) {
  const auto p = test::program_of(loop_cfg);
  const auto set = test::traces_of(p, loop_trace);
  return binary_trace(p.ipoints.names, set.records, probe_cost);
}

TEST(WcetSafety, AbsurdOrNegativeHeaderProbeCostIsAMalformedHeader) {
  const std::string cfg = write(".json", loop_cfg);
  const std::string huge = write("_huge.bin", binary_loop_trace(std::int64_t{1} << 62));
  const std::string negative = write("_neg.bin", binary_loop_trace(-5));

  expect_refused("wcet --cfg " + cfg + " --trace " + huge + " --probe-cost auto",
                 {"_huge.bin", "malformed binary trace header", "4611686018427387904"});
  expect_refused("wcet --cfg " + cfg + " --trace " + negative, {"_neg.bin", "malformed binary trace header", "-5"});
  // -1 is "not measured": nothing subtracted.
  const auto r = run_warpspan("wcet --cfg " + cfg + " --trace " + write("_none.bin", binary_loop_trace(-1)) +
                              " --probe-cost auto --json");
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["probe_cost"], 0);
}

TEST(WcetSafety, HeaderProbeCostAboveTheShortestTransitionIsCutWithAWarning) {
  const std::string cfg = write(".json", loop_cfg), bin = write(".bin", binary_loop_trace(5));

  const auto r = run_warpspan("wcet --cfg " + cfg + " --trace " + bin + " --probe-cost auto --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["probe_cost"], 3);
  EXPECT_EQ(j["z_warp"], 40 - 6 * 3);
  EXPECT_NE(r.err.find("warning: the binary trace's empty-probe cost, 5 cycles"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("3 cycles subtracted instead"), std::string::npos) << r.err;
  ASSERT_GE(j["warnings"].size(), 1u);
}

TEST(WcetSafety, JsonAndTextNameTheProbeCost) {
  const std::string cfg = write(".json", loop_cfg), bin = write(".bin", binary_loop_trace(2));

  const auto j = run_warpspan("wcet --cfg " + cfg + " --trace " + bin + " --probe-cost auto --json");
  const auto t = run_warpspan("wcet --cfg " + cfg + " --trace " + bin + " --probe-cost auto");
  const auto none = run_warpspan("wcet --cfg " + cfg + " --trace " + bin + " --json");

  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["probe_cost"], 2);
  EXPECT_NE(t.out.find("probe cost subtracted: 2 cycles per transition"), std::string::npos) << t.out;
  EXPECT_EQ(nlohmann::json::parse(none.out)["probe_cost"], 0);
}

TEST(WcetSafety, WithAProbeCostTheWarningsCompareWithTheHwmtNetOfTheProbes) {
  // One warp, 9 cycles; with 2 cycles of probe taken off each of its two transitions Z_warp is 5,
  // and so is the HWMT without the probes: Z_dynamic = Z_hybrid = 5 do not fall below what the trace
  // shows of the kernel without its probes (the raw HWMT, 9, includes them: no warning against it).
  const std::string cfg = write(".json", test::fig1_cfg);
  const std::string trace = write(".trace", "0 0 0 0 i1 0\n0 0 0 0 i3 5\n0 0 0 0 i4 9\n");

  const auto r = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --probe-cost 2 --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["z_warp"], 5);
  EXPECT_EQ(j["hwmt"], 9);
  EXPECT_EQ(j["hwmt_net"], 5);
  EXPECT_TRUE(j["warnings"].empty()) << r.err;
  EXPECT_EQ(r.err, "");
  const auto text = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --probe-cost 2");
  EXPECT_NE(text.out.find("HWMT net"), std::string::npos) << text.out;
  // Without the probe cost the two HWMTs are one.
  const auto quiet = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --json");
  EXPECT_EQ(quiet.err, "");
  EXPECT_EQ(nlohmann::json::parse(quiet.out)["hwmt_net"], 9);
  EXPECT_TRUE(nlohmann::json::parse(quiet.out)["warnings"].empty());
}

TEST(WcetSafety, ConcurrencyEstimateBelowTheHwmtIsAWarning) {
  // Three warps one after another on one SM, 10 cycles each (5 + 5), with a cycle between them:
  // three waves of one warp, so Z_hybrid = 3 x Z_warp leaves out the gaps. Without probes: Z_warp
  // 10, Z_hybrid 30 below the HWMT 32; Z_dynamic = 10 + 22 = 32 is not. With 2 cycles of probe a
  // transition: Z_warp 6, Z_hybrid 18 below the net HWMT 22 + 6 = 28; Z_dynamic 28 is not.
  const std::string cfg = write(".json", test::fig1_cfg);
  const std::string trace = write(".trace",
                                  "0 0 0 0 i1 0\n0 0 0 0 i3 5\n0 0 0 0 i4 10\n"
                                  "0 0 0 1 i1 11\n0 0 0 1 i3 16\n0 0 0 1 i4 21\n"
                                  "0 0 0 2 i1 22\n0 0 0 2 i3 27\n0 0 0 2 i4 32\n");

  const auto raw = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --json");
  ASSERT_EQ(raw.code, 0) << raw.err;
  auto j = nlohmann::json::parse(raw.out);
  EXPECT_EQ(j["z_hybrid"], 30);
  EXPECT_EQ(j["z_dynamic"], 32);
  EXPECT_EQ(j["hwmt"], 32);
  ASSERT_EQ(j["warnings"].size(), 1u);
  EXPECT_NE(raw.err.find("warning: Z_hybrid 30 is below the observed high-water-mark time 32: it underestimates"),
            std::string::npos)
      << raw.err;

  const auto net = run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --probe-cost 2 --json");
  ASSERT_EQ(net.code, 0) << net.err;
  j = nlohmann::json::parse(net.out);
  EXPECT_EQ(j["z_warp"], 6);
  EXPECT_EQ(j["z_hybrid"], 18);
  EXPECT_EQ(j["z_dynamic"], 28);
  EXPECT_EQ(j["hwmt_net"], 28);
  ASSERT_EQ(j["warnings"].size(), 1u);
  EXPECT_NE(net.err.find("warning: Z_hybrid 18 is below the observed high-water-mark time 28 net of the probes' "
                         "cost (32 with them)"),
            std::string::npos)
      << net.err;
}

TEST(WcetSafety, ZWarpCoversTheLongestObservedWarpOnThePapersExamples) {
  for (const char* name : {"fig1", "fig4"}) {
    const auto r =
        run_warpspan(std::string("wcet --cfg ") + data + name + ".cfg.json --trace " + data + name + ".trace --json");
    ASSERT_EQ(r.code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_GE(j["z_warp"].get<std::int64_t>(), j["longest_wst"].get<std::int64_t>()) << name;
    EXPECT_GE(j["z_dynamic"].get<std::int64_t>(), j["hwmt"].get<std::int64_t>()) << name;
    EXPECT_TRUE(j["warnings"].empty()) << name;
  }
}

// Item 17: CFG files refuse unknown keys and duplicates.

TEST(WcetCfgFile, UnknownKeyDuplicateEdgeAndControlCharactersAreRefused) {
  const std::string trace = data + "fig1.trace";
  const std::string base = R"("name": "k", "entry": "a", "exit": "c", "blocks": ["a", "b", "c"], )";
  const auto cfg = [&](const std::string& text) { return write(".json", "{" + base + text + "}"); };

  expect_refused("wcet --cfg " + cfg(R"("edges": [["a", "b"], ["b", "c"]], "ipoints": {"a": "i1", "c": "i4"},
                 "loop_bounds": {"b": 3})") +
                     " --trace " + trace,
                 {".json", "unknown key 'loop_bounds'"});
  expect_refused("wcet --cfg " +
                     cfg(R"("edges": [["a", "b"], ["b", "c"], ["a", "b"]], "ipoints": {"a": "i1", "c": "i4"})") +
                     " --trace " + trace,
                 {".json", "edge 'a' -> 'b' is listed twice"});
  expect_refused("wcet --cfg " + write(".json", R"({"entry": "a", "exit": "c", "blocks": ["a", "b", "a", "c"],
                 "edges": [["a", "b"], ["b", "c"]], "ipoints": {"a": "i1", "c": "i4"}})") +
                     " --trace " + trace,
                 {".json", "block 'a' is listed twice"});
  const auto r =
      run_warpspan("wcet --cfg " + cfg(R"("edges": [["a", "b"], ["b", "c"]], "ipoints": {"a": "i\u0001", "c": "i4"})") +
                   " --trace " + trace);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find(R"('i\x01' holds a control character)"), std::string::npos) << r.err;
}

// Item 15: file content in messages is quoted, printable and short.

TEST(WcetQuote, EscapesNonPrintableBytesAndCutsLongText) {
  EXPECT_EQ(quote_text("i9"), "'i9'");
  EXPECT_EQ(quote_text(std::string("a\0b\xff\n", 5)), R"('a\x00b\xff\x0a')");
  EXPECT_EQ(quote_text("it's a\\b"), R"('it\'s a\\b')");
  EXPECT_EQ(quote_text(std::string(100, 'x'), 10), "'xxxxxxxxxx'...");
  EXPECT_EQ(printable_text("last read: '\x89PNG'"), "last read: '\\x89PNG'");
  EXPECT_EQ(printable_text(std::string(300, 'y'), 4), "yyyy...");
}

TEST(WcetQuote, JsonExcerptDoesNotWriteOutNestedValues) {
  // Writing a value out recurses as deep as it nests: 100000 levels took the stack (task and SM files).
  std::string deep(100000, '[');
  deep += std::string(100000, ']');
  const auto v = nlohmann::json::parse(deep);

  EXPECT_EQ(json_excerpt(v), "[...]");
  EXPECT_EQ(json_excerpt(nlohmann::json::object()), "{}");
  EXPECT_EQ(json_excerpt(nlohmann::json("a\u0001")), R"("a\u0001")");
  EXPECT_EQ(json_excerpt(nlohmann::json(1.5)), "1.5");
  const std::string tasks =
      write(".json", R"({"tasks": [{"name": "a", "wcet": )" + deep + R"(, "deadline": 5, "period": 5}]})");
  expect_refused("dbf " + tasks + " --backend cpu", {"\"wcet\" must be a positive integer", "[...]"});
}

TEST(WcetQuote, BinaryFilesAreNotEchoed) {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe\x01", 20);
  const std::string cfg = write(".json", png);
  const std::string good_cfg = data + "fig1.cfg.json", trace = data + "fig1.trace";
  const std::string text_trace = write(".trace", "0 0 0 0 i1 0\n0 0 0 0 \xff\xfe\x01 5\n");
  const std::string gpgpusim = write(".log", "Issued: PC = 0x0, Warp = 0, SM = 0, cycle = 5\nIssued: PC \x81\x82\n");
  const std::string ptx = write(".ptx", std::string("\x7f"
                                                    "ELF\x02\x01\x01\0\0",
                                                    9));
  const std::string input = write(".in", "1 2 \xc3\x28\x01 4\n");

  for (const std::string& args :
       {"wcet --cfg " + cfg + " --trace " + trace, "wcet --cfg " + good_cfg + " --trace " + text_trace,
        "wcet --cfg " + good_cfg + " --trace " + gpgpusim + " --trace-format gpgpusim",
        "wcet --ptx " + ptx + " --trace " + trace, "inputs --kernel bisect --threads 2 --eval-input " + input}) {
    const auto r = run_warpspan(args);
    EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
    EXPECT_TRUE(printable(r.err)) << args << "\n" << r.err;
    EXPECT_EQ(count_lines(r.err), 1) << args << "\n" << r.err;
  }
  const auto r = run_warpspan("wcet --cfg " + good_cfg + " --trace " + text_trace);
  EXPECT_NE(r.err.find(R"(unknown Ipoint '\xff\xfe\x01')"), std::string::npos) << r.err;
  const auto e = run_warpspan("inputs --kernel bisect --threads 2 --eval-input " + input);
  EXPECT_NE(e.err.find(R"('\xc3(\x01' is not a 32-bit integer)"), std::string::npos) << e.err;
}

// Item 12: simulator lines at PCs without an Ipoint are skipped and counted; --max-trace-mib.

TEST(WcetGpgpusim, LinesAtOtherPcsAreSkippedAndCounted) {
  const std::string cfg = write(".json", R"({"name": "k", "entry": "a", "exit": "c", "blocks": ["a", "b", "c"],
    "edges": [["a", "b"], ["b", "c"], ["a", "c"]], "ipoints": {"a": "0x0000", "b": "0x0040", "c": "0x0080"}})");
  const std::string log = write(".log",
                                "Issued: PC = 0x0000, Warp = 3, SM = 1, cycle = 100\n"
                                "Issued: PC = 0x0008, Warp = 3, SM = 1, cycle = 101\n"
                                "Issued: PC = 0x0040, Warp = 3, SM = 1, cycle = 110\n"
                                "Issued: PC = 0x0048, Warp = 3, SM = 1, cycle = 111\n"
                                "Issued: PC = 0x0050, Warp = 3, SM = 1, cycle = 112\n"
                                "Issued: PC = 0x0080, Warp = 3, SM = 1, cycle = 125\n");

  const auto j = run_warpspan("wcet --cfg " + cfg + " --trace " + log + " --trace-format gpgpusim --json");
  const auto t = run_warpspan("wcet --cfg " + cfg + " --trace " + log + " --trace-format gpgpusim");

  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(nlohmann::json::parse(j.out)["skipped_lines"], 3);
  EXPECT_EQ(nlohmann::json::parse(j.out)["z_warp"], 25);
  EXPECT_NE(t.out.find("simulator lines skipped: 3"), std::string::npos) << t.out;
  expect_refused("wcet --cfg " + cfg + " --trace " + write(".log", "Issued: PC = pc9, Warp = 3, SM = 1, cycle = 1\n") +
                     " --trace-format gpgpusim",
                 {".log:1:", "PC 'pc9' is neither an Ipoint nor an address"});
}

// Issue 41: a warp-scheduler line about an instruction whose numbers do not parse was skipped
// without a word (nor a count), and with it a block's start: a loop iteration vanished.
TEST(WcetGpgpusim, SchedulerLineWithNumbersThatDoNotParseIsRefusedNamingItsLine) {
  std::ifstream in(data + "count_loop.gpgpusim.log");
  const std::string log((std::istreambuf_iterator<char>(in)), {});
  const std::string issued =
      "GPGPU-Sim Cycle 102: WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id 0, dynamic_warp_id 0) issued";
  const std::size_t at = log.find(issued);
  ASSERT_NE(at, std::string::npos);
  const std::string line =
      std::to_string(std::count(log.begin(), log.begin() + static_cast<std::ptrdiff_t>(at), '\n') + 1);
  const std::string args = "wcet --ptx " + data + "count_loop.ptx --trace-format gpgpusim --trace ";
  std::string bad_cycle = log, bad_warp = log, bad_offer = log;
  bad_cycle.replace(
      at, issued.size(),
      "GPGPU-Sim Cycle 1O2: WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id 0, dynamic_warp_id 0) issued");
  bad_warp.replace(
      at, issued.size(),
      "GPGPU-Sim Cycle 102: WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id 0, dynamic_warp_id -1) issued");
  const std::string offer =
      "GPGPU-Sim Cycle 102: WARP_SCHEDULER - Core x - Scheduler 0 - Warp (warp_id 0, dynamic_warp_id 0) has valid";
  const std::size_t offered = log.find(
      "GPGPU-Sim Cycle 102: WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id 0, dynamic_warp_id 0) has valid");
  ASSERT_NE(offered, std::string::npos);
  bad_offer.replace(offered, offer.size(), offer);

  EXPECT_EQ(run_warpspan(args + data + "count_loop.gpgpusim.log").code, 0);
  expect_refused(args + write("_cycle.log", bad_cycle),
                 {"_cycle.log:" + line + ":", "cycle '1O2' is not a non-negative integer"});
  expect_refused(args + write("_warp.log", bad_warp), {"_warp.log:" + line + ":", "dynamic_warp_id '-1' is not"});
  expect_refused(args + write("_offer.log", bad_offer),
                 {"_offer.log:" + std::to_string(std::stoi(line) - 2) + ":", "core 'x' is not"});
}

TEST(WcetTraceSize, MaxTraceMibRaisesTheLimit) {
  std::string text(std::size_t{1} << 20, '#');
  text += "\n0 0 0 0 i1 0\n0 0 0 0 i3 5\n0 0 0 0 i4 9\n";
  const std::string cfg = data + "fig1.cfg.json", trace = write(".trace", text);

  expect_refused("wcet --cfg " + cfg + " --trace " + trace + " --max-trace-mib 1",
                 {"larger than 1 MiB", "--max-trace-mib"});
  EXPECT_EQ(run_warpspan("wcet --cfg " + cfg + " --trace " + trace + " --max-trace-mib 2").code, 0);
  expect_refused("wcet --cfg " + cfg + " --trace " + trace + " --max-trace-mib 0", {"--max-trace-mib", "1..8192"});
  EXPECT_NE(run_warpspan("wcet --help").out.find("--max-trace-mib"), std::string::npos);
}

// Item 21: options that conflict are refused, naming both.

TEST(WcetOptions, ConflictingOptionsAreRefusedNamingBoth) {
  const std::string cfg = write(".json", loop_cfg), trace = write(".trace", loop_trace);
  const std::string run = "wcet --cfg " + cfg + " --trace " + trace;

  expect_refused(run + " --loop-bound b5=3 --loop-bound b5=5", {"--loop-bound b5=3", "--loop-bound b5=5", "loop b5"});
  EXPECT_EQ(run_warpspan(run + " --loop-bound b5=3 --loop-bound b5=3").code, 0);
  expect_refused("wcet --cfg " + cfg + " --trace - --trace - < " + trace,
                 {"--trace - and --trace -", "standard input"});
  expect_refused(run + " --trace " + trace, {"--trace " + trace + " and --trace " + trace});
  expect_refused(run + " --lp " + trace, {"--trace " + trace + " and --lp " + trace});
  expect_refused(run + " --lp " + cfg, {"--cfg " + cfg + " and --lp " + cfg});
  const std::string out = scratch(".out");
  expect_refused(run + " --dot " + out + " --lp " + out, {"--dot " + out + " and --lp " + out});
  expect_refused("wcet-collect reduce_sequential --runs 1 --out " + out + " --cfg-out " + out,
                 {"--out " + out + " and --cfg-out " + out});
  // The trace is intact.
  EXPECT_EQ(run_warpspan(run).code, 0);
}

// Item 7: wcet-collect without a device says so as every command does, with no source path.

TEST(WcetCollectCli, WithoutADeviceSaysNoCudaDevice) {
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device (or the emulation) is present";
  const std::string out = scratch(".bin"), cfg = scratch(".json");

  const auto r = run_warpspan("wcet-collect reduce_sequential --runs 2 --out " + out + " --cfg-out " + cfg);

  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  EXPECT_EQ(r.err.find("internal error"), std::string::npos) << r.err;
  if (cuda_compiled()) EXPECT_NE(r.err.find("no CUDA device"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('/'), std::string::npos) << r.err;
}

TEST(NoSourcePaths, NoMessageIsBuiltFromFileOrLineMacros) {
  // Messages are for users: a source path (__FILE__, std::source_location) has no place in them.
  const std::regex macro(R"(__FILE__|__builtin_FILE|source_location)");
  std::vector<std::string> found;
  for (const char* dir : {"host", "include", "cuda", "python"}) {
    const std::filesystem::path root = std::filesystem::path(WARPSPAN_SOURCE_DIR) / dir;
    if (!std::filesystem::exists(root)) continue;
    for (const auto& f : std::filesystem::recursive_directory_iterator(root)) {
      const auto ext = f.path().extension().string();
      if (!f.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".cu" && ext != ".cuh" && ext != ".h"))
        continue;
      // The CUDA emulation's race reports are for the developers of the kernels, in the emulation
      // build only: they name the source line of the barriers a block's threads wait at.
      if (f.path().parent_path().filename() == "emulation") continue;
      std::ifstream in(f.path());
      std::string line;
      for (int n = 1; std::getline(in, line); ++n)
        if (std::regex_search(line, macro)) found.push_back(f.path().string() + ":" + std::to_string(n) + ": " + line);
    }
  }
  EXPECT_TRUE(found.empty()) << found.front();
}

// Item 22: the timeline's axis has round ticks and its Ipoint names do not run into each other.

TEST(WcetSvg, RoundTicksAndLabelsThatDoNotOverlap) {
  // Ten Ipoints in a chain, one warp taking them 1 cycle apart and then a long last step: the
  // names would sit on top of each other.
  std::string blocks, edges, ipoints, trace;
  for (int k = 0; k < 10; ++k) {
    const std::string b = "b" + std::to_string(k);
    blocks += (k ? ", \"" : "\"") + b + "\"";
    ipoints += (k ? ", \"" : "\"") + b + "\": \"ipoint_" + std::to_string(k) + "\"";
    if (k) edges += std::string(k > 1 ? ", " : "") + "[\"b" + std::to_string(k - 1) + "\", \"" + b + "\"]";
    trace += "0 0 0 0 ipoint_" + std::to_string(k) + " " + std::to_string(k < 9 ? 1000 + k : 1347) + "\n";
  }
  const auto p = test::program_of(R"({"name": "chain", "entry": "b0", "exit": "b9", "blocks": [)" + blocks +
                                  R"(], "edges": [)" + edges + R"(], "ipoints": {)" + ipoints + "}}");
  const auto set = test::traces_of(p, trace);
  const auto r = analyse_wcet(p, set, {});
  const auto wsts = slice_traces(set);

  const std::string svg = wcet_timeline_svg(r.concurrency.sm_runs.at(0), wsts, p.ipoints.names, "chain");

  // Ticks every 50 cycles over a span of 347: 0, 50, ..., 300.
  const std::regex tick(R"(<text class='tick' x='([0-9.e+-]+)'[^>]*>([0-9]+)</text>)");
  std::vector<long> values;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), tick); it != std::sregex_iterator(); ++it)
    values.push_back(std::stol((*it)[2]));
  EXPECT_EQ(values, (std::vector<long>{0, 50, 100, 150, 200, 250, 300})) << svg;
  // Labels in one row: each starts after the room the one before it takes.
  const std::regex label(R"(<text class='ipoint' x='([0-9.e+-]+)' y='([0-9.e+-]+)'[^>]*>([^<]*)</text>)");
  std::map<std::string, std::vector<std::pair<double, std::string>>> rows;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), label); it != std::sregex_iterator(); ++it)
    rows[(*it)[2]].push_back({std::stod((*it)[1]), (*it)[3]});
  ASSERT_EQ(rows.size(), 1u) << svg;
  const auto& row = rows.begin()->second;
  EXPECT_GE(row.size(), 2u);   // the first and the last at least
  EXPECT_LT(row.size(), 10u);  // not all ten on top of each other
  for (std::size_t i = 1; i < row.size(); ++i)
    EXPECT_GE(row[i].first - row[i - 1].first, wcet_svg_label_width(row[i - 1].second)) << svg;
  EXPECT_GE(wcet_svg_label_width("ipoint_0"), 5.0 * 8);
}

}  // namespace
}  // namespace warpspan::wcet
