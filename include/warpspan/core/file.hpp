// Reading user files with a bound: a missing file, a directory, a read error or a file larger than
// the limit is an input_error naming the path. Devices and pipes are read too, but never past the
// limit, so `--ptx /dev/zero` is refused instead of filling memory.
#pragma once

#include <cstddef>
#include <cstdint>
#include <fstream>
#include <string>
#include <string_view>

#include "warpspan/core/error.hpp"

namespace warpspan {

/// Largest input file read by default (256 MiB): far beyond any real kernel, SM or task file.
inline constexpr std::size_t default_max_file_bytes = std::size_t{256} << 20;

/// The whole content of `path`. `what` names the kind of file in messages ("PTX file", "task set");
/// `limit_option`, when given, is the parameter that raises `max_bytes` (param("max_trace_mib"),
/// core/error.hpp), named when the file is over it.
std::string read_text_file(const std::string& path, const std::string& what,
                           std::size_t max_bytes = default_max_file_bytes, const message& limit_option = {});

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
};

}  // namespace warpspan
