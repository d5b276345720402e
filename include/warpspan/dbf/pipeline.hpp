// The EDF analysis of many task sets as one stream (dbf --batch, --sweep, warpspan.dbf_batch, and a
// single set): each set unrolled, the tables of a chunk of sets computed by one dbf_tables call,
// the curves, the test, and each set reported in input order. The chunk policy lives here and only
// here: what is held at once stays bounded however many sets there are, results appear as chunks
// finish, and Ctrl-C is answered within about one chunk.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "warpspan/dbf/batch_source.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/edf.hpp"
#include "warpspan/dbf/sweep.hpp"
#include "warpspan/dbf/task.hpp"

namespace warpspan {

/// At most this many sets a chunk.
inline constexpr std::size_t dbf_chunk_max_sets = 256;
/// At most this many bytes of sets not parsed yet a chunk (a .jsonl line may hold up to 64 MiB).
inline constexpr std::size_t dbf_chunk_max_text_bytes = std::size_t{64} << 20;
/// At most this many table cells a chunk: 2^24 on the CPU (about half a second on one core), 2^28
/// with CUDA (one chunk is one GPU batch).
std::uint64_t dbf_chunk_max_cells(const dbf_options& options);

/// One set on its way through: read (label, path, set) or refused (error), unrolled, its curves,
/// then its test.
struct analysed_set {
  std::uint64_t index = 0;  ///< its place in the batch or sweep
  std::string label;        ///< the name results carry (a file name, FILE.jsonl:LINE, ...)
  std::string path;         ///< where it came from (a full path, FILE:LINE), when a file
  double factor = 0;        ///< a sweep's scaling factor
  message error;            ///< why it was not analysed (then nothing else is set); core/error.hpp
  task_set set;
  /// next() may leave the unrolling to the stream: `set` filled, `graphs` empty, this true. The
  /// stream then unrolls a chunk's sets on its test pool's threads (in parallel, beside the reading
  /// of the next chunk); a set it cannot unroll is that set's error with keep_going (the message as
  /// unroll_all gives it), else it ends the stream after the sets before it, as if next() had thrown.
  bool unroll_in_stream = false;
  /// With unroll_in_stream, the set may also be left unparsed (analyse_batch leaves every set so):
  /// the stream parses it on the same threads, first, and a set that cannot be parsed is handled
  /// as one that cannot be unrolled (its message is the one batch_source::next gives).
  std::optional<unparsed_set> unparsed;
  std::vector<unrolled_graph> graphs;
  std::vector<dbf_curve> curves;
  edf_result result;
};

/// T' of every task of `set`, refusing tables over the size limit before any is computed.
std::vector<unrolled_graph> unroll_all(const task_set& set, const dbf_options& options);

struct stream_options {
  dbf_options dbf;
  edf_method method = edf_method::qpa;
  /// A set the test cannot decide becomes an error of that set instead of ending the stream.
  bool keep_going = false;
  /// Tables shared by every set (a sweep over periods: the base set's, one per task); then none
  /// is computed.
  const std::vector<std::vector<std::uint32_t>>* shared_tables = nullptr;
  /// Threads for the EDF tests of a chunk (each set's test on its own, reported in order); null:
  /// one after another on the calling thread.
  thread_pool* test_pool = nullptr;
  /// Where set (beside dbf.workspace), the second of two chunks in flight on a GPU makes its device
  /// calls in this workspace: each chunk has its own stream, device and pinned memory, so that one
  /// chunk's packing, copies and unpacking run while the other's kernel does (dbf_session keeps
  /// both). Null: the two chunks take turns on dbf.workspace.
  dbf_workspace* second_workspace = nullptr;
};

/// One set (its graphs already unrolled) through the same steps: tables, curves, the test
/// (input_error naming the set when the test cannot decide it).
void analyse_set(analysed_set& set, const stream_options& options);

/// Runs sets from `next` through the pipeline: `next(s)` fills s (its set and graphs, e.g. by
/// unroll_all, or its set alone with unroll_in_stream, or an error) and returns false when there
/// are no more; `report(s)` gets each set in
/// order once its test is done. An input_error thrown by `next` (a set that cannot be read) ends
/// the stream after the sets before it were reported. Polls interrupted() between sets; returns
/// false when interrupted (the sets reported stay reported). `elapsed_s` grows by the time spent
/// on tables and tests.
bool analyse_sets(const std::function<bool(analysed_set&)>& next, const std::function<void(analysed_set&)>& report,
                  const stream_options& options, double& elapsed_s);

// ---- sweeps (design-space exploration over one parameter)

/// The tables every variant of a period sweep shares (tables do not depend on periods: the base
/// set's, computed once); empty for the other kinds. `label` names the set in a memory refusal.
std::vector<std::vector<std::uint32_t>> sweep_shared_tables(const task_set& base, const sweep_spec& spec,
                                                            const dbf_options& options, const std::string& label);

/// Variant k of a sweep as the stream reads it: factor, label, the error that puts it outside the
/// model, or its set unrolled.
void read_sweep_variant(analysed_set& s, const task_set& base, const sweep_spec& spec, std::uint32_t k,
                        const dbf_options& options, const std::string& label);

/// The point of the grid an analysed variant is.
sweep_point sweep_point_of(const analysed_set& s);

/// The critical scaling factor (MAST's sensitivity analysis): between the first two neighbouring
/// grid variants whose verdicts differ, bisection on the factor until the two ends are 1e-6 apart
/// (relative) or scale every value alike; the end on the schedulable side. nullopt when the verdict
/// does not change between valid neighbours. `transitions` counts the changes on the grid.
std::optional<double> critical_factor(const std::vector<sweep_point>& grid, const task_set& base,
                                      const sweep_spec& spec, const stream_options& options, std::size_t& transitions);

// ---- runs: what `dbf FILE`, `dbf --batch`, `dbf --sweep` and the Python functions do, once

/// A dbf run's settings as a face gives them, checked (make_dbf_options), with the thread pool
/// cpu-parallel keeps for the whole run (fewer threads if the OS refuses some).
class dbf_session {
 public:
  dbf_session(dbf_backend backend, long long threads, unsigned block, std::uint64_t max_table_mib, edf_method method,
              bool keep_going = false);
  ~dbf_session();
  dbf_session(const dbf_session&) = delete;
  dbf_session& operator=(const dbf_session&) = delete;

