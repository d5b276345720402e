// The `gpu` fitness backend of `warpspan inputs`: the shipped kernels launched on a CUDA device and
// timed with CUDA events, as paper 004 measured on its Tegra K1 (Sec. V): one warm-up run, then the
// median of `repetitions` timed runs (the paper reports the mean of ten; the median resists the odd
// slow run). Implemented in cuda/inputs/; without CUDA a stub throws not_compiled.
#pragma once

#include <cstdint>
#include <vector>

#include "warpspan/inputs/harness.hpp"

namespace warpspan::inputs {

struct gpu_timing {
  double median_ms = 0;              ///< median of the timed runs, in milliseconds
  std::uint32_t launches = 0;        ///< kernel launches of one run (BFS: two per level)
  std::vector<std::int32_t> output;  ///< the kernel's output range after the last run
};

/// Times every genome in turn (back to back on one stream). Each run starts from the kernel's
/// initial scratch memory, copied in before the timed region.
std::vector<gpu_timing> cuda_time_inputs(kernel_id kernel, std::uint32_t threads,
                                         const std::vector<std::vector<std::int32_t>>& genomes,
                                         int repetitions = 10);

}  // namespace warpspan::inputs
