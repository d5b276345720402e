// Per-warp timelines of one run on one SM (002 Fig. 4a, 6): one row per warp, a tick at each Ipoint,
// rows coloured by wave.
#pragma once

#include <string>
#include <vector>

#include "warpspan/wcet/concurrency.hpp"
#include "warpspan/wcet/trace.hpp"

namespace warpspan {

/// At most this many warps are drawn per SM and run (the rest are counted in the title).
inline constexpr std::size_t wcet_svg_max_warps = 256;

std::string wcet_timeline_svg(const wcet::sm_run& r, const std::vector<wcet::wst>& wsts,
                              const std::vector<std::string>& ipoint_names, const std::string& title);

}  // namespace warpspan