  const dbf_options& options() const { return stream_.dbf; }
  edf_method method() const { return stream_.method; }
  /// Whether the tables run on a GPU, and the time of their kernels so far (CUDA events, all of
  /// this session's tables; 0 on the CPU).
  bool on_device() const;
  double kernel_seconds() const { return static_cast<double>(kernel_ns_.load()) * 1e-9; }
  /// The device and pinned memory its CUDA batches share (null on the CPU).
  const dbf_workspace* workspace() const { return workspace_.get(); }
  /// The stream options of the run, with the tables every set shares (a period sweep's) if given.
  stream_options streaming(const std::vector<std::vector<std::uint32_t>>* shared_tables = nullptr) const;

 private:
  std::unique_ptr<thread_pool> pool_;
  std::unique_ptr<dbf_workspace> workspace_;  ///< the CUDA backends' memory, kept for the run
  std::unique_ptr<dbf_workspace> second_;     ///< the second chunk in flight's (stream_options)
  stream_options stream_;
  std::atomic<std::uint64_t> kernel_ns_{0};
};

/// The sets (or sweep variants) one process analyses: index k where k mod slices == slice (a
/// shard, or one rank under mpirun); the others are passed over unread.
struct set_slice {
  std::uint32_t slice = 0, slices = 1;
  bool mine(std::uint64_t k) const { return k % slices == slice; }
};

/// One task set through the pipeline (unrolled, tables, curves, test); `elapsed_s` is the time
/// its tables and test took.
analysed_set analyse_one(task_set set, const std::string& label, const dbf_session& session, double& elapsed_s);

/// The sets of `source` (the slice's), reported in order through `report`; with the session's
/// keep_going a set that cannot be read is reported with its error and the run goes on. Returns
/// false when interrupted; `elapsed_s` grows by the time of tables and tests; `seen` counts the
/// sets read or passed over.
bool analyse_batch(batch_source& source, const dbf_session& session, const set_slice& slice,
                   const std::function<void(analysed_set&)>& report, double& elapsed_s, std::uint64_t& seen);

/// The variants of a sweep (the slice's), reported in order; a period sweep computes the base
/// set's tables once. `label` names the set. Returns false when interrupted.
bool analyse_sweep(const task_set& base, const sweep_spec& spec, const std::string& label, const dbf_session& session,
                   const set_slice& slice, const std::function<void(analysed_set&)>& report, double& elapsed_s);

}  // namespace warpspan
