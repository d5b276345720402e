// SVG drawings a reader would rather look at than read: a schedule as the papers draw it, and the
// envelope of the best makespan over time (000 Fig. 12).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

std::string schedule_svg(const problem& prob, const built_schedule& s, const std::string& title);
/// The best makespan over time as a step line, the pessimistic bound, and (when known) the proven
/// interval [lower, upper] of the worst case as a shaded band.
std::string envelope_svg(const std::vector<envelope_point>& envelope, std::uint64_t upper_bound,
                         const std::string& title,
                         std::optional<std::pair<std::uint64_t, std::uint64_t>> proven = std::nullopt);
/// A round tick spacing (1, 2 or 5 times a power of ten) giving at most about `ticks` ticks over
/// `range`.
double nice_tick_step(double range, int ticks = 5);
/// The multiples of nice_tick_step(hi - lo, ticks) in [lo, hi], each rounded to its multiple (no
/// 0.30000000000000004).
std::vector<double> round_ticks(double lo, double hi, int ticks = 5);
/// A tick's value as text: at most 6 significant digits, no trailing zeros (0.5, 1, 2.5, 1e+06).
std::string tick_label(double v);
/// Text with <, > and & escaped for SVG/XML.
std::string escape_xml(const std::string& s);
/// Writes text to DIR/NAME, creating DIR; input_error when that fails.
std::string write_file(const std::string& dir, const std::string& name, const std::string& text);

}  // namespace warpspan
