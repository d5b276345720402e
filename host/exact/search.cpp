// Exact worst-case makespan: memoised longest-path search over multisets of warp progress.
#include "warpspan/exact/search.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <string_view>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/detail/exact/packed_table.hpp"
#include "warpspan/exact/sweep_ranks.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

using clock_type = std::chrono::steady_clock;

/// Warps at one progress level (level k: k instructions done, k = 0..I). With per-warp kernels the
/// level is a key: the warps of group g at progress k have key base_g + k (searcher::keys_), so
/// that only warps of one group, which run one string, share an entry.
struct level_count {
  std::uint32_t level;
  std::uint32_t count;
};
/// A state: the occupied levels in increasing order. Sparse, so that a state takes O(W) memory and
/// time however long the kernel is (a dense count per level made a 70,000-instruction kernel cost
/// 70 KB a state).
using state = std::vector<level_count>;

// The packed memo holds 16-bit values: a packed state's remaining cycles are at most W * I (every
// cycle issues at least one instruction).
static_assert(std::uint64_t{frontier_max_warps} * frontier_max_instructions <= 0xFFFF,
              "packed states' makespans must fit the packed table's 16-bit values");

struct stop_search {
  std::string reason;
  bool interrupted = false;
};

/// States of more than 16 warps or 254 instructions, by their bytes, with 32-bit values: open
/// addressing over one array of slots and one of key bytes. Freeing it is freeing two arrays (a
/// node-based map of 50 million states took seconds to free after the time limit, which the run
/// then overran by a quarter).
class byte_key_table {
 public:
  bool find(std::string_view key, std::uint32_t& value) const {
    if (slots_.empty()) return false;
    for (std::size_t i = hash(key) & mask(); slots_[i].length != 0; i = (i + 1) & mask())
      if (key_of(slots_[i]) == key) {
        value = slots_[i].value;
        return true;
      }
    return false;
  }

  void insert(std::string_view key, std::uint32_t value) {
    if (2 * (count_ + 1) > slots_.size()) grow();
    std::size_t i = hash(key) & mask();
    for (; slots_[i].length != 0; i = (i + 1) & mask())
      if (key_of(slots_[i]) == key) {
        slots_[i].value = std::max(slots_[i].value, value);
        return;
      }
    slots_[i] = {bytes_.size(), static_cast<std::uint32_t>(key.size()), value};
    bytes_.insert(bytes_.end(), key.begin(), key.end());
    ++count_;
  }

  std::uint64_t size() const { return count_; }
  std::uint64_t bytes() const { return bytes_.capacity() + slots_.capacity() * sizeof(slot); }

 private:
  struct slot {
    std::uint64_t offset = 0;
    std::uint32_t length = 0;  ///< 0: empty (keys are never empty: a state has a level)
    std::uint32_t value = 0;
  };
  static std::uint64_t hash(std::string_view key) {  // FNV-1a, then mixed so the low bits spread
    std::uint64_t h = 1469598103934665603ull;
    for (const char c : key) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h ^ (h >> 29);
  }
  std::size_t mask() const { return slots_.size() - 1; }
  std::string_view key_of(const slot& s) const { return {bytes_.data() + s.offset, s.length}; }
  void grow() {
    std::vector<slot> old(std::max<std::size_t>(slots_.size() * 2, 1024));
    old.swap(slots_);
    for (const slot& s : old) {
      if (s.length == 0) continue;
      std::size_t i = hash(key_of(s)) & mask();
      while (slots_[i].length != 0) i = (i + 1) & mask();
      slots_[i] = s;
    }
  }

  std::vector<slot> slots_;
  std::vector<char> bytes_;
  std::uint64_t count_ = 0;
};

/// The memo: longest remaining cycles per state. States of up to 16 warps with at most 254
/// instructions go packed into an open-addressing table; larger ones into a map keyed by the state's
/// bytes, with 32-bit values (remaining cycles reach W * I, far beyond 16 bits).
class state_memo {
 public:
  explicit state_memo(std::uint32_t warps, std::uint32_t instructions)
      : packed_(warps <= frontier_max_warps && instructions <= frontier_max_instructions),
        table_(packed_ ? 1u << 16 : 16) {}

