// IPG construction: Ipoint-free paths contracted to edges; loop entries and iterations per edge.
#include "warpspan/wcet/ipg.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <sstream>

namespace warpspan::wcet {

namespace {

/// For every block: the Ipoint blocks reachable from it through blocks without Ipoints (the block
/// itself when it has one).
std::vector<std::vector<block_id>> ipoints_ahead(const cfg& g) {
  std::vector<std::vector<block_id>> ahead(g.size());
  for (block_id b = 0; b < g.size(); ++b) {
    if (g.has_ipoint(b)) {
      ahead[b] = {b};
      continue;
    }
    std::vector<bool> seen(g.size(), false);
    std::vector<block_id> todo{b};
    seen[b] = true;
    while (!todo.empty()) {
      const block_id v = todo.back();
      todo.pop_back();
      for (block_id s : g.succ[v]) {
        if (seen[s]) continue;
        seen[s] = true;
        if (g.has_ipoint(s))
          ahead[b].push_back(s);
        else
          todo.push_back(s);
      }
    }
    std::sort(ahead[b].begin(), ahead[b].end());
  }
  return ahead;
}

/// For Ipoint block u: u and the Ipoint-free blocks reachable from it without passing an Ipoint.
std::vector<block_id> behind_closure(const cfg& g, block_id u) {
  std::vector<block_id> out{u};
  std::vector<bool> seen(g.size(), false);
  seen[u] = true;
  for (std::size_t i = 0; i < out.size(); ++i)
    for (block_id s : g.succ[out[i]])
      if (!seen[s] && !g.has_ipoint(s)) seen[s] = true, out.push_back(s);
  return out;
}

struct path_edges {
  std::set<cfg_edge> cfg_edges;  // CFG edges on some Ipoint-free path of the IPG edge
};

/// IPG edges of `g` with the CFG edges their paths use, keyed by (from block, to block).
std::map<cfg_edge, path_edges> contract(const cfg& g) {
  const auto ahead = ipoints_ahead(g);
  std::map<cfg_edge, path_edges> out;
  for (block_id u = 0; u < g.size(); ++u) {
    if (!g.has_ipoint(u)) continue;
    for (block_id a : behind_closure(g, u))
      for (block_id b : g.succ[a])
        for (block_id v : ahead[b]) out[{u, v}].cfg_edges.insert({a, b});
  }
  return out;
}

}  // namespace

int ipg::edge_index(ipoint_id from, ipoint_id to) const {
  if (from >= out_.size()) return -1;
  for (const auto& [v, e] : out_[from])
    if (v == to) return e;
  return -1;
}

ipoint_id ipg::find(const std::string& name) const {
  return static_cast<ipoint_id>(std::find(names.begin(), names.end(), name) - names.begin());
}

ipg build_ipg(const cfg& g, const loop_forest& loops, const std::vector<cfg_edge>& divergent) {
  ipg graph;
  std::vector<ipoint_id> id_of(g.size(), 0);
  for (block_id b = 0; b < g.size(); ++b)
    if (g.has_ipoint(b)) {
      id_of[b] = static_cast<ipoint_id>(graph.names.size());
      graph.names.push_back(g.ipoint[b]);
      graph.block.push_back(b);
      graph.line.push_back(b < g.line.size() ? g.line[b] : 0);
    }
  graph.source = id_of[g.entry];
  graph.sink = id_of[g.exit];

  // Loops with an Ipoint in the body, innermost first (the forest's order).
  std::vector<int> ipg_loop_of(loops.loops.size(), -1);
  std::vector<std::size_t> forest_index;
  for (std::size_t l = 0; l < loops.loops.size(); ++l) {
    const auto& L = loops.loops[l];
    bool has = false;
    for (block_id b = 0; b < g.size(); ++b) has = has || (L.body[b] && g.has_ipoint(b));
    if (!has) continue;
    ipg_loop_of[l] = static_cast<int>(graph.loops.size());
    ipg_loop il;
    il.header = L.header;
    il.header_name = g.blocks[L.header];
    il.entered_at_start = L.body[g.entry];
    for (block_id b : graph.block) il.body.push_back(L.body[b]);
    graph.loops.push_back(std::move(il));
    forest_index.push_back(l);
  }
  for (std::size_t i = 0; i < graph.loops.size(); ++i) {
    int p = loops.loops[forest_index[i]].parent;
    while (p >= 0 && ipg_loop_of[static_cast<std::size_t>(p)] < 0) p = loops.loops[static_cast<std::size_t>(p)].parent;
    graph.loops[i].parent = p < 0 ? -1 : ipg_loop_of[static_cast<std::size_t>(p)];
  }

  cfg full = g;
  for (const auto& [p, s] : divergent) full.add_edge(p, s);
  const auto original = contract(g);
  const auto with_divergent = contract(full);
  const auto add = [&](const cfg_edge& key, const path_edges& paths, bool is_divergent) {
    ipg_edge e;
    e.from = id_of[key.first];
    e.to = id_of[key.second];
    e.divergent = is_divergent;
    for (std::size_t l = 0; l < graph.loops.size(); ++l) {
      const auto& L = loops.loops[forest_index[l]];
      bool enters = false, iterates = false;
      for (const auto& [a, b] : paths.cfg_edges) {
        enters = enters || (!L.body[a] && L.body[b]);
        iterates = iterates || (L.body[a] && b == L.header);
      }
      // An edge with paths of both kinds (through a header without an Ipoint, or along divergent
      // edges) counts as an iteration when it starts inside the loop (the warp entered it before)
      // and as an entry when it starts outside (iterations on the way are inside its time). Either
      // way every observed iteration follows an observed entry, so the bounds measured per entry
      // hold for the traces, and no edge carries the coefficient 1 - bound that would leave a cycle
      // unbounded.
      if (enters && iterates) (L.body[key.first] ? enters : iterates) = false;
      if (enters) e.enters.push_back(static_cast<std::uint32_t>(l));
      if (iterates) e.iterates.push_back(static_cast<std::uint32_t>(l));
    }
    graph.edges.push_back(std::move(e));
  };
  for (const auto& [key, paths] : with_divergent)
    if (original.count(key)) add(key, paths, false);
  for (const auto& [key, paths] : with_divergent)
    if (!original.count(key)) add(key, paths, true);
  graph.out_.assign(graph.names.size(), {});
  for (std::size_t e = 0; e < graph.edges.size(); ++e)
    graph.out_[graph.edges[e].from].push_back({graph.edges[e].to, static_cast<int>(e)});
  return graph;
}

std::vector<int> innermost_loops(const ipg& graph) {
  std::vector<int> out(graph.names.size(), -1);
  // Loops are innermost first: the first loop holding an Ipoint is its innermost.
  for (std::size_t l = graph.loops.size(); l-- > 0;)
    for (ipoint_id v = 0; v < graph.names.size(); ++v)
      if (graph.loops[l].body[v]) out[v] = static_cast<int>(l);
  return out;
}

std::string ipg_dot(const ipg& graph, const std::string& title, const std::vector<std::string>& label) {
  const auto quote = [](const std::string& s) {
    std::string q = "\"";
    for (char c : s) q += (c == '"' || c == '\\') ? std::string("\\") + c : std::string(1, c);
    return q + "\"";
  };
  std::ostringstream out;
  out << "digraph " << quote(title) << " {\n  rankdir=TB;\n  node [shape=circle];\n";
  for (ipoint_id v = 0; v < graph.names.size(); ++v) {
    out << "  " << quote(graph.names[v]);
    if (v == graph.source || v == graph.sink) out << " [shape=doublecircle]";
    out << ";\n";
  }
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    const auto& ed = graph.edges[e];
    out << "  " << quote(graph.names[ed.from]) << " -> " << quote(graph.names[ed.to])
        << " [label=" << quote(e < label.size() ? label[e] : std::string());
    if (!ed.iterates.empty()) out << ", style=dashed";
    if (ed.divergent) out << ", color=red";
    out << "];\n";
  }
  out << "}\n";
  return out.str();
}

}  // namespace warpspan::wcet
