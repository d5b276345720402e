// 002's worked examples, built from the figures' text: Fig. 1 (tree-based WCET 31), Fig. 2
// (branch-divergent edges), Fig. 4 (Z_warp 30, HWMT 34, jitter 7, Z_dynamic 37, Omega 1, phi 3,
// Delta 4, Z_hybrid 38) and Fig. 6 (Omega 2, phi 3, Delta 8).
#include <gtest/gtest.h>

#include <algorithm>
#include <set>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "wcet_test_util.hpp"

namespace warpspan::wcet {
namespace {

using test::edge_wcet;
using test::fig1_cfg;
using test::fig2_cfg;
using test::fig2_runs;
using test::program_of;
using test::traces_of;

// Fig. 1's two traces: one takes the loop twice, one the other branch (our times; the observed WCETs
// are the figure's).
const char* fig1_trace = R"(
0 0 0 0 i1 0
0 0 0 0 i2 10
0 0 0 0 i2 16
0 0 0 0 i2 23
0 0 0 0 i4 30
1 0 0 0 i1 0
1 0 0 0 i3 3
1 0 0 0 i4 8
)";

TEST(WcetPaper, Fig1IpgHasTheFiveEdgesAndOneLoop) {
  const auto p = program_of(fig1_cfg);

  std::set<std::string> original;
  for (const auto& e : p.ipoints.edges)
    if (!e.divergent) original.insert(test::edge_name(p.ipoints, e));

  EXPECT_EQ(original, (std::set<std::string>{"i1->i2", "i2->i2", "i2->i4", "i1->i3", "i3->i4"}));
  ASSERT_EQ(p.ipoints.loops.size(), 1u);
  EXPECT_EQ(p.ipoints.loops[0].header_name, "b2");
  const auto& loop_edge =
      p.ipoints.edges[static_cast<std::size_t>(p.ipoints.edge_index(p.ipoints.find("i2"), p.ipoints.find("i2")))];
  EXPECT_EQ(loop_edge.iterates, std::vector<std::uint32_t>{0});
}

TEST(WcetPaper, Fig1WcetIs31ByIlpTreeAndEnumeration) {
  const auto p = program_of(fig1_cfg);
  const auto t = traces_of(p, fig1_trace);

  const auto r = analyse_wcet(p, t, {});
  wcet_options tree;
  tree.method = wcet_method::tree;
  wcet_options all_paths;
  all_paths.method = wcet_method::enumerate;

  EXPECT_EQ(edge_wcet(p, r, "i1", "i2"), 10);
  EXPECT_EQ(edge_wcet(p, r, "i2", "i2"), 7);
  EXPECT_EQ(edge_wcet(p, r, "i2", "i4"), 7);
  EXPECT_EQ(edge_wcet(p, r, "i1", "i3"), 3);
  EXPECT_EQ(edge_wcet(p, r, "i3", "i4"), 5);
  EXPECT_EQ(r.problem.loops.at(0).bound, 2u);
  EXPECT_EQ(r.z_warp, 31);
  ASSERT_TRUE(r.tree.has_value());
  EXPECT_EQ(*r.tree, 31);
  EXPECT_EQ(analyse_wcet(p, t, tree).z_warp, 31);
  // The tree of Fig. 1 bottom up: the loop 2 x 7 = 14, then max(10 + 14 + 7, 3 + 5) = 31.
  EXPECT_NE(r.tree_text.find("loop b2 at i2: 2 x 7 = 14"), std::string::npos) << r.tree_text;
  EXPECT_NE(r.tree_text.find("longest path: i1 -(10)-> i2 [loop b2: 14] -(7)-> i4 = 31"), std::string::npos)
      << r.tree_text;
  EXPECT_EQ(analyse_wcet(p, t, all_paths).z_warp, 31);
}

TEST(WcetPaper, Fig1GivenLoopBoundReplacesTheMeasuredOne) {
  const auto p = program_of(fig1_cfg);
  const auto t = traces_of(p, fig1_trace);
  wcet_options o;
  o.loop_bounds["b2"] = 5;

  const auto r = analyse_wcet(p, t, o);

  EXPECT_EQ(r.z_warp, 10 + 5 * 7 + 7);
  EXPECT_FALSE(r.bound_measured.at(0));
}

// Fig. 4a, reconstructed: the figure fixes the start times, the four edge maxima and the HWMT.
const char* fig4_trace = R"(
1 0 0 1 i1 1
1 0 0 2 i1 5
1 0 0 3 i1 8
1 0 0 1 i2 9
1 0 0 2 i3 15
1 0 0 3 i2 17
1 0 0 1 i4 24
1 0 0 2 i4 29
1 0 0 3 i4 35
2 0 0 1 i1 1
2 0 0 2 i1 3
2 0 0 3 i1 5
2 0 0 1 i3 8
2 0 0 2 i2 15
2 0 0 3 i3 18
2 0 0 1 i4 20
2 0 0 2 i4 25
2 0 0 3 i4 29
)";

