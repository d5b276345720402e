// The EDF test: utilisation, t_max, and the demand check over the points where some dbf steps.
#include "warpspan/dbf/edf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

#include "warpspan/core/error.hpp"

namespace warpspan {
namespace {

__extension__ typedef unsigned __int128 u128;

constexpr std::uint64_t t_max_cap = std::uint64_t{1} << 63;

/// The largest point <= t at which some dbf steps (0 at the latest).
std::uint64_t prev_point_all(const std::vector<dbf_curve>& curves, std::uint64_t t) {
  std::uint64_t best = 0;
  for (const auto& c : curves) best = std::max(best, c.prev_point(t));
  return best;
}

/// Every point in (0, limit] where some dbf steps, in increasing order, until `visit` returns true;
/// returns that point. `points` counts the demand evaluations.
std::optional<std::uint64_t> scan(const std::vector<dbf_curve>& curves, std::uint64_t limit, std::uint64_t& points,
                                  std::uint64_t max_points) {
  struct cursor {
    std::uint64_t t;
    std::size_t task;
    std::uint64_t q;
    std::size_t j;
  };
  auto later = [](const cursor& a, const cursor& b) { return a.t > b.t; };
  std::priority_queue<cursor, std::vector<cursor>, decltype(later)> heap(later);
  for (std::size_t k = 0; k < curves.size(); ++k) heap.push({0, k, 0, 0});
  std::uint64_t last = 0;
  while (!heap.empty()) {
    cursor c = heap.top();
    heap.pop();
    if (c.t > limit) continue;  // this task has no more points in range
    if (c.t > last) {
      last = c.t;
      if (++points > max_points)
        throw input_error("the EDF scan would check more than " + std::to_string(max_points) +
                          " points below t_max = " + std::to_string(limit) + "; use --edf qpa");
      if (total_demand(curves, c.t) > c.t) return c.t;
    }
    const auto& res = curves[c.task].residues();
    if (++c.j == res.size()) {
      c.j = 0;
      ++c.q;
    }
    const u128 next = static_cast<u128>(c.q) * curves[c.task].period() + res[c.j];
    if (next <= limit) heap.push({static_cast<std::uint64_t>(next), c.task, c.q, c.j});
  }
  return std::nullopt;
}

}  // namespace

std::uint64_t total_demand(const std::vector<dbf_curve>& curves, std::uint64_t t) {
  std::uint64_t sum = 0;
  for (const auto& c : curves) sum += c.at(t);
  return sum;
}

utilization_info utilization(const std::vector<dbf_curve>& curves) {
  utilization_info u;
  long double value = 0;
  std::uint64_t sum_e = 0;
  // Exact rational sum num/den while it fits; long double otherwise.
  u128 num = 0, den = 1;
  bool exact = true;
  for (const auto& c : curves) {
    value += static_cast<long double>(c.E()) / static_cast<long double>(c.period());
    sum_e += c.E();
    if (!exact) continue;
    const u128 p = c.period();
    num = num * p + static_cast<u128>(c.E()) * den;
    den = den * p;
    u128 a = num, b = den;
    while (b != 0) {
      const u128 r = a % b;
      a = b;
      b = r;
    }
    if (a > 1) {
      num /= a;
      den /= a;
    }
    if (den > (u128{1} << 62) || num > (u128{1} << 62)) exact = false;
  }
  u.value = static_cast<double>(value);
  u.at_least_one = exact ? num >= den : value >= 1.0L;
  if (u.at_least_one) return u;
  if (exact) {
    const u128 t = static_cast<u128>(2) * sum_e * den / (den - num);
    u.t_max = t >= t_max_cap ? t_max_cap : static_cast<std::uint64_t>(t);
  } else {
    const long double t = std::floor(2.0L * sum_e / (1.0L - value));
    u.t_max = t >= static_cast<long double>(t_max_cap) ? t_max_cap : static_cast<std::uint64_t>(t);
  }
  return u;
}

edf_method parse_edf_method(std::string_view word) {
  if (word == "scan") return edf_method::scan;
  if (word == "qpa") return edf_method::qpa;
  throw input_error("unknown EDF method '" + std::string(word) + "' (expected qpa or scan)");
}

edf_result edf_test(const std::vector<dbf_curve>& curves, edf_method method, std::uint64_t max_points) {
  edf_result r;
  r.u = utilization(curves);
  if (r.u.at_least_one) return r;  // not schedulable; no finite t_max
  const std::uint64_t t_max = *r.u.t_max;
  if (method == edf_method::scan) {
    r.first_violation = scan(curves, t_max, r.points, max_points);
  } else {
    std::uint64_t t = prev_point_all(curves, t_max);
    while (t > 0) {
      if (++r.points > max_points)
        throw input_error("QPA took more than " + std::to_string(max_points) + " steps below t_max = " +
                          std::to_string(t_max));
      const std::uint64_t h = total_demand(curves, t);
      if (h > t) {  // some violation at or below t: the scan finds the first
        r.first_violation = scan(curves, t, r.points, max_points);
        break;
      }
      if (h == 0) break;
      // Every t' in [h, t] has demand <= h <= t'.
      t = prev_point_all(curves, h - 1);
    }
  }
  r.schedulable = !r.first_violation.has_value();
  return r;
}

}  // namespace warpspan
