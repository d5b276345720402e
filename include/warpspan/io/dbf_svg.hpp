// The EDF picture of a task set: the total demand sum dbf(t) against the supply line y = t, with the
// first violation marked (paper 003 Sec. II-A).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/dbf/sweep.hpp"

namespace warpspan {

/// sum dbf(t) for 0 <= t <= t_end as a step line, the line y = t, and `violation` (if any) as a red
/// dot with its t and demand. Exact for up to a few thousand steps; beyond that the steps drawn are
/// the last step of the total before each of evenly spaced sample points.
/// With `names` (one per curve, at most eight), each task's own dbf is drawn too, thin; t_max is
/// marked when given (inside the plot as a line, beyond it in the legend).
std::string dbf_svg(const std::vector<dbf_curve>& curves, std::uint64_t t_end, std::optional<std::uint64_t> violation,
                    const std::string& title, const std::vector<std::string>& names = {},
                    std::optional<std::uint64_t> t_max = std::nullopt);

/// One analysed set as `dbf FILE --svg` draws it: dbf_svg of its curves and task names, titled
/// "Demand of FILE: VERDICT" (the label's file name, edf_verdict_text), its first violation and
/// t_max marked; the plot runs to 1.5 x the first violation, or to how far the test checked but at
/// most four of the longest periods.
std::string dbf_set_svg(const analysed_set& a);

/// A sweep's result: utilisation against the factor, every variant a dot coloured by its verdict,
/// and the critical factor (if any) as a labelled vertical line.
std::string sweep_svg(const std::vector<sweep_point>& points, std::optional<double> critical, const std::string& kind,
                      const std::string& title);

}  // namespace warpspan
