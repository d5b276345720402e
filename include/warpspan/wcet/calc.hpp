// WCET calculations on the IPG (002 Sec. II-C): implicit path enumeration (IPET) as an ILP solved with
// CBC, the tree-based calculation where the IPG is structured, and an exhaustive path enumeration for
// small IPGs (the reference both are tested against).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpspan/wcet/ipg.hpp"
#include "warpspan/wcet/trace.hpp"

namespace warpspan::wcet {

struct ipet_edge {
  std::uint32_t from = 0, to = 0;
  std::int64_t weight = 0;           ///< observed WCET of the transition
  std::optional<std::uint64_t> cap;  ///< divergent edges: at most the largest count one warp took
};

/// Iterations of a loop per entry: sum(iterates) <= bound * (sum(enters) + entered_at_start).
struct ipet_loop {
  std::string name;  ///< the CFG header block
  std::vector<std::uint32_t> iterates, enters;
  std::uint64_t bound = 0;
  bool entered_at_start = false;
  std::vector<bool> body;  ///< per vertex: in the loop
};

/// Visits of one Ipoint per warp: at most `per_pass` in each pass through its innermost loop (each
/// entry or iteration edge of that loop starts a pass, and so does the warp's start when the loop
/// holds the entry), or `per_pass` in all when it lies outside every loop. A block runs once per
/// pass unless the warp reaches it from two sides of a branch (002 Fig. 2: b14); the traces give
/// the number where they show more (see make_ipet_problem). In the ILP:
/// visits(v) <= per_pass * (sum of the loop's pass edges + entered_at_start), visits(v) the edges
/// into v (+1 at s); enumeration checks the same sums on each path.
struct ipet_visit_bound {
  std::uint32_t vertex = 0;
  int loop = -1;  ///< index into ipet_problem::loops, -1 outside every loop
  std::uint64_t per_pass = 1;
};

struct ipet_problem {
  std::vector<std::string> names;  ///< vertex names (Ipoints)
  std::uint32_t source = 0, sink = 0;
  std::vector<ipet_edge> edges;
  std::vector<ipet_loop> loops;          ///< innermost first
  std::vector<ipet_visit_bound> visits;  ///< per constrained vertex (an Ipoint the traces leave unbounded has none)
};

/// The edges that start a pass through loop `l`: its entries and iterations, each once.
std::vector<std::uint32_t> pass_edges(const ipet_problem& p, std::size_t l);

/// The problem for `graph` with the observed weights, loop bounds (measured, or `given` where a
/// bound is given for the loop: a vector per IPG loop, nullopt to measure), caps and visit bounds:
/// every Ipoint but t at most once per pass of its innermost loop (once per warp outside loops), or
/// as often as one pass of a warp visited it where the traces show more (obs.visits_per_pass; when
/// obs has none, as in hand-made observations, once); an Ipoint that obs.visits_unbounded marks has
/// none. Every observed warp keeps to these bounds (observe measures them per pass).
ipet_problem make_ipet_problem(const ipg& graph, const trace_observations& obs,
                               const std::vector<std::optional<std::uint64_t>>& given);

struct ipet_solution {
  std::int64_t wcet = 0;
  std::vector<std::uint64_t> counts;  ///< per edge, in the worst-case path's flow
};

/// The visit bound of `p` that edge counts `counts` (one per edge: how often a path takes it) break,
/// as "Ipoint: visits > bound", or empty when they keep to every one (the ILP's rows, evaluated).
std::string broken_visit_bound(const ipet_problem& p, const std::vector<std::uint64_t>& counts);

/// True when CBC is linked (solve_ipet works).
bool ipet_compiled();
/// Maximises sum(weight * count) under flow conservation (one unit from s to t), loop bounds and
/// caps. Throws not_compiled without CBC.
ipet_solution solve_ipet(const ipet_problem& p);
/// The same ILP in CPLEX LP format, variables named x<edge> with the edges in comments.
std::string ipet_lp_text(const ipet_problem& p, const std::string& title);
/// Solves LP text with CBC (reading it from a temporary file): a check that ipet_lp_text writes
/// the model solve_ipet solves. Throws not_compiled without CBC.
std::int64_t solve_ipet_lp_text(const std::string& text);

/// The tree-based calculation: loops collapsed innermost first (bound x the longest cycle through
/// the loop's Ipoint header), then the longest s -> t path; alternatives are maxima, sequences sums.
/// nullopt when the IPG is not structured: a loop whose entries and iterations do not all end at one
/// Ipoint, an edge that both enters and iterates a loop, a divergent edge with a non-zero cap, or a
/// cycle left after collapsing. `explain`, when given, receives the calculation bottom up: each
/// loop's bound x its longest cycle, then the longest path with the loops hung on their headers.
std::optional<std::int64_t> tree_wcet(const ipet_problem& p, std::string* explain = nullptr);

/// The longest s -> t path that respects every loop bound per entry, every cap and every visit bound
/// (summed over the path, as the ILP states it), by depth-first
/// enumeration with an explicit stack (a path may be millions of edges long); nullopt when more than
/// `budget` edges would be walked, which also bounds the stack.
std::optional<std::int64_t> enumerate_wcet(const ipet_problem& p, std::uint64_t budget = 20'000'000);

}  // namespace warpspan::wcet
