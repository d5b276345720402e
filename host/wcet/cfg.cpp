// The CFG side of 002: reading it (JSON or PTX), natural loops, post-dominators and the
// branch-divergent edges of Fig. 3.
#include "warpspan/wcet/cfg.hpp"

#include <algorithm>
#include <functional>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <unordered_map>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/sm/ptx.hpp"

namespace warpspan::wcet {

namespace {

/// Blocks beyond this are refused: reachability sets are quadratic in the block count.
constexpr std::size_t max_blocks = 20000;

using json = nlohmann::json;

/// The probe sites (`// warpspan-ipoint ID` lines, which WARPSPAN_IPOINT puts in the PTX) on lines
/// first..last: (line, id) in line order.
std::vector<std::pair<int, std::uint32_t>> probe_markers(std::string_view text, int first, int last,
                                                         const std::string& where) {
  constexpr std::string_view tag = "// warpspan-ipoint ";
  std::vector<std::pair<int, std::uint32_t>> out;
  int line = 1;
  for (std::size_t pos = 0; pos <= text.size() && line <= last; ++line) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    std::string_view l = text.substr(pos, end - pos);
    pos = end + 1;
    if (line < first) continue;
    while (!l.empty() && (l.front() == ' ' || l.front() == '\t')) l.remove_prefix(1);
    while (!l.empty() && (l.back() == ' ' || l.back() == '\t' || l.back() == '\r')) l.remove_suffix(1);
    if (l.substr(0, tag.size()) != tag) continue;
    const std::string_view digits = l.substr(tag.size());
    std::uint64_t id = 0;
    bool ok = !digits.empty() && digits.size() <= 10;
    for (const char c : digits) {
      ok = ok && c >= '0' && c <= '9';
      if (ok) id = id * 10 + static_cast<std::uint64_t>(c - '0');
    }
    if (!ok || id > 0xffffffffu)
      throw input_error(where + ":" + std::to_string(line) + ": a probe site '" + std::string(l) +
                        "' without a 32-bit id");
    out.emplace_back(line, static_cast<std::uint32_t>(id));
  }
  return out;
}

/// Bit sets of blocks, for reachability.
struct bitset {
  std::vector<std::uint64_t> w;
  explicit bitset(std::size_t n = 0) : w((n + 63) / 64, 0) {}
  void set(std::size_t i) { w[i / 64] |= std::uint64_t{1} << (i % 64); }
  bool test(std::size_t i) const { return (w[i / 64] >> (i % 64)) & 1; }
  void merge(const bitset& o) {
    for (std::size_t i = 0; i < w.size(); ++i) w[i] |= o.w[i];
  }
};

/// Immediate dominators (Cooper, Harvey, Kennedy) of the graph given by `next`/`prev` from `root`;
/// unreachable blocks and the root get n.
std::vector<block_id> immediate_dominators(std::size_t n, block_id root, const std::vector<std::vector<block_id>>& next,
                                           const std::vector<std::vector<block_id>>& prev) {
  // Post-order of the blocks reachable from root (iterative DFS).
  std::vector<block_id> order;
  std::vector<int> number(n, -1);
  std::vector<bool> seen(n, false);
  std::vector<std::pair<block_id, std::size_t>> stack{{root, 0}};
  seen[root] = true;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < next[v].size()) {
      const block_id s = next[v][i++];
      if (!seen[s]) {
        seen[s] = true;
        stack.push_back({s, 0});
      }
    } else {
      number[v] = static_cast<int>(order.size());
      order.push_back(v);
      stack.pop_back();
    }
  }
  const auto none = static_cast<block_id>(n);
  std::vector<block_id> idom(n, none);
  idom[root] = root;
  const auto intersect = [&](block_id a, block_id b) {
    while (a != b) {
      while (number[a] < number[b]) a = idom[a];
      while (number[b] < number[a]) b = idom[b];
    }
    return a;
  };
  for (bool changed = true; changed;) {
    changed = false;
    for (auto it = order.rbegin(); it != order.rend(); ++it) {
      const block_id v = *it;
      if (v == root) continue;
      block_id nd = none;
      for (block_id p : prev[v]) {
        if (number[p] < 0 || idom[p] == none) continue;
        nd = nd == none ? p : intersect(p, nd);
      }
      if (nd != idom[v]) {
        idom[v] = nd;
        changed = true;
      }
    }
  }
  idom[root] = none;
  return idom;
}

