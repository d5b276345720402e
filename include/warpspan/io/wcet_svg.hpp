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

/// The room an Ipoint name takes beside its tick (8 px sans-serif, a little gap after it): names
/// closer than this in one row are not drawn.
inline double wcet_svg_label_width(const std::string& name) { return 5.0 * static_cast<double>(name.size()) + 4; }

/// Rows of warps with a tick at each Ipoint (names beside them where they do not collide) over a
/// time axis with round ticks, in cycles since the first record on the SM.
std::string wcet_timeline_svg(const wcet::sm_run& r, const std::vector<wcet::wst>& wsts,
                              const std::vector<std::string>& ipoint_names, const std::string& title);

}  // namespace warpspan
