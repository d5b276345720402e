// The estimator under large or hostile inputs (issue 9): the host builder and the linear most-pending
// string give exactly what the reference code gives, the CPU runner keeps one pool and stops within
// a round when told, and the orchestrator reports a stop by interrupt or time as such.
#include <gtest/gtest.h>

#include <atomic>
#include <list>
#include <random>

#include "test_util.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

/// 000 Fig. 8 walked warp by warp, as the estimator did before: the reference for the linear form.
std::vector<std::uint16_t> most_pending_reference(const problem_view& p) {
  std::vector<std::uint16_t> s;
  std::list<std::uint32_t> pending;
  for (std::uint32_t w = 0; w < p.warps; ++w) pending.push_back(w);
  std::vector<std::uint32_t> progress(p.warps, 0);
  std::vector<std::uint32_t> used(p.stride, 0);
  while (!pending.empty()) {
    std::fill(used.begin(), used.end(), 0);
    const std::size_t visits = pending.size();
    auto it = pending.begin();
    for (std::size_t v = 0; v < visits; ++v) {
      const std::uint32_t w = *it;
      const std::uint32_t ty = p.types[progress[w]];
      if (used[ty] >= p.cap[ty] || (p.limited && used[p.ntypes] >= p.cap[p.ntypes])) {
        ++it;
        continue;
      }
      ++used[ty];
      if (p.limited) ++used[p.ntypes];
      s.push_back(static_cast<std::uint16_t>(w));
      it = pending.erase(it);
      if (++progress[w] < p.instructions) pending.push_back(w);
    }
  }
  return s;
}

TEST(MostPending, LinearFormEqualsTheWalkOnRandomProblems) {
  std::mt19937_64 rng(9);
  for (int k = 0; k < 300; ++k) {
    const problem prob = test::random_problem(rng, 40, 12);

    EXPECT_EQ(most_pending_string(prob.view()), most_pending_reference(prob.view()))
        << to_run_length(prob.kernel) << " W=" << prob.warps << " limited=" << prob.flat.limited;
  }
}

TEST(MostPending, VoronoiWithASchedulerLimit) {
  const problem prob = test::make("5L9C2L9C", 16, 1, 4, 0, 0, 2);

  EXPECT_EQ(most_pending_string(prob.view()), most_pending_reference(prob.view()));
}

/// Everything a build leaves in a chain: cycles, usage table and per-warp counters.
struct built_state {
  std::uint32_t makespan;
  std::vector<unsigned char> block;
};

template <class Build>
built_state build_with(const problem& prob, const std::vector<std::uint16_t>& str, Build build) {
  const problem_view p = prob.view();
  const chain_layout layout = make_chain_layout(p);
  built_state out{0, std::vector<unsigned char>(layout.bytes, 0xAB)};
  const chain_view c = chain_view_at(out.block.data(), layout);
  std::copy(str.begin(), str.end(), c.str);
  out.makespan = build(p, c);
  // The undo scratch and the best string are not part of a schedule.
  std::fill_n(out.block.data() + layout.undo, layout.progress - layout.undo, 0);
  std::fill_n(out.block.data() + layout.best, layout.bytes - layout.best, 0);
  return out;
}

TEST(HostBuilder, EqualsTheSharedBuilderOnRandomStrings) {
  std::mt19937_64 rng(99);
  for (int k = 0; k < 300; ++k) {
    const problem prob = test::random_problem(rng, 24, 10);
    const auto str = random_string(prob.view(), rng(), static_cast<std::uint32_t>(k));

    const built_state host = build_with(prob, str, build_full_host);
    const built_state shared =
        build_with(prob, str, [](const problem_view& p, const chain_view& c) { return build_full(p, c); });

    EXPECT_EQ(host.makespan, shared.makespan);
    EXPECT_TRUE(host.block == shared.block) << to_run_length(prob.kernel) << " W=" << prob.warps;
  }
}

TEST(HostBuilder, ManyWarpsOnOneUnitTakeOneCycleEach) {
  // 4096 warps, one L each, sigma 1: cycles 1..4096 in string order (the shared builder scans
  // 8 million full cycles for this; the host builder about 4096 links).
  const problem prob = test::make("L", 4096, 1, 0);
  const auto str = fixed_priority_string(prob.view());

  const built_schedule b = build_schedule(prob, str);

  EXPECT_EQ(b.makespan, 4096u);
  for (std::uint32_t w = 0; w < 4096; ++w) EXPECT_EQ(b.cycle[w], w + 1);
}

chain_setup setup_for(const problem& prob, std::uint32_t chains, std::uint64_t iters) {
  chain_setup s;
  s.prob = &prob;
  s.params.seed = 7;
  s.params.iter_max = iters;
  for (std::uint32_t id = 0; id < chains; ++id) {
    s.chain_ids.push_back(id);
    const auto str = random_string(prob.view(), 7, id);
    s.initial.insert(s.initial.end(), str.begin(), str.end());
  }
  return s;
}