bool dominates(const std::vector<block_id>& idom, block_id a, block_id b) {
  for (block_id v = b; v < idom.size(); v = idom[v])
    if (v == a) return true;
  return false;
}

std::string str(const json& j, const std::string& where, const std::string& what) {
  if (!j.is_string()) throw input_error(where + ": " + what + " must be a string");
  const auto s = j.get<std::string>();
  if (s.empty()) throw input_error(where + ": " + what + " must not be empty");
  // Names end up in messages, traces and drawings: no control characters (JSON's \u0000 escapes).
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw input_error(where + ": " + what + " " + quote_text(s) + " holds a control character");
  return s;
}

/// Checks what every analysis relies on: entry and exit carry Ipoints, the exit ends the program,
/// every block lies on a path from the entry to the exit, Ipoint names are unique.
void check_shape(const cfg& g, const std::string& where) {
  if (!g.has_ipoint(g.entry))
    throw input_error(where + ": the entry block '" + g.blocks[g.entry] + "' has no Ipoint (s)");
  if (!g.has_ipoint(g.exit)) throw input_error(where + ": the exit block '" + g.blocks[g.exit] + "' has no Ipoint (t)");
  if (!g.succ[g.exit].empty())
    throw input_error(where + ": the exit block '" + g.blocks[g.exit] + "' has successors; the program must end there");
  std::set<std::string> names;
  for (block_id b = 0; b < g.size(); ++b)
    if (g.has_ipoint(b) && !names.insert(g.ipoint[b]).second)
      throw input_error(where + ": Ipoint '" + g.ipoint[b] + "' is on two blocks");
  const auto reach = [&](block_id from, const std::vector<std::vector<block_id>>& next) {
    std::vector<bool> seen(g.size(), false);
    std::vector<block_id> todo{from};
    seen[from] = true;
    while (!todo.empty()) {
      const block_id v = todo.back();
      todo.pop_back();
      for (block_id s : next[v])
        if (!seen[s]) seen[s] = true, todo.push_back(s);
    }
    return seen;
  };
  const auto fwd = reach(g.entry, g.succ), bwd = reach(g.exit, g.pred);
  for (block_id b = 0; b < g.size(); ++b) {
    if (!fwd[b]) throw input_error(where + ": block '" + g.blocks[b] + "' cannot be reached from the entry");
    if (!bwd[b]) throw input_error(where + ": block '" + g.blocks[b] + "' cannot reach the exit");
  }
}

}  // namespace

void cfg::add_edge(block_id from, block_id to) {
  if (has_edge(from, to)) return;
  succ[from].push_back(to);
  pred[to].push_back(from);
}

bool cfg::has_edge(block_id from, block_id to) const {
  return std::find(succ[from].begin(), succ[from].end(), to) != succ[from].end();
}

block_id cfg::find(std::string_view block) const {
  for (block_id b = 0; b < blocks.size(); ++b)
    if (blocks[b] == block) return b;
  return static_cast<block_id>(blocks.size());
}

