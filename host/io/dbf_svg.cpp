#include "warpspan/io/dbf_svg.hpp"
#include "warpspan/io/svg.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "warpspan/dbf/edf.hpp"
#include "warpspan/io/dbf_text.hpp"

namespace warpspan {
namespace {

constexpr std::size_t max_exact_steps = 4000;  ///< more step points than this: sample instead
constexpr std::uint64_t samples = 1500;

constexpr int width = 760, height = 460, left = 80, right = 30, top = 50, bottom = 50;

/// Every point in [0, t_end] where some dbf steps, or an empty vector when there are too many.
std::vector<std::uint64_t> exact_steps(const std::vector<dbf_curve>& curves, std::uint64_t t_end) {
  double count = 0;
  for (const auto& c : curves)
    count += (static_cast<double>(t_end / c.period()) + 1) * static_cast<double>(c.residues().size());
  if (count > static_cast<double>(max_exact_steps)) return {};
  std::vector<std::uint64_t> points;
  for (const auto& c : curves)
    for (std::uint64_t base = 0; base <= t_end; base += c.period())
      for (std::uint64_t r : c.residues())
        if (base + r <= t_end) points.push_back(base + r);
  return points;
}

/// For evenly spaced samples s: the last step of the total at or before s.
std::vector<std::uint64_t> sampled_steps(const std::vector<dbf_curve>& curves, std::uint64_t t_end) {
  std::vector<std::uint64_t> points;
  for (std::uint64_t j = 0; j <= samples; ++j) {
    const auto s = static_cast<std::uint64_t>(static_cast<double>(t_end) * static_cast<double>(j) / samples);
    std::uint64_t last = 0;
    for (const auto& c : curves) last = std::max(last, c.prev_point(s));
    points.push_back(last);
  }
  return points;
}

std::vector<std::uint64_t> plot_points(const std::vector<dbf_curve>& curves, std::uint64_t t_end,
                                       std::optional<std::uint64_t> violation) {
  std::vector<std::uint64_t> points = exact_steps(curves, t_end);
  if (points.empty()) points = sampled_steps(curves, t_end);
  points.push_back(0);
  points.push_back(t_end);
  if (violation && *violation <= t_end) points.push_back(*violation);
  std::sort(points.begin(), points.end());
  points.erase(std::unique(points.begin(), points.end()), points.end());
  return points;
}

struct axes {
  double t_end;
  double y_max;
  double x(double t) const { return left + (width - left - right) * (t / t_end); }
  double y(double v) const { return top + (height - top - bottom) * (1.0 - v / y_max); }
};

/// A tick spacing of 1, 2 or 5 times a power of ten giving at most about six ticks up to `range`.
std::uint64_t tick_step(double range) {
  std::uint64_t magnitude = 1;
  while (static_cast<double>(magnitude) * 10 <= range / 6) magnitude *= 10;
  for (std::uint64_t m : {1, 2, 5})
    if (static_cast<double>(m * magnitude) * 6 >= range) return m * magnitude;
  return 10 * magnitude;
}

void draw_axes(std::ostringstream& os, const axes& a) {
  os << "<line x1='" << left << "' y1='" << height - bottom << "' x2='" << width - right << "' y2='" << height - bottom
     << "' stroke='black'/>\n<line x1='" << left << "' y1='" << top << "' x2='" << left << "' y2='" << height - bottom
     << "' stroke='black'/>\n";
  const std::uint64_t tx = tick_step(a.t_end), ty = tick_step(a.y_max);
  for (std::uint64_t t = 0; static_cast<double>(t) <= a.t_end; t += tx)
    os << "<text x='" << a.x(static_cast<double>(t)) - 4 << "' y='" << height - bottom + 16 << "'>" << t << "</text>\n";
  for (std::uint64_t v = 0; static_cast<double>(v) <= a.y_max; v += ty)
    os << "<text x='" << left - 6 << "' y='" << a.y(static_cast<double>(v)) + 4 << "' text-anchor='end'>" << v
       << "</text>\n";
  os << "<text x='" << width / 2 - 60 << "' y='" << height - 12 << "'>interval length t (time units)</text>\n"
     << "<text x='14' y='" << (top + height - bottom) / 2 << "' transform='rotate(-90 14 "
     << (top + height - bottom) / 2 << ")' text-anchor='middle'>demand (time units)</text>\n";
}

void draw_demand(std::ostringstream& os, const axes& a, const std::vector<dbf_curve>& curves,
                 const std::vector<std::uint64_t>& points) {
  os << "<polyline fill='none' stroke='#4e79a7' stroke-width='2' points='";
  std::uint64_t before = 0;
  for (std::size_t k = 0; k < points.size(); ++k) {
    const auto t = static_cast<double>(points[k]);
    const std::uint64_t demand = total_demand(curves, points[k]);
    if (k > 0) os << a.x(t) << ',' << a.y(static_cast<double>(before)) << ' ';
    os << a.x(t) << ',' << a.y(static_cast<double>(demand)) << ' ';
    before = demand;
  }
  os << "'/>\n";
}

void draw_supply_and_legend(std::ostringstream& os, const axes& a) {
  os << "<line x1='" << a.x(0) << "' y1='" << a.y(0) << "' x2='" << a.x(a.t_end) << "' y2='" << a.y(a.t_end)
     << "' stroke='#888' stroke-dasharray='5 4'/>\n"
     << "<line x1='" << left + 10 << "' y1='" << top + 10 << "' x2='" << left + 40 << "' y2='" << top + 10
     << "' stroke='#4e79a7' stroke-width='2'/><text x='" << left + 46 << "' y='" << top + 14
     << "'>sum of dbf(t)</text>\n<line x1='" << left + 10 << "' y1='" << top + 28 << "' x2='" << left + 40 << "' y2='"
     << top + 28 << "' stroke='#888' stroke-dasharray='5 4'/><text x='" << left + 46 << "' y='" << top + 32
     << "'>y = t (processor supply)</text>\n";
}

void draw_violation(std::ostringstream& os, const axes& a, const std::vector<dbf_curve>& curves, std::uint64_t t) {
  const std::uint64_t demand = total_demand(curves, t);
  const double x = a.x(static_cast<double>(t)), y = a.y(static_cast<double>(demand));
  // Above and to the left of the dot lies nothing of the step line, which rises into it from below.
  const bool room_left = x - left > 260;
  os << "<circle cx='" << x << "' cy='" << y << "' r='5' fill='#e15759'/>\n<text x='" << (room_left ? x - 8 : x + 8)
     << "' y='" << y - 8 << "' text-anchor='" << (room_left ? "end" : "start")
     << "' fill='#e15759'>first violation: t = " << t << ", demand " << demand << "</text>\n";
}

}  // namespace

std::string dbf_svg(const std::vector<dbf_curve>& curves, std::uint64_t t_end, std::optional<std::uint64_t> violation,
                    const std::string& title, const std::vector<std::string>& names,
                    std::optional<std::uint64_t> t_max) {
  t_end = std::max<std::uint64_t>(t_end, 1);
  const std::vector<std::uint64_t> points = plot_points(curves, t_end, violation);
  const double top_demand = static_cast<double>(total_demand(curves, t_end));
  const axes a{static_cast<double>(t_end), std::max(static_cast<double>(t_end), top_demand) * 1.05};
  std::ostringstream os;
  os << std::fixed << std::setprecision(1);
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
     << "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='" << left << "' y='24' font-size='14'>" << escape_xml(title) << "</text>\n";
  draw_axes(os, a);
  draw_supply_and_legend(os, a);
  static const char* const task_colour[] = {"#f28e2b", "#76b7b2", "#edc948", "#b07aa1",
                                            "#ff9da7", "#9c755f", "#bab0ac", "#59a14f"};
  if (!names.empty() && names.size() == curves.size() && curves.size() > 1 && curves.size() <= 8) {
    for (std::size_t k = 0; k < curves.size(); ++k) {
      os << "<polyline fill='none' stroke='" << task_colour[k] << "' stroke-width='1' points='";
      std::uint64_t before = 0;
      for (std::size_t p = 0; p < points.size(); ++p) {
        const std::uint64_t d = curves[k].at(points[p]);
        if (p > 0) os << a.x(static_cast<double>(points[p])) << ',' << a.y(static_cast<double>(before)) << ' ';
        os << a.x(static_cast<double>(points[p])) << ',' << a.y(static_cast<double>(d)) << ' ';
        before = d;
      }
      os << "'/>\n<line x1='" << left + 10 << "' y1='" << top + 46 + 18 * k << "' x2='" << left + 40 << "' y2='"
         << top + 46 + 18 * k << "' stroke='" << task_colour[k] << "'/><text x='" << left + 46 << "' y='"
         << top + 50 + 18 * k << "'>dbf of " << escape_xml(names[k]) << "</text>\n";
    }
  }
  draw_demand(os, a, curves, points);
  if (violation && *violation <= t_end) draw_violation(os, a, curves, *violation);
  if (t_max) {
    if (*t_max <= t_end) {
      const double x = a.x(static_cast<double>(*t_max));
      os << "<line x1='" << x << "' y1='" << top << "' x2='" << x << "' y2='" << height - bottom
         << "' stroke='#9c755f' stroke-dasharray='2 3'/><text x='" << x - 4 << "' y='" << top + 12
         << "' text-anchor='end' fill='#9c755f'>t_max = " << *t_max << "</text>\n";
    } else {
      os << "<text x='" << width - right << "' y='" << height - bottom - 8
         << "' text-anchor='end' fill='#9c755f'>t_max = " << *t_max << " (beyond the plot)</text>\n";
    }
  }
  os << "</svg>\n";
  return os.str();
}

std::string dbf_set_svg(const analysed_set& a) {
  const edf_result& r = a.result;
  std::uint64_t t_end = 0;
  if (r.first_violation) {
    t_end = *r.first_violation + std::max<std::uint64_t>(1, *r.first_violation / 2);
  } else {
    std::uint64_t longest = 1;
    for (const auto& c : a.curves) longest = std::max(longest, c.period());
    const std::uint64_t periods = 4 * longest;
    t_end = r.limit ? std::min(*r.limit, periods) : periods;
  }
  const std::string title =
      "Demand of " + std::filesystem::path(a.label).filename().string() + ": " + edf_verdict_text(r);
  std::vector<std::string> names;
  for (const task& t : a.set.tasks) names.push_back(t.name);
  return dbf_svg(a.curves, t_end, r.first_violation, title, names, r.u.t_max);
}

std::string sweep_svg(const std::vector<sweep_point>& points, std::optional<double> critical, const std::string& kind,
                      const std::string& title) {
  double x_lo = 0, x_hi = 1, u_hi = 1;
  if (!points.empty()) {
    x_lo = x_hi = points.front().factor;
    for (const sweep_point& p : points) {
      x_lo = std::min(x_lo, p.factor);
      x_hi = std::max(x_hi, p.factor);
      if (p.verdict != 2) u_hi = std::max(u_hi, p.utilization);
    }
  }
  if (x_hi <= x_lo) x_hi = x_lo + 1;
  // The utilisation axis ends at its first round tick at or above 1.1 x the highest point.
  u_hi *= 1.1;
  u_hi = std::ceil(u_hi / nice_tick_step(u_hi) - 1e-9) * nice_tick_step(u_hi);
  const auto px = [&](double f) { return left + (width - left - right) * (f - x_lo) / (x_hi - x_lo); };
  const auto py = [&](double u) { return top + (height - top - bottom) * (1.0 - u / u_hi); };
  std::ostringstream os;
  os << std::fixed << std::setprecision(1);
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
     << "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='" << left << "' y='24' font-size='14'>" << escape_xml(title) << "</text>\n";
  os << "<line x1='" << left << "' y1='" << height - bottom << "' x2='" << width - right << "' y2='" << height - bottom
     << "' stroke='black'/>\n<line x1='" << left << "' y1='" << top << "' x2='" << left << "' y2='" << height - bottom
     << "' stroke='black'/>\n";
  // Round ticks (1, 2 or 5 times a power of ten), about five on each axis, with their values.
  for (double f : round_ticks(x_lo, x_hi))
    os << "<text class='tick x' x='" << px(f) << "' y='" << height - bottom + 16 << "' text-anchor='middle'>"
       << tick_label(f) << "</text>\n";
  for (double u : round_ticks(0, u_hi))
    os << "<text class='tick y' x='" << left - 6 << "' y='" << py(u) + 4 << "' text-anchor='end'>" << tick_label(u)
       << "</text>\n";
  os << "<text x='" << (left + width - right) / 2 << "' y='" << height - 12 << "' text-anchor='middle'>"
     << escape_xml(kind) << " scaling factor</text>\n<text x='16' y='" << (top + height - bottom) / 2
     << "' transform='rotate(-90 16 " << (top + height - bottom) / 2
     << ")' text-anchor='middle'>utilisation U</text>\n";
  os << "<line x1='" << left << "' y1='" << py(1) << "' x2='" << width - right << "' y2='" << py(1)
     << "' stroke='#888' stroke-dasharray='5 4'/>\n";
  static const char* const colour[] = {"#59a14f", "#e15759", "#aaaaaa"};
  for (const sweep_point& p : points)
    os << "<circle cx='" << px(p.factor) << "' cy='" << py(p.verdict == 2 ? 0 : p.utilization) << "' r='3.5' fill='"
       << colour[std::clamp(p.verdict, 0, 2)] << "'/>\n";
  // The legend's three rows fill the top right corner down to top + 50; the critical factor's label
  // goes below them, on the side of its line with room for it.
  const char* const label[] = {"schedulable", "not schedulable", "invalid (outside the model)"};
  for (int k = 0; k < 3; ++k)
    os << "<circle cx='" << width - right - 170 << "' cy='" << top + 10 + 16 * k << "' r='3.5' fill='" << colour[k]
       << "'/><text class='legend' x='" << width - right - 160 << "' y='" << top + 14 + 16 * k << "'>" << label[k]
       << "</text>\n";
  if (critical) {
    const double x = px(*critical);
    const bool room_right = x + 4 + 130 <= width - right;
    os << "<line x1='" << x << "' y1='" << top << "' x2='" << x << "' y2='" << height - bottom
       << "' stroke='#4e79a7' stroke-dasharray='3 3'/>\n<text class='critical' x='" << (room_right ? x + 4 : x - 4)
       << "' y='" << top + 68 << "' text-anchor='" << (room_right ? "start" : "end")
       << "' fill='#4e79a7'>critical factor " << std::setprecision(4) << std::defaultfloat << *critical << "</text>\n"
       << std::fixed << std::setprecision(1);
  }
  os << "</svg>\n";
  return os.str();
}

}  // namespace warpspan
