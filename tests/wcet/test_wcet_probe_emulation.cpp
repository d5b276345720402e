// Issue 41, item 12: the CUDA emulation runs a warp's lanes one after another, yet its probe must
// record what the warp's first active lane records on a GPU, where the lanes run in lockstep: a loop
// runs while any lane is in it, a divergent side runs for its lanes while the others wait, and the
// lanes reconverge after. Kernels whose trip counts differ per lane (the common WCET case, a
// data-dependent loop) give traces `warpspan wcet` accepts, in every thread order; a warp the
// emulation cannot order is refused at the collection with the reason. Emulation builds only.
#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "cli/cli_util.hpp"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/wcet/probe.cuh"
#include "wcet_test_util.hpp"

namespace warpspan::wcet {
namespace {

using warpspan::wcet::probe_view;

/// Ipoints 0 (first statement), 5 (the loop's body), 1 (last). Lane l of warp 0 goes round
/// 2 + 2 (l % 2) times (lanes E 5 5 X and E 5 5 5 5 X), lane l of warp 1 l % 8 times (0 to 7).
__global__ void lane_loop(probe_view probe, unsigned* out) {
  WARPSPAN_IPOINT(0);
  const unsigned lane = threadIdx.x % 32;
  const unsigned trips = threadIdx.x < 32 ? 2 + 2 * (lane % 2) : lane % 8;
  unsigned sum = 0;
  for (unsigned i = 0; i < trips; ++i) {
    WARPSPAN_IPOINT(5);
    sum += i + 1;
  }
  WARPSPAN_IPOINT(1);
  out[threadIdx.x] = sum;
}

/// As lane_loop with a branch in the loop's body: Ipoints 2 and 3 its two sides, lane l takes 2 in
/// pass i when i + l is even. Lane l goes round l % 4 times in warp 0, l % 4 + 2 times in warp 1.
__global__ void lane_loop_branch(probe_view probe, unsigned* out) {
  WARPSPAN_IPOINT(0);
  const unsigned lane = threadIdx.x % 32;
  const unsigned trips = lane % 4 + (threadIdx.x < 32 ? 0 : 2);
  unsigned sum = 0;
  for (unsigned i = 0; i < trips; ++i) {
    WARPSPAN_IPOINT(5);
    if ((i + lane) % 2 == 0) {
      WARPSPAN_IPOINT(2);
      sum += i;
    } else {
      WARPSPAN_IPOINT(3);
      sum += 2 * i;
    }
  }
  WARPSPAN_IPOINT(1);
  out[threadIdx.x] = sum;
}

/// A site in a function of its own, which only odd lanes call (or every lane, when `all`).
__device__ void helper_site(probe_view probe) { WARPSPAN_IPOINT(7); }

__global__ void helper_sites(probe_view probe, bool all) {
  WARPSPAN_IPOINT(0);
  if (all || threadIdx.x % 2 == 1) helper_site(probe);
  WARPSPAN_IPOINT(1);
}

using sequences = std::map<std::uint32_t, std::vector<std::uint32_t>>;  // warp -> its Ipoints

const std::vector<std::string> orders{"ascending", "descending", "random:7", "random:8"};

class WcetProbeEmulationGpu : public ::testing::Test {
 protected:
  void SetUp() override {
    saved_order_ = emu::thread_order();
    (void)cudaGetLastError();
  }
  void TearDown() override { emu::set_thread_order(saved_order_); }

 private:
  std::string saved_order_;
};

/// One launch of `kernel` (one block of 64 threads) with a probe session: the session after collect().
template <class Kernel, class... Args>
probe_session run_once(Kernel kernel, Args... args) {
  probe_session probe(dim3(1), dim3(64), 64);
  device_buffer<unsigned> out(64, nullptr);
  WARPSPAN_LAUNCH(kernel, 1, 64, 0, nullptr)(probe.view(), args..., out.data());
  EXPECT_EQ(probe.collect(), 0u);
  return probe;
}

sequences per_warp(const probe_session& probe) {
  sequences s;
  for (const auto& r : probe.records()) s[r.warp].push_back(r.ipoint);
  return s;
}

std::vector<std::uint32_t> repeat(std::vector<std::uint32_t> head, const std::vector<std::uint32_t>& part,
                                  unsigned times, const std::vector<std::uint32_t>& tail) {
  for (unsigned k = 0; k < times; ++k) head.insert(head.end(), part.begin(), part.end());
  head.insert(head.end(), tail.begin(), tail.end());
  return head;
}

/// The records with the clock of each warp's k-th record 10 k: every IPG edge then takes 10 (the
/// emulation's own clocks are the host's nanoseconds, which mean nothing).
std::string unit_trace(const probe_session& probe) {
  std::vector<collected_record> records = probe.records();
  std::map<std::uint32_t, std::int64_t> next;
  for (auto& r : records) r.clock = 10 * next[r.warp]++;
  return probe_text_trace(records, "unit costs");
}

nlohmann::json analyse(const std::string& cfg, const std::string& trace) {
  const auto r = warpspan::test::run_warpspan("wcet --cfg " + test::write(".json", cfg) + " --trace " +
                                              test::write(".trace", trace) + " --json");
  EXPECT_EQ(r.code, 0) << r.err;
  return r.code == 0 ? nlohmann::json::parse(r.out) : nlohmann::json{};
}

// b0 (0) enters the loop b5 (5), or skips it; the latch bl goes back to b5 or on to b1 (1).
const char* lane_loop_cfg = R"({"name": "lane_loop", "entry": "b0", "exit": "b1",
  "blocks": ["b0", "b5", "bl", "b1"],
  "edges": [["b0", "b5"], ["b0", "b1"], ["b5", "bl"], ["bl", "b5"], ["bl", "b1"]],
  "ipoints": {"b0": "0", "b5": "5", "b1": "1"}})";

