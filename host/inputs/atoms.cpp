// Step 1 and 2 of GDivAn (include/warpspan/inputs/search.hpp): input atoms on a few threads and
// their scaling to the full thread count.
#include <algorithm>
#include <deque>
#include <numeric>
#include <set>

#include "warpspan/core/error.hpp"
#include "warpspan/core/rng.hpp"
#include "warpspan/inputs/search.hpp"

namespace warpspan::inputs {

namespace {
// Philox streams (the GA uses 101..).
constexpr std::uint32_t stream_restart = 1, stream_mutant = 2, stream_population = 4;
constexpr std::size_t mutants_per_compare_atom = 96;

std::int32_t clamp_to(std::int64_t v, const gene_range& r) {
  return static_cast<std::int32_t>(std::clamp<std::int64_t>(v, r.lo, r.hi));
}

/// Step k of `steps` (k = 0: lo, k = steps - 1: hi; one step: hi) of a gene's range.
std::int32_t ramp(const gene_range& r, std::uint64_t k, std::uint64_t steps) {
  if (steps < 2) return r.hi;
  const std::int64_t span = std::int64_t{r.hi} - r.lo;
  return static_cast<std::int32_t>(r.lo +
                                   static_cast<std::int64_t>(static_cast<std::uint64_t>(span) * k / (steps - 1)));
}

/// The inputs for X threads GDivAn starts from besides compares and draws: all minima, all maxima,
/// and every field rising from its minimum to its maximum over the threads (block fields over the
/// blocks), then falling.
std::vector<genome> extreme_inputs(const kernel_harness& kernel, const std::vector<gene_range>& ranges,
                                   std::uint32_t X) {
  const std::uint32_t gpt = kernel.genes_per_thread(), gpb = kernel.genes_per_block(), blocks = kernel.blocks(X);
  const std::size_t thread_part = std::size_t{X} * gpt;
  genome lowest(ranges.size()), highest(ranges.size()), rising(ranges.size()), falling(ranges.size());
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    lowest[i] = ranges[i].lo;
    highest[i] = ranges[i].hi;
    const bool in_thread = i < thread_part;
    const std::uint64_t k = in_thread ? i / gpt : (i - thread_part) / std::max<std::uint32_t>(gpb, 1);
    const std::uint64_t steps = in_thread ? X : blocks;
    rising[i] = ramp(ranges[i], k, steps);
    falling[i] = ramp(ranges[i], steps - 1 - k, steps);
  }
  return {lowest, highest, rising, falling};
}
}  // namespace

double atom_set::coverage() const {
  if (levels.empty() || levels.back().legs == 0) return 0;
  return static_cast<double>(levels.back().covered) / levels.back().legs;
}

