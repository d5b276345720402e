// The successor relation of the exact search, written once for the CPU and CUDA level-by-level
// searches (host/exact/frontier.cpp, cuda/exact/frontier_kernels.cu).
//
// A state is the multiset of per-warp progress, packed into 128 bits: the progress of each warp
// plus one, in a field of the view's level_bits each, in increasing order. While I <= 254 a field
// is a byte (frontier_view: at most 16 warps); beyond, 16 bits (wide_frontier_view: at most 8
// warps, I <= 65,534, W x I <= 65,535), host only. The functions below are templates over the view
// so that the 8-bit path compiles to what it was. One cycle
// moves a state to a successor by a maximal issue set: each type t issues quota[t] warps, where
// quota[t] = min(cap[t], ready[t]) unless the scheduler limit binds, in which case the quotas run
// over every split of the limit with quota[t] <= min(cap[t], ready[t]); the quota of a type is
// taken from its progress levels in every way (take[k] <= count[k], summing to the quota).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "warpspan/core/macros.hpp"
#include "warpspan/makespan/problem.hpp"

namespace warpspan {

__extension__ typedef unsigned __int128 packed_state;

/// successor_enum::start in host builds: always inlined. As a member of a class template (since the
/// 16-bit levels) GCC stopped inlining it into the dense sweep's successors_of, which made Voronoi
/// W = 9 run 15 % slower. nvcc and the CUDA emulation keep WARPSPAN_HD, as before.
#if defined(__CUDACC__) || defined(WARPSPAN_EMU_KERNEL_SOURCE)
#define WARPSPAN_FRONTIER_HOT WARPSPAN_HD
#else
#define WARPSPAN_FRONTIER_HOT __attribute__((always_inline))
#endif

/// 8-bit levels (frontier_view): at most 16 warps and 254 instructions.
inline constexpr std::uint32_t frontier_max_warps = 16;
inline constexpr std::uint32_t frontier_max_instructions = 254;
/// 16-bit levels (wide_frontier_view, host only), where I passes 254: at most 8 warps (8 x 16 bits)
/// and 65,534 instructions, and W x I at most 65,535, which bounds every schedule's length (each
/// cycle issues an instruction) so that ways in stay 16-bit as in the 8-bit path.
inline constexpr std::uint32_t frontier_wide_max_warps = 8;
inline constexpr std::uint32_t frontier_wide_max_instructions = 65534;
inline constexpr std::uint32_t frontier_max_work = 0xFFFF;

/// The problem as the successor enumeration reads it, at 8 bits a level (host and device).
struct frontier_view {
  static constexpr std::uint32_t level_bits = 8;
  using level_type = std::uint8_t;  ///< a level, and what the rem table counts
  std::uint32_t warps = 0;
  std::uint32_t instructions = 0;
  std::uint32_t ntypes = 0;
  std::uint32_t limit = 0;                       ///< scheduler limit, 0 when none binds
  std::uint32_t barrier = no_barrier;            ///< the barrier's dense type (problem_view::barrier)
  std::uint8_t cap[max_types] = {};              ///< per dense type
  std::uint8_t type_of[256] = {};                ///< type of the instruction at each level < I
  std::uint8_t level_begin[max_types + 1] = {};  ///< levels of type t: level_list[level_begin[t] .. level_begin[t+1])
  std::uint8_t level_list[256] = {};
  std::uint8_t rem[256][max_types] = {};  ///< instructions of type t at levels >= k (for the bound)
};

/// The same at 16 bits a level, for kernels past 254 instructions: the tables indexed by level are
/// held on the heap (a fixed array for 65,535 levels would be 700 KB a view). Host only: the
/// device searches refuse these kernels (exact_detail::checked_view).
struct wide_frontier_view {
  static constexpr std::uint32_t level_bits = 16;
  using level_type = std::uint16_t;
  std::uint32_t warps = 0;
  std::uint32_t instructions = 0;
  std::uint32_t ntypes = 0;
  std::uint32_t limit = 0;
  std::uint32_t barrier = no_barrier;
  std::uint8_t cap[max_types] = {};
  std::vector<std::uint8_t> type_of;                      ///< I entries
  std::vector<std::array<std::uint16_t, max_types>> rem;  ///< I + 1 entries
};

/// What the level searches (and the beam) take, apart from the size: all warps run one string
/// (per-warp kernels: only the depth-first search, exact_search_cpu), and its barriers, if any, are
/// those of one block of all W warps (the states are multisets of all the warps' levels, which
/// blocks would tell apart).
inline bool frontier_one_string(const problem& prob) {
  return !prob.per_warp() && prob.warps >= 1 && (prob.flat.barrier == no_barrier || prob.block_warps() == prob.warps);
}

/// Whether the states pack at 8 bits a level (frontier_view; the device searches take only these).
inline bool frontier_packs_narrow(const problem& prob) {
  return frontier_one_string(prob) && prob.warps <= frontier_max_warps &&
         prob.instructions() <= frontier_max_instructions;
}

/// Whether W warps of I instructions fit 16-bit levels (8 x 16 bits, levels + 1 below 2^16, and
/// schedules, at most W x I cycles, of 16 bits).
inline bool frontier_fits_wide(std::uint32_t warps, std::uint32_t instructions) {
  return warps <= frontier_wide_max_warps && instructions <= frontier_wide_max_instructions &&
         std::uint64_t{warps} * instructions <= frontier_max_work;
}

/// Whether they pack only at 16 bits a level (wide_frontier_view: the CPU's searches and the beam).
inline bool frontier_packs_wide(const problem& prob) {
  return frontier_one_string(prob) && prob.instructions() > frontier_max_instructions &&
         frontier_fits_wide(prob.warps, prob.instructions());
}

/// Whether the level searches (and the beam) take the problem: its states pack into 128 bits, at
/// 8 bits a level (at most 16 warps and 254 instructions) or 16 (at most 8 warps beyond 254
/// instructions, W x I <= 65,535).
inline bool frontier_packs(const problem& prob) { return frontier_packs_narrow(prob) || frontier_packs_wide(prob); }

/// The level + 1 in field j of a key (field 0: the least significant, the highest level).
template <std::uint32_t B>
WARPSPAN_HD_INLINE std::uint32_t key_field(packed_state key, std::uint32_t j) {
  return static_cast<std::uint32_t>(key >> (B * j)) & ((1u << B) - 1u);
}

/// Whether warps at level k wait for the barrier at level k - 1 until every warp has passed it.
/// The search's states are multisets of all W warps, so it takes one block (checked_view).
template <class V>
WARPSPAN_HD_INLINE bool waits_at(const V& v, std::uint32_t k) {
  return v.barrier != no_barrier && k != 0 && v.type_of[k - 1] == v.barrier;
}

/// Builds the view; the caller checks frontier_packs_narrow (W <= 16, I <= 254, one block where there are barriers).
inline frontier_view make_frontier_view(const problem_view& p) {
  frontier_view v;
  v.warps = p.warps;
  v.instructions = p.instructions;
  v.ntypes = p.ntypes;
  v.limit = p.limited ? p.cap[p.ntypes] : 0;
  v.barrier = p.barrier;
  std::uint32_t n = 0;
  for (std::uint32_t t = 0; t < p.ntypes; ++t) {
    v.cap[t] = static_cast<std::uint8_t>(p.cap[t] > 255 ? 255 : p.cap[t]);
    v.level_begin[t] = static_cast<std::uint8_t>(n);
    for (std::uint32_t k = 0; k < p.instructions; ++k)
      if (p.types[k] == t) v.level_list[n++] = static_cast<std::uint8_t>(k);
  }
  v.level_begin[p.ntypes] = static_cast<std::uint8_t>(n);
  for (std::uint32_t k = 0; k < p.instructions; ++k) v.type_of[k] = p.types[k];
  for (std::uint32_t k = p.instructions; k-- > 0;) {
    for (std::uint32_t t = 0; t < p.ntypes; ++t) v.rem[k][t] = v.rem[k + 1][t];
    ++v.rem[k][p.types[k]];
  }
  return v;
}

/// Builds the wide view; the caller checks frontier_packs_wide.
inline wide_frontier_view make_wide_frontier_view(const problem_view& p) {
  wide_frontier_view v;
  v.warps = p.warps;
  v.instructions = p.instructions;
  v.ntypes = p.ntypes;
  v.limit = p.limited ? p.cap[p.ntypes] : 0;
  v.barrier = p.barrier;
  for (std::uint32_t t = 0; t < p.ntypes; ++t) v.cap[t] = static_cast<std::uint8_t>(p.cap[t] > 255 ? 255 : p.cap[t]);
  v.type_of.assign(p.types, p.types + p.instructions);
  v.rem.assign(p.instructions + 1, std::array<std::uint16_t, max_types>{});
  for (std::uint32_t k = p.instructions; k-- > 0;) {
    v.rem[k] = v.rem[k + 1];
    ++v.rem[k][p.types[k]];
  }
  return v;
}

/// The 8-bit key of per-level warp counts (count[k] warps at level k <= I).
WARPSPAN_HD_INLINE packed_state pack_counts(const std::uint8_t* count, std::uint32_t instructions) {
  packed_state key = 0;
  for (std::uint32_t k = 0; k <= instructions; ++k)
    for (std::uint32_t c = count[k]; c > 0; --c) key = (key << 8) | (k + 1);
  return key;
}

WARPSPAN_HD_INLINE void unpack_counts(packed_state key, std::uint32_t warps, std::uint32_t instructions,
                                      std::uint8_t* count) {
  for (std::uint32_t k = 0; k <= instructions; ++k) count[k] = 0;
  for (std::uint32_t w = 0; w < warps; ++w) {
    ++count[static_cast<std::uint32_t>(key & 0xFF) - 1];
    key >>= 8;
  }
}

/// The key of ascending levels a[0..W) at B bits a level.
template <std::uint32_t B, class L>
WARPSPAN_HD_INLINE packed_state pack_levels(const L* a, std::uint32_t warps) {
  packed_state key = 0;
  for (std::uint32_t i = 0; i < warps; ++i) key = (key << B) | (a[i] + 1u);
  return key;
}

template <class V>
WARPSPAN_HD_INLINE packed_state initial_state(const V& v) {
  packed_state key = 0;
  for (std::uint32_t w = 0; w < v.warps; ++w) key = (key << V::level_bits) | 1u;
  return key;
}

template <class V>
WARPSPAN_HD_INLINE packed_state final_state(const V& v) {
  packed_state key = 0;
  for (std::uint32_t w = 0; w < v.warps; ++w) key = (key << V::level_bits) | (v.instructions + 1);
  return key;
}

/// The occupied levels below I of a state, ascending, with the warps at each: at most one run per
/// warp, so the bound below costs O(W), not O(I) (kernels of the corpus run to over 100 levels).
template <class L>
struct basic_level_runs {
  std::uint32_t n = 0;
  L level[frontier_max_warps];
  std::uint8_t size[frontier_max_warps];
};
using level_runs = basic_level_runs<std::uint8_t>;
template <class V>
using level_runs_of = basic_level_runs<typename V::level_type>;

/// The runs of a packed state: its fields from the most significant (the lowest level) down.
template <class V>
WARPSPAN_HD_INLINE void runs_of_key(const V& v, packed_state key, level_runs_of<V>& r) {
  r.n = 0;
  for (std::uint32_t j = v.warps; j-- > 0;) {
    const std::uint32_t k = key_field<V::level_bits>(key, j) - 1;
    if (k == v.instructions) break;  // done warps: the rest of the key
    if (r.n > 0 && r.level[r.n - 1] == k) {
      ++r.size[r.n - 1];
    } else {
      r.level[r.n] = static_cast<typename V::level_type>(k);
      r.size[r.n] = 1;
      ++r.n;
    }
  }
}

/// The runs of a state given by its per-level warp counts.
template <class V>
WARPSPAN_HD_INLINE void runs_of_counts(const V& v, const std::uint8_t* count, level_runs_of<V>& r) {
  r.n = 0;
  for (std::uint32_t k = 0; k < v.instructions; ++k)
    if (count[k] != 0) {
      r.level[r.n] = static_cast<typename V::level_type>(k);
      r.size[r.n] = count[k];
      ++r.n;
    }
}

/// The lowest min(cap[t], W) warps still holding type t, gathered once per state for stalls_on:
/// what a warp has left of t falls with its level, so the m largest amounts are those of the m lowest.
template <class L>
struct basic_stall_holders {
  std::uint32_t n = 0;
  L level[frontier_max_warps];
  L left[frontier_max_warps];  ///< what the warp has left of t
};
using stall_holders = basic_stall_holders<std::uint8_t>;

template <class V>
WARPSPAN_HD_INLINE void gather_holders(const V& v, const level_runs_of<V>& runs, std::uint32_t t,
                                       basic_stall_holders<typename V::level_type>& h) {
  const std::uint32_t want = v.cap[t] < v.warps ? v.cap[t] : v.warps;
  h.n = 0;
  for (std::uint32_t i = 0; i < runs.n && h.n < want; ++i) {
    const typename V::level_type r = v.rem[runs.level[i]][t];
    if (r == 0) break;  // this level and every later one have no t left
    for (std::uint32_t c = runs.size[i]; c > 0 && h.n < want; --c) {
      h.level[h.n] = runs.level[i];
      h.left[h.n] = r;
      ++h.n;
    }
  }
}

/// At most how many cycles the warp at level k can stall on type t, given `others`, what the other
/// warps have left of t. Each such cycle issues cap[t] instructions of t by cap[t] distinct other
/// warps, so any m < cap[t] of the others take part in at most s of those cycles each and the rest
/// supply the other (cap[t] - m) s: s <= (others - the m largest amounts) / (cap[t] - m). m = 0 is
/// the plain count floor(others / cap[t]); with fewer than cap[t] other warps holding t, m = all
/// of them gives 0. The m largest of the others: the holders `h`, less one warp at level k.
///
/// With barriers the last warp's cycles are bounded along a path instead (docs/makespan.md,
/// "Barriers"): from the end back, the warp at hand until it waited at a barrier, then the warp that
/// issued that barrier last, and so on. The path issues one instruction of every level from k up and
/// stalls only on full types or the limit, whose issues are instructions off the path; but a few
/// warps no longer hold what the path does not, so only the plain count stands (m = 0), and a
/// barrier, never full, never stalls.
template <class V>
WARPSPAN_HD_INLINE std::uint32_t stalls_on(const V& v, const basic_stall_holders<typename V::level_type>& h,
                                           std::uint32_t k, std::uint32_t t, std::uint32_t others) {
  if (v.barrier != no_barrier) return t == v.barrier ? 0 : others / v.cap[t];
  const std::uint32_t cap = v.cap[t];
  std::uint32_t best = others / cap, m = 0, top = 0;
  bool skipped = false;
  for (std::uint32_t j = 0; j < h.n && m + 1 < cap; ++j) {
    if (!skipped && h.level[j] == k) {  // w itself
      skipped = true;
      continue;
    }
    ++m;
    top += h.left[j];
    const std::uint32_t b = (others - top) / (cap - m);
    if (b < best) best = b;
  }
  return best;
}

/// An upper bound on the cycles a state still needs, by any work-conserving schedule. Let w be the
/// warp that finishes last. In every cycle w either issues or stalls; it stalls only when its type
/// U is full (cap[U] issues of U by other warps) or the scheduler limit is (limit issues by others).
/// So the cycles are at most r_w + sum_U stalls_U [+ floor(R(others) / limit)], with r_w what w
/// has left and stalls_U at most floor(R_U(others) / cap_U), R_U(others) what the others have
/// left of U, and less when a few others hold most of it (stalls_on). Second form, for any
/// type V: a cycle either issues a V (at most R_V such cycles) or not, and then w issues a non-V or
/// stalls on a full non-V type or the limit. The bound is the smaller of the forms, maximised over
/// the levels where w may be (the state's runs).
template <class V>
WARPSPAN_HD_INLINE std::uint32_t remaining_bound(const V& v, const level_runs_of<V>& runs) {
  if (runs.n == 0) return 0;  // every warp done
  std::uint32_t total[max_types] = {}, all = 0;
  for (std::uint32_t i = 0; i < runs.n; ++i)
    for (std::uint32_t t = 0; t < v.ntypes; ++t)
      total[t] += runs.size[i] * static_cast<std::uint32_t>(v.rem[runs.level[i]][t]);
  for (std::uint32_t t = 0; t < v.ntypes; ++t) all += total[t];
  basic_stall_holders<typename V::level_type> holders[max_types];
  for (std::uint32_t t = 0; t < v.ntypes; ++t) gather_holders(v, runs, t, holders[t]);
  std::uint32_t by_warp = 0, by_type[max_types] = {};
  for (std::uint32_t i = 0; i < runs.n; ++i) {
    const std::uint32_t k = runs.level[i], left = v.instructions - k;
    std::uint32_t stall = v.limit ? (all - left) / v.limit : 0, per_type[max_types] = {};
    for (std::uint32_t t = 0; t < v.ntypes; ++t) {
      per_type[t] = stalls_on(v, holders[t], k, t, total[t] - v.rem[k][t]);
      stall += per_type[t];
    }
    if (left + stall > by_warp) by_warp = left + stall;
    for (std::uint32_t t = 0; t < v.ntypes; ++t) {
      const std::uint32_t b = total[t] + left - v.rem[k][t] + stall - per_type[t];
      if (b > by_type[t]) by_type[t] = b;
    }
  }
  std::uint32_t bound = by_warp;
  for (std::uint32_t t = 0; t < v.ntypes; ++t)
    if (by_type[t] < bound) bound = by_type[t];
  return bound;
}

/// The bound of a packed state.
template <class V>
WARPSPAN_HD_INLINE std::uint32_t remaining_bound(const V& v, packed_state key) {
  level_runs_of<V> runs;
  runs_of_key(v, key, runs);
  return remaining_bound(v, runs);
}

/// The bound of a state given by its per-level warp counts (count[k] warps at level k <= I).
template <class V>
WARPSPAN_HD_INLINE std::uint32_t remaining_bound(const V& v, const std::uint8_t* count) {
  level_runs_of<V> runs;
  runs_of_counts(v, count, runs);
  return remaining_bound(v, runs);
}

/// Lexicographically next vector x over slots [0, n) with x[i] <= cap[i] and the same sum; false
/// when x was the last. The first is the smallest: filled from the right (see first_composition).
WARPSPAN_HD_INLINE void fill_from_right(std::uint8_t* x, const std::uint8_t* cap, std::uint32_t n, std::uint32_t sum) {
  for (std::uint32_t i = n; i-- > 0;) {
    const std::uint32_t put = sum < cap[i] ? sum : cap[i];
    x[i] = static_cast<std::uint8_t>(put);
    sum -= put;
  }
}

WARPSPAN_HD_INLINE bool next_composition(std::uint8_t* x, const std::uint8_t* cap, std::uint32_t n) {
  std::uint32_t suffix = 0;  // sum of x over (i, n)
  for (std::uint32_t i = n; i-- > 0;) {
    if (suffix >= 1 && x[i] < cap[i]) {
      ++x[i];
      fill_from_right(x + i + 1, cap + i + 1, n - i - 1, suffix - 1);
      return true;
    }
    suffix += x[i];
  }
  return false;
}

/// Enumerates the successors of one state. Usage: `successor_enum e; if (e.start(v, key)) do {
/// use e.successor(v) / e.take(level) } while (e.advance(v));` (wide_successor_enum for a
/// wide_frontier_view).
template <class V>
struct basic_successor_enum {
  using level_type = typename V::level_type;
  static constexpr std::uint32_t bits = V::level_bits;
  std::uint8_t most[max_types];   ///< min(cap, ready) per type
  std::uint8_t quota[max_types];  ///< issues per type in the current split
  /// Slots are the occupied levels below I, grouped by type: those of type t are
  /// [slot_begin[t], slot_begin[t + 1]). At most one per warp.
  std::uint8_t slot_begin[max_types + 1];
  level_type level[frontier_max_warps];    ///< per slot: its level
  std::uint8_t avail[frontier_max_warps];  ///< per slot: warps at that level
  std::uint8_t x[frontier_max_warps];      ///< per slot: warps taken from that level
  std::uint8_t above[frontier_max_warps];  ///< per slot: warps at higher levels (its run's byte offset in the key)
  std::uint32_t slots = 0;
  packed_state key = 0;