TEST(CpuRunner, StopWithinARoundEndsEveryChainWhereItIs) {
  const problem prob = test::make("5L9C2L9C", 8, 1, 4);
  auto runner = make_cpu_runner(setup_for(prob, 6, 1000), 1);
  int asked = 0;

  // One thread: chains in order, a question before each iteration; true from the 251st on.
  const bool whole = runner->advance_until(100, [&] { return ++asked > 250; });

  EXPECT_FALSE(whole);
  const auto s = runner->summaries();
  const std::uint64_t expected[] = {100, 100, 50, 0, 0, 0};
  for (std::size_t c = 0; c < s.size(); ++c) EXPECT_EQ(s[c].iter, expected[c]) << c;
  EXPECT_TRUE(runner->advance_until(100, [] { return false; }));
  EXPECT_EQ(runner->summaries()[5].iter, 100u);
}

TEST(CpuRunner, ChainsStoppedAtDifferentCountsMatchAFreshRun) {
  // A chain that skipped a round continues exactly as if it had run the same count in one go.
  const problem prob = test::make("5L9C2L9C", 8, 1, 4);
  auto split = make_cpu_runner(setup_for(prob, 4, 5000), 2);
  auto whole = make_cpu_runner(setup_for(prob, 4, 5000), 1);
  std::atomic<int> asked{0};

  split->advance_until(700, [&] { return ++asked > 1500; });
  split->advance(4300);
  const auto s = split->summaries();
  whole->advance(s[3].iter);

  EXPECT_EQ(whole->summaries()[3].best, s[3].best);
  EXPECT_EQ(whole->best_string(3), split->best_string(3));
}

TEST(EstimateLimits, ThreadsAreResolvedAndBounded) {
  const problem prob = test::make("LC", 4, 1, 1);
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.iterations = 10;

  o.threads = max_threads() + 1;
  EXPECT_THROW(run_estimate(prob, o), input_error);
  o.threads = -1;
  EXPECT_THROW(run_estimate(prob, o), input_error);
  o.threads = max_threads();
  EXPECT_EQ(run_estimate(prob, o).chains, static_cast<std::uint32_t>(2 * max_threads()));
}

TEST(EstimateLimits, ResultDoesNotDependOnTheThreadCount) {
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.chains = 12;
  o.iterations = 4000;

  o.threads = 1;
  const estimate_result one = run_estimate(prob, o);
  o.threads = max_threads();
  const estimate_result many = run_estimate(prob, o);

  EXPECT_EQ(one.best_makespan, many.best_makespan);
  EXPECT_EQ(one.best_string, many.best_string);
  EXPECT_EQ(one.best_chain, many.best_chain);
  EXPECT_EQ(one.iterations, 12u * 4000u);
  EXPECT_EQ(many.iterations, 12u * 4000u);
}

TEST(EstimateLimits, InterruptStopsWithTheResultSoFar) {
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.chains = 4;
  o.iterations = 1'000'000'000;
  int rounds = 0;

  // The interrupt arrives after the third round (as a signal handler would set it).
  const estimate_result r = run_estimate(prob, o, [&](double, std::uint64_t, std::uint64_t, std::uint32_t) {
    if (++rounds == 3) request_interrupt();
  });
  clear_interrupt();

  EXPECT_TRUE(r.interrupted);
  EXPECT_FALSE(r.time_limited);
  EXPECT_EQ(rounds, 3);
  EXPECT_LT(r.iterations_per_chain, o.iterations);
  EXPECT_EQ(r.iterations, 4 * r.iterations_per_chain);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
  EXPECT_EQ(r.envelope.back().best, r.best_makespan);
}

TEST(EstimateLimits, FirstRoundIsOneIteration) {
  const problem prob = test::make("5L9C2L9C", 16, 1, 4);
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.chains = 2;
  o.iterations = 20000;
  std::vector<std::uint64_t> done;

  run_estimate(prob, o, [&](double, std::uint64_t d, std::uint64_t, std::uint32_t) { done.push_back(d); });

  ASSERT_GE(done.size(), 2u);
  EXPECT_EQ(done[0], 2u);  // both chains, one iteration each
  EXPECT_EQ(done.back(), 2u * 20000u);
}

TEST(EstimateLimits, WarpLimitIsInclusive) {
  normalized_sm sm;
  sm.sigma = {1, 0, 0, 0};
  sm.copies = {1, 0, 0, 0};

  EXPECT_EQ(make_problem(parse_kernel_string("L"), sm, max_warps).warps, max_warps);
  EXPECT_THROW(make_problem(parse_kernel_string("L"), sm, std::int64_t{max_warps} + 1), input_error);
}

}  // namespace
}  // namespace warpspan
