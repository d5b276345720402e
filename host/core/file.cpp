#include "warpspan/core/file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <filesystem>

#include "warpspan/core/error.hpp"

namespace warpspan {

std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes,
                           const std::string& limit_option) {
  if (path.empty()) throw input_error(what + ": the path is empty");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw input_error(what + " " + path + ": cannot open the file (no such file)");
  if (std::filesystem::is_directory(status))
    throw input_error(what + " " + path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(what + " " + path + ": cannot open the file (" + std::strerror(errno) + ")");
  std::string text;
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    if (text.size() + got > max_bytes)
      throw input_error(what + " " + path + ": larger than " + std::to_string(max_bytes >> 20) +
                        " MiB; refused (is it the right file?" +
                        (limit_option.empty() ? std::string() : " " + limit_option + " raises the limit") + ")");
    text.append(chunk, got);
  }
  if (in.bad()) throw input_error(what + " " + path + ": read error");
  return text;
}

}  // namespace warpspan
