// The progress sweep against the depth-first search, with and without pruning, and the remaining
// bound it prunes with against the exact longest remaining path of every reachable state.
#include <gtest/gtest.h>

#include <dirent.h>

#include <functional>
#include <map>
#include <random>

#include "emulation_hooks.hpp"
#include "test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

problem sweep_problem(std::mt19937_64& rng, int max_warps) { return test::random_problem(rng, max_warps, 7); }

/// Longest remaining cycles from every reachable state, by plain recursion over successor_enum.
std::uint32_t longest_from(const frontier_view& v, packed_state s, std::map<packed_state, std::uint32_t>& memo) {
  if (const auto it = memo.find(s); it != memo.end()) return it->second;
  std::uint32_t best = 0;
  successor_enum e;
  if (e.start(v, s)) do
      best = std::max(best, 1 + longest_from(v, e.successor(v), memo));
    while (e.advance(v));
  memo[s] = best;
  return best;
}

TEST(ExactSweep, RemainingBoundHoldsInEveryReachableState) {
  std::mt19937_64 rng(314);
  int tight = 0, states = 0;
  for (int k = 0; k < 120; ++k) {
    const problem prob = sweep_problem(rng, 6);
    const frontier_view v = make_frontier_view(prob.view());
    std::map<packed_state, std::uint32_t> memo;
    longest_from(v, initial_state(v), memo);
    for (const auto& [s, longest] : memo) {
      std::uint8_t count[256];
      unpack_counts(s, v.warps, v.instructions, count);
      const std::uint32_t bound = remaining_bound(v, count);
      ASSERT_GE(bound, longest) << to_run_length(prob.kernel) << " W=" << prob.warps;
      ASSERT_EQ(remaining_bound(v, s), bound);  // from the packed key's runs, as the searches take it
      tight += bound == longest;
      ++states;
    }
  }
  EXPECT_GT(tight, states / 10) << "the bound should often be exact on small cases";
}

TEST(ExactSweep, RemainingBoundCountsStallsByDistinctWarps) {
  // CCCC with sigma_C = 2, three warps: two have done nothing, one has done 3 of 4. Nine C are
  // left and every cycle issues two while two warps are left, so 5 cycles by any schedule (hand
  // count; the recursion below agrees). The plain stall count lets the warp that is last stall
  // floor(5 / 2) = 2 cycles (bound 4 + 2 = 6), but a stall needs two other warps issuing C and
  // one of the two others has only 1 C left: at most 1 stall, bound 5.
  const problem prob = test::make("CCCC", 3, 1, 2);
  const frontier_view v = make_frontier_view(prob.view());
  std::uint8_t count[256] = {};
  count[0] = 2;
  count[3] = 1;
  EXPECT_EQ(remaining_bound(v, count), 5u);
  std::map<packed_state, std::uint32_t> memo;
  EXPECT_EQ(longest_from(v, pack_counts(count, v.instructions), memo), 5u);
  // Three warps of CC with sigma_C = 4: all issue together, 2 cycles; fewer other warps than
  // units of C, so the last one never stalls.
  const problem wide = test::make("CC", 3, 1, 4);
  const frontier_view vw = make_frontier_view(wide.view());
  std::uint8_t start[256] = {};
  start[0] = 3;
  EXPECT_EQ(remaining_bound(vw, start), 2u);
}

TEST(ExactSweep, EqualsDepthFirstSearch) {
  std::mt19937_64 rng(4242);
  int pruned_runs = 0;
  for (int k = 0; k < 200; ++k) {
    const problem prob = sweep_problem(rng, 6);
    const exact_result dfs = exact_search_cpu(prob);
    for (const int variant : {0, 1, 2}) {
      const bool prune = variant > 0;
      exact_options o;
      o.prune = prune;
      o.threads = 1 + static_cast<unsigned>(k % 3);
      if (variant == 2) o.witness_states = 1;  // too few to keep: a second pass finds the witness
      const exact_result r = exact_sweep_cpu(prob, o);
      ASSERT_TRUE(r.complete);
      ASSERT_EQ(r.makespan, dfs.makespan) << to_run_length(prob.kernel) << " W=" << prob.warps << " prune=" << prune;
      ASSERT_EQ(build_schedule(prob, r.best_string).makespan, r.makespan);
      if (!prune)
        ASSERT_EQ(r.states, dfs.states + 1) << "every reachable state once (the DFS memo lacks the final one)";
      pruned_runs += prune && r.pruned > 0;
    }
  }
  EXPECT_GT(pruned_runs, 20);
}

