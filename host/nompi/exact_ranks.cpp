// A build without WARPSPAN_MPI: the sweep across ranks is the one-process sweep.
#include "warpspan/exact/sweep_ranks.hpp"

namespace warpspan {

exact_result exact_sweep_ranks(const problem& prob, const exact_options& options, rank_group&) {
  return exact_sweep_cpu(prob, options);
}

}  // namespace warpspan
