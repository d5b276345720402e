// The instrumented kernels' launchers, for the collection driver (cuda/wcet/collect.cu).
#pragma once

#include <cstdint>
#include <vector>

#include "warpspan/wcet/probe.cuh"

namespace warpspan::wcet {

/// Blocks and threads per block of one launch (the probe buffer is sized from them).
struct launch_shape {
  unsigned grid = 0, block = 0;
};

struct sdk_kernel {
  const char* name;
  launch_shape (*shape)(unsigned size);
  /// Launches on a random input of `size` from `seed` with the probe; true when the output is the CPU's.
  bool (*run)(unsigned size, std::uint64_t seed, probe_view probe, cudaStream_t stream);
};

const std::vector<sdk_kernel>& sdk_kernels();

}  // namespace warpspan::wcet
