// Issue 25, items 1 and 2: the probe's sites found in the PTX (`// warpspan-ipoint ID`, which
// WARPSPAN_IPOINT puts there) are the Ipoints, named by their ids as the probe's traces name them,
// so a user gives `wcet` their PTX and traces and no CFG; and the probe's records written as traces.
#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/wcet/collect.hpp"
#include "wcet_test_util.hpp"

namespace warpspan::wcet {
namespace {

using test::edge_name;

std::set<std::string> original_edges(const ipg& g) {
  std::set<std::string> out;
  for (const auto& e : g.edges)
    if (!e.divergent) out.insert(edge_name(g, e));
  return out;
}

TEST(WcetProbePtx, NvccListingOfTheHistogramExampleHasItsFiveSitesAsIpoints) {
  // examples/histogram/histogram.cu compiled by nvcc 13.0 (-arch=sm_90 -ptx): Ipoints 0 (first
  // statement), 1 (a tile's start), 2 and 3 (the two sides of the branch), 4 (last statement).
  const std::string path = std::string(WARPSPAN_SOURCE_DIR) + "/examples/histogram/histogram.ptx";
  const auto p = prepare_program(cfg_from_ptx(read_text_file(path, "PTX"), "", path), path);

  std::vector<std::string> names = p.ipoints.names;
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"0", "1", "2", "3", "4"}));
  EXPECT_EQ(p.ipoints.names[p.ipoints.source], "0");
  EXPECT_EQ(p.ipoints.names[p.ipoints.sink], "4");
  // The probe adds no block; nvcc's are: the entry block (0), the loop's preheader, $L__BB0_2 (1),
  // the load of a value (i < n), the `bra.uni $L__BB0_4` after its guarded branch, $L__BB0_5 (2),
  // $L__BB0_4 (3), the latch $L__BB0_6 (the barrier), $L__BB0_7 (4).
  EXPECT_EQ(p.graph.size(), 9u);
  EXPECT_EQ(p.graph.ipoint[p.graph.entry], "0");
  for (const auto& [label, site] : std::vector<std::pair<std::string, std::string>>{
           {"$L__BB0_2", "1"}, {"$L__BB0_5", "2"}, {"$L__BB0_4", "3"}, {"$L__BB0_6", ""}, {"$L__BB0_7", "4"}}) {
    ASSERT_LT(p.graph.find(label), p.graph.size()) << label;
    EXPECT_EQ(p.graph.ipoint[p.graph.find(label)], site) << label;
  }
  ASSERT_EQ(p.ipoints.loops.size(), 1u);
  // A block skips the loop (its first tile starts at n or beyond) or runs it; in a tile a warp
  // whose values all lie at n or beyond takes neither side (1 -> 1, 1 -> 4), else one side each pass.
  EXPECT_EQ(original_edges(p.ipoints),
            (std::set<std::string>{"0->1", "0->4", "1->1", "1->2", "1->3", "1->4", "2->1", "2->4", "3->1", "3->4"}));
}

/// A hand-written listing with probe sites: 7 and 8 in the entry block with no branch between them,
/// 9 on the fall-through side of a branch, 10 where both sides join before the return.
std::string sites_ptx(const std::string& site7 = "7", const std::string& site9 = "9", const std::string& site10 = "10",
                      const std::string& before = "") {
  return ".version 9.0\n.target sm_90\n.address_size 64\n"
         ".visible .entry k(\n\t.param .u64 k_p\n)\n{\n"
         "\t.reg .pred %p<2>;\n\t.reg .b32 %r<3>;\n\t.reg .b64 %rd<2>;\n"
         "\tld.param.u64 %rd1, [k_p];\n" +
         before + "\t// warpspan-ipoint " + site7 +
         "\n\tmov.u32 %r1, 0;\n"
         "\t// warpspan-ipoint 8\n\tsetp.eq.u32 %p1, %r1, 0;\n\t@%p1 bra $L_end;\n"
         "\t// warpspan-ipoint " +
         site9 +
         "\n\tmov.u32 %r1, 1;\n"
         "$L_end:\n" +
         (site10.empty() ? std::string() : "\t// warpspan-ipoint " + site10 + "\n") + "\tmov.u32 %r2, 2;\n\tret;\n}\n";
}

TEST(WcetProbePtx, SitesNameTheirBlocksAndTwoSitesWithoutABranchSplitOne) {
  const auto p = prepare_program(cfg_from_ptx(sites_ptx(), "", "sites.ptx"), "sites.ptx");

  EXPECT_EQ(p.graph.size(), 4u);  // entry (7), 8's part of it, the fall-through (9), $L_end (10)
  EXPECT_EQ(p.ipoints.names, (std::vector<std::string>{"7", "8", "9", "10"}));
  EXPECT_EQ(p.ipoints.names[p.ipoints.source], "7");
  EXPECT_EQ(p.ipoints.names[p.ipoints.sink], "10");
  EXPECT_EQ(original_edges(p.ipoints), (std::set<std::string>{"7->8", "8->9", "8->10", "9->10"}));
}

