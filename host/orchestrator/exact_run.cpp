#include "warpspan/orchestrator/exact_run.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstring>

#include "warpspan/core/error.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/makespan/estimate.hpp"

namespace warpspan {
namespace {

using clock_type = std::chrono::steady_clock;

/// The string the sweep prunes against: the annealing's best, or the best standard string when
/// that is as long.
std::vector<std::uint16_t> warm_start_string(const problem& prob, const exact_options& options,
                                             std::uint64_t iterations) {
  estimate_options eo;
  eo.chains = 2;
  eo.iterations = iterations;
  eo.seed = 1;
  eo.backend = backend_kind::cpu;
  eo.threads = options.threads;
  if (options.time_limit_s > 0) eo.seconds = options.time_limit_s / 4;
  const estimate_result e = run_estimate(prob, eo);
  exact_result standard;
  exact_detail::fill_interval(prob, standard);
  return standard.lower >= e.best_makespan ? standard.best_string : e.best_string;
}

}  // namespace

exact_result run_exact(const problem& prob, const exact_options& options, std::uint64_t warm_start,
                       backend_kind backend, std::string* used, rank_group* ranks) {
  const bool packs = frontier_packs(prob);
  // The dense sweeps prune nothing against the lower string, so it only saves their witness's
  // backtracking; with at_most it decides whether they drop states at all.
  if (warm_start == 0 || !options.lower_string.empty() || prob.length() < 2 || !packs ||
      (options.at_most == 0 && exact_search_is_dense(prob, options, backend, ranks)))
    return exact_search(prob, options, backend, used, ranks);
  exact_options o = options;
  double warm_s = 0;
  const bool many = ranks && ranks->size() > 1;
  if (!many || ranks->rank() == 0) {
    const auto start = clock_type::now();
    o.lower_string = warm_start_string(prob, options, warm_start);
    warm_s = std::chrono::duration<double>(clock_type::now() - start).count();
  }
  if (many) {  // rank 0's string and time (a time-limited annealing may differ between ranks)
    const auto& s = o.lower_string;
    const std::string got = ranks->broadcast(
        std::string(reinterpret_cast<const char*>(s.data()), s.size() * sizeof(std::uint16_t)) + to_bytes(warm_s), 0);
    const std::size_t string_bytes = got.size() - sizeof(double);
    o.lower_string.resize(string_bytes / sizeof(std::uint16_t));
    if (string_bytes) std::memcpy(o.lower_string.data(), got.data(), string_bytes);
    warm_s = from_bytes<double>(got.substr(string_bytes));
  }
  if (options.time_limit_s > 0) o.time_limit_s = std::max(options.time_limit_s - warm_s, 1e-3);
  exact_result r = exact_search(prob, o, backend, used, ranks);
  r.elapsed_s += warm_s;
  return r;
}

exact_plan check_exact_request(const exact_request& request) {
  const std::string& method = request.method;
  if (method != "search" && method != "ilp" && method != "auto")
    throw input_error(param("method") + ": '" + method + "' is not a method (expected search, ilp or auto)");
  if (request.constraints != "short" && request.constraints != "long")
    throw input_error(param("constraints") + ": '" + request.constraints + "' is not a form (expected short or long)");
  exact_plan plan;
  plan.ilp = method == "ilp";
  plan.backend = parse_backend(request.backend);
  if (request.time_limit_s < 0 || !std::isfinite(request.time_limit_s))
    throw input_error(param("time_limit") + " must be 0 or more");
  if (request.max_states < 0) throw input_error(param("max_states") + " must be 0 (no limit) or more");
  if (request.warm_start < 0) throw input_error(param("warm_start") + " must be 0 (none) or more");
  plan.search.time_limit_s = request.time_limit_s;
  plan.search.at_most = checked_at_most(request.at_most, request.prune, plan.ilp);
  plan.search.max_states = static_cast<std::uint64_t>(request.max_states);
  plan.search.threads = resolve_threads(request.threads);
  plan.search.prune = request.prune;
  plan.warm_start = request.prune ? static_cast<std::uint64_t>(request.warm_start) : 0;
  plan.ilp_settings.constraints =
      request.constraints == "long" ? ilp_constraints::long_form : ilp_constraints::short_form;
  plan.ilp_settings.time_limit_s = request.time_limit_s;
  return plan;
}

exact_report run_exact_plan(const problem& prob, const exact_plan& plan, rank_group* ranks) {
  exact_report report;
  report.ilp = plan.ilp;
  if (plan.ilp) {
    report.solved = exact_ilp(prob, plan.ilp_settings);
    return report;
  }
  report.search = run_exact(prob, plan.search, plan.warm_start, plan.backend, &report.algorithm, ranks);
  report.backend = plan.backend == backend_kind::cuda ? cuda_backend_name() : std::string("cpu");
  return report;
}

}  // namespace warpspan
