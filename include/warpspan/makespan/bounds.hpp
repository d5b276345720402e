// Upper bounds on the worst-case makespan.
#pragma once

#include <cstdint>

#include "warpspan/makespan/problem.hpp"

namespace warpspan {

/// An upper bound on the makespan of every work-conserving schedule (docs/makespan.md, "Upper
/// bounds"). Without a scheduler limit, over the normalised string,
///   I + sum_U floor( (W - 1) I_U / sigma_U ).
/// Proof: let w be a warp that finishes last, at cycle M. In every cycle 1..M, w is unfinished, so
/// it issues (at most I cycles) or waits, and it may wait only in a cycle that already holds
/// sigma_U instructions of the type U of its next instruction, all of other warps; they have
/// (W - 1) I_U instructions of type U, each in one cycle. A scheduler limit S adds the cycles with
/// S instructions of others (or, together, sum_U (W - 1) I_U / min(sigma_U, S)); and for any type V,
/// M <= W I_V + (I - I_V) + the stalls on the other types. The least of these forms is returned;
/// with every sigma_U = 1 it is W I, the value of 001 Sec. 4's formula.
///
/// With barriers (I counts them) the same forms hold along a path instead of one warp: from cycle M
/// back, the last warp's cycles until it waited at a barrier, then those of the warp of its block
/// that issued that barrier last (up to that issue), and so on to cycle 1. The path issues one
/// instruction of each of the I positions, and in each of its other cycles its warp is ready and
/// finds its type or the limit full, with instructions off the path: so it never waits at a barrier,
/// and a barrier, no unit's, only adds its (W - 1) I_B issues to what the limit's stalls can take.
///
/// Per-warp kernels (docs/makespan.md, "A path per warp"): the same forms over the path's own
/// counts, each term taken at its worst over the paths (a path issues, per stretch between
/// barriers, one warp's stretch of its block): I is the longest path, (W - 1) I_U the instructions
/// of U off the path with the fewest, W I_V all warps' V, I - I_V the most non-V on a path.
std::uint64_t pessimistic_bound(const problem& prob);

/// The formula of 001 Sec. 4, sum_U ceil(W / m_U) I_U. It is NOT an upper bound in general: with
/// m_U >= 2 a warp can be left to run alone after the others finish (3C, W = 4, sigma_C = 2: the
/// formula gives 6, a work-conserving schedule takes 7). Reported for comparison with the paper;
/// equal to pessimistic_bound when every m_U is 1.
std::uint64_t pessimistic_formula_001(const problem& prob);

}  // namespace warpspan