  bool find(const state& s, std::uint32_t& value) const {
    if (packed_) {
      const std::uint16_t* v = table_.find(pack(s));
      if (v) value = *v;
      return v != nullptr;
    }
    return map_.find(text(s), value);
  }

  void insert(const state& s, std::uint32_t value) {
    if (packed_) {
      table_.insert_max(pack(s), static_cast<std::uint16_t>(value));
    } else {
      map_.insert(text(s), value);
    }
  }

  std::uint64_t size() const { return packed_ ? table_.size() : map_.size(); }
  std::uint64_t bytes() const { return packed_ ? table_.bytes() : map_.bytes(); }

 private:
  /// The packed form of frontier.hpp: each warp's progress plus one, a byte each, in increasing order.
  static packed_state pack(const state& s) {
    packed_state key = 0;
    for (const level_count& e : s)
      for (std::uint32_t c = 0; c < e.count; ++c) key = (key << 8) | (e.level + 1);
    return key;
  }

  /// Four bytes of level and one of count per occupied level (W <= 255).
  static std::string text(const state& s) {
    std::string key(5 * s.size(), '\0');
    for (std::size_t i = 0; i < s.size(); ++i) {
      for (int b = 0; b < 4; ++b) key[5 * i + b] = static_cast<char>(s[i].level >> (8 * b));
      key[5 * i + 4] = static_cast<char>(s[i].count);
    }
    return key;
  }

  bool packed_;
  packed_table table_;
  byte_key_table map_;
};

class searcher {
 public:
  searcher(const problem& prob, const depth_first_options& options)
      : p_(prob.view()),
        options_(options),
        start_(clock_type::now()),
        keys_(make_keys(p_)),
        memo_(p_.warps, static_cast<std::uint32_t>(keys_.key.size() - 1)) {
    max_states_ = options.max_states ? options.max_states : std::uint64_t{50'000'000};
    memory_limit_ = memory_budget_bytes(~std::uint64_t{0});
  }

  state initial() const {
    state s;
    for (const group& g : keys_.groups) s.push_back({g.base, g.warps});
    return s;
  }

  bool done(const state& s) const {
    for (const level_count& e : s)
      if (!keys_.key[e.level].done) return false;
    return true;
  }

  /// Longest number of cycles from `s` to completion. Depth first with an explicit stack: the path
  /// is as deep as the makespan, thousands of cycles, which the call stack does not hold.
  std::uint32_t longest(const state& root) {
    std::uint32_t value = 0;
    if (done(root) || memo_.find(canonical(root), value)) return value;
    struct frame {
      state s;
      std::vector<state> next;  ///< its successors
      std::size_t i = 0;        ///< the next successor to take
      std::uint32_t best = 0;   ///< longest over successors 0..i-1, plus one
    };
    std::vector<frame> stack;
    auto open = [&](state s) {
      // The clock every 64 states opened (a state's successors cost microseconds, the clock
      // nanoseconds), so a time limit or Ctrl-C ends the search promptly even where each costs more.
      if ((++opened_ & 0x3F) == 0) check_limits();
      frame f;
      f.s = std::move(s);
      successors(f.s, f.next, nullptr);
      stack.push_back(std::move(f));
    };
    open(root);
    for (;;) {
      frame& top = stack.back();
      if (top.i < top.next.size()) {
        state& child = top.next[top.i];
        value = 0;
        if (!done(child) && !memo_.find(canonical(child), value)) {
          open(std::move(child));  // `top` dangles from here on
          continue;
        }
        top.best = std::max(top.best, 1 + value);
        ++top.i;
        continue;
      }
      // Every successor is known: the state is final.
      if (memo_.size() >= max_states_) check_limits();
      memo_.insert(canonical(top.s), top.best);
      value = top.best;
      stack.pop_back();
      if (stack.empty()) return value;
      frame& parent = stack.back();
      parent.best = std::max(parent.best, 1 + value);
      ++parent.i;
    }
  }

