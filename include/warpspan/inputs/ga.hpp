// The genetic algorithm of paper 004 (Sec. IV-C, V): population 100, elite 10 %, one parent drawn
// at random and the other from the elite, one-point crossover, one gene mutated with probability
// 25 %; it stops when the best fitness has not grown by more than a tolerance over `patience`
// generations, or when the evaluation budget is spent. It maximises. Every random draw is Philox
// (core/rng.hpp) keyed by the seed, the generation and the child, so a seed gives one run.
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

#include "warpspan/inputs/harness.hpp"

namespace warpspan::inputs {

using genome = std::vector<std::int32_t>;
/// Fitness of a whole generation at once (so a backend can use all cores or the GPU back to back).
/// A result of another length than the batch (empty) stops the search: the batch is not counted
/// (an interrupt or a harness that failed; the caller knows which).
using batch_fitness = std::function<std::vector<double>(const std::vector<genome>&)>;

struct ga_params {
  std::uint32_t population = 100;
  double elite = 0.10;
  double mutation = 0.25;
  std::uint64_t evaluations = 2000;  ///< budget, counting the initial population
  std::uint32_t patience = 2;        ///< generations without growth before stopping; 0: use the budget
  double tolerance = 0.0;            ///< growth below tolerance * |best| does not count
  std::uint64_t seed = 1;
};

struct history_point {
  std::uint64_t evaluation = 0;  ///< 1-based index of the evaluation that set this best
  double best = 0;
  double seconds = 0;  ///< since the search started
};

struct search_trace {
  genome best;
  double best_fitness = 0;
  std::uint64_t evaluations = 0;  ///< evaluations done
  std::uint64_t reached_at = 0;   ///< evaluation that found best
  std::uint32_t generations = 0;
  std::vector<history_point> history;  ///< every improvement of the best
  std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now();
  double seconds() const;
  /// Records a batch evaluated after `evaluations` earlier ones.
  void record(const std::vector<genome>& batch, const std::vector<double>& fitness);
};

/// Runs the GA from `initial` (its size is the population; at least 2). Genes mutate uniformly
/// within `ranges` (one per gene). At most params.evaluations genomes are evaluated.
/// Times in the trace count from `started`.
search_trace run_ga(std::vector<genome> initial, const std::vector<gene_range>& ranges, const batch_fitness& fitness,
                    const ga_params& params,
                    std::chrono::steady_clock::time_point started = std::chrono::steady_clock::now());

/// A genome with every gene uniform in its range: draw stream `stream`, individual `index`.
genome random_genome(const std::vector<gene_range>& ranges, std::uint64_t seed, std::uint32_t stream,
                     std::uint64_t index);

}  // namespace warpspan::inputs
