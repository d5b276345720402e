// PTX import: classification table, walk rules, overrides, errors, and the Voronoi files of data/kernels.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/ptx.hpp"

namespace warpspan {
namespace {

const std::string kernels_dir = std::string(WARPSPAN_SOURCE_DIR) + "/data/kernels/";

std::string walk(std::string_view text, const ptx_options& options = {}) {
  return to_run_length(import_ptx(text, options, "t.ptx").kernel);
}

using test::error_of;

TEST(PtxClassify, DefaultTable) {
  const std::map<std::string, unit> none;
  const std::pair<const char*, unit> table[] = {
      {"ld.param.u64", unit::C},
      {"ld.const.f32", unit::C},
      {"ldu.global.f32", unit::L},
      {"bar.sync", unit::B},
      {"barrier.sync.aligned", unit::B},
      {"bar.warp.sync", unit::C},
      {"ld.global.f32", unit::L},
      {"st.shared.u32", unit::L},
      {"atom.global.add.u32", unit::L},
      {"sin.approx.f32", unit::S},
      {"rsqrt.approx.f32", unit::S},
      {"rcp.rn.f32", unit::C},
      {"sqrt.rn.f64", unit::D},
      {"add.f64", unit::D},
      {"fma.rn.f32", unit::C},
      {"mov.u32", unit::C},
      {"setp.ge.f32", unit::C},
      {"bra", unit::C},
      {"ld.global.f64", unit::L},
      {"cp.async.ca.shared.global", unit::L},
      {"ex2.approx.ftz.f32", unit::S},
      {"rcp.approx.ftz.f64", unit::S},
      {"cvt.rn.f64.f32", unit::D},
      {"setp.lt.f64", unit::D},
      {"mov.b64", unit::C},
      {"cvta.to.global.u64", unit::C},
      {"selp.f32", unit::C},
  };
  for (const auto& [opcode, expected] : table)
    EXPECT_EQ(letter(classify_opcode(opcode, none)), letter(expected)) << opcode;
}

TEST(PtxClassify, OverridesFullOpcodeBeforeBase) {
  const auto overrides = parse_ptx_overrides("mov=L, mov.f32=D");
  EXPECT_EQ(classify_opcode("mov.u32", overrides), unit::L);
  EXPECT_EQ(classify_opcode("mov.f32", overrides), unit::D);
  EXPECT_EQ(classify_opcode("add.f32", overrides), unit::C);
}

TEST(PtxOverrides, Parse) {
  const auto m = parse_ptx_overrides("mov=L,mul.f32=D");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m.at("mov"), unit::L);
  EXPECT_EQ(m.at("mul.f32"), unit::D);
  EXPECT_TRUE(parse_ptx_overrides("").empty());
  for (const char* bad : {"mov", "mov=X", "=L", "mov=LL", "mov=L,,add=C", "mov=L,mov=C"})
    EXPECT_THROW(parse_ptx_overrides(bad), input_error) << bad;
}

TEST(PtxWalk, VoronoiReconstructionIsThePaperString) {
  // The paper's string is the first pass of the loop: the lines up to its branch back (66).
  ptx_options o;
  o.last_line = 66;
  const auto r = import_ptx_file(kernels_dir + "voronoi_fig11.ptx", o);
  EXPECT_EQ(to_run_length(r.kernel), "5L9C2L9C");
  EXPECT_EQ(r.kernel.size(), 25u);
  EXPECT_EQ(r.entry, "voronoi_fig11");
  EXPECT_NE(r.stop_reason.find("range"), std::string::npos) << r.stop_reason;
  EXPECT_EQ(r.trace.front().opcode, "ld.global.u64");
  EXPECT_EQ(r.trace.back().opcode, "add.u64");
  // The whole kernel: one pass of the loop, its branch back, the code after it to `ret`.
  const auto whole = import_ptx_file(kernels_dir + "voronoi_fig11.ptx", {});
  EXPECT_EQ(to_run_length(whole.kernel), "5L9C2L15CLC");
  EXPECT_NE(whole.stop_reason.find("ret at line 76"), std::string::npos) << whole.stop_reason;
  ASSERT_EQ(whole.loops.size(), 1u);
  EXPECT_EQ(whole.loops[0].head_line, 53);
  EXPECT_EQ(whole.loops[0].back_line, 67);
  EXPECT_EQ(whole.loops[0].passes, 1);
}

TEST(PtxWalk, VoronoiTextFileMatchesReconstruction) {
  std::ifstream in(kernels_dir + "voronoi.txt");
  std::string text;
  std::getline(in, text);
  EXPECT_EQ(to_run_length(parse_kernel_string(text)), "5L9C2L9C");
}

TEST(PtxWalk, NvccOutputImports) {
  const auto r = import_ptx_file(kernels_dir + "voronoi_fig10_sm90.ptx", {});
  EXPECT_EQ(r.entry, "voronoi");
  EXPECT_FALSE(r.kernel.empty());
  EXPECT_NE(r.stop_reason.find("ret"), std::string::npos) << r.stop_reason;
}

TEST(PtxWalk, ConditionalBranchFallsThrough) {
  const char* text =
      "ld.global.f32 %f1, [a];\n"
      "@%p1 bra Skip;\n"
      "add.f32 %f1, %f1, %f1;\n"
      "Skip:\n"
      "st.global.f32 [a], %f1;\n";
  const auto r = import_ptx(text, {}, "t.ptx");
  EXPECT_EQ(to_run_length(r.kernel), "L2CL");
  EXPECT_EQ(r.trace.size(), 4u);
  EXPECT_EQ(r.trace[1].opcode, "bra");
  EXPECT_EQ(r.trace[1].line, 2);
}

TEST(PtxWalk, ForwardUnconditionalBranchJumps) {
  const char* text =
      "ld.global.f32 %f1, [a];\n"
      "bra.uni Later;\n"
      "sin.approx.f32 %f1, %f1;\n"
      "sin.approx.f32 %f1, %f1;\n"
      "Later: add.f64 %fd1, %fd1, %fd1;\n";
  EXPECT_EQ(walk(text), "LCD");
}

TEST(PtxWalk, UnconditionalBackEdgeFallsThroughAfterItsPasses) {
  // A loop left by a guarded branch inside it ends in an unconditional branch back: after its
  // passes the walk goes on after it (the exit is taken on the last pass), to the store.
  const char* text =
      "mov.u32 %r1, 0;\n"
      "Loop:\n"
      "ld.global.u32 %r2, [a];\n"
      "add.u32 %r1, %r1, 1;\n"
      "bra Loop;\n"
      "st.global.u32 [a], %r1;\n";
  const auto r = import_ptx(text, {}, "t.ptx");
  EXPECT_EQ(to_run_length(r.kernel), "CL2CL");
  EXPECT_NE(r.stop_reason.find("end of"), std::string::npos) << r.stop_reason;
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].head_line, 3);
  EXPECT_EQ(r.loops[0].back_line, 5);
  EXPECT_EQ(r.loops[0].passes, 1);
}

