// Parallel and concurrent execution (002 Sec. V-B): release jitter of the last warp, waves of warps
// (Omega, phi, Delta) and the high-water-mark time, per run and SM from the WSTs.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "warpspan/wcet/trace.hpp"

namespace warpspan::wcet {

/// A warp's start (its first Ipoint) or exit (its last) on one SM, in trace order.
struct wave_event {
  std::int64_t time = 0;
  bool start = true;
  std::uint64_t warp = 0;  ///< any id of the warp (for the drawing)
};

struct wave_stats {
  std::uint64_t waves = 0;                       ///< Omega: non-empty warp sets
  std::uint64_t warps_per_wave = 0;              ///< phi: the largest set
  std::int64_t delta = 0;                        ///< Delta: largest gap between consecutive starts of one wave
  std::vector<std::vector<std::uint64_t>> sets;  ///< the warps of each wave, in start order
};

/// Sec. V-B: a run of starts without an exit between them is one wave; an exit after a start closes
/// it. `events` must be in time order (ties in trace order).
wave_stats find_waves(const std::vector<wave_event>& events);

/// One run on one SM.
struct sm_run {
  std::uint64_t run = 0, sm = 0;
  std::int64_t first = 0, last = 0;  ///< first and last Ipoint time of any warp
  std::int64_t jitter = 0;           ///< last warp's start minus first warp's start
  std::vector<std::size_t> warps;    ///< WST indices, by start time
  wave_stats waves;
};

struct concurrency_stats {
  std::int64_t jitter = 0;  ///< max over runs and SMs (eq. 1's delta)
  std::int64_t hwmt = 0;    ///< per SM: max last - first over runs and SMs (Table II)
  /// The HWMT with the probes' cost taken off each warp's own span, as Z_warp takes it off each
  /// transition: max over warps of (its first Ipoint - the SM's first) + (its span - probe cost x
  /// its transitions), per SM and run. Equals hwmt without a probe cost. Z_dynamic is never below it.
  std::int64_t hwmt_net = 0;
  /// Over the whole launch: max over runs of the last Ipoint time on any SM minus the first on any
  /// SM, when the times share one clock across SMs (nullopt otherwise: per-SM clocks do not compare).
  std::optional<std::int64_t> hwmt_launch;
  std::uint64_t waves = 0, warps_per_wave = 0;
  std::int64_t delta = 0;
  std::vector<sm_run> sm_runs;  ///< by (run, sm)
};

/// `one_clock`: the WSTs' times share one clock across SMs (trace_set::one_clock), which makes the
/// whole-launch HWMT meaningful. `probe_cost`: cycles per transition for hwmt_net.
concurrency_stats analyse_concurrency(const std::vector<wst>& wsts, bool one_clock = false,
                                      std::int64_t probe_cost = 0);

}  // namespace warpspan::wcet