  /// Sets up the first successor; false when the state has none (all warps done).
  WARPSPAN_FRONTIER_HOT bool start(const V& v, packed_state state) {
    key = state;
    // The runs of equal levels, from the key's most significant byte (the lowest level) down: a
    // run of the bytes j in [lo, hi] has lo warps above it. O(W), not O(I): the slots of a type are
    // its runs in ascending level, as a walk over the type's levels would list them.
    level_type run_level[frontier_max_warps];
    std::uint8_t run_size[frontier_max_warps], run_above[frontier_max_warps];
    std::uint32_t runs = 0, per_type[max_types] = {};
    for (std::uint32_t j = v.warps; j-- > 0;) {
      const std::uint32_t k = key_field<bits>(state, j);  // level + 1
      if (k - 1 == v.instructions) break;                 // done warps: the rest of the key
      if (runs > 0 && run_level[runs - 1] == k - 1) {
        ++run_size[runs - 1];
      } else {
        // A run past a barrier waits unless it is the lowest (every warp has issued the barrier):
        // no slot, but still a run, so that the runs above see it.
        if (runs == 0 || !waits_at(v, k - 1)) ++per_type[v.type_of[k - 1]];
        run_level[runs] = static_cast<level_type>(k - 1);
        run_size[runs] = 1;
        ++runs;
      }
      run_above[runs - 1] = static_cast<std::uint8_t>(j);
    }
    if (runs == 0) return false;  // every warp done
    std::uint32_t total = 0, n = 0, fill[max_types];
    for (std::uint32_t t = 0; t < v.ntypes; ++t) {
      slot_begin[t] = static_cast<std::uint8_t>(n);
      fill[t] = n;
      n += per_type[t];
    }
    std::uint32_t ready[max_types] = {};
    for (std::uint32_t r = 0; r < runs; ++r) {
      if (r != 0 && waits_at(v, run_level[r])) continue;
      const std::uint32_t t = v.type_of[run_level[r]], s = fill[t]++;
      level[s] = run_level[r];
      avail[s] = run_size[r];
      above[s] = run_above[r];
      ready[t] += run_size[r];
    }
    for (std::uint32_t t = 0; t < v.ntypes; ++t) {
      most[t] = static_cast<std::uint8_t>(ready[t] < v.cap[t] ? ready[t] : v.cap[t]);
      total += most[t];
    }
    slot_begin[v.ntypes] = static_cast<std::uint8_t>(n);
    slots = n;
    if (v.limit == 0 || total <= v.limit) {
      for (std::uint32_t t = 0; t < v.ntypes; ++t) quota[t] = most[t];
    } else {
      fill_from_right(quota, most, v.ntypes, v.limit);
    }
    first_takes(v);
    return true;
  }

