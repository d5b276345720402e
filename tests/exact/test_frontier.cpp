// The level-by-level search (the form the CUDA search parallelises) against the depth-first one,
// its successor enumeration against a direct count, and the CUDA version against the CPU.
#include <gtest/gtest.h>

#include <random>
#include <set>

#include "test_util.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

problem random_problem(std::mt19937_64& rng, int max_warps) { return test::random_problem(rng, max_warps, 6); }

TEST(ExactFrontier, PackRoundTrip) {
  std::uint8_t count[8] = {3, 0, 2, 0, 0, 1, 0, 0};
  const packed_state key = pack_counts(count, 7);
  std::uint8_t back[8];
  unpack_counts(key, 6, 7, back);
  for (int k = 0; k < 8; ++k) EXPECT_EQ(back[k], count[k]) << k;
}

TEST(ExactFrontier, SuccessorsAreDistinctAndMaximal) {
  // Every successor issues exactly the work-conserving number of warps, and no two are the same
  // issue vector.
  std::mt19937_64 rng(99);
  for (int k = 0; k < 200; ++k) {
    const problem prob = random_problem(rng, 6);
    const frontier_view v = make_frontier_view(prob.view());
    // A random reachable-looking state: warps spread over the levels.
    std::uint8_t count[256] = {};
    for (std::uint32_t w = 0; w < prob.warps; ++w) ++count[rng() % (prob.instructions() + 1)];
    successor_enum e;
    if (!e.start(v, pack_counts(count, prob.instructions()))) continue;
    std::uint32_t ready[4] = {}, issue_target = 0;
    for (std::uint32_t l = 0; l < prob.instructions(); ++l) ready[v.type_of[l]] += count[l];
    for (std::uint32_t t = 0; t < v.ntypes; ++t) issue_target += std::min<std::uint32_t>(ready[t], v.cap[t]);
    if (v.limit) issue_target = std::min(issue_target, v.limit);
    std::set<std::string> seen;  // issue vectors as bytes
    do {
      std::string takes;
      std::uint32_t issued = 0, per_type[4] = {};
      for (std::uint32_t l = 0; l < prob.instructions(); ++l) {
        const std::uint32_t x = e.take_at(v, l);
        ASSERT_LE(x, count[l]);
        takes.push_back(static_cast<char>(x));
        issued += x;
        per_type[v.type_of[l]] += x;
      }
      for (std::uint32_t t = 0; t < v.ntypes; ++t) ASSERT_LE(per_type[t], v.cap[t]);
      ASSERT_EQ(issued, issue_target);
      ASSERT_TRUE(seen.insert(takes).second) << "an issue vector came twice";
    } while (e.advance(v));
  }
}

TEST(ExactFrontier, EqualsDepthFirstSearch) {
  std::mt19937_64 rng(2026);
  for (int k = 0; k < 150; ++k) {
    const problem prob = random_problem(rng, 5);
    const exact_result dfs = exact_search_cpu(prob);
    const exact_result bfs = exact_frontier_cpu(prob);
    ASSERT_TRUE(bfs.complete);
    ASSERT_EQ(bfs.makespan, dfs.makespan) << to_run_length(prob.kernel) << " W=" << prob.warps;
    ASSERT_EQ(build_schedule(prob, bfs.best_string).makespan, bfs.makespan);
  }
  for (int w = 1; w <= 5; ++w) {
    const problem voronoi = test::make("5L9C2L9C", w, 1, 4);
    const exact_result r = exact_frontier_cpu(voronoi);
    EXPECT_EQ(r.makespan, exact_search_cpu(voronoi).makespan) << w;
    EXPECT_EQ(build_schedule(voronoi, r.best_string).makespan, r.makespan);
  }
}

TEST(ExactFrontier, LimitsAndRefusals) {
  exact_options o;
  o.max_states = 500;
  const problem prob = test::make("5L9C2L9C", 7, 1, 4);
  const exact_result r = exact_frontier_cpu(prob, o.frontier());
  EXPECT_FALSE(r.complete);
  EXPECT_LE(r.lower, r.upper);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.lower);
  EXPECT_THROW(exact_frontier_cpu(test::make("LC", 17, 1, 1)), input_error);
}

TEST(ExactFrontier, CudaSearchMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  std::mt19937_64 rng(7);
  for (int k = 0; k < test::gpu_test_size(60, 10); ++k) {
    const problem prob = random_problem(rng, 6);
    const exact_result cpu = exact_frontier_cpu(prob);
    const exact_result gpu = exact_frontier_cuda(prob);
    ASSERT_EQ(gpu.makespan, cpu.makespan) << k;
    ASSERT_EQ(gpu.states, cpu.states) << k;
    ASSERT_EQ(build_schedule(prob, gpu.best_string).makespan, gpu.makespan) << k;
  }
  for (int w = 4; w <= test::gpu_test_size(7, 5); ++w) {
    const problem voronoi = test::make("5L9C2L9C", w, 1, 4);
    EXPECT_EQ(exact_frontier_cuda(voronoi).makespan, exact_frontier_cpu(voronoi).makespan) << w;
  }
}

}  // namespace
}  // namespace warpspan
