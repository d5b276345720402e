// Barriers (B, bar.sync) in the makespan model: a warp past a barrier waits until every warp of its
// block has issued it. Hand-counted schedules, a brute force over work-conserving schedules and
// over all strings, the incremental rebuilds against full builds, and every search against them.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "brute_force.hpp"
#include "emulation_hooks.hpp"
#include "test_util.hpp"
#include "warpspan/exact/beam.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/ilp.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/detail/makespan/checkpoints.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/sm/ptx.hpp"

namespace warpspan {
namespace {

using test::kernels_with_barriers;
using test::make_blocks;

/// The longest schedule over every string with one (the strings that break a barrier have none).
std::uint32_t best_over_all_strings(const problem& prob, std::uint32_t* with_schedule = nullptr) {
  std::vector<std::uint16_t> s = fixed_priority_string(prob.view());  // sorted
  const chain_layout layout = make_chain_layout(prob.view());
  std::vector<unsigned char> block(layout.bytes);
  const chain_view c = chain_view_at(block.data(), layout);
  std::uint32_t best = 0, kept = 0;
  do {
    std::copy(s.begin(), s.end(), c.str);
    const std::uint32_t m = build_full_host(prob.view(), c);
    EXPECT_EQ(m == no_schedule, !barrier_breach(prob, s).empty());
    if (m != no_schedule) {
      best = std::max(best, m);
      ++kept;
    }
  } while (std::next_permutation(s.begin(), s.end()));
  if (with_schedule) *with_schedule = kept;
  return best;
}

TEST(Barriers, KernelStringsCarryTheLetterB) {
  const kernel_string k = parse_kernel_string("5L9CB2L9C");
  EXPECT_EQ(k.size(), 26u);
  EXPECT_EQ(k[14], unit::B);
  EXPECT_EQ(to_run_length(k), "5L9CB2L9C");
  EXPECT_EQ(to_plain(parse_kernel_string("LB2C")), "LBCC");
  // B is no unit: sigma cannot name it, and normalisation keeps it one instruction.
  sm_config sm;
  EXPECT_NE(test::error_of([&] { apply_sigma_overrides(sm, "B=1"); }), "");
  normalized_sm norm;
  norm.sigma = {1, 1, 0, 0};
  norm.copies = {3, 2, 0, 0};
  EXPECT_EQ(to_plain(normalize_kernel(parse_kernel_string("LBC"), norm)), "LLLBCC");
}

TEST(Barriers, HandCountedTwoWarps) {
  // CBC, W = 2, sigma_C = 1. Round robin 1 2 1 2 1 2: warp 1's C at 1, warp 2's at 2; the barriers
  // at 2 (warp 1) and 3 (warp 2); the second C's wait for cycle 3's barrier: 4 and 5. Without the
  // barrier's wait warp 1's second C would go at 3 and the makespan be 4.
  const problem prob = test::make("CBC", 2, 0, 1);
  const built_schedule s = build_schedule(prob, test::ids({1, 2, 1, 2, 1, 2}));
  EXPECT_EQ(s.makespan, 5u);
  EXPECT_EQ(s.cycle, (std::vector<std::uint32_t>{1, 2, 4, 2, 3, 5}));
  EXPECT_EQ(test::brute_worst(prob), 5u);
  // Warp 1 all the way first breaks the barrier: no schedule, and a message that says where.
  const std::string why = test::error_of([&] { build_schedule(prob, test::ids({1, 1, 1, 2, 2, 2})); });
  EXPECT_NE(why.find("position 3 puts warp 1's instruction 3"), std::string::npos) << why;
  EXPECT_NE(why.find("before warp 2"), std::string::npos) << why;
}

TEST(Barriers, WorkedExampleOfTheDocs) {
  // docs/makespan.md: LCCBCL, W = 4, sigma_L = 1, sigma_C = 4. Loads at 1..4, the last warp's
  // barrier at 7 at the earliest, every C after it at 8, the last loads at 9..12: every schedule
  // takes 12 cycles (the best and the worst). Read as a C, the barrier-free kernel's worst is 9.
  const problem prob = test::make("LCCBCL", 4, 1, 4);
  EXPECT_EQ(test::brute_worst(prob), 12u);
  const built_schedule rr = build_schedule(prob, round_robin_string(prob.view()));
  EXPECT_EQ(rr.makespan, 12u);
  for (std::uint32_t w = 0; w < 4; ++w) {
    EXPECT_EQ(rr.cycle[w * 6 + 0], w + 1);  // L
    EXPECT_EQ(rr.cycle[w * 6 + 4], 8u);     // the C after the barrier
    EXPECT_EQ(rr.cycle[w * 6 + 5], 9 + w);  // L
  }
  EXPECT_EQ(exact_dense_cpu(prob).makespan, 12u);
  EXPECT_EQ(test::brute_worst(test::make("LCCCCL", 4, 1, 4)), 9u);
  EXPECT_GE(pessimistic_bound(prob), 12u);
}

TEST(Barriers, StringsBuildExactlyTheWorkConservingSchedules) {
  // Over every string: the longest schedule equals the brute force over schedules, and a string
  // has a schedule iff it keeps the barriers. W = 2 and 3, one block; sigma and a scheduler limit.
  for (int length = 2; length <= 3; ++length)
    for (const std::string& k : kernels_with_barriers(length))
      for (int warps : {2, 3})
        for (int schedulers : {0, 1, 2}) {
          const problem prob = make_blocks(k, warps, 1, 2, schedulers, 0);
          EXPECT_EQ(best_over_all_strings(prob), test::brute_worst(prob))
              << k << " W=" << warps << " schedulers=" << schedulers;
        }
}

TEST(Barriers, BlocksWaitOnlyForTheirOwnWarps) {
  // LBL, W = 4, sigma_L = 1: in one block every second L waits for the last first L (cycle 4 at
  // the earliest, its barrier at 5), so the worst case is 9 = 4 + 1 + 4; in two blocks of 2 the
  // first block can go on before the second's loads, and the brute force and the strings agree.
  const problem one = make_blocks("LBL", 4, 1, 1, 0, 0);
  const problem two = make_blocks("LBL", 4, 1, 1, 0, 2);
  EXPECT_EQ(test::brute_worst(one), best_over_all_strings(one));
  EXPECT_EQ(test::brute_worst(two), best_over_all_strings(two));
  EXPECT_EQ(two.block_warps(), 2u);
  for (const std::string& k : {std::string("LBC"), std::string("CBL"), std::string("BLC"), std::string("LCB")}) {
    const problem p = make_blocks(k, 4, 1, 1, 0, 2);
    EXPECT_EQ(test::brute_worst(p), best_over_all_strings(p)) << k;
    EXPECT_GE(pessimistic_bound(p), test::brute_worst(p)) << k;
  }
  EXPECT_NE(test::error_of([] { make_blocks("LBL", 4, 1, 1, 0, 3); }).find("block_warps 3 must divide"),
            std::string::npos);
}

TEST(Barriers, PessimisticBoundHoldsOnEverySmallKernel) {
  for (int length = 2; length <= 4; ++length)
    for (const std::string& k : kernels_with_barriers(length))
      for (int warps : {2, 3})
        for (int schedulers : {0, 1, 2}) {
          const problem prob = make_blocks(k, warps, 1, 2, schedulers, 0);
          EXPECT_GE(pessimistic_bound(prob), test::brute_worst(prob)) << k << " W=" << warps;
        }
}

TEST(Barriers, ExactSearchesEqualTheBruteForce) {
  std::mt19937 rng(7);
  for (int length = 2; length <= 4; ++length)
    for (const std::string& k : kernels_with_barriers(length)) {
      if (rng() % 3 != 0 && length == 4) continue;  // a third of the 4-letter kernels
      for (int warps : {2, 3, 4})
        for (int schedulers : {0, 2}) {
          const problem prob = make_blocks(k, warps, 1, 2, schedulers, 0);
          const std::uint32_t worst = test::brute_worst(prob);
          exact_options o;
          const exact_result dense = exact_dense_cpu(prob, o.dense());
          const exact_result sweep = exact_sweep_cpu(prob, o);
          const exact_result dfs = exact_search_cpu(prob, o.depth_first());
          EXPECT_EQ(dense.makespan, worst) << k << " W=" << warps << " S=" << schedulers;
          EXPECT_EQ(sweep.makespan, worst) << k << " W=" << warps << " S=" << schedulers;
          EXPECT_EQ(dfs.makespan, worst) << k << " W=" << warps << " S=" << schedulers;
          // Each witness keeps the barriers and builds the worst case.
          EXPECT_EQ(build_schedule(prob, dense.best_string).makespan, worst);
          EXPECT_EQ(build_schedule(prob, sweep.best_string).makespan, worst);
          EXPECT_EQ(build_schedule(prob, dfs.best_string).makespan, worst);
          // The remaining-work bound holds from the start.
          const frontier_view v = make_frontier_view(prob.view());
          EXPECT_GE(remaining_bound(v, initial_state(v)), worst) << k << " W=" << warps;
          beam_options bo;
          bo.width = 4;
          const beam_result b = beam_search(prob, bo);
          ASSERT_TRUE(b.applicable);
          EXPECT_LE(b.makespan, worst);
          EXPECT_EQ(build_schedule(prob, b.string).makespan, b.makespan);
        }
    }
}

TEST(Barriers, RemainingBoundHoldsInEveryReachableState) {
  // From every state the level search reaches, the bound is at least the longest way on (by the
  // brute force's own semantics: the DFS of the exact search memoises exactly that).
  for (const char* kernel : {"LCBLC", "LBLBL", "CCBLL", "LLBCB"})
    for (int schedulers : {0, 2}) {
      const problem prob = make_blocks(kernel, 4, 1, 2, schedulers, 0);
      const frontier_view v = make_frontier_view(prob.view());
      // Levels of the search: every state reached, with the longest remaining path by a DP.
      std::vector<packed_state> level{initial_state(v)}, seen;
      while (!level.empty()) {
        std::vector<packed_state> next;
        for (packed_state s : level) {
          seen.push_back(s);
          successor_enum e;
          if (!e.start(v, s)) continue;
          do next.push_back(e.successor(v));
          while (e.advance(v));
        }
        std::sort(next.begin(), next.end());
        next.erase(std::unique(next.begin(), next.end()), next.end());
        level = std::move(next);
      }
      std::sort(seen.begin(), seen.end());
      seen.erase(std::unique(seen.begin(), seen.end()), seen.end());
      std::map<packed_state, std::uint32_t> longest;
      std::function<std::uint32_t(packed_state)> way_on = [&](packed_state s) -> std::uint32_t {
        if (auto it = longest.find(s); it != longest.end()) return it->second;
        std::uint32_t best = 0;
        successor_enum e;
        if (e.start(v, s)) do
            best = std::max(best, 1 + way_on(e.successor(v)));
          while (e.advance(v));
        longest[s] = best;
        return best;
      };
      EXPECT_EQ(way_on(initial_state(v)), test::brute_worst(prob)) << kernel;
      for (packed_state s : seen) EXPECT_GE(remaining_bound(v, s), way_on(s)) << kernel;
    }
}

TEST(Barriers, DepthFirstSearchTakesBlocks) {
  // Blocks of fewer than W warps: the depth-first search tells the blocks' warps apart (a group
  // per block) and keys interchangeable blocks once. Against the brute force over schedules on
  // every kernel over {L, C, B} of 2 and 3 letters with a barrier, W = 4 in blocks of 2 and 1 and
  // W = 6 in blocks of 2 and 3, with and without a scheduler limit; its witness builds the value.
  for (int length = 2; length <= 3; ++length)
    for (const std::string& k : kernels_with_barriers(length))
      for (const auto& [warps, block] : {std::pair{4, 2}, std::pair{4, 1}, std::pair{6, 2}, std::pair{6, 3}})
        for (int schedulers : {0, 2}) {
          if (warps == 6 && length == 3 && schedulers == 0 && k[0] == 'B') continue;  // keep it quick
          const problem prob = make_blocks(k, warps, 1, 2, schedulers, block);
          const std::uint32_t worst = test::brute_worst(prob);
          const exact_result dfs = exact_search_cpu(prob, {});
          ASSERT_TRUE(dfs.complete);
          EXPECT_EQ(dfs.makespan, worst) << k << " W=" << warps << " block=" << block << " S=" << schedulers;
          EXPECT_EQ(build_schedule(prob, dfs.best_string).makespan, worst) << k << " W=" << warps;
          // exact_search routes it to the depth-first search.
          std::string used;
          EXPECT_EQ(exact_search(prob, exact_options{}, backend_kind::cpu, &used).makespan, worst);
          EXPECT_EQ(used, "depth-first");
        }
  // Interchangeable blocks share memo entries. Blocks of one warp over 4 warps of LBLBL (5
  // levels each): keyed canonically the states are multisets of the warps' progress, at most
  // C(5 + 4, 4) = 126 of them; told apart, the search reached 607 (measured with the sort off).
  const exact_result ones = exact_search_cpu(make_blocks("LBLBL", 4, 1, 1, 0, 1), {});
  EXPECT_EQ(ones.makespan, test::brute_worst(make_blocks("LBLBL", 4, 1, 1, 0, 1)));
  EXPECT_LE(ones.states, 126u);
}

TEST(Barriers, LevelSearchesRefuseBlocksTheyCannotTellApart) {
  const problem prob = make_blocks("LBL", 4, 1, 1, 0, 2);
  EXPECT_FALSE(frontier_packs(prob));
  EXPECT_NE(test::error_of([&] { exact_sweep_cpu(prob, {}); }).find("one block"), std::string::npos);
  EXPECT_FALSE(beam_search(prob, beam_options{}).applicable);
  // Without barriers blocks change nothing: the searches take any block size.
  EXPECT_TRUE(frontier_packs(make_blocks("LCL", 4, 1, 1, 0, 2)));
}

/// Random swaps, some breaking a barrier: the shared rebuild and the checkpoints give the full
/// build's makespan (or no_schedule with the old schedule back, exactly).
void check_rebuilds(const problem& prob, std::uint64_t seed) {
  const problem_view p = prob.view();
  const chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> a(layout.bytes), b(layout.bytes), f(layout.bytes);
  const chain_view inc = chain_view_at(a.data(), layout), chk = chain_view_at(b.data(), layout),
                   full = chain_view_at(f.data(), layout);
  std::vector<std::uint16_t> s = round_robin_string(p);
  std::copy(s.begin(), s.end(), inc.str);
  std::copy(s.begin(), s.end(), chk.str);
  std::uint32_t m = build_full(p, inc);
  ASSERT_NE(m, no_schedule);
  build_full(p, chk);
  chain_checkpoints cp(p, 4);
  cp.capture(p, chk);
  std::mt19937_64 rng(seed);
  std::uint32_t broken = 0, kept = 0;
  for (int move = 0; move < 400; ++move) {
    const std::uint32_t i = rng() % p.length, j = rng() % p.length;
    if (i == j || s[i] == s[j]) continue;
    std::swap(s[i], s[j]);
    std::swap(inc.str[i], inc.str[j]);
    std::swap(chk.str[i], chk.str[j]);
    std::copy(s.begin(), s.end(), full.str);
    const std::uint32_t want = build_full(p, full);
    const std::uint32_t z = std::min(i, j), settle = std::max(i, j);
    const std::vector<std::uint32_t> before(inc.cycle, inc.cycle + p.length);
    const std::uint32_t got = rebuild_from(p, inc, z, settle, m, true);
    const std::uint32_t got_cp = cp.candidate(p, chk, z, settle, m);
    ASSERT_EQ(got, want) << "move " << move;
    ASSERT_EQ(got_cp, want) << "move " << move;
    // As in the annealing step: a candidate at least as long is taken (a rebuild that settled
    // early has nothing to restore), a shorter one now and then.
    const bool take = want != no_schedule && (want >= m || rng() % 2 == 0);
    if (want == no_schedule || !take) {
      ++(want == no_schedule ? broken : kept);
      if (want != no_schedule) {
        restore_suffix(p, inc, z);
        cp.rejected(p, chk, z);
      }
      std::swap(s[i], s[j]);
      std::swap(inc.str[i], inc.str[j]);
      std::swap(chk.str[i], chk.str[j]);
      ASSERT_EQ(std::vector<std::uint32_t>(inc.cycle, inc.cycle + p.length), before) << "move " << move;
      ASSERT_EQ(std::vector<std::uint32_t>(chk.cycle, chk.cycle + p.length), before) << "move " << move;
    } else {
      cp.accepted();
      m = got;
      ++kept;
    }
    // The incremental state equals a fresh build of the same string (usage table included).
    std::copy(inc.str, inc.str + p.length, full.str);
    ASSERT_EQ(build_full(p, full), m);
    ASSERT_TRUE(std::equal(inc.cycle, inc.cycle + p.length, full.cycle)) << "move " << move;
    const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
    ASSERT_TRUE(std::equal(inc.usage, inc.usage + cells, full.usage)) << "move " << move;
    ASSERT_TRUE(std::equal(chk.cycle, chk.cycle + p.length, full.cycle)) << "move " << move;
  }
  EXPECT_GT(broken, 10u);
  EXPECT_GT(kept, 10u);
}

TEST(Barriers, IncrementalRebuildsEqualFullBuilds) {
  check_rebuilds(make_blocks("2LB3CBL", 6, 1, 2, 0, 0), 1);
  check_rebuilds(make_blocks("2LB3CBL", 6, 1, 2, 3, 0), 2);
  check_rebuilds(make_blocks("LCBLLCB2C", 8, 1, 2, 0, 4), 3);
  check_rebuilds(make_blocks("B5L9CB2L9C", 5, 1, 4, 0, 0), 4);
}

TEST(Barriers, InitialStringsKeepTheBarriers) {
  for (int block : {0, 2}) {
    const problem prob = make_blocks("LCBLLBC", 6, 1, 2, 0, block);
    for (initial_kind kind : {initial_kind::round_robin, initial_kind::fixed_priority, initial_kind::most_pending,
                              initial_kind::random, initial_kind::starve}) {
      const auto s = initial_string(prob.view(), kind, 5, 3);
      EXPECT_EQ(barrier_breach(prob, s), "") << to_string(kind);
      EXPECT_GT(build_schedule(prob, s).makespan, 0u);
    }
  }
  // A string that keeps them stays as it is.
  const problem prob = make_blocks("LBL", 3, 1, 1, 0, 0);
  std::vector<std::uint16_t> rr = round_robin_string(prob.view());
  const auto copy = rr;
  keep_barriers(prob.view(), rr);
  EXPECT_EQ(rr, copy);
  std::vector<std::uint16_t> fp = fixed_priority_string(prob.view());  // 1 1 1 2 2 2 3 3 3
  keep_barriers(prob.view(), fp);
  EXPECT_EQ(fp, test::ids({1, 1, 2, 2, 3, 3, 1, 2, 3}));
}

TEST(Barriers, AnnealingReachesTheWorstCaseAndKeepsTheBound) {
  for (int block : {0, 2})
    for (const char* kernel : {"LCBLC", "CBLLC", "LBLBL"}) {
      const problem prob = make_blocks(kernel, 4, 1, 2, 0, block);
      estimate_options o;
      o.backend = backend_kind::cpu;
      o.chains = 8;
      o.iterations = 4000;
      const estimate_result r = run_estimate(prob, o);
      const std::uint32_t worst = test::brute_worst(prob);
      EXPECT_EQ(r.best_makespan, worst) << kernel << " block " << block;
      EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
      EXPECT_GE(r.upper_bound, worst);
    }
}

TEST(Barriers, PtxBarriersImportAsB) {
  const char* ptx = R"(.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 a)
{
  ld.param.u64 %rd1, [a];
  add.s32 %r1, %r2, %r3;
  bar.sync 0;
  barrier.sync.aligned 0;
  bar.warp.sync -1;
  bar.arrive 1, 64;
  st.global.u32 [%rd1], %r1;
  ret;
}
)";
  const ptx_import_result r = import_ptx(ptx, ptx_options{}, "k.ptx");
  EXPECT_EQ(to_plain(r.kernel), "CCBBCCLC");  // ld.param reads the constant bank: C
}

TEST(Barriers, NvccKernelsImportWithEveryLoopAndBarrier) {
  // data/kernels/barrier_kernels_sm80.ptx, as nvcc 13.0 compiled barrier_kernels.cu: the walk goes
  // through every loop (the reduction's guarded loop, the tile loop and its unrolled inner loop) to
  // `ret`, and every bar.sync on the path is a B.
  const std::string path = test::source_path("data/kernels/barrier_kernels_sm80.ptx");
  struct expect {
    const char* entry;
    std::size_t loops, barriers;
  };
  for (const expect& e : {expect{"reduce_sum", 1, 2}, expect{"matmul_tiled", 2, 2}, expect{"stencil_1d", 0, 1}}) {
    ptx_options o;
    o.entry = e.entry;
    const ptx_import_result r = import_ptx_file(path, o);
    EXPECT_NE(r.stop_reason.find("ret"), std::string::npos) << e.entry << ": " << r.stop_reason;
    EXPECT_EQ(r.loops.size(), e.loops) << e.entry;
    for (const ptx_loop& l : r.loops) EXPECT_EQ(l.passes, 1) << e.entry << " loop at " << l.head_line;
    EXPECT_EQ(static_cast<std::size_t>(std::count(r.kernel.begin(), r.kernel.end(), unit::B)), e.barriers) << e.entry;
  }
  // The reduction's worst case, W = 4, sigma L=1, C=4: 57 cycles with the barriers, 54 with them read
  // as C (the exact search; the brute force agrees on the barrier model's small cases above).
  ptx_options o;
  o.entry = "reduce_sum";
  const kernel_string k = import_ptx_file(path, o).kernel;
  EXPECT_EQ(to_run_length(k), "13CL3CLB7C2LCLB5CL3CLC");
  EXPECT_EQ(exact_dense_cpu(test::make(to_run_length(k), 4, 1, 4)).makespan, 57u);
  std::string as_c = to_run_length(k);
  std::replace(as_c.begin(), as_c.end(), 'B', 'C');
  EXPECT_EQ(exact_dense_cpu(test::make(as_c, 4, 1, 4)).makespan, 54u);
}

// The GPU paths: the same code runs there (CUDA emulation in CI, both thread orders).

TEST(Barriers, AnnealChainsMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  for (int block : {0, 2}) {
    const problem prob = make_blocks("3LCB2C2LBC", 8, 1, 2, block ? 0 : 3, block);
    chain_setup setup;
    setup.prob = &prob;
    setup.params.seed = 40;
    setup.params.iter_max = test::gpu_test_size(3000, 400);
    estimate_options mix;
    mix.seed = setup.params.seed;
    for (std::uint32_t c = 0; c < 37; ++c) setup.chain_ids.push_back(c * 5 + 2);
    setup.initial = chain_initial_strings(prob, mix, setup.chain_ids);
    auto cpu = make_cpu_runner(setup, 0);
    auto gpu = make_cuda_runner(setup);
    cpu->advance(setup.params.iter_max);
    gpu->advance(setup.params.iter_max / 2);
    gpu->advance(setup.params.iter_max - setup.params.iter_max / 2);
    const auto a = cpu->summaries(), b = gpu->summaries();
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t c = 0; c < a.size(); ++c) {
      EXPECT_EQ(a[c].best, b[c].best) << "block " << block << " chain " << c;
      EXPECT_EQ(a[c].current, b[c].current) << "chain " << c;
      EXPECT_EQ(a[c].best_iter, b[c].best_iter) << "chain " << c;
      EXPECT_EQ(cpu->best_string(c), gpu->best_string(c)) << "chain " << c;
      EXPECT_EQ(build_schedule(prob, gpu->best_string(c)).makespan, b[c].best) << "chain " << c;
    }
  }
}

TEST(Barriers, DeviceSweepsMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  for (const char* kernel : {"LCBLC", "2LBCBL", "B3C2LBC", "LCCBCL"})
    for (int warps : {3, 4, 5}) {
      const problem prob = make_blocks(kernel, warps, 1, 2, warps == 5 ? 2 : 0, 0);
      const exact_result cpu = exact_dense_cpu(prob);
      for (const exact_result& gpu : {exact_dense_cuda(prob), exact_dense_window_cuda(prob), exact_sweep_cuda(prob)}) {
        ASSERT_TRUE(gpu.complete) << gpu.stop_reason;
        EXPECT_EQ(gpu.makespan, cpu.makespan) << kernel << " W=" << warps;
        EXPECT_EQ(build_schedule(prob, gpu.best_string).makespan, gpu.makespan) << kernel << " W=" << warps;
      }
      EXPECT_EQ(exact_dense_cuda(prob).states, cpu.states) << kernel << " W=" << warps;
    }
}

}  // namespace
}  // namespace warpspan
