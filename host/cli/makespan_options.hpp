// What the makespan commands share (estimate, exact, bound, build, kernel): the problem's options
// (kernel, warps, SM) and small helpers for printing.
#pragma once

#include <sys/ioctl.h>
#include <unistd.h>

#include <cctype>
#include <charconv>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <optional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "progress_line.hpp"
#include "options.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/exact/ilp.hpp"
#include "warpspan/exact/interval.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/exact/sweep_ranks.hpp"
#include "warpspan/io/estimate_text.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/io/svg.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/orchestrator/build_string.hpp"
#include "warpspan/orchestrator/estimate_run.hpp"
#include "warpspan/orchestrator/exact_run.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/ptx.hpp"

namespace warpspan::cli {

/// The columns of the terminal stdout goes to; 0 when it is not a terminal (a file or pipe gets
/// whole rows).
inline std::size_t terminal_columns() {
  if (!isatty(STDOUT_FILENO)) return 0;
  winsize ws{};
  if (ioctl(STDOUT_FILENO, TIOCGWINSZ, &ws) != 0 || ws.ws_col == 0) return 80;
  return ws.ws_col;
}

using json = nlohmann::json;

/// A rate or a duration for a progress line: three significant digits.
inline std::string rate_text(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g", v);
  return buf;
}

/// True when the user gave the option, even as an empty string ("--ptx ''" is a mistake, not "no --ptx").
inline bool given(const CLI::Option* opt) { return opt != nullptr && opt->count() > 0; }

/// A whole number in `text`, all of it; nullopt for anything else (a sign, a suffix, overflow).
inline std::optional<int> whole_number(std::string_view text) {
  int v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size() || text.empty() || text[0] == '-' || text[0] == '+')
    return std::nullopt;
  return v;
}

/// One line on stderr for each loop of a PTX body that the walk never reached (within the lines
/// asked for): the kernel string lacks it.
inline void warn_unwalked_loops(const std::string& path, const ptx_options& o, const ptx_import_result& r) {
  for (const auto& l : r.loops) {
    const bool in_range =
        (o.first_line == 0 || l.head_line >= o.first_line) && (o.last_line == 0 || l.back_line <= o.last_line);
    if (l.passes == 0 && in_range)
      std::cerr << "warpspan: warning: " << path << ": the loop at lines " << l.head_line << "-" << l.back_line
                << " is not on the path walked; the kernel string leaves it out\n";
  }
}

/// The options every makespan command shares: what kernel, how many warps, which SM.
struct problem_options {
  std::string kernel;
  std::string ptx;
  std::string ptx_lines;
  int ptx_loops = 1;
  std::string ptx_entry;
  std::string ptx_map;
  std::string warp_kernels;
  std::int64_t warps = 0;
  std::int64_t block_warps = 0;
  bool need_warps = true;
  CLI::Option* warp_kernels_opt = nullptr;
  CLI::Option* warps_opt = nullptr;
  std::string sigma;
  std::string sm;
  int schedulers = -1;
  CLI::Option* kernel_opt = nullptr;
  CLI::Option* ptx_opt = nullptr;
  CLI::Option* ptx_lines_opt = nullptr;
  CLI::Option* sigma_opt = nullptr;
  CLI::Option* sm_opt = nullptr;

  void add(CLI::App* app, bool need_warps = true) {
    kernel_opt =
        app->add_option("--kernel,-k", kernel,
                        "kernel instruction string, plain (LLCC) or run-length (5L9C2L9C), or @FILE to read it "
                        "from a file (e.g. @data/kernels/voronoi.txt; # starts a comment)");
    ptx_opt = app->add_option("--ptx", ptx, "read the kernel from a PTX file instead (see data/kernels/README.md)");
    ptx_lines_opt = app->add_option("--ptx-lines", ptx_lines, "with --ptx: only lines A:B (1-based, inclusive)");
    app->add_option("--ptx-loops", ptx_loops,
                    "with --ptx: passes through each loop (a branch back is taken N - 1 times; a loop bound the "
                    "PTX does not state); default 1, the first pass only")
        ->check(integer_range(1, max_ptx_loop_passes));
    app->add_option("--ptx-entry", ptx_entry, "with --ptx: the .entry/.func to read (default: the first)");
    app->add_option("--ptx-map", ptx_map, "with --ptx: override classes, e.g. mov=L,mul.f32=D");
    warps_opt = app->add_option("--warps,-w", warps, "number of warps W");
    this->need_warps = need_warps;
    warp_kernels_opt = app->add_option(
        "--warp-kernels", warp_kernels,
        "a path per warp: K1:n1,K2:n2,... (n_i warps run kernel K_i, warps numbered group after group; W is the sum "
        "of the n_i), instead of --kernel/--ptx and --warps (docs/makespan.md, \"A path per warp\")");
    app->add_option("--block-warps", block_warps,
                    "warps per thread block, for the barriers (B, bar.sync): a warp past a barrier waits for "
                    "every warp of its block to issue it; a divisor of W (default: one block of all W warps, as "
                    "when one block fills the SM)")
        ->check(integer_range(1, 1 << 30));
    sigma_opt = app->add_option("--sigma", sigma, "units per warp per cycle, e.g. L=1,C=4 or L=1/2 (overrides --sm)");
    sm_opt = app->add_option("--sm", sm, "SM preset name (see `warpspan sm`) or JSON file");
    app->add_option("--schedulers", schedulers, "at most N warps issue per cycle (0: no limit)")->check(not_negative());
  }

