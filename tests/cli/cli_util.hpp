// Running the real warpspan binary from a test: stdout, stderr and the exit code.
#pragma once

#include <system_error>
#include <filesystem>
#include <set>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

namespace warpspan::test {

struct cli_result {
  int code = -1;
  std::string out;
  std::string err;
};

/// A path unique to this test and process (ctest runs tests in parallel).
inline std::string scratch(const std::string& suffix) {
  const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
  std::string name = std::string(info->test_suite_name()) + "_" + info->name() + "_" + std::to_string(getpid());
  for (char& ch : name)
    if (ch == '/') ch = '_';
  const std::string path = ::testing::TempDir() + name + suffix;
  // The first time this process hands the path out, whatever is there is stale: an earlier process
  // with the same pid (a run killed before it cleaned up) left it, and a test must start empty.
  static std::set<std::string> handed;
  if (handed.insert(path).second) {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
  return path;
}

/// Writes `text` to a scratch file of this test ending in `suffix` (bytes as they are); its path.
inline std::string write(const std::string& suffix, const std::string& text) {
  const std::string path = scratch(suffix);
  std::ofstream(path, std::ios::binary) << text;
  return path;
}

/// Runs `PREFIX warpspan ARGS` (a shell command line; PREFIX e.g. "timeout 20", may be empty) and
/// collects what it printed.
inline cli_result run_warpspan_under(const std::string& prefix, const std::string& args) {
  const std::string err_file = scratch(".stderr");
  const std::string cmd =
      (prefix.empty() ? std::string() : prefix + " ") + std::string(WARPSPAN_BINARY) + " " + args + " 2>" + err_file;
  cli_result r;
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  std::size_t n;
  while ((n = fread(buf.data(), 1, buf.size(), pipe)) > 0) r.out.append(buf.data(), n);
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream in(err_file);
  r.err.assign(std::istreambuf_iterator<char>(in), {});
  return r;
}

/// Runs `warpspan ARGS` (a shell command line) and collects what it printed.
inline cli_result run_warpspan(const std::string& args) { return run_warpspan_under("", args); }

inline int count_lines(const std::string& s) {
  int count = 0;
  for (char c : s) count += c == '\n';
  return count;
}

}  // namespace warpspan::test
