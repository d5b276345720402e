// A path per warp (issue 40, item 3): warps in groups, each group running its own kernel
// (--warp-kernels K1:n1,K2:n2). The builder, the depth-first exact search and the pessimistic bound
// against the brute force over work-conserving schedules (and over all strings), one group against
// today's one-kernel problem, the incremental rebuilds against full builds, the hand-counted example
// of docs/makespan.md ("A path per warp"), and the searches that refuse per-warp kernels.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "brute_force.hpp"
#include "emulation_hooks.hpp"
#include "test_util.hpp"
#include "warpspan/exact/beam.hpp"
#include "warpspan/exact/ilp.hpp"
#include "warpspan/exact/interval.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/makespan/anneal.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/detail/makespan/checkpoints.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

normalized_sm small_sm(int sigma_l, int sigma_c, int schedulers) {
  normalized_sm sm;
  sm.sigma = {sigma_l, sigma_c, 0, 0};
  for (int u = 0; u < unit_count; ++u) sm.copies[u] = sm.sigma[u] > 0 ? 1 : 0;
  sm.schedulers = schedulers;
  return sm;
}

/// A problem of groups ("LCL:2,CCL:1"), sigma_L, sigma_C, a scheduler limit (0: none) and blocks
/// of `block` warps (0: one block).
problem groups(const std::string& text, int sigma_l, int sigma_c, int schedulers = 0, int block = 0) {
  return make_problem(parse_warp_kernels(text), small_sm(sigma_l, sigma_c, schedulers), block);
}

/// The longest schedule over every string with one (the strings that break a barrier have none).
std::uint32_t best_of_shared_builder(const problem& prob) {
  std::vector<std::uint16_t> s = fixed_priority_string(prob.view());  // sorted
  const chain_layout layout = make_chain_layout(prob.view());
  std::vector<unsigned char> block(layout.bytes);
  const chain_view c = chain_view_at(block.data(), layout);
  std::uint32_t best = 0;
  do {
    std::copy(s.begin(), s.end(), c.str);
    const std::uint32_t m = build_full_host(prob.view(), c);
    EXPECT_EQ(m == no_schedule, !barrier_breach(prob, s).empty());
    if (m != no_schedule) {
      best = std::max(best, m);
      // The shared builder (the annealing's, host and device) places every instruction alike.
      const std::vector<std::uint32_t> cycles(c.cycle, c.cycle + prob.length());
      EXPECT_EQ(build_full(prob.view(), c), m);
      EXPECT_EQ(std::vector<std::uint32_t>(c.cycle, c.cycle + prob.length()), cycles);
    }
  } while (std::next_permutation(s.begin(), s.end()));
  return best;
}

struct group_case {
  const char* groups;
  int sigma_l, sigma_c, schedulers, block;
};

// Two and three groups, with and without a scheduler limit and barriers (one block, and blocks of
// warps of different kernels with as many barriers).
const group_case cases[] = {
    {"LCL:2,CCL:1", 1, 1, 0, 0},  {"LCL:1,CCL:2", 1, 1, 0, 0},       {"LLC:1,C:1,CL:1", 1, 1, 0, 0},
    {"LC:2,CCC:1", 1, 2, 0, 0},   {"LCL:2,CC:1", 1, 2, 1, 0},        {"LLC:1,CLC:1,C:1", 2, 1, 2, 0},
    {"LBC:2,CBL:1", 1, 1, 0, 0},  {"LCBL:1,BCC:2", 1, 1, 0, 0},      {"LBC:1,CBLL:1,BC:1", 1, 2, 2, 0},
    {"LBC:2,CCBL:2", 1, 1, 0, 2}, {"LBC:1,CBL:1,LBL:2", 1, 1, 0, 2}, {"LC:2,LBC:2", 1, 1, 0, 2},
};

std::string name(const group_case& c) {
  return std::string(c.groups) + " sigma " + std::to_string(c.sigma_l) + "/" + std::to_string(c.sigma_c) +
         " S=" + std::to_string(c.schedulers) + " block " + std::to_string(c.block);
}