TEST(PtxWalk, GuardedLoopsAreWalked) {
  // nvcc guards a loop with `@p bra BODY; bra.uni SKIP;`: the walk enters the loop rather than
  // jumping past it, walks its passes, and goes on to the store and ret.
  const char* text =
      "ld.global.u32 %r1, [a];\n"   // 1
      "@%p1 bra BODY;\n"            // 2
      "bra.uni SKIP;\n"             // 3
      "BODY:\n"                     // 4
      "sin.approx.f32 %f1, %f1;\n"  // 5
      "@%p2 bra BODY;\n"            // 6
      "SKIP:\n"                     // 7
      "st.global.u32 [a], %r1;\n"   // 8
      "ret;\n";                     // 9
  const auto r = import_ptx(text, {}, "t.ptx");
  EXPECT_EQ(to_run_length(r.kernel), "LCSCLC");  // L, @p bra (taken), sin, @q bra, st, ret
  ASSERT_EQ(r.loops.size(), 1u);
  EXPECT_EQ(r.loops[0].passes, 1);
  ptx_options o;
  o.loop_passes = 3;
  EXPECT_EQ(walk(text, o), "LCSCSCSCLC");
  // A loop the path jumps past (no guard into it) is reported with no pass.
  const char* skipped =
      "bra.uni END;\n"          // 1
      "TOP:\n"                  // 2
      "add.u32 %r1, %r1, 1;\n"  // 3
      "@%p1 bra TOP;\n"         // 4
      "END:\n"                  // 5
      "ret;\n";                 // 6
  const auto s = import_ptx(skipped, {}, "t.ptx");
  EXPECT_EQ(to_run_length(s.kernel), "2C");
  ASSERT_EQ(s.loops.size(), 1u);
  EXPECT_EQ(s.loops[0].head_line, 3);
  EXPECT_EQ(s.loops[0].back_line, 4);
  EXPECT_EQ(s.loops[0].passes, 0);
}

