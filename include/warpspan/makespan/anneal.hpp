// Simulated annealing over pseudo-precedence strings (000 V), one step written once for host and
// device. Every random number of step `iter` of chain `chain_id` is draw(seed, chain_id, iter), so
// a chain's trajectory does not depend on which backend, thread or round runs it.
//
// Neighbour move (documented in docs/makespan.md, "How the estimator searches"): pick a position i uniformly
// and a distance d uniformly in [1, reach] (for a share far / 2048 of the moves, decided by the low
// 11 bits of the fourth draw, which the acceptance test does not use: uniformly over the whole
// string instead); j = i + d, or i - d when that runs past the end. If the
// two ids are equal, j walks on in the same direction to the first different id. Swap str[i] and
// str[j]. When no such j exists the step is a null move (it still counts as an iteration).
// A swap that breaks a barrier (schedule.hpp, no_schedule) is undone: a null move.
// Acceptance: a candidate at least as long is taken; a shorter one with probability
// min(1, T / (m - m')), T = T0 (1 - iter / iter_max). The schedule is rebuilt from min(i, j).
#pragma once

#include <cstdint>

#include "warpspan/core/macros.hpp"
#include "warpspan/core/rng.hpp"
#include "warpspan/makespan/schedule.hpp"
#include "warpspan/detail/makespan/team.hpp"

