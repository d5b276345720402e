// Determinism of the annealing chains and the orchestrator's contract.
#include <gtest/gtest.h>

#include "test_util.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/sm/presets.hpp"

namespace warpspan {
namespace {

problem voronoi() { return test::make("5L9C2L9C", 16, 1, 4); }

TEST(Bounds, VoronoiPessimisticFormulaOf001Is184) {
  // 7 L's x ceil(16 / 1) + 18 C's x ceil(16 / 4) = 112 + 72 (MODEL, 001 Sec. 4).
  EXPECT_EQ(pessimistic_formula_001(voronoi()), 184u);
}

TEST(Bounds, SchedulerLimitTightensSigma) {
  // With at most 2 warps issuing per cycle, C behaves as sigma 2: 7 x 16 + 18 x 8 in 001's formula,
  // 25 + 15 x 7 + 15 x 18 / 2 in the bound.
  const problem prob = test::make("5L9C2L9C", 16, 1, 4, 0, 0, 2);
  EXPECT_EQ(pessimistic_formula_001(prob), 7u * 16 + 18u * 8);
  EXPECT_EQ(pessimistic_bound(prob), 25u + 15 * 7 + 15 * 18 / 2);
}

chain_setup setup_for(const problem& prob, std::vector<std::uint32_t> ids, std::uint64_t iters) {
  chain_setup s;
  s.prob = &prob;
  s.params.seed = 42;
  s.params.iter_max = iters;
  s.chain_ids = ids;
  for (std::uint32_t id : ids) {
    const auto str = random_string(prob.view(), 42, id);
    s.initial.insert(s.initial.end(), str.begin(), str.end());
  }
  return s;
}

TEST(Anneal, ResultDoesNotDependOnRoundsOrThreads) {
  const problem prob = voronoi();
  const auto setup = setup_for(prob, {0, 1, 2, 5, 9}, 3000);
  auto one_round = make_cpu_runner(setup, 1);
  auto many_rounds = make_cpu_runner(setup, 2);

  one_round->advance(3000);
  for (int k = 0; k < 7; ++k) many_rounds->advance(500);

  const auto a = one_round->summaries(), b = many_rounds->summaries();
  for (std::size_t c = 0; c < a.size(); ++c) {
    EXPECT_EQ(a[c].best, b[c].best);
    EXPECT_EQ(a[c].current, b[c].current);
    EXPECT_EQ(a[c].iter, 3000u);
    EXPECT_EQ(b[c].iter, 3000u);  // never past iter_max
    EXPECT_EQ(one_round->best_string(c), many_rounds->best_string(c));
  }
}

TEST(Anneal, ChainDependsOnItsIdNotItsPosition) {
  const problem prob = voronoi();
  auto all = make_cpu_runner(setup_for(prob, {0, 1, 2, 3}, 2000), 1);
  auto alone = make_cpu_runner(setup_for(prob, {2}, 2000), 1);

  all->advance(2000);
  alone->advance(2000);

  EXPECT_EQ(all->summaries()[2].best, alone->summaries()[0].best);
  EXPECT_EQ(all->best_string(2), alone->best_string(0));
}

TEST(Anneal, DifferentSeedsExploreDifferently) {
  const problem prob = voronoi();
  auto s1 = setup_for(prob, {0}, 2000);
  auto s2 = s1;
  s2.params.seed = 43;
  auto a = make_cpu_runner(s1, 1), b = make_cpu_runner(s2, 1);

  a->advance(2000);
  b->advance(2000);

  EXPECT_NE(a->best_string(0), b->best_string(0));
}

TEST(Anneal, AllFarMovesAreWholeStringMoves) {
  // far = far_scale: every move draws its distance over the whole string, whatever the reach: the
  // same trajectory, iteration by iteration, as reach 0 (the whole string) without far moves.
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  auto whole = setup_for(prob, {0, 1, 2}, 4000);
  auto far = whole;
  far.params.reach = 16;
  far.params.far = far_scale;
  auto a = make_cpu_runner(whole, 1), b = make_cpu_runner(far, 1);
  a->advance(4000);
  b->advance(4000);
  for (std::size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(a->summaries()[c].current, b->summaries()[c].current);
    EXPECT_EQ(a->best_string(c), b->best_string(c));
  }
}

TEST(Anneal, SomeFarMovesChangeTheTrajectoryOfAShortReach) {
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  auto near = setup_for(prob, {0}, 4000);
  near.params.reach = 16;
  auto mixed = near;
  mixed.params.far = far_scale / 4;
  auto a = make_cpu_runner(near, 1), b = make_cpu_runner(mixed, 1);
  a->advance(4000);
  b->advance(4000);
  EXPECT_NE(a->best_string(0), b->best_string(0));
}

TEST(Estimate, SameSeedSameResult) {
  const problem prob = voronoi();
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.chains = 6;
  o.iterations = 5000;
  o.threads = 2;

  const estimate_result a = run_estimate(prob, o), b = run_estimate(prob, o);

  EXPECT_EQ(a.best_makespan, b.best_makespan);
  EXPECT_EQ(a.best_string, b.best_string);
  EXPECT_EQ(a.iterations, 6u * 5000u);
}

TEST(Estimate, ContractHolds) {
  const problem prob = voronoi();
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.chains = 8;
  o.iterations = 20000;

  const estimate_result r = run_estimate(prob, o);

  // The best string builds to the best makespan; the estimate lies between the round-robin
  // start and the pessimistic bound; the envelope never decreases and ends at the estimate.
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
  EXPECT_GE(r.best_makespan, build_schedule(prob, round_robin_string(prob.view())).makespan);
  EXPECT_LE(r.best_makespan, r.upper_bound);
  EXPECT_EQ(r.upper_bound, 197u);
  ASSERT_FALSE(r.envelope.empty());
  for (std::size_t k = 1; k < r.envelope.size(); ++k) {
    EXPECT_GE(r.envelope[k].seconds, r.envelope[k - 1].seconds);
    EXPECT_GT(r.envelope[k].best, r.envelope[k - 1].best);
  }
  EXPECT_EQ(r.envelope.back().best, r.best_makespan);
  EXPECT_EQ(r.iterations, 8u * 20000u);
}

/// Options for `chains` CPU chains of `iterations` each.
estimate_options cpu_chains(std::uint32_t chains, std::uint64_t iterations) {
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.chains = chains;
  o.iterations = iterations;
  return o;
}

TEST(Estimate, TimeBudgetStopsEarly) {
  const problem prob = voronoi();
  estimate_options o = cpu_chains(2, 1'000'000'000);
  o.seconds = 0.3;

  const estimate_result r = run_estimate(prob, o);

  EXPECT_TRUE(r.time_limited);
  EXPECT_LT(r.iterations, 2'000'000'000u);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
}

TEST(Estimate, AFixedWidthBeamKeepsToTheBudget) {
  // A fixed count with a budget: the one beam of the fixed width used to ignore the budget (a beam
  // of a million states per sum at W = 16 takes minutes); now it narrows at its share and the
  // chains still run. The bound on its time is loose on purpose (sanitizers, a loaded machine).
  const problem prob = voronoi();
  estimate_options o = cpu_chains(4, 50);
  o.beam_width = 1u << 20;
  o.seconds = 0.2;

  const estimate_result r = run_estimate(prob, o);

  ASSERT_TRUE(r.beam.ran);
  EXPECT_TRUE(r.beam.applicable);
  EXPECT_FALSE(r.beam.exact);  // cut short, so nothing proven
  EXPECT_LT(r.beam.seconds, 20.0);
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
}

TEST(Estimate, CoolingFittedToSecondsPlansTheIterationsFromTheSpeed) {
  const problem prob = voronoi();
  estimate_options o = cpu_chains(2, std::uint64_t{1} << 40);  // only a cap: the plan comes from the budget
  o.seconds = 0.4;
  o.fit_to_seconds = true;

  const estimate_result r = run_estimate(prob, o);

  // The plan is what the measured speed fits in the budget (far below the cap), and every chain
  // ran up to it or was stopped by the budget on the way.
  EXPECT_GT(r.iterations_per_chain, 0u);
  EXPECT_LT(r.iterations_planned, std::uint64_t{1} << 30);
  EXPECT_LE(r.iterations_per_chain, r.iterations_planned);
  EXPECT_GE(r.iterations, 2 * r.iterations_per_chain);  // a stop within a round leaves some chains more
  EXPECT_EQ(build_schedule(prob, r.best_string).makespan, r.best_makespan);
}

TEST(Estimate, WithoutABudgetTheFitChangesNothing) {
  const problem prob = voronoi();
  estimate_options o = cpu_chains(3, 3000);
  const estimate_result plain = run_estimate(prob, o);
  o.fit_to_seconds = true;  // no --seconds: nothing to fit to
  const estimate_result fitted = run_estimate(prob, o);

  EXPECT_EQ(fitted.best_string, plain.best_string);
  EXPECT_EQ(fitted.iterations, plain.iterations);
  EXPECT_EQ(fitted.iterations_planned, 3000u);
}

TEST(Estimate, MixCyclesThroughThePapersFourStartsTheBeamAndTheStarvedOne) {
  estimate_options o;

  EXPECT_EQ(chain_initial_kind(o, 0), initial_kind::round_robin);
  EXPECT_EQ(chain_initial_kind(o, 1), initial_kind::fixed_priority);
  EXPECT_EQ(chain_initial_kind(o, 2), initial_kind::beam);
  EXPECT_EQ(chain_initial_kind(o, 3), initial_kind::starve);
  EXPECT_EQ(chain_initial_kind(o, 4), initial_kind::most_pending);
  EXPECT_EQ(chain_initial_kind(o, 5), initial_kind::random);
  EXPECT_EQ(chain_initial_kind(o, 9), initial_kind::starve);
  o.init = initial_kind::starve;
  EXPECT_EQ(chain_initial_kind(o, 0), initial_kind::starve);
}

TEST(Estimate, RefusesBadOptions) {
  const problem prob = voronoi();
  estimate_options o;
  o.backend = backend_kind::cpu;
  o.iterations = 0;

  EXPECT_THROW(run_estimate(prob, o), input_error);
  o.iterations = 10;
  o.far_moves = 1.5;
  EXPECT_EQ(test::error_of([&] { run_estimate(prob, o); }), "far_moves must be a share between 0 and 1");
}

TEST(ChainLayout, WorkingStateEndsOnASixteenByteBoundaryBeforeBest) {
  // The CUDA kernel copies the working state (everything before best) in 16-byte words; best must
  // start on such a boundary or the copy back would overwrite it.
  for (const char* kernel : {"5L9C2L9C", "LSCDLLCSD", "L", "LC", "20L20C20L"})
    for (int warps : {1, 2, 3, 4, 5, 7, 16, 33}) {
      const problem prob = test::make(kernel, warps, 1, 2, 1, 1);
      const chain_layout l = make_chain_layout(prob.view());
      EXPECT_EQ(l.best % 16, 0u) << kernel << " W=" << warps;
      EXPECT_EQ(l.bytes % 16, 0u);
      EXPECT_GE(l.best, l.str + sizeof(std::uint16_t) * prob.length());
      EXPECT_GE(l.bytes, l.best + sizeof(std::uint16_t) * prob.length());
    }
}

}  // namespace
}  // namespace warpspan