atom_set find_atoms(const kernel_harness& kernel, const atom_options& o) {
  const std::uint32_t legs = 2 * kernel.branches(), gpt = kernel.genes_per_thread();
  const model_config cfg = make_model();
  atom_set out;
  const std::uint32_t top = std::max<std::uint32_t>(2, o.max_threads);
  for (std::uint32_t X = 2; X <= top; X *= 2) {
    const std::vector<gene_range> ranges = kernel.genome_ranges(X);
    std::vector<std::uint8_t> thread_legs(std::size_t{X} * legs, 0), level_legs(legs, 0);
    std::set<std::vector<std::uint64_t>> paths;
    std::set<genome> seen;
    std::deque<genome> queue;
    std::vector<atom> atoms;
    const auto push = [&](genome g) {
      if (seen.insert(g).second) queue.push_back(std::move(g));
    };
    // First the extremes of the declared fields, which neither compares nor random draws reach
    // (a loop of n trips is longest at n's maximum): every gene at its minimum, at its maximum, and
    // ramps from minimum to maximum over the threads (and over the blocks), rising and falling. Kept
    // as atoms whenever they take a new path, even past max_atoms; the first population has them.
    const std::vector<genome> extremes = extreme_inputs(kernel, ranges, X);
    for (const genome& g : extremes) push(g);
    const std::set<genome> extreme_set(extremes.begin(), extremes.end());
    push(random_genome(ranges, o.seed, stream_restart, std::uint64_t{X} << 32));
    for (std::size_t k = 0; k < out.atoms.size(); ++k) {
      // The smaller level's atoms, twice: what they covered carries over. Scaled as inputs are (the
      // thread records twice, a block record for each block of X threads: one while X fits a block).
      push(scale(out, {static_cast<std::int32_t>(k), static_cast<std::int32_t>(k)}, X, kernel));
    }
    std::uint64_t runs = 0, restarts = 0;
    std::vector<thread_trace> traces;
    while (runs < o.runs && restarts <= o.runs) {
      if (queue.empty()) {
        push(random_genome(ranges, o.seed, stream_restart, (std::uint64_t{X} << 32) | ++restarts));
        continue;
      }
      genome g = std::move(queue.front());
      queue.pop_front();
      run_model(kernel, cfg, g, X, &traces);
      ++runs;
      bool new_leg = false;
      std::vector<std::uint64_t> tuple(X);
      std::set<std::uint64_t> distinct;
      atom candidate;
      for (std::uint32_t t = 0; t < X; ++t) {
        for (std::uint32_t l = 0; l < legs; ++l) {
          if (!traces[t].legs[l]) continue;
          level_legs[l] = 1;
          auto& seen_leg = thread_legs[std::size_t{t} * legs + l];
          new_leg = new_leg || !seen_leg;
          seen_leg = 1;
        }
        tuple[t] = traces[t].path;
        distinct.insert(traces[t].path);
        candidate.instructions += traces[t].instructions;
      }
      const bool new_path = paths.insert(tuple).second;
      const bool extreme = extreme_set.count(g) > 0;
      if (!new_leg && !(new_path && (extreme || atoms.size() < o.max_atoms))) continue;
      candidate.extreme = extreme;
      // 004 eq. 1, one barrier interval: 0 when all X threads take one path, 100 when all differ.
      candidate.divergence = X > 1 ? 100.0 * static_cast<double>(distinct.size() - 1) / (X - 1) : 0.0;
      candidate.input = g;
      atoms.push_back(candidate);
      // Input-to-state: a gene equal to one operand of a compare its thread made becomes the other
      // operand (and its neighbours, for < and <=).
      std::size_t made = 0;
      for (std::uint32_t t = 0; t < X && made < mutants_per_compare_atom; ++t) {
        for (const auto& c : traces[t].compares) {
          for (std::uint32_t j = t * gpt; j < (t + 1) * gpt; ++j) {
            const std::int32_t from[2] = {c.a, c.b}, to[2] = {c.b, c.a};
            for (int side = 0; side < 2; ++side) {
              if (g[j] != from[side] || from[side] == to[side]) continue;
              for (std::int64_t d : {0, 1, -1}) {
                genome m = g;
                m[j] = clamp_to(std::int64_t{to[side]} + d, ranges[j]);
                push(std::move(m));
                ++made;
              }
            }
          }
          if (made >= mutants_per_compare_atom) break;
        }
      }
      for (std::uint32_t k = 0; k < 4; ++k) {  // and a few random one-gene mutants
        const philox_out r = draw(o.seed, stream_mutant, (std::uint64_t{X} << 32) | runs, k);
        const std::uint32_t j = bounded(r.v[0], static_cast<std::uint32_t>(g.size()));
        genome m = g;
        const std::uint64_t span = static_cast<std::uint64_t>(std::int64_t{ranges[j].hi} - ranges[j].lo) + 1;
        m[j] =
            static_cast<std::int32_t>(ranges[j].lo + static_cast<std::int64_t>((std::uint64_t{r.v[1]} * span) >> 32));
        push(std::move(m));
      }
    }
    coverage_level level;
    level.threads = X;
    level.legs = legs;
    level.covered = static_cast<std::uint32_t>(std::count(level_legs.begin(), level_legs.end(), 1));
    level.runs = runs;
    level.atoms = atoms.size();
    out.levels.push_back(level);
    out.threads = X;
    out.atoms = std::move(atoms);
    if (level.covered == legs || X > top / 2) break;
  }
  return out;
}