  /// A schedule attaining longest(initial()): the pseudo-precedence string of its issues.
  std::vector<std::uint16_t> witness() {
    std::vector<std::uint32_t> progress(p_.warps, 0);
    std::vector<std::pair<std::uint32_t, std::uint16_t>> issues;  // (cycle, warp)
    state s = initial();
    std::uint32_t remaining = longest(s);
    for (std::uint32_t cycle = 1; remaining > 0; ++cycle) {
      std::vector<state> next;
      std::vector<std::vector<std::uint8_t>> takes;
      successors(s, next, &takes);
      std::size_t pick = 0;
      while (longest(next[pick]) + 1 != remaining) ++pick;  // all known: longest() only looks up
      // takes[pick][e] warps move from the level of entry e: the lowest-numbered ones there.
      std::vector<std::uint8_t>& take = takes[pick];
      std::vector<std::uint32_t> moved;
      for (std::uint32_t w = 0; w < p_.warps; ++w) {
        const std::uint32_t k = keys_.groups[keys_.group_of[w]].base + progress[w];
        const auto at = std::lower_bound(s.begin(), s.end(), k,
                                         [](const level_count& e, std::uint32_t level) { return e.level < level; });
        const std::size_t e = static_cast<std::size_t>(at - s.begin());
        if (!keys_.key[k].done && take[e] > 0) {
          --take[e];
          moved.push_back(w);
          issues.emplace_back(cycle, static_cast<std::uint16_t>(w));
        }
      }
      for (std::uint32_t w : moved) ++progress[w];
      s = std::move(next[pick]);
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
    if (memo_.size() >= max_states_)
      throw stop_search{"state limit (" + std::to_string(max_states_) + " states) reached"};
    if (memo_.bytes() > memory_limit_) throw stop_search{"memory limit (3/4 of the available memory) reached"};
    if (interrupted()) throw stop_search{"interrupted", true};
    if (options_.time_limit_s > 0 &&
        std::chrono::duration<double>(clock_type::now() - start_).count() > options_.time_limit_s)
      throw stop_search{"time limit reached"};
  }

  /// Appends to `out` every successor of `s` by a maximal issue set (and to `takes`, if given, how
  /// many warps each takes from each entry of s), in a fixed order: the splits of the scheduler
  /// limit with the first type's share rising, then per type its levels upwards, each taking as few
  /// warps as the levels above it allow first.
  void successors(const state& s, std::vector<state>& out, std::vector<std::vector<std::uint8_t>>* takes) const {
    std::vector<std::vector<std::uint32_t>> slots(p_.ntypes);  // entries of s below I, per type
    for (std::uint32_t e = 0; e < s.size(); ++e) {
      const key_info& k = keys_.key[s[e].level];
      // Past a barrier a level waits until every warp has issued the barrier: with one string,
      // unless it is the lowest; with groups, while the lowest warp of some group is not past that
      // group's barrier of the same ordinal.
      if (k.done || (k.after_barrier && !released(s, e, k))) continue;
      slots[k.type].push_back(e);
    }
    std::vector<std::uint32_t> most(p_.ntypes, 0);
    std::uint32_t total = 0;
    for (std::uint32_t t = 0; t < p_.ntypes; ++t) {
      std::uint32_t ready = 0;
      for (std::uint32_t e : slots[t]) ready += s[e].count;
      most[t] = std::min<std::uint32_t>(ready, p_.cap[t]);
      total += most[t];
    }
    std::vector<std::uint32_t> quota(most);
    std::vector<std::uint8_t> take(s.size(), 0);
    const auto emit = [&] {
      out.push_back(after(s, take));
      if (takes) takes->push_back(take);
    };
    if (!p_.limited || total <= p_.cap[p_.ntypes]) {
      place(s, slots, 0, 0, quota, take, emit);
      return;
    }
    // The scheduler limit binds: every split of cap[ntypes] issues over the types within `most`.
    split(s, slots, 0, p_.cap[p_.ntypes], most, quota, take, emit);
  }

  template <class F>
  void split(const state& from, const std::vector<std::vector<std::uint32_t>>& slots, std::uint32_t t,
             std::uint32_t left, const std::vector<std::uint32_t>& most, std::vector<std::uint32_t>& quota,
             std::vector<std::uint8_t>& take, const F& emit) const {
    if (t + 1 == p_.ntypes) {
      if (left > most[t]) return;
      quota[t] = left;
      place(from, slots, 0, 0, quota, take, emit);
      return;
    }
    for (std::uint32_t q = 0; q <= std::min(left, most[t]); ++q) {
      quota[t] = q;
      split(from, slots, t + 1, left - q, most, quota, take, emit);
    }
  }

  /// Distributes quota[t] issues over the occupied levels of type t, type after type (the recursion
  /// is as deep as the occupied levels, at most W + types).
  template <class F>
  void place(const state& from, const std::vector<std::vector<std::uint32_t>>& slots, std::uint32_t t, std::uint32_t li,
             std::vector<std::uint32_t>& quota, std::vector<std::uint8_t>& take, const F& emit) const {
    if (t == p_.ntypes) {
      emit();
      return;
    }
    const auto& lv = slots[t];
    if (quota[t] == 0 || li == lv.size()) {
      if (quota[t] == 0) place(from, slots, t + 1, 0, quota, take, emit);
      return;  // quota left but no levels: not a valid split (cannot happen when quota <= ready)
    }
    const std::uint32_t e = lv[li];
    const std::uint32_t here = from[e].count;
    // The later levels of this type hold the rest of the ready warps: take at least what they cannot.
    std::uint32_t later = 0;
    for (std::size_t m = li + 1; m < lv.size(); ++m) later += from[lv[m]].count;
    const std::uint32_t lo = quota[t] > later ? quota[t] - later : 0;
    const std::uint32_t hi = std::min(quota[t], here);
    for (std::uint32_t x = lo; x <= hi; ++x) {
      take[e] = static_cast<std::uint8_t>(x);
      quota[t] -= x;
      place(from, slots, t, li + 1, quota, take, emit);
      quota[t] += x;
    }
    take[e] = 0;
  }

  /// The state after `take[e]` warps leave the level of each entry e for the next level up.
  static state after(const state& s, const std::vector<std::uint8_t>& take) {
    state next;
    next.reserve(s.size() + 1);
    std::uint32_t arriving = 0, arrive_at = 0;  // warps moved up from the previous entry
    for (std::size_t e = 0; e < s.size(); ++e) {
      std::uint32_t stay = s[e].count - take[e];
      if (arriving > 0 && arrive_at < s[e].level) {
        next.push_back({arrive_at, arriving});
        arriving = 0;
      }
      if (arriving > 0) {  // arrive_at == s[e].level: they join this level
        stay += arriving;
        arriving = 0;
      }
      if (stay > 0) next.push_back({s[e].level, stay});
      if (take[e] > 0) {
        arriving = take[e];
        arrive_at = s[e].level + 1;
      }
    }
    if (arriving > 0) next.push_back({arrive_at, arriving});
    return next;
  }

  /// What the search needs of a key (level_count::level).
  struct key_info {
    std::uint32_t group = 0, level = 0;  ///< the group, and its warps' progress
    std::uint32_t type = 0;              ///< the type of their next instruction (not done)
    bool done = false;                   ///< level = the group's string length
    bool after_barrier = false;          ///< their next instruction waits for a barrier
    std::uint32_t ordinal = 0;           ///< after_barrier: the barrier's ordinal in the string
  };
  struct group {
    std::uint32_t base = 0, length = 0, warps = 0, first = 0;
    std::uint32_t block = 0;                ///< the block of its warps
    std::vector<std::uint32_t> barrier_at;  ///< the level just past each of its barriers
  };
  /// A block's keys are keys [base, base + length); blocks of one kind (the same groups, strings
  /// and warps) are interchangeable, so the memo keys a state by its canonical form (canonical()).
  struct block_keys {
    std::uint32_t base = 0, length = 0, kind = 0;
  };
  struct key_table {
    std::vector<key_info> key;
    std::vector<group> groups;
    std::vector<std::uint32_t> group_of;  ///< per warp
    std::vector<block_keys> blocks;       ///< with barriers in blocks of fewer than W warps; else one
    bool interchangeable = false;         ///< some two blocks are of one kind
  };

  /// The keys: one string for all warps is one group (keys = levels 0..I); per-warp kernels, one
  /// group per run of warps with one string, each its levels after the previous group's. Where
  /// barriers pair the warps of blocks of fewer than W, a group ends at each block's end too: a
  /// warp waits only for its own block, so warps of two blocks are not interchangeable.
  static key_table make_keys(const problem_view& p) {
    key_table t;
    const std::uint32_t block = p.barrier != no_barrier && p.block != 0 ? p.block : p.warps;
    for (std::uint32_t w = 0; w < p.warps; ++w) {
      const bool same = w % block != 0 && (p.starts == nullptr || same_string(p, w - 1, w));
      if (!same) {
        group g;
        g.base = static_cast<std::uint32_t>(t.key.size());
        g.length = warp_length(p, w);
        g.first = w;
        g.block = w / block;
        if (w % block == 0) t.blocks.push_back({g.base, 0, 0});
        for (std::uint32_t j = 0; j <= g.length; ++j) {
          key_info k;
          k.group = static_cast<std::uint32_t>(t.groups.size());
          k.level = j;
          k.done = j == g.length;
          if (!k.done) k.type = type_at(p, w, j);
          if (j > 0 && type_at(p, w, j - 1) == p.barrier && p.barrier != no_barrier) {
            g.barrier_at.push_back(j);
            k.after_barrier = true;
            k.ordinal = static_cast<std::uint32_t>(g.barrier_at.size() - 1);
          }
          t.key.push_back(k);
        }
        t.groups.push_back(std::move(g));
      }
      ++t.groups.back().warps;
      t.group_of.push_back(static_cast<std::uint32_t>(t.groups.size() - 1));
    }
    // Each block's keys, and its kind: the first earlier block with the same groups, else its own.
    for (std::size_t b = 0; b < t.blocks.size(); ++b) {
      block_keys& bk = t.blocks[b];
      bk.length = (b + 1 < t.blocks.size() ? t.blocks[b + 1].base : static_cast<std::uint32_t>(t.key.size())) - bk.base;
      bk.kind = static_cast<std::uint32_t>(b);
      for (std::size_t a = 0; a < b && bk.kind == b; ++a)
        if (same_block(p, t, a, b)) bk.kind = t.blocks[a].kind;
      t.interchangeable = t.interchangeable || bk.kind != b;
    }
    return t;
  }

  /// Whether blocks a and b hold the same groups: the same strings run by as many warps each.
  static bool same_block(const problem_view& p, const key_table& t, std::size_t a, std::size_t b) {
    if (t.blocks[a].length != t.blocks[b].length) return false;
    std::size_t ga = 0, gb = 0;
    while (ga < t.groups.size() && t.groups[ga].block != a) ++ga;
    while (gb < t.groups.size() && t.groups[gb].block != b) ++gb;
    for (; ga < t.groups.size() && t.groups[ga].block == a; ++ga, ++gb)
      if (gb >= t.groups.size() || t.groups[gb].block != b || t.groups[ga].warps != t.groups[gb].warps ||
          !same_string(p, t.groups[ga].first, t.groups[gb].first))
        return false;
    return gb >= t.groups.size() || t.groups[gb].block != b;
  }

  /// The state with the blocks of each kind in a fixed order (their entries, relative to the
  /// block's first key, in increasing order as sequences): states that differ by swapping
  /// interchangeable blocks have one memo entry. Entries are in key order, so a block's entries are
  /// one run of them. The result is `s` itself, or a scratch state valid until the next call (no
  /// allocation once the scratch has grown: the memo looks up every successor through here).
  const state& canonical(const state& s) const {
    if (!keys_.interchangeable) return s;
    const std::size_t nb = keys_.blocks.size();
    from_.resize(nb + 1);
    for (std::size_t b = 0, e = 0; b < nb; ++b) {  // block b's entries: [from_[b], from_[b + 1])
      while (e < s.size() && s[e].level < keys_.blocks[b].base) ++e;
      from_[b] = e;
    }
    from_[nb] = s.size();
    const auto less = [&](std::size_t x, std::size_t y) {  // block x's entries before block y's
      const std::size_t nx = from_[x + 1] - from_[x], ny = from_[y + 1] - from_[y];
      for (std::size_t i = 0; i < nx && i < ny; ++i) {
        const level_count& p = s[from_[x] + i];
        const level_count& q = s[from_[y] + i];
        const std::uint32_t lp = p.level - keys_.blocks[x].base, lq = q.level - keys_.blocks[y].base;
        if (lp != lq) return lp < lq;
        if (p.count != q.count) return p.count < q.count;
      }
      return nx < ny;
    };
    // Which block's entries each position takes: each kind's blocks sorted (insertion sort: a
    // kind has at most W blocks), placed at that kind's positions in order.
    order_.resize(nb);
    for (std::size_t b = 0; b < nb; ++b) order_[b] = static_cast<std::uint32_t>(b);
    for (std::size_t b = 0; b < nb; ++b) {
      if (keys_.blocks[b].kind != b) continue;
      kind_.clear();
      for (std::size_t c = b; c < nb; ++c)
        if (keys_.blocks[c].kind == b) kind_.push_back(static_cast<std::uint32_t>(c));
      sorted_ = kind_;
      for (std::size_t i = 1; i < sorted_.size(); ++i)
        for (std::size_t j = i; j > 0 && less(sorted_[j], sorted_[j - 1]); --j) std::swap(sorted_[j], sorted_[j - 1]);
      for (std::size_t i = 0; i < kind_.size(); ++i) order_[kind_[i]] = sorted_[i];
    }
    canon_.clear();
    for (std::size_t b = 0; b < nb; ++b) {
      const std::uint32_t src = order_[b];
      for (std::size_t e = from_[src]; e < from_[src + 1]; ++e)
        canon_.push_back({s[e].level - keys_.blocks[src].base + keys_.blocks[b].base, s[e].count});
    }
    return canon_;
  }

  static bool same_string(const problem_view& p, std::uint32_t a, std::uint32_t b) {
    if (warp_length(p, a) != warp_length(p, b)) return false;
    for (std::uint32_t j = 0; j < warp_length(p, a); ++j)
      if (type_at(p, a, j) != type_at(p, b, j)) return false;
    return true;
  }

  /// Whether the warps of entry e, past a barrier, may go on: every warp has issued its barrier of
  /// that ordinal (the lowest entry of each group is at or past the level just after it).
  bool released(const state& s, std::uint32_t e, const key_info& k) const {
    if (keys_.groups.size() == 1) return e == 0;
    const std::uint32_t block = keys_.groups[k.group].block;
    std::uint32_t g = ~0u;
    for (const level_count& x : s) {
      const key_info& at = keys_.key[x.level];
      if (at.group == g) continue;  // entries are in key order: a group's lowest comes first
      g = at.group;
      if (keys_.groups[g].block == block && at.level < keys_.groups[g].barrier_at[k.ordinal]) return false;
    }
    return true;
  }

  problem_view p_;
  depth_first_options options_;
  clock_type::time_point start_;
  key_table keys_;
  state_memo memo_;
  std::uint64_t max_states_ = 0, memory_limit_ = 0, opened_ = 0;
  // canonical()'s scratch.
  mutable state canon_;
  mutable std::vector<std::size_t> from_;
  mutable std::vector<std::uint32_t> order_, kind_, sorted_;
};

}  // namespace