// As lane_loop_cfg with b5 branching to b2 (2) and b3 (3), which join at the latch.
const char* branch_cfg = R"({"name": "lane_loop_branch", "entry": "b0", "exit": "b1",
  "blocks": ["b0", "b5", "b2", "b3", "bl", "b1"],
  "edges": [["b0", "b5"], ["b0", "b1"], ["b5", "b2"], ["b5", "b3"], ["b2", "bl"], ["b3", "bl"], ["bl", "b5"],
            ["bl", "b1"]],
  "ipoints": {"b0": "0", "b5": "5", "b2": "2", "b3": "3", "b1": "1"}})";

TEST_F(WcetProbeEmulationGpu, ALoopWhoseTripCountDiffersPerLaneRecordsTheWarpsPasses) {
  // Warp 0: lanes E 5 5 X and E 5 5 5 5 X make E 5 5 5 5 X; warp 1: 7 passes (lane 7 goes round 7
  // times, lane 0 not at all).
  const sequences want{{0, repeat({0}, {5}, 4, {1})}, {1, repeat({0}, {5}, 7, {1})}};
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    const auto probe = run_once(lane_loop);
    EXPECT_EQ(per_warp(probe), want) << order;
    // Each warp's records in the order written have rising clocks (collect orders them by clock).
    std::map<std::uint32_t, std::int64_t> last;
    for (const auto& r : probe.records()) {
      if (last.count(r.warp)) {
        EXPECT_LE(last[r.warp], r.clock) << order;
      }
      last[r.warp] = r.clock;
    }
  }

  // wcet: the loop's bound (passes after the first) is 6 (warp 1's 7 passes); at 10 per edge the
  // longest path is 0 -> 5, 6 x 5 -> 5, 5 -> 1: 8 edges, 80.
  const auto j = analyse(lane_loop_cfg, unit_trace(run_once(lane_loop)));
  ASSERT_EQ(j["loops"].size(), 1u);
  EXPECT_EQ(j["loops"][0]["bound"], 6);
  EXPECT_EQ(j["warps"], 2);
  EXPECT_EQ(j["longest_wst"], 80);
  EXPECT_EQ(j["z_warp"], 80);
}

TEST_F(WcetProbeEmulationGpu, ABranchInADataDependentLoopRecordsBothSidesOfEachPass) {
  // Warp 0 goes round 3 times (lanes l % 4 == 3): pass 0 has lanes l % 4 in {1, 2, 3}, where odd
  // lanes take 3 and even ones 2; pass 1 lanes {2, 3}: 3 and 2; pass 2 lanes {3}: 3. Warp 1 goes
  // round 5 times: passes 0 to 3 have lanes of both parities, pass 4 lanes l % 4 == 3 (i + l odd: 3).
  // The sides of one pass in source order (2 before 3), as a warp that runs the lowest address first.
  const sequences want{{0, repeat({0}, {5, 2, 3}, 2, {5, 3, 1})}, {1, repeat({0}, {5, 2, 3}, 4, {5, 3, 1})}};
  for (const auto& order : orders) {
    ASSERT_TRUE(emu::set_thread_order(order));
    EXPECT_EQ(per_warp(run_once(lane_loop_branch)), want) << order;
  }

  // wcet accepts it (2 -> 3 is a divergent edge); the bound is 4 (warp 1's 5 passes).
  const auto j = analyse(branch_cfg, unit_trace(run_once(lane_loop_branch)));
  ASSERT_EQ(j["loops"].size(), 1u);
  EXPECT_EQ(j["loops"][0]["bound"], 4);
  EXPECT_EQ(j["longest_wst"], 10 * (4 * 3 + 3));  // warp 1: 0, 4 x (5 2 3), 5 3 1: 15 edges
  // IPET at 10 per edge: 0 -> 5, then 5 passes of 5 -> side -> (5 or 1), 4 of them with 2 -> 3 as
  // well (a divergent edge is taken at most as often as one warp took it: 4): 1 + 5 x 2 + 4 = 15.
  EXPECT_EQ(j["z_warp"], 150);
}

TEST_F(WcetProbeEmulationGpu, LanesDivergingThroughSitesOfTwoFunctionsAreRefusedAtTheCollection) {
  // Odd lanes pass Ipoint 7 in a function of its own: source positions do not order it against the
  // kernel's sites, so the emulation cannot say where a warp runs it.
  probe_session probe(dim3(1), dim3(64), 16);
  WARPSPAN_LAUNCH(helper_sites, 1, 64, 0, nullptr)(probe.view(), false);
  try {
    probe.collect();
    ADD_FAILURE() << "collected";
  } catch (const input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("the CUDA emulation runs the lanes of a warp one after another"), std::string::npos) << what;
    EXPECT_NE(what.find("helper_site, helper_sites"), std::string::npos) << what;
    EXPECT_NE(what.find("record this trace on a GPU"), std::string::npos) << what;
  }

  // Every lane through the helper: the lanes agree, nothing to order.
  probe_session uniform(dim3(1), dim3(64), 16);
  WARPSPAN_LAUNCH(helper_sites, 1, 64, 0, nullptr)(uniform.view(), true);
  EXPECT_EQ(uniform.collect(), 0u);
  EXPECT_EQ(per_warp(uniform), (sequences{{0, {0, 7, 1}}, {1, {0, 7, 1}}}));
}

}  // namespace
}  // namespace warpspan::wcet
#endif
