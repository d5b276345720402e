// The EDF test of a task set by its demand-bound functions (paper 003 Sec. II-A).
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "warpspan/dbf/dbf.hpp"

namespace warpspan {

struct utilization_info {
  double value = 0;                  ///< sum E/P
  bool at_least_one = false;         ///< decided exactly (rational arithmetic when it fits)
  std::optional<std::uint64_t> t_max;  ///< floor(sum 2E / (1 - U)) when U < 1 (saturates at 2^63)
};

utilization_info utilization(const std::vector<dbf_curve>& curves);

enum class edf_method { scan, qpa };
edf_method parse_edf_method(std::string_view word);

struct edf_result {
  bool schedulable = false;
  utilization_info u;
  std::optional<std::uint64_t> first_violation;  ///< smallest t with sum dbf(t) > t
  std::uint64_t points = 0;                      ///< demand evaluations done
};

/// scan: every point where some dbf steps, in increasing order up to t_max (the reference).
/// qpa: Quick Processor-demand Analysis, walking the points backwards from t_max and jumping to
/// sum dbf(t) when it is below t; a violation it finds is followed by a scan up to it, so the
/// first violation reported is the same as the scan's. `max_points` bounds the work: exceeding it
/// is an input_error that says how many points t_max would need.
edf_result edf_test(const std::vector<dbf_curve>& curves, edf_method method = edf_method::qpa,
                    std::uint64_t max_points = 2'000'000'000ull);

/// sum of dbf_i(t).
std::uint64_t total_demand(const std::vector<dbf_curve>& curves, std::uint64_t t);

}  // namespace warpspan
