// Exact worst-case makespan: memoised longest-path search over multisets of warp progress.
#include "warpspan/exact/search.hpp"

#include <algorithm>
#include <chrono>
#include <unordered_map>

#include "warpspan/core/error.hpp"
#include "warpspan/exact/frontier_host.hpp"
#include "warpspan/exact/packed_table.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

using clock_type = std::chrono::steady_clock;
using state = std::string;  // byte k: how many warps have done exactly k instructions, k = 0..I

struct stop_search {
  std::string reason;
};

/// The memo: longest remaining cycles per state. States of up to 16 warps with at most 254
/// instructions go packed into an open-addressing table; larger ones into a map keyed by the count
/// string.
class state_memo {
 public:
  explicit state_memo(std::uint32_t warps, std::uint32_t instructions)
      : packed_(warps <= frontier_max_warps && instructions <= frontier_max_instructions), table_(packed_ ? 1u << 16 : 16) {}

  const std::uint16_t* find(const state& s) const {
    if (packed_) return table_.find(pack(s));
    const auto it = map_.find(s);
    return it == map_.end() ? nullptr : &it->second;
  }

  void insert(const state& s, std::uint16_t value) {
    if (packed_)
      table_.insert_max(pack(s), value);
    else
      map_.emplace(s, value);
  }

  std::uint64_t size() const { return packed_ ? table_.size() : map_.size(); }

 private:
  static packed_state pack(const state& s) {
    return pack_counts(reinterpret_cast<const std::uint8_t*>(s.data()), static_cast<std::uint32_t>(s.size() - 1));
  }

  bool packed_;
  packed_table table_;
  std::unordered_map<state, std::uint16_t> map_;
};

class searcher {
 public:
  searcher(const problem& prob, const exact_options& options)
      : p_(prob.view()), options_(options), start_(clock_type::now()), memo_(p_.warps, p_.instructions) {
    levels_.resize(p_.ntypes);
    for (std::uint32_t k = 0; k < p_.instructions; ++k) levels_[p_.types[k]].push_back(k);
    max_states_ = options.max_states ? options.max_states : std::uint64_t{50'000'000};
  }

  state initial() const {
    state s(p_.instructions + 1, '\0');
    s[0] = static_cast<char>(p_.warps);
    return s;
  }

  /// Longest number of cycles from `s` to completion.
  std::uint32_t longest(const state& s) {
    if (static_cast<std::uint8_t>(s[p_.instructions]) == p_.warps) return 0;
    if (const std::uint16_t* known = memo_.find(s)) return *known;
    std::uint32_t best = 0;
    for_each_successor(s, [&](const state& next, const std::vector<std::uint8_t>&) {
      best = std::max(best, 1 + longest(next));
    });
    if ((memo_.size() & 0xFFFF) == 0) check_limits();
    memo_.insert(s, static_cast<std::uint16_t>(best));
    return best;
  }