cfg parse_cfg_json(std::string_view text, const std::string& where) {
  json j;
  try {
    j = json::parse(text);
  } catch (const json::parse_error& e) {
    throw input_error(where + ": not valid JSON (" + printable_text(e.what()) + ")");
  } catch (const json::exception& e) {  // a number beyond a double (1e400) stops the parser with out_of_range.406
    throw input_error(where + ": a number in the file is out of range (" + printable_text(e.what()) + ")");
  }
  if (!j.is_object()) throw input_error(where + ": expected a JSON object with blocks, edges, entry, exit, ipoints");
  for (const char* key : {"blocks", "edges", "entry", "exit", "ipoints"})
    if (!j.contains(key)) throw input_error(where + ": missing \"" + key + "\"");
  for (const auto& item : j.items()) {  // a misspelt or unsupported key is not silently ignored
    const std::string& key = item.key();
    if (key != "name" && key != "blocks" && key != "edges" && key != "entry" && key != "exit" && key != "ipoints")
      throw input_error(where + ": unknown key " + quote_text(key) +
                        " (a CFG has name, entry, exit, blocks, edges, ipoints; loop bounds are " +
                        param("loop_bounds") + ")");
  }
  cfg g;
  g.name = j.contains("name") ? str(j["name"], where, "\"name\"") : std::string("kernel");
  if (!j["blocks"].is_array() || j["blocks"].empty())
    throw input_error(where + ": \"blocks\" must be a non-empty array");
  if (j["blocks"].size() > max_blocks)
    throw input_error(where + ": more than " + std::to_string(max_blocks) + " blocks");
  std::unordered_map<std::string, block_id> index;
  for (const auto& b : j["blocks"]) {
    const std::string name = str(b, where, "a block name");
    if (!index.emplace(name, static_cast<block_id>(g.blocks.size())).second)
      throw input_error(where + ": block " + quote_text(name) + " is listed twice");
    g.blocks.push_back(name);
  }
  g.ipoint.assign(g.size(), {});
  g.succ.assign(g.size(), {});
  g.pred.assign(g.size(), {});
  const auto block = [&](const json& v, const std::string& what) {
    const std::string name = str(v, where, what);
    const auto it = index.find(name);
    if (it == index.end()) throw input_error(where + ": " + what + " " + quote_text(name) + " is not a block");
    return it->second;
  };
  if (!j["edges"].is_array()) throw input_error(where + ": \"edges\" must be an array of [from, to] pairs");
  for (const auto& e : j["edges"]) {
    if (!e.is_array() || e.size() != 2) throw input_error(where + ": an edge must be a [from, to] pair");
    const block_id from = block(e[0], "edge source"), to = block(e[1], "edge target");
    if (g.has_edge(from, to))
      throw input_error(where + ": edge " + quote_text(g.blocks[from]) + " -> " + quote_text(g.blocks[to]) +
                        " is listed twice");
    g.add_edge(from, to);
  }
  g.entry = block(j["entry"], "\"entry\"");
  g.exit = block(j["exit"], "\"exit\"");
  if (!j["ipoints"].is_object()) throw input_error(where + ": \"ipoints\" must be an object {block: ipoint}");
  for (const auto& [b, name] : j["ipoints"].items())
    g.ipoint[block(json(b), "Ipoint block")] = str(name, where, "an Ipoint name");
  check_shape(g, where);
  return g;
}

