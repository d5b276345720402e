// Helpers shared by the tests.
#pragma once

#include <string>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/sm/kernel_string.hpp"

namespace warpspan::test {

/// A problem from a kernel string, sigma per type (0: absent) and W, without presets.
inline problem make(const std::string& kernel, int warps, int sigma_l, int sigma_c, int sigma_s = 0,
                    int sigma_d = 0, int schedulers = 0) {
  normalized_sm sm;
  sm.sigma = {sigma_l, sigma_c, sigma_s, sigma_d};
  for (int u = 0; u < unit_count; ++u) sm.copies[u] = sm.sigma[u] > 0 ? 1 : 0;
  sm.schedulers = schedulers;
  return make_problem(parse_kernel_string(kernel), sm, warps);
}

inline std::string source_path(const std::string& relative) { return std::string(WARPSPAN_SOURCE_DIR) + "/" + relative; }

}  // namespace warpspan::test

/// In a fixture's SetUp or a test body: skip with the reason when there is no usable GPU.
#define WARPSPAN_REQUIRE_GPU()                                                          \
  do {                                                                                  \
    if (!::warpspan::cuda_compiled()) GTEST_SKIP() << "built without CUDA";            \
    if (::warpspan::cuda_device_count() == 0) GTEST_SKIP() << "no CUDA device present"; \
  } while (0)
