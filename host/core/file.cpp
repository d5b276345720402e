#include "warpspan/core/file.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>
#include <system_error>
#include <filesystem>

#include "warpspan/core/error.hpp"

namespace warpspan {

namespace {

/// `path` opened for reading, or the input_error that says why not.
std::ifstream open_input(const std::string& path, const std::string& what) {
  if (path.empty()) throw input_error(what + ": the path is empty");
  std::error_code ec;
  const auto status = std::filesystem::status(path, ec);
  if (ec || !std::filesystem::exists(status))
    throw input_error(what + " " + path + ": cannot open the file (no such file)");
  if (std::filesystem::is_directory(status))
    throw input_error(what + " " + path + ": is a directory, not a file");
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(what + " " + path + ": cannot open the file (" + std::strerror(errno) + ")");
  return in;
}

}  // namespace

std::string read_text_file(const std::string& path, const std::string& what, std::size_t max_bytes,
                           const message& limit_option) {
  std::ifstream in = open_input(path, what);
  std::string text;
  char chunk[1 << 16];
  while (in) {
    in.read(chunk, sizeof chunk);
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got == 0) break;
    if (text.size() + got > max_bytes)
      throw input_error(what + " " + path + ": larger than " + std::to_string(max_bytes >> 20) +
                        " MiB; refused (is it the right file?" +
                        (limit_option.empty() ? message() : " " + limit_option + " raises the limit") + ")");
    text.append(chunk, got);
  }
  if (in.bad()) throw input_error(what + " " + path + ": read error");
  return text;
}

line_reader::line_reader(const std::string& path, const std::string& what, std::size_t max_line_bytes)
    : path_(path), what_(what), max_line_(max_line_bytes), in_(open_input(path, what)) {}

bool line_reader::next(std::string& line) {
  line.clear();
  std::streambuf* buf = in_.rdbuf();
  bool any = false;
  for (int c; (c = buf->sbumpc()) != std::char_traits<char>::eof();) {
    any = true;
    ++bytes_;
    if (c == '\n') break;
    if (line.size() >= max_line_)
      throw input_error(what_ + " " + path_ + ":" + std::to_string(number_ + 1) + ": the line is longer than " +
                        std::to_string(max_line_ >> 20) + " MiB; refused (is it the right file?)");
    line.push_back(static_cast<char>(c));
  }
  if (!any) return false;
  if (!line.empty() && line.back() == '\r') line.pop_back();
  ++number_;
  return true;
}

}  // namespace warpspan
