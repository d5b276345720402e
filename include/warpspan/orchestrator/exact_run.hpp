// `exact --method search` as a whole: the exact search with its warm start. The warm start is an
// annealing run, so it lives here with the other pipelines that combine domains, and the exact
// search itself (exact/search.hpp) needs nothing of the annealing: it takes the string to prune
// against as exact_options::lower_string. The command line and the Python module call this.
#pragma once

#include <cstdint>
#include <string>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan {

/// The default warm start of run_exact: iterations per chain.
inline constexpr std::uint64_t default_warm_start = 200'000;

/// exact_search(prob, options, backend, used, ranks), first warm-started where it runs the progress
/// sweep (the states pack, but not the dense sweep, which expands every reached state anyway) and
/// `options` has no lower_string: 2 annealing chains (CPU, seed 1,
/// options.threads, a quarter of options.time_limit_s at most) of `warm_start` iterations each,
/// and the sweep prunes against their best string when it beats the standard strings. With ranks
/// of more than one rank, rank 0 anneals and sends the string and its time to all. The annealing's
/// time comes off the time limit and counts in elapsed_s. warm_start = 0: no warm start.
exact_result run_exact(const problem& prob, const exact_options& options, std::uint64_t warm_start,
                       backend_kind backend, std::string* used = nullptr, rank_group* ranks = nullptr);

}  // namespace warpspan
