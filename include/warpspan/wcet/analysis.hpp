// The whole of 002's hybrid analysis in one call: the program (CFG, loops, divergent edges, IPG),
// the traces (WSTs, observed edge times, loop bounds), Z_warp by IPET (checked against the tree-based
// calculation where the IPG is structured) and the concurrency models Z_dynamic (eq. 1) and Z_hybrid
// (eq. 2), compared with the HWMT as in Table II.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "warpspan/wcet/calc.hpp"
#include "warpspan/wcet/cfg.hpp"
#include "warpspan/wcet/concurrency.hpp"
#include "warpspan/wcet/ipg.hpp"
#include "warpspan/wcet/trace.hpp"

namespace warpspan::wcet {

/// A program ready for its traces: the IPG is built in the order of Sec. IV-C.
struct wcet_program {
  cfg graph;
  loop_forest loops;
  std::vector<cfg_edge> divergent;
  ipg ipoints;
};

/// Loops, divergent edges and the IPG of `g`; an irreducible CFG is an input_error naming `where`.
wcet_program prepare_program(cfg g, const std::string& where);

enum class wcet_method { automatic, ilp, tree, enumerate };
wcet_method parse_wcet_method(const std::string& word);
std::string to_string(wcet_method m);

struct wcet_options {
  wcet_method method = wcet_method::automatic;
  std::map<std::string, std::uint64_t> loop_bounds;  ///< by CFG header block: replaces the measured bound
  std::int64_t probe_cost = 0;                       ///< subtracted from every observed transition
  /// The cost is what the binary trace reports (`--probe-cost auto`): above the shortest observed
  /// transition it is cut to that transition (with a warning) instead of refused.
  bool probe_cost_from_trace = false;
  /// Whether the traces' times share one clock across SMs (the whole-launch HWMT): nullopt takes
  /// what the trace files say (trace_set::one_clock, all of them).
  std::optional<bool> one_clock;
};

struct wcet_report {
  std::int64_t probe_cost = 0;        ///< subtracted from every transition
  std::vector<std::string> warnings;  ///< what the caller must show beside the estimates
  std::uint64_t skipped_lines = 0;    ///< trace_set::skipped: simulator lines at PCs without an Ipoint
  trace_observations observed;
  std::vector<bool> bound_measured;  ///< per IPG loop
  ipet_problem problem;
  std::string method;  ///< the calculation that gave z_warp
  std::int64_t z_warp = 0;
  std::optional<std::int64_t> tree;   ///< the tree-based value where the IPG is structured
  std::string tree_text;              ///< how the tree-based value comes about (tree_wcet's explanation)
  std::vector<std::uint64_t> counts;  ///< ILP: the worst-case flow per IPG edge
  concurrency_stats concurrency;
  std::int64_t z_dynamic = 0;  ///< eq. (1)
  std::int64_t z_hybrid = 0;   ///< eq. (2)
  bool one_clock = false;      ///< the times share one clock across SMs: concurrency.hwmt_launch is set
};

/// The program structure as `wcet` reads it: CFG JSON from `cfg_path` or a PTX listing from
/// `ptx_path` (its .entry `entry`, default the first); exactly one of the two is given.
wcet_program load_program(const std::string& cfg_path, const std::string& ptx_path, const std::string& entry);

/// A loop bound HEADER=N (N >= 0).
std::pair<std::string, std::uint64_t> parse_loop_bound(const std::string& text);

/// The probe cost: cycles >= 0, or "auto" for what the binary trace reports (0 when none).
std::int64_t parse_probe_cost(const std::string& text, const trace_set& traces);

/// A trace as given: a file (read up to max_trace_mib) or its text.
struct trace_input {
  std::string label;  ///< the name messages and results give it (the path, "stdin", "trace 1")
  std::string text;   ///< the path of a file, or the trace itself
  bool is_path = true;
};

/// What a user asks of `wcet` (the command line and warpspan.wcet build the same request).
struct wcet_request {
  std::string cfg_path, ptx_path, entry;  ///< exactly one of cfg_path and ptx_path
  std::vector<trace_input> traces;        ///< at least one
  std::string format = "auto";            ///< trace format (parse_trace_format)
  std::string method = "auto";            ///< Z_warp method (parse_wcet_method)
  std::vector<std::string> loop_bounds;   ///< HEADER=N; a header bounded twice differently is refused
  std::string probe_cost = "0";           ///< cycles, or "auto" (the trace's measured cost)
  std::string clock = "auto";             ///< auto, sm or global (parse_trace_clock)
  std::uint64_t max_trace_bytes = std::uint64_t{256} << 20;
  std::string
      max_trace_option;  ///< the parameter that raises max_trace_bytes, named in messages (core/error.hpp; the CLI's "max_trace_mib"); empty: none
};

/// The program, the traces read and the report: what a front end prints or draws.
struct wcet_run {
  wcet_program program;
  trace_set traces;
  wcet_report report;
};

/// Checks and runs `request`: the program, every trace, the loop bounds and the probe cost (its
/// measured value taken from the trace with "auto"), then analyse_wcet.
wcet_run run_wcet(const wcet_request& request);

/// Parses the traces' WSTs with the program's IPG and computes every estimate. A tree-based value
/// that disagrees with the ILP is a logic_error (a bug, not an input problem). No estimate falls below
/// a time the traces show without a word: a given loop bound below the iterations observed, a probe
/// cost above the shortest observed transition (unless it comes from the trace, see wcet_options) and
/// a Z_warp below the longest observed warp are input_errors; Z_dynamic or Z_hybrid below the HWMT
/// (the concurrency models are not safe bounds) is a warning.
wcet_report analyse_wcet(const wcet_program& program, const trace_set& traces, const wcet_options& options);

}  // namespace warpspan::wcet