  /// A schedule attaining longest(initial()): the pseudo-precedence string of its issues.
  std::vector<std::uint16_t> witness() {
    std::vector<std::uint32_t> progress(p_.warps, 0);
    std::vector<std::pair<std::uint32_t, std::uint16_t>> issues;  // (cycle, warp)
    state s = initial();
    std::uint32_t remaining = longest(s);
    for (std::uint32_t cycle = 1; remaining > 0; ++cycle) {
      bool found = false;
      state chosen;
      std::vector<std::uint8_t> take;
      for_each_successor(s, [&](const state& next, const std::vector<std::uint8_t>& t) {
        if (found || longest(next) + 1 != remaining) return;
        found = true;
        chosen = next;
        take = t;
      });
      // take[k] warps move from level k: the lowest-numbered ones there.
      std::vector<std::uint32_t> moved;
      for (std::uint32_t w = 0; w < p_.warps; ++w) {
        const std::uint32_t k = progress[w];
        if (k < p_.instructions && take[k] > 0) {
          --take[k];
          moved.push_back(w);
          issues.emplace_back(cycle, static_cast<std::uint16_t>(w));
        }
      }
      for (std::uint32_t w : moved) ++progress[w];
      s = std::move(chosen);
      --remaining;
    }
    std::stable_sort(issues.begin(), issues.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::uint16_t> str;
    str.reserve(issues.size());
    for (const auto& issue : issues) str.push_back(issue.second);
    return str;
  }

  std::uint64_t states() const { return memo_.size(); }

 private:
  void check_limits() {
    if (memo_.size() >= max_states_) throw stop_search{"state limit (" + std::to_string(max_states_) + " states) reached"};
    if (options_.time_limit_s > 0 &&
        std::chrono::duration<double>(clock_type::now() - start_).count() > options_.time_limit_s)
      throw stop_search{"time limit reached"};
  }

  /// Calls f(next, take) for every successor by a maximal issue set; take[k] = warps issued from
  /// level k.
  template <class F>
  void for_each_successor(const state& s, F&& f) {
    std::vector<std::uint32_t> ready(p_.ntypes, 0), most(p_.ntypes, 0);
    std::uint32_t total = 0;
    for (std::uint32_t t = 0; t < p_.ntypes; ++t) {
      for (std::uint32_t k : levels_[t]) ready[t] += static_cast<std::uint8_t>(s[k]);
      most[t] = std::min<std::uint32_t>(ready[t], p_.cap[t]);
      total += most[t];
    }
    std::vector<std::uint32_t> quota(most);
    std::vector<std::uint8_t> take(p_.instructions, 0);
    state next = s;
    if (!p_.limited || total <= p_.cap[p_.ntypes]) {
      place(s, 0, 0, quota, take, next, f);
      return;
    }
    // The scheduler limit binds: every split of cap[ntypes] issues over the types within `most`.
    split(s, 0, p_.cap[p_.ntypes], most, quota, take, next, f);
  }

  template <class F>
  void split(const state& from, std::uint32_t t, std::uint32_t left, const std::vector<std::uint32_t>& most,
             std::vector<std::uint32_t>& quota, std::vector<std::uint8_t>& take, state& next, F& f) {
    if (t + 1 == p_.ntypes) {
      if (left > most[t]) return;
      quota[t] = left;
      place(from, 0, 0, quota, take, next, f);
      return;
    }
    for (std::uint32_t q = 0; q <= std::min(left, most[t]); ++q) {
      quota[t] = q;
      split(from, t + 1, left - q, most, quota, take, next, f);
    }
  }

  /// Distributes quota[t] issues over the levels of type t, type after type.
  template <class F>
  void place(const state& from, std::uint32_t t, std::uint32_t li, std::vector<std::uint32_t>& quota, std::vector<std::uint8_t>& take,
             state& next, F& f) {
    if (t == p_.ntypes) {
      f(static_cast<const state&>(next), static_cast<const std::vector<std::uint8_t>&>(take));
      return;
    }
    const auto& lv = levels_[t];
    if (quota[t] == 0 || li == lv.size()) {
      if (quota[t] == 0) place(from, t + 1, 0, quota, take, next, f);
      return;  // quota left but no levels: not a valid split (cannot happen when quota <= ready)
    }
    const std::uint32_t k = lv[li];
    const std::uint32_t here = static_cast<std::uint8_t>(from[k]);  // warps at k before this cycle
    // The later levels of this type hold the rest of the ready warps: take at least what they cannot.
    std::uint32_t later = 0;
    for (std::size_t m = li + 1; m < lv.size(); ++m) later += static_cast<std::uint8_t>(from[lv[m]]);
    const std::uint32_t lo = quota[t] > later ? quota[t] - later : 0;
    const std::uint32_t hi = std::min(quota[t], here);
    for (std::uint32_t x = lo; x <= hi; ++x) {
      take[k] = static_cast<std::uint8_t>(x);
      next[k] = static_cast<char>(static_cast<std::uint8_t>(next[k]) - x);
      next[k + 1] = static_cast<char>(static_cast<std::uint8_t>(next[k + 1]) + x);
      quota[t] -= x;
      place(from, t, li + 1, quota, take, next, f);
      quota[t] += x;
      next[k + 1] = static_cast<char>(static_cast<std::uint8_t>(next[k + 1]) - x);
      next[k] = static_cast<char>(static_cast<std::uint8_t>(next[k]) + x);
      take[k] = 0;
    }
  }

  problem_view p_;
  exact_options options_;
  clock_type::time_point start_;
  std::vector<std::vector<std::uint32_t>> levels_;
  state_memo memo_;
  std::uint64_t max_states_ = 0;
};

}  // namespace

