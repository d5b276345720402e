#include "options.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <iterator>
#include <string>

#include "warpspan/core/quote.hpp"

namespace warpspan::cli {

namespace {

// The library's parameter names and the options that set them. One table: a parameter missing here
// keeps the library's name in a message.
constexpr parameter_spelling cli_spellings[] = {
    {"at_most", "--at-most"},
    {"atom_runs", "--atom-runs"},
    {"atom_threads", "--atom-threads"},
    {"backend", "--backend"},
    {"batch", "--batch"},
    {"beam_share", "--beam-share"},
    {"beam_width", "--beam-width"},
    {"block", "--block"},
    {"block_warps", "--block-warps"},
    {"cfg_path", "--cfg"},
    {"chains", "--chains"},
    {"check", "--check"},
    {"clock", "--clock"},
    {"constraints", "--constraints"},
    {"edf", "--edf"},
    {"eval_timeout", "--eval-timeout"},
    {"evaluations", "--evaluations"},
    {"exact_seconds", "--exact-seconds"},
    {"exact_up_to", "--exact-up-to"},
    {"far_moves", "--far-moves"},
    {"file", "FILE"},
    {"fitness", "--fitness"},
    {"harness", "--harness"},
    {"init", "--init"},
    {"iterations", "--iterations"},
    {"jobs", "--jobs"},
    {"json", "--json"},
    {"keep_going", "--keep-going"},
    {"kernel", "--kernel"},
    {"lines", "--ptx-lines"},
    {"loop_bounds", "--loop-bound"},
    {"loop_passes", "--ptx-loops"},
    {"lp", "--lp"},
    {"max_mib", "--max-mib"},
    {"max_states", "--max-states"},
    {"warm_start", "--warm-start"},
    {"max_table_mib", "--max-table-mib"},
    {"max_trace_mib", "--max-trace-mib"},
    {"method", "--method"},
    {"overrides", "--ptx-map"},
    {"population", "--population"},
    {"probe_cost", "--probe-cost"},
    {"ptx_path", "--ptx"},
    {"reach", "--reach"},
    {"runs", "--runs"},
    {"save_warp_kernels", "--save-warp-kernels"},
    {"seconds", "--seconds"},
    {"show_string", "--show-string"},
    {"sigma", "--sigma"},
    {"size", "--size"},
    {"slice", "--slice"},
    {"slices", "--shard"},
    {"sm", "--sm"},
    {"sms", "--sms"},
    {"string", "--string"},
    {"sweep", "--sweep"},
    {"t0", "--t0"},
    {"threads", "--threads"},
    {"time_limit", "--time-limit"},
    {"tolerance", "--tolerance"},
    {"trace_format", "--trace-format"},
    {"validate", "--validate"},
    {"warp_kernels", "--warp-kernels"},
    {"warps", "--warps"},
};

/// Plain decimal digits (after one '-' when `sign`), all of `text`.
bool decimal(const std::string& text, bool sign) {
  std::size_t k = sign && !text.empty() && text[0] == '-' ? 1 : 0;
  if (k == text.size()) return false;
  for (; k < text.size(); ++k)
    if (text[k] < '0' || text[k] > '9') return false;
  return true;
}

template <class T>
std::string range_text() {
  return "an integer from " + std::to_string(std::numeric_limits<T>::min()) + " to " +
         std::to_string(std::numeric_limits<T>::max());
}

/// Empty when `text` is a decimal T, which it then holds without leading zeros (CLI11 would read
/// "010" as octal 8); the message otherwise.
template <class T>
std::string check_integer(std::string& text) {
  T v{};
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (!decimal(text, std::is_signed_v<T>) || ec != std::errc() || end != text.data() + text.size())
    return "must be " + range_text<T>() + ", got " + quote_text(text);
  text = std::to_string(v);
  return {};
}

std::string check_finite(const std::string& text) {
  char* end = nullptr;
  const double v = text.empty() ? 0 : std::strtod(text.c_str(), &end);
  if (text.empty() || end != text.c_str() + text.size() || !std::isfinite(v))
    return "must be a finite number, got " + quote_text(text);
  return {};
}

void add_checks(CLI::App& app) {
  for (CLI::Option* opt : app.get_options()) {
    if (opt->get_expected_max() == 0) continue;  // a flag
    std::string type = opt->get_type_name();
    type = type.substr(0, type.find(':'));
    // Only an option that may be given without its value (--validate) takes "" (its default).
    const bool bare = opt->get_expected_min() == 0;
    if (type == "UINT")
      opt->transform(CLI::Validator(
          [bare](std::string& s) { return bare && s.empty() ? std::string() : check_integer<std::uint64_t>(s); }, ""));
    else if (type == "INT")
      opt->transform(CLI::Validator(
          [bare](std::string& s) { return bare && s.empty() ? std::string() : check_integer<std::int64_t>(s); }, ""));
    else if (type == "FLOAT")
      opt->check(
          CLI::Validator([bare](std::string& s) { return bare && s.empty() ? std::string() : check_finite(s); }, ""));
  }
  for (CLI::App* sub : app.get_subcommands({})) add_checks(*sub);
}

}  // namespace

const CLI::Validator& not_negative() {
  static const CLI::Validator v(
      [](std::string& s) {
        const auto first = s.find_first_not_of(" \t");
        return first != std::string::npos && s[first] == '-' ? "must not be negative, got " + quote_text(s)
                                                             : std::string();
      },
      "");
  return v;
}

CLI::Validator integer_range(std::int64_t lo, std::int64_t hi) {
  return CLI::Validator(
      [lo, hi](std::string& s) {
        std::int64_t v = 0;
        const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
        if (!decimal(s, true) || ec != std::errc() || end != s.data() + s.size() || v < lo || v > hi)
          return "must be an integer from " + std::to_string(lo) + " to " + std::to_string(hi) + ", got " +
                 quote_text(s);
        return std::string();
      },
      "");
}

void check_numeric_options(CLI::App& app) { add_checks(app); }

const parameter_face& cli_face() {
  static const parameter_face face{cli_spellings, std::size(cli_spellings), parameter_face::style::option};
  return face;
}

}  // namespace warpspan::cli