TEST(WarpKernels, BuilderSearchAndBoundMatchBruteForce) {
  for (const group_case& gc : cases) {
    const problem prob = groups(gc.groups, gc.sigma_l, gc.sigma_c, gc.schedulers, gc.block);
    ASSERT_TRUE(prob.per_warp()) << name(gc);
    const std::uint32_t brute = test::brute_worst(prob);
    // Every work-conserving schedule is the schedule of a string, and back.
    EXPECT_EQ(best_of_shared_builder(prob), brute) << name(gc);
    // The pessimistic bound holds.
    EXPECT_GE(pessimistic_bound(prob), brute) << name(gc);
    // The depth-first search, in blocks too (a group per block's run of one string).
    const exact_result r = exact_search_cpu(prob);
    ASSERT_TRUE(r.complete) << name(gc);
    EXPECT_EQ(r.makespan, brute) << name(gc);
    EXPECT_EQ(build_schedule(prob, r.best_string).makespan, brute) << name(gc);
    // The dispatcher picks the depth-first search for per-warp kernels.
    std::string used;
    EXPECT_EQ(exact_search(prob, {}, backend_kind::cpu, &used).makespan, brute) << name(gc);
    EXPECT_EQ(used, "depth-first");
    // estimate's proof step: the depth-first search proves the worst case.
    const proven_interval proven =
        prove_interval(prob, initial_string(prob.view(), initial_kind::fixed_priority, 0, 0), 10);
    EXPECT_TRUE(proven.exact) << name(gc);
    EXPECT_EQ(proven.upper, brute) << name(gc);
    EXPECT_EQ(proven.lower, brute) << name(gc);
  }
}

TEST(WarpKernels, BoundIsThePathFormulaByHand) {
  // LC:2, CCC:1, sigma_L = 1, sigma_C = 2 (W = 3): a path issues one warp's string, at most 3
  // instructions and at least 0 L and 1 C; the other warps' 2 L and 4 C stall it at most
  // floor(2 / 1) + floor(4 / 2) = 4 cycles: 3 + 4 = 7. For V = C: all 5 C, the path's non-C (at
  // most 1) and the L stalls (2): 8; for V = L: 2 + 3 + 2 = 7. Every schedule takes 3 cycles (warp
  // 3's C issue in 1, 2, 3: at most two C a cycle and warps 1 and 2 have one each; their L go in
  // 1 and 2 and their C by 3).
  const problem prob = groups("LC:2,CCC:1", 1, 2);
  EXPECT_EQ(pessimistic_bound(prob), 7u);
  EXPECT_EQ(test::brute_worst(prob), 3u);
}

TEST(WarpKernels, OneGroupIsTheOneKernelProblem) {
  const normalized_sm sm = small_sm(1, 2, 0);
  for (const char* kernel : {"LCL", "2L3CL", "LBCCBL"})
    for (int warps : {1, 3, 4}) {
      const problem one = make_problem(parse_kernel_string(kernel), sm, warps);
      // One group of W warps, and groups that all run the kernel.
      const std::string text = std::string(kernel) + ":" + std::to_string(warps);
      const std::string split =
          warps > 1 ? std::string(kernel) + ":1," + kernel + ":" + std::to_string(warps - 1) : text;
      for (const std::string& g : {text, split}) {
        const problem prob = make_problem(parse_warp_kernels(g), sm);
        EXPECT_FALSE(prob.per_warp()) << g;
        EXPECT_EQ(prob.warps, one.warps);
        EXPECT_EQ(prob.types, one.types);
        EXPECT_EQ(prob.length(), one.length());
        EXPECT_EQ(pessimistic_bound(prob), pessimistic_bound(one)) << g;
        EXPECT_EQ(pessimistic_formula_001(prob), pessimistic_formula_001(one)) << g;
        EXPECT_EQ(exact_search_cpu(prob).makespan, exact_search_cpu(one).makespan) << g;
        EXPECT_EQ(exact_search(prob, {}, backend_kind::cpu).makespan,
                  exact_search(one, {}, backend_kind::cpu).makespan);
        estimate_options o;
        o.chains = 3;
        o.iterations = 400;
        o.threads = 1;
        o.backend = backend_kind::cpu;
        const estimate_result a = run_estimate(prob, o), b = run_estimate(one, o);
        EXPECT_EQ(a.best_makespan, b.best_makespan) << g;
        EXPECT_EQ(a.best_string, b.best_string) << g;
      }
    }
}

