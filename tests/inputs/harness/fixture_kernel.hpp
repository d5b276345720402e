// The kernel of the test harness libraries (fixture.cpp): every part of warpspan/harness.hpp a
// user may declare, small enough to cost by hand (test_inputs_harness.cpp).
//
// A thread's record: n in [0, 8] (its loop's trips) and x, a float in [-1, 1] on a grid of 16
// steps; a block's record: mode in [0, 3]. Per thread: load n, x and the block's mode (3 global
// loads), work 2, loop n times { work 3 }, then, if x < 0, store one word of shared memory at word
// (tid << mode) mod 1024 (a 2^mode-way bank conflict for a warp of 32 lanes), then add n to
// scratch[0] (an atomic), work 1, and write x to scratch[1 + tid].
#pragma once

#include <stdexcept>

#include "warpspan/harness.hpp"

namespace fixture {

namespace hx = warpspan::harness;

struct kernel {
  static constexpr const char* name = "fixture";
  static constexpr const char* description = "warpspan's test harness: a loop, a float branch, shared memory";
  static constexpr std::uint32_t block = 64, branches = 2, default_threads = 100, shared_bytes = 4096;
  static constexpr warpspan_field fields[] = {hx::thread_int("n", 0, 8), hx::thread_float("x", -1.0, 1.0, 16),
                                              hx::block_int("mode", 0, 3)};

  static std::uint64_t scratch_words(std::uint32_t threads) { return 1 + std::uint64_t{threads}; }
  static hx::output output(std::uint32_t threads) { return {0, 1 + std::uint64_t{threads}}; }

  template <class H>
  WARPSPAN_HARNESS_HD static void thread(H& h, const hx::args& a) {
    const std::int32_t* r = a.record();
    const std::int32_t n = r[0];
    const float x = hx::real(r[1]);
    const std::int32_t mode = a.block_record()[0];
    h.load(&r[0], 4);
    h.load(&r[1], 4);
    h.load(a.block_record(), 4);
    h.work(2);
#if defined(WARPSPAN_FIXTURE_THROWS)
    if (n == 7) throw std::runtime_error("n = 7 is not allowed");
#endif
    for (std::int32_t i = 0; h.branch(0, i < n); ++i) {
      h.compare(0, i, n);
      h.work(3);
    }
    h.join(0);
    if (h.branch(1, x < 0)) {
      std::int32_t* shared = static_cast<std::int32_t*>(a.shared);
      const std::uint32_t word = (a.tid << mode) % 1024;
      shared[word] = n;
      h.store(&shared[word], 4, hx::space::shared);
    }
    h.join(1);
    h.atomic_add(&a.scratch[0], n);
    h.work(1);
    a.scratch[1 + a.tid] = r[1];
    h.store(&a.scratch[1 + a.tid], 4);
  }
};

}  // namespace fixture
