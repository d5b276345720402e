#include "warpspan/io/svg.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <iomanip>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"

namespace warpspan {

namespace {
const char* unit_colour(unit u) {
  switch (u) {
    case unit::L: return "#4e79a7";
    case unit::C: return "#f28e2b";
    case unit::S: return "#59a14f";
    case unit::D: return "#e15759";
    case unit::B: return "#222222";
  }
  return "#999";
}

}  // namespace

double nice_tick_step(double range, int ticks) {
  const double mag = std::pow(10.0, std::floor(std::log10(std::max(range, 1e-12) / ticks)));
  for (double k : {1.0, 2.0, 5.0})
    if (k * mag * ticks >= range) return k * mag;
  return 10 * mag;
}

std::vector<double> round_ticks(double lo, double hi, int ticks) {
  std::vector<double> out;
  if (!(hi >= lo)) return out;
  const double step = nice_tick_step(std::max(hi - lo, 1e-12), ticks);
  for (double k = std::ceil(lo / step - 1e-9); k * step <= hi + step * 1e-9; ++k)
    out.push_back(k * step == 0 ? 0.0 : k * step);
  return out;
}

std::string tick_label(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", std::abs(v) < 1e-12 ? 0.0 : v);
  return buf;
}

std::string escape_xml(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else if (c == '&')
      out += "&amp;";
    else
      out.push_back(c);
  }
  return out;
}

std::string schedule_svg(const problem& prob, const built_schedule& s, const std::string& title) {
  const int cell = std::clamp(1200 / std::max<int>(1, static_cast<int>(s.makespan)), 4, 24);
  // Rows stay at least 4 px; a label every `every` rows keeps labels 12 px apart (64 warps: 14 px
  // rows, every warp labelled).
  const int row_h = std::clamp(900 / std::max<int>(1, static_cast<int>(prob.warps)), 4, 22);
  const int every = std::max(1, (12 + row_h - 1) / row_h);
  const int left = 70, top = 40;
  const int width = left + cell * static_cast<int>(s.makespan) + 20;
  const int height = top + row_h * static_cast<int>(prob.warps) + 50;
  std::ostringstream os;
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
     << "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' fill='white'/>\n";
  os << "<text x='" << left << "' y='20' font-size='14'>" << escape_xml(title) << "</text>\n";
  for (std::uint32_t w = 0; w < prob.warps; ++w) {
    const int y = top + row_h * static_cast<int>(w);
    if ((w + 1) % static_cast<std::uint32_t>(every) == 0 || w == 0)
      os << "<text x='" << left - 6 << "' y='" << y + row_h / 2 + 4 << "' text-anchor='end'>warp " << w + 1
         << "</text>\n";
    const problem_view p = prob.view();
    for (std::uint32_t j = 0; j < warp_length(p, w); ++j) {
      const std::uint32_t t = s.cycle[warp_begin(p, w) + j];
      const int x = left + cell * static_cast<int>(t - 1);
      const unit u = prob.type_unit[type_at(p, w, j)];
      os << "<rect x='" << x << "' y='" << y << "' width='" << cell - 1 << "' height='" << row_h - 1 << "' fill='"
         << unit_colour(u) << "'><title>warp " << w + 1 << ", instruction " << j + 1 << " (" << letter(u) << "), cycle "
         << t << "</title></rect>\n";
    }
  }
  const int axis_y = top + row_h * static_cast<int>(prob.warps) + 14;
  // Round cycle ticks (1, 2 or 5 times a power of ten) at least 40 px apart, centred on their column.
  std::uint32_t step = 1;
  for (std::uint32_t mag = 1; step * cell < 40; mag *= 10)
    for (std::uint32_t k : {1u, 2u, 5u})
      if (step * cell < 40) step = k * mag;
  for (std::uint32_t t = step; t <= s.makespan; t += step)
    os << "<line x1='" << left + cell * static_cast<int>(t) - cell / 2 << "' y1='" << axis_y - 12 << "' x2='"
       << left + cell * static_cast<int>(t) - cell / 2 << "' y2='" << axis_y - 8 << "' stroke='black'/><text x='"
       << left + cell * static_cast<int>(t) - cell / 2 << "' y='" << axis_y + 2 << "' text-anchor='middle'>" << t
       << "</text>\n";
  int lx = left;
  for (int u = 0; u <= unit_count; ++u) {  // the units, then the barrier
    if (std::find(prob.type_unit.begin(), prob.type_unit.begin() + prob.flat.ntypes, static_cast<unit>(u)) ==
        prob.type_unit.begin() + prob.flat.ntypes)
      continue;
    os << "<rect x='" << lx << "' y='" << axis_y + 10 << "' width='10' height='10' fill='"
       << unit_colour(static_cast<unit>(u)) << "'/><text x='" << lx + 14 << "' y='" << axis_y + 19 << "'>"
       << letter(static_cast<unit>(u)) << "</text>\n";
    lx += 40;
  }
  os << "<text x='" << lx + 10 << "' y='" << axis_y + 19 << "'>clock cycle (makespan " << s.makespan
     << ")</text>\n</svg>\n";
  return os.str();
}

