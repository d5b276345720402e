#include "warpspan/io/dbf_text.hpp"

#include <algorithm>
#include <iomanip>
#include <sstream>

#include "warpspan/detail/io/default_format.hpp"
#include "warpspan/orchestrator/shards.hpp"

namespace warpspan {
namespace {

using io_detail::default_format;

/// Columns a UTF-8 text takes on a terminal (code points; wide CJK characters count as one).
std::size_t display_width(const std::string& s) {
  std::size_t n = 0;
  for (unsigned char c : s) n += (c & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

/// `s` padded with spaces to `width` columns (left-aligned), or right-aligned with `right`.
std::string padded(const std::string& s, std::size_t width, bool right = false) {
  const std::size_t w = display_width(s);
  const std::string fill(w < width ? width - w : 0, ' ');
  return right ? fill + s : s + fill;
}

std::string optional_text(const std::optional<std::uint64_t>& v, const char* none) {
  return v ? std::to_string(*v) : std::string(none);
}

/// An integer's digits in groups of three from the right, a space between groups: 1 234 567.
std::string grouped(std::uint64_t v) {
  const std::string digits = std::to_string(v);
  std::string out;
  for (std::size_t k = 0; k < digits.size(); ++k) {
    if (k > 0 && (digits.size() - k) % 3 == 0) out += ' ';
    out += digits[k];
  }
  return out;
}

/// How far the test checked, and why there.
std::string checked_text(const edf_result& r) {
  if (!r.limit) return "-";
  if (r.u.vs_one == 0) return std::to_string(*r.limit) + " (H + max P, U = 1)";
  if (r.limit != r.u.t_max) return std::to_string(*r.limit) + " (H + max P, below t_max)";
  return std::to_string(*r.limit) + " (t_max)";
}

/// The verdict column of a batch line, and the width of the columns after it (U, t_max, first
/// violation), which an invalid set's line leaves blank.
constexpr std::size_t batch_verdict_width = 17, batch_columns_width = 2 + 8 + 8 + 20 + 18 + 20;

/// U in a batch line's 8 columns: 4 decimals, "1" exactly, 1.0000- or 1.0000+ just below or above
/// (the exact fraction is in --json's utilization_exact).
std::string batch_utilisation(const utilization_info& u) {
  if (u.vs_one == 0) return "1";
  std::ostringstream out;
  out << std::fixed << std::setprecision(4) << u.value;
  if (out.str() == "1.0000") return u.vs_one < 0 ? "1.0000-" : "1.0000+";
  return out.str();
}

/// The text after a run's elapsed time: its GPU kernels' share, where they ran.
std::string kernel_text(double kernel_s) {
  if (kernel_s < 0) return "";
  std::ostringstream out;
  out << ", GPU kernels " << std::setprecision(3) << kernel_s << " s of it";
  return out.str();
}

}  // namespace

std::string utilisation_text(const utilization_info& u) {
  if (u.vs_one == 0) return "1 (= " + u.exact + ")";
  std::ostringstream out;
  out << std::fixed << std::setprecision(4) << u.value;
  if (out.str() != "1.0000") return out.str();
  std::ostringstream close;
  close << std::setprecision(15) << u.value;
  std::string text = close.str();
  if (text == "1") text = u.vs_one < 0 ? "just below 1" : "just above 1";
  return text +
         " (= " + (u.exact.size() <= 80 ? u.exact : "a fraction of " + std::to_string(u.exact.size()) + " characters") +
         ")";
}

std::string edf_verdict_text(const edf_result& r) {
  if (r.u.vs_one > 0) return "NOT schedulable: utilisation > 1";
  if (!r.schedulable)
    return "NOT schedulable by EDF: demand exceeds the interval at t = " + optional_text(r.first_violation, "?");
  return "schedulable by EDF";
}

void print_dbf_set(std::ostream& out, const analysed_set& a, const std::vector<std::uint64_t>& points, double elapsed_s,
                   const dbf_session& session) {
  const default_format format(out);
  const task_set& set = a.set;
  const edf_result& r = a.result;
  std::size_t name_width = 12;  // names of any length (and UTF-8) keep the columns straight
  for (const task& t : set.tasks) name_width = std::max(name_width, display_width(t.name) + 2);
  out << "task set         " << a.label << " (" << set.tasks.size() << " task" << (set.tasks.size() == 1 ? "" : "s")
      << ")\n\n"
      << padded("task", name_width) << std::right << std::setw(9) << "vertices" << std::setw(12) << "period"
      << std::setw(12) << "E" << std::setw(10) << "U share"
      << "   table (rows x demands)\n";
  for (std::size_t k = 0; k < set.tasks.size(); ++k) {
    const unrolled_graph& g = a.graphs[k];
    out << padded(set.tasks[k].name, name_width) << std::right << std::setw(9) << set.tasks[k].vertices.size()
        << std::setw(12) << g.period << std::setw(12) << g.E << std::setw(10) << std::fixed << std::setprecision(4)
        << static_cast<double>(g.E) / static_cast<double>(g.period) << std::defaultfloat << "   " << g.rows << " x "
        << g.columns() << "\n";
  }
  out << "\nutilisation      " << utilisation_text(r.u) << "\n"
      << "verdict          " << edf_verdict_text(r) << "\n"
      << "t_max            "
      << optional_text(r.u.t_max, r.u.vs_one == 0 ? "none (utilisation = 1)" : "none (utilisation > 1)") << "\n"
      << "checked to       " << checked_text(r) << "\n"
      << "first violation  " << (r.u.vs_one > 0 ? "-" : optional_text(r.first_violation, "none")) << "\n"
      << "test             " << r.points << " demand evaluations (" << to_string(session.method()) << ") on "
      << backend_label(session.options().backend) << ", " << std::setprecision(3) << elapsed_s
      << " s for tables and test";
  if (session.on_device()) out << " (GPU kernels " << std::setprecision(3) << session.kernel_seconds() << " s of it)";
  out << "\n";
  if (!points.empty()) print_dbf_at(out, a, points);
}

void print_dbf_at(std::ostream& out, const analysed_set& a, const std::vector<std::uint64_t>& points) {
  const default_format format(out);
  // Every value first: a dbf over 2^64 is refused before anything of the table is printed.
  std::vector<std::vector<std::uint64_t>> rows;
  for (std::uint64_t t : points) {
    std::vector<std::uint64_t> row;
    for (const dbf_curve& c : a.curves) row.push_back(c.at_checked(t));
    row.push_back(total_demand_checked(a.curves, t));
    rows.push_back(std::move(row));
  }
  // Digits in groups of three (999 999 999 999 999 999); every column as wide as its widest entry
  // and two spaces apart (--json has the plain numbers).
  std::size_t t_width = 14;
  for (std::uint64_t t : points) t_width = std::max(t_width, grouped(t).size() + 2);
  std::vector<std::size_t> width;
  for (const task& t : a.set.tasks) width.push_back(std::max<std::size_t>(14, display_width(t.name) + 6));
  width.push_back(14);
  for (const auto& row : rows)
    for (std::size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], grouped(row[c]).size() + 2);
  out << "\n" << padded("t", t_width, true);
  for (std::size_t k = 0; k < a.set.tasks.size(); ++k) out << padded("dbf " + a.set.tasks[k].name, width[k], true);
  out << padded("total", width.back(), true) << "\n";
  for (std::size_t k = 0; k < points.size(); ++k) {
    out << padded(grouped(points[k]), t_width, true);
    for (std::size_t c = 0; c < rows[k].size(); ++c) out << padded(grouped(rows[k][c]), width[c], true);
    out << "\n";
  }
}

// ---------------------------------------------------------------------------------- batch and sweep
set_record batch_text_record(const analysed_set& a, const parameter_face& face) {
  set_record rec;
  rec.index = a.index;
  rec.label = a.label;
  if (!a.error.empty()) {
    rec.verdict = 2;
    rec.line = padded("invalid", batch_verdict_width) + std::string(batch_columns_width, ' ') + "  " +
               a.error.render(face) + "\n";
    return rec;
  }
  const edf_result& r = a.result;
  rec.verdict = r.schedulable ? 0 : 1;
  // Columns of fixed widths (a t up to 2^64 fits), the label last: no line shifts another.
  std::ostringstream out;
  out << padded(r.schedulable ? "schedulable" : "NOT schedulable", batch_verdict_width) << "U " << std::left
      << std::setw(8) << batch_utilisation(r.u) << std::right << "  t_max " << std::setw(20)
      << optional_text(r.u.t_max, "-") << "  first violation " << std::setw(20)
      << (r.u.vs_one > 0 ? std::string("U > 1") : optional_text(r.first_violation, "-"));
  rec.line = out.str();
  return rec;
}

set_record sweep_text_record(const analysed_set& variant, const std::string& kind, const parameter_face& face) {
  const edf_result* r = variant.error.empty() ? &variant.result : nullptr;
  set_record rec;
  rec.index = variant.index;
  rec.factor = variant.factor;
  rec.u = r ? r->u.value : 0;
  rec.verdict = r ? (r->schedulable ? 0 : 1) : 2;
  std::ostringstream out;
  out << kind << " x " << std::fixed << std::setprecision(4) << variant.factor << std::defaultfloat;
  if (!r)
    out << "  invalid: " << variant.error.render(face) << "\n";
  else
    out << "  U " << utilisation_text(r->u) << "  t_max " << std::setw(12) << optional_text(r->u.t_max, "-") << "  "
        << edf_verdict_text(*r) << "\n";
  rec.line = out.str();
  return rec;
}

void print_batch_record(std::ostream& out, const set_record& r, bool as_json) {
  if (as_json)
    out << r.line << '\n';
  else if (r.verdict == 2)
    out << r.line;  // names the set itself
  else
    out << r.line << "  " << r.label << '\n';
}

void print_sweep_record(std::ostream& out, const set_record& r, bool as_json) {
  out << r.line << (as_json ? "\n" : "");
}

void dbf_batch_tally::add(const set_record& r) {
  ++done;
  invalid += r.verdict == 2 ? 1 : 0;
  schedulable += r.verdict == 0 ? 1 : 0;
}

void dbf_sweep_tally::add(const set_record& r) {
  ++done;
  grid.push_back({r.factor, r.u, r.verdict});
  if (r.verdict == 0) {
    ++schedulable;
    lo = lo ? std::min(*lo, r.factor) : r.factor;
    hi = hi ? std::max(*hi, r.factor) : r.factor;
  }
}

void print_batch_summary(std::ostream& out, const dbf_batch_tally& t, const dbf_run_end& end,
                         const std::string& backend, bool keep_going) {
  const default_format format(out);
  if (!end.finished) out << "interrupted: ";
  out << t.schedulable << " of " << t.done << " sets schedulable";
  if (keep_going) out << " (" << t.done - t.schedulable - t.invalid << " not schedulable, " << t.invalid << " invalid)";
  out << (end.finished ? "" : " (the sets done)") << " (" << backend << ", " << std::setprecision(3) << end.elapsed_s
      << " s for all tables and tests" << kernel_text(end.kernel_s) << ")\n";
}

void print_sweep_summary(std::ostream& out, const dbf_sweep_tally& t, const sweep_spec& spec, const dbf_run_end& end,
                         const std::string& backend, const std::optional<double>& critical, std::size_t transitions,
                         const std::string& svg) {
  const default_format format(out);
  if (!end.finished) out << "interrupted after " << t.done << " of " << spec.steps << " variants: ";
  out << t.schedulable << " of " << (end.finished ? spec.steps : t.done) << " variants schedulable";
  if (t.lo) out << " (factors " << *t.lo << " to " << *t.hi << " among them)";
  out << "; " << backend << ", " << std::setprecision(3) << end.elapsed_s << " s for all tables and tests"
      << kernel_text(end.kernel_s) << "\n";
  if (critical)
    out << "critical factor  " << std::setprecision(7) << *critical << " (the " << spec.kind
        << " factor where the verdict changes, by bisection"
        << (transitions > 1 ? "; the first of " + std::to_string(transitions) + " changes on the grid" : "") << ")\n";
  else if (end.finished)
    out << "critical factor  none on the grid (the verdict does not change between valid variants)\n";
  if (!svg.empty()) out << "wrote " << svg << "\n";
}

}  // namespace warpspan
