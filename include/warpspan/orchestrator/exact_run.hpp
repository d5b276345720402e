// `exact` as a whole: the request of a face checked, then the ILP or the exact search with its warm
// start. The warm start is an annealing run, so it lives here with the other pipelines that combine
// domains, and the exact search itself (exact/search.hpp) needs nothing of the annealing: it takes
// the string to prune against as exact_options::lower_string. The command line and the Python
// module call this.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/exact/ilp.hpp"
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

/// `warpspan exact` as a face asks for it (the command line's options, Python's arguments), the
/// settings as given: check_exact_request checks them, with the face's names in its messages.
/// Signed where a face could pass a negative number, so that it is refused, not wrapped.
struct exact_request {
  std::string method = "auto";        ///< search (the multiset search), ilp (CBC) or auto (= search)
  std::string constraints = "short";  ///< ilp: the work-conserving constraints, short or long
  std::string backend = "auto";       ///< search: cpu, cuda or auto (the CPU for now)
  double time_limit_s = 0;            ///< both methods: seconds (0: none)
  long long max_states = 0;           ///< search: stop after reaching this many states (0: no limit)
  long long threads = 0;              ///< search: CPU threads (0: all cores; at most 4 per core)
  bool prune = true;                  ///< search: drop states that cannot beat the lower bound
  /// search: annealing iterations per chain before the search (run_exact; 0: none). Not used
  /// without `prune`.
  long long warm_start = static_cast<long long>(default_warm_start);
  long long at_most = 0;  ///< search: is the worst case at most this? (checked_at_most; 0: not asked)
};

/// A request checked, in the library's types.
struct exact_plan {
  bool ilp = false;  ///< the ILP, else the search
  backend_kind backend = backend_kind::automatic;
  exact_options search;          ///< the search's options (progress is the caller's to set)
  ilp_options ilp_settings;      ///< the ILP's
  std::uint64_t warm_start = 0;  ///< 0 without pruning
};

/// The request checked: an input_error naming the face's option (param()) for the first setting out
/// of range (a method, form or backend not known, a negative or infinite time limit, negative
/// counts, too many threads, at_most with pruning off or with the ILP).
exact_plan check_exact_request(const exact_request& request);

/// What `exact` answered, by either method.
struct exact_report {
  bool ilp = false;
  exact_result search;    ///< the search's answer (not ilp)
  ilp_result solved;      ///< the ILP's (ilp)
  std::string algorithm;  ///< the search's: "dense", "dense-window", "sweep" or "depth-first"
  std::string backend;    ///< where the search ran: "cpu" or the CUDA device's name

  const std::vector<std::uint16_t>& best_string() const { return ilp ? solved.best_string : search.best_string; }
  bool interrupted() const { return ilp ? solved.interrupted : search.interrupted; }
};

/// The plan run: the ILP (exact_ilp), or run_exact with the plan's warm start, on `ranks` where
/// given (mpirun: every rank gets the same answer).
exact_report run_exact_plan(const problem& prob, const exact_plan& plan, rank_group* ranks = nullptr);

}  // namespace warpspan