  /// The next successor; false after the last.
  WARPSPAN_HD bool advance(const V& v) {
    // Innermost: the takes of the last type, carrying to earlier types.
    for (std::uint32_t t = v.ntypes; t-- > 0;) {
      const std::uint32_t b = slot_begin[t], n = slot_begin[t + 1] - b;
      if (next_composition(x + b, avail + b, n)) {
        for (std::uint32_t u = t + 1; u < v.ntypes; ++u)
          fill_from_right(x + slot_begin[u], avail + slot_begin[u], slot_begin[u + 1] - slot_begin[u], quota[u]);
        return true;
      }
    }
    // Outermost: the next split of the scheduler limit over the types.
    if (v.limit != 0 && next_composition(quota, most, v.ntypes)) {
      first_takes(v);
      return true;
    }
    return false;
  }

  /// Warps the current successor takes from level k (k < I).
  WARPSPAN_HD std::uint32_t take_at(const V& v, std::uint32_t k) const {
    const std::uint32_t t = v.type_of[k];
    for (std::uint32_t s = slot_begin[t]; s < slot_begin[t + 1]; ++s)
      if (level[s] == k) return x[s];
    return 0;
  }

  /// The successor's key. Warps at one level are a run of equal bytes in the key, the run of
  /// level k starting `above` bytes from the least significant end; moving x of them to level k + 1
  /// adds 1 to the x lowest bytes of the run, which keeps the bytes sorted (they join the run of
  /// level k + 1, whose moved warps are again its lowest bytes).
  WARPSPAN_HD packed_state successor(const V&) const {
    // A 1 in every field: 0x0101..01 at 8 bits, 0x0001..0001 at 16.
    constexpr std::uint64_t half = ~std::uint64_t{0} / ((std::uint64_t{1} << bits) - 1);
    constexpr std::uint32_t fields = 128 / bits;
    const packed_state ones = (static_cast<packed_state>(half) << 64) | half;
    packed_state next = key;
    for (std::uint32_t s = 0; s < slots; ++s)
      if (x[s] != 0) next += (ones >> (bits * (fields - x[s]))) << (bits * above[s]);
    return next;
  }

 private:
  WARPSPAN_HD void first_takes(const V& v) {
    for (std::uint32_t t = 0; t < v.ntypes; ++t)
      fill_from_right(x + slot_begin[t], avail + slot_begin[t], slot_begin[t + 1] - slot_begin[t], quota[t]);
  }
};

using successor_enum = basic_successor_enum<frontier_view>;
using wide_successor_enum = basic_successor_enum<wide_frontier_view>;

}  // namespace warpspan