TEST(WcetPaper, Fig4DynamicAndHybridEstimates) {
  const auto p = program_of(fig1_cfg);
  const auto t = traces_of(p, fig4_trace);

  const auto r = analyse_wcet(p, t, {});

  EXPECT_EQ(edge_wcet(p, r, "i1", "i2"), 12);
  EXPECT_EQ(edge_wcet(p, r, "i1", "i3"), 13);
  EXPECT_EQ(edge_wcet(p, r, "i2", "i4"), 18);
  EXPECT_EQ(edge_wcet(p, r, "i3", "i4"), 14);
  EXPECT_EQ(r.z_warp, 30);
  EXPECT_EQ(r.concurrency.hwmt, 34);
  EXPECT_EQ(r.concurrency.jitter, 7);
  EXPECT_EQ(r.z_dynamic, 37);
  EXPECT_EQ(r.concurrency.waves, 1u);
  EXPECT_EQ(r.concurrency.warps_per_wave, 3u);
  EXPECT_EQ(r.concurrency.delta, 4);
  EXPECT_EQ(r.z_hybrid, 38);
  EXPECT_EQ(r.observed.runs, 2u);
  EXPECT_EQ(r.observed.warps, 6u);
}

TEST(WcetPaper, Fig4RecordsInAnyInterleavingGiveTheSameResult) {
  const auto p = program_of(fig1_cfg);
  std::vector<std::string> lines;
  std::string text = fig4_trace;
  for (std::size_t pos = 0, nl; (nl = text.find('\n', pos)) != std::string::npos; pos = nl + 1)
    if (nl > pos) lines.push_back(text.substr(pos, nl - pos));
  // Group by warp (a warp's own records stay in time order), warps in reverse order.
  std::stable_sort(lines.begin(), lines.end(),
                   [](const std::string& a, const std::string& b) { return a.substr(0, 7) > b.substr(0, 7); });
  std::string shuffled;
  for (const auto& l : lines) shuffled += l + "\n";

  const auto r = analyse_wcet(p, traces_of(p, shuffled), {});

  EXPECT_EQ(r.z_warp, 30);
  EXPECT_EQ(r.z_dynamic, 37);
  EXPECT_EQ(r.z_hybrid, 38);
  EXPECT_EQ(r.concurrency.hwmt, 34);
}

TEST(WcetPaper, Fig6WavesFromStartsAndExits) {
  // s1 s2 s3 t2 ... s4 s5: the times of the starts give the gaps 3, 8 (wave 1) and 5 (wave 2); the
  // gap s3 -> s4 crosses waves and does not count. The exits' times are ours.
  const std::vector<wave_event> events{{0, true, 1},   {3, true, 2},  {11, true, 3}, {20, false, 2}, {22, false, 1},
                                       {24, false, 3}, {25, true, 4}, {30, true, 5}, {40, false, 4}, {45, false, 5}};

  const auto w = find_waves(events);

  EXPECT_EQ(w.waves, 2u);
  EXPECT_EQ(w.warps_per_wave, 3u);
  EXPECT_EQ(w.delta, 8);
  EXPECT_EQ(w.sets, (std::vector<std::vector<std::uint64_t>>{{1, 2, 3}, {4, 5}}));
}

TEST(WcetPaper, Fig6WavesFromATrace) {
  const auto p = program_of(fig1_cfg);
  // Five warps on one SM taking i1 -> i3 -> i4, starting and ending as in Fig6WavesFromStartsAndExits.
  const std::string trace = R"(
0 3 0 1 i1 0
0 3 0 2 i1 3
0 3 0 3 i1 11
0 3 0 2 i3 15
0 3 0 2 i4 20
0 3 0 1 i3 21
0 3 0 1 i4 22
0 3 0 3 i3 23
0 3 0 3 i4 24
0 3 1 0 i1 25
0 3 1 1 i1 30
0 3 1 0 i3 35
0 3 1 0 i4 40
0 3 1 1 i3 41
0 3 1 1 i4 45
)";

  const auto r = analyse_wcet(p, traces_of(p, trace), {});

  EXPECT_EQ(r.concurrency.waves, 2u);
  EXPECT_EQ(r.concurrency.warps_per_wave, 3u);
  EXPECT_EQ(r.concurrency.delta, 8);
  EXPECT_EQ(r.concurrency.jitter, 30);
  EXPECT_EQ(r.concurrency.hwmt, 45);
  EXPECT_EQ(r.z_hybrid, 2 * (r.z_warp + 2 * 8));
}