TEST(ExactSweep, VoronoiValues) {
  // MODEL.md: T(1..4) = 25, 31, 37, 45 for 5L9C2L9C with sigma_L = 1, sigma_C = 4.
  const std::uint32_t expected[] = {25, 31, 37, 45, 57};
  for (int w = 1; w <= 5; ++w) {
    const problem voronoi = test::make("5L9C2L9C", w, 1, 4);
    const exact_result r = exact_sweep_cpu(voronoi);
    EXPECT_EQ(r.makespan, expected[w - 1]) << w;
    EXPECT_EQ(build_schedule(voronoi, r.best_string).makespan, r.makespan);
  }
}

TEST(ExactSweep, ThreadsAgree) {
  // Voronoi W = 6 has sums with tens of thousands of states: the threaded rounds and the sharded
  // tables are exercised.
  const problem voronoi = test::make("5L9C2L9C", 6, 1, 4);
  const exact_result dfs = exact_search_cpu(voronoi);
  for (const unsigned threads : {1u, 2u, 3u}) {
    exact_options o;
    o.threads = threads;
    o.prune = false;
    const exact_result r = exact_sweep_cpu(voronoi, o);
    EXPECT_EQ(r.makespan, 67u) << threads;
    EXPECT_EQ(r.states, dfs.states + 1) << threads;
    EXPECT_EQ(build_schedule(voronoi, r.best_string).makespan, 67u);
  }
}

TEST(ExactSweep, PruningAgainstAGivenLowerString) {
  // With the exact answer's own string as the lower bound, pruning drops states and the answer
  // (and a witness for it) stays.
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  exact_options o;
  o.prune = false;
  const exact_result full = exact_sweep_cpu(prob, o);
  o.prune = true;
  o.lower_string = full.best_string;
  const exact_result pruned = exact_sweep_cpu(prob, o);
  EXPECT_EQ(pruned.makespan, full.makespan);
  EXPECT_GT(pruned.pruned, 0u);
  EXPECT_EQ(build_schedule(prob, pruned.best_string).makespan, pruned.makespan);
}

TEST(ExactSweep, AtMostProvesItOrFindsTheExactValue) {
  // at_most against the depth-first search, on the hash sweep (one and two
  // threads, with and without a lower string) and the dense sweep: asked whether the worst case T
  // is at most a value a, a search either finds T exactly (it must when a < T: a longer schedule
  // exists and all its states are expanded) or proves min(a, bound) >= T, without reaching more
  // states than the plain search; a string in hand longer than a leaves the plain search.
  std::mt19937_64 rng(4242);
  int proven = 0, exact_longer = 0, dropped = 0;
  for (int k = 0; k < 120; ++k) {
    const problem prob = sweep_problem(rng, 6);
    const std::uint32_t t = exact_search_cpu(prob).makespan;
    const auto bound = static_cast<std::uint32_t>(pessimistic_bound(prob));
    exact_result standard;
    exact_detail::fill_interval(prob, standard);
    for (const std::uint32_t a : {t - 1, t, t + 1, (t + bound) / 2, bound + 3}) {
      if (a == 0) continue;
      for (int form = 0; form < 4; ++form) {
        exact_options o;
        o.at_most = a;
        o.threads = 1 + form % 2;
        if (form == 2) o.lower_string = standard.best_string;
        const exact_options plain_o = [&] {
          exact_options p = o;
          p.at_most = 0;
          return p;
        }();
        const exact_result r = form == 3 ? exact_dense_cpu(prob, o.dense()) : exact_sweep_cpu(prob, o);
        const exact_result plain = form == 3 ? exact_dense_cpu(prob, plain_o.dense()) : exact_sweep_cpu(prob, plain_o);
        const std::string what = to_run_length(prob.kernel) + " W=" + std::to_string(prob.warps) +
                                 " a=" + std::to_string(a) + " form " + std::to_string(form);
        ASSERT_EQ(build_schedule(prob, r.best_string).makespan, r.lower) << what;
        ASSERT_LE(r.lower, t) << what;
        ASSERT_LE(r.states, plain.states) << what;
        if (r.complete) {
          ASSERT_EQ(r.makespan, t) << what;
          ASSERT_FALSE(r.at_most_proven) << what;
          exact_longer += t > a;
        } else {
          ASSERT_TRUE(r.at_most_proven) << what << ": " << r.stop_reason;
          ASSERT_EQ(r.upper, std::min(a, bound)) << what;
          ASSERT_GE(r.upper, t) << what;
          ASSERT_GT(r.upper, r.lower) << what;
          ++proven;
        }
        if (a < t) ASSERT_TRUE(r.complete) << what;
        if (std::min(a, bound) > t) ASSERT_TRUE(r.at_most_proven) << what;
        dropped += r.states < plain.states;
      }
    }
  }
  EXPECT_GT(proven, 200);
  EXPECT_GT(exact_longer, 200);
  EXPECT_GT(dropped, 100);  // the question drops states the plain search reaches
}

