// Shards: one run split into N independent processes (a job array, machines without MPI) and put
// back together exactly. The slice a shard runs, what its header says, the reading and checking of
// the shards' JSON lines, and the merge of the shards of an estimate or of a dbf batch or sweep into
// the whole run's result. The command line (`--shard I/N`, `warpspan merge`) and Python
// (`shard=(I, N)`, `warpspan.merge`) both call these; the headers' and records' JSON is built in
// warpspan/io/result_json.hpp.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

/// Shard `index` (0-based) of `count`.
struct shard_slice {
  std::uint32_t index = 0, count = 1;
};

/// "I/N" with 0 <= I < N. input_error otherwise, and under mpirun (where the ranks share the work).
shard_slice parse_shard(const std::string& text);

/// The input files of a shard, for its header: {PARAMETER: {"path": PATH, "fnv1a64": HASH}} for
/// every (parameter, path) given with a non-empty path (content_hash, core/file.hpp). The merge
/// refuses shards whose inputs differ, so the shards of two runs on different files never combine.
/// `parameter` is the library's name (param(), core/error.hpp): "kernel", "ptx_path", "sm", "file",
/// "batch".
nlohmann::json shard_inputs(const std::vector<std::pair<std::string, std::string>>& files);

/// One shard's output: the name it is known by in messages (its file) and its JSON lines, the first
/// one its header ({"shard": {"command": ..., "count": N, ...}}).
struct shard_output {
  std::string name;
  std::vector<nlohmann::json> lines;
};

/// Default of the most bytes read_shards reads from all the shards together.
inline constexpr std::uint64_t default_max_shard_mib = 4096;

/// The shards in `files`, a line at a time, at most `max_mib` MiB in all (param("max_mib") names
/// the limit). input_error for a missing, empty or cut-off file, a line that is no JSON or nests
/// deeper than a shard does, a file that is no shard, and shards of different commands. No files:
/// no shards.
std::vector<shard_output> read_shards(const std::vector<std::string>& files,
                                      std::uint64_t max_mib = default_max_shard_mib);

/// A shard's output held in memory (`text`, its JSON lines), named `name` in messages; checked as
/// read_shards checks a file.
shard_output parse_shard_text(const std::string& text, const std::string& name);

/// The command the shards ran: "estimate", "dbf-batch" or "dbf-sweep"; input_error when there are
/// none or they ran different commands.
std::string shards_command(const std::vector<shard_output>& shards);

// ---------------------------------------------------------------------------------- estimate
/// What one part of an estimate found (a shard; the typed record the merge reduces).
struct estimate_part {
  std::uint32_t best_makespan = 0, best_chain = 0;
  std::uint64_t iterations = 0, iterations_per_chain = 0, validated = 0, chains_run = 0;
  double elapsed_s = 0, setup_s = 0;
  std::optional<double> beam_elapsed_s;  ///< the beam's time, where the part ran one
  bool time_limited = false, interrupted = false;
  std::vector<envelope_point> envelope;
};

/// The parts of one run together, as the whole run reports it: `best` the part with the run's best
/// (chain_beats: the highest makespan, the lowest chain id among equals); iterations, validated
/// and chains run summed; iterations_per_chain the least; times and the beam's the longest; time
/// limited where a part was and none was interrupted; the envelope every part's points in time
/// order, each that raises the best so far. `parts` must not be empty.
struct estimate_whole {
  std::size_t best = 0;
  estimate_part total;
};
estimate_whole combine_estimate_parts(const std::vector<estimate_part>& parts);

/// The merge of an estimate's shards: the whole run's JSON (estimate --json), and the shards that
/// were interrupted (the result is then marked interrupted). input_error unless the shards are the
/// complete set of one run (every index once; the same problem, SM, seed, chains, settings and
/// input files) and every shard's best string builds the schedule and makespan it claims within
/// the pessimistic bound of its problem.
struct estimate_merge {
  nlohmann::json result;
  problem prob;                          ///< the problem the shards ran on, rebuilt from their headers
  built_schedule schedule;               ///< the schedule of the run's best string
  std::vector<std::string> interrupted;  ///< the names of the shards that were interrupted
};
estimate_merge merge_estimate_shards(const std::vector<shard_output>& shards);