std::set<std::string> divergent_names(const cfg& g, const std::vector<cfg_edge>& edges) {
  std::set<std::string> out;
  for (const auto& [a, b] : edges) out.insert(g.blocks[a] + "->" + g.blocks[b]);
  return out;
}

TEST(WcetPaper, Fig2DivergentEdges) {
  const auto g = parse_cfg_json(fig2_cfg, "fig2");
  const auto loops = find_loops(g, "fig2");

  const auto added = divergent_names(g, branch_divergent_edges(g, loops));

  // Region (b6, b15), as the paper computes: b9 -> b12, b14 -> b7, b14 -> b12.
  for (const char* e : {"b9->b12", "b14->b7", "b14->b12"}) EXPECT_TRUE(added.count(e)) << e;
  // Regions (b7, b15) and (b12, b14), by the same rule (our hand computation): newsucc(b9) = {b10},
  // newsucc(b14) = {b8}; newsucc(b11) = {b13}, newsucc(b13) = {b10}: the b11 <-> b13 cycle of Sec. IV-C.
  EXPECT_EQ(added,
            (std::set<std::string>{"b9->b12", "b14->b7", "b14->b12", "b9->b10", "b14->b8", "b11->b13", "b13->b10"}));
}

TEST(WcetPaper, Fig2WarpExecutionsParseOnlyWithDivergentEdges) {
  const auto p = program_of(fig2_cfg);
  const auto& runs = fig2_runs;
  std::string trace;
  for (std::size_t r = 0; r < runs.size(); ++r)
    for (std::size_t i = 0; i < runs[r].size(); ++i)
      trace += std::to_string(r) + " 0 0 0 " + runs[r][i] + " " + std::to_string(10 * i) + "\n";

  const auto r = analyse_wcet(p, traces_of(p, trace), {});
  std::size_t runs_needing_divergent = 0;
  for (const auto& run : runs) {
    bool needs = false;
    for (std::size_t i = 1; i < run.size(); ++i) {
      const int e = p.ipoints.edge_index(p.ipoints.find(run[i - 1]), p.ipoints.find(run[i]));
      needs = needs || p.ipoints.edges.at(static_cast<std::size_t>(e)).divergent;
    }
    runs_needing_divergent += needs;
  }

  EXPECT_EQ(runs_needing_divergent, 3u);
  EXPECT_EQ(r.observed.warps, 3u);
  EXPECT_EQ(r.z_warp, 170);  // the longest execution, 17 transitions of 10 (210 without the visit bounds, issue 25)
}

TEST(WcetPaper, Fig2IsAcyclicButTheDivergentCfgIsNot) {
  const auto g = parse_cfg_json(fig2_cfg, "fig2");
  const auto loops = find_loops(g, "fig2");
  cfg full = g;
  for (const auto& [a, b] : branch_divergent_edges(g, loops)) full.add_edge(a, b);

  EXPECT_TRUE(loops.loops.empty());
  EXPECT_THROW(find_loops(full, "fig2+divergent"), input_error);
}

}  // namespace
}  // namespace warpspan::wcet

namespace warpspan::wcet {
namespace {

TEST(WcetPtx, NvccListingOfTheInstrumentedVectorAdd) {
  const std::string path = std::string(WARPSPAN_SOURCE_DIR) + "/data/wcet/vector_add_sm90.ptx";

  const auto p = prepare_program(cfg_from_ptx(read_text_file(path, "PTX"), "", path), path);

  // The listing's labels $L__BB0_1 .. _11 that branches target (5 of them) all name blocks; the
  // kernel has no loop; the one `ret` follows $L__BB0_11.
  for (const char* label : {"$L__BB0_1", "$L__BB0_3", "$L__BB0_7", "$L__BB0_8", "$L__BB0_11"})
    EXPECT_LT(p.graph.find(label), p.graph.size()) << label;
  EXPECT_EQ(p.graph.blocks[p.graph.entry], "entry");
  EXPECT_EQ(p.graph.blocks[p.graph.exit], "$L__BB0_11");
  EXPECT_TRUE(p.loops.loops.empty());
  EXPECT_EQ(p.ipoints.names.size(), p.graph.size());
}

}  // namespace
}  // namespace warpspan::wcet
