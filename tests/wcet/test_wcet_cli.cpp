// `warpspan wcet` end to end: the shipped examples, the output files, every input format and the
// one-line errors (exit 2) for bad input.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "cli/cli_util.hpp"
#include "warpspan/wcet/trace.hpp"
#include "wcet_test_util.hpp"

namespace warpspan::wcet {
namespace {

using warpspan::test::count_lines;
using warpspan::test::run_warpspan;
using warpspan::test::scratch;

using test::data;
using test::write;

/// Runs the command and checks it failed as a user error: exit 2, one line naming `where`.
void expect_input_error(const std::string& args, const std::string& where, const std::string& what) {
  test::expect_refused(args, {where, what});
}

TEST(WcetCli, Fig4JsonHasEveryEstimate) {
  const auto r = run_warpspan("wcet --cfg " + data + "fig4.cfg.json --trace " + data + "fig4.trace --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["z_warp"], 30);
  EXPECT_EQ(j["z_dynamic"], 37);
  EXPECT_EQ(j["z_hybrid"], 38);
  EXPECT_EQ(j["hwmt"], 34);
  EXPECT_EQ(j["jitter"], 7);
  EXPECT_EQ(j["waves"], 1);
  EXPECT_EQ(j["warps_per_wave"], 3);
  EXPECT_EQ(j["delta"], 4);
  EXPECT_EQ(j["runs"], 2);
  EXPECT_EQ(j["warps"], 6);
  EXPECT_EQ(j["method"], "ilp");
  EXPECT_DOUBLE_EQ(j["overestimation_percent"]["z_dynamic"].get<double>(), 8.8);  // 3/34
  bool found = false;
  for (const auto& e : j["edges"])
    if (e["from"] == "i2" && e["to"] == "i4") found = e["wcet"] == 18 && e["count"] == 1 && e["loop"].is_null();
  EXPECT_TRUE(found);
  EXPECT_EQ(j["divergent_edges"], nlohmann::json::parse(R"([["b2", "b4"], ["b4", "b2"]])"));
}

TEST(WcetCli, Fig1TableNamesTheLoopAndTheEstimate) {
  const auto r = run_warpspan("wcet --cfg " + data + "fig1.cfg.json --trace " + data + "fig1.trace");

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("loop b2: at most 2 iterations per entry (measured)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Z_warp               31  ilp (tree-based: 31)"), std::string::npos) << r.out;
}

TEST(WcetCli, WritesDotLpAndSvg) {
  const std::string dot = scratch(".dot"), lp = scratch(".lp"), dir = scratch("_svg");

  const auto r = run_warpspan("wcet --cfg " + data + "fig4.cfg.json --trace " + data + "fig4.trace --dot " + dot +
                              " --lp " + lp + " --svg-dir " + dir);

  ASSERT_EQ(r.code, 0) << r.err;
  std::ifstream d(dot), l(lp), s(dir + "/run1_sm0.svg");
  const std::string dot_text((std::istreambuf_iterator<char>(d)), {}), lp_text((std::istreambuf_iterator<char>(l)), {}),
      svg_text((std::istreambuf_iterator<char>(s)), {});
  EXPECT_NE(dot_text.find("\"i2\" -> \"i2\" [label=\"0 x0\", style=dashed]"), std::string::npos) << dot_text;
  EXPECT_NE(lp_text.find("Maximize"), std::string::npos);
  // i2 -> i2 iterates (never seen: bound 0); i1 -> i2 and the divergent i3 -> i2 enter.
  EXPECT_NE(lp_text.find("loop_0: + x2 - 0 x0 - 0 x6 <= 0"), std::string::npos) << lp_text;
  EXPECT_NE(svg_text.find("jitter 7"), std::string::npos);
  EXPECT_TRUE(std::filesystem::exists(dir + "/run2_sm0.svg"));
}

TEST(WcetCli, PtxCfgWithALoop) {
  const auto r = run_warpspan("wcet --ptx " + data + "count_loop.ptx --trace " + data + "count_loop.trace --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  // entry -> L18 20, L18 -> loop 10, two iterations of 12, loop -> L23 12, L23 -> ret 27.
  EXPECT_EQ(j["z_warp"], 20 + 10 + 2 * 12 + 12 + 27);
  EXPECT_EQ(j["hwmt"], 90);
  EXPECT_EQ(j["loops"][0]["header"], "$L__BB0_2");
  EXPECT_EQ(j["loops"][0]["bound"], 2);
}

TEST(WcetCli, GpgpusimTracesOneRunPerFileAndReusedWarpSlots) {
  const std::string cfg = write(".json", R"({"name": "k", "entry": "a", "exit": "c", "blocks": ["a", "b", "c"],
    "edges": [["a", "b"], ["b", "c"], ["a", "c"]], "ipoints": {"a": "0x0000", "b": "0x0040", "c": "0x0080"}})");
  // Slot 3 of SM 1 runs two warps one after the other (the second starts at 0x0000 again).
  const std::string t1 = write("1.log",
                               "GPGPU-Sim uArch: something else\n"
                               "Issued: PC = 0x0000, Warp = 3, SM = 1, cycle = 100\n"
                               "Issued: PC = 0x0040, Warp = 3, SM = 1, cycle = 110\n"
                               "Issued: PC = 0x0080, Warp = 3, SM = 1, cycle = 125\n"
                               "Issued: PC = 0x0000, Warp = 3, SM = 1, cycle = 130\n"
                               "Issued: PC = 0x0080, Warp = 3, SM = 1, cycle = 170\n");
  const std::string t2 = write("2.log",
                               "Issued: PC = 0x0, Warp = 0, SM = 0, cycle = 5\n"
                               "Issued: PC = 0x80, Warp = 0, SM = 0, cycle = 9\n");

  const auto r =
      run_warpspan("wcet --cfg " + cfg + " --trace " + t1 + " --trace " + t2 + " --trace-format gpgpusim --json");

  ASSERT_EQ(r.code, 0) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["runs"], 2);
  EXPECT_EQ(j["warps"], 3);
  EXPECT_EQ(j["z_warp"], 40);  // a -> c took 40 in the second warp of slot 3; a -> b -> c at most 25
  EXPECT_EQ(j["hwmt"], 70);
  EXPECT_EQ(j["waves"], 2);
}

TEST(WcetCli, BinaryTraceAndStdin) {
  const auto p = test::program_of(test::fig1_cfg);
  trace_set set;
  read_trace("fig4", R"(0 0 0 0 i1 0
0 0 0 0 i3 5
0 0 0 0 i4 9)",
             trace_format::text, p.ipoints, set);
  const std::string bin = write(".bin", binary_trace(p.ipoints.names, set.records, 2));
  const std::string cfg = write(".json", test::fig1_cfg);

