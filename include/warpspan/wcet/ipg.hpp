// The Instrumentation Point Graph (002 Sec. II-B): vertices are Ipoints, an edge u -> v contracts the
// Ipoint-free CFG paths from u to v. Built in the order of Sec. IV-C: from the CFG without divergent
// edges (whose loops are known), then updated with the paths the branch-divergent edges open.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpspan/wcet/cfg.hpp"

namespace warpspan::wcet {

using ipoint_id = std::uint32_t;

struct ipg_edge {
  ipoint_id from = 0, to = 0;
  bool divergent = false;               ///< exists only through branch-divergent CFG edges
  std::vector<std::uint32_t> enters;    ///< ipg loops that some path of the edge enters from outside
  std::vector<std::uint32_t> iterates;  ///< ipg loops whose header some path reaches from inside
};

/// A CFG loop with an Ipoint in its body: the loops that make cycles in the IPG (ref. [12] of 002:
/// the IPG's loops are inferred from the reducible CFG's). A loop without Ipoints lies inside one
/// IPG edge, whose observed times include all its iterations.
struct ipg_loop {
  block_id header = 0;
  std::string header_name;
  bool entered_at_start = false;  ///< the entry block is in the loop
  std::vector<bool> body;         ///< per Ipoint: its block is in the loop
  int parent = -1;                ///< enclosing ipg loop
};

struct ipg {
  std::vector<std::string> names;  ///< Ipoint names; ids are indices (CFG block order)
  std::vector<block_id> block;     ///< per Ipoint: its block
  std::vector<int> line;           ///< per Ipoint: cfg::line of its block (0 when unknown)
  ipoint_id source = 0, sink = 0;  ///< s and t
  std::vector<ipg_edge> edges;     ///< original edges first, then divergent ones
  std::vector<ipg_loop> loops;     ///< innermost first

  /// The edge u -> v, or -1.
  int edge_index(ipoint_id from, ipoint_id to) const;
  /// The Ipoint of a name, or names.size().
  ipoint_id find(const std::string& name) const;

 private:
  std::vector<std::vector<std::pair<ipoint_id, int>>> out_;
  friend ipg build_ipg(const cfg&, const loop_forest&, const std::vector<cfg_edge>&);
};

/// Builds the IPG of `g` (without divergent edges), with the loops of `loops`, and adds the edges
/// that the CFG with `divergent` edges has besides (marked divergent). Loop entries and iterations
/// are classified on the CFG with divergent edges, so that a warp's executions are classified like
/// the paths they took.
ipg build_ipg(const cfg& g, const loop_forest& loops, const std::vector<cfg_edge>& divergent);

/// Per Ipoint: the innermost ipg loop whose body holds it, -1 when none.
std::vector<int> innermost_loops(const ipg& graph);

/// Graphviz text of the IPG: loop iterations dashed, divergent edges red, labels from `label`.
std::string ipg_dot(const ipg& graph, const std::string& title, const std::vector<std::string>& label);

}  // namespace warpspan::wcet