// ---------------------------------------------------------------------------------- dbf
/// One set's (or sweep variant's) result as a shard holds it: made where the set was analysed,
/// printed in input order by whoever prints the whole run. `line` is the set's output as the run
/// prints it (its JSON, or the text line's columns before the label).
struct set_record {
  std::uint64_t index = 0;
  std::string label;
  std::string line;
  int verdict = 0;           ///< 0 schedulable, 1 not, 2 invalid
  double factor = 0, u = 0;  ///< a sweep's grid point
};

/// The settings of a dbf batch or sweep that its shards' header carries: the merge refuses shards
/// that differ in any, and prints the whole run's output from them. (dbf_shard_json,
/// io/result_json.hpp, writes the header; the input files' hashes are added there.)
struct dbf_shard_settings {
  std::string command;  ///< "dbf-batch" or "dbf-sweep"
  shard_slice slice;
  bool json = true;  ///< the records' lines are JSON (else the command line's text)
  bool check = false, keep_going = false;
  std::string file;   ///< a sweep's task set (the merge reads it again for the summary)
  std::string batch;  ///< a batch's directory or file
  std::string sweep, edf, backend;
  long long threads = 0;
  unsigned block = 0;
  std::uint64_t max_table_mib = 0;
  std::string backend_label;  ///< the backend that ran (backend_label, dbf/pipeline.hpp)
};

/// A set of a batch (`batch`) or a variant of a sweep as a JSON run's shard records it: its line
/// dbf_batch_json or sweep_variant_json (io/result_json.hpp), its verdict, and a sweep's grid point.
set_record json_set_record(const analysed_set& a, bool batch);

/// A record read back from its JSON (set_record_json, io/result_json.hpp); json exceptions where a
/// key is missing or of another type.
set_record set_record_from_json(const nlohmann::json& j);

/// `records` (of shards, or of ranks) in input order, up to the first set missing (a gap an
/// interrupted part left): the records the whole run prints.
void in_input_order(std::vector<set_record>& records);

/// The verdict a record's line states (0 schedulable, 1 not, 2 invalid), read as the dbf command
/// prints it (`as_json`: a JSON object; else a batch or sweep text line); nullopt when it states none.
std::optional<int> stated_verdict(const std::string& line, bool as_json);

/// The merge of the shards of a dbf batch or sweep: the header they share (its index aside), the
/// records in input order up to the first missing one, whether every shard finished, and the
/// shards' summed seconds (kernel_s < 0: no GPU kernel ran). input_error unless the shards are the
/// complete set of one run, each ended by its last line (shard_end), every record in its shard's
/// slice and stating the verdict it carries.
struct set_merge {
  nlohmann::json header;
  dbf_shard_settings settings;  ///< the header's settings (its slice the first shard's)
  std::vector<set_record> records;
  bool finished = true;
  double elapsed_s = 0, kernel_s = -1;
  std::vector<std::string> interrupted;  ///< the names of the shards that were interrupted
};
set_merge merge_set_shards(const std::vector<shard_output>& shards);

/// The task set a merged sweep's shards analysed, read again for the sweep's summary (its critical
/// factor): input_error when the file changed since the shards ran (its hash is not the one in the
/// header of `first`, the shard named in the message).
task_set merged_sweep_base(const set_merge& merged, const std::string& first);

/// A shard of a dbf batch or sweep, written whole as the command line writes it: its header
/// (dbf_shard_json), its records a line each and its last line (shard_end_json).
std::string dbf_shard_text(const dbf_shard_settings& settings, const std::vector<set_record>& records, bool finished,
                           double elapsed_s, double kernel_s, std::uint64_t sets);

}  // namespace warpspan
