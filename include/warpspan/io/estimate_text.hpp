// The text of `warpspan estimate` for people: the problem, the search, the estimate with the
// pessimistic bound and the proven interval, the GPU's plan, the beam, the envelope, the worst
// string and its schedule drawn as a table. --json's object is estimate_json
// (warpspan/io/result_json.hpp).
#pragma once

#include <cstddef>
#include <ostream>
#include <string>
#include <vector>

#include "warpspan/core/error.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/orchestrator/estimate_run.hpp"

namespace warpspan {

/// What the makespan commands' text says of the barriers, after the warps: "" without any, else
/// e.g. ", 2 barriers (one block of all 16 warps)" or ", 1 barrier (blocks of 4 warps)".
std::string barrier_note(const problem& prob);

/// What print_estimate_text needs beyond the problem and the report.
struct estimate_text_options {
  std::string origin;                ///< where the kernel came from (a file, a preset, --warp-kernels, ...)
  bool show_string = false;          ///< the worst string's warp ids (1-based), else only how many there are
  bool table = true;                 ///< the worst schedule as a table (render_table)
  std::size_t table_width = 0;       ///< the table's columns (a terminal's); 0: whole rows
  double exact_seconds = 0;          ///< the proven interval's budget (estimate_request::exact_seconds)
  std::vector<std::string> written;  ///< files written (the SVGs), a "wrote FILE" line each, last
  /// How the text spells the parameters it names (seconds, show_string, json): the command line's
  /// face gives --seconds; the default, the library's words.
  parameter_face face;
};

/// `warpspan estimate`'s report: "INTERRUPTED ..." first when the search was, then kernel, SM,
/// warps, search (chains, iterations, backend, time, rate, why it stopped), estimate, upper bound,
/// proven (or why skipped), GPU plan (where CUDA ran), validated, beam, envelope, where the worst
/// string came from (and the string), the schedule table, the files written.
void print_estimate_text(std::ostream& out, const problem& prob, const estimate_report& report,
                         const estimate_text_options& options);

}  // namespace warpspan
