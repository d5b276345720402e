// Proven intervals from cheap exact values (see interval.hpp).
#include "warpspan/exact/interval.hpp"

#include "warpspan/core/error.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "warpspan/core/interrupt.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {
using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point start) { return std::chrono::duration<double>(clock_type::now() - start).count(); }
}  // namespace

std::vector<t_run> exact_t_runs(
    const problem& prob, std::uint32_t up_to, double seconds,
    const std::function<void(std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t, double)>& progress) {
  if (prob.per_warp())
    throw input_error(param("exact_up_to") +
                      ": the tractable estimate takes T(y) of y warps running one kernel; "
                      "per-warp kernels (" +
                      param("warp_kernels") + ") have none");
  const auto start = clock_type::now();
  std::vector<t_run> runs;
  bool stopped = false;
  for (std::uint32_t y = 1; y <= up_to; ++y) {
    const problem py = make_problem(prob.kernel, prob.sm, y);
    t_run run;
    run.y = y;
    exact_options o;
    if (seconds > 0) o.time_limit_s = seconds - since(start);
    if (stopped || interrupted() || (seconds > 0 && o.time_limit_s <= 0)) {
      run.stop_reason = stopped         ? "not started: an earlier T(y) was not solved"
                        : interrupted() ? "interrupted before its search"
                                        : "time limit reached before its search";
      exact_result r;  // the cheap interval: the best standard string, the pessimistic bound
      exact_detail::fill_interval(py, r);
      run.lower = r.lower;
      run.upper = r.upper;
      runs.push_back(run);
      stopped = true;
      continue;
    }
    if (progress) {
      progress(y, up_to, 0, 1, since(start));
      o.progress = [&, y](const exact_step& s) { progress(y, up_to, s.done, s.total, since(start)); };
    }
    const exact_result r = exact_search(py, o, backend_kind::cpu);
    run.started = true;
    run.complete = r.complete;
    run.interrupted = r.interrupted;
    run.lower = r.complete ? r.makespan : r.lower;
    run.upper = r.complete ? r.makespan : r.upper;
    run.stop_reason = r.stop_reason;
    // The tractable estimate takes exact T(y) only: stop at the first y not solved.
    if (!r.complete) stopped = true;
    runs.push_back(run);
  }
  return runs;
}

std::uint32_t checked_t_runs(long long up_to, double seconds) {
  if (seconds < 0 || !std::isfinite(seconds)) throw input_error(param("time_limit") + " must be 0 or more");
  if (up_to < 0) throw input_error(param("exact_up_to") + " must be 0 (none) or more");
  if (up_to > exact_max_warps)
    throw input_error(param("exact_up_to") + " is at most " + std::to_string(exact_max_warps));
  return static_cast<std::uint32_t>(up_to);
}

proven_interval prove_interval(const problem& prob, const std::vector<std::uint16_t>& lower_string, double seconds,
                               backend_kind backend) {
  const auto start = clock_type::now();
  proven_interval out;
  out.lower = build_schedule(prob, lower_string).makespan;
  out.upper = static_cast<std::uint32_t>(pessimistic_bound(prob));
  out.upper_from = "pessimistic";
  if (frontier_packs(prob)) {
    // The device searches take 8-bit levels only: a kernel past 254 instructions (16-bit levels,
    // at most 8 warps) is proven by the CPU's searches.
    if (!frontier_packs_narrow(prob)) backend = backend_kind::cpu;
    exact_options o;
    o.lower_string = lower_string;
    // The CPU's dense sweep works out the remaining bound ahead for every state reached, which
    // costs about what dropping states saves it unless most are: one pass for the exact value
    // (bench/results/archive/exact/exact_at_most_cpu_2core.md). The other searches expand
    // only what they reach, and a pass asked whether the worst case is at most a value above the
    // lower end drops most states near it (exact_options::at_most): they halve the gap, pass by
    // pass, each proving its value (or finding the exact one), down to an exact pass at the lower
    // end, while the time lasts.
    const bool halve = backend == backend_kind::cuda || !exact_search_is_dense(prob, o, backend);
    while (out.lower < out.upper) {
      o.time_limit_s = seconds - since(start);
      if (o.time_limit_s <= 0 || interrupted()) break;
      o.at_most = halve ? out.lower + (out.upper - out.lower) / 2 : 0;
      const exact_result r = exact_search(prob, o, backend);
      const std::uint32_t found = r.complete ? r.makespan : r.lower;
      if (found > out.lower && !r.best_string.empty() && build_schedule(prob, r.best_string).makespan == found)
        out.witness = r.best_string;
      out.lower = std::max(out.lower, r.lower);
      if (r.complete) {
        out.upper = r.makespan;
        out.exact = true;
        out.upper_from = "exact";
        out.elapsed_s = since(start);
        return out;
      }
      if (r.upper < out.upper) {
        out.upper = r.upper;
        out.upper_from = "search";
      }
      if (!r.at_most_proven || o.at_most == 0) break;  // stopped by the time or an interrupt
    }
  } else if (prob.warps <= exact_max_warps && out.lower < out.upper && seconds - since(start) > 0 && !interrupted()) {
    // States that do not pack (over 16 warps; past 254 instructions, over 8 warps or W x I over
    // 65,535): the depth-first search, which
    // takes any length, for the time left; a complete answer is exact, a stopped one proves nothing
    // more than the bound.
    depth_first_options o;
    o.time_limit_s = seconds - since(start);
    const exact_result r = exact_search_cpu(prob, o);
    if (r.complete) {
      if (r.makespan > out.lower && !r.best_string.empty()) out.witness = r.best_string;
      out.lower = std::max(out.lower, r.makespan);
      out.upper = r.makespan;
      out.upper_from = "exact";
    }
  }
  out.exact = out.lower == out.upper;  // e.g. W warps of one L: the bound is attained
  if (out.exact && out.upper_from != "pessimistic") out.upper_from = "exact";
  out.elapsed_s = since(start);
  return out;
}

}  // namespace warpspan
