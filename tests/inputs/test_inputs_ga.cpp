// The GA engine of paper 004 on fitness functions whose optima are known.
#include <gtest/gtest.h>

#include <numeric>

#include "test_util.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/inputs/ga.hpp"
#include "warpspan/inputs/model.hpp"

namespace warpspan::inputs {
namespace {

double ones(const genome& g) { return std::accumulate(g.begin(), g.end(), 0.0); }

/// Deceptive trap of 4-bit blocks: 4 when all ones, else 3 - (ones in the block).
double trap(const genome& g) {
  double f = 0;
  for (std::size_t b = 0; b + 4 <= g.size(); b += 4) {
    const int u = g[b] + g[b + 1] + g[b + 2] + g[b + 3];
    f += u == 4 ? 4 : 3 - u;
  }
  return f;
}

batch_fitness each(double (*f)(const genome&), std::uint64_t* calls = nullptr) {
  return [f, calls](const std::vector<genome>& batch) {
    std::vector<double> out;
    for (const auto& g : batch) out.push_back(f(g));
    if (calls) *calls += batch.size();
    return out;
  };
}

std::vector<genome> random_population(std::size_t n, const std::vector<gene_range>& ranges, std::uint64_t seed) {
  std::vector<genome> pop;
  for (std::size_t i = 0; i < n; ++i) pop.push_back(random_genome(ranges, seed, 7, i));
  return pop;
}

TEST(InputsGa, OneMaxReachesAllOnes) {
  const std::vector<gene_range> bits(32, gene_range{0, 1});
  ga_params p;
  p.evaluations = 20000;
  p.patience = 0;

  for (std::uint64_t seed : {1, 2, 3}) {
    p.seed = seed;
    std::uint64_t calls = 0;
    const auto t = run_ga(random_population(100, bits, seed), bits, each(ones, &calls), p);

    EXPECT_EQ(t.best_fitness, 32.0) << "seed " << seed;
    EXPECT_EQ(ones(t.best), t.best_fitness);
    EXPECT_EQ(calls, t.evaluations);
    EXPECT_LE(t.evaluations, p.evaluations);
    EXPECT_LE(t.reached_at, t.evaluations);
  }
}

TEST(InputsGa, TrapIsSolvedFromSeededBuildingBlocks) {
  // 8 trap blocks; random individuals drift to the deceptive all-zero optimum (24), but two
  // special individuals each holding half the all-one blocks (28 each) cross over to the global
  // optimum 32, as GDivAn's special individuals are meant to.
  const std::vector<gene_range> bits(32, gene_range{0, 1});
  ga_params p;
  p.evaluations = 5000;
  p.patience = 0;

  for (std::uint64_t seed : {4, 5, 6, 7}) {
    p.seed = seed;
    auto pop = random_population(100, bits, seed);
    pop[0].assign(32, 0);
    pop[1].assign(32, 0);
    for (int i = 0; i < 16; ++i) pop[0][i] = pop[1][16 + i] = 1;
    const auto t = run_ga(pop, bits, each(trap), p);

    EXPECT_EQ(t.best_fitness, 32.0) << "seed " << seed;
    EXPECT_EQ(trap(t.best), 32.0);
  }
}

TEST(InputsGa, SameSeedSameRunOtherSeedOtherRun) {
  const std::vector<gene_range> ranges(20, gene_range{-3, 9});
  ga_params p;
  p.evaluations = 700;
  p.seed = 11;

  const auto a = run_ga(random_population(50, ranges, 1), ranges, each(trap), p);
  const auto b = run_ga(random_population(50, ranges, 1), ranges, each(trap), p);
  p.seed = 12;
  const auto c = run_ga(random_population(50, ranges, 1), ranges, each(trap), p);

  EXPECT_EQ(a.best, b.best);
  EXPECT_EQ(a.evaluations, b.evaluations);
  EXPECT_EQ(a.reached_at, b.reached_at);
  ASSERT_EQ(a.history.size(), b.history.size());
  for (std::size_t i = 0; i < a.history.size(); ++i) EXPECT_EQ(a.history[i].evaluation, b.history[i].evaluation);
  EXPECT_FALSE(a.best == c.best && a.history.size() == c.history.size() && a.reached_at == c.reached_at);
}

TEST(InputsGa, GenesStayInTheirRanges) {
  std::vector<gene_range> ranges;
  for (int i = 0; i < 17; ++i) ranges.push_back({-i, 2 * i + 1});
  ga_params p;
  p.evaluations = 1000;
  p.patience = 0;
  bool inside = true;
  const batch_fitness check = [&](const std::vector<genome>& batch) {
    std::vector<double> out;
    for (const auto& g : batch) {
      for (std::size_t i = 0; i < g.size(); ++i) inside = inside && g[i] >= ranges[i].lo && g[i] <= ranges[i].hi;
      out.push_back(static_cast<double>(g[3]));
    }
    return out;
  };

  const auto t = run_ga(random_population(100, ranges, 3), ranges, check, p);

  EXPECT_TRUE(inside);
  EXPECT_EQ(t.best_fitness, 7.0);  // gene 3 lies in [-3, 7]
  EXPECT_EQ(t.evaluations, 1000u);
}

TEST(InputsGa, StopsWhenTheBestStopsGrowing) {
  // A constant fitness never grows: the first generation, then `patience` more.
  const std::vector<gene_range> bits(8, gene_range{0, 1});
  ga_params p;
  p.evaluations = 100000;
  p.patience = 2;
  const batch_fitness flat = [](const std::vector<genome>& b) { return std::vector<double>(b.size(), 1.0); };

  const auto t = run_ga(random_population(100, bits, 1), bits, flat, p);

  EXPECT_EQ(t.generations, 2u);
  EXPECT_EQ(t.evaluations, 100u + 2 * 90);  // 10 % elite are not evaluated again
  EXPECT_EQ(t.reached_at, 1u);
}

TEST(InputsGa, ModelBatchEqualsOneByOne) {
  const model_config cfg = make_model();
  const std::uint32_t threads = 300;
  const kernel_harness& petri = *find_kernel("petri");
  const auto ranges = petri.genome_ranges(threads);
  std::vector<genome> batch;
  for (std::uint64_t i = 0; i < 9; ++i) batch.push_back(random_genome(ranges, 5, 1, i));
  thread_pool pool(3);

  const auto together = model_cycles_batch(petri, cfg, batch, threads, pool);

  ASSERT_EQ(together.size(), batch.size());
  for (std::size_t i = 0; i < batch.size(); ++i)
    EXPECT_EQ(together[i], run_model(petri, cfg, batch[i], threads).cycles) << i;
}

}  // namespace
}  // namespace warpspan::inputs