TEST(ExactSweep, LimitGivesAProvenInterval) {
  const problem prob = test::make("5L9C2L9C", 6, 1, 4);
  const std::uint32_t t6 = exact_search_cpu(prob).makespan;
  exact_options o;
  o.max_states = 2000;
  const exact_result r = exact_sweep_cpu(prob, o);
  EXPECT_FALSE(r.complete);
  EXPECT_LE(r.lower, t6);
  EXPECT_GE(r.upper, t6);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.lower);
  EXPECT_THROW(exact_sweep_cpu(test::make("LC", 17, 1, 1)), input_error);
}

/// Threads of this process now (entries of /proc/self/task).
int live_threads() {
  int n = 0;
  if (DIR* d = opendir("/proc/self/task")) {
    while (const dirent* e = readdir(d)) n += e->d_name[0] != '.';
    closedir(d);
  }
  return n;
}

TEST(ExactSweep, ThreadsLiveForTheWholePass) {
  // The sweep used to start and join its threads in every round of every sum; now a pool of
  // `threads` lives as long as the pass, so between sums (when the progress callback runs) the
  // workers are alive.
  const int before = live_threads();
  ASSERT_GT(before, 0) << "needs /proc";
  exact_options o;
  o.threads = 3;
  int least = 1 << 30, most = 0;
  o.progress = [&](const exact_step&) {
    least = std::min(least, live_threads());
    most = std::max(most, live_threads());
  };
  const exact_result r = exact_sweep_cpu(test::make("5L9C2L9C", 4, 1, 4), o);
  EXPECT_EQ(r.makespan, 45u);
  EXPECT_EQ(least, before + 2);
  EXPECT_EQ(most, before + 2);
  EXPECT_EQ(live_threads(), before) << "the pool ends with the pass";
}

TEST(ExactSweep, ThreadCountsAreChecked) {
  exact_options o;
  o.threads = -1;
  EXPECT_THROW(exact_sweep_cpu(test::make("LCL", 3, 1, 1), o), input_error);
  o.threads = 1'000'000;
  EXPECT_THROW(exact_sweep_cpu(test::make("LCL", 3, 1, 1), o), input_error);
}

TEST(ExactSweep, InterruptGivesTheIntervalSoFar) {
  // The flag set before the search: it stops after the first sum with the proven interval.
  const problem prob = test::make("5L9C2L9C", 6, 1, 4);
  request_interrupt();
  const exact_result r = exact_sweep_cpu(prob);
  const exact_result d = exact_search_cpu(prob);
  const exact_result f = exact_frontier_cpu(prob);
  clear_interrupt();
  for (const exact_result* x : {&r, &d, &f}) {
    EXPECT_FALSE(x->complete);
    EXPECT_TRUE(x->interrupted);
    EXPECT_LE(x->lower, 67u) << "T(6) = 67";
    EXPECT_GE(x->upper, 67u);
    EXPECT_EQ(build_schedule(prob, x->best_string).makespan, x->lower);
  }
  EXPECT_FALSE(exact_sweep_cpu(prob).interrupted);
}

