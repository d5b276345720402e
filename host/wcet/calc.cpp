// IPET (ILP with CBC), the tree-based calculation and exhaustive enumeration on the IPG.
#include "warpspan/wcet/calc.hpp"

#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>

#include "warpspan/detail/core/cbc_lock.hpp"
#include "warpspan/core/error.hpp"

#ifndef WARPSPAN_HAVE_CBC
#define WARPSPAN_HAVE_CBC 0
#endif
#if WARPSPAN_HAVE_CBC
#include <coin/Cbc_C_Interface.h>
#endif

namespace warpspan::wcet {

namespace {

/// Topological order of the vertices `keep` with the edges `use`, or empty when they hold a cycle.
std::vector<std::uint32_t> topological(const ipet_problem& p, const std::vector<bool>& keep,
                                       const std::function<bool(std::size_t)>& use) {
  const std::size_t n = p.names.size();
  std::vector<std::uint32_t> indegree(n, 0), order;
  std::size_t kept = 0;
  for (std::size_t e = 0; e < p.edges.size(); ++e)
    if (use(e)) ++indegree[p.edges[e].to];
  for (std::uint32_t v = 0; v < n; ++v) {
    kept += keep[v];
    if (keep[v] && indegree[v] == 0) order.push_back(v);
  }
  for (std::size_t i = 0; i < order.size(); ++i)
    for (std::size_t e = 0; e < p.edges.size(); ++e)
      if (use(e) && p.edges[e].from == order[i] && --indegree[p.edges[e].to] == 0) order.push_back(p.edges[e].to);
  if (order.size() != kept) order.clear();
  return order;
}

bool contains(const std::vector<std::uint32_t>& v, std::uint32_t x) {
  return std::find(v.begin(), v.end(), x) != v.end();
}

}  // namespace

ipet_problem make_ipet_problem(const ipg& graph, const trace_observations& obs,
                               const std::vector<std::optional<std::uint64_t>>& given) {
  ipet_problem p;
  p.names = graph.names;
  p.source = graph.source;
  p.sink = graph.sink;
  for (std::size_t e = 0; e < graph.edges.size(); ++e) {
    ipet_edge pe;
    pe.from = graph.edges[e].from;
    pe.to = graph.edges[e].to;
    pe.weight = obs.edges[e].wcet;
    // Divergent edges open cycles that no loop bound covers (Sec. IV-C: they make the CFG
    // irreducible); their largest count per warp seen in the traces bounds them.
    if (graph.edges[e].divergent) pe.cap = obs.edges[e].max_count;
    p.edges.push_back(pe);
  }
  for (std::size_t l = 0; l < graph.loops.size(); ++l) {
    ipet_loop pl;
    pl.name = graph.loops[l].header_name;
    pl.entered_at_start = graph.loops[l].entered_at_start;
    pl.body = graph.loops[l].body;
    pl.bound = l < given.size() && given[l] ? *given[l] : obs.loop_bound[l];
    for (std::uint32_t e = 0; e < graph.edges.size(); ++e) {
      if (contains(graph.edges[e].iterates, static_cast<std::uint32_t>(l))) pl.iterates.push_back(e);
      if (contains(graph.edges[e].enters, static_cast<std::uint32_t>(l))) pl.enters.push_back(e);
    }
    p.loops.push_back(std::move(pl));
  }
  // Visit bounds: once per pass (per warp outside loops), or what one pass of an observed warp
  // took where that is more. t is reached once by flow conservation.
  const auto scope = innermost_loops(graph);
  for (std::uint32_t v = 0; v < graph.names.size(); ++v) {
    if (v == graph.sink) continue;
    if (v < obs.visits_unbounded.size() && obs.visits_unbounded[v]) continue;
    ipet_visit_bound b;
    b.vertex = v;
    b.loop = scope[v];
    b.per_pass = std::max<std::uint64_t>(1, v < obs.visits_per_pass.size() ? obs.visits_per_pass[v] : 0);
    p.visits.push_back(b);
  }
  return p;
}

std::vector<std::uint32_t> pass_edges(const ipet_problem& p, std::size_t l) {
  std::vector<std::uint32_t> out = p.loops[l].enters;
  for (std::uint32_t e : p.loops[l].iterates)
    if (!contains(out, e)) out.push_back(e);
  std::sort(out.begin(), out.end());
  return out;
}

namespace {

/// The visit bound of `b` as a row: coefficient per edge and the right-hand side (row <= rhs).
std::pair<std::vector<double>, double> visit_row(const ipet_problem& p, const ipet_visit_bound& b) {
  std::vector<double> coef(p.edges.size(), 0);
  for (std::size_t e = 0; e < p.edges.size(); ++e)
    if (p.edges[e].to == b.vertex) coef[e] += 1;
  const double k = static_cast<double>(b.per_pass);
  double rhs = k;
  if (b.loop >= 0) {
    for (std::uint32_t e : pass_edges(p, static_cast<std::size_t>(b.loop))) coef[e] -= k;
    rhs = p.loops[static_cast<std::size_t>(b.loop)].entered_at_start ? k : 0.0;
  }
  if (b.vertex == p.source) rhs -= 1;  // the warp's start visits s without an edge
  return {coef, rhs};
}

}  // namespace

std::string broken_visit_bound(const ipet_problem& p, const std::vector<std::uint64_t>& counts) {
  for (const auto& b : p.visits) {
    const auto [coef, rhs] = visit_row(p, b);
    double lhs = 0;
    for (std::size_t e = 0; e < coef.size(); ++e) lhs += coef[e] * static_cast<double>(counts.at(e));
    if (lhs > rhs) {
      std::uint64_t visits = b.vertex == p.source;
      for (std::size_t e = 0; e < p.edges.size(); ++e) visits += p.edges[e].to == b.vertex ? counts[e] : 0;
      std::uint64_t passes = 1;
      if (b.loop >= 0) {
        passes = p.loops[static_cast<std::size_t>(b.loop)].entered_at_start;
        for (std::uint32_t e : pass_edges(p, static_cast<std::size_t>(b.loop))) passes += counts[e];
      }
      return p.names[b.vertex] + ": " + std::to_string(visits) + " visits > " + std::to_string(b.per_pass) + " x " +
             std::to_string(passes) +
             (b.loop >= 0 ? " passes of loop " + p.loops[static_cast<std::size_t>(b.loop)].name : " (per warp)");
    }
  }
  return {};
}

std::string ipet_lp_text(const ipet_problem& p, const std::string& title) {
  std::ostringstream out;
  out << "\\ warpspan wcet: IPET over the IPG of " << title << " (002 Sec. II-C)\n";
  for (std::size_t e = 0; e < p.edges.size(); ++e)
    out << "\\ x" << e << ": " << p.names[p.edges[e].from] << " -> " << p.names[p.edges[e].to] << "\n";
  out << "Maximize\n obj:";
  bool any = false;
  for (std::size_t e = 0; e < p.edges.size(); ++e)
    if (p.edges[e].weight != 0) out << (any ? " + " : " ") << p.edges[e].weight << " x" << e, any = true;
  if (!any) out << " 0 x0";
  out << "\nSubject To\n";
  for (std::uint32_t v = 0; v < p.names.size(); ++v) {
    std::ostringstream row;
    bool terms = false;
    for (std::size_t e = 0; e < p.edges.size(); ++e) {
      const int c = (p.edges[e].to == v) - (p.edges[e].from == v);
      if (c != 0) row << (c > 0 ? " + x" : " - x") << e, terms = true;
    }
    const int rhs = (v == p.sink) - (v == p.source);
    if (terms) out << " flow_" << v << ":" << row.str() << " = " << rhs << "\n";
  }
  for (std::size_t l = 0; l < p.loops.size(); ++l) {
    const auto& L = p.loops[l];
    if (L.iterates.empty()) continue;
    out << " loop_" << l << ":";
    for (std::uint32_t e : L.iterates) out << " + x" << e;
    for (std::uint32_t e : L.enters) out << " - " << L.bound << " x" << e;
    out << " <= " << (L.entered_at_start ? L.bound : 0) << "\n";
  }
  for (const auto& b : p.visits) {
    const auto [coef, rhs] = visit_row(p, b);
    std::ostringstream row;
    bool terms = false;
    for (std::size_t e = 0; e < coef.size(); ++e) {
      if (coef[e] == 0) continue;
      const auto c = static_cast<std::int64_t>(coef[e]);
      row << (c > 0 ? " + " : " - ");
      if (c != 1 && c != -1) row << (c > 0 ? c : -c) << " ";
      row << "x" << e;
      terms = true;
    }
    if (terms) out << " visits_" << b.vertex << ":" << row.str() << " <= " << static_cast<std::int64_t>(rhs) << "\n";
  }
  out << "Bounds\n";
  for (std::size_t e = 0; e < p.edges.size(); ++e)
    if (p.edges[e].cap) out << " x" << e << " <= " << *p.edges[e].cap << "\n";
  out << "General\n";
  for (std::size_t e = 0; e < p.edges.size(); ++e) out << " x" << e << "\n";
  out << "End\n";
  return out.str();
}

#if WARPSPAN_HAVE_CBC

bool ipet_compiled() { return true; }

ipet_solution solve_ipet(const ipet_problem& p) {
  ipet_solution sol;
  const std::size_t ncols = p.edges.size();
  if (ncols == 0) return sol;  // s is t: a program of one block
  constexpr double inf = std::numeric_limits<double>::max();
  // Rows: flow per vertex, then one per loop with iterations.
  std::vector<std::vector<std::pair<int, double>>> cols(ncols);
  std::vector<double> rowlb, rowub;
  int row = 0;
  for (std::uint32_t v = 0; v < p.names.size(); ++v, ++row) {
    for (std::size_t e = 0; e < ncols; ++e) {
      const int c = (p.edges[e].to == v) - (p.edges[e].from == v);
      if (c != 0) cols[e].push_back({row, c});
    }
    const double rhs = (v == p.sink) - (v == p.source);
    rowlb.push_back(rhs);
    rowub.push_back(rhs);
  }
  for (const auto& L : p.loops) {
    if (L.iterates.empty()) continue;
    std::vector<double> coef(ncols, 0);
    for (std::uint32_t e : L.iterates) coef[e] += 1;
    for (std::uint32_t e : L.enters) coef[e] -= static_cast<double>(L.bound);
    for (std::size_t e = 0; e < ncols; ++e)
      if (coef[e] != 0) cols[e].push_back({row, coef[e]});
    rowlb.push_back(-inf);
    rowub.push_back(L.entered_at_start ? static_cast<double>(L.bound) : 0.0);
    ++row;
  }
  for (const auto& b : p.visits) {
    const auto [coef, rhs] = visit_row(p, b);
    bool terms = false;
    for (std::size_t e = 0; e < ncols; ++e)
      if (coef[e] != 0) cols[e].push_back({row, coef[e]}), terms = true;
    if (!terms) continue;
    rowlb.push_back(-inf);
    rowub.push_back(rhs);
    ++row;
  }
  std::vector<CoinBigIndex> start{0};
  std::vector<int> index;
  std::vector<double> value, collb(ncols, 0), colub(ncols), obj(ncols);
  for (std::size_t e = 0; e < ncols; ++e) {
    for (const auto& [r, c] : cols[e]) index.push_back(r), value.push_back(c);
    start.push_back(static_cast<CoinBigIndex>(index.size()));
    colub[e] = p.edges[e].cap ? static_cast<double>(*p.edges[e].cap) : inf;
    obj[e] = static_cast<double>(p.edges[e].weight);
  }
  // CBC is not thread-safe (detail/core/cbc_lock.hpp): the model lives and is solved under the lock.
  const std::lock_guard<std::mutex> lock(cbc_mutex());
  std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> cbc(Cbc_newModel(), Cbc_deleteModel);
  Cbc_loadProblem(cbc.get(), static_cast<int>(ncols), row, start.data(), index.data(), value.data(), collb.data(),
                  colub.data(), obj.data(), rowlb.data(), rowub.data());
  for (std::size_t e = 0; e < ncols; ++e) Cbc_setInteger(cbc.get(), static_cast<int>(e));
  Cbc_setObjSense(cbc.get(), -1);
  Cbc_setLogLevel(cbc.get(), 0);
  Cbc_setParameter(cbc.get(), "log", "0");
  Cbc_solve(cbc.get());
  if (Cbc_isContinuousUnbounded(cbc.get()))
    throw input_error("the IPET problem is unbounded: a cycle of the IPG has no loop bound");
  const double* x = Cbc_getColSolution(cbc.get());
  if (Cbc_isProvenInfeasible(cbc.get()))
    throw input_error("the IPET problem is infeasible: no path from s to t keeps to the loop bounds and caps");
  if (!Cbc_isProvenOptimal(cbc.get()) || x == nullptr)
    throw std::runtime_error("CBC found no optimal solution of the IPET problem (status " +
                             std::to_string(Cbc_status(cbc.get())) + ")");
  for (std::size_t e = 0; e < ncols; ++e) {
    const auto c = static_cast<std::uint64_t>(std::llround(x[e]));
    sol.counts.push_back(c);
    std::int64_t term = 0;
    if (__builtin_mul_overflow(p.edges[e].weight, static_cast<std::int64_t>(c), &term) ||
        __builtin_add_overflow(sol.wcet, term, &sol.wcet))
      throw input_error("the WCET estimate does not fit 64 bits");
  }
  return sol;
}

std::int64_t solve_ipet_lp_text(const std::string& text) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/warpspan_ipet_XXXXXX.lp";
  const int fd = mkstemps(path.data(), 3);
  if (fd < 0) throw std::runtime_error("IPET: cannot create a temporary file " + path);
  const bool written = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  const std::lock_guard<std::mutex> lock(cbc_mutex());
  std::unique_ptr<Cbc_Model, void (*)(Cbc_Model*)> cbc(Cbc_newModel(), Cbc_deleteModel);
  const int read = written ? Cbc_readLp(cbc.get(), path.c_str()) : 1;
  std::remove(path.c_str());
  if (read != 0) throw std::runtime_error("CBC could not read the LP text");
  Cbc_setLogLevel(cbc.get(), 0);
  Cbc_setParameter(cbc.get(), "log", "0");
  Cbc_solve(cbc.get());
  if (!Cbc_isProvenOptimal(cbc.get())) throw std::runtime_error("CBC found no optimum of the LP text");
  return std::llround(Cbc_getObjValue(cbc.get()));
}

