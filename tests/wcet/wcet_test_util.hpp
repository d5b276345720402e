// Helpers for the wcet tests: CFGs from short text, traces from records.
#pragma once

#include <fstream>
#include <initializer_list>
#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "warpspan/wcet/analysis.hpp"

namespace warpspan::wcet::test {

/// The CFG of 002 Fig. 1 (our reconstruction): b1 (i1) branches to the loop headed by b2 (i2, body
/// b3 without an Ipoint) and to b4 (i3); both reach b5 (i4).
inline const char* fig1_cfg = R"({"name": "fig1", "entry": "b1", "exit": "b5",
  "blocks": ["b1", "b2", "b3", "b4", "b5"],
  "edges": [["b1", "b2"], ["b2", "b3"], ["b3", "b2"], ["b2", "b5"], ["b1", "b4"], ["b4", "b5"]],
  "ipoints": {"b1": "i1", "b2": "i2", "b4": "i3", "b5": "i4"}})";

// Fig. 2's CFG as the text describes it: b1..b6 in a row (the figure names three forward branches
// only: b6, b7, b12), b6 -> {b7, b12}, b7 -> {b8, b10}, b8 -> b9 -> b15, b10 -> b11 -> b14,
// b12 -> {b10, b13}, b13 -> b14 -> b15. Our assumption: b7 reaches b14 through b10 and b11 (the paths
// b6 -> b7 -> b10 -> b11 -> b14 and b6 -> b12 -> b10 -> b11 -> b14 of the text); every block an Ipoint.
inline const char* fig2_cfg = R"({"name": "fig2", "entry": "b1", "exit": "b15",
  "blocks": ["b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b12", "b13", "b14", "b15"],
  "edges": [["b1", "b2"], ["b2", "b3"], ["b3", "b4"], ["b4", "b5"], ["b5", "b6"], ["b6", "b7"], ["b6", "b12"],
            ["b7", "b8"], ["b7", "b10"], ["b8", "b9"], ["b9", "b15"], ["b10", "b11"], ["b11", "b14"],
            ["b12", "b10"], ["b12", "b13"], ["b13", "b14"], ["b14", "b15"]],
  "ipoints": {"b1": "b1", "b2": "b2", "b3": "b3", "b4": "b4", "b5": "b5", "b6": "b6", "b7": "b7", "b8": "b8",
              "b9": "b9", "b10": "b10", "b11": "b11", "b12": "b12", "b13": "b13", "b14": "b14", "b15": "b15"}})";

/// The three executions of Fig. 2 (b14 runs twice in the second and third).
inline const std::vector<std::vector<std::string>> fig2_runs{
    {"b1", "b2", "b3", "b4", "b5", "b6", "b12", "b10", "b11", "b13", "b14", "b15"},
    {"b1", "b2", "b3", "b4", "b5", "b6", "b7", "b8", "b9", "b10", "b11", "b14", "b12", "b10", "b11", "b13", "b14",
     "b15"},
    {"b1", "b2", "b3", "b4", "b5", "b6", "b12", "b10", "b11", "b13", "b14", "b7", "b8", "b9", "b10", "b11", "b14",
     "b15"}};

/// The shipped examples (data/wcet/).
inline const std::string data = std::string(WARPSPAN_SOURCE_DIR) + "/data/wcet/";

using warpspan::test::write;  // (cli/cli_util.hpp)

/// Runs `warpspan ARGS` and checks it failed as a user error: exit 2, one line holding each of `what`.
inline void expect_refused(const std::string& args, std::initializer_list<std::string> what) {
  const auto r = warpspan::test::run_warpspan(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.err;
  EXPECT_EQ(warpspan::test::count_lines(r.err), 1) << r.err;
  for (const auto& w : what) EXPECT_NE(r.err.find(w), std::string::npos) << "expected '" << w << "' in: " << r.err;
}

inline wcet_program program_of(const std::string& json) {
  return prepare_program(parse_cfg_json(json, "test.json"), "test.json");
}

inline trace_set traces_of(const wcet_program& p, const std::string& text) {
  trace_set set;
  read_trace("test.trace", text, trace_format::text, p.ipoints, set);
  return set;
}

inline std::string edge_name(const ipg& g, const ipg_edge& e) { return g.names[e.from] + "->" + g.names[e.to]; }

/// The observed WCET of the IPG edge "from->to"; -1 when there is no such edge.
inline std::int64_t edge_wcet(const wcet_program& p, const wcet_report& r, const std::string& from,
                              const std::string& to) {
  const int e = p.ipoints.edge_index(p.ipoints.find(from), p.ipoints.find(to));
  return e < 0 ? -1 : r.observed.edges[static_cast<std::size_t>(e)].wcet;
}

}  // namespace warpspan::wcet::test