TEST(PtxWalk, DefaultBodyIsTheFirstEntry) {
  // With -rdc=true or a __device__ function first, a .func precedes the kernel: the default body is
  // the first .entry, not the first body.
  const char* text =
      ".func (.param .b32 r) helper(.param .b32 x)\n"
      "{\n"
      "  sin.approx.f32 %f1, %f1;\n"
      "  ret;\n"
      "}\n"
      ".visible .entry kernel(.param .u64 a)\n"
      "{\n"
      "  ld.global.u32 %r1, [a];\n"
      "  ret;\n"
      "}\n";
  const auto r = import_ptx(text, {}, "t.ptx");
  EXPECT_EQ(r.entry, "kernel");
  EXPECT_EQ(to_run_length(r.kernel), "LC");
  ptx_options o;
  o.entry = "helper";
  EXPECT_EQ(walk(text, o), "SC");
}

TEST(PtxWalk, LoopPassesRepeatTheBody) {
  // Unconditional back-edge: N passes walk the body N times, taking the branch N - 1 times, then
  // fall through it (each counted).
  const char* text =
      "mov.u32 %r1, 0;\n"
      "Loop:\n"
      "ld.global.u32 %r2, [a];\n"
      "add.u32 %r1, %r1, 1;\n"
      "bra Loop;\n";
  ptx_options o;
  o.loop_passes = 3;
  EXPECT_EQ(walk(text, o), "CL2CL2CL2C");  // C, then L C C three times (run-length)
  // Nested conditional loops (as nvcc writes them): the inner loop runs its passes on every pass of
  // the outer one, then each falls through.
  const char* nested =
      "Outer:\n"
      "ld.global.u32 %r2, [a];\n"
      "Inner:\n"
      "sin.approx.f32 %f1, %f1;\n"
      "@%p1 bra Inner;\n"
      "add.f64 %fd1, %fd1, %fd1;\n"
      "@%p2 bra Outer;\n"
      "st.global.u32 [a], %r1;\n";
  EXPECT_EQ(walk(nested), "LSCDCL");
  o.loop_passes = 2;
  // Outer pass: L, S C S C (inner twice), D C; second outer pass the same; then the store.
  EXPECT_EQ(walk(nested, o), "LSCSCDCLSCSCDCL");
}

TEST(PtxWalk, BranchToItselfIsABackEdge) {
  EXPECT_EQ(walk("ld.global.u32 %r1, [a];\nSpin: bra Spin;\nadd.u32 %r1, %r1, 1;\n"), "L2C");
}

TEST(PtxWalk, RetAndExitStopAndCount) {
  EXPECT_EQ(walk("ld.global.u32 %r1, [a];\nret;\nadd.u32 %r1, %r1, 1;\n"), "LC");
  EXPECT_EQ(walk("exit;\nadd.u32 %r1, %r1, 1;\n"), "C");
  // A guarded ret is a conditional transfer: counted, not taken.
  EXPECT_EQ(walk("@%p1 ret;\nld.global.u32 %r1, [a];\n"), "CL");
}

TEST(PtxWalk, LineRange) {
  const char* text =
      "ld.global.f32 %f1, [a];\n"   // 1
      "ld.global.f32 %f2, [b];\n"   // 2
      "add.f32 %f3, %f1, %f2;\n"    // 3
      "mul.f32 %f3, %f3, %f3;\n"    // 4
      "st.global.f32 [c], %f3;\n";  // 5
  ptx_options o;
  o.first_line = 2;
  o.last_line = 4;
  const auto r = import_ptx(text, o, "t.ptx");
  EXPECT_EQ(to_run_length(r.kernel), "L2C");
  EXPECT_NE(r.stop_reason.find("range"), std::string::npos) << r.stop_reason;
  o.first_line = 4;
  o.last_line = 0;
  EXPECT_EQ(walk(text, o), "CL");
}

