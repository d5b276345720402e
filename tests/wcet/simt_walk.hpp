// Random reducible CFGs and a SIMT walk with immediate-post-dominator reconvergence (the stack-based
// scheme GPUs implement, 002 Sec. III-B and IV-B), for the property tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "warpspan/wcet/cfg.hpp"

namespace warpspan::wcet::test {

/// Structured programs with sequences, if, if-else, three-way switches, while and do-while loops
/// and breaks out of loops: reducible by construction. `header_ipoints` puts an Ipoint on every loop
/// header (the tree-based calculation needs one there); other blocks get one with probability 1/2.
class random_cfg {
 public:
  random_cfg(std::uint64_t seed, bool header_ipoints, int max_depth = 3) : rng_(seed), header_ipoints_(header_ipoints) {
    const block_id s = block(true);
    const auto [first, last] = region(0, max_depth, {});
    const block_id t = block(true);
    g_.add_edge(s, first);
    g_.add_edge(last, t);
    g_.entry = s;
    g_.exit = t;
    g_.name = "random" + std::to_string(seed);
  }
  const cfg& graph() const { return g_; }

 private:
  std::mt19937_64 rng_;
  bool header_ipoints_;
  cfg g_;

  int pick(int n) { return static_cast<int>(rng_() % static_cast<std::uint64_t>(n)); }

  block_id block(bool ipoint = false) {
    const auto b = static_cast<block_id>(g_.blocks.size());
    g_.blocks.push_back("b" + std::to_string(b));
    g_.ipoint.push_back(ipoint || pick(2) == 0 ? "i" + std::to_string(b) : std::string());
    g_.succ.emplace_back();
    g_.pred.emplace_back();
    return b;
  }
  void mark_header(block_id b) {
    if (header_ipoints_) g_.ipoint[b] = "i" + std::to_string(b);
  }

  /// A single-entry single-exit region; `exits` are the exit blocks of the enclosing loops,
  /// innermost last (a break leaves the innermost loop or the two innermost, like a goto).
  std::pair<block_id, block_id> region(int depth, int max_depth, std::vector<block_id> exits) {
    const int kinds = depth >= max_depth ? 1 : 8;
    switch (pick(kinds)) {
      case 0: {
        const block_id b = block();
        return {b, b};
      }
      case 1: {
        const auto a = region(depth + 1, max_depth, exits);
        const auto b = region(depth + 1, max_depth, exits);
        g_.add_edge(a.second, b.first);
        return {a.first, b.second};
      }
      case 2: {  // if
        const block_id c = block();
        const auto t = region(depth + 1, max_depth, exits);
        const block_id j = block();
        g_.add_edge(c, t.first);
        g_.add_edge(c, j);
        g_.add_edge(t.second, j);
        return {c, j};
      }
      case 3:
      case 4: {  // if-else, or a three-way switch
        const block_id c = block();
        const int ways = pick(2) == 0 ? 2 : 3;
        std::vector<std::pair<block_id, block_id>> arms;
        for (int k = 0; k < ways; ++k) arms.push_back(region(depth + 1, max_depth, exits));
        const block_id j = block();
        for (const auto& a : arms) {
          g_.add_edge(c, a.first);
          g_.add_edge(a.second, j);
        }
        return {c, j};
      }
      case 5: {  // while: the header tests
        const block_id h = block();
        mark_header(h);
        const block_id x = block();
        auto inner = exits;
        inner.push_back(x);
        const auto body = region(depth + 1, max_depth, inner);
        g_.add_edge(h, body.first);
        g_.add_edge(body.second, h);
        g_.add_edge(h, x);
        return {h, x};
      }
      case 6: {  // do-while: a latch at the end tests
        const block_id h = block();
        mark_header(h);
        const block_id x = block();
        auto inner = exits;
        inner.push_back(x);
        const auto body = region(depth + 1, max_depth, inner);
        const block_id latch = block();
        g_.add_edge(h, body.first);
        g_.add_edge(body.second, latch);
        g_.add_edge(latch, h);
        g_.add_edge(latch, x);
        return {h, x};
      }
      default: {  // a break out of the innermost loop (or a plain branch outside loops)
        const block_id c = block();
        const block_id j = block();
        g_.add_edge(c, j);
        if (!exits.empty())
          g_.add_edge(c, exits.size() >= 2 && pick(2) == 0 ? exits[exits.size() - 2] : exits.back());
        else
          g_.add_edge(c, block()), g_.add_edge(static_cast<block_id>(g_.size() - 1), j);
        return {c, j};
      }
    }
  }
};

/// One warp's execution: the blocks in the order the warp runs them and when each starts.
struct warp_run {
  std::vector<block_id> blocks;
  std::vector<std::int64_t> start;
};

/// Runs `threads` threads of one warp through `g` with the post-dominator stack: at a block with
/// several successors each active thread picks one at random (after `patience` branches a thread
/// heads for the exit, so loops end); the sides run in random order, each until the branch's
/// immediate post-dominator, where they join. Each block takes 1..9 cycles.
inline warp_run simt_walk(const cfg& g, const std::vector<block_id>& ipdom, std::uint64_t seed, int threads,
                          int patience = 12) {
  std::mt19937_64 rng(seed);
  // Shortest distance to the exit, for threads that have run out of patience.
  std::vector<int> dist(g.size(), std::numeric_limits<int>::max());
  std::vector<block_id> todo{g.exit};
  dist[g.exit] = 0;
  for (std::size_t i = 0; i < todo.size(); ++i)
    for (block_id p : g.pred[todo[i]])
      if (dist[p] == std::numeric_limits<int>::max()) dist[p] = dist[todo[i]] + 1, todo.push_back(p);
  struct entry {
    block_id pc, rpc;
    std::vector<int> mask;
  };
  const block_id none = static_cast<block_id>(g.size());
  std::vector<int> all(static_cast<std::size_t>(threads));
  for (int t = 0; t < threads; ++t) all[static_cast<std::size_t>(t)] = t;
  std::vector<int> branches(static_cast<std::size_t>(threads), 0);
  std::vector<entry> stack{{g.entry, none, all}};
  warp_run run;
  std::int64_t now = 0;
  while (!stack.empty()) {
    entry& top = stack.back();
    if (top.pc == top.rpc) {
      stack.pop_back();
      continue;
    }
    const block_id b = top.pc;
    run.blocks.push_back(b);
    run.start.push_back(now);
    now += 1 + static_cast<std::int64_t>(rng() % 9);
    if (g.succ[b].empty()) {  // the exit: these threads are done
      stack.pop_back();
      continue;
    }
    std::vector<std::pair<block_id, std::vector<int>>> groups;
    for (int t : top.mask) {
      block_id next;
      if (g.succ[b].size() == 1) {
        next = g.succ[b][0];
      } else if (++branches[static_cast<std::size_t>(t)] > patience) {
        next = *std::min_element(g.succ[b].begin(), g.succ[b].end(),
                                 [&](block_id x, block_id y) { return dist[x] < dist[y]; });
      } else {
        next = g.succ[b][rng() % g.succ[b].size()];
      }
      auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& gr) { return gr.first == next; });
      if (it == groups.end())
        groups.push_back({next, {t}});
      else
        it->second.push_back(t);
    }
    if (groups.size() == 1) {
      top.pc = groups[0].first;
      continue;
    }
    const block_id r = ipdom[b];
    top.pc = r;  // the threads meet again at the post-dominator
    std::shuffle(groups.begin(), groups.end(), rng);
    for (auto& [pc, mask] : groups) stack.push_back({pc, r, std::move(mask)});
  }
  return run;
}

}  // namespace warpspan::wcet::test
