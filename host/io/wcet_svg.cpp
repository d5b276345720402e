// Timelines of warps on one SM: what the trace slicing and the wave model see.
#include "warpspan/io/wcet_svg.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "warpspan/io/svg.hpp"

namespace warpspan {

std::string wcet_timeline_svg(const wcet::sm_run& r, const std::vector<wcet::wst>& wsts,
                              const std::vector<std::string>& ipoint_names, const std::string& title) {
  static const char* colours[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b"};
  const std::size_t rows = std::min(r.warps.size(), wcet_svg_max_warps);
  const double left = 150, width = 800, row_h = 14, top = 50;
  const double span = static_cast<double>(std::max<std::int64_t>(1, r.last - r.first));
  const auto x = [&](std::int64_t t) { return left + width * static_cast<double>(t - r.first) / span; };
  std::vector<std::size_t> wave_of(wsts.size(), 0);
  for (std::size_t w = 0; w < r.waves.sets.size(); ++w)
    for (std::uint64_t i : r.waves.sets[w]) wave_of[i] = w;
  std::ostringstream os;
  const double height = top + row_h * static_cast<double>(rows) + 50;
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << left + width + 40 << "' height='" << height
     << "' font-family='sans-serif' font-size='10'>\n"
     << "<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='10' y='18' font-size='14'>" << escape_xml(title) << "</text>\n"
     << "<text x='10' y='34'>run " << r.run << ", SM " << r.sm << ": " << r.warps.size() << " warps, jitter "
     << r.jitter << ", " << r.waves.waves << " wave(s) of up to " << r.waves.warps_per_wave << " warps, Delta "
     << r.waves.delta << ", last - first " << r.last - r.first
     << (rows < r.warps.size() ? " (first " + std::to_string(rows) + " warps drawn)" : std::string()) << "</text>\n";
  for (std::size_t k = 0; k < rows; ++k) {
    const auto& w = wsts[r.warps[k]];
    const double y = top + row_h * static_cast<double>(k) + row_h / 2;
    const char* c = colours[wave_of[r.warps[k]] % 6];
    os << "<text x='" << left - 6 << "' y='" << y + 3 << "' text-anchor='end'>cta " << w.key.cta << " warp "
       << w.key.warp << "</text>\n"
       << "<line x1='" << x(w.time.front()) << "' y1='" << y << "' x2='" << x(w.time.back()) << "' y2='" << y
       << "' stroke='" << c << "' stroke-width='3'/>\n";
    // Names beside the ticks while the rows are tall enough; a name that would run into the one
    // before it in the row is left out (every tick keeps its name in the tooltip).
    const bool labels = rows <= 32;
    double free_from = -1e300;
    for (std::size_t i = 0; i < w.time.size(); ++i) {
      const std::string& name = ipoint_names[w.ipoints[i]];
      os << "<circle cx='" << x(w.time[i]) << "' cy='" << y << "' r='2.5' fill='black'><title>" << escape_xml(name)
         << " at " << w.time[i] << "</title></circle>\n";
      const double lx = x(w.time[i]) + 3;
      if (!labels || lx < free_from) continue;
      os << "<text class='ipoint' x='" << lx << "' y='" << y - 3 << "' font-size='8'>" << escape_xml(name)
         << "</text>\n";
      free_from = lx + wcet_svg_label_width(name);
    }
  }
  // The time axis: round ticks (1, 2 or 5 times a power of ten) in cycles since the first record.
  const double axis = top + row_h * static_cast<double>(rows) + 10;
  os << "<line x1='" << left << "' y1='" << axis << "' x2='" << left + width << "' y2='" << axis
     << "' stroke='black'/>\n";
  const auto step = std::max<std::int64_t>(1, std::llround(nice_tick_step(span, 8)));
  for (std::int64_t t = 0; t <= r.last - r.first; t += step)
    os << "<line x1='" << x(r.first + t) << "' y1='" << axis << "' x2='" << x(r.first + t) << "' y2='" << axis + 4
       << "' stroke='black'/><text class='tick' x='" << x(r.first + t) << "' y='" << axis + 14
       << "' text-anchor='middle'>" << t << "</text>\n";
  os << "<text x='" << left + width << "' y='" << axis + 28 << "' text-anchor='end'>cycles since " << r.first
     << " on the SM clock (last record at " << r.last << ")</text>\n</svg>\n";
  return os.str();
}

}  // namespace warpspan
