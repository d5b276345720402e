// Helpers shared by the tests.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <initializer_list>
#include <string>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/sm/kernel_string.hpp"

namespace warpspan::test {

/// An SM with sigma per type (0: absent), one copy of each unit present, and a scheduler limit (0: none).
inline normalized_sm sm_of(int sigma_l, int sigma_c, int sigma_s = 0, int sigma_d = 0, int schedulers = 0) {
  normalized_sm sm;
  sm.sigma = {sigma_l, sigma_c, sigma_s, sigma_d};
  for (int u = 0; u < unit_count; ++u) sm.copies[u] = sm.sigma[u] > 0 ? 1 : 0;
  sm.schedulers = schedulers;
  return sm;
}

/// A problem from a kernel string, sigma per type (0: absent) and W, without presets.
inline problem make(const std::string& kernel, int warps, int sigma_l, int sigma_c, int sigma_s = 0, int sigma_d = 0,
                    int schedulers = 0) {
  return make_problem(parse_kernel_string(kernel), sm_of(sigma_l, sigma_c, sigma_s, sigma_d, schedulers), warps);
}

/// test::make with sigma L and C, a scheduler limit, and barriers in blocks of `block` warps (0: one
/// block of all W).
inline problem make_blocks(const std::string& kernel, int warps, int sigma_l, int sigma_c, int schedulers, int block) {
  return make_problem(parse_kernel_string(kernel), sm_of(sigma_l, sigma_c, 0, 0, schedulers), warps, block);
}

/// Every kernel over {L, C, B} of `length` letters with at least one B (a barrier).
inline std::vector<std::string> kernels_with_barriers(int length) {
  std::vector<std::string> out;
  int total = 1;
  for (int i = 0; i < length; ++i) total *= 3;
  for (int code = 0; code < total; ++code) {
    std::string k;
    for (int i = 0, c = code; i < length; ++i, c /= 3) k.push_back("LCB"[c % 3]);
    if (k.find('B') != std::string::npos) out.push_back(k);
  }
  return out;
}

/// A random small problem: 1..4 types, a kernel of 1..max_length letters, sigma 1..3 per type,
/// a scheduler limit 1..3 one time in three, 1..max_warps warps.
template <class Rng>
problem random_problem(Rng& rng, int max_warps, int max_length) {
  const char letters[] = {'L', 'C', 'S', 'D'};
  const int ntypes = 1 + static_cast<int>(rng() % 4);
  std::string kernel;
  const int len = 1 + static_cast<int>(rng() % max_length);
  for (int i = 0; i < len; ++i) kernel.push_back(letters[rng() % ntypes]);
  int sigma[4];
  for (int& s : sigma) s = 1 + static_cast<int>(rng() % 3);
  const int schedulers = rng() % 3 == 0 ? 1 + static_cast<int>(rng() % 3) : 0;
  return make(kernel, 1 + static_cast<int>(rng() % max_warps), sigma[0], sigma[1], sigma[2], sigma[3], schedulers);
}

/// The message of the input_error `f` throws ("" when it throws none).
template <typename F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const ::warpspan::input_error& e) {
    return e.what();
  }
  return "";
}

inline std::string source_path(const std::string& relative) {
  return std::string(WARPSPAN_SOURCE_DIR) + "/" + relative;
}

/// A string of warp ids (0-based) from warps numbered from 1, as the papers and figures number them.
inline std::vector<std::uint16_t> ids(std::initializer_list<int> one_based) {
  std::vector<std::uint16_t> out;
  for (int v : one_based) out.push_back(static_cast<std::uint16_t>(v - 1));
  return out;
}

/// A harness library the tests build (tests/inputs/harness/): libfixture_<variant>.so.
inline std::string harness_fixture(const std::string& variant) {
  return std::string(WARPSPAN_HARNESS_FIXTURES) + "/libfixture_" + variant + ".so";
}

}  // namespace warpspan::test

namespace warpspan::test {
/// True when the environment says GPU tests must run (WARPSPAN_REQUIRE_GPU=1: the CUDA emulation
/// build in CI, and bench/run_on_gpu.sh on a real GPU): a GPU test that would skip fails instead.
/// How many random instances a GPU test checks: `device` on a real GPU, `emulated` in the CUDA
/// emulation build, which runs the kernels' threads one after another on the CPU (under the
/// sanitizers in CI). The same code paths and configurations run either way; only the number of
/// random instances and their sizes shrink. WARPSPAN_GPU_TEST_SIZE=small asks for the emulation's sizes
/// on a real GPU too: compute-sanitizer's race and sync checkers slow kernels a hundredfold.
inline int gpu_test_size(int device, int emulated) {
  const char* v = std::getenv("WARPSPAN_GPU_TEST_SIZE");
  const bool small = ::warpspan::cuda_emulated() || (v != nullptr && std::string(v) == "small");
  return small ? emulated : device;
}

inline bool gpu_required() {
  const char* v = std::getenv("WARPSPAN_REQUIRE_GPU");
  return v != nullptr && std::string(v) == "1";
}
}  // namespace warpspan::test

/// In a fixture's SetUp or a test body: skip with the reason when there is no usable GPU, or fail
/// when WARPSPAN_REQUIRE_GPU=1 says a GPU (real or emulated) must be there.
#define WARPSPAN_REQUIRE_GPU()                                                                    \
  do {                                                                                            \
    const char* warpspan_why_ = !::warpspan::cuda_compiled()           ? "built without CUDA"     \
                                : ::warpspan::cuda_device_count() == 0 ? "no CUDA device present" \
                                                                       : nullptr;                 \
    if (warpspan_why_ && ::warpspan::test::gpu_required())                                        \
      FAIL() << warpspan_why_ << ", but WARPSPAN_REQUIRE_GPU=1 requires GPU tests to run";        \
    if (warpspan_why_) GTEST_SKIP() << warpspan_why_;                                             \
  } while (0)
