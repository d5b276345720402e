// The schedule builder of 000 Fig. 4 and its incremental form (000 VII), written once for host and
// device. A chain's schedule is kept as the cycle of every (warp, instruction) pair (the warp cycle
// string indexed by warp rather than by position) plus a table of how many instructions of each
// type issue in each cycle.
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpspan/core/macros.hpp"
#include "warpspan/makespan/problem.hpp"

namespace warpspan {

/// A pointer whose element k lies `stride` elements after element k - 1: the view of one chain's
/// array inside an array of all chains interleaved (element k of chain c at k * chains + c), so
/// that the threads of a warp, running neighbouring chains, touch neighbouring words. With
/// stride 1 it is a plain array.
template <class T>
struct strided_ptr {
  T* base = nullptr;
  std::uint32_t stride = 1;
  WARPSPAN_HD_INLINE T& operator[](std::size_t k) const { return base[k * stride]; }
  WARPSPAN_HD_INLINE strided_ptr operator+(std::size_t k) const { return {base + k * stride, stride}; }
  WARPSPAN_HD_INLINE strided_ptr& operator+=(std::size_t k) {
    base += k * stride;
    return *this;
  }
};

/// A pointer into chains stored word-interleaved (chains.hpp, word_interleaved_view_as): `base` is
/// the chain's first element, in its own 32-bit word of the array's region; element k lies in the
/// chain's word k / per (per = 4 / sizeof(T) elements a word), and a chain's consecutive words are
/// `stride` words apart (stride: the chains). `at` is the element this pointer stands at, so that
/// pointer arithmetic (a usage row) keeps the word arithmetic exact.
template <class T>
struct word_strided_ptr {
  static_assert(sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4, "elements of 8, 16 or 32 bits");
  static constexpr std::uint32_t per = 4 / sizeof(T);
  T* base = nullptr;
  std::uint32_t stride = 1;
  std::size_t at = 0;
  WARPSPAN_HD_INLINE T& operator[](std::size_t k) const {
    const std::size_t e = at + k;
    return base[(e / per) * stride * per + e % per];
  }
  WARPSPAN_HD_INLINE word_strided_ptr operator+(std::size_t k) const { return {base, stride, at + k}; }
  WARPSPAN_HD_INLINE word_strided_ptr& operator+=(std::size_t k) {
    at += k;
    return *this;
  }
};

/// One chain's mutable state, through pointers of type P16 (the string and usage counters: 16-bit,
/// or 8-bit in a narrow chain) and P32 (cycles, progress, last, undo: 32-bit, or 16-bit narrow):
/// raw pointers for a chain stored alone (CPU), strided_ptr for chains stored interleaved (GPU,
/// global memory), word_strided_ptr for chains interleaved by word (GPU, on chip).
/// The functions below are templates over the view and read every element into a 32-bit integer,
/// so every layout and width runs the same arithmetic. Layout, sizes and widths: chain_layout and
/// chain_packing in chains.hpp.
template <class P16, class P32>
struct basic_chain_view {
  P16 str{};       ///< pseudo-precedence string, 0-based warp ids, length n
  P32 cycle{};     ///< cycle[warp_begin(p, w) + j] (w * I + j): cycle of warp w's j-th instruction
  P16 usage{};     ///< usage[t * stride + k], t in [0, horizon]
  P32 progress{};  ///< instructions placed so far, per warp
  P32 last{};      ///< cycle of each warp's last placed instruction (0: none)
  P32 undo{};      ///< scratch, length n: old cycles of a rebuilt suffix
};
using chain_view = basic_chain_view<std::uint16_t*, std::uint32_t*>;
using interleaved_chain_view = basic_chain_view<strided_ptr<std::uint16_t>, strided_ptr<std::uint32_t>>;
using narrow_chain_view = basic_chain_view<std::uint8_t*, std::uint16_t*>;
using interleaved_narrow_view = basic_chain_view<strided_ptr<std::uint8_t>, strided_ptr<std::uint16_t>>;
using compact_chain_view = basic_chain_view<std::uint8_t*, std::uint8_t*>;

/// What place(), build_full() and rebuild_from() return for a string that has no schedule: one
/// that puts a warp's instruction after a barrier before a warp of its block issued that barrier
/// (docs/makespan.md, "Barriers"). Kernels without barriers never see it.
inline constexpr std::uint32_t no_schedule = 0xFFFFFFFFu;

/// The last cycle in which a warp of w's block issued the barrier before w's instruction j (with
/// per-warp kernels: its own barrier that pairs with it, paired_barrier()), or no_schedule when one
/// of them has not issued it yet. The instruction goes in a later cycle.
template <class View>
WARPSPAN_HD_INLINE std::uint32_t barrier_release(const problem_view& p, const View& c, std::uint32_t w,
                                                 std::uint32_t j) {
  const std::uint32_t first = w / p.block * p.block;
  std::uint32_t release = 0;
  for (std::uint32_t v = first; v < first + p.block; ++v) {
    const std::uint32_t at = paired_barrier(p, w, j - 1, v);
    if (c.progress[v] <= at) return no_schedule;
    const std::uint32_t t = c.cycle[static_cast<std::size_t>(warp_begin(p, v)) + at];
    release = t > release ? t : release;
  }
  return release;
}

/// Puts warp w's next instruction in the earliest cycle after its previous one (and, after a
/// barrier, after the barrier's last issue in w's block) that still has capacity for its type and,
/// with a scheduler limit, in all (000 Fig. 4). Returns that cycle, or no_schedule (placing
/// nothing) when a warp of w's block has not issued the barrier w waits for.
template <class View>
WARPSPAN_HD_INLINE std::uint32_t place(const problem_view& p, const View& c, std::uint32_t w) {
  const std::uint32_t j = c.progress[w];
  const std::size_t at = static_cast<std::size_t>(warp_begin(p, w)) + j;
  const std::uint32_t ty = p.types[p.starts ? at : j];
  std::uint32_t t = c.last[w] + 1;
  if (p.barrier != no_barrier && j != 0 && p.types[(p.starts ? at : j) - 1] == p.barrier) {
    const std::uint32_t release = barrier_release(p, c, w, j);
    if (release == no_schedule) return no_schedule;
    t = release + 1;  // >= last[w] + 1: w is in its block
  }
  auto row = c.usage + static_cast<std::size_t>(t) * p.stride;
  if (p.limited) {
    const std::uint32_t all = p.ntypes;
    while (row[ty] >= p.cap[ty] || row[all] >= p.cap[all]) {
      ++t;
      row += p.stride;
    }
    ++row[all];
  } else {
    while (row[ty] >= p.cap[ty]) {
      ++t;
      row += p.stride;
    }
  }
  ++row[ty];
  c.cycle[at] = t;
  c.last[w] = t;
  c.progress[w] = j + 1;
  return t;
}

/// The makespan of a whole schedule: the latest of the warps' last cycles.
template <class View>
WARPSPAN_HD_INLINE std::uint32_t last_makespan(const problem_view& p, const View& c) {
  std::uint32_t makespan = 0;
  for (std::uint32_t w = 0; w < p.warps; ++w) {
    const std::uint32_t t = c.cycle[warp_begin(p, w) + warp_length(p, w) - 1];
    makespan = t > makespan ? t : makespan;
  }
  return makespan;
}

/// Clears the usage table and the per-warp counters.
template <class View>
WARPSPAN_HD_INLINE void reset_schedule(const problem_view& p, const View& c) {
  const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
  for (std::size_t k = 0; k < cells; ++k) c.usage[k] = 0;
  for (std::uint32_t w = 0; w < p.warps; ++w) {
    c.progress[w] = 0;
    c.last[w] = 0;
  }
}

/// Builds the whole schedule of c.str from scratch; returns the makespan, or no_schedule (the
/// schedule left part-built) for a string that breaks a barrier.
template <class View>
WARPSPAN_HD_INLINE std::uint32_t build_full(const problem_view& p, const View& c) {
  reset_schedule(p, c);
  std::uint32_t makespan = 0;
  for (std::uint32_t k = 0; k < p.length; ++k) {
    const std::uint32_t t = place(p, c, c.str[k]);
    if (t == no_schedule) return no_schedule;
    makespan = t > makespan ? t : makespan;
  }
  return makespan;
}

/// Puts positions `from`..n-1 back in the usage table at the cycles c.cycle holds for them,
/// without searching, and every warp's last cycle: the schedule is whole again.
template <class View>
WARPSPAN_HD_INLINE void replay_rest(const problem_view& p, const View& c, std::uint32_t from) {
  for (std::uint32_t k = from; k < p.length; ++k) {
    const std::uint32_t w = c.str[k];
    const std::uint32_t j = c.progress[w]++;
    auto row = c.usage + static_cast<std::size_t>(c.cycle[warp_begin(p, w) + j]) * p.stride;
    ++row[type_at(p, w, j)];
    if (p.limited) ++row[p.ntypes];
  }
  for (std::uint32_t w = 0; w < p.warps; ++w) c.last[w] = c.cycle[warp_begin(p, w) + warp_length(p, w) - 1];
}

/// rebuild_from()'s way back from a string that broke a barrier at position `stop`: positions
/// z..stop-1 were re-placed (their old cycles in c.undo), the rest of the suffix is out of the usage
/// table with its old cycles still in c.cycle. The suffix holds the same (warp, instruction) pairs
/// as the old string's, so each pair gets its old cycle back and the whole suffix returns.
template <class View>
WARPSPAN_HD_INLINE void restore_broken(const problem_view& p, const View& c, std::uint32_t z, std::uint32_t stop) {
  for (std::uint32_t k = stop; k-- > z;) {
    const std::uint32_t w = c.str[k];
    const std::uint32_t j = --c.progress[w];
    const std::size_t at = static_cast<std::size_t>(warp_begin(p, w)) + j;
    auto row = c.usage + static_cast<std::size_t>(c.cycle[at]) * p.stride;
    --row[type_at(p, w, j)];
    if (p.limited) --row[p.ntypes];
    c.cycle[at] = c.undo[k - z];
  }
  replay_rest(p, c, z);
}

/// Rebuilds the schedule after c.str changed at positions >= z only (000 VII): the placements of
/// positions < z stay, those of the suffix are taken out of the usage table and placed again. The
/// suffix holds the same warp ids as before (a permutation within it), so undoing it by the new
/// string removes exactly the old placements. Returns the new makespan.
///
/// `settle` (>= z) is the last position that changed. If every instruction placed up to it lands
/// in its old cycle, the state there equals the old one and so does everything after it: the old
/// placements of the rest are put back without searching, and `old_makespan` is returned. Pass
/// settle = length to always rebuild the whole suffix.
///
/// With `record`, the old cycle of the instruction placed at each position k >= z goes to
/// c.undo[k - z], so that restore_suffix() can put the old schedule back without searching. (When
/// the rebuild settles early nothing needs restoring: the schedule did not change.)
///
/// A new string that breaks a barrier (place() finds no schedule) returns no_schedule; with
/// `record` the old schedule is put back first (the caller then swaps the string back), without it
/// the schedule is left part-built.
template <class View>
WARPSPAN_HD_INLINE std::uint32_t rebuild_from(const problem_view& p, const View& c, std::uint32_t z,
                                              std::uint32_t settle = 0xFFFFFFFFu, std::uint32_t old_makespan = 0,
                                              bool record = false) {
  for (std::uint32_t k = p.length; k-- > z;) {
    const std::uint32_t w = c.str[k];
    const std::uint32_t j = --c.progress[w];
    auto row = c.usage + static_cast<std::size_t>(c.cycle[warp_begin(p, w) + j]) * p.stride;
    --row[type_at(p, w, j)];
    if (p.limited) --row[p.ntypes];
  }
  for (std::uint32_t w = 0; w < p.warps; ++w) {
    const std::uint32_t done = c.progress[w];
    c.last[w] = done ? c.cycle[warp_begin(p, w) + done - 1] : 0;
  }
  bool moved = false;
  for (std::uint32_t k = z; k < p.length; ++k) {
    const std::uint32_t w = c.str[k];
    const std::uint32_t before = c.cycle[warp_begin(p, w) + c.progress[w]];
    if (record) c.undo[k - z] = before;
    const std::uint32_t t = place(p, c, w);
    if (t == no_schedule) {
      if (record) restore_broken(p, c, z, k);
      return no_schedule;
    }
    moved = moved || t != before;
    if (k == settle && !moved) {
      replay_rest(p, c, k + 1);
      return old_makespan;
    }
  }
  return last_makespan(p, c);
}

/// Undoes a recorded rebuild_from(z) that re-placed the whole suffix: every instruction of
/// positions >= z (of the string that was rebuilt) goes back to its recorded cycle. Three cheap
/// passes instead of a second search, so a rejected move costs less than an accepted one.
template <class View>
WARPSPAN_HD_INLINE void restore_suffix(const problem_view& p, const View& c, std::uint32_t z) {
  for (std::uint32_t k = p.length; k-- > z;) {
    const std::uint32_t w = c.str[k];
    const std::uint32_t j = --c.progress[w];
    const std::size_t at = static_cast<std::size_t>(warp_begin(p, w)) + j;
    const std::uint32_t now = c.cycle[at];
    const std::uint32_t old = c.undo[k - z];
    if (now == old) continue;
    auto from = c.usage + static_cast<std::size_t>(now) * p.stride;
    auto to = c.usage + static_cast<std::size_t>(old) * p.stride;
    const std::uint32_t ty = type_at(p, w, j);
    --from[ty];
    ++to[ty];
    if (p.limited) {
      --from[p.ntypes];
      ++to[p.ntypes];
    }
    c.cycle[at] = old;
  }
  for (std::uint32_t w = 0; w < p.warps; ++w) {
    const std::uint32_t length = warp_length(p, w);
    c.progress[w] = length;
    c.last[w] = c.cycle[warp_begin(p, w) + length - 1];
  }
}

}  // namespace warpspan
