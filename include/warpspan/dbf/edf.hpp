// The EDF test of a task set by its demand-bound functions (paper 003 Sec. II-A).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/dbf/dbf.hpp"

namespace warpspan {

struct utilization_info {
  double value = 0;                          ///< sum E/P (rounded; the decisions below are exact)
  std::string exact;                         ///< "num/den", den = H = lcm of the periods (unreduced), exact
  int vs_one = 0;                            ///< the sign of U - 1, decided exactly: -1, 0 or 1
  bool at_least_one = false;                 ///< vs_one >= 0
  std::optional<std::uint64_t> t_max;        ///< floor(sum 2E / (1 - U)) when U < 1 (saturates at 2^63)
  std::optional<std::uint64_t> hyperperiod;  ///< H = lcm of the periods, when at most 2^62
  std::uint64_t max_period = 0;              ///< the longest period
};

utilization_info utilization(const std::vector<dbf_curve>& curves);

/// The largest t the EDF test has to check, or nullopt when U > 1 (not schedulable, nothing to
/// check) or when U = 1 and H + max P does not fit (undecided). U < 1: min(t_max, H + max P);
/// U = 1: H + max P. See edf.cpp for why H + max P suffices.
std::optional<std::uint64_t> edf_limit(const utilization_info& u);

enum class edf_method { scan, qpa };
edf_method parse_edf_method(std::string_view word);
/// "scan" or "qpa", as parse_edf_method reads it.
std::string to_string(edf_method method);

/// Demand evaluations the test may spend (scan points or QPA steps) before it gives up with an
/// input_error saying the set is undecided: about ten seconds on one core.
inline constexpr std::uint64_t default_edf_max_points = 50'000'000ull;

struct edf_result {
  bool schedulable = false;
  utilization_info u;
  std::optional<std::uint64_t> limit;            ///< the largest t checked (edf_limit)
  std::optional<std::uint64_t> first_violation;  ///< smallest t with sum dbf(t) > t
  std::uint64_t points = 0;                      ///< demand evaluations done
};

/// U > 1: not schedulable (no point checked). Otherwise every step point 0 < t <= edf_limit(u) is
/// checked for sum dbf(t) <= t:
/// scan: every point where some dbf steps, in increasing order (the reference).
/// qpa: Quick Processor-demand Analysis, walking the points backwards from the limit and jumping to
/// sum dbf(t) when it is below t; a violation it finds is followed by a scan up to it, so the
/// first violation reported is the same as the scan's.
/// `max_points` bounds the work: a scan that would need more points, a QPA that takes more steps,
/// and U = 1 with a hyperperiod too large to check are input_errors saying the set is undecided.
edf_result edf_test(const std::vector<dbf_curve>& curves, edf_method method = edf_method::qpa,
                    std::uint64_t max_points = default_edf_max_points);

/// sum of dbf_i(t), saturating at 2^64 - 1 (larger than any t the test checks).
std::uint64_t total_demand(const std::vector<dbf_curve>& curves, std::uint64_t t);
/// The same, exact, or an input_error when the sum does not fit 64 bits (`--at` with huge t).
std::uint64_t total_demand_checked(const std::vector<dbf_curve>& curves, std::uint64_t t);

}  // namespace warpspan
