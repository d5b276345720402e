// `estimate` as a whole: the search within a time budget, then the proven interval, with the
// policies every face of warpspan shares (the command line and the Python module call this, never
// their own copy): how --seconds is split between the search and the interval, when the cooling
// follows the budget, which number is safe to design with. Its JSON is estimate_json
// (warpspan/io/result_json.hpp).
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "warpspan/exact/interval.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {

/// What a user asks of a whole estimate.
struct estimate_request {
  estimate_options search;  ///< chains, iterations, seed, t0, reach, init, backend, threads, validate, slice, ranks
  bool iterations_given =
      false;                 ///< search.iterations was asked for (else, with seconds, the cooling follows the budget)
  double seconds = 0;        ///< the whole run (set-up, search, interval); 0: no limit
  double exact_seconds = 2;  ///< the proven interval's time, at most a quarter of `seconds`; 0: none
  bool shard = false;        ///< one slice of a run to merge: the fixed schedule, no interval
  /// The input files the problem was read from, (parameter, path) as shard_inputs takes them
  /// (orchestrator/shards.hpp): a shard's header names them with their content's hash.
  std::vector<std::pair<std::string, std::string>> inputs;
};

/// The result of a whole estimate.
struct estimate_report {
  estimate_result result;
  std::optional<proven_interval> proven;
  bool cooling_fitted_to_seconds = false;
  std::uint64_t safe_upper_bound = 0;  ///< the worst case is at most this (the estimate is a lower bound)
  std::string safe_upper_bound_from;   ///< "proven interval" or "pessimistic bound"
  /// "annealing", or "exact search" when the proven interval's search found a longer schedule than
  /// the chains: result.best_makespan, best_string and schedule are then that schedule's, and
  /// annealing_best what the chains found.
  std::string best_from = "annealing";
  std::uint32_t annealing_best = 0;
};

/// Checks `request` (input_error naming the parameter: seconds, exact_seconds must be finite and
/// >= 0) and runs it: the search gets `seconds` minus the interval's share and the set-up, the
/// interval what is left (at most exact_seconds, at least 10 ms when the search overran); with
/// seconds and no iterations the cooling follows the budget (not for a shard, whose merge must
/// equal the whole run); an interrupted search skips the interval; with ranks only rank 0 proves.
/// `on_proving(seconds)` is called before the interval is proven (a progress line's note).
estimate_report run_estimate_request(const problem& prob, estimate_request request, const progress_fn& progress = {},
                                     const std::function<void(double)>& on_proving = {});

}  // namespace warpspan