cfg cfg_from_ptx(std::string_view text, const std::string& entry, const std::string& where) {
  const ptx_body body = read_ptx_body(text, entry, where);
  cfg g;
  g.name = body.entry;
  // Leaders: the first instruction, every label, every instruction after a branch or return.
  struct block_text {
    std::string name;
    int line = 0;
    std::vector<const ptx_statement*> code;
    std::int64_t marker = -1;  ///< the WARPSPAN_IPOINT id of a probe site in it, -1 when none
  };
  std::vector<block_text> blocks;
  std::unordered_map<std::string, std::size_t> label_block;
  // WARPSPAN_IPOINT sites (include/warpspan/wcet/probe.cuh) inside this body, in line order.
  const std::vector<std::pair<int, std::uint32_t>> markers =
      body.statements.empty() ? std::vector<std::pair<int, std::uint32_t>>{}
                              : probe_markers(text, body.statements.front().line, body.statements.back().line, where);
  std::size_t next_marker = 0;
  bool start_new = true;
  for (const auto& s : body.statements) {
    if (s.is_label) {
      if (!blocks.empty() && blocks.back().code.empty() &&
          blocks.back().marker < 0) {  // a second label on the same block
        label_block[s.label] = blocks.size() - 1;
        continue;
      }
      blocks.push_back({s.label, s.line, {}});
      label_block[s.label] = blocks.size() - 1;
      start_new = false;
      continue;
    }
    // A probe site before this instruction marks the block the instruction is in; a block holding
    // a site already (two probes without a branch between them) ends before the second.
    std::int64_t site = -1;
    for (; next_marker < markers.size() && markers[next_marker].first < s.line; ++next_marker) {
      if (site >= 0 && site != markers[next_marker].second)
        throw input_error(where + ":" + std::to_string(markers[next_marker].first) + ": WARPSPAN_IPOINT(" +
                          std::to_string(site) + ") and WARPSPAN_IPOINT(" +
                          std::to_string(markers[next_marker].second) + ") with no instruction between them");
      site = markers[next_marker].second;
    }
    if (start_new || blocks.empty() || (site >= 0 && blocks.back().marker >= 0)) {
      blocks.push_back(
          {blocks.empty() ? std::string("entry") : std::string("L").append(std::to_string(s.line)), s.line, {}});
      start_new = false;
    }
    if (site >= 0) blocks.back().marker = site;
    blocks.back().code.push_back(&s);
    const std::string base = s.opcode.substr(0, s.opcode.find('.'));
    if (base == "bra" || base == "ret" || base == "exit" || base == "trap") start_new = true;
  }
  // A trailing label without code is an empty block that falls off the end. A second label on a
  // block does not rename it: the block (and its Ipoint) keeps the first.
  if (blocks.empty()) throw input_error(where + ": " + body.entry + " has no instructions");
  if (blocks.size() > max_blocks)
    throw input_error(where + ": more than " + std::to_string(max_blocks) + " basic blocks");
  const auto n = blocks.size();
  std::vector<std::string> names;
  for (const auto& b : blocks) names.push_back(b.name);
  g.blocks = names;
  g.ipoint = names;
  if (!markers.empty()) {
    // Instrumented with the probe: the probe sites are the Ipoints, named by their ids as the
    // probe's traces name them; other blocks carry none.
    std::map<std::int64_t, std::size_t> seen;
    for (std::size_t i = 0; i < n; ++i) {
      g.ipoint[i].clear();
      if (blocks[i].marker < 0) continue;
      if (const auto [it, fresh] = seen.emplace(blocks[i].marker, i); !fresh)
        throw input_error(where + ":" + std::to_string(blocks[i].line) + ": WARPSPAN_IPOINT(" +
                          std::to_string(blocks[i].marker) + ") is in two blocks (" + blocks[it->second].name +
                          " and " + blocks[i].name +
                          "): the compiler copied it (an unrolled loop? put #pragma unroll 1 before it)");
      g.ipoint[i] = std::to_string(blocks[i].marker);
    }
  }
  for (const auto& b : blocks) g.line.push_back(b.code.empty() ? 0 : b.code.front()->line);
  g.succ.assign(n, {});
  g.pred.assign(n, {});
  std::vector<block_id> returns;
  for (std::size_t i = 0; i < n; ++i) {
    const auto& code = blocks[i].code;
    const ptx_statement* last = code.empty() ? nullptr : code.back();
    const std::string base = last ? last->opcode.substr(0, last->opcode.find('.')) : std::string();
    const auto id = static_cast<block_id>(i);
    if (base == "bra") g.add_edge(id, static_cast<block_id>(label_block.at(last->target)));
    const bool ends = base == "ret" || base == "exit" || base == "trap";
    if (ends) returns.push_back(id);
    if ((!last || last->guarded || (base != "bra" && !ends))) {
      if (i + 1 < n)
        g.add_edge(id, static_cast<block_id>(i + 1));
      else
        returns.push_back(id);  // falls off the end of the body: returns
    }
  }
  std::sort(returns.begin(), returns.end());
  returns.erase(std::unique(returns.begin(), returns.end()), returns.end());
  // A warp's trace ends at t, so one block must end them all (nvcc joins its returns in one block).
  if (returns.size() != 1)
    throw input_error(where + ": " + body.entry + " returns from " + std::to_string(returns.size()) +
                      " blocks; the analysis needs one exit block (the t Ipoint): join the returns");
  g.exit = returns.front();
  g.entry = 0;
  if (!markers.empty()) {
    if (!g.has_ipoint(g.entry))
      throw input_error(where + ": " + body.entry +
                        " runs code that can branch before its first WARPSPAN_IPOINT: "
                        "make one the kernel's first statement (the s Ipoint)");
    if (!g.has_ipoint(g.exit))
      throw input_error(
          where + ": " + body.entry + "'s returning block (PTX line " + std::to_string(blocks[g.exit].line) +
          ") has no WARPSPAN_IPOINT: make one the kernel's last statement, after every branch (the t Ipoint)");
  }
  check_shape(g, where);
  return g;
}

