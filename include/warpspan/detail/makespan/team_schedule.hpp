// The schedule builder of schedule.hpp for a team of lanes that run one chain together (team.hpp):
// the one-warp-per-chain CUDA kernel's step, for chains too large for a thread's share of the chip
// (Voronoi W = 64: 9.8 KB of working state a chain, where a warp of thread-per-chain chains would
// need 312 KB of shared memory). It makes exactly the schedules of build_full() and
// rebuild_from(), so a chain's trajectory is that of anneal_step() (the tests check it bit for
// bit); only the work is shared:
// - a placement's search for a cycle with room tests `size` cycles at once and takes the first
//   open one by ballot; the lane that found it counts the instruction there;
// - taking the suffix out of the usage table, putting the rest back, and restoring the old
//   schedule after a rejected move are loops over the (warp, instruction) pairs, shared by the
//   lanes, each pair's counter changed by an atomic add. A pair belongs to the suffix when its
//   instruction index is at least its warp's progress at the first changed position (`pre`),
//   so no lane needs the string's order to find its pairs;
// - the placements are the serial part, so team_rejoin_from() stops placing where the new
//   schedule rejoins the old one (the CUDA kernel's rebuild), and its lanes read the next 32
//   positions ahead at once (team_read_ahead), so that a placement computes as little as it can.
// The old cycles of a rebuilt suffix are kept by pair (c.undo[at], at = warp_begin(w) + j), not by
// position as rebuild_from() keeps them.
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpspan/core/macros.hpp"
#include "warpspan/makespan/anneal.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule.hpp"
#include "warpspan/detail/makespan/team.hpp"

