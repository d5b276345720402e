// The best fitness found against kernel evaluations or against seconds, one line per search method
// (004 Fig. 5 plots it against time).
#pragma once

#include <string>
#include <vector>

#include "warpspan/inputs/ga.hpp"

namespace warpspan {

struct fitness_curve {
  std::string label;                          ///< e.g. "gdivan"
  std::vector<inputs::history_point> points;  ///< improvements of the best
  std::uint64_t evaluations = 0;              ///< where the line ends
  double seconds = 0;                         ///< where the line ends in time (the whole search)
};

/// What the x axis shows.
enum class fitness_axis { evaluations, seconds };

std::string fitness_svg(const std::vector<fitness_curve>& curves, const std::string& unit, const std::string& title,
                        fitness_axis axis = fitness_axis::evaluations);

}  // namespace warpspan
