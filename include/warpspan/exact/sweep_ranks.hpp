// The progress sweep across the ranks of mpirun (WARPSPAN_MPI): no MPI type here, the collectives
// are rank_group's.
#pragma once

#include "warpspan/core/ranks.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan {

/// The answer, witness, `states` and `pruned` of exact_sweep_cpu with the states partitioned by
/// hash across the ranks: each rank holds its slice of every progress sum's table and expands it;
/// the successors go to their owners once per sum (one alltoall), so the states held grow with the
/// ranks' memory. The states kept for the witness are gathered on every rank (options.witness_states
/// bounds them as in one process). Every rank must call it; all return the same result. In a build
/// without MPI, or with one rank, it is exact_sweep_cpu.
exact_result exact_sweep_ranks(const problem& prob, const sweep_options& options, rank_group& ranks);

}  // namespace warpspan
