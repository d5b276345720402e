// The `gpu` fitness backend of `warpspan inputs`: a kernel run on a CUDA device and timed with CUDA
// events, as paper 004 measured on its Tegra K1 (Sec. V): one warm-up run, then the median of
// `repetitions` timed runs (the paper reports the mean of ten; the median resists the odd slow run).
// A built-in runs in warpspan's CUDA backend (cuda/inputs/; without CUDA a stub throws
// not_compiled); a loaded harness runs through its own GPU entry, which warpspan/harness.hpp
// compiles into the library when it is built with nvcc.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpspan/inputs/harness.hpp"

namespace warpspan::inputs {

struct gpu_timing {
  double median_ms = 0;              ///< median of the timed runs, in milliseconds
  std::uint32_t launches = 0;        ///< kernel launches of one run (BFS: two per level)
  std::vector<std::int32_t> output;  ///< the kernel's output range after the last run
};

/// "<harness> has no GPU entry (...how to give it one)": the one wording for a harness without one.
std::string no_gpu_entry(const kernel_harness& k);

/// Times every genome of kernel `k` in turn (back to back). Each run starts from the kernel's
/// initial scratch memory, copied in before the timed region.
std::vector<gpu_timing> cuda_time_inputs(const kernel_harness& k, std::uint32_t threads,
                                         const std::vector<std::vector<std::int32_t>>& genomes, int repetitions = 10);

/// One run of a built-in as the CUDA backend launches it: the input memory (decoded genome) and the
/// initial scratch memory.
struct gpu_launch_input {
  std::vector<std::int32_t> input;
  std::vector<std::int32_t> scratch;
};
/// The CUDA backend's entry for the built-in of index `builtin` (kernels.hpp): times each input
/// (on one stream) and reads back scratch words [output.offset, + output.size); `flag` is the
/// iterative kernel's flag word.
std::vector<gpu_timing> cuda_time_builtin(int builtin, std::uint32_t threads,
                                          const std::vector<gpu_launch_input>& inputs, std::uint64_t flag,
                                          output_range output, int repetitions);

}  // namespace warpspan::inputs
