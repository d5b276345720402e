#include "warpspan/orchestrator/estimate_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

estimate_report run_estimate_request(const problem& prob, estimate_request request, const progress_fn& progress,
                                     const std::function<void(double)>& on_proving) {
  using clock_type = std::chrono::steady_clock;
  const auto start = clock_type::now();
  const auto since_start = [&] { return std::chrono::duration<double>(clock_type::now() - start).count(); };
  if (request.seconds < 0 || !std::isfinite(request.seconds))
    throw input_error(param("seconds") + " must be 0 or more");
  if (request.exact_seconds < 0 || !std::isfinite(request.exact_seconds))
    throw input_error(param("exact_seconds") + " must be 0 or more");
  estimate_options& eo = request.search;
  if (request.shard) request.exact_seconds = 0;
  estimate_report report;
  // The cooling follows the budget when only the budget is given (a shard keeps the fixed default).
  if (request.seconds > 0 && !request.iterations_given && !request.shard) {
    eo.fit_to_seconds = true;
    eo.iterations = std::uint64_t{1} << 40;
  }
  report.cooling_fitted_to_seconds = eo.fit_to_seconds;
  if (eo.ranks && eo.ranks->rank() != 0) request.exact_seconds = 0;  // rank 0 alone proves
  // The proven interval gets a share of the budget (at most a quarter, at most exact_seconds), the
  // search what is left after the set-up.
  const double share =
      request.seconds > 0 ? std::min(request.exact_seconds, request.seconds / 4) : request.exact_seconds;
  if (request.seconds > 0) eo.seconds = std::max(request.seconds - share - since_start(), 1e-3);
  report.result = run_estimate(prob, eo, progress);
  const estimate_result& r = report.result;
  // What the search left, at most exact_seconds; when one long iteration overran the search's
  // share, still 10 ms: enough for the pessimistic bound and a small exact search.
  const double interval_s = request.seconds > 0
                                ? std::min(request.exact_seconds, std::max(request.seconds - since_start(), 0.01))
                                : request.exact_seconds;
  if (request.exact_seconds > 0 && !r.interrupted && r.beam.exact) {
    // The beam pruned nothing: it was the exact sweep by progress sums, and its answer is T(W).
    proven_interval p;
    p.lower = p.upper = r.beam.makespan;
    p.exact = true;
    p.upper_from = "exact";
    p.elapsed_s = r.beam.seconds;
    report.proven = p;
  } else if (request.exact_seconds > 0 && !r.interrupted) {
    if (on_proving) on_proving(interval_s);
    // On the device only when asked for by name: auto keeps the CPU's search, as `exact` does.
    report.proven = prove_interval(prob, r.best_string, interval_s,
                                   eo.backend == backend_kind::cuda ? backend_kind::cuda : backend_kind::cpu);
  }
  report.annealing_best = r.best_makespan;
  // The search behind the interval may find a longer schedule than the chains (a small W solved
  // exactly): the estimate is the longest schedule found by either, so it never lies below the
  // proven lower end.
  if (report.proven && !report.proven->witness.empty() && report.proven->lower > r.best_makespan) {
    estimate_result& best = report.result;
    best.best_string = report.proven->witness;
    best.schedule = build_schedule(prob, best.best_string);
    best.best_makespan = best.schedule.makespan;
    report.best_from = "exact search";
  }
  report.result.interrupted = r.interrupted || interrupted();  // also while proving
  const bool proven_lower = report.proven && report.proven->upper <= r.upper_bound;
  report.safe_upper_bound = proven_lower ? std::uint64_t{report.proven->upper} : r.upper_bound;
  report.safe_upper_bound_from = proven_lower ? "proven interval" : "pessimistic bound";
  return report;
}

}  // namespace warpspan
