#include "warpspan/io/exact_text.hpp"

#include <iomanip>
#include <sstream>
#include <vector>

#include "warpspan/detail/io/default_format.hpp"
#include "warpspan/io/estimate_text.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {
namespace {

/// The search's lines: exact, at most proven, or stopped, with the interval; whether at_most holds.
void print_search(std::ostream& out, const exact_report& report, std::uint32_t at_most) {
  const exact_result& r = report.search;
  std::ostringstream how;  // what searched, on what, and its cost
  how << "(" << report.algorithm << " search on " << report.backend << ", " << r.states << " states, " << r.pruned
      << " pruned, " << std::setprecision(3) << r.elapsed_s << " s)";
  if (r.complete)
    out << "exact       " << r.makespan << " cycles " << how.str() << "\n";
  else if (r.at_most_proven)
    out << "at most     " << r.upper << " cycles proven: no schedule is longer " << how.str() << "\nproven      "
        << r.lower << " <= worst case <= " << r.upper << " cycles\n";
  else
    out << "stopped     " << r.stop_reason << " after " << r.states << " states, " << std::setprecision(3)
        << r.elapsed_s << " s\nproven      " << r.lower << " <= worst case <= " << r.upper << " cycles\n";
  if (r.complete && at_most > 0 && r.makespan > at_most)
    out << "at most     " << at_most << " cycles does not hold: the witness takes " << r.makespan << "\n";
}

/// The ILP's lines: exact, or stopped with CBC's status and the interval.
void print_ilp(std::ostream& out, const ilp_result& r) {
  if (r.complete)
    out << "exact       " << r.makespan << " cycles (ILP with CBC, " << std::setprecision(3) << r.elapsed_s << " s)\n";
  else
    out << "stopped     " << r.status << " after " << std::setprecision(3) << r.elapsed_s << " s\nproven      "
        << r.lower << " <= worst case <= " << r.upper << " cycles\n";
}

}  // namespace

void print_exact_text(std::ostream& out, const problem& prob, const exact_plan& plan, const exact_report& report,
                      const exact_text_options& options) {
  const io_detail::default_format format(out);
  out << "kernel      " << prob.kernel_text() << ", W = " << prob.warps << barrier_note(prob) << ", "
      << describe(prob.sm) << "\n";
  if (report.ilp) {
    const ilp_result& r = report.solved;
    out << "ilp         " << r.variables << " binary variables, " << r.constraints << " constraints ("
        << (plan.ilp_settings.constraints == ilp_constraints::long_form ? "long" : "short")
        << " work-conserving constraints)\n";
  }
  if (!options.lp_note.empty()) out << "lp          " << options.lp_note << "\n";
  if (report.ilp)
    print_ilp(out, report.solved);
  else
    print_search(out, report, plan.search.at_most);
  const std::vector<int> ids = one_based(report.best_string());
  out << "witness     ";
  for (std::size_t k = 0; k < ids.size(); ++k) out << (k ? " " : "") << ids[k];
  out << "\n";
  if (report.interrupted() && !report.ilp)
    out << "interrupted (SIGINT or SIGTERM): the interval above is what the search proved so far\n";
  if (options.table) out << "\n" << render_table(prob, build_schedule(prob, report.best_string()), options.table_width);
}

}  // namespace warpspan
