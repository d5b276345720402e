// Proven intervals from cheap exact values (see interval.hpp).
#include "warpspan/exact/interval.hpp"

#include <algorithm>
#include <chrono>

#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {
using clock_type = std::chrono::steady_clock;

double since(clock_type::time_point start) { return std::chrono::duration<double>(clock_type::now() - start).count(); }
}  // namespace

std::vector<std::uint32_t> exact_t_values(const problem& prob, std::uint32_t up_to, double seconds, std::string* stop_reason) {
  const auto start = clock_type::now();
  std::vector<std::uint32_t> t;
  for (std::uint32_t y = 1; y <= up_to; ++y) {
    exact_options o;
    if (seconds > 0) {
      o.time_limit_s = seconds - since(start);
      if (o.time_limit_s <= 0) {
        if (stop_reason) *stop_reason = "time limit reached before T(" + std::to_string(y) + ")";
        break;
      }
    }
    const problem py = make_problem(prob.kernel, prob.sm, y);
    const exact_result r = exact_search(py, o, backend_kind::cpu);
    if (!r.complete) {
      // Only exact T(y) make the tractable estimate safe: stop at the first y not solved.
      if (stop_reason) *stop_reason = "T(" + std::to_string(y) + "): " + r.stop_reason;
      break;
    }
    t.push_back(r.makespan);
  }
  return t;
}

proven_interval prove_interval(const problem& prob, const std::vector<std::uint16_t>& lower_string, double seconds) {
  const auto start = clock_type::now();
  proven_interval out;
  out.lower = build_schedule(prob, lower_string).makespan;
  out.upper = static_cast<std::uint32_t>(pessimistic_bound(prob));
  out.upper_from = "pessimistic";
  if (prob.warps <= frontier_max_warps && prob.instructions() <= frontier_max_instructions) {
    exact_options o;
    o.time_limit_s = seconds / 2;
    o.lower_string = lower_string;
    const exact_result r = exact_search(prob, o, backend_kind::cpu);
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
  }
  // T(y) only as far as the search goes (y <= exact_max_warps); beyond, it would refuse the problem.
  out.exact_t = exact_t_values(prob, std::min(prob.warps - 1, exact_max_warps), std::max(seconds - since(start), 1e-3));
  if (!out.exact_t.empty()) {
    const auto [value, y] = tractable_estimate(prob.warps, out.exact_t);
    out.tractable = value;
    out.tractable_y = y;
    if (value < out.upper) {
      out.upper = static_cast<std::uint32_t>(value);
      out.upper_from = "tractable";
    }
  }
  out.elapsed_s = since(start);
  return out;
}

}  // namespace warpspan