  const auto r = run_warpspan("wcet --cfg " + cfg + " --trace " + bin + " --probe-cost auto --json");
  const auto s = run_warpspan("wcet --cfg " + cfg + " --trace - --json < " + bin);

  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["z_warp"], (5 - 2) + (4 - 2));
  ASSERT_EQ(s.code, 0) << s.err;
  EXPECT_EQ(nlohmann::json::parse(s.out)["z_warp"], 9);
}

TEST(WcetCli, HelpDescribesTheFormats) {
  const auto r = run_warpspan("wcet --help");

  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.out.find("run sm cta warp ipoint time"), std::string::npos);
  EXPECT_NE(r.out.find("--trace-format"), std::string::npos);
}

TEST(WcetCli, BadCfgIsOneLine) {
  const std::string trace = data + "fig1.trace";
  const auto cfg = [&](const std::string& text) { return write(".json", text); };
  const std::string base = R"("name": "k", "entry": "a", "exit": "c", "blocks": ["a", "b", "c"], )";

  expect_input_error("wcet --cfg " + cfg("{" + base + R"("edges": [["a", "x"]], "ipoints": {"a": "i1", "c": "i4"}})") +
                         " --trace " + trace,
                     ".json", "edge target 'x' is not a block");
  expect_input_error("wcet --cfg " + cfg("{" + base + R"("edges": [["a", "b"], ["b", "c"]], "ipoints": {"c": "i4"}})") +
                         " --trace " + trace,
                     ".json", "entry block 'a' has no Ipoint");
  expect_input_error(
      "wcet --cfg " +
          cfg("{" + base + R"("edges": [["a", "b"], ["b", "c"], ["c", "a"]], "ipoints": {"a": "i1", "c": "i4"}})") +
          " --trace " + trace,
      ".json", "exit block 'c' has successors");
  expect_input_error("wcet --cfg " + cfg("{" + base + R"("edges": [["a", "c"]], "ipoints": {"a": "i1", "c": "i4"}})") +
                         " --trace " + trace,
                     ".json", "'b' cannot be reached");
  expect_input_error("wcet --cfg " + cfg(R"({"name": "k", "entry": "a", "exit": "d", "blocks": ["a", "b", "c", "d"],
      "edges": [["a", "b"], ["a", "c"], ["b", "c"], ["c", "b"], ["c", "d"]], "ipoints": {"a": "i1", "d": "i4"}})") +
                         " --trace " + trace,
                     ".json", "irreducible");
  expect_input_error("wcet --cfg " + cfg("{not json") + " --trace " + trace, ".json", "not valid JSON");
  expect_input_error("wcet --cfg /nonexistent/k.json --trace " + trace, "/nonexistent/k.json", "");
  const std::string two_returns = write(".ptx",
                                        ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n"
                                        ".reg .pred %p<2>;\n@%p1 bra L1;\nret;\nL1:\nret;\n}\n");
  expect_input_error("wcet --ptx " + two_returns + " --trace " + trace, ".ptx", "returns from 2 blocks");
  expect_input_error("wcet --ptx " + two_returns + " --entry other --trace " + trace, ".ptx", "no entry 'other'");
}