TEST(PtxWalk, SkipsDirectivesCommentsAndParameterLists) {
  const char* text =
      ".version 8.0\n"
      ".target sm_90 // comment\n"
      "/* a block\n comment; with ld.global.f32 in it */\n"
      ".visible .entry first(\n"
      "  .param .u64 first_param_0\n"
      ")\n"
      "{\n"
      "  .reg .f32 %f<4>;\n"
      "  ld.param.u64 %rd1, [first_param_0]; add.f32 %f1, %f1, %f1;\n"
      "  { .reg .b32 inner; mov.b32 inner, 1; }\n"
      "  ret;\n"
      "}\n"
      ".visible .entry second()\n"
      "{\n"
      "  sin.approx.f32 %f1, %f1;\n"
      "  ret;\n"
      "}\n";
  const auto r = import_ptx(text, {}, "t.ptx");
  EXPECT_EQ(r.entry, "first");
  EXPECT_EQ(to_run_length(r.kernel), "4C");  // ld.param: the constant bank, C
  EXPECT_EQ(r.trace[0].line, 10);
  ptx_options o;
  o.entry = "second";
  EXPECT_EQ(walk(text, o), "SC");
  o.entry.clear();
  o.first_line = 16;  // inside `second`: that entry is chosen
  EXPECT_EQ(walk(text, o), "SC");
}

TEST(PtxWalk, OverrideChangesTheString) {
  const std::string path = kernels_dir + "voronoi_fig11.ptx";
  ptx_options o;
  o.overrides = parse_ptx_overrides("mov=L");
  o.last_line = 66;  // the loop's first pass
  // The five movs (md, mdp, i before the loop; md, mdp in the loop body) become loads.
  EXPECT_EQ(to_run_length(import_ptx_file(path, o).kernel), "5L4C3L2C2L6C2LC");
}

