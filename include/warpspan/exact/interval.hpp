// A proven interval for the worst-case makespan from what is cheap to compute: the makespan of a
// known string below, and above the lesser of the pessimistic bound (makespan/bounds.hpp) and what
// the exact search proves within the time (one value when it finishes). The tractable estimate of
// 001 eq. 42-43 from exact T(y) of small y is not used: it is not a bound (T(4) = 9 > 2 T(2) for
// LCL; tests/makespan/test_bounds.cpp), so it is reported by `bound --exact-up-to` as an estimate.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/makespan/problem.hpp"

namespace warpspan {

struct proven_interval {
  std::uint32_t lower = 0;
  std::uint32_t upper = 0;
  bool exact = false;      ///< lower == upper (the search for W finished, or the bound is attained)
  std::string upper_from;  ///< "exact", "search" or "pessimistic"
  double elapsed_s = 0;
  /// A string that builds to `lower` when the search found one longer than the string it was given
  /// (0-based warp ids); empty otherwise.
  std::vector<std::uint16_t> witness;
};

/// What exact_t_runs found for one T(y).
struct t_run {
  std::uint32_t y = 0;
  bool complete = false;     ///< lower == upper == T(y)
  bool started = false;      ///< false: the time was spent (or an interrupt came) before its search
  bool interrupted = false;  ///< its search was stopped by SIGINT or SIGTERM
  std::uint32_t lower = 0;   ///< proven: T(y) >= lower (a schedule of that length exists)
  std::uint32_t upper = 0;   ///< proven: T(y) <= upper
  std::string stop_reason;   ///< why it is not complete
};

/// Exact T(1), T(2), ... up to `up_to` (< W or = W), each by the search within what is left of
/// `seconds` (0: no limit), until the first that does not finish (a limit or an interrupt); an entry
/// for every y = 1..up_to: the solved ones, then the first not solved with the interval its search proved, then those not started with the interval of the
/// best standard string and the pessimistic bound.
/// `progress` (optional) is told (y, up_to, progress sums done of T(y), all its sums, seconds) as
/// the searches go, for a progress line.
std::vector<t_run> exact_t_runs(
    const problem& prob, std::uint32_t up_to, double seconds,
    const std::function<void(std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, double)>& progress = {});

/// exact_t_runs's `up_to` and `seconds` as a face gives them (`bound --exact-up-to N --time-limit S`,
/// warpspan.bound): `up_to` checked (input_error naming exact_up_to when negative or over
/// exact_max_warps, time_limit when negative or not finite).
std::uint32_t checked_t_runs(long long up_to, double seconds);

/// The interval, spending about `seconds` on the exact search for W itself, pruned against
/// `lower_string`, a string of this problem (e.g. the annealing's best), on `backend` as
/// exact_search runs it (the device's dense table, its window of sums or its sweep for cuda).
/// Except on the CPU's dense sweep (one exact pass: dropping states saves it little), passes ask
/// whether the worst case is at most the middle of the interval proven so far
/// (exact_options::at_most), halving it each time one proves its value, until an exact pass or
/// the end of the time; the last upper end proven stands.
proven_interval prove_interval(const problem& prob, const std::vector<std::uint16_t>& lower_string, double seconds,
                               backend_kind backend = backend_kind::cpu);

}  // namespace warpspan