#else

bool ipet_compiled() { return false; }

std::int64_t solve_ipet_lp_text(const std::string&) {
  throw not_compiled("reading LP text needs COIN-OR CBC, which this build does not link");
}

ipet_solution solve_ipet(const ipet_problem&) {
  throw not_compiled("the IPET ILP needs COIN-OR CBC, which this build does not link (use " + param("method", "tree") +
                     " or enumerate, or " + param("lp") + " to solve it elsewhere)");
}

#endif

namespace {

/// a + b and a x b, held at too_long where they pass it: weights are not negative, so a path
/// through a held value is at least as long, and an estimate that reaches too_long does not fit
/// 64 bits (tree_wcet refuses it as the ILP and the enumeration do). Paths into dead ends may pass
/// it without harm: only the longest path from s to t counts.
constexpr std::int64_t too_long = std::numeric_limits<std::int64_t>::max();
std::int64_t held_sum(std::int64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return __builtin_add_overflow(a, b, &out) ? too_long : out;
}
std::int64_t held_product(std::uint64_t a, std::int64_t b) {
  std::int64_t out = 0;
  return a > static_cast<std::uint64_t>(too_long) || __builtin_mul_overflow(static_cast<std::int64_t>(a), b, &out)
             ? too_long
             : out;
}

/// Longest paths from `start` over the edges `use` in topological `order`, with vertex weights
/// added on arrival; the last edge of each best path, to read the path back.
struct longest_paths {
  std::vector<std::optional<std::int64_t>> dist;
  std::vector<std::int64_t> via;
};

longest_paths longest(const ipet_problem& p, const std::vector<std::uint32_t>& order,
                      const std::function<bool(std::size_t)>& use, std::uint32_t start, std::int64_t start_value,
                      const std::vector<std::int64_t>& vertex) {
  longest_paths lp{std::vector<std::optional<std::int64_t>>(p.names.size()),
                   std::vector<std::int64_t>(p.names.size(), -1)};
  lp.dist[start] = start_value;
  for (std::uint32_t u : order) {
    if (!lp.dist[u]) continue;
    for (std::size_t e = 0; e < p.edges.size(); ++e)
      if (use(e) && p.edges[e].from == u) {
        const std::uint32_t v = p.edges[e].to;
        const std::int64_t d = held_sum(held_sum(*lp.dist[u], p.edges[e].weight), vertex[v]);
        if (!lp.dist[v] || d > *lp.dist[v]) lp.dist[v] = d, lp.via[v] = static_cast<std::int64_t>(e);
      }
  }
  return lp;
}

/// "a -(w)-> b [loop: x] -(w)-> c" for the best path ending at `to` (then edge `last`, if any).
std::string path_text(const ipet_problem& p, const longest_paths& lp, std::uint32_t from, std::uint32_t to,
                      const std::vector<std::string>& loop_note) {
  std::vector<std::size_t> edges;
  for (std::uint32_t v = to; v != from && lp.via[v] >= 0; v = p.edges[static_cast<std::size_t>(lp.via[v])].from)
    edges.push_back(static_cast<std::size_t>(lp.via[v]));
  std::string out = p.names[from] + loop_note[from];
  for (auto it = edges.rbegin(); it != edges.rend(); ++it)
    out += " -(" + std::to_string(p.edges[*it].weight) + ")-> " + p.names[p.edges[*it].to] + loop_note[p.edges[*it].to];
  return out;
}

}  // namespace