TEST(PtxErrors, MissingSemicolon) {
  const std::string msg =
      error_of([] { import_ptx("ld.global.f32 %f1, [a];\nadd.f32 %f1, %f1, %f1\nret;\n", {}, "v.ptx"); });
  EXPECT_NE(msg.find("v.ptx:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("';'"), std::string::npos) << msg;
}

TEST(PtxErrors, UndefinedLabel) {
  const std::string msg = error_of([] { import_ptx("mov.u32 %r1, 0;\n@%p1 bra Nowhere;\nret;\n", {}, "v.ptx"); });
  EXPECT_NE(msg.find("v.ptx:2:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("Nowhere"), std::string::npos) << msg;
}

TEST(PtxErrors, UnknownEntryListsEntries) {
  ptx_options o;
  o.entry = "nope";
  const std::string msg = error_of([&] { import_ptx_file(kernels_dir + "voronoi_fig11.ptx", o); });
  EXPECT_NE(msg.find("nope"), std::string::npos) << msg;
  EXPECT_NE(msg.find("voronoi_fig11"), std::string::npos) << msg;
}

TEST(PtxErrors, MissingFile) {
  const std::string msg = error_of([] { import_ptx_file("/nonexistent/dir/k.ptx", {}); });
  EXPECT_NE(msg.find("PTX file /nonexistent/dir/k.ptx: cannot open the file"), std::string::npos) << msg;
}

TEST(PtxErrors, NothingWalked) {
  EXPECT_NE(error_of([] { import_ptx("", {}, "e.ptx"); }).find("e.ptx"), std::string::npos);
  EXPECT_THROW(import_ptx("// only a comment\n.version 8.0\n", {}, "e.ptx"), input_error);
  EXPECT_THROW(import_ptx(".visible .entry k()\n{\n}\n", {}, "e.ptx"), input_error);
  EXPECT_EQ(walk("Top: bra Top;\n"), "C");  // a branch back to itself, walked once
  ptx_options o;
  o.first_line = 50;
  EXPECT_THROW(import_ptx("ret;\n", o, "e.ptx"), input_error);
  o.first_line = 3;
  o.last_line = 2;
  EXPECT_THROW(import_ptx("ret;\n", o, "e.ptx"), input_error);
}

TEST(PtxErrors, UnclosedComment) {
  const std::string msg = error_of([] { import_ptx("ret;\n/* open\n", {}, "c.ptx"); });
  EXPECT_NE(msg.find("c.ptx:2:"), std::string::npos) << msg;
}

// A kernel that loads its parameters, divides, takes a square root and divides integers.
constexpr const char* arithmetic_ptx = R"(.version 9.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p0, .param .f32 p1)
{
  .reg .b64 %rd<4>;
  .reg .f32 %f<4>;
  .reg .b32 %r<4>;
  ld.param.u64 %rd1, [p0];
  ld.param.f32 %f1, [p1];
  ld.global.f32 %f2, [%rd1];
  div.rn.f32 %f3, %f2, %f1;
  sqrt.approx.ftz.f32 %f3, %f3;
  mov.b32 %r1, %f3;
  div.u32 %r2, %r1, 7;
  st.global.u32 [%rd1], %r2;
  ret;
}
)";

TEST(PtxRules, WithoutAnSmEveryInstructionIsOneOfItsClass) {
  // ld.param x2, ld.global, div, sqrt, mov, div.u32, st, ret.
  EXPECT_EQ(walk(arithmetic_ptx), "2CLCS2CLC");
}

TEST(PtxRules, ASequenceTableCountsWhatTheSmRuns) {
  ptx_options o;
  o.rules.sequences["div.rn.f32"] = parse_kernel_string("S10C");
  o.rules.sequences["div.u32"] = parse_kernel_string("2CS15C");
  o.rules.sequences["sqrt.approx.ftz.f32"] = parse_kernel_string("S");
  const auto r = import_ptx(arithmetic_ptx, o, "t.ptx");
  // ld.param x2 (C), ld.global (L), div.rn.f32 (S10C), sqrt (S), mov (C), div.u32 (2CS15C), st, ret.
  EXPECT_EQ(to_run_length(r.kernel), "2CLS10CS3CS15CLC");
  EXPECT_EQ(r.kernel.size(), 2u + 1 + 11 + 1 + 1 + 18 + 1 + 1);
  EXPECT_EQ(r.by_rule, 2u);  // the sqrt's sequence is its class: not counted as a rule's
  EXPECT_EQ(r.trace.size(), 9u);
  EXPECT_EQ(r.trace[3].opcode, "div.rn.f32");
  EXPECT_EQ(r.trace[3].type, unit::C);
  EXPECT_EQ(to_run_length(r.trace[3].runs_as), "S10C");
}

TEST(PtxRules, ConstantReadsAsTheSmRunsThem) {
  ptx_options o;
  o.rules.constant_reads = kernel_string{};  // operands of the instructions that use them
  EXPECT_EQ(walk(arithmetic_ptx, o), "LCS2CLC");
  o.rules.constant_reads = parse_kernel_string("L");
  EXPECT_EQ(walk(arithmetic_ptx, o), "3LCS2CLC");
}

TEST(PtxRules, AnOverrideComesBeforeTheSmsTable) {
  ptx_options o;
  o.rules.sequences["div.rn.f32"] = parse_kernel_string("S10C");
  o.rules.constant_reads = kernel_string{};
  o.overrides = parse_ptx_overrides("div.rn.f32=S,ld=L");
  EXPECT_EQ(walk(arithmetic_ptx, o), "3L2S2CLC");
}

TEST(PtxRules, AnSmTableThatMakesTheKernelTooLongIsOneLine) {
  ptx_options o;
  o.rules.sequences["div.rn.f32"] = kernel_string(static_cast<std::size_t>(max_kernel_length), unit::C);
  const std::string msg = error_of([&] { import_ptx(arithmetic_ptx, o, "t.ptx"); });
  EXPECT_NE(msg.find("t.ptx:12:"), std::string::npos) << msg;
  EXPECT_NE(msg.find("longer than"), std::string::npos) << msg;
}

}  // namespace
}  // namespace warpspan
