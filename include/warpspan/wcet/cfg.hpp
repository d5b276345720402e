// The program structure of hybrid WCET analysis (paper 002, Sec. II and IV): a control-flow graph
// whose blocks may carry an instrumentation point (Ipoint, fired when the block starts), its natural
// loops, immediate post-dominators and the branch-divergent edges of Fig. 3.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace warpspan::wcet {

using block_id = std::uint32_t;
using cfg_edge = std::pair<block_id, block_id>;

struct cfg {
  std::string name;
  std::vector<std::string> blocks;  ///< block names; ids are indices
  std::vector<std::string> ipoint;  ///< per block: its Ipoint's name, or empty
  block_id entry = 0;
  block_id exit = 0;
  std::vector<std::vector<block_id>> succ, pred;
  /// Per block: the source line of its first instruction in the PTX it was read from (cfg_from_ptx),
  /// which simulator logs name; empty for a CFG from JSON.
  std::vector<int> line;

  std::size_t size() const { return blocks.size(); }
  bool has_ipoint(block_id b) const { return !ipoint[b].empty(); }
  void add_edge(block_id from, block_id to);  ///< no-op when the edge exists
  bool has_edge(block_id from, block_id to) const;
  /// The block of a name, or size() when none.
  block_id find(std::string_view block) const;
};

/// Reads `{"name", "entry", "exit", "blocks", "edges", "ipoints"}` (see `warpspan wcet --help`).
/// Unknown blocks, duplicate names, an exit with successors, blocks that cannot be reached from the
/// entry or cannot reach the exit, entry or exit without an Ipoint: input_error naming `where`.
cfg parse_cfg_json(std::string_view text, const std::string& where);

/// The CFG of one .entry of a PTX listing: a block starts at the entry, at every label and after
/// every branch; every block is an Ipoint named by its label (the first "entry"), as the paper's tool
/// did with one Ipoint per basic block. `ret`/`exit` blocks lead to the one exit block.
cfg cfg_from_ptx(std::string_view text, const std::string& entry, const std::string& where);

/// The natural loops of a reducible CFG (Aho et al., via dominators). Loops are ordered innermost
/// first (a loop comes before every loop that contains it).
struct cfg_loop {
  block_id header = 0;
  std::vector<bool> body;            ///< per block: inside the loop (header included)
  std::vector<cfg_edge> back_edges;  ///< (latch, header)
  int parent = -1;                   ///< the innermost enclosing loop, -1 at top level
};

struct loop_forest {
  std::vector<cfg_loop> loops;
  /// True when (from, to) is a back edge of some loop.
  bool is_back_edge(block_id from, block_id to) const;
};

/// Throws input_error (naming `where` and a retreating edge) when the CFG is irreducible.
loop_forest find_loops(const cfg& g, const std::string& where);

/// Reverse post-order from the entry, ignoring the back edges of `loops`.
std::vector<block_id> reverse_post_order(const cfg& g, const loop_forest& loops);

/// The immediate post-dominator of every block (size() for the exit, which has none).
std::vector<block_id> immediate_post_dominators(const cfg& g);

/// 002 Fig. 3: the branch-divergent edges of `g` (those not already in it), in the order the
/// algorithm adds them. `g` must be the CFG without divergent edges and `loops` its loops.
std::vector<cfg_edge> branch_divergent_edges(const cfg& g, const loop_forest& loops);

}  // namespace warpspan::wcet