std::optional<std::int64_t> tree_wcet(const ipet_problem& p, std::string* explain) {
  const std::size_t n = p.names.size();
  std::vector<bool> removed(p.edges.size(), false);
  for (std::size_t e = 0; e < p.edges.size(); ++e)
    if (p.edges[e].cap) {
      if (*p.edges[e].cap > 0) return std::nullopt;
      removed[e] = true;  // never taken
    }
  std::vector<std::int64_t> vertex(n, 0);  // collapsed loops hang on their header Ipoint
  std::vector<std::string> note(n);        // what hangs there, for the explanation
  std::ostringstream text;
  const std::vector<bool> never = removed;  // capped at 0
  const auto taken = [&](const std::vector<std::uint32_t>& edges) {
    std::vector<std::uint32_t> out;
    for (std::uint32_t e : edges)
      if (!never[e]) out.push_back(e);
    return out;
  };
  std::vector<std::vector<std::size_t>> hung(n);  // the loops collapsed onto each Ipoint so far
  for (std::size_t l = 0; l < p.loops.size(); ++l) {
    const auto& L = p.loops[l];
    const auto iterates = taken(L.iterates), enters = taken(L.enters);
    if (iterates.empty()) continue;
    const std::uint32_t head = p.edges[iterates.front()].to;
    for (std::uint32_t e : iterates)
      if (p.edges[e].to != head || contains(enters, e)) return std::nullopt;
    for (std::uint32_t e : enters)
      if (p.edges[e].to != head) return std::nullopt;
    if (L.entered_at_start && head != p.source) return std::nullopt;
    // Inner loops already hung on the same Ipoint (nested loops whose headers have no Ipoint of their
    // own reach it first) run again on every iteration of this one, which re-enters them: their
    // value joins the cycle. That holds when each iteration enters each of them.
    for (std::size_t inner : hung[head])
      for (std::uint32_t e : iterates)
        if (!contains(p.loops[inner].enters, e)) return std::nullopt;
    for (std::uint32_t e : L.iterates) removed[e] = true;
    const auto in_body = [&](std::size_t e) { return !removed[e] && L.body[p.edges[e].from] && L.body[p.edges[e].to]; };
    const auto order = topological(p, L.body, in_body);
    if (order.empty()) return std::nullopt;
    const auto lp = longest(p, order, in_body, head, 0, vertex);
    std::int64_t cycle = 0;
    std::int64_t best = -1;
    for (std::uint32_t e : iterates)
      if (lp.dist[p.edges[e].from] && held_sum(*lp.dist[p.edges[e].from], p.edges[e].weight) >= cycle)
        cycle = held_sum(*lp.dist[p.edges[e].from], p.edges[e].weight), best = e;
    if (best >= 0) cycle = held_sum(cycle, vertex[head]);
    const std::int64_t value = held_product(L.bound, cycle);
    hung[head].push_back(l);
    if (explain) {
      text << "loop " << L.name << " at " << p.names[head] << ": " << L.bound << " x " << cycle << " = " << value;
      if (best >= 0)
        text << "  (body " << path_text(p, lp, head, p.edges[static_cast<std::size_t>(best)].from, note) << " -("
             << p.edges[static_cast<std::size_t>(best)].weight << ")-> " << p.names[head] << note[head] << ")";
      text << "\n";
    }
    vertex[head] = held_sum(vertex[head], value);
    note[head] += " [loop " + L.name + ": " + std::to_string(value) + "]";
  }
  const std::vector<bool> all(n, true);
  const auto use = [&](std::size_t e) { return !removed[e]; };
  const auto order = topological(p, all, use);
  if (order.empty()) return std::nullopt;
  const auto lp = longest(p, order, use, p.source, vertex[p.source], vertex);
  if (lp.dist[p.sink] && *lp.dist[p.sink] == too_long) throw input_error("the WCET estimate does not fit 64 bits");
  if (explain && lp.dist[p.sink]) {
    text << "longest path: " << path_text(p, lp, p.source, p.sink, note) << " = " << *lp.dist[p.sink] << "\n";
    *explain = text.str();
  }
  return lp.dist[p.sink];
}