namespace warpspan {

/// The warp whose instructions hold index `at` of a chain's cycle array.
WARPSPAN_HD_INLINE std::uint32_t warp_at(const problem_view& p, std::uint32_t at) {
  if (!p.starts) return at / p.instructions;
  std::uint32_t lo = 0, hi = p.warps;  // starts[lo] <= at < starts[hi]
  while (hi - lo > 1) {
    const std::uint32_t mid = (lo + hi) / 2;
    if (p.starts[mid] <= at)
      lo = mid;
    else
      hi = mid;
  }
  return lo;
}

/// The count of type ty (and, with a scheduler limit, of all types) in cycle t, changed by d.
template <class Team, class View>
WARPSPAN_HD_INLINE void team_count(const problem_view& p, const View& c, const Team& team, std::uint32_t t,
                                   std::uint32_t ty, int d) {
  auto row = c.usage + static_cast<std::size_t>(t) * p.stride;
  team.add(row[ty], d);
  if (p.limited) team.add(row[p.ntypes], d);
}

/// The first cycle warp w's instruction j (pair `at` = warp_begin(p, w) + j) may take: the one after
/// its previous instruction's and, after a barrier, after the barrier's last issue in w's block;
/// no_schedule when a warp of that block has not issued it yet.
template <class View>
WARPSPAN_HD_INLINE std::uint32_t team_earliest(const problem_view& p, const View& c, std::uint32_t w, std::uint32_t j,
                                               std::size_t at) {
  std::uint32_t from = j != 0 ? static_cast<std::uint32_t>(c.cycle[at - 1]) + 1 : 1;
  if (p.barrier != no_barrier && j != 0 && p.types[(p.starts ? at : j) - 1] == p.barrier) {
    const std::uint32_t release = barrier_release(p, c, w, j);
    if (release == no_schedule) return no_schedule;
    from = release + 1;
  }
  return from;
}

/// place() (schedule.hpp) by a team, for pair `at` (warp_begin(p, w) + j, warp w's instruction j,
/// its progress) of type `ty` (type_at(p, w, j)), from cycle `from` (team_earliest) on: the same
/// cycle, searched `size` cycles at a time. Returns it; every lane returns the same value. The
/// warp's progress goes to j + 1 where `StoreProgress` asks (a rebuild that reads ahead keeps it
/// in its lanes' registers and writes it once a read: team_commit_progress). A warp's last cycle is
/// read from its previous instruction's and not kept in c.last while the team places
/// (team_complete() and team_makespan() set it): one store less a placement.
template <bool StoreProgress, class Team, class View>
WARPSPAN_HD_INLINE std::uint32_t team_place(const problem_view& p, const View& c, const Team& team, std::uint32_t w,
                                            std::size_t at, std::uint32_t ty, std::uint32_t from) {
  const std::uint32_t all = p.ntypes;
  // The ballot is also the sync that lets a lane write below: every lane has read what it needed
  // of the state by then. The lane that found the cycle writes it (its counts are in its
  // registers: no load again). The horizon bounds every placement (bounds.hpp), so the search ends
  // within it.
  std::uint32_t t = no_schedule, finder = 0, count = 0, count_all = 0;
  for (std::uint32_t base = from; base <= p.horizon; base += Team::size) {
    const std::uint32_t mine = base + team.rank();
    bool open = false;
    if (mine <= p.horizon) {
      const auto row = c.usage + static_cast<std::size_t>(mine) * p.stride;
      count = row[ty];
      count_all = p.limited ? static_cast<std::uint32_t>(row[all]) : 0u;
      open = count < p.cap[ty] && (!p.limited || count_all < p.cap[all]);
    }
    const std::uint32_t mask = team.ballot(open);
    if (mask != 0) {
      finder = lowest_bit(mask);
      t = base + finder;
      break;
    }
  }
  if (t == no_schedule) return no_schedule;
  if (team.rank() == finder) {
    auto row = c.usage + static_cast<std::size_t>(t) * p.stride;
    row[ty] = count + 1;
    if (p.limited) row[all] = count_all + 1;
    c.cycle[at] = t;
    if constexpr (StoreProgress) c.progress[w] = static_cast<std::uint32_t>(at - warp_begin(p, w)) + 1;
  }
  team.sync();
  return t;
}

/// team_place() of warp w's next instruction j (its progress, which goes to j + 1), or
/// no_schedule (placing nothing) when a warp of w's block has not issued the barrier w waits for.
template <class Team, class View>
WARPSPAN_HD_INLINE std::uint32_t team_place_next(const problem_view& p, const View& c, const Team& team,
                                                 std::uint32_t w, std::uint32_t j) {
  const std::size_t at = static_cast<std::size_t>(warp_begin(p, w)) + j;
  const std::uint32_t from = team_earliest(p, c, w, j, at);
  if (from == no_schedule) return no_schedule;
  return team_place<true>(p, c, team, w, at, p.types[p.starts ? at : j], from);
}

/// Every warp complete again: progress at its length, last at its last instruction's cycle.
template <class Team, class View>
WARPSPAN_HD_INLINE void team_complete(const problem_view& p, const View& c, const Team& team) {
  for (std::uint32_t w = team.rank(); w < p.warps; w += Team::size) {
    const std::uint32_t length = warp_length(p, w);
    c.progress[w] = length;
    c.last[w] = c.cycle[warp_begin(p, w) + length - 1];
  }
  team.sync();
}

/// Takes the placements of positions z..n-1 of c.str (a complete schedule) out of the usage table:
/// each warp's progress goes back to its count in the prefix (kept in pre[w] too), and the
/// suffix's old cycles go to c.undo by pair.
template <class Team, class View, class Pre>
WARPSPAN_HD_INLINE void team_take_out(const problem_view& p, const View& c, const Team& team, Pre pre,
                                      std::uint32_t z) {
  for (std::uint32_t k = z + team.rank(); k < p.length; k += Team::size) team.add(c.progress[c.str[k]], -1);
  team.sync();
  for (std::uint32_t w = team.rank(); w < p.warps; w += Team::size) pre[w] = c.progress[w];
  for (std::uint32_t at = team.rank(); at < p.length; at += Team::size) {
    const std::uint32_t w = warp_at(p, at);
    const std::uint32_t j = at - warp_begin(p, w);
    if (j < c.progress[w]) continue;
    const std::uint32_t t = c.cycle[at];
    c.undo[at] = t;
    team_count(p, c, team, t, type_at(p, w, j), -1);
  }
  team.sync();
}

/// replay_rest() by a team: the pairs not placed yet (j >= progress[w]) go back at the cycles
/// c.cycle holds for them, without searching; the schedule is whole again.
template <class Team, class View>
WARPSPAN_HD_INLINE void team_put_back_rest(const problem_view& p, const View& c, const Team& team) {
  for (std::uint32_t at = team.rank(); at < p.length; at += Team::size) {
    const std::uint32_t w = warp_at(p, at);
    const std::uint32_t j = at - warp_begin(p, w);
    if (j >= c.progress[w]) team_count(p, c, team, c.cycle[at], type_at(p, w, j), +1);
  }
  team.sync();
  team_complete(p, c, team);
}

/// Puts the old schedule back after team_take_out(pre) and some placements: every pair of the
/// suffix (j >= pre[w]) returns to its recorded cycle, leaving the new one where it was placed
/// again (j < progress[w]). restore_suffix() and restore_broken() in one.
template <class Team, class View, class Pre>
WARPSPAN_HD_INLINE void team_restore(const problem_view& p, const View& c, const Team& team, Pre pre) {
  team.sync();  // a placement that found no schedule read the state without a sync after it
  for (std::uint32_t at = team.rank(); at < p.length; at += Team::size) {
    const std::uint32_t w = warp_at(p, at);
    const std::uint32_t j = at - warp_begin(p, w);
    if (j < pre[w]) continue;
    const std::uint32_t old = c.undo[at];
    const std::uint32_t ty = type_at(p, w, j);
    if (j < c.progress[w]) {
      const std::uint32_t now = c.cycle[at];
      if (now == old) continue;
      team_count(p, c, team, now, ty, -1);
    }
    team_count(p, c, team, old, ty, +1);
    c.cycle[at] = old;
  }
  team.sync();
  team_complete(p, c, team);
}

/// last_makespan() by a team, of a complete schedule; every warp's last cycle goes to c.last.
template <class Team, class View>
WARPSPAN_HD_INLINE std::uint32_t team_makespan(const problem_view& p, const View& c, const Team& team) {
  std::uint32_t makespan = 0;
  for (std::uint32_t w = team.rank(); w < p.warps; w += Team::size) {
    const std::uint32_t t = c.cycle[warp_begin(p, w) + warp_length(p, w) - 1];
    c.last[w] = t;
    makespan = t > makespan ? t : makespan;
  }
  return team.max(makespan);
}

/// build_full() by a team.
template <class Team, class View>
WARPSPAN_HD_INLINE std::uint32_t team_build_full(const problem_view& p, const View& c, const Team& team) {
  const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
  for (std::size_t k = team.rank(); k < cells; k += Team::size) c.usage[k] = 0;
  for (std::uint32_t w = team.rank(); w < p.warps; w += Team::size) c.progress[w] = 0;
  team.sync();
  for (std::uint32_t k = 0; k < p.length; ++k) {
    const std::uint32_t w = c.str[k];
    if (team_place_next(p, c, team, w, c.progress[w]) == no_schedule) return no_schedule;
  }
  return team_makespan(p, c, team);
}

/// rebuild_from(z, settle, old_makespan, record = true) by a team: the same schedule and value;
/// the old cycles go to c.undo by pair and `pre` keeps each warp's prefix count, for
/// team_restore(). A string that breaks a barrier gets the old schedule back and no_schedule.
template <class Team, class View, class Pre>
WARPSPAN_HD_INLINE std::uint32_t team_rebuild_from(const problem_view& p, const View& c, const Team& team, Pre pre,
                                                   std::uint32_t z, std::uint32_t settle, std::uint32_t old_makespan,
                                                   std::uint64_t* placed = nullptr) {
  team_take_out(p, c, team, pre, z);
  bool moved = false;
  for (std::uint32_t k = z; k < p.length; ++k) {
    const std::uint32_t w = c.str[k];
    const std::uint32_t j = c.progress[w];
    const std::uint32_t before = c.cycle[warp_begin(p, w) + j];
    const std::uint32_t t = team_place_next(p, c, team, w, j);
    if (placed) ++*placed;
    if (t == no_schedule) {
      team_restore(p, c, team, pre);
      return no_schedule;
    }
    moved = moved || t != before;
    if (k == settle && !moved) {
      team_put_back_rest(p, c, team);
      return old_makespan;
    }
  }
  return team_makespan(p, c, team);
}

/// The rebuild policy of anneal_step_by() (see suffix_rebuild in anneal.hpp) for a team; `pre`:
/// room for W counts (the chain's scratch); `placed`, where set, counts the placements (the
/// benchmarks' figure).
template <class Team, class Pre>
struct team_rebuild {
  Team team;
  Pre pre;
  std::uint64_t* placed = nullptr;
  template <class View>
  WARPSPAN_HD_INLINE std::uint32_t candidate(const problem_view& p, const View& c, std::uint32_t z,
                                             std::uint32_t settle, std::uint32_t old_makespan) const {
    return team_rebuild_from(p, c, team, pre, z, settle, old_makespan, placed);
  }
  WARPSPAN_HD_INLINE void accepted() const {}
  template <class View>
  WARPSPAN_HD_INLINE void rejected(const problem_view& p, const View& c, std::uint32_t z) const {
    (void)z;
    team_restore(p, c, team, pre);
  }
};

/// The cells of the usage table where a rebuild's placed prefix differs from the old one's, with
/// the difference (new count minus old), for team_rejoin_from(): up to `Slots` of them, in
/// registers. Every lane of a team updates its own copy from the same values (the cycle found, the
/// old one, the type), so the copies agree without a word between the lanes and without a byte of
/// shared memory. A move that shifts placements into more cells than that `overflows`: it then
/// does not rejoin, which costs placements but never changes a schedule.
template <std::uint32_t Slots>
struct cell_differences {
  static constexpr std::uint32_t empty = 0xFFFFFFFFu;
  std::uint32_t cell[Slots];
  int diff[Slots];
  std::uint32_t nonzero = 0;  ///< cells whose difference is not zero
  bool overflow = false;
  WARPSPAN_HD_INLINE cell_differences() {
    WARPSPAN_UNROLL
    for (std::uint32_t i = 0; i < Slots; ++i) {
      cell[i] = empty;
      diff[i] = 0;
    }
  }
  /// The difference of `at` changes by `by` (+1 or -1). Every loop runs whole (no early exit), so
  /// that a GPU unrolls it and keeps the slots in registers.
  WARPSPAN_HD_INLINE void shift(std::uint32_t at, int by) {
    if (overflow) return;
    bool found = false;
    WARPSPAN_UNROLL
    for (std::uint32_t i = 0; i < Slots; ++i) {
      if (cell[i] != at) continue;
      found = true;
      diff[i] += by;
      if (diff[i] == 0) {
        cell[i] = empty;
        --nonzero;
      }
    }
    if (found) return;
    WARPSPAN_UNROLL
    for (std::uint32_t i = 0; i < Slots; ++i) {
      if (found || cell[i] != empty) continue;
      found = true;
      cell[i] = at;
      diff[i] = by;
      ++nonzero;
    }
    overflow = !found;
  }
};

/// One bit a warp, for up to 64 x `Words` warps, in registers: whether the warp's last placed
/// instruction moved. Every lane keeps its own copy, as cell_differences. Warps past `capacity`
/// are never marked, and a rebuild that would mark one does not rejoin. Four words (256 warps)
/// cover narrow chains; compact ones take one (64 warps), two registers instead of eight.
template <std::uint32_t Words = 4>
struct warp_bits {
  static_assert(Words == 1 || Words == 4, "one word (compact chains) or four (narrow ones)");
  static constexpr std::uint32_t capacity = 64u * Words;
  std::uint64_t m0 = 0, m1 = 0, m2 = 0, m3 = 0;  ///< with one word, m1-m3 are never touched
  std::uint32_t count = 0;                       ///< bits set
  /// Sets (on) or clears warp w's bit (w < capacity).
  WARPSPAN_HD_INLINE void set(std::uint32_t w, bool on) {
    // Values, not a reference to the chosen word (nor an array), so that a GPU keeps all of
    // them in registers; w is the same in every lane, so the branches do not diverge.
    const std::uint64_t bit = std::uint64_t{1} << (w & 63u);
    if constexpr (Words == 1) {
      if (((m0 & bit) != 0) == on) return;
      m0 ^= bit;
    } else {
      const std::uint32_t q = w >> 6;
      const std::uint64_t word = q == 0 ? m0 : q == 1 ? m1 : q == 2 ? m2 : m3;
      if (((word & bit) != 0) == on) return;
      if (q == 0)
        m0 ^= bit;
      else if (q == 1)
        m1 ^= bit;
      else if (q == 2)
        m2 ^= bit;
      else
        m3 ^= bit;
    }
    count = on ? count + 1 : count - 1;
  }
};

/// What a placement needs of its position in the string, read ahead (team_read_ahead): the pair
/// (index `at` = warp_begin(p, w) + j of the cycle array, warp w's instruction j), its type, its
/// cycle in the old schedule, and the first cycle it may take where that is known already.
/// Sixteen bytes, one load a placement (a warp's broadcast of one shared-memory vector).
struct alignas(16) ahead_pair {
  std::uint32_t at = 0;
  std::uint32_t before = 0;  ///< c.undo[at]: the pair's old cycle (team_take_out wrote it)
  /// team_earliest() where the warp's previous pair was placed before the read and no barrier
  /// comes between; else 0 (the placement reads it).
  std::uint32_t from = 0;
  std::uint32_t warp_type = 0;  ///< w (bits 0-15: a string holds 16-bit warp ids) | type << 16
};
static_assert(sizeof(ahead_pair) * 32 == anneal_warp_ahead_bytes, "the warp kernel's read-ahead holds a pair a lane");

/// A rebuild's walk over the string in reads of `size` positions (team_next_read): where the read
/// begins, how many positions it holds, from which of them on the rejoin test may stop it, and the
/// lanes whose positions have the same warp as this lane's (kept in its registers for
/// team_commit_progress; its own position is ahead[rank]).
struct ahead_read {
  std::uint32_t k = 0, count = 0, settled = 0;
  std::uint32_t same = 0;
};

/// Reads ahead the placements of positions k..k + size - 1 of c.str (those before p.length), lane r
/// the one at k + r, into ahead[r]; returns how many. While a rebuild places, the string does not
/// change, so what the rebuild needs to know of a position before placing it (which pair, its
/// type, its old cycle, mostly where its search starts) depends only on the warps' progress when
/// the read starts and on the positions before it in the same read: a pair's j is its warp's
/// progress plus the lanes below with the same warp (a match). The lanes read `size` positions at
/// once, and the team's serial loop takes each position's in one load instead of computing it
/// (issue 42: a warp issues the serial part once for its 32 lanes, so that part bounds its
/// moves). `lane` gets this lane's own. The caller's last placement ended with a sync (every lane
/// has read the previous positions), and its progress commit comes before the match's sync.
template <class Team, class View>
WARPSPAN_HD_INLINE std::uint32_t team_read_ahead(const problem_view& p, const View& c, const Team& team,
                                                 ahead_pair* ahead, std::uint32_t k, ahead_read& lane) {
  const std::uint32_t mine = k + team.rank();
  const bool valid = mine < p.length;
  const std::uint32_t w = valid ? static_cast<std::uint32_t>(c.str[mine]) : 0xFFFFFFFFu;
  const std::uint32_t same = team.match(w);
  if (valid) {
    const std::uint32_t below = same & ((1u << team.rank()) - 1u);
    const std::uint32_t j = static_cast<std::uint32_t>(c.progress[w]) + bit_count(below);
    const std::size_t at = static_cast<std::size_t>(warp_begin(p, w)) + j;
    const bool after_barrier = p.barrier != no_barrier && j != 0 && p.types[(p.starts ? at : j) - 1] == p.barrier;
    ahead_pair& next = ahead[team.rank()];
    next.at = static_cast<std::uint32_t>(at);
    next.before = c.undo[at];
    next.from = j == 0 ? 1u : below != 0 || after_barrier ? 0u : static_cast<std::uint32_t>(c.cycle[at - 1]) + 1;
    next.warp_type = w | static_cast<std::uint32_t>(p.types[p.starts ? at : j]) << 16;
    lane.same = same;
  }
  team.sync();
  const std::uint32_t left = p.length - k;
  return left < Team::size ? left : Team::size;
}

/// After the first `placed` positions of a read-ahead are placed: each warp's progress past its
/// last pair among them, written by the lane that read it (no two lanes write one warp's). Nothing
/// with barriers: then every placement has written its own (barrier_release reads other warps').
template <class Team, class View>
WARPSPAN_HD_INLINE void team_commit_progress(const problem_view& p, const View& c, const Team& team,
                                             const ahead_pair* ahead, const ahead_read& lane, std::uint32_t placed) {
  const std::uint32_t r = team.rank();
  if (r >= placed || p.barrier != no_barrier) return;
  const std::uint32_t upto = placed >= 32 ? 0xFFFFFFFFu : (1u << placed) - 1u;  // lanes below `placed`
  const std::uint32_t above = upto & ~((2u << r) - 1u);                         // ... and above r
  if ((lane.same & above) != 0) return;
  const ahead_pair& mine = ahead[r];  // this lane's own position (its warp and pair)
  const std::uint32_t w = mine.warp_type & 0xFFFFu;
  c.progress[w] = mine.at - warp_begin(p, w) + 1;
}

/// The walk's next read (the first from z, after team_take_out: read.k = z, read.count = 0): the
/// progress of the read before committed, then the next `size` positions read ahead; false past
/// the string's end (every placement's progress committed). One call a read: the loop control of a
/// warp's 32 placements.
template <class Team, class View>
WARPSPAN_HD_INLINE bool team_next_read(const problem_view& p, const View& c, const Team& team, ahead_pair* ahead,
                                       std::uint32_t settle, ahead_read& read) {
  team_commit_progress(p, c, team, ahead, read, read.count);
  read.k += read.count;
  if (read.k >= p.length) return false;
  read.count = team_read_ahead(p, c, team, ahead, read.k, read);
  read.settled = settle > read.k ? settle - read.k : 0;
  return true;
}

/// team_place() of a read-ahead position (`next`), with its progress kept by the read
/// (team_commit_progress) or, with barriers, stored by the placement; no_schedule (placing nothing)
/// where its barrier is not released yet.
template <class Team, class View>
WARPSPAN_HD_INLINE std::uint32_t team_place_ahead(const problem_view& p, const View& c, const Team& team,
                                                  const ahead_pair& next) {
  const std::uint32_t w = next.warp_type & 0xFFFFu, ty = next.warp_type >> 16;
  std::uint32_t from = next.from;
  if (from == 0) {
    from = team_earliest(p, c, w, next.at - warp_begin(p, w), next.at);
    if (from == no_schedule) return no_schedule;
  }
  return p.barrier != no_barrier ? team_place<true>(p, c, team, w, next.at, ty, from)
                                 : team_place<false>(p, c, team, w, next.at, ty, from);
}

/// A rebuild's placements from position i of the current read to the string's end, without the
/// rejoin test (a move whose differences it cannot follow): the new makespan, or no_schedule with
/// the old schedule back (team_restore).
template <class Team, class View, class Pre>
WARPSPAN_HD_INLINE std::uint32_t team_place_rest(const problem_view& p, const View& c, const Team& team, Pre pre,
                                                 ahead_pair* ahead, std::uint32_t settle, ahead_read& read,
                                                 std::uint32_t i, std::uint64_t* placed) {
  do {
    for (; i < read.count; ++i) {
      const std::uint32_t t = team_place_ahead(p, c, team, ahead[i]);
      if (placed) ++*placed;
      if (t == no_schedule) {
        team_commit_progress(p, c, team, ahead, read, i);
        team_restore(p, c, team, pre);
        return no_schedule;
      }
    }
    i = 0;
  } while (team_next_read(p, c, team, ahead, settle, read));
  return team_makespan(p, c, team);
}

/// team_rebuild_from() that stops where the new schedule rejoins the old one (issue 42, item 1):
/// the same schedule and value, in fewer placements. The placements are the team's serial part
/// (a search, a ballot and a sync each); the loops over pairs are shared by its lanes. So from
/// `settle` on, the builder's state is compared with the old one after every placement, exactly:
/// once the pairs that moved cancel out in the usage table (per cell as many arrived as left:
/// cell_differences) and no warp's last placed pair has moved (warp_bits), every later placement
/// would be the old one, and the rest goes back at its cycles without searching
/// (team_put_back_rest). This is the rejoin test of the CPU's checkpoints (checkpoints.hpp),
/// without their tables; its bookkeeping is in registers, the same in every lane, so it adds no
/// access to the chain's state and no collective. A barrier issued in another cycle changes when
/// its block goes on, which the table and the last cycles do not show: a move that shifts one
/// does not rejoin; nor one whose differences overflow `Slots` cells (team_place_rest places the
/// rest without the test). The positions are read ahead `size` at a time (team_next_read): each
/// placement takes its pair, type, old cycle and mostly its first cycle in one load.
template <std::uint32_t Slots = 8, std::uint32_t Words = 4, class Team, class View, class Pre>
WARPSPAN_HD_INLINE std::uint32_t team_rejoin_from(const problem_view& p, const View& c, const Team& team, Pre pre,
                                                  ahead_pair* ahead, std::uint32_t z, std::uint32_t settle,
                                                  std::uint32_t old_makespan, std::uint64_t* placed = nullptr) {
  team_take_out(p, c, team, pre, z);
  cell_differences<Slots> cells;
  warp_bits<Words> off;
  bool moved = false;
  ahead_read read;
  read.k = z;
  while (team_next_read(p, c, team, ahead, settle, read)) {
    for (std::uint32_t i = 0; i < read.count; ++i) {
      const ahead_pair next = ahead[i];
      const std::uint32_t t = team_place_ahead(p, c, team, next);
      if (placed) ++*placed;
      if (t == no_schedule) {
        team_commit_progress(p, c, team, ahead, read, i);
        team_restore(p, c, team, pre);
        return no_schedule;
      }
      const std::uint32_t w = next.warp_type & 0xFFFFu, before = next.before;
      if (t != before) {
        moved = true;
        const std::uint32_t ty = next.warp_type >> 16;
        if (ty == p.barrier || w >= off.capacity)
          return team_place_rest(p, c, team, pre, ahead, settle, read, i + 1, placed);
        off.set(w, true);
        const std::uint32_t now_row = t * p.stride, old_row = before * p.stride;
        cells.shift(now_row + ty, 1);
        cells.shift(old_row + ty, -1);
        if (p.limited) {
          cells.shift(now_row + p.ntypes, 1);
          cells.shift(old_row + p.ntypes, -1);
        }
        if (cells.overflow) return team_place_rest(p, c, team, pre, ahead, settle, read, i + 1, placed);
      } else if (off.count != 0 && w < off.capacity) {
        off.set(w, false);
      }
      if (i >= read.settled && (cells.nonzero | off.count) == 0) {
        team_commit_progress(p, c, team, ahead, read, i + 1);
        team.sync();
        team_put_back_rest(p, c, team);
        return moved ? team_makespan(p, c, team) : old_makespan;
      }
    }
  }
  return team_makespan(p, c, team);
}

/// The rebuild policy of anneal_step_by() that stops where the schedule rejoins the old one
/// (team_rejoin_from, `Slots` differences and `Words` x 64 warps' bits in registers); `pre`: room
/// for W counts; `placed`, where set, counts the placements; `ahead`: room for the read-ahead.
template <class Team, class Pre, std::uint32_t Slots = 8, std::uint32_t Words = 4>
struct team_rejoin_rebuild {
  Team team;
  Pre pre;
  std::uint64_t* placed = nullptr;
  /// Room for Team::size read-ahead pairs, where every lane reads them (a warp's: shared memory);
  /// a team of one may leave it null and reads ahead into its own.
  ahead_pair* ahead = nullptr;
  template <class View>
  WARPSPAN_HD_INLINE std::uint32_t candidate(const problem_view& p, const View& c, std::uint32_t z,
                                             std::uint32_t settle, std::uint32_t old_makespan) const {
    if constexpr (Team::size == 1) {
      if (ahead == nullptr) {
        ahead_pair own[1];
        return team_rejoin_from<Slots, Words>(p, c, team, pre, own, z, settle, old_makespan, placed);
      }
    }
    return team_rejoin_from<Slots, Words>(p, c, team, pre, ahead, z, settle, old_makespan, placed);
  }
  WARPSPAN_HD_INLINE void accepted() const {}
  /// team_restore() puts back a rejoined candidate too: its rest is in place at the old cycles.
  template <class View>
  WARPSPAN_HD_INLINE void rejected(const problem_view& p, const View& c, std::uint32_t z) const {
    (void)z;
    team_restore(p, c, team, pre);
  }
};

/// The rejoin's registers for chains of a packing, written once for the warp kernel and the
/// counts that model it (bench/count/team_step.cpp): compact chains (W, I and the bound within a
/// byte: Voronoi W = 16) have small blocks, so registers bound the blocks an SM holds, and they keep
/// 4 differences and one word of warp bits (64 warps; past them no rejoin): 72 registers and no
/// spill (nvcc 13, sm_90) against the plain rebuild's 62, 28 blocks an SM instead of 32, for about
/// a quarter fewer shared requests a move at estimate's moves (8 differences spill). Where shared
/// memory bounds the blocks (narrow and wide chains: W = 48, 64), 8 differences and 256 warps.
template <chain_packing Packing>
struct rejoin_registers {
  static constexpr std::uint32_t slots = 8, words = 4;
};
template <>
struct rejoin_registers<chain_packing::compact> {
  static constexpr std::uint32_t slots = 4, words = 1;
};

/// team_rejoin_rebuild with the registers of chains packed `Packing`.
template <chain_packing Packing, class Team, class Pre>
using packing_rejoin_rebuild =
    team_rejoin_rebuild<Team, Pre, rejoin_registers<Packing>::slots, rejoin_registers<Packing>::words>;

/// anneal_init() by a team.
template <class Team, class View, class Best>
WARPSPAN_HD_INLINE void team_anneal_init(const problem_view& p, const View& c, Best best_str, chain_state& s,
                                         const Team& team) {
  s.iter = 0;
  s.best_iter = 0;
  s.makespan = team_build_full(p, c, team);
  s.best = s.makespan;
  for (std::uint32_t k = team.rank(); k < p.length; k += Team::size) best_str[k] = c.str[k];
}

}  // namespace warpspan
