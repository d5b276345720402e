// The exact worst-case makespan as the binary ILP of 001 Sec. 5 (Fig. 3), generalised to the four
// instruction types with per-type capacities and an optional scheduler limit, solved with COIN-OR
// CBC. Binary x_w_i_t says warp w issues instruction i in cycle t; full_U_t says type U (or, with
// a scheduler limit, full_sched_t: all types together) is at capacity in cycle t; the objective is
// the cycle of the last warp's last instruction. The work-conserving property is written in the
// paper's short form (one constraint per warp, instruction and cycle) or its long form (one per
// warp, type and cycle). The model, its sizes and the differences from the paper are described at
// the top of host/exact/ilp.cpp.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "warpspan/makespan/problem.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

/// The work-conserving constraints of 001 Sec. 5.4: eq. (34)/(37) (short) or (33)/(36) (long).
enum class ilp_constraints { short_form, long_form };

struct ilp_options {
  ilp_constraints constraints = ilp_constraints::short_form;
  double time_limit_s = 0;    ///< stop CBC after this many seconds (0: none)
  std::uint32_t horizon = 0;  ///< cycles modelled (0: the pessimistic bound, which every schedule fits)
  /// Solve the model CBC reads back from ilp_lp_text (through a temporary file) instead of the one
  /// built in memory: a check that the two are the same formulation.
  bool through_lp_text = false;
};

struct ilp_result {
  bool complete = false;       ///< proven optimal over every schedule (horizon >= the worst case)
  std::uint32_t makespan = 0;  ///< the exact worst case when complete
  std::uint32_t lower = 0;     ///< proven bounds (equal to makespan when complete)
  std::uint32_t upper = 0;
  double elapsed_s = 0;                    ///< building the model and solving it
  std::string status;                      ///< "optimal", or why the run is not complete
  bool interrupted = false;                ///< Ctrl-C or SIGTERM stopped the solve (the interval stands)
  std::vector<std::uint16_t> best_string;  ///< 0-based warp ids, ordered by cycle; builds to `lower`
  std::uint64_t variables = 0;
  std::uint64_t constraints = 0;
};

/// Models larger than this are refused with an input_error (before anything is allocated).
inline constexpr std::uint64_t ilp_max_variables = 20'000'000;
inline constexpr std::uint64_t ilp_max_nonzeros = 100'000'000;

/// True when this build links COIN-OR CBC (exact_ilp works); ilp_lp_text works either way.
bool ilp_compiled();

/// The ILP in CPLEX LP format (CBC, GLPK, HiGHS, CPLEX and Gurobi read it). horizon 0: the
/// pessimistic bound. Throws input_error when the model would be too large or horizon < I.
std::string ilp_lp_text(const problem& prob, std::uint32_t horizon, ilp_constraints constraints);

/// Variables and constraints the model has (what ilp_lp_text writes), without building it.
std::pair<std::uint64_t, std::uint64_t> ilp_size(const problem& prob, std::uint32_t horizon,
                                                 ilp_constraints constraints);

/// Solves the ILP with CBC and returns the worst case with a witness string, checked against the
/// schedule builder (a disagreement throws std::logic_error: a bug in the formulation). Throws
/// not_compiled without CBC, input_error for a model that is too large, or for a horizon below the
/// pessimistic bound that no schedule fits.
ilp_result exact_ilp(const problem& prob, const ilp_options& options = {});

/// Checks a schedule (cycle[w * I + i], 1-based) against every constraint of the model, with the
/// warps renumbered by completion (the model's symmetry breaking) and full_U_t set from the
/// schedule's usage. Returns the name of the first violated constraint, "horizon" when the
/// schedule does not fit, or an empty string when the schedule is a feasible point of the ILP.
std::string ilp_violated_constraint(const problem& prob, std::uint32_t horizon, ilp_constraints constraints,
                                    const std::vector<std::uint32_t>& cycle);

}  // namespace warpspan
