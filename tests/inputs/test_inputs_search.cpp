// GDivAn's three steps and the three methods, on the model fitness.
#include <gtest/gtest.h>

#include <algorithm>

#include "test_util.hpp"
#include "warpspan/inputs/kernels.hpp"
#include "warpspan/inputs/model.hpp"
#include "warpspan/inputs/search.hpp"

namespace warpspan::inputs {
namespace {

search_options options(const std::string& k, std::uint32_t threads, search_method m, std::uint64_t seed,
                       std::uint64_t evaluations) {
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

// Issue 41: kernels of the tests' own, written against warpspan/harness.hpp as a user's harness is.
namespace hx = warpspan::harness;

/// Threads that loop n[tid] times, n in [0, 63]: the slowest input has every n at 63 (a warp waits
/// for its longest lane), which compares (i < n) and random draws hardly reach.
struct search_loop_kernel {
  static constexpr const char* name = "loop";
  static constexpr std::uint32_t block = 256, branches = 1, default_threads = 256;
  static constexpr warpspan_field fields[] = {hx::thread_int("n", 0, 63)};
  static std::uint64_t scratch_words(std::uint32_t threads) { return threads; }
  template <class H>
  static void thread(H& h, const hx::args& a) {
    const std::int32_t n = a.record()[0];
    h.load(a.record(), 4);
    for (std::int32_t i = 0; h.branch(0, i < n); ++i) {
      h.compare(0, i, n);
      h.work(3);
    }
    h.join(0);
    a.scratch[a.tid] = n;
    h.store(&a.scratch[a.tid], 4);
  }
};

/// A per-block field (mode) and a branch only threads 2 and up can take: two threads never cover it,
/// so the atoms go on to 4 threads, within one block of 64.
struct block_field_kernel {
  static constexpr const char* name = "blockfield";
  static constexpr std::uint32_t block = 64, branches = 2, default_threads = 128;
  static constexpr warpspan_field fields[] = {hx::thread_int("v", 0, 9), hx::block_int("mode", 0, 3)};
  static std::uint64_t scratch_words(std::uint32_t threads) { return threads; }
  template <class H>
  static void thread(H& h, const hx::args& a) {
    const std::int32_t v = a.record()[0], mode = a.block_record()[0];
    h.load(a.record(), 4);
    h.load(a.block_record(), 4);
    h.compare(0, v, mode);
    if (h.branch(0, v > mode)) h.work(2);
    h.join(0);
    if (h.branch(1, a.tid >= 2)) h.work(1 + v);
    h.join(1);
    a.scratch[a.tid] = v;
    h.store(&a.scratch[a.tid], 4);
  }
};

search_options own_options(const harness_ref& k, std::uint32_t threads, search_method m, std::uint64_t evaluations) {
  search_options o;
  o.kernel = k;
  o.threads = threads;
  o.method = m;
  o.model = make_model();
  o.ga.seed = 1;
  o.ga.evaluations = evaluations;
  o.ga.patience = 0;  // the whole budget: equal evaluations
  return o;
}

TEST(InputsSearch, GdivanWithABlockFieldGoesPastTwoThreads) {
  // Was: exit 2, "an input for blockfield with 4 threads has 5 integers, got 6" (an atom of 2
  // threads doubled with its block record twice, where 4 threads are still one block).
  const harness_ref k = make_harness(hx::describe<block_field_kernel>(), "test");
  atom_options ao;

  const atom_set atoms = find_atoms(*k, ao);

  ASSERT_EQ(atoms.levels.size(), 2u);
  EXPECT_EQ(atoms.levels[0].covered, 3u);  // X = 2: the leg of tid >= 2 is out of reach
  EXPECT_EQ(atoms.threads, 4u);
  EXPECT_EQ(atoms.coverage(), 1.0);
  for (const atom& a : atoms.atoms) EXPECT_EQ(a.input.size(), 4u + 1u);  // 4 thread records, 1 block's

  const auto r = run_search(own_options(k, 128, search_method::gdivan, 300));
  EXPECT_GT(r.trace.evaluations, 0u);
  EXPECT_EQ(r.trace.best.size(), 128u + 2u);  // 128 thread records, 2 blocks' records
}

TEST(InputsSearch, GdivanStartsFromTheFieldExtremes) {
  // 1024 threads = 32 warps of the loop kernel: GDivAn ended 7 % below random search at equal
  // evaluations, its atoms never trying n = 63. Now all maxima are a starting individual: the known
  // worst (every n = 63, costed by the model directly) from the first generation on.
  const harness_ref k = make_harness(hx::describe<search_loop_kernel>(), "test");
  const std::uint32_t threads = 1024;
  const double worst = static_cast<double>(run_model(*k, make_model(), genome(threads, 63), threads).cycles);

  const auto gdivan = run_search(own_options(k, threads, search_method::gdivan, 1000));
  const auto random = run_search(own_options(k, threads, search_method::random, 1000));

  EXPECT_GE(gdivan.trace.best_fitness, random.trace.best_fitness);
  EXPECT_EQ(gdivan.trace.best_fitness, worst);
  EXPECT_LE(gdivan.trace.reached_at, 100u);  // the first population
  EXPECT_LT(random.trace.best_fitness, worst);
}

}  // namespace
}  // namespace warpspan::inputs