TEST(WarpKernels, GroupsNumberTheWarpsInOrder) {
  const problem prob = groups("LCL:2,CC:1,LLLL:2", 1, 1);
  EXPECT_TRUE(prob.per_warp());
  EXPECT_EQ(prob.warps, 5u);
  EXPECT_EQ(prob.length(), 3u + 3 + 2 + 4 + 4);
  EXPECT_EQ(prob.instructions(), 4u);  // the longest warp's
  const problem_view p = prob.view();
  const std::uint32_t lengths[] = {3, 3, 2, 4, 4};
  for (std::uint32_t w = 0; w < 5; ++w) EXPECT_EQ(warp_length(p, w), lengths[w]);
  EXPECT_EQ(warp_begin(p, 2), 6u);
  EXPECT_EQ(prob.type_unit[type_at(p, 2, 1)], unit::C);
  EXPECT_EQ(prob.type_unit[type_at(p, 4, 3)], unit::L);
  EXPECT_EQ(prob.kernel_text(), "LCL:2,2C:1,4L:2");
  EXPECT_EQ(prob.group_of(4), 2u);
  // The round-robin string takes each warp's instructions as long as it has some.
  EXPECT_EQ(round_robin_string(p), (std::vector<std::uint16_t>{0, 1, 2, 3, 4, 0, 1, 2, 3, 4, 0, 1, 3, 4, 3, 4}));
}

TEST(WarpKernels, HandCountedExample) {
  // docs/makespan.md, "A path per warp": warp 1 runs LCL, warps 2 and 3 run CCL, sigma_L = sigma_C
  // = 1. Round robin (1 2 3 1 2 3 1 2 3): warp 1 L 1; warp 2 C 1; warp 3 C 2; warp 1 C 3; warp 2
  // C 4; warp 3 C 5; warp 1 L 4; warp 2 L 5; warp 3 L 6.
  const problem prob = groups("LCL:1,CCL:2", 1, 1);
  const built_schedule rr = build_schedule(prob, round_robin_string(prob.view()));
  EXPECT_EQ(rr.cycle, (std::vector<std::uint32_t>{1, 3, 4, 1, 4, 5, 2, 5, 6}));
  EXPECT_EQ(rr.makespan, 6u);
  // 1 2 2 2 3 3 1 3 1: warp 1's C waits behind all four C of the others (cycles 1-4), so its last
  // L issues at 6. No schedule is longer (the brute force over every work-conserving schedule and
  // the depth-first search).
  const built_schedule w = build_schedule(prob, std::vector<std::uint16_t>{0, 1, 1, 1, 2, 2, 0, 2, 0});
  EXPECT_EQ(w.cycle, (std::vector<std::uint32_t>{1, 5, 6, 1, 2, 3, 3, 4, 5}));
  EXPECT_EQ(w.makespan, 6u);
  EXPECT_EQ(test::brute_worst(prob), 6u);
  EXPECT_EQ(exact_search_cpu(prob).makespan, 6u);
  EXPECT_EQ(pessimistic_bound(prob), 10u);
  // Each kernel alone for the three warps has a longer worst case.
  EXPECT_EQ(exact_search_cpu(make_problem(parse_kernel_string("LCL"), small_sm(1, 1, 0), 3)).makespan, 7u);
  EXPECT_EQ(exact_search_cpu(make_problem(parse_kernel_string("CCL"), small_sm(1, 1, 0), 3)).makespan, 7u);
}

