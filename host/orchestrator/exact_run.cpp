#include "warpspan/orchestrator/exact_run.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>

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

}  // namespace warpspan
