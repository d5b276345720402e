// Traces of instrumented GPU runs (002 Sec. II-B and V-A): reading them (text, GPGPU-sim style and
// the binary form the probe writes), slicing them into warp-specific traces (WSTs) and parsing every
// WST with the IPG.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/wcet/ipg.hpp"

namespace warpspan::wcet {

struct trace_record {
  std::uint64_t run = 0, sm = 0, cta = 0, warp = 0;
  ipoint_id ipoint = 0;
  std::int64_t time = 0;
  std::uint32_t file = 0;  ///< index into trace_set::files
  std::uint64_t line = 0;  ///< 1-based line (binary: record number)
};

struct trace_set {
  std::vector<std::string> files;
  std::vector<trace_record> records;
  std::int64_t probe_cost = -1;  ///< the empty probe's cost a binary trace reports, -1 when none
  std::uint64_t skipped = 0;     ///< GPGPU-sim lines whose PC is not an Ipoint (simulators log every instruction)
  /// Per file: its times come from one clock for every SM, so that times on different SMs compare
  /// (the whole-launch HWMT). GPGPU-sim logs: yes (one core-cycle counter for the whole GPU); binary
  /// traces: no (the probe's %clock64 is each SM's own counter, not synchronised across SMs); text
  /// traces: what a `# clock: global` or `# clock: sm` line says, no by default.
  std::vector<bool> one_clock;
};

/// `--clock`: "auto" (what every trace file says: one clock only when all say so), "sm" or "global".
/// Returns nullopt for auto, else whether the times share one clock.
std::optional<bool> parse_trace_clock(std::string_view word);

enum class trace_format { automatic, text, gpgpusim, binary };

/// Parses "auto", "text", "gpgpusim" or "binary".
trace_format parse_trace_format(std::string_view word);

/// Appends the records of one trace file (its content already read) to `set`, resolving Ipoint
/// names with `graph`. GPGPU-sim traces are one run per file (the run is the file's index among
/// the gpgpusim files read so far); a warp slot that starts over at s is a new warp. Any error is an
/// input_error "path:line: what".
void read_trace(const std::string& path, std::string_view content, trace_format format, const ipg& graph,
                trace_set& set);

/// The largest empty-probe cost a binary trace header may give (-1 there: not measured); beyond it
/// the header is malformed.
inline constexpr std::int64_t max_header_probe_cost = std::int64_t{1} << 32;

/// The binary trace: "WSWCET01", i64 probe cost, u32 name count, names (u32 length + bytes),
/// u64 record count, then records of u32 run, sm, cta, warp, ipoint (an index into the names), u32 0,
/// i64 time; little-endian.
std::string binary_trace(const std::vector<std::string>& names, const std::vector<trace_record>& records,
                         std::int64_t probe_cost);
/// The text form: a comment header, a `# clock: global` or `# clock: sm` line, and one `run sm cta warp
/// ipoint time` line per record.
std::string text_trace(const std::vector<std::string>& names, const std::vector<trace_record>& records,
                       const std::string& comment, bool one_clock = false);

struct warp_key {
  std::uint64_t run = 0, sm = 0, cta = 0, warp = 0;
  auto operator<=>(const warp_key&) const = default;
};

/// A warp-specific trace (Sec. V-A): one warp's records in time order. `time` keeps the SM clock
/// (the concurrency model needs it); the WST's own times are time[i] - time[0].
struct wst {
  warp_key key;
  std::vector<ipoint_id> ipoints;
  std::vector<std::int64_t> time;
  std::vector<std::uint64_t> index;  ///< each record's position in the trace_set
};

/// Slices the records into WSTs, in the order their warps first appear. A warp whose time goes
/// backwards is an input_error naming the record.
std::vector<wst> slice_traces(const trace_set& set);

struct edge_observation {
  bool seen = false;
  std::int64_t wcet = 0;        ///< largest observed time of the transition (after the probe cost)
  std::uint64_t max_count = 0;  ///< largest number of times one WST takes it
  std::uint64_t total = 0;
};

struct trace_observations {
  std::vector<edge_observation> edges;      ///< per IPG edge
  std::vector<std::uint64_t> loop_bound;    ///< per IPG loop: most iterations per entry seen
  std::vector<std::uint64_t> loop_entries;  ///< per IPG loop: entries seen in all
  std::int64_t longest_wst = 0;             ///< largest t - s time of one WST
  std::int64_t longest_wst_net = 0;         ///< the same with the probe cost taken off every transition
  std::int64_t shortest_transition = -1;    ///< smallest time between two records of one WST, -1 when none
  std::uint64_t shortest_record = 0;        ///< the trace_set record that ends it
  std::uint64_t runs = 0, warps = 0;
  /// Per Ipoint: the most times one warp visited it in one pass through its innermost loop (in one
  /// warp outside loops; 0 when never visited). A pass starts at each edge entering or iterating
  /// that loop (ipet_visit_bound).
  std::vector<std::uint64_t> visits_per_pass;
  /// Per Ipoint: a warp visited it inside its loop before any pass of that loop started (the loop
  /// does not hold s): no per-pass bound covers it, so it gets none.
  std::vector<bool> visits_unbounded;
};

/// Parses every WST with the IPG: it must start at s, end at t and take IPG edges only; otherwise
/// an input_error names the record that cannot be parsed. `probe_cost` is subtracted from every
/// transition (not below 0; analyse_wcet refuses a cost above the shortest transition). Loop iterations are counted per entry: an edge entering a loop starts
/// a new count, an edge iterating it adds one.
trace_observations observe(const std::vector<wst>& wsts, const ipg& graph, const trace_set& set,
                           std::int64_t probe_cost);

}  // namespace warpspan::wcet