exact_result exact_search_cpu(const problem& prob, const depth_first_options& options) {
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
    r.interrupted = stop.interrupted;
    exact_detail::fill_interval(prob, r, 0);
  }
  r.states = s.states();
  r.elapsed_s = std::chrono::duration<double>(clock_type::now() - start).count();
  return r;
}

bool dense_sweep_fits(const problem& prob, const exact_options& options) {
  // Every multiset in a table of at most half the free memory; a state limit asks for the hash sweep.
  // Past 254 instructions (16-bit levels) the hash sweep: there the states reached are a small share
  // of the C(I + W, W) multisets the dense sweep scans (250C4L2S3L1C3S37C, W = 4: the dense sweep
  // 4.3 s over a 700 MB table, the hash sweep 0.003 s; 100L100C100L, W = 3: 0.75 s against 0.26 s;
  // bench/results/archive/exact/wide_levels_cpu_2core.md). exact_dense_cpu still takes them.
  const bool packs = frontier_packs_narrow(prob);
  return packs && options.max_states == 0 && dense_sweep_bytes(prob) <= available_memory_bytes() / 2;
}

bool exact_search_is_dense(const problem& prob, const exact_options& options, backend_kind backend, rank_group* ranks) {
  if (ranks && ranks->size() > 1) return false;
  if (backend == backend_kind::cuda && resolve_backend(backend) == backend_kind::cuda)
    return dense_sweep_fits_device(prob, options);
  return dense_sweep_fits(prob, options);
}

