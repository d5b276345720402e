// The task sets of `dbf --batch` (and the Python module's dbf_batch), read one at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "warpspan/core/file.hpp"
#include "warpspan/dbf/task.hpp"

namespace warpspan {

/// A task set and the name results are reported under.
struct named_set {
  std::string label;
  task_set set;
};

/// A set read from a batch but not parsed yet (next_unparsed): the stream parses it on its threads,
/// beside the reading of the next sets (parsing JSON costs more than unrolling and testing a set:
/// BM_DbfHostShare).
struct unparsed_set {
  std::string label;
  std::string text;   ///< a .jsonl line; empty for a file
  std::string where;  ///< FILE:LINE of a line, or the path of a file (read when parsed)
  bool file = false;
  /// The set, as next() gives it (the same input_errors, naming the same place).
  task_set parse() const;
};

/// The sets of a batch one at a time: every *.json (and *.csv) of a directory (by name), each
/// non-blank line of a .jsonl file (streamed, a line at most max_task_file_bytes), or one .json
/// file. Errors are input_errors naming the path (FILE:LINE for a line of a .jsonl).
class batch_source {
 public:
  explicit batch_source(const std::string& where);

  /// The set the last next() read or tried to read.
  const std::string& last_label() const { return last_label_; }
  /// Where that set is: its file's full path, or FILE:LINE of a .jsonl.
  std::string last_path() const;

  /// Passes over the next set without reading it (another slice's); false at the end.
  bool skip();

  /// The sets in the input: the files, or the non-blank lines of a .jsonl (one pass over it by a
  /// reader of its own, so the sets are still streamed; for a progress line's total).
  std::uint64_t total() const;

  /// The sets seen (read or passed over).
  std::uint64_t count() const { return jsonl_ ? sets_ : files_.size(); }

  /// Reads the next set into `out`; false at the end. A set that cannot be read or is invalid
  /// throws input_error (and still counts as seen: the next call goes on with the one after).
  bool next(named_set& out);

  /// The next set as read, its parsing (and, for a file, its reading) left to parse(); false at
  /// the end. Only what next() finds in reading throws (a line too long, a file without sets).
  bool next_unparsed(unparsed_set& out);

 private:
  bool read_line(std::string& line);

  std::string where_;
  std::vector<std::filesystem::path> files_;
  std::size_t next_file_ = 0;
  bool single_ = false;
  bool jsonl_ = false;
  std::unique_ptr<line_reader> lines_;  ///< a .jsonl
  std::size_t number_ = 0;
  std::string last_label_;
  std::size_t sets_ = 0;
};

}  // namespace warpspan
