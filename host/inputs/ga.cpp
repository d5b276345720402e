// The genetic algorithm of paper 004 (include/warpspan/inputs/ga.hpp).
#include "warpspan/inputs/ga.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/rng.hpp"

namespace warpspan::inputs {

namespace {
// Philox streams of the GA, apart from those of the callers (search.cpp uses 1..9).
constexpr std::uint32_t stream_parents = 101, stream_mutation = 102, stream_gene = 103;

std::int32_t uniform_in(const gene_range& r, std::uint32_t word) {
  const std::uint64_t span = static_cast<std::uint64_t>(static_cast<std::int64_t>(r.hi) - r.lo) + 1;
  return static_cast<std::int32_t>(r.lo + static_cast<std::int64_t>((static_cast<std::uint64_t>(word) * span) >> 32));
}
}  // namespace

genome random_genome(const std::vector<gene_range>& ranges, std::uint64_t seed, std::uint32_t stream,
                     std::uint64_t index) {
  genome g(ranges.size());
  for (std::size_t i = 0; i < g.size(); i += 4) {
    const philox_out r = draw(seed, stream, index, static_cast<std::uint32_t>(i / 4));
    for (std::size_t k = 0; k < 4 && i + k < g.size(); ++k) g[i + k] = uniform_in(ranges[i + k], r.v[k]);
  }
  return g;
}

double search_trace::seconds() const {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
}

void search_trace::record(const std::vector<genome>& batch, const std::vector<double>& fitness) {
  for (std::size_t i = 0; i < batch.size(); ++i) {
    ++evaluations;
    if (history.empty() || fitness[i] > best_fitness) {
      best_fitness = fitness[i];
      best = batch[i];
      reached_at = evaluations;
      history.push_back({evaluations, best_fitness, seconds()});
    }
  }
}

search_trace run_ga(std::vector<genome> population, const std::vector<gene_range>& ranges, const batch_fitness& fitness,
                    const ga_params& p, std::chrono::steady_clock::time_point started) {
  if (population.size() < 2) throw input_error("the GA needs a population of at least 2");
  if (p.evaluations < population.size())
    throw input_error(param("evaluations") + " must be at least the population (" + std::to_string(population.size()) +
                      ")");
  for (const auto& g : population)
    if (g.size() != ranges.size()) throw input_error("a GA individual's length differs from its gene ranges");
  const std::size_t n = population.size(), L = ranges.size();
  const std::size_t elite =
      std::max<std::size_t>(1, static_cast<std::size_t>(std::lround(p.elite * static_cast<double>(n))));

  search_trace trace;
  trace.started = started;
  std::vector<double> fit = fitness(population);
  if (fit.size() != population.size()) return trace;  // the fitness stopped (see batch_fitness)
  trace.record(population, fit);
  double last_best = trace.best_fitness;
  std::uint32_t still = 0;
  // interrupted(): Ctrl-C stops between generations with the best so far.
  for (std::uint32_t gen = 1; trace.evaluations < p.evaluations && !interrupted(); ++gen) {
    // Rank: best first; ties keep the earlier individual (stable), so the order is a pure function.
    std::vector<std::size_t> order(n);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return fit[a] > fit[b]; });
    const std::size_t children = std::min<std::size_t>(n - elite, p.evaluations - trace.evaluations);
    std::vector<genome> next;
    next.reserve(elite + children);
    for (std::size_t e = 0; e < elite; ++e) next.push_back(population[order[e]]);
    std::vector<genome> born;
    born.reserve(children);
    for (std::size_t c = 0; c < children; ++c) {
      const philox_out r = draw(p.seed, stream_parents, (std::uint64_t{gen} << 32) | c);
      const genome& a = population[bounded(r.v[0], static_cast<std::uint32_t>(n))];
      const genome& b = population[order[bounded(r.v[1], static_cast<std::uint32_t>(elite))]];
      genome child;
      if (L < 2) {
        child = (r.v[3] & 1) ? a : b;
      } else {
        // One-point crossover: the head of one parent, the tail of the other, cut in [1, L - 1].
        const std::size_t cut = 1 + bounded(r.v[2], static_cast<std::uint32_t>(L - 1));
        const genome& head = (r.v[3] & 1) ? a : b;
        const genome& tail = (r.v[3] & 1) ? b : a;
        child.assign(head.begin(), head.begin() + static_cast<std::ptrdiff_t>(cut));
        child.insert(child.end(), tail.begin() + static_cast<std::ptrdiff_t>(cut), tail.end());
      }
      // Mutation (004 IV-C): one draw decides whether to mutate, another which gene, a third its value.
      const philox_out m = draw(p.seed, stream_mutation, (std::uint64_t{gen} << 32) | c);
      if (unit_double(m.v[0], m.v[1]) < p.mutation) {
        const std::size_t at = bounded(m.v[2], static_cast<std::uint32_t>(L));
        const philox_out v = draw(p.seed, stream_gene, (std::uint64_t{gen} << 32) | c);
        child[at] = uniform_in(ranges[at], v.v[0]);
      }
      born.push_back(std::move(child));
    }
    const std::vector<double> born_fit = fitness(born);
    if (born_fit.size() != born.size()) break;  // the fitness stopped: the trace so far
    trace.record(born, born_fit);
    std::vector<double> next_fit;
    for (std::size_t e = 0; e < elite; ++e) next_fit.push_back(fit[order[e]]);
    for (std::size_t c = 0; c < born.size(); ++c) {
      next.push_back(std::move(born[c]));
      next_fit.push_back(born_fit[c]);
    }
    // A short last generation (budget) keeps the best of the old population to fill up.
    for (std::size_t k = elite; next.size() < n; ++k) {
      next.push_back(population[order[k]]);
      next_fit.push_back(fit[order[k]]);
    }
    population = std::move(next);
    fit = std::move(next_fit);
    trace.generations = gen;
    if (p.patience > 0) {
      const bool grew = trace.best_fitness - last_best > p.tolerance * std::fabs(last_best);
      still = grew ? 0 : still + 1;
      if (grew) last_best = trace.best_fitness;
      if (still >= p.patience) break;
    }
  }
  return trace;
}

}  // namespace warpspan::inputs
