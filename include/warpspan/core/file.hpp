// Reading user files with a bound: a missing file, a directory, a read error or a file larger than
// the limit is an input_error naming the path. Devices and pipes are read too, but never past the
// limit, so `--ptx /dev/zero` is refused instead of filling memory. Writing output files whole or
// not at all (atomic_file).
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <memory>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/core/error.hpp"

namespace warpspan {

/// Largest input file read by default (256 MiB): far beyond any real kernel, SM or task file.
inline constexpr std::size_t default_max_file_bytes = std::size_t{256} << 20;

/// The whole content of `path`. `what` names the kind of file in messages ("PTX file", "task set");
/// `limit_option`, when given, is the parameter that raises `max_bytes` (param("max_trace_mib"),
/// core/error.hpp), named when the file is over it.
std::string read_text_file(const std::string& path, const std::string& what,
                           std::size_t max_bytes = default_max_file_bytes, const message& limit_option = {});

/// FNV-1a (64 bits) of the bytes of `path`, as 16 hex digits; of a directory, the hash of the names
/// and contents of the regular files directly in it, in name order. It tells apart the inputs of
/// two runs (the shards of one run carry it). input_error, as read_text_file, when it cannot be read.
std::string content_hash(const std::string& path, const std::string& what);

/// `text` without a leading UTF-8 byte-order mark (EF BB BF), which editors on Windows write at the
/// start of text files; text parsers call it first (the JSON parser skips it by itself).
inline std::string_view without_bom(std::string_view text) {
  return text.substr(0, 3) == "\xEF\xBB\xBF" ? text.substr(3) : text;
}

/// A file read one line at a time, never holding more than one line: a line longer than the limit
/// (or a file without line ends, like /dev/zero) is an input_error naming the path and the line.
class line_reader {
 public:
  /// Opens `path` (input_error, as read_text_file, when missing, a directory or unreadable).
  line_reader(const std::string& path, const std::string& what, std::size_t max_line_bytes = default_max_file_bytes);
  /// The next line without its '\n' (and '\r'); false at the end of the file.
  bool next(std::string& line);
  /// 1-based number of the line next() returned last.
  std::size_t line_number() const { return number_; }
  /// Bytes read so far, line ends included.
  std::uint64_t bytes() const { return bytes_; }

 private:
  std::string path_, what_;
  std::size_t max_line_;
  std::ifstream in_;
  std::size_t number_ = 0;
  std::uint64_t bytes_ = 0;
  std::vector<char> buffer_;  ///< a block of the file; [at_, end_) not returned yet
  std::size_t at_ = 0, end_ = 0;
};

/// A file that is written whole or not at all. The text goes to a new temporary file beside `path`
/// (".NAME.tmp-...", created with O_CREAT | O_EXCL | O_NOFOLLOW, so that a link planted in the
/// output folder is never followed), which commit() flushes, closes, checks and renames onto
/// `path`; until then nothing at `path` changes, and a file that is not committed (an exception
/// on the way) is removed. A `path` that exists and is not a regular file (/dev/stdout, a pipe) is
/// written in place. Every failure is an input_error naming `path` and the reason.
class atomic_file {
 public:
  explicit atomic_file(const std::string& path);
  ~atomic_file();
  atomic_file(const atomic_file&) = delete;
  atomic_file& operator=(const atomic_file&) = delete;

  /// Where the text goes (a failed write shows at commit() at the latest).
  std::ostream& stream();
  /// Flushes, closes and checks the file, then renames it onto the path.
  void commit();
  const std::string& path() const { return path_; }

 private:
  class buffer;
  std::string path_, temp_;  ///< temp_ empty: written in place
  int fd_ = -1;
  std::unique_ptr<buffer> buf_;
  std::unique_ptr<std::ostream> out_;
  bool committed_ = false;
};

/// Writes `content` to `path` through an atomic_file; the path back.
std::string write_file_atomically(const std::string& path, std::string_view content);

}  // namespace warpspan