TEST(WarpKernels, IncrementalRebuildsMatchFullBuilds) {
  std::mt19937 rng(40);
  for (const group_case& gc : cases) {
    const problem prob = groups(gc.groups, gc.sigma_l, gc.sigma_c, gc.schedulers, gc.block);
    const problem_view p = prob.view();
    const chain_layout layout = make_chain_layout(p);
    std::vector<unsigned char> a_block(layout.bytes), b_block(layout.bytes);
    const chain_view a = chain_view_at(a_block.data(), layout), b = chain_view_at(b_block.data(), layout);
    std::vector<std::uint16_t> s = round_robin_string(p);
    keep_barriers(p, s);
    std::copy(s.begin(), s.end(), a.str);
    std::uint32_t m = build_full(p, a);
    ASSERT_NE(m, no_schedule);
    chain_checkpoints ck(p, 2);
    std::copy(s.begin(), s.end(), b.str);
    ASSERT_EQ(build_full(p, b), m);
    ck.capture(p, b);
    for (int step = 0; step < 300; ++step) {
      const std::uint32_t i = rng() % p.length, j = rng() % p.length;
      if (a.str[i] == a.str[j]) continue;
      const std::uint32_t z = std::min(i, j), settle = std::max(i, j);
      std::swap(a.str[i], a.str[j]);
      std::swap(b.str[i], b.str[j]);
      const std::uint32_t got = rebuild_from(p, a, z, settle, m, true);
      const std::uint32_t got_ck = ck.candidate(p, b, z, settle, m);
      EXPECT_EQ(got, got_ck) << name(gc);
      std::vector<std::uint16_t> now(a.str, a.str + p.length);
      const bool broken = !barrier_breach(prob, now).empty();
      EXPECT_EQ(got == no_schedule, broken) << name(gc);
      // As the annealing does: a shorter candidate may be rejected (a longer or equal one is
      // taken, and a rebuild that settled early returned the old makespan).
      if (got == no_schedule || (got < m && rng() % 2)) {  // rejected: back to the old string and schedule
        if (got != no_schedule) {
          restore_suffix(p, a, z);
          ck.rejected(p, b, z);
        }
        std::swap(a.str[i], a.str[j]);
        std::swap(b.str[i], b.str[j]);
      } else {
        ck.accepted();
        m = got;
        EXPECT_EQ(m, build_schedule(prob, now).makespan) << name(gc);
      }
      EXPECT_EQ(std::vector<std::uint32_t>(a.cycle, a.cycle + p.length),
                std::vector<std::uint32_t>(b.cycle, b.cycle + p.length))
          << name(gc);
    }
  }
}

TEST(WarpKernels, CpuRunnerFollowsTheSharedStep) {
  // The CPU runner's checkpointed rebuild makes the shared step's trajectory (the GPU's).
  const problem prob = groups("LBCCL:3,CBLLC:2,2CBC:2", 1, 2, 3);
  const problem_view p = prob.view();
  chain_setup setup;
  setup.prob = &prob;
  setup.params.seed = 41;
  setup.params.iter_max = 3000;
  estimate_options mix;
  mix.seed = setup.params.seed;
  for (std::uint32_t c = 0; c < 6; ++c) setup.chain_ids.push_back(c * 3 + 1);
  setup.initial = chain_initial_strings(prob, mix, setup.chain_ids);
  auto cpu = make_cpu_runner(setup, 1);
  cpu->advance(setup.params.iter_max);
  const auto summaries = cpu->summaries();
  const chain_layout layout = make_chain_layout(p);
  for (std::size_t c = 0; c < setup.chain_ids.size(); ++c) {
    std::vector<unsigned char> block(layout.bytes);
    const chain_view v = chain_view_at(block.data(), layout);
    std::copy_n(setup.initial.begin() + static_cast<std::ptrdiff_t>(c * p.length), p.length, v.str);
    std::vector<std::uint16_t> best(p.length);
    chain_state s;
    anneal_init(p, v, best.data(), s);
    anneal_run(p, v, best.data(), s, setup.params, setup.chain_ids[c], setup.params.iter_max);
    EXPECT_EQ(s.best, summaries[c].best) << c;
    EXPECT_EQ(s.makespan, summaries[c].current) << c;
    EXPECT_EQ(best, cpu->best_string(c)) << c;
    EXPECT_EQ(build_schedule(prob, best).makespan, s.best) << c;
    EXPECT_LE(s.best, pessimistic_bound(prob));
  }
}

TEST(WarpKernels, EstimateFindsTheWorstCaseAndProvesIt) {
  const problem prob = groups("LCL:2,CCL:2", 1, 1);
  estimate_options o;
  o.chains = 4;
  o.iterations = 2000;
  o.threads = 1;
  o.backend = backend_kind::cpu;
  const estimate_result r = run_estimate(prob, o);
  const std::uint32_t brute = test::brute_worst(prob);
  EXPECT_EQ(r.best_makespan, brute);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
  EXPECT_EQ(r.upper_bound, pessimistic_bound(prob));
}

