// The plots' text, read back from the SVG: ticks at round values (1, 2 or 5 times a power of ten)
// and labels whose boxes, from their computed coordinates, do not overlap.
#include <gtest/gtest.h>

#include <cmath>
#include <regex>
#include <string>
#include <vector>

#include "warpspan/dbf/sweep.hpp"
#include "warpspan/io/dbf_svg.hpp"
#include "warpspan/io/inputs_svg.hpp"
#include "warpspan/io/svg.hpp"

namespace warpspan {
namespace {

/// A <text> element: where it is anchored, its class and its words.
struct text_box {
  double x = 0, y = 0;
  std::string anchor = "start", cls, words;
  /// Its box at `font` px: 0.6 em a character (wider than sans-serif's average), from a cap height
  /// above the baseline to the descenders below it.
  double left(double font) const {
    const double w = 0.6 * font * static_cast<double>(words.size());
    return anchor == "end" ? x - w : anchor == "middle" ? x - w / 2 : x;
  }
  double right(double font) const { return left(font) + 0.6 * font * static_cast<double>(words.size()); }
};

std::vector<text_box> texts(const std::string& svg) {
  std::vector<text_box> out;
  static const std::regex element(R"(<text([^>]*)>([^<]*)</text>)");
  static const std::regex attribute(R"re(([a-z-]+)=['"]([^'"]*)['"])re");
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), element); it != std::sregex_iterator(); ++it) {
    text_box t;
    const std::string attrs = (*it)[1];
    t.words = (*it)[2];
    for (auto a = std::sregex_iterator(attrs.begin(), attrs.end(), attribute); a != std::sregex_iterator(); ++a) {
      const std::string name = (*a)[1], value = (*a)[2];
      if (name == "x") t.x = std::stod(value);
      if (name == "y") t.y = std::stod(value);
      if (name == "text-anchor") t.anchor = value;
      if (name == "class") t.cls = value;
    }
    out.push_back(t);
  }
  return out;
}

bool overlap(const text_box& a, const text_box& b, double font) {
  const bool apart_x = a.right(font) <= b.left(font) || b.right(font) <= a.left(font);
  const bool apart_y = a.y + 3 <= b.y - font || b.y + 3 <= a.y - font;
  return !apart_x && !apart_y;
}

/// The values of the texts of class `cls`, which must be round ticks: evenly spaced by 1, 2 or 5
/// times a power of ten, each a multiple of that step.
void expect_round_ticks(const std::vector<text_box>& all, const std::string& cls) {
  std::vector<double> v;
  for (const auto& t : all)
    if (t.cls == cls) v.push_back(std::stod(t.words));
  ASSERT_GE(v.size(), 3u) << cls;
  const double step = v[1] - v[0];
  const double mag = std::pow(10.0, std::floor(std::log10(step) + 1e-9));
  const double m = step / mag;
  EXPECT_TRUE(std::abs(m - 1) < 1e-6 || std::abs(m - 2) < 1e-6 || std::abs(m - 5) < 1e-6) << cls << " step " << step;
  for (std::size_t k = 0; k < v.size(); ++k) {
    EXPECT_NEAR(v[k] / step, std::round(v[k] / step), 1e-6) << cls << " tick " << v[k] << " is no multiple of " << step;
    if (k > 0) EXPECT_NEAR(v[k] - v[k - 1], step, step * 1e-6) << cls;
  }
}

const text_box& only(const std::vector<text_box>& all, const std::string& cls) {
  static const text_box none;
  for (const auto& t : all)
    if (t.cls == cls) return t;
  ADD_FAILURE() << "no text of class " << cls;
  return none;
}

TEST(SvgLayout, RoundTicksAreMultiplesOfARoundStep) {
  EXPECT_EQ(round_ticks(0, 1.65), (std::vector<double>{0, 0.5, 1, 1.5}));
  EXPECT_EQ(round_ticks(0.5, 3), (std::vector<double>{0.5, 1, 1.5, 2, 2.5, 3}));
  EXPECT_EQ(round_ticks(0, 2000), (std::vector<double>{0, 500, 1000, 1500, 2000}));
  EXPECT_EQ(tick_label(0.30000000000000004), "0.3");
  EXPECT_EQ(tick_label(1e6), "1e+06");
}

TEST(SvgLayout, TheSweepPlotHasRoundTicksAndItsCriticalFactorClearOfTheLegend) {
  // U = factor / 2 up to 1.5: the old axis ran to 1.65 in fifths (0.33, 0.66, 0.99, 1.32); the
  // critical factor 2.6 lies under the legend in the top right corner.
  std::vector<sweep_point> points;
  for (int k = 0; k <= 10; ++k) {
    const double f = 0.5 + 0.25 * k;
    points.push_back({f, f / 2, f <= 2.6 ? 0 : 1});
  }
  const auto all = texts(sweep_svg(points, 2.6, "wcet", "sweep"));

  expect_round_ticks(all, "tick x");
  expect_round_ticks(all, "tick y");
  const text_box& critical = only(all, "critical");
  for (const auto& t : all)
    if (t.cls == "legend")
      EXPECT_FALSE(overlap(critical, t, 11)) << "'" << critical.words << "' overlaps '" << t.words << "'";
}

TEST(SvgLayout, TheEnvelopesBestAndProvenLabelsDoNotOverlap) {
  // The best found at the start (one point) equal to the proven upper end: both labels were drawn
  // at the left end of the same line.
  const auto all = texts(envelope_svg({{0.0, 67}}, 120, "envelope", std::pair<std::uint64_t, std::uint64_t>(67, 67)));

  EXPECT_FALSE(overlap(only(all, "best"), only(all, "proven"), 11));
  expect_round_ticks(all, "tick x");
}

TEST(SvgLayout, TheFitnessPlotHasRoundTicks) {
  fitness_curve c;
  c.label = "gdivan";
  c.points = {{1, 1.2, 0.5}, {700, 3.1, 1.0}, {1500, 3.7, 2.0}};
  c.evaluations = 2000;
  c.seconds = 2.7;
  for (const fitness_axis axis : {fitness_axis::evaluations, fitness_axis::seconds}) {
    const auto all = texts(fitness_svg({c}, "ms", "fitness", axis));
    expect_round_ticks(all, "tick x");
    expect_round_ticks(all, "tick y");
  }
}

}  // namespace
}  // namespace warpspan