std::string envelope_svg(const std::vector<envelope_point>& envelope, std::uint64_t upper_bound,
                         const std::string& title, std::optional<std::pair<std::uint64_t, std::uint64_t>> proven) {
  const int width = 720, height = 420, left = 60, right = 20, top = 40, bottom = 50;
  const double t_end = std::max(envelope.empty() ? 1.0 : envelope.back().seconds * 1.05, 1e-3);
  std::uint32_t lo = envelope.empty() ? 0 : envelope.front().best;
  double hi = static_cast<double>(upper_bound);
  for (const auto& e : envelope) {
    lo = std::min(lo, e.best);
    hi = std::max(hi, static_cast<double>(e.best));
  }
  if (proven) lo = std::min<std::uint64_t>(lo, proven->first);
  const double y0 = std::max(0.0, static_cast<double>(lo) - 5), y1 = hi + 5;
  auto X = [&](double t) { return left + (width - left - right) * (t / t_end); };
  auto Y = [&](double v) { return top + (height - top - bottom) * (1.0 - (v - y0) / (y1 - y0)); };
  std::ostringstream os;
  os << "<svg xmlns='http://www.w3.org/2000/svg' width='" << width << "' height='" << height
     << "' font-family='sans-serif' font-size='11'>\n<rect width='100%' height='100%' fill='white'/>\n"
     << "<text x='" << left << "' y='20' font-size='14'>" << escape_xml(title) << "</text>\n"
     << "<line x1='" << left << "' y1='" << height - bottom << "' x2='" << width - right << "' y2='" << height - bottom
     << "' stroke='black'/>\n<line x1='" << left << "' y1='" << top << "' x2='" << left << "' y2='" << height - bottom
     << "' stroke='black'/>\n";
  // Round ticks: 1, 2 or 5 times a power of ten, about five on each axis.
  const double vs = std::max(1.0, nice_tick_step(y1 - y0));
  for (double v = std::ceil(y0 / vs) * vs; v <= y1; v += vs)
    os << "<text x='" << left - 6 << "' y='" << Y(v) + 4 << "' text-anchor='end'>" << std::llround(v) << "</text>\n";
  for (double t : round_ticks(0, t_end))
    os << "<text class='tick x' x='" << X(t) << "' y='" << height - bottom + 16 << "' text-anchor='middle'>"
       << tick_label(t) << "</text>\n";
  os << "<text x='" << width / 2 - 40 << "' y='" << height - 10 << "'>seconds since start</text>\n"
     << "<text x='14' y='" << (top + height - bottom) / 2 << "' transform='rotate(-90 14 "
     << (top + height - bottom) / 2 << ")' text-anchor='middle'>makespan (cycles)</text>\n";
  if (proven) {  // the worst case lies in [lower, upper]: shaded, labelled
    const double ya = Y(static_cast<double>(proven->second)), yb = Y(static_cast<double>(proven->first));
    os << "<rect x='" << left + 1 << "' y='" << ya << "' width='" << width - right - left - 1 << "' height='"
       << std::max(1.0, yb - ya) << "' fill='#59a14f' fill-opacity='0.18'/>\n<text class='proven' x='" << left + 6
       << "' y='" << ya - 4 << "' fill='#3b7a34'>proven: worst case in [" << proven->first << ", " << proven->second
       << "]" << (proven->first == proven->second ? " (exact)" : "") << "</text>\n";
  }
  os << "<line x1='" << left << "' y1='" << Y(static_cast<double>(upper_bound)) << "' x2='" << width - right << "' y2='"
     << Y(static_cast<double>(upper_bound)) << "' stroke='#e15759' stroke-dasharray='4 3'/>\n"
     << "<text x='" << width - right - 170 << "' y='" << Y(static_cast<double>(upper_bound)) - 4
     << "' fill='#e15759'>pessimistic bound " << upper_bound << "</text>\n";
  os << "<polyline fill='none' stroke='#4e79a7' stroke-width='2' points='";
  for (std::size_t k = 0; k < envelope.size(); ++k) {
    if (k > 0) os << X(envelope[k].seconds) << ',' << Y(envelope[k - 1].best) << ' ';
    os << X(envelope[k].seconds) << ',' << Y(envelope[k].best) << ' ';
  }
  if (!envelope.empty()) os << X(t_end) << ',' << Y(envelope.back().best);
  os << "'/>\n";
  // The best's label at the right end, below its line: the proven label is above the band's top
  // at the left, the pessimistic bound's above its line (never below the best), so none overlap.
  if (!envelope.empty()) {
    const double yb = Y(envelope.back().best);
    os << "<text class='best' x='" << width - right - 4 << "' y='"
       << (yb + 16 <= height - bottom - 4 ? yb + 16 : yb - 6) << "' text-anchor='end' fill='#4e79a7'>best "
       << envelope.back().best << "</text>\n";
  }
  os << "</svg>\n";
  return os.str();
}

std::string write_file(const std::string& dir, const std::string& name, const std::string& text) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) throw input_error("cannot create directory " + dir + ": " + ec.message());
  return write_file_atomically((std::filesystem::path(dir) / name).string(), text);
}

}  // namespace warpspan
