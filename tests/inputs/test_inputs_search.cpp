// GDivAn's three steps and the three methods, on the model fitness.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.hpp"
#include "warpspan/inputs/kernels.hpp"
#include "warpspan/inputs/search.hpp"

namespace warpspan::inputs {
namespace {

search_options options(const std::string& k, std::uint32_t threads, search_method m, std::uint64_t seed, std::uint64_t evaluations) {
  search_options o;
  o.kernel = find_kernel(k);
  o.threads = threads;
  o.method = m;
  o.model = make_model();
  o.ga.seed = seed;
  o.ga.evaluations = evaluations;
  return o;
}

TEST(InputsSearch, ArtificialGdivanFindsTheKnownWorstOnEverySeed) {
  // 2^15 threads = 1024 warps on one kepler-3.5 SM; the worst input (every value 42) loads its
  // values (4 sectors) and issues 8 atomics x 32 lanes on one address per warp, and sigma_L = 1:
  // 1024 x 260 cycles.
  const std::uint32_t threads = 1u << 15;
  const double worst = 1024.0 * (4 + 8 * 32);

  for (std::uint64_t seed : {1, 2, 3}) {
    const auto r = run_search(options("artificial", threads, search_method::gdivan, seed, 2000));

    EXPECT_EQ(r.trace.best_fitness, worst) << "seed " << seed;
    EXPECT_LE(r.trace.reached_at, 2000u);
    EXPECT_TRUE(std::all_of(r.trace.best.begin(), r.trace.best.end(),
                            [](std::int32_t v) { return v == artificial_kernel::constant; }));
    EXPECT_EQ(r.atoms.coverage(), 1.0);  // 004 Table III: 100 % with two threads
  }
}

TEST(InputsSearch, ArtificialAtomsAreThePathsOfTwoThreads) {
  atom_options o;
  o.seed = 9;

  const atom_set a = find_atoms(*find_kernel("artificial"), o);

  // Two threads, each 42 or not: the four paths of 004 Fig. 1, one atom each.
  ASSERT_EQ(a.threads, 2u);
  ASSERT_EQ(a.atoms.size(), 4u);
  int both = 0, one = 0, none = 0;
  for (const auto& at : a.atoms) {
    const int hits = (at.input[0] == 42) + (at.input[1] == 42);
    (hits == 2 ? both : hits == 1 ? one : none) += 1;
    // instructions: 4 + (8 atomics if 42 else 1) per thread
    EXPECT_EQ(at.instructions, static_cast<std::uint64_t>(2 * 4 + (hits * 8) + (2 - hits)));
    EXPECT_EQ(at.divergence, hits == 1 ? 100.0 : 0.0);
  }
  EXPECT_EQ(both, 1);
  EXPECT_EQ(one, 2);
  EXPECT_EQ(none, 1);
}

TEST(InputsSearch, ScalingConcatenatesAtomsAndCutsTheLast) {
  atom_set a;
  a.threads = 2;
  a.atoms.push_back({{1, 2}, 0, 0});
  a.atoms.push_back({{7, 8}, 0, 0});

  EXPECT_EQ(scale(a, {1, 0, 1}, 5, *find_kernel("artificial")), (genome{7, 8, 1, 2, 7}));
  EXPECT_EQ(scale(a, {0, 0, 0}, 6, *find_kernel("artificial")), (genome{1, 2, 1, 2, 1, 2}));
  EXPECT_NE(test::error_of([&] { scale(a, {0}, 5, *find_kernel("artificial")); }), "");
}

TEST(InputsSearch, ThirtyPercentSpecialIndividualsLeadThePopulation) {
  atom_set a;
  a.threads = 2;
  a.atoms.push_back({{0, 0}, 10, 0});
  a.atoms.push_back({{42, 42}, 24, 0});
  a.atoms.push_back({{42, 0}, 17, 100});

  const auto pop = initial_population(a, 9, 100, 0.30, 1);

  ASSERT_EQ(pop.size(), 100u);
  EXPECT_EQ(pop[0], genome(5, 1));  // most instructions, repeated over ceil(9 / 2) genes
  EXPECT_EQ(pop[1], genome(5, 2));  // most divergence
  EXPECT_EQ(pop[2], genome(5, 0));
  EXPECT_EQ(pop[3], (genome{1, 2, 1, 2, 1}));  // then the leaders alternating
  for (const auto& g : pop) {
    ASSERT_EQ(g.size(), 5u);
    for (auto v : g) EXPECT_TRUE(v >= 0 && v <= 2);
  }
}

TEST(InputsSearch, BfsGdivanBeatsRandomWithTheSameEvaluations) {
  // Atoms of two threads hold the chain edge (offset 1); their concatenation is a path through all
  // nodes, one BFS level each; random graphs have about log n levels.
  const auto g = run_search(options("bfs", 200, search_method::gdivan, 1, 300));
  const auto r = run_search(options("bfs", 200, search_method::random, 1, 300));

  EXPECT_GT(g.trace.best_fitness, 3 * r.trace.best_fitness);
  EXPECT_EQ(r.trace.evaluations, 300u);
  EXPECT_LE(g.trace.evaluations, 300u);
}

TEST(InputsSearch, SameSeedSameSearch) {
  for (search_method m : {search_method::gdivan, search_method::random_ga, search_method::random}) {
    const auto a = run_search(options("petri", 100, m, 5, 300));
    const auto b = run_search(options("petri", 100, m, 5, 300));

    EXPECT_EQ(a.trace.best, b.trace.best) << to_string(m);
    EXPECT_EQ(a.trace.best_fitness, b.trace.best_fitness);
    EXPECT_EQ(a.trace.reached_at, b.trace.reached_at);
    EXPECT_EQ(a.trace.evaluations, b.trace.evaluations);
    // the best input really has the reported fitness
    EXPECT_EQ(static_cast<double>(run_model(*find_kernel("petri"), make_model(), a.trace.best, 100).cycles),
              a.trace.best_fitness);
  }
}

TEST(InputsSearch, MethodsAndFitnessNames) {
  EXPECT_EQ(parse_method("random-ga"), search_method::random_ga);
  EXPECT_EQ(to_string(parse_method("gdivan")), "gdivan");
  EXPECT_NE(test::error_of([] { parse_method("ga"); }), "");
  EXPECT_NE(test::error_of([] { parse_fitness("cpu"); }), "");
  EXPECT_NE(test::error_of([] { find_kernel("nosuch"); }), "");
  EXPECT_NE(test::error_of([] { check_threads(0); }), "");
}

}  // namespace
}  // namespace warpspan::inputs
