// How the annealing's settings change what it finds for a fixed number of iterations: T0, the move
// reach and the split of the iterations into chains, on cases with a target (Voronoi W = 16: the
// paper's 160 (000 VIII); the exact sweep's T(8) = 86 and T(11) = 114) and on two other kernels.
// Counts iterations, not seconds, so the table does not depend on the machine or its load; every
// chain is the library's anneal_step (the same as `warpspan estimate` runs), seeds 1..S.
//
//   warpspan_search_settings [SEEDS]      (default 8; writes a Markdown table to stdout)
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <thread>
#include <vector>

#include "warpspan/makespan/chains.hpp"

namespace warpspan {
namespace {

struct study_case {
  const char* kernel;
  int warps;
  std::uint32_t target;  ///< the makespan to reach (0: none; then the best any setting found)
};

struct setting {
  double t0;
  std::uint32_t chains;
  std::uint64_t iterations;  ///< all chains together
  bool reach_4w;             ///< reach 4 W (the estimator's default), else the whole string
};

/// Best makespan over `s.chains` chains of s.iterations / s.chains iterations each, chain c starting
/// from the c-th initial kind in turn (rr, fp, mpwf, random), as `estimate --init mix` did before
/// issue 26 added the starved string (kept so that bench/results/archive/annealing/search_settings.md stays reproducible).
std::uint32_t best_of(const problem& prob, const setting& s, std::uint64_t seed) {
  const problem_view p = prob.view();
  const chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> block(layout.bytes);
  const chain_view c = chain_view_at(block.data(), layout);
  std::uint16_t* best = chain_best_at(block.data(), layout);
  std::uint32_t out = 0;
  for (std::uint32_t chain = 0; chain < s.chains; ++chain) {
    const auto start = initial_string(p, static_cast<initial_kind>(chain % 4), seed, chain);
    std::copy(start.begin(), start.end(), c.str);
    anneal_params a;
    a.seed = seed;
    a.iter_max = s.iterations / s.chains;
    a.t0 = s.t0;
    a.reach = s.reach_4w ? 4 * p.warps : 0;
    chain_state st;
    anneal_init(p, c, best, st);
    anneal_run(p, c, best, st, a, chain, a.iter_max);
    out = std::max(out, st.best);
  }
  return out;
}

}  // namespace
}  // namespace warpspan

int main(int argc, char** argv) {
  using namespace warpspan;
  const int seeds = argc > 1 ? std::atoi(argv[1]) : 8;
  if (seeds < 1) {
    std::fprintf(stderr, "usage: warpspan_search_settings [SEEDS >= 1]\n");
    return 2;
  }
  normalized_sm sm;
  sm.sigma = {1, 4, 0, 0};
  sm.copies = {1, 1, 0, 0};
  const study_case cases[] = {{"5L9C2L9C", 16, 160},
                              {"5L9C2L9C", 11, 114},
                              {"5L9C2L9C", 8, 86},
                              {"3L4C1L6C2L3C", 10, 0},
                              {"2L3C2L3C2L3C2L", 16, 0}};
  // On Voronoi W = 16 every T0 and split; elsewhere the previous defaults against the current ones.
  const std::vector<setting> full = {{0.3, 2, 600000, false},  {0.1, 2, 600000, false},  {0.05, 2, 600000, false},
                                     {0.02, 2, 600000, false}, {0.01, 2, 600000, false}, {0.0, 2, 600000, false},
                                     {0.01, 8, 600000, false}, {0.3, 2, 600000, true},   {0.01, 2, 600000, true}};
  const std::vector<setting> brief = {
      {0.3, 2, 600000, false}, {0.01, 2, 600000, false}, {0.3, 2, 600000, true}, {0.01, 2, 600000, true}};
  const unsigned workers = std::max(1u, std::thread::hardware_concurrency());
  std::printf("Best makespan per seed (seeds 1..%d), %s; reach \"4 W\" is the estimator's default.\n\n", seeds,
              "every setting given the same iterations (all chains together)");
  std::printf(
      "| kernel | W | target | T0 | chains x iterations | reach | seeds reaching it | bests "
      "|\n|---|---|---|---|---|---|---|---|\n");
  for (const study_case& k : cases) {
    const problem prob = make_problem(parse_kernel_string(k.kernel), sm, k.warps);
    for (const setting& s : (&k == &cases[0] ? full : brief)) {
      std::vector<std::uint32_t> bests(static_cast<std::size_t>(seeds));
      std::vector<std::thread> pool;
      for (unsigned w = 0; w < workers; ++w)
        pool.emplace_back([&, w] {
          for (int seed = 1 + static_cast<int>(w); seed <= seeds; seed += static_cast<int>(workers))
            bests[static_cast<std::size_t>(seed - 1)] = best_of(prob, s, static_cast<std::uint64_t>(seed));
        });
      for (auto& t : pool) t.join();
      const std::uint32_t top = k.target ? k.target : *std::max_element(bests.begin(), bests.end());
      const auto hits = std::count_if(bests.begin(), bests.end(), [&](std::uint32_t b) { return b >= top; });
      std::string list;
      for (std::uint32_t b : bests) list += (list.empty() ? "" : " ") + std::to_string(b);
      std::printf("| %s | %d | %s | %g | %u x %llu | %s | %ld of %d%s | %s |\n", k.kernel, k.warps,
                  k.target ? std::to_string(k.target).c_str() : "-", s.t0, s.chains,
                  static_cast<unsigned long long>(s.iterations / s.chains),
                  s.reach_4w ? (std::to_string(4 * k.warps) + " (4 W)").c_str() : "whole", static_cast<long>(hits),
                  seeds, k.target ? "" : " (best found)", list.c_str());
      std::fflush(stdout);
    }
  }
  return 0;
}