exact_result exact_search_cpu(const problem& prob, const exact_options& options) {
  if (prob.warps > exact_max_warps)
    throw input_error("the exact search takes at most " + std::to_string(exact_max_warps) + " warps, not " +
                      std::to_string(prob.warps) + " (use the tractable estimate for large W)");
  const auto start = clock_type::now();
  exact_result r;
  searcher s(prob, options);
  try {
    r.makespan = s.longest(s.initial());
    r.best_string = s.witness();
    r.complete = true;
    r.lower = r.upper = r.makespan;
  } catch (const stop_search& stop) {
    r.stop_reason = stop.reason;
    exact_detail::fill_interval(prob, r, 0);
  }
  r.states = s.states();
  r.elapsed_s = std::chrono::duration<double>(clock_type::now() - start).count();
  return r;
}

exact_result exact_search(const problem& prob, const exact_options& options, backend_kind backend, std::string* used) {
  const bool packs = prob.warps <= frontier_max_warps && prob.instructions() <= frontier_max_instructions;
  std::string name;
  exact_result r;
  // auto stays on the CPU: the device sweep has not been measured yet.
  if (backend == backend_kind::cuda && resolve_backend(backend) == backend_kind::cuda) {
    if (!packs)
      throw input_error("--backend cuda: the device search takes at most " + std::to_string(frontier_max_warps) +
                        " warps and " + std::to_string(frontier_max_instructions) + " instructions");
    name = "sweep";
    r = exact_sweep_cuda(prob, options);
  } else if (packs) {
    name = "sweep";
    r = exact_sweep_cpu(prob, options);
  } else {
    name = "depth-first";
    r = exact_search_cpu(prob, options);
  }
  if (used) *used = name;
  return r;
}

namespace exact_detail {

void fill_interval(const problem& prob, exact_result& r, std::uint32_t) {
  r.complete = false;
  r.upper = static_cast<std::uint32_t>(pessimistic_bound(prob));
  // A proven lower bound: the best of the standard initial strings.
  const problem_view p = prob.view();
  for (initial_kind kind : {initial_kind::round_robin, initial_kind::fixed_priority, initial_kind::most_pending}) {
    std::vector<std::uint16_t> str = initial_string(p, kind, 0, 0);
    const std::uint32_t m = build_schedule(prob, str).makespan;
    if (m > r.lower) {
      r.lower = m;
      r.best_string = std::move(str);
    }
  }
}

}  // namespace exact_detail

std::pair<std::uint64_t, std::uint32_t> tractable_estimate(std::uint64_t warps, const std::vector<std::uint32_t>& t) {
  if (t.empty()) throw input_error("the tractable estimate needs T(1) at least");
  std::pair<std::uint64_t, std::uint32_t> best{~std::uint64_t{0}, 0};
  for (std::uint32_t y = 1; y <= t.size(); ++y) {
    const std::uint64_t v = (warps + y - 1) / y * t[y - 1];
    if (v < best.first) best = {v, y};
  }
  return best;
}

}  // namespace warpspan