TEST(WarpKernels, SearchesWithoutPerWarpKernelsRefuse) {
  const problem prob = groups("LCL:2,CCL:1", 1, 1);
  for (const auto& refused :
       {test::error_of([&] { exact_dense_cpu(prob); }), test::error_of([&] { exact_sweep_cpu(prob); }),
        test::error_of([&] { exact_frontier_cpu(prob); }),
        test::error_of([&] { ilp_lp_text(prob, 0, ilp_constraints::short_form); }),
        test::error_of([&] { exact_t_runs(prob, 2, 0); })})
    EXPECT_NE(refused.find("per-warp kernels (warp_kernels)"), std::string::npos) << refused;
  EXPECT_FALSE(beam_search(prob).applicable);
  // Warps of one block must issue as many barriers (the k-th pairs with the k-th).
  EXPECT_NE(test::error_of([&] { groups("LBC:1,CL:1", 1, 1); }).find("same barriers"), std::string::npos);
  EXPECT_NO_THROW(groups("LBC:1,BCL:1,CL:2", 1, 1, 0, 2));  // blocks 1-2 and 3-4
}

TEST(WarpKernels, ParsedGroupsAndTheirErrors) {
  const std::vector<warp_group> g = parse_warp_kernels("LCL:2,5L9C:14");
  ASSERT_EQ(g.size(), 2u);
  EXPECT_EQ(to_run_length(g[1].kernel), "5L9C");
  EXPECT_EQ(g[1].warps, 14u);
  EXPECT_NE(test::error_of([] { parse_warp_kernels("LCL:0"); }).find("group 1 has count '0'"), std::string::npos);
  EXPECT_NE(test::error_of([] { parse_warp_kernels("LCL:2,"); }).find("group 2 is empty"), std::string::npos);
  EXPECT_NE(test::error_of([] { parse_warp_kernels("LCL"); }).find("has no count"), std::string::npos);
  EXPECT_NE(test::error_of([] { parse_warp_kernels(":3"); }).find("has no kernel"), std::string::npos);
  EXPECT_NE(test::error_of([] { parse_warp_kernels("LXL:3"); }).find("group 1: kernel string"), std::string::npos);
  // A kernel with white space inside would be two kernels run as one.
  const std::string spaced = test::error_of([] { parse_kernel_string("LCL CCL"); });
  EXPECT_NE(spaced.find("white space at position 4"), std::string::npos) << spaced;
  EXPECT_NE(spaced.find("warp_kernels"), std::string::npos) << spaced;
  EXPECT_EQ(to_run_length(parse_kernel_string(" 5L_9C\n")), "5L9C");  // around it, nothing
}

TEST(WarpKernels, AnnealChainsMatchesCpu) {
  WARPSPAN_REQUIRE_GPU();
  for (int k : {0, 1, 2}) {
    // Barriers in one block with a scheduler limit, in blocks of 2; and 64 warps whose chain state
    // is too big for the chip (global memory, a thread a chain: left to itself the plan gives
    // these chains a warp each, CudaAnneal.WarpDesignMatchesCpu).
    const problem prob = k == 0   ? groups("3LCB2C:3,CBLLC:2,2CBC:2", 1, 2, 3)
                         : k == 1 ? groups("3LCB2C:2,CBLLC:2,2CBC:2", 1, 2, 0, 2)
                                  : groups("20L20C20L:40,20C20L:24", 1, 2);
    const int block = k;
    chain_setup setup;
    setup.prob = &prob;
    setup.params.seed = 40;
    setup.params.iter_max = k == 2 ? test::gpu_test_size(300, 30) : test::gpu_test_size(3000, 400);
    estimate_options mix;
    mix.seed = setup.params.seed;
    for (std::uint32_t c = 0; c < 37; ++c) setup.chain_ids.push_back(c * 5 + 2);
    setup.initial = chain_initial_strings(prob, mix, setup.chain_ids);
    setup.design = chain_design::thread;
    auto cpu = make_cpu_runner(setup, 0);
    auto gpu = make_cuda_runner(setup);
    if (k == 2) EXPECT_NE(gpu->name().find("global memory"), std::string::npos) << gpu->name();
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

}  // namespace
}  // namespace warpspan
