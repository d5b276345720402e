// Reading user files with a bound: a missing file, a directory, a read error or a file larger than
// the limit is an input_error naming the path. Devices and pipes are read too, but never past the
// limit, so `--ptx /dev/zero` is refused instead of filling memory.
#pragma once

#include <cstddef>
#include <string>

namespace warpspan {

/// Largest input file read by default (256 MiB): far beyond any real kernel, SM or task file.
inline constexpr std::size_t default_max_file_bytes = std::size_t{256} << 20;

/// The whole content of `path`. `what` names the kind of file in messages ("PTX file", "task set");
/// `limit_option`, when given, is the option that raises `max_bytes` ("--max-trace-mib"), named
/// when the file is over it.
std::string read_text_file(const std::string& path, const std::string& what,
                           std::size_t max_bytes = default_max_file_bytes, const std::string& limit_option = "");

}  // namespace warpspan