TEST(WcetProbePtx, ASiteTheCompilerCopiedOrNoSiteAtEntryOrExitIsRefused) {
  const auto refused = [](const std::string& text, const std::string& what) {
    try {
      cfg_from_ptx(text, "", "k.ptx");
      ADD_FAILURE() << "accepted; expected: " << what;
    } catch (const input_error& e) {
      EXPECT_NE(std::string(e.what()).find(what), std::string::npos) << e.what();
    }
  };
  refused(sites_ptx("7", "8"), "WARPSPAN_IPOINT(8) is in two blocks");
  refused(sites_ptx("7", "8"), "#pragma unroll 1");
  refused(sites_ptx("7", "9", ""), "make one the kernel's last statement");
  refused(sites_ptx("7", "9", "10", "\tsetp.eq.u32 %p1, %r1, 1;\n\t@%p1 bra $L_end;\n"), "kernel's first statement");
  refused(sites_ptx("x7"), "without a 32-bit id");
  // Without any site, every block is an Ipoint named by its label, as before.
  std::string plain = sites_ptx();
  for (std::size_t at; (at = plain.find("// warpspan-ipoint")) != std::string::npos;)
    plain.erase(at, plain.find('\n', at) - at);
  const auto g = cfg_from_ptx(plain, "", "plain.ptx");
  EXPECT_EQ(g.ipoint, g.blocks);
}

TEST(WcetProbeTrace, RecordsBecomeTracesNamedByIdsTimedFromEachRunsFirstRecordOnItsSm) {
  // run, sm, cta, warp, id, clock: run 0 on SM 3 from clock 1000, run 1 on SM 5 from 500.
  const std::vector<collected_record> records{{0, 3, 0, 1, 7, 1000}, {0, 3, 0, 1, 8, 1010}, {0, 3, 0, 1, 10, 1040},
                                              {1, 5, 2, 0, 7, 500},  {1, 5, 2, 0, 8, 530},  {1, 5, 2, 0, 9, 560},
                                              {1, 5, 2, 0, 10, 600}};
  const std::string text = probe_text_trace(records, "two runs");
  EXPECT_EQ(text,
            "# two runs\n# clock: sm\n# run sm cta warp ipoint time\n"
            "0 3 0 1 7 0\n0 3 0 1 8 10\n0 3 0 1 10 40\n1 5 2 0 7 0\n1 5 2 0 8 30\n1 5 2 0 9 60\n1 5 2 0 10 100\n");

  // Both forms read back with the structure of sites_ptx(): the same records.
  const auto p = prepare_program(cfg_from_ptx(sites_ptx(), "", "sites.ptx"), "sites.ptx");
  trace_set from_text, from_binary;
  read_trace("t.txt", text, trace_format::text, p.ipoints, from_text);
  read_trace("t.bin", probe_binary_trace(records, 4), trace_format::binary, p.ipoints, from_binary);
  ASSERT_EQ(from_text.records.size(), records.size());
  ASSERT_EQ(from_binary.records.size(), records.size());
  EXPECT_EQ(from_binary.probe_cost, 4);
  for (std::size_t i = 0; i < records.size(); ++i) {
    for (const auto* set : {&from_text, &from_binary}) {
      const auto& r = set->records[i];
      EXPECT_EQ(p.ipoints.names[r.ipoint], std::to_string(records[i].ipoint));
      EXPECT_EQ(r.time, records[i].clock - (records[i].run == 0 ? 1000 : 500));
      EXPECT_EQ(r.sm, records[i].sm);
      EXPECT_EQ(r.cta, records[i].cta);
      EXPECT_EQ(r.warp, records[i].warp);
    }
  }

  // With names, ids index them; an id beyond them is refused.
  EXPECT_NE(probe_text_trace({{0, 0, 0, 0, 1, 5}}, "", {"start", "end"}).find("0 0 0 0 end 0"), std::string::npos);
  EXPECT_THROW(probe_text_trace({{0, 0, 0, 0, 2, 5}}, "", {"start", "end"}), input_error);
}

TEST(WcetProbePtx, StockGpgpusimLinesMapToTheProbeSitesByPtxLine) {
  // A simulator running sites_ptx() (its instructions on lines 11, 13, 15, 16, 18, 21, 22) logs
  // every issue; the blocks start on lines 11 (7), 15 (8), 18 (9), 21 (10), the rest are skipped.
  const auto p = prepare_program(cfg_from_ptx(sites_ptx(), "", "sites.ptx"), "sites.ptx");
  std::string log;
  for (const auto& [cycle, line] :
       std::vector<std::pair<int, int>>{{100, 11}, {102, 13}, {104, 15}, {106, 16}, {108, 18}, {110, 21}, {112, 22}}) {
    const std::string head = "GPGPU-Sim Cycle " + std::to_string(cycle) +
                             ": WARP_SCHEDULER - Core 0 - Scheduler 0 - Warp (warp_id 0, dynamic_warp_id 0) ";
    log += head + "has valid instruction ( PC=0x0" + std::to_string(cycle) + " (_1.ptx:" + std::to_string(line) +
           ") mov.u32 %r1, 0;)\n";
    log += head + "issued 1 instructions\n";
  }
  trace_set set;
  read_trace("sites.log", log, trace_format::gpgpusim, p.ipoints, set);

  // The paper's patched format names PCs only: from PTX none is an Ipoint (PC 0x8 is not probe 8).
  read_trace("patched.log", "Issued: PC = 0x0008, Warp = 0, SM = 0, cycle = 5\n", trace_format::gpgpusim, p.ipoints,
             set);

  ASSERT_EQ(set.records.size(), 4u);
  EXPECT_EQ(set.skipped, 4u);
  const std::vector<std::pair<std::string, std::int64_t>> expected{{"7", 100}, {"8", 104}, {"9", 108}, {"10", 110}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(p.ipoints.names[set.records[i].ipoint], expected[i].first);
    EXPECT_EQ(set.records[i].time, expected[i].second);
  }
}

}  // namespace
}  // namespace warpspan::wcet