  bool has_ptx() const { return !ptx.empty() || given(ptx_opt); }
  bool has_warp_kernels() const { return !warp_kernels.empty() || given(warp_kernels_opt); }

  /// The groups of --warp-kernels, raw (not normalised); refuses --kernel, --ptx or --warps beside it.
  std::vector<warp_group> raw_groups() const {
    if (!kernel.empty() || given(kernel_opt) || has_ptx())
      throw input_error(param("warp_kernels") + " gives every warp its kernel: leave out " +
                        (has_ptx() ? param("ptx_path") : param("kernel")));
    if (given(warps_opt))
      throw input_error(param("warp_kernels") + " gives the warps (W is the sum of its counts): leave out " +
                        param("warps"));
    // @FILE: what `inputs --save-warp-kernels FILE` wrote (the worst input's slowest block).
    if (!warp_kernels.empty() && warp_kernels[0] == '@')
      return parse_warp_kernels(kernel_from_file(warp_kernels.substr(1), "warp kernels", "--warp-kernels"));
    return parse_warp_kernels(warp_kernels);
  }
  bool has_sm() const { return !sm.empty() || given(sm_opt) || !sigma.empty() || given(sigma_opt); }

  sm_config make_sm() const {
    const bool has_sm = !sm.empty() || given(sm_opt), has_sigma = !sigma.empty() || given(sigma_opt);
    return sm_from_options(has_sm ? std::optional(sm) : std::nullopt, has_sigma ? std::optional(sigma) : std::nullopt,
                           schedulers);
  }

  ptx_options make_ptx_options() const {
    ptx_options o;
    // The SM's rules (its preset's sequence table and constant reads) where --sm names one.
    if (!sm.empty() || given(sm_opt)) o.rules = make_sm().ptx;
    o.loop_passes = ptx_loops;
    o.entry = ptx_entry;
    if (!ptx_map.empty()) o.overrides = parse_ptx_overrides(ptx_map);
    if (!ptx_lines.empty() || given(ptx_lines_opt)) {
      const auto colon = ptx_lines.find(':');
      const std::string_view text(ptx_lines);
      const auto a = colon == std::string::npos ? std::nullopt : whole_number(text.substr(0, colon));
      const auto b = colon == std::string::npos ? std::nullopt : whole_number(text.substr(colon + 1));
      if (!a || !b) throw input_error("--ptx-lines: '" + ptx_lines + "' is not of the form A:B (two whole numbers)");
      o.first_line = *a;
      o.last_line = *b;
      if (o.first_line < 1 || o.last_line < o.first_line) throw input_error("--ptx-lines: need 1 <= A <= B");
    }
    return o;
  }

  /// The kernel string of --kernel @FILE (or the groups of --warp-kernels @FILE, `what` "warp
  /// kernels"): the file's text without `#` comments and white space.
  static std::string kernel_from_file(const std::string& path, const std::string& what = "kernel string",
                                      const std::string& option = "--kernel") {
    if (path.empty()) throw input_error(option + " @: the file name is empty");
    const std::string text = read_text_file(path, what, std::size_t{64} << 20);
    std::string out;
    bool comment = false;
    for (char c : without_bom(text)) {
      if (c == '\n')
        comment = false;
      else if (c == '#')
        comment = true;
      if (!comment && !std::isspace(static_cast<unsigned char>(c)) && c != '#') out.push_back(c);
    }
    if (out.empty()) throw input_error(what + " " + path + ": the file holds no " + what);
    return out;
  }

  kernel_string raw_kernel(std::string* origin = nullptr) const {
    const bool has_kernel = !kernel.empty() || given(kernel_opt);
    if (has_kernel && has_ptx()) throw input_error("give either --kernel or --ptx, not both");
    if (has_ptx()) {
      auto r = import_ptx_file(ptx, make_ptx_options());
      warn_unwalked_loops(ptx, make_ptx_options(), r);
      if (origin) *origin = ptx + " (" + r.entry + ")";
      return r.kernel;
    }
    if (!has_kernel) throw input_error("give --kernel STRING or --ptx FILE");
    if (origin) *origin = "--kernel";
    if (!kernel.empty() && kernel[0] == '@') return parse_kernel_string(kernel_from_file(kernel.substr(1)));
    return parse_kernel_string(kernel);
  }

  problem make(std::string* origin = nullptr) const {
    if (has_warp_kernels()) {
      std::vector<warp_group> groups = raw_groups();
      const normalized_sm norm = normalize(make_sm());
      for (warp_group& g : groups) g.kernel = normalize_kernel(g.kernel, norm);
      if (origin) *origin = "--warp-kernels";
      return make_problem(groups, norm, block_warps);
    }
    if (need_warps && !given(warps_opt))
      throw input_error(param("warps") + " is required (or " + param("warp_kernels") + ")");
    const kernel_string raw = raw_kernel(origin);
    const normalized_sm norm = normalize(make_sm());
    return make_problem(normalize_kernel(raw, norm), norm, warps, block_warps);
  }
};

inline std::string join(const std::vector<int>& v) {
  std::ostringstream os;
  for (std::size_t k = 0; k < v.size(); ++k) os << (k ? " " : "") << v[k];
  return os.str();
}

}  // namespace warpspan::cli