bool loop_forest::is_back_edge(block_id from, block_id to) const {
  for (const auto& l : loops)
    if (l.header == to && std::find(l.back_edges.begin(), l.back_edges.end(), cfg_edge{from, to}) != l.back_edges.end())
      return true;
  return false;
}

loop_forest find_loops(const cfg& g, const std::string& where) {
  const auto n = g.size();
  const auto idom = immediate_dominators(n, g.entry, g.succ, g.pred);
  // Retreating edges of a DFS: target on the stack. Reducible iff each one's target dominates its source.
  std::vector<int> state(n, 0);  // 0 new, 1 on stack, 2 done
  std::map<block_id, cfg_loop> by_header;
  std::vector<std::pair<block_id, std::size_t>> stack{{g.entry, 0}};
  state[g.entry] = 1;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < g.succ[v].size()) {
      const block_id s = g.succ[v][i++];
      if (state[s] == 1) {
        if (!dominates(idom, s, v))
          throw input_error(where + ": the CFG is irreducible: edge " + g.blocks[v] + " -> " + g.blocks[s] +
                            " closes a loop with more than one entry");
        auto& l = by_header[s];
        l.header = s;
        l.back_edges.push_back({v, s});
      } else if (state[s] == 0) {
        state[s] = 1;
        stack.push_back({s, 0});
      }
    } else {
      state[v] = 2;
      stack.pop_back();
    }
  }
  // Back edges to a block already done (not on the stack) are still back edges when the target
  // dominates the source: a DFS meets them as cross edges only in irreducible graphs, where the
  // check above has already failed, so the loop above saw them all.
  loop_forest forest;
  for (auto& [h, l] : by_header) {
    l.body.assign(n, false);
    l.body[h] = true;
    std::vector<block_id> todo;
    for (const auto& [latch, hdr] : l.back_edges)
      if (!l.body[latch]) l.body[latch] = true, todo.push_back(latch);
    while (!todo.empty()) {
      const block_id v = todo.back();
      todo.pop_back();
      for (block_id p : g.pred[v])
        if (!l.body[p]) l.body[p] = true, todo.push_back(p);
    }
    forest.loops.push_back(std::move(l));
  }
  const auto size = [](const cfg_loop& l) { return std::count(l.body.begin(), l.body.end(), true); };
  std::stable_sort(forest.loops.begin(), forest.loops.end(),
                   [&](const cfg_loop& a, const cfg_loop& b) { return size(a) < size(b); });
  for (std::size_t a = 0; a < forest.loops.size(); ++a)
    for (std::size_t b = a + 1; b < forest.loops.size(); ++b)
      if (forest.loops[b].body[forest.loops[a].header]) {
        forest.loops[a].parent = static_cast<int>(b);
        break;
      }
  return forest;
}

