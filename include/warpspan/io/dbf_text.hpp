// The text of `warpspan dbf` for people (paper 003): one set's report with its table of dbf at
// given points, a batch's and a sweep's lines and their summaries. The command line prints these
// and a merge of its shards prints the same; --json's objects are in warpspan/io/result_json.hpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "warpspan/core/error.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/dbf/sweep.hpp"

namespace warpspan {

struct set_record;

/// U for people: four decimals, or exactly (with the fraction num/H) when it is 1 or would print as
/// 1 ("just below 1 (= ...)"; a fraction over 80 characters is only counted).
std::string utilisation_text(const utilization_info& u);

/// The EDF verdict in words: "schedulable by EDF", "NOT schedulable: utilisation > 1" or "NOT
/// schedulable by EDF: demand exceeds the interval at t = T".
std::string edf_verdict_text(const edf_result& r);

/// One set's report (`dbf FILE`): its label and tasks (vertices, period, E, U share, table size),
/// utilisation, verdict, t_max, how far the test checked, the first violation, the test's demand
/// evaluations with `elapsed_s` and the session's backend (and GPU kernel time), then
/// print_dbf_at's table when `points` is not empty. dbf at the points must fit 64 bits
/// (total_demand_checked): the caller checks them before anything is printed.
void print_dbf_set(std::ostream& out, const analysed_set& a, const std::vector<std::uint64_t>& points, double elapsed_s,
                   const dbf_session& session);

/// The table of `dbf FILE --at T,...`: a row per t of `points` (increasing), each task's dbf(t) and
/// the total, digits in groups of three; input_error (from at_checked) before anything is printed
/// when a value is over 2^64 - 1.
void print_dbf_at(std::ostream& out, const analysed_set& a, const std::vector<std::uint64_t>& points);

// ---------------------------------------------------------------------------------- batch and sweep
/// A set of a batch as a text run's record: its verdict and its line's columns before the label
/// (verdict, U, t_max, first violation, of fixed widths), or "invalid" and the error spelt by `face`
/// (the line then ends with it and names the set itself).
set_record batch_text_record(const analysed_set& a, const parameter_face& face);

/// A variant of a sweep (of `kind`: wcet, deadline, ...) as a text run's record: its factor,
/// utilisation and verdict, and its line ("KIND x FACTOR  U ...  t_max ...  VERDICT", or
/// "invalid: ERROR" spelt by `face`).
set_record sweep_text_record(const analysed_set& variant, const std::string& kind, const parameter_face& face);

/// A batch's record as the run prints it: the JSON line (`as_json`), an invalid set's line, or the
/// text line followed by the set's label.
void print_batch_record(std::ostream& out, const set_record& r, bool as_json);
/// A sweep's record as the run prints it: its line (a JSON one with its end of line).
void print_sweep_record(std::ostream& out, const set_record& r, bool as_json);

/// The sets of a batch that were printed, as its summary counts them.
struct dbf_batch_tally {
  std::size_t done = 0, schedulable = 0, invalid = 0;
  void add(const set_record& r);
};

/// The variants of a sweep that were printed: counted, the schedulable factors' range, and the grid
/// (critical_factor's, sweep_svg's).
struct dbf_sweep_tally {
  std::size_t done = 0, schedulable = 0;
  std::optional<double> lo, hi;  ///< the least and greatest schedulable factor
  std::vector<sweep_point> grid;
  void add(const set_record& r);
};

/// How a batch or sweep ended, the parts of a sharded or ranked run together.
struct dbf_run_end {
  bool finished = true;  ///< false: interrupted (the summary is of the sets done)
  double elapsed_s = 0;  ///< tables and tests
  double kernel_s = -1;  ///< the GPU kernels' share of it; < 0: no kernel ran (a CPU backend)
};

/// A text batch's last line: "N of M sets schedulable" (with `keep_going` the not schedulable and
/// invalid counted apart), the backend that ran (`backend`, backend_label) and the time; prefixed
/// "interrupted: " when the run did not finish.
void print_batch_summary(std::ostream& out, const dbf_batch_tally& t, const dbf_run_end& end,
                         const std::string& backend, bool keep_going);

/// A text sweep's summary: the variants schedulable (and their factors' range), the backend and
/// time; the critical factor (by bisection; `transitions` the verdict's changes on the grid) or
/// that there is none; "wrote SVG" when `svg` is not empty.
void print_sweep_summary(std::ostream& out, const dbf_sweep_tally& t, const sweep_spec& spec, const dbf_run_end& end,
                         const std::string& backend, const std::optional<double>& critical, std::size_t transitions,
                         const std::string& svg);

}  // namespace warpspan
