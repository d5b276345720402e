// The text of `warpspan exact` for people: the problem, the ILP's size (method ilp), the exact worst
// case or the interval proven and why the search stopped, the witness and its schedule drawn as a
// table. --json's object is exact_json (warpspan/io/result_json.hpp).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>

#include "warpspan/makespan/problem.hpp"
#include "warpspan/orchestrator/exact_run.hpp"

namespace warpspan {

/// What print_exact_text needs beyond the problem, the plan and the report.
struct exact_text_options {
  std::string lp_note;          ///< a line on the ILP written as LP text ("wrote the ILP ..."), or empty
  bool table = true;            ///< the witness's schedule as a table (render_table)
  std::size_t table_width = 0;  ///< the table's columns (a terminal's); 0: whole rows
};

/// `warpspan exact`'s report: kernel (with W, the barriers, the SM); the ILP's variables and
/// constraints (method ilp); the LP note; "exact" with how it was found, or "at most ... proven"
/// (plan.search.at_most), or "stopped" with the reason, and the interval proven; whether at_most
/// holds; the witness (1-based warp ids); an interrupted search's note; the table.
void print_exact_text(std::ostream& out, const problem& prob, const exact_plan& plan, const exact_report& report,
                      const exact_text_options& options);

}  // namespace warpspan
