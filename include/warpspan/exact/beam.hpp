// A beam search over the exact search's states: a long schedule quickly, with no claim that it is
// the longest (issue 26). Host code.
//
// The states are those of the exact search (frontier.hpp: the multiset of the warps' progress
// levels); one cycle raises the progress sum by the number of warps it issues, so the sums order
// the states topologically. The beam takes the sums in increasing order and expands, at each sum,
// only `width` of the reached states: half those whose way in (the cycles so far, the longest
// found) plus the remaining bound is largest, half those whose way in plus a remaining lower bound
// is (the two orders find different worst cases); a successor keeps the longest way in it is
// given. With a width that holds every state this is the exact sweep by progress sums; narrower,
// it is a heuristic whose answer is a real schedule (its string is checked by build_schedule), so
// a lower bound on the worst case.
#pragma once

#include <cstdint>
#include <vector>

#include "warpspan/makespan/problem.hpp"

namespace warpspan {

struct beam_options {
  /// States expanded per progress sum (at least 1; at most what a quarter of the memory budget
  /// holds, about 25,000 for Voronoi W = 16 within 4 GiB: wider is cut down, see beam_result::width).
  std::uint32_t width = 1024;
  /// The share of the width that goes to the states with the longest way in plus remaining lower
  /// bound; the rest to way in plus remaining (upper) bound, taken first (clamped to [0, 1]).
  double low_share = 0.5;
  /// 0: none; when reached (or on an interrupt), the beam narrows to one state per sum and ends soon.
  double time_limit_s = 0;
  /// With `time_limit_s`: each sum's width is the widest (at most `width`) that the time left
  /// allows the sums still to come, at the cost per kept state measured on the sums so far, so one
  /// beam spends the time instead of narrowing at the limit (a few sums' worth of states, 2,048,
  /// run at `width` before the first measure). Not deterministic: the widths follow the clock.
  bool fit_width = false;
  /// 1 or 2 (more count as 2): the second expands half of each sum's states and works out half
  /// of the bounds; the result is the same.
  int threads = 1;
  /// Pack the states at 16 bits a level even where 8 do (where W <= 8 and W x I <= 65,535; else
  /// ignored), as kernels past 254 instructions are: for the tests and measurements; same result.
  bool wide_levels = false;
};

struct beam_result {
  bool applicable =
      false;  ///< the states pack (frontier_packs: at most 16 warps and 254 instructions, or 8 warps past 254)
  std::uint32_t makespan = 0;         ///< the schedule's length (0 when not applicable)
  std::vector<std::uint16_t> string;  ///< a pseudo-precedence string whose schedule has `makespan`
  /// The width of the beam that found it; of a beam with fit_width, the narrowest a sum was cut to
  /// (the width of `options` if none was).
  std::uint32_t width = 0;
  std::uint64_t expanded = 0;  ///< states expanded
  /// No sum held more states than the width: every state was expanded, so `makespan` is the
  /// worst case T(W) itself.
  bool exact = false;
  bool narrowed = false;  ///< the time limit or an interrupt cut the width down on the way
  double elapsed_s = 0;
};

/// One beam of `options.width`; deterministic unless the time limit or an interrupt narrows it.
/// Throws std::logic_error if its witness does not build `makespan` (a bug, never expected).
beam_result beam_search(const problem& prob, const beam_options& options = {});

/// One beam within `seconds`, each sum as wide as the time left allows (beam_options::fit_width),
/// at most `max_width` (and what the memory holds). It replaced beams of widening width, each
/// started anew: on the 2-core VM a search of 0.3 s ran widths 256 and 512 where one of 1,100 fits.
beam_result budget_beam(const problem& prob, double seconds, std::uint32_t max_width = 1u << 20, int threads = 1);

}  // namespace warpspan