std::vector<block_id> reverse_post_order(const cfg& g, const loop_forest& loops) {
  std::vector<block_id> order;
  std::vector<bool> seen(g.size(), false);
  std::vector<std::pair<block_id, std::size_t>> stack{{g.entry, 0}};
  seen[g.entry] = true;
  while (!stack.empty()) {
    auto& [v, i] = stack.back();
    if (i < g.succ[v].size()) {
      const block_id s = g.succ[v][i++];
      if (!seen[s] && !loops.is_back_edge(v, s)) {
        seen[s] = true;
        stack.push_back({s, 0});
      }
    } else {
      order.push_back(v);
      stack.pop_back();
    }
  }
  std::reverse(order.begin(), order.end());
  return order;
}

std::vector<block_id> immediate_post_dominators(const cfg& g) {
  return immediate_dominators(g.size(), g.exit, g.pred, g.succ);
}

std::vector<cfg_edge> branch_divergent_edges(const cfg& g, const loop_forest& loops) {
  const auto n = g.size();
  const auto order = reverse_post_order(g, loops);
  // Lines 1-4: reachable(v) over C' (a back-edge predecessor has no set yet when v is visited).
  std::vector<bitset> reachable;
  reachable.reserve(n);
  for (std::size_t i = 0; i < n; ++i) reachable.emplace_back(n);
  for (block_id v : order) {
    reachable[v].set(v);
    for (block_id p : g.pred[v])
      if (!loops.is_back_edge(p, v)) reachable[v].merge(reachable[p]);
  }
  const auto ipdom = immediate_post_dominators(g);
  std::vector<cfg_edge> added;
  const auto add = [&](block_id p, block_id s) {
    if (g.has_edge(p, s) || std::find(added.begin(), added.end(), cfg_edge{p, s}) != added.end()) return;
    added.push_back({p, s});
  };
  for (block_id b : order) {
    std::vector<block_id> forward;
    for (block_id s : g.succ[b])
      if (!loops.is_back_edge(b, s)) forward.push_back(s);
    // Sec. IV-A counts a loop header as a forward branch only when all its successors are in the
    // loop. We take every block with two forward successors: a loop header with an exit successor
    // diverges too, and when the loop has a second exit (a break) its post-dominator lies beyond
    // the exits, so a warp can go from the exit side to the body; with one exit this adds nothing.
    if (forward.size() < 2) continue;
    const block_id m = ipdom[b];
    if (m >= n) continue;
    // The region (b, m): only predecessors of m that b reaches can end a divergent path of b (the
    // paper's pred(m) would add edges from blocks before b that no warp can take).
    std::vector<bool> in_region(n, false);
    std::vector<block_id> todo{b};
    in_region[b] = true;
    while (!todo.empty()) {
      const block_id v = todo.back();
      todo.pop_back();
      if (v == m) continue;
      for (block_id s : g.succ[v])
        if (!in_region[s]) in_region[s] = true, todo.push_back(s);
    }
    // Fig. 3 reasons on one pass through the region. When b lies in a loop that m is outside of,
    // b runs again before its warp reaches m and each run pushes its own sides, so a side that can
    // reach p may still be pending when p finishes: every successor of b may come next (line 12).
    bool wraps = false;
    for (const auto& L : loops.loops) wraps = wraps || (L.body[b] && !L.body[m]);
    for (block_id p : g.pred[m]) {
      if (!in_region[p] || p == m) continue;
      std::vector<block_id> newsucc;
      for (block_id s : g.succ[b])
        if (!wraps && !reachable[p].test(s)) newsucc.push_back(s);
      for (block_id s : newsucc.empty() ? g.succ[b] : newsucc) add(p, s);
    }
  }
  return added;
}

}  // namespace warpspan::wcet