std::optional<std::int64_t> enumerate_wcet(const ipet_problem& p, std::uint64_t budget) {
  const std::size_t n = p.names.size();
  std::vector<std::vector<std::uint32_t>> out(n);
  for (std::uint32_t e = 0; e < p.edges.size(); ++e) out[p.edges[e].from].push_back(e);
  std::vector<std::vector<std::uint32_t>> enters(p.edges.size()), iterates(p.edges.size());
  for (std::uint32_t l = 0; l < p.loops.size(); ++l) {
    for (std::uint32_t e : p.loops[l].enters) enters[e].push_back(l);
    for (std::uint32_t e : p.loops[l].iterates) iterates[e].push_back(l);
  }
  std::vector<std::uint64_t> iterations(p.loops.size(), 0), used(p.edges.size(), 0);
  // Visit bounds as the ILP states them: visits(v) <= K x passes of v's innermost loop (K outside
  // loops). Outside loops a path over its bound is cut at once; inside, more passes may follow, so the
  // bound is checked when the path reaches t.
  std::vector<std::uint64_t> limit(n, 0), visits(n, 0), passes(p.loops.size(), 0);  // limit 0: no bound
  std::vector<int> scope(n, -1);
  std::vector<std::vector<std::uint32_t>> passing(p.edges.size());  // per edge: the loops whose pass it starts
  for (const auto& b : p.visits) limit[b.vertex] = b.per_pass, scope[b.vertex] = b.loop;
  for (std::uint32_t l = 0; l < p.loops.size(); ++l) {
    passes[l] = p.loops[l].entered_at_start;
    for (std::uint32_t e : pass_edges(p, l)) passing[e].push_back(l);
  }
  const auto within_visit_bounds = [&] {
    for (const auto& b : p.visits)
      if (b.loop >= 0 && visits[b.vertex] > b.per_pass * passes[static_cast<std::size_t>(b.loop)]) return false;
    return true;
  };
  visits[p.source] = 1;
  std::optional<std::int64_t> best;
  // Depth-first over (vertex, counters) with an explicit stack: a path is as long as the loop bounds
  // let it be (a bound of 100000 makes a path of 200000 edges), far beyond what a call stack holds.
  // Every pushed frame costs a walked edge, so the budget bounds the stack too.
  struct frame {
    std::uint32_t v;
    std::uint32_t edge;    // the edge that led here (none for the source)
    std::size_t next = 0;  // the next out-edge of v to try
    std::int64_t length;
    std::size_t saved;  // where the counters reset by `edge` start in `saved`
  };
  constexpr auto none = std::numeric_limits<std::uint32_t>::max();
  std::vector<frame> stack{{p.source, none, 0, 0, 0}};
  std::vector<std::uint64_t> saved;  // iteration counters of loops that a frame's edge enters
  std::uint64_t walked = 0;
  const auto leave = [&] {  // undoes the edge that led to the top frame and pops it
    const frame& f = stack.back();
    if (f.edge != none) {
      --used[f.edge];
      for (std::uint32_t l : iterates[f.edge]) --iterations[l];
      for (std::size_t k = 0; k < enters[f.edge].size(); ++k) iterations[enters[f.edge][k]] = saved[f.saved + k];
      saved.resize(f.saved);
      --visits[f.v];
      for (std::uint32_t l : passing[f.edge]) --passes[l];
    }
    stack.pop_back();
  };
  while (!stack.empty()) {
    frame& f = stack.back();
    if (f.v == p.sink) {
      if (within_visit_bounds()) best = best ? std::max(*best, f.length) : f.length;
      leave();
      continue;
    }
    if (f.next == out[f.v].size()) {
      leave();
      continue;
    }
    const std::uint32_t e = out[f.v][f.next++];
    if (++walked > budget) return std::nullopt;
    const auto& edge = p.edges[e];
    if (edge.cap && used[e] >= *edge.cap) continue;
    const std::size_t mark = saved.size();
    for (std::uint32_t l : enters[e]) saved.push_back(iterations[l]), iterations[l] = 0;
    bool ok = true;
    for (std::uint32_t l : iterates[e]) ok = ++iterations[l] <= p.loops[l].bound && ok;
    for (std::uint32_t l : passing[e]) ++passes[l];
    ++visits[edge.to];
    ok = ok && (limit[edge.to] == 0 || scope[edge.to] >= 0 || visits[edge.to] <= limit[edge.to]);
    ++used[e];
    std::int64_t length = 0;
    if (__builtin_add_overflow(f.length, edge.weight, &length))
      throw input_error("the WCET estimate does not fit 64 bits");
    stack.push_back({edge.to, e, 0, length, mark});
    if (!ok) leave();  // over a bound: undo at once
  }
  return best;
}

}  // namespace warpspan::wcet