exact_result exact_search(const problem& prob, const exact_options& options, backend_kind backend, std::string* used,
                          rank_group* ranks) {
  const bool packs = frontier_packs(prob);
  if (ranks && ranks->size() > 1 && backend != backend_kind::cuda && packs) {
    if (used) *used = "sweep";
    return exact_sweep_ranks(prob, options, *ranks);
  }
  std::string name;
  exact_result r;
  // auto stays on the CPU: the device sweep has not been measured yet.
  if (backend == backend_kind::cuda && resolve_backend(backend) == backend_kind::cuda) {
    if (prob.per_warp())
      throw input_error(param("backend", "cuda") +
                        ": the device search takes one kernel for all warps; per-warp "
                        "kernels (" +
                        param("warp_kernels") + ") are searched depth first on the CPU (" + param("backend", "cpu") +
                        ")");
    if (!frontier_packs_narrow(prob) || options.wide_levels)
      throw input_error(param("backend", "cuda") + ": the device search takes at most " +
                        std::to_string(frontier_max_warps) + " warps and " + std::to_string(frontier_max_instructions) +
                        " instructions (8-bit levels; have " + std::to_string(prob.warps) + " and " +
                        std::to_string(prob.instructions()) + "); the CPU's searches take longer kernels of at most " +
                        std::to_string(frontier_wide_max_warps) + " warps (" + param("backend", "cpu") + ")");
    // The dense table where the device holds it (Voronoi W = 16 on an H200), else its window of
    // sums (W = 16 on an H100), else the sweep.
    if (dense_sweep_fits_device(prob, options)) {
      name = "dense";
      r = exact_dense_cuda(prob, options.dense());
    } else if (dense_window_fits_device(prob, options)) {
      name = "dense-window";
      r = exact_dense_window_cuda(prob, options.dense());
    } else {
      name = "sweep";
      r = exact_sweep_cuda(prob, options);
    }
  } else if (dense_sweep_fits(prob, options)) {
    name = "dense";
    r = exact_dense_cpu(prob, options.dense());
  } else if (packs) {
    name = "sweep";
    r = exact_sweep_cpu(prob, options);
  } else {
    name = "depth-first";
    r = exact_search_cpu(prob, options.depth_first());
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

std::uint32_t checked_at_most(long long at_most, bool prune, bool ilp) {
  if (at_most < 0 || at_most > 0xFFFFFFFFll)
    throw input_error(param("at_most") + " must be a number of cycles, 0 (not asked) or more, at most 4294967295");
  if (at_most > 0 && !prune)
    throw input_error(param("at_most") + " drops states, so it cannot be combined with turning pruning off");
  if (at_most > 0 && ilp) throw input_error(param("at_most") + " is an option of the search, not of the ILP");
  return static_cast<std::uint32_t>(at_most);
}

}  // namespace warpspan
