// One chain's iterations without a timer, for instruction counts under valgrind (issue 26: the
// machine is shared, counts are not):
//   valgrind --tool=cachegrind --cache-sim=no --branch-sim=yes warpspan_one_chain MODE REACH ITERS [INTERVAL]
// MODE 0 full rebuild, 1 the shared incremental step, 2 the checkpointed rebuild (INTERVAL 0 or
// absent: its default). Prints a checksum of the makespan after every iteration (the same in every
// mode: the trajectories are equal) and the checkpointed rebuild's placements per iteration.
// Subtract a run of 0 iterations (start-up) before dividing by ITERS.
#include <cstdio>
#include <cstdlib>

#include "../cases.hpp"

int main(int argc, char** argv) {
  if (argc < 4) {
    std::fprintf(stderr, "usage: %s MODE REACH ITERS [INTERVAL]\n", argv[0]);
    return 2;
  }
  const int mode = std::atoi(argv[1]);
  warpspan::bench_cases::one_chain chain(static_cast<std::uint32_t>(std::atoi(argv[2])),
                                         argc > 4 ? static_cast<std::uint32_t>(std::atoi(argv[4])) : 0u);
  const long iters = std::atol(argv[3]);
  std::uint64_t sum = 0;
  for (long k = 0; k < iters; ++k) {
    chain.step(mode);
    sum = sum * 31 + chain.state.makespan;
  }
  std::printf("%s: checksum %llu, best %u, placements per iteration %.1f\n", chain.label(mode).c_str(),
              static_cast<unsigned long long>(sum), chain.state.best,
              iters ? static_cast<double>(chain.checkpoints.placed()) / static_cast<double>(iters) : 0.0);
  return 0;
}