genome scale(const atom_set& atoms, const std::vector<std::int32_t>& ids, std::uint32_t threads,
             const kernel_harness& kernel) {
  // Thread t takes thread t mod X of atom ids[t / X]; block b's record is the one of the atom (and
  // of its block) that holds the block's first thread.
  const std::uint32_t X = atoms.threads, gpt = kernel.genes_per_thread(), gpb = kernel.genes_per_block();
  if (X == 0) throw input_error("no atoms were found");
  if (std::uint64_t{ids.size()} * X < threads) throw input_error("too few atoms to fill the input");
  const auto atom_of = [&](std::uint64_t t) -> const genome& {
    const std::int32_t id = ids[static_cast<std::size_t>(t / X)];
    if (id < 0 || static_cast<std::size_t>(id) >= atoms.atoms.size())
      throw input_error("an atom index is out of range");
    return atoms.atoms[static_cast<std::size_t>(id)].input;
  };
  genome g(kernel.genes(threads));
  for (std::uint32_t t = 0; t < threads; ++t) {
    const genome& a = atom_of(t);
    std::copy_n(a.begin() + static_cast<std::ptrdiff_t>(std::size_t{t % X} * gpt), gpt,
                g.begin() + std::size_t{t} * gpt);
  }
  if (gpb > 0) {
    const std::size_t thread_part = std::size_t{threads} * gpt, atom_thread_part = std::size_t{X} * gpt;
    for (std::uint32_t b = 0; b < kernel.blocks(threads); ++b) {
      const std::uint64_t t = std::uint64_t{b} * kernel.block();
      const genome& a = atom_of(t);
      const std::size_t from = atom_thread_part + std::size_t{static_cast<std::uint32_t>(t % X) / kernel.block()} * gpb;
      std::copy_n(a.begin() + static_cast<std::ptrdiff_t>(from), gpb,
                  g.begin() + static_cast<std::ptrdiff_t>(thread_part + std::size_t{b} * gpb));
    }
  }
  return g;
}

std::vector<genome> initial_population(const atom_set& atoms, std::uint32_t threads, std::uint32_t population,
                                       double special, std::uint64_t seed) {
  const std::size_t A = atoms.atoms.size();
  if (A == 0) throw input_error("no atoms were found");
  const std::size_t genes = (threads + atoms.threads - 1) / atoms.threads;
  // Special individuals (004 IV-C): the atoms of most instructions and of most divergence, each
  // repeated over all threads; then pairs of the leaders alternating.
  std::vector<std::size_t> by_instr(A), by_div(A);
  std::iota(by_instr.begin(), by_instr.end(), 0);
  std::iota(by_div.begin(), by_div.end(), 0);
  std::stable_sort(by_instr.begin(), by_instr.end(), [&](std::size_t a, std::size_t b) {
    const atom &x = atoms.atoms[a], &y = atoms.atoms[b];
    return x.instructions != y.instructions ? x.instructions > y.instructions : x.divergence > y.divergence;
  });
  std::stable_sort(by_div.begin(), by_div.end(), [&](std::size_t a, std::size_t b) {
    const atom &x = atoms.atoms[a], &y = atoms.atoms[b];
    return x.divergence != y.divergence ? x.divergence > y.divergence : x.instructions > y.instructions;
  });
  const std::size_t specials = std::min<std::size_t>(population, static_cast<std::size_t>(special * population + 0.5));
  std::vector<genome> pop;
  std::set<genome> have;
  const auto add = [&](genome g) {
    if (pop.size() < specials && have.insert(g).second) pop.push_back(std::move(g));
  };
  for (std::size_t a = 0; a < A; ++a)  // the extremes (all minima, all maxima, ramps), repeated
    if (atoms.atoms[a].extreme) add(genome(genes, static_cast<std::int32_t>(a)));
  for (std::size_t r = 0; r < A && pop.size() < specials; ++r) {
    add(genome(genes, static_cast<std::int32_t>(by_instr[r])));
    add(genome(genes, static_cast<std::int32_t>(by_div[r])));
  }
  for (std::size_t i = 0; i < A && pop.size() < specials; ++i)
    for (std::size_t j = 0; j < A && pop.size() < specials; ++j) {
      if (i == j) continue;
      genome g(genes);
      for (std::size_t k = 0; k < genes; ++k) g[k] = static_cast<std::int32_t>(k % 2 ? by_instr[j] : by_instr[i]);
      add(std::move(g));
    }
  const std::vector<gene_range> ranges(genes, gene_range{0, static_cast<std::int32_t>(A - 1)});
  for (std::uint64_t i = 0; pop.size() < population; ++i)
    pop.push_back(random_genome(ranges, seed, stream_population, i));
  return pop;
}

}  // namespace warpspan::inputs