TEST(ExactSweep, AWeakLowerStringStillGivesTheAnswersWitness) {
  // Given a lower string the first pass keeps no states; beaten, a second pass finds the witness.
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  exact_options o;
  for (std::uint16_t w = 0; w < 4; ++w) o.lower_string.insert(o.lower_string.end(), 25, w);
  ASSERT_LT(build_schedule(prob, o.lower_string).makespan, 45u);
  const exact_result r = exact_sweep_cpu(prob, o);
  EXPECT_TRUE(r.complete);
  EXPECT_EQ(r.makespan, 45u);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, 45u);
}

TEST(ExactSweep, SecondPassStoppedKeepsTheAnswerAsUpperEnd) {
  // A weak lower string (warp after warp) and no room to keep states force a second pass for the
  // witness; an interrupt during it must not lose the answer the first pass proved (T(4) = 45).
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  exact_options o;
  o.witness_states = 1;
  for (std::uint16_t w = 0; w < 4; ++w) o.lower_string.insert(o.lower_string.end(), 25, w);
  const std::uint32_t weak = build_schedule(prob, o.lower_string).makespan;
  ASSERT_LT(weak, 45u);
  std::uint32_t calls = 0;
  o.progress = [&](const exact_step& s) {
    if (++calls > s.total) request_interrupt();  // past the first pass's sums
  };
  const exact_result r = exact_sweep_cpu(prob, o);
  clear_interrupt();
  EXPECT_FALSE(r.complete);
  EXPECT_TRUE(r.interrupted);
  EXPECT_EQ(r.upper, 45u);
  EXPECT_EQ(r.lower, weak);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, weak);
}

#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
TEST(ExactSweep, CudaSweepOutOfDeviceMemoryGivesAnIntervalGpu) {
  // A device too small for the counts of a progress sum: the sweep stops with the documented
  // proven interval (not a bad_alloc), for both CUDA searches.
  WARPSPAN_REQUIRE_GPU();
  const problem voronoi = test::make("5L9C2L9C", 6, 1, 4);
  emu::set_memory_limit(8 * 1024);
  const exact_result sweep = exact_sweep_cuda(voronoi);
  const exact_result levels = exact_frontier_cuda(voronoi);
  emu::set_memory_limit(0);
  for (const exact_result* r : {&sweep, &levels}) {
    EXPECT_FALSE(r->complete);
    EXPECT_NE(r->stop_reason.find("GPU memory"), std::string::npos) << r->stop_reason;
    EXPECT_LE(r->lower, 67u);  // T(6) of the Voronoi kernel
    EXPECT_GE(r->upper, 67u);
  }
}

TEST(ExactSweep, CudaSearchesCheckEveryAllocationOnAnyDeviceSizeGpu) {
  // Devices from 64 KiB (the least room kept for a scan's scratch) up to what each search needs at its
  // peak: each search either finishes with the optimum or stops with "GPU memory" and a proven
  // interval around it; no allocation may fail (its std::bad_alloc or CUDA error would escape).
  // The emulated device counts every vector (common/device_vector.cuh) and Thrust's temporaries.
  WARPSPAN_REQUIRE_GPU();
  const problem prob = test::make("5L9C2L9C", 5, 1, 4);
  const std::pair<const char*, std::function<exact_result(const problem&, const exact_options&)>> searches[] = {
      {"sweep", [](const problem& p, const exact_options& o) { return exact_sweep_cuda(p, o); }},
      {"frontier", [](const problem& p, const exact_options& o) { return exact_frontier_cuda(p, o.frontier()); }}};
  for (const auto& [name, search] : searches) {
    emu::allocation_peak(true);
    const exact_result full = search(prob, {});
    const std::size_t peak = emu::allocation_peak(true), slack = std::size_t{64} << 10;
    ASSERT_TRUE(full.complete) << name;
    ASSERT_GT(peak, 8 * slack) << name;  // the vectors count
    for (std::size_t k = 0; k < 6; ++k) {
      const std::size_t limit = slack + (peak - slack) * k / 6;
      exact_result r;
      {
        const emu::device_memory_scope small(limit);
        r = search(prob, {});
      }
      if (r.complete) {
        EXPECT_EQ(r.upper, full.upper) << name << " on " << limit << " bytes";
        continue;
      }
      EXPECT_NE(r.stop_reason.find("GPU memory"), std::string::npos)
          << name << " on " << limit << " bytes: " << r.stop_reason;
      EXPECT_LE(r.lower, full.upper) << name << " on " << limit << " bytes";
      EXPECT_GE(r.upper, full.upper) << name << " on " << limit << " bytes";
    }
  }
}
#endif