namespace warpspan {

struct anneal_params {
  std::uint64_t seed = 1;
  std::uint64_t iter_max = 1;  ///< the length of the cooling schedule, per chain
  double t0 = 0.3;             ///< initial temperature (000 VIII used 0.3)
  std::uint32_t reach = 0;     ///< largest swap distance; 0 means the whole string
  std::uint32_t far = 0;       ///< moves out of 2048 whose distance is drawn over the whole string
};

/// The denominator of anneal_params::far (the 11 bits of a draw that nothing else uses).
inline constexpr std::uint32_t far_scale = 2048;

/// The scalar part of a chain's state.
struct chain_state {
  std::uint64_t iter = 0;       ///< iterations done
  std::uint64_t best_iter = 0;  ///< iteration at which `best` was first reached
  std::uint32_t makespan = 0;   ///< makespan of the current string
  std::uint32_t best = 0;       ///< best makespan seen
};

/// Stream ids for draw(): chain moves use the chain id; initial strings use this tag.
inline constexpr std::uint32_t init_tag = 0x1A17u;

/// Starts a chain on the string already in c.str.
template <class View, class Best>
WARPSPAN_HD_INLINE void anneal_init(const problem_view& p, const View& c, Best best_str, chain_state& s) {
  s.iter = 0;
  s.best_iter = 0;
  s.makespan = build_full(p, c);
  s.best = s.makespan;
  for (std::uint32_t k = 0; k < p.length; ++k) best_str[k] = c.str[k];
}

/// Picks the second position of a move from i; returns false for a null move.
template <class Str>
WARPSPAN_HD_INLINE bool pick_partner(const problem_view& p, const Str& str, std::uint32_t i, std::uint32_t r,
                                     std::uint32_t reach, std::uint32_t& j_out) {
  const std::uint32_t n = p.length;
  const std::uint32_t span = (reach == 0 || reach >= n) ? n - 1 : reach;
  const std::uint32_t d = 1 + bounded(r, span);
  std::int64_t j;
  std::int64_t step;
  if (static_cast<std::uint64_t>(i) + d < n) {
    j = static_cast<std::int64_t>(i) + d;
    step = 1;
  } else if (d <= i) {
    j = static_cast<std::int64_t>(i) - d;
    step = -1;
  } else {
    return false;
  }
  while (j >= 0 && j < static_cast<std::int64_t>(n) && str[j] == str[i]) j += step;
  if (j < 0 || j >= static_cast<std::int64_t>(n)) return false;
  j_out = static_cast<std::uint32_t>(j);
  return true;
}

/// How anneal_step_by() rebuilds a candidate's schedule and puts the old one back: the shared
/// incremental rebuild of 000 VII (rebuild_from, restore_suffix), which both backends run. The CPU
/// runner may use a checkpointed one instead (chain_checkpoints, checkpoints.hpp) that makes the
/// same schedules, so the trajectory is the same.
struct suffix_rebuild {
  /// The schedule of c.str, changed at positions z..settle only; returns its makespan, or
  /// no_schedule with the old schedule back in place when the string breaks a barrier.
  template <class View>
  WARPSPAN_HD_INLINE std::uint32_t candidate(const problem_view& p, const View& c, std::uint32_t z,
                                             std::uint32_t settle, std::uint32_t old_makespan) const {
    return rebuild_from(p, c, z, settle, old_makespan, true);
  }
  /// The candidate is taken.
  WARPSPAN_HD_INLINE void accepted() const {}
  /// The candidate is rejected: back to the old schedule (the string is swapped back afterwards).
  /// Only a full-suffix rebuild can be rejected (a settled one equals m), so the recorded old cycles
  /// restore the schedule exactly.
  template <class View>
  WARPSPAN_HD_INLINE void rejected(const problem_view& p, const View& c, std::uint32_t z) const {
    restore_suffix(p, c, z);
  }
};

/// One annealing iteration, the schedule rebuilt by `rebuild` (see suffix_rebuild), run by `team`
/// (team.hpp: one thread, or the lanes of a warp, each lane with its own copy of `s`).
template <class View, class Best, class Rebuild, class Team = serial_team>
WARPSPAN_HD_INLINE void anneal_step_by(const problem_view& p, const View& c, Best best_str, chain_state& s,
                                       const anneal_params& a, std::uint32_t chain_id, Rebuild& rebuild,
                                       const Team& team = {}) {
  const philox_out r = draw(a.seed, chain_id, s.iter);
  const std::uint64_t iter = s.iter++;
  if (p.length < 2) return;
  const std::uint32_t i = bounded(r.v[0], p.length);
  std::uint32_t j = 0;
  // unit_double below reads r.v[3] >> 11 only: its low 11 bits decide a far move, independently.
  const std::uint32_t reach = (r.v[3] & (far_scale - 1)) < a.far ? 0u : a.reach;
  if (!pick_partner(p, c.str, i, r.v[1], reach, j)) return;

  const std::uint32_t z = i < j ? i : j;
  const std::uint32_t settle = i < j ? j : i;
  team_swap(team, c.str, i, j);
  const std::uint32_t candidate = rebuild.candidate(p, c, z, settle, s.makespan);
  if (candidate == no_schedule) {
    // The swap broke a barrier (a warp past one before its block issued it): no schedule, a null
    // move. The rebuild has put the old schedule back; the string goes back too.
    team_swap(team, c.str, i, j);
    return;
  }

  bool accept = candidate >= s.makespan;
  if (!accept) {
    // T / (m - m') with T = T0 (1 - iter / iter_max); each operation is one IEEE-rounded double
    // operation (nothing an FMA could fuse), so host and device agree bit for bit.
    const double progress = static_cast<double>(iter) / static_cast<double>(a.iter_max);
    const double temperature = a.t0 * (1.0 - progress);
    const double probability = temperature / static_cast<double>(s.makespan - candidate);
    accept = unit_double(r.v[2], r.v[3]) < probability;
  }
  if (accept) {
    rebuild.accepted();
    s.makespan = candidate;
    if (candidate > s.best) {
      s.best = candidate;
      s.best_iter = iter + 1;
      for (std::uint32_t k = team.rank(); k < p.length; k += Team::size) best_str[k] = c.str[k];
    }
  } else {
    rebuild.rejected(p, c, z);
    team_swap(team, c.str, i, j);
  }
}

/// One annealing iteration with the shared incremental rebuild.
template <class View, class Best>
WARPSPAN_HD_INLINE void anneal_step(const problem_view& p, const View& c, Best best_str, chain_state& s,
                                    const anneal_params& a, std::uint32_t chain_id) {
  suffix_rebuild rebuild;
  anneal_step_by(p, c, best_str, s, a, chain_id, rebuild);
}

/// Runs up to `count` iterations, never past iter_max, rebuilding by `rebuild`, run by `team`.
template <class View, class Best, class Rebuild, class Team = serial_team>
WARPSPAN_HD_INLINE void anneal_run_by(const problem_view& p, const View& c, Best best_str, chain_state& s,
                                      const anneal_params& a, std::uint32_t chain_id, std::uint64_t count,
                                      Rebuild& rebuild, const Team& team = {}) {
  const std::uint64_t end = s.iter + count < a.iter_max ? s.iter + count : a.iter_max;
  while (s.iter < end) {
    WARPSPAN_WARP_RECONVERGE();
    anneal_step_by(p, c, best_str, s, a, chain_id, rebuild, team);
  }
}

/// Runs up to `count` iterations with the shared incremental rebuild.
template <class View, class Best>
WARPSPAN_HD_INLINE void anneal_run(const problem_view& p, const View& c, Best best_str, chain_state& s,
                                   const anneal_params& a, std::uint32_t chain_id, std::uint64_t count) {
  suffix_rebuild rebuild;
  anneal_run_by(p, c, best_str, s, a, chain_id, count, rebuild);
}

}  // namespace warpspan
