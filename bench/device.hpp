// What every GPU benchmark checks first.
#pragma once

#include <benchmark/benchmark.h>

#include "warpspan/core/backend.hpp"

namespace warpspan::bench_cases {

/// Skips a GPU benchmark, with the reason, in a build without CUDA or on a machine without a device.
inline bool skip_without_device(benchmark::State& state) {
  if (!cuda_compiled()) {
    state.SkipWithError("built without CUDA");
    return true;
  }
  if (cuda_device_count() == 0) {
    state.SkipWithError("no CUDA device present");
    return true;
  }
  return false;
}

}  // namespace warpspan::bench_cases
