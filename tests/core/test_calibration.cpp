// The GPU model's calibration microbenchmarks (bench/calibration): each kernel measures what it says,
// shown by a value the CPU recomputes. Timings are not asserted; they are the benchmarks' business.
#include <gtest/gtest.h>

#include <set>

#include "test_util.hpp"
#include "warpspan/core/calibration.hpp"
#include "warpspan/core/error.hpp"

namespace warpspan {
namespace {

TEST(Calibration, ChaseCycleVisitsEveryElementOnce) {
  for (std::size_t n : {1u, 2u, 3u, 17u, 1000u}) {
    const std::vector<std::uint32_t> next = chase_cycle(n, 7);
    std::set<std::uint32_t> seen;
    std::uint32_t at = 0;
    for (std::size_t s = 0; s < n; ++s) {
      EXPECT_TRUE(seen.insert(at).second) << "n " << n << ": index " << at << " visited twice";
      at = next[at];
    }
    EXPECT_EQ(at, 0u) << "n " << n << ": the cycle does not close after n steps";
    EXPECT_EQ(seen.size(), n);
  }
  EXPECT_EQ(chase_cycle(500, 3), chase_cycle(500, 3));
  EXPECT_NE(chase_cycle(500, 3), chase_cycle(500, 4));
  EXPECT_THROW(chase_cycle(0, 1), input_error);
}

TEST(Calibration, ScatterShapeHoldsTheWarpsAskedFor) {
  EXPECT_EQ(scattered_sectors_shape(1, 132).threads, 32u);
  EXPECT_EQ(scattered_sectors_shape(1, 132).blocks, 132u);
  EXPECT_EQ(scattered_sectors_shape(32, 132).threads, 1024u);
  EXPECT_EQ(scattered_sectors_shape(64, 132).threads, 1024u);
  EXPECT_EQ(scattered_sectors_shape(64, 132).blocks, 264u);
  EXPECT_THROW(scattered_sectors_shape(0, 132), input_error);
  EXPECT_THROW(scattered_sectors_shape(65, 132), input_error);
}

TEST(Calibration, PointerChaseMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  const std::vector<std::uint32_t> next = chase_cycle(1000, 11);
  for (chase_memory where : {chase_memory::shared, chase_memory::global, chase_memory::global_l2})
    for (std::uint32_t steps : {0u, 1u, 999u, 1000u, 2345u}) {
      for (bool warm : {true, false}) {
        const calibration_point p = cuda_pointer_chase(next, where, steps, warm);
        EXPECT_EQ(p.check, pointer_chase_cpu(next, steps))
            << "memory " << static_cast<int>(where) << ", " << steps << " steps";
        EXPECT_GE(p.cycles_per_op, 0.0);
      }
    }
}

TEST(Calibration, ScatteredSectorsMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  for (std::uint32_t warps : {1u, 3u, 40u}) {
    const calibration_point p = cuda_scattered_sectors(1 << 16, warps, 5, 2);
    EXPECT_EQ(p.sms, 2u);
    EXPECT_EQ(p.check, scattered_sectors_cpu(1 << 16, warps, 5, 2)) << warps << " warps a SM";
    EXPECT_GT(p.bytes_per_s, 0.0);
  }
}

TEST(Calibration, StreamReadMatchesCpu) {
  // The L2 and HBM read bandwidth's kernel reads every word of the buffer once a pass, whatever
  // the buffer's size against the grid (one vector, fewer than the threads, more).
  WARPSPAN_REQUIRE_GPU();
  std::uint64_t first_words = 0;
  for (std::uint32_t i = 0; i < 8; ++i) first_words += scatter_value(i);
  EXPECT_EQ(stream_read_cpu(32, 3), 3 * first_words);
  EXPECT_EQ(stream_read_cpu(47, 1), stream_read_cpu(32, 1));  // whole 16-byte words only
  for (std::size_t bytes : {std::size_t{16}, std::size_t{1000}, std::size_t{1} << 18})
    for (std::uint32_t passes : {1u, 3u}) {
      const calibration_point p = cuda_stream_read(bytes, passes, 2);
      EXPECT_EQ(p.check, stream_read_cpu(bytes, passes)) << bytes << " bytes, " << passes << " passes";
      EXPECT_EQ(p.sms, 2u);
      EXPECT_GE(p.bytes_per_s, 0.0);
    }
  EXPECT_THROW(cuda_stream_read(15, 1, 2), input_error);
  EXPECT_THROW(cuda_stream_read(64, 0, 2), input_error);
}

TEST(Calibration, WarpCollectivesMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  // The chain does not settle into a fixed point early (the check would then prove nothing).
  EXPECT_NE(warp_collectives_cpu(99), warp_collectives_cpu(100));
  for (const bool sync : {false, true})
    for (const std::uint32_t steps : {0u, 1u, 100u}) {
      const calibration_point p = cuda_warp_collectives(steps, sync);
      EXPECT_EQ(p.check, warp_collectives_cpu(steps)) << steps << " steps";
      EXPECT_GE(p.cycles_per_op, 0.0);
    }
}

TEST(Calibration, LaunchGapRunsEveryLaunchMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  for (bool graph : {false, true}) {
    const calibration_point p = cuda_launch_gap(10, 3, 64, graph);
    EXPECT_EQ(p.check, 11u * 3u) << "graph " << graph;
  }
  EXPECT_THROW(cuda_launch_gap(0, 1, 32), input_error);
}

TEST(Calibration, CopyRateCarriesEveryByteEitherWayMatchesCpu) {
  // The copies the GPU model's dbf batch rows time: the bytes arrive, up and down, and a copy takes
  // some time.
  WARPSPAN_REQUIRE_GPU();
  EXPECT_EQ(copy_check(300), 300u / 256u * (255u * 256u / 2u) + (43u * 44u / 2u));  // 0..255, then 0..43
  for (bool up : {true, false}) {
    const calibration_point p = cuda_copy_rate(300, up, 3);
    EXPECT_EQ(p.check, copy_check(300)) << "up " << up;
    EXPECT_GE(p.ns_per_op, 0.0);
  }
  EXPECT_THROW(cuda_copy_rate(0, true, 1), input_error);
}

}  // namespace
}  // namespace warpspan
