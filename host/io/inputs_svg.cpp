// SVG of the best fitness against evaluations or seconds (include/warpspan/io/inputs_svg.hpp): step lines,
// since the best only changes when an evaluation beats it.
#include "warpspan/io/inputs_svg.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>

#include "warpspan/io/svg.hpp"

namespace warpspan {

std::string fitness_svg(const std::vector<fitness_curve>& curves, const std::string& unit, const std::string& title,
                        fitness_axis axis) {
  const double W = 720, H = 420, left = 90, right = 150, top = 40, bottom = 50;
  const bool time = axis == fitness_axis::seconds;
  const auto x_of = [&](const inputs::history_point& p) {
    return time ? p.seconds : static_cast<double>(p.evaluation);
  };
  const auto end_of = [&](const fitness_curve& c) { return time ? c.seconds : static_cast<double>(c.evaluations); };
  double max_x = 0;
  double max_y = 0;
  for (const auto& c : curves) {
    max_x = std::max(max_x, end_of(c));
    for (const auto& p : c.points) max_x = std::max(max_x, x_of(p)), max_y = std::max(max_y, p.best);
  }
  if (max_x <= 0) max_x = 1;
  if (max_y <= 0) max_y = 1;
  const auto X = [&](double e) { return left + (W - left - right) * e / max_x; };
  const auto Y = [&](double f) { return H - bottom - (H - top - bottom) * f / (max_y * 1.05); };
  const char* colours[] = {"#d62728", "#1f77b4", "#2ca02c", "#9467bd", "#ff7f0e"};
  const char* dashes[] = {"none", "8 4", "2 3", "4 2 1 2", "1 1"};  // lines that coincide stay visible
  std::ostringstream s;
  s << "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"" << W << "\" height=\"" << H
    << "\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n";
  s << "<text x=\"" << W / 2 << "\" y=\"22\" text-anchor=\"middle\" font-size=\"14\">" << escape_xml(title)
    << "</text>\n";
  s << "<line x1=\"" << left << "\" y1=\"" << H - bottom << "\" x2=\"" << W - right << "\" y2=\"" << H - bottom
    << "\" stroke=\"black\"/>\n<line x1=\"" << left << "\" y1=\"" << top << "\" x2=\"" << left << "\" y2=\""
    << H - bottom << "\" stroke=\"black\"/>\n";
  // Round ticks (1, 2 or 5 times a power of ten), about five on each axis; whole evaluations.
  for (double fx : round_ticks(0, max_x)) {
    if (!time && fx != std::floor(fx)) continue;
    s << "<text class=\"tick x\" x=\"" << X(fx) << "\" y=\"" << H - bottom + 16 << "\" text-anchor=\"middle\">"
      << tick_label(fx) << "</text>\n";
  }
  for (double fy : round_ticks(0, max_y * 1.05))
    s << "<text class=\"tick y\" x=\"" << left - 6 << "\" y=\"" << Y(fy) + 4 << "\" text-anchor=\"end\">"
      << tick_label(fy) << "</text>\n";
  s << "<text x=\"" << (left + W - right) / 2 << "\" y=\"" << H - 12 << "\" text-anchor=\"middle\">"
    << (time ? "seconds since the search started" : "kernel evaluations") << "</text>\n";
  s << "<text x=\"16\" y=\"" << (top + H - bottom) / 2 << "\" transform=\"rotate(-90 16 " << (top + H - bottom) / 2
    << ")\" text-anchor=\"middle\">best fitness (" << escape_xml(unit) << ")</text>\n";
  for (std::size_t i = 0; i < curves.size(); ++i) {
    const auto& c = curves[i];
    const char* colour = colours[i % 5];
    if (c.points.empty()) continue;
    s << "<polyline fill=\"none\" stroke-width=\"2\" stroke-dasharray=\"" << dashes[i % 5] << "\" stroke=\"" << colour
      << "\" points=\"";
    double y = c.points.front().best;
    s << X(x_of(c.points.front())) << ',' << Y(y);
    for (std::size_t k = 1; k < c.points.size(); ++k) {
      const double x = X(x_of(c.points[k]));
      s << ' ' << x << ',' << Y(y) << ' ' << x << ',' << Y(c.points[k].best);
      y = c.points[k].best;
    }
    s << ' ' << X(std::max(end_of(c), x_of(c.points.back()))) << ',' << Y(y) << "\"/>\n";
    s << "<text x=\"" << W - right + 8 << "\" y=\"" << top + 18 * (i + 1) << "\" fill=\"" << colour << "\">"
      << escape_xml(c.label) << "</text>\n";
  }
  s << "</svg>\n";
  return s.str();
}

}  // namespace warpspan
