#include "warpspan/io/estimate_text.hpp"

#include <algorithm>
#include <iomanip>
#include <optional>

#include "warpspan/detail/io/default_format.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {
namespace {

using io_detail::default_format;

/// The search line: chains (run of asked), iterations, backend, time and rate, and why it stopped.
void print_search(std::ostream& out, const estimate_report& report, const parameter_face& face) {
  const estimate_result& r = report.result;
  out << "search      "
      << (r.chains_run < r.chains ? std::to_string(r.chains_run) + " of " + std::to_string(r.chains) +
                                        (" chains (the rest did not fit the set-up's share of " + param("seconds") +
                                         " or were interrupted)")
                                            .render(face)
                                  : std::to_string(r.chains) + " chains")
      << " x " << r.iterations_per_chain << " iterations on " << r.backend << " in " << std::fixed
      << std::setprecision(2) << r.elapsed_s << " s (" << std::setprecision(3) << std::scientific
      << static_cast<double>(r.iterations) / std::max(r.elapsed_s, 1e-9) << " it/s)" << std::defaultfloat
      << (r.time_limited ? (", stopped by " + param("seconds")).render(face) : "")
      << (report.cooling_fitted_to_seconds && !r.time_limited && !r.interrupted
              ? (", cooled to fit " + param("seconds")).render(face)
              : "")
      << (r.interrupted ? ", interrupted" : "") << "\n";
}

/// The proven line: the interval and where its ends come from, or that it was skipped.
void print_proven(std::ostream& out, const estimate_report& report, double exact_seconds) {
  const std::optional<proven_interval>& proven = report.proven;
  if (proven) {
    out << "proven      " << proven->lower << " <= worst case <= " << proven->upper << " cycles (";
    if (proven->exact && proven->upper_from == "exact")
      out << "exact search";
    else if (proven->exact)
      out << "the " << proven->upper_from << " bound is attained";
    else
      out << "upper from the " << proven->upper_from
          << (proven->upper_from == "search" ? " within the time" : " bound");
    out << ", " << std::setprecision(3) << proven->elapsed_s << " s)\n";
  } else if (exact_seconds > 0 && report.result.interrupted) {
    out << "proven      (skipped: interrupted)\n";
  }
}

/// How the chains filled the device (blocks against the SMs' residency), where CUDA ran them.
void print_gpu_plan(std::ostream& out, const estimate_result& r) {
  const auto& c = r.cuda;
  if (!c.used) return;
  const double waves = c.resident_chains ? static_cast<double>(r.chain_end - r.chain_begin) / c.resident_chains : 0;
  out << "GPU plan    " << c.blocks << " blocks of " << c.block
      << (c.design == chain_design::warp ? " threads (a chain a block) on " : " threads (a chain each) on ") << c.sms
      << " SMs, state " << (c.on_chip ? "in shared memory" : "in global memory") << ", "
      << (c.packing == chain_packing::wide ? std::string() : packing_name(c.packing) + std::string(", "))
      << c.chain_bytes << " bytes a chain; " << c.resident_threads_per_sm / 32 << " warps a SM resident, "
      << c.resident_chains << " chains fill the device (" << std::setprecision(2) << std::defaultfloat << waves
      << " of that here)\n";
}

/// The envelope, where the worst string came from, and the string (or how long it is).
void print_worst_string(std::ostream& out, const estimate_report& report, bool show_string,
                        const parameter_face& face) {
  const estimate_result& r = report.result;
  out << "envelope    ";
  for (std::size_t k = 0; k < r.envelope.size(); ++k)
    out << (k ? ", " : "") << std::setprecision(3) << r.envelope[k].seconds << " s: " << r.envelope[k].best;
  if (report.best_from == "annealing")
    out << "\nworst string from chain " << r.best_chain << " (" << to_string(r.best_chain_init) << " start)";
  else
    out << "\nworst string from the " << report.best_from << " (the chains' best: " << report.annealing_best << ")";
  if (!show_string) {
    out << " (" << r.best_string.size()
        << (" warp ids: " + param("show_string") + ", or best_string in " + param("json") + ")\n").render(face);
    return;
  }
  const std::vector<int> ids = one_based(r.best_string);
  out << ": ";
  for (std::size_t k = 0; k < ids.size(); ++k) out << (k ? " " : "") << ids[k];
  out << "\n";
}

}  // namespace

std::string barrier_note(const problem& prob) {
  const std::uint32_t n = prob.barriers();
  if (n == 0) return "";
  return ", " + std::to_string(n) + (n == 1 ? " barrier (" : " barriers (") +
         (prob.block_warps() == prob.warps ? "one block of all " + std::to_string(prob.warps) + " warps)"
                                           : "blocks of " + std::to_string(prob.block_warps()) + " warps)");
}

void print_estimate_text(std::ostream& out, const problem& prob, const estimate_report& report,
                         const estimate_text_options& options) {
  const default_format format(out);
  const estimate_result& r = report.result;
  if (r.interrupted)
    out << "INTERRUPTED (Ctrl-C or SIGTERM): the best found so far, " << r.iterations << " iterations in "
        << std::setprecision(3) << r.elapsed_s << " s\n";
  out << "kernel      " << prob.kernel_text() << " ("
      << (prob.per_warp() ? std::to_string(prob.length()) + " instructions of all warps"
                          : std::to_string(prob.instructions()) + " instructions")
      << " after normalisation, from " << options.origin << ")\n"
      << "SM          " << describe(prob.sm) << "\n"
      << "warps       " << prob.warps << barrier_note(prob) << "\n";
  print_search(out, report, options.face);
  out << "estimate    " << r.best_makespan << " cycles (a lower bound on the worst case)\n"
      << "upper bound " << r.upper_bound << " cycles (pessimistic: every work-conserving schedule, docs/makespan.md)\n";
  print_proven(out, report, options.exact_seconds);
  print_gpu_plan(out, r);
  if (r.validated) out << "validated   " << r.validated << " chains identical on the CPU\n";
  if (r.beam.ran && r.beam.applicable)
    out << "beam        " << r.beam.makespan << " cycles (width " << r.beam.width << ", " << std::setprecision(3)
        << r.beam.seconds << " s" << (r.beam.exact ? ", pruned nothing: exact" : "")
        << "; a start of the beam chains)\n";
  print_worst_string(out, report, options.show_string, options.face);
  if (options.table) out << "\n" << render_table(prob, r.schedule, options.table_width);
  for (const auto& f : options.written) out << "wrote " << f << "\n";
}

}  // namespace warpspan