TEST(WcetCli, BadTraceNamesFileAndLine) {
  const std::string cfg = data + "fig1.cfg.json";
  const auto trace = [&](const std::string& text) { return write(".trace", text); };

  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("# c\n0 0 0 0 i1 0\n0 0 0 0 i9 5\n"),
                     ".trace:3:", "unknown Ipoint 'i9'");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("0 0 0 0 i1 10\n0 0 0 1 i1 0\n0 0 0 0 i3 5\n"),
                     ".trace:3:", "before its previous record's 10");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("0 0 0 0 i1 0\n0 0 0 0 i4 5\n"),
                     ".trace:2:", "goes from Ipoint 'i1' to 'i4'");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("0 0 0 0 i1 0\n0 0 0 0 i2 4\n"),
                     ".trace:2:", "not at the exit's 'i4'");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("0 0 0 0 i2 0\n0 0 0 0 i4 4\n"),
                     ".trace:1:", "not at the entry's 'i1'");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("0 0 0 i1 0\n"), ".trace:1:", "expected 6 fields");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("0 0 -1 0 i1 0\n"), ".trace:1:", "cta");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("WSWCET01\x01"), ".trace", "ends early");
  expect_input_error("wcet --cfg " + cfg + " --trace " + trace("# nothing\n"), "", "no records");
  expect_input_error("wcet --cfg " + cfg + " --trace /nonexistent.trace", "/nonexistent.trace", "");
  expect_input_error("wcet --cfg " + cfg + " --trace " + data + "fig1.trace --loop-bound b2", "--loop-bound",
                     "HEADER=N");
  expect_input_error("wcet --cfg " + cfg + " --trace " + data + "fig1.trace --loop-bound b9=1", "--loop-bound",
                     "not the header");
  expect_input_error("wcet --cfg " + cfg + " --trace " + data + "fig1.trace --method fast", "--method", "fast");
}

// Issue 41: a header claiming more names than the file holds made wcet allocate them all (100
// million: gigabytes) before it found the end; the count is checked against the bytes left first.
TEST(WcetCli, BinaryHeaderClaimingMoreNamesThanItsBytesIsRefusedBeforeReadingThem) {
  const auto header = [](std::uint32_t names) {
    std::string out = "WSWCET01";
    const std::int64_t cost = -1;
    out.append(reinterpret_cast<const char*>(&cost), sizeof cost);
    out.append(reinterpret_cast<const char*>(&names), sizeof names);
    return out;
  };
  // 1,000,000 names claimed, 1,000,000 bytes follow: room for 249,998 empty names and the record count.
  const std::string many = write("_many.bin", header(1'000'000) + std::string(1'000'000, '\0'));
  const std::string huge = write("_huge.bin", header(100'000'000) + std::string(64, '\0'));
  // 2 empty names and no records: exactly the bytes the header needs.
  const std::string fits = write("_fits.bin", header(2) + std::string(16, '\0'));

  expect_input_error("wcet --cfg " + data + "fig1.cfg.json --trace " + many, "_many.bin",
                     "1000000 Ipoint names, but 1000000 bytes follow");
  expect_input_error("wcet --cfg " + data + "fig1.cfg.json --trace " + huge, "_huge.bin",
                     "100000000 Ipoint names, but 64 bytes follow");
  expect_input_error("wcet --cfg " + data + "fig1.cfg.json --trace " + fits, "", "the traces hold no records");
}

}  // namespace
}  // namespace warpspan::wcet