TEST(ExactSweep, CudaSweepMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  std::mt19937_64 rng(77);
  for (int k = 0; k < test::gpu_test_size(80, 12); ++k) {
    const problem prob = sweep_problem(rng, 7);
    for (const bool prune : {false, true}) {
      exact_options o;
      o.prune = prune;
      const exact_result cpu = exact_sweep_cpu(prob, o);
      const exact_result gpu = exact_sweep_cuda(prob, o);
      ASSERT_TRUE(gpu.complete) << gpu.stop_reason;
      ASSERT_EQ(gpu.makespan, cpu.makespan) << k;
      ASSERT_EQ(gpu.states, cpu.states) << k;
      ASSERT_EQ(gpu.pruned, cpu.pruned) << k;
      ASSERT_EQ(build_schedule(prob, gpu.best_string).makespan, gpu.makespan) << k;
    }
  }
  for (int w = 4; w <= test::gpu_test_size(8, 6); ++w) {
    const problem voronoi = test::make("5L9C2L9C", w, 1, 4);
    const exact_result cpu = exact_sweep_cpu(voronoi), gpu = exact_sweep_cuda(voronoi);
    EXPECT_EQ(gpu.makespan, cpu.makespan) << w;
    EXPECT_EQ(gpu.states, cpu.states) << w;
  }
  // A witness budget too small for the first pass: the second pass must find the witness.
  exact_options tight;
  tight.witness_states = 10;
  const problem voronoi = test::make("5L9C2L9C", 5, 1, 4);
  const exact_result gpu = exact_sweep_cuda(voronoi, tight);
  EXPECT_EQ(build_schedule(voronoi, gpu.best_string).makespan, gpu.makespan);
}

// Pending buffers reduced in place as they fill (a few entries, not 2^26): the same states, bound
// and witness as the CPU sweep, and buffers that are reduced more than once along the way.
TEST(ExactSweep, CompactedPendingBuffersMatchCpuGpu) {
  WARPSPAN_REQUIRE_GPU();
  std::mt19937_64 rng(91);
  for (int k = 0; k < test::gpu_test_size(20, 6); ++k) {
    const problem prob = sweep_problem(rng, 7);
    for (const std::size_t compact : {std::size_t{1}, std::size_t{7}}) {
      exact_options o;
      o.device_compact_entries = compact;
      const exact_result cpu = exact_sweep_cpu(prob, o);
      const exact_result gpu = exact_sweep_cuda(prob, o);
      ASSERT_TRUE(gpu.complete) << gpu.stop_reason;
      ASSERT_EQ(gpu.makespan, cpu.makespan) << k;
      ASSERT_EQ(gpu.states, cpu.states) << k;
      ASSERT_EQ(gpu.pruned, cpu.pruned) << k;
      ASSERT_EQ(build_schedule(prob, gpu.best_string).makespan, gpu.makespan) << k;
    }
  }
  const problem voronoi = test::make("5L9C2L9C", 6, 1, 4);
  exact_options o;
  o.device_compact_entries = 3;
  const exact_result cpu = exact_sweep_cpu(voronoi, o), gpu = exact_sweep_cuda(voronoi, o);
  EXPECT_EQ(gpu.makespan, cpu.makespan);
  EXPECT_EQ(gpu.states, cpu.states);
}

}  // namespace
}  // namespace warpspan
