// The annealing moves of one chain without a timer, for the instruction counts under valgrind that
// stand in for a GPU's instruction issue (issue 42, item 5; bench/count/issue_estimate.py reads them):
//   valgrind --tool=callgrind --toggle-collect='*counted_moves*' warpspan_team_step DESIGN W WARM MOVES
// DESIGN: `thread` the shared incremental step (a thread a chain: anneal_kernel), `plain` the team
// step with the plain rebuild, `rejoin4x1` and `rejoin8x4` the team step that stops where the
// schedule rejoins (the warp kernel's compact and narrow chains), each run by one lane. The chain is
// Voronoi 5L9C2L9C (sigma L=1,C=4) with W warps, moving as estimate's chains do (chain_params),
// from the best string WARM moves on the CPU runner reached, as warpspan_gpu_model counts them.
// With `--reads` first (no valgrind needed), a rejoin design's moves run one at a time, counting
// their placements and the search's iterations (exactly, where the counts' lines have several
// inlined copies), and it prints them and the reads of 32 positions a warp would make
// (team_next_read: a rebuild of n placements makes ceil(n / 32)), the figure that scales the
// per-read part of the counts.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "../cases.hpp"
#include "warpspan/detail/makespan/team_schedule.hpp"

namespace {

using namespace warpspan;

struct chain {
  const problem& prob;
  problem_view p;
  chain_layout layout;
  std::vector<unsigned char> block;
  chain_view c;
  chain_state s;
  anneal_params a;
  std::vector<std::uint32_t> pre;
  ahead_pair ahead[1];  // the read-ahead in memory, as a warp's is (a local one could stay in registers)
  explicit chain(const problem& pr) : prob(pr), p(pr.view()), layout(make_chain_layout(p)), block(layout.bytes) {
    c = chain_view_at(block.data(), layout);
    pre.resize(p.warps);
  }
  std::uint16_t* best() { return chain_best_at(block.data(), layout); }
};

/// The counted part (valgrind's --toggle-collect names it). As the kernels do for one string run
/// by every warp (anneal_kernel.cu: `if constexpr (!PerWarp) p.starts = nullptr;`), the step runs on
/// a local copy of the problem whose per-warp starts are null, so that the compiler folds the
/// per-warp branches away as nvcc does in the kernel (main checks that the problem has none); and
/// every call in it is inlined (`flatten`), as the step's __forceinline__ functions are in a kernel.
__attribute__((noinline, flatten)) void counted_moves(chain& k, const std::string& design, std::uint64_t moves) {
  const serial_team one;
  problem_view p = k.p;
  p.starts = nullptr;
  if (design == "thread") {
    anneal_run(p, k.c, k.best(), k.s, k.a, 0, moves);
  } else if (design == "plain") {
    const team_rebuild<serial_team, std::uint32_t*> r{one, k.pre.data(), nullptr};
    anneal_run_by(p, k.c, k.best(), k.s, k.a, 0, moves, r, one);
  } else if (design == "rejoin4x1") {  // the warp kernel's rebuild for compact chains
    const packing_rejoin_rebuild<chain_packing::compact, serial_team, std::uint32_t*> r{one, k.pre.data(), nullptr,
                                                                                        k.ahead};
    anneal_run_by(p, k.c, k.best(), k.s, k.a, 0, moves, r, one);
  } else {  // for narrow ones
    const packing_rejoin_rebuild<chain_packing::narrow, serial_team, std::uint32_t*> r{one, k.pre.data(), nullptr,
                                                                                       k.ahead};
    anneal_run_by(p, k.c, k.best(), k.s, k.a, 0, moves, r, one);
  }
}

// The designs' names (issue_estimate.py's rows, warpspan_gpu_model's --issue keys) say the registers.
static_assert(rejoin_registers<chain_packing::compact>::slots == 4 &&
                  rejoin_registers<chain_packing::compact>::words == 1,
              "rejoin4x1 names the compact chains' 4 differences and one word of warp bits");
static_assert(rejoin_registers<chain_packing::narrow>::slots == 8 &&
                  rejoin_registers<chain_packing::narrow>::words == 4,
              "rejoin8x4 names the narrow chains' 8 differences and four words of warp bits");

/// The team of one, counting its ballots: one a search's iteration (team_place).
struct counting_team : serial_team {
  std::uint64_t* ballots = nullptr;
  WARPSPAN_HD_INLINE std::uint32_t ballot(bool b) const {
    ++*ballots;
    return b ? 1u : 0u;
  }
};

/// The same moves as counted_moves(), one at a time, with the placements and the search's
/// iterations counted: prints them and a warp's reads of 32 positions, each a move.
template <chain_packing Packing>
void count_reads(chain& k, std::uint64_t moves) {
  std::uint64_t placed = 0, reads = 0, ballots = 0;
  counting_team one;
  one.ballots = &ballots;
  const packing_rejoin_rebuild<Packing, counting_team, std::uint32_t*> r{one, k.pre.data(), &placed, k.ahead};
  problem_view p = k.p;
  p.starts = nullptr;
  for (std::uint64_t m = 0; m < moves; ++m) {
    const std::uint64_t before = placed;
    anneal_run_by(p, k.c, k.best(), k.s, k.a, 0, 1, r, one);
    reads += (placed - before + 31) / 32;
  }
  const double n = static_cast<double>(moves);
  std::printf("placements %.3f reads %.3f iterations %.3f a move\n", static_cast<double>(placed) / n,
              static_cast<double>(reads) / n, static_cast<double>(ballots) / n);
}

}  // namespace

int main(int argc, char** argv) {
  const bool reads = argc > 1 && std::strcmp(argv[1], "--reads") == 0;
  if (reads) --argc, ++argv;
  if (argc != 5 || (reads && std::strncmp(argv[1], "rejoin", 6) != 0)) {
    std::fprintf(stderr, "usage: %s [--reads] thread|plain|rejoin4x1|rejoin8x4 W WARM MOVES (--reads: rejoin only)\n",
                 argv[0]);
    return 2;
  }
  const std::string design = argv[1];
  const int warps = std::atoi(argv[2]);
  const std::uint64_t warm = std::strtoull(argv[3], nullptr, 10), moves = std::strtoull(argv[4], nullptr, 10);
  const problem prob = bench_cases::voronoi(warps);
  chain_setup setup = bench_cases::chains_of(prob, 1);
  std::vector<std::uint16_t> start = setup.initial;
  if (warm > 0) {
    auto cpu = make_cpu_runner(setup, 1);
    cpu->advance(warm);
    start = cpu->best_string(0);
  }
  chain k(prob);
  if (k.p.starts != nullptr) {
    std::fprintf(stderr, "%s: the counted step assumes one string for every warp\n", argv[0]);
    return 2;
  }
  k.a = setup.params;
  std::copy(start.begin(), start.end(), k.c.str);
  const serial_team one;
  if (design == "thread")
    anneal_init(k.p, k.c, k.best(), k.s);
  else
    team_anneal_init(k.p, k.c, k.best(), k.s, one);
  if (reads) {
    if (design == "rejoin4x1")
      count_reads<chain_packing::compact>(k, moves);
    else
      count_reads<chain_packing::narrow>(k, moves);
    return 0;
  }
  counted_moves(k, design, moves);
  std::printf("%s W = %d: %llu moves, best %u, now %u\n", design.c_str(), warps,
              static_cast<unsigned long long>(k.s.iter), k.s.best, k.s.makespan);
  return 0;
}
