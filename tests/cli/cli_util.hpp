// Running the real warpspan binary from a test: stdout, stderr and the exit code.
#pragma once

#include <system_error>
#include <filesystem>
#include <set>
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <string>
#include <vector>

#include "test_util.hpp"

namespace warpspan::test {

struct cli_result {
  int code = -1;
  std::string out;
  std::string err;
};

/// Removes the scratch paths (below) a test was handed when it ends without failing; a failed
/// test's stay to be looked at. Without it every run of the suite left its files in the temporary
/// folder.
class scratch_cleaner : public ::testing::EmptyTestEventListener {
 public:
  static std::vector<std::string>& handed_in_this_test() {
    static std::vector<std::string> paths;
    return paths;
  }
  void OnTestEnd(const ::testing::TestInfo& info) override {
    if (!info.result()->Failed()) {
      for (const auto& path : handed_in_this_test()) {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
      }
    }
    handed_in_this_test().clear();
  }
};
inline const bool scratch_cleaner_listening = [] {
  ::testing::UnitTest::GetInstance()->listeners().Append(new scratch_cleaner);  // gtest owns it
  return true;
}();

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
  scratch_cleaner::handed_in_this_test().push_back(path);
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

/// Refused as a user error: exit code 2, nothing on stdout and exactly one line on stderr, holding
/// each of `what`.
inline void expect_refused(const cli_result& r, std::initializer_list<std::string> what) {
  EXPECT_EQ(r.code, 2) << r.out << r.err;
  EXPECT_TRUE(r.out.empty()) << r.out;
  EXPECT_EQ(count_lines(r.err), 1) << r.err;
  for (const auto& w : what) EXPECT_NE(r.err.find(w), std::string::npos) << "expected '" << w << "' in: " << r.err;
}

/// As above for one `what`; the line shorter than `longest` bytes where given.
inline void expect_refused(const cli_result& r, const std::string& what, std::size_t longest = std::string::npos) {
  expect_refused(r, {what});
  if (longest != std::string::npos) EXPECT_LT(r.err.size(), longest) << r.err;
}

/// A task-set file shipped in data/tasks/.
inline std::string task_file(const std::string& name) { return source_path("data/tasks/" + name); }

/// How a process ended: its exit code, or the signal that killed it, and how long it took after the
/// first signal.
struct signalled_run {
  bool exited = false;
  int code = -1;   ///< when exited
  int signal = 0;  ///< when killed by a signal
  bool hung = false;
  double after_signal_s = 0;
  std::string out;
};

/// Runs `warpspan ARGS...` (no shell), sends `sig` after `after_ms` (and again `again_ms` later when
/// given), and waits at most 60 s more (then kills it and says it hung). stdout goes to a scratch
/// file, read back afterwards; stderr is dropped. With `after_lines` > 0 the `after_ms` count from
/// the moment stdout holds that many lines (at most 60 s; a run that ends before is not signalled),
/// so the test does not depend on how fast a loaded machine runs it.
inline signalled_run run_and_signal(const std::vector<std::string>& args, int sig, int after_ms, int again_ms = -1,
                                    int after_lines = 0) {
  const std::string out_file = scratch(".stdout");
  signalled_run e;
  const pid_t pid = fork();
  if (pid == 0) {
    FILE* out = std::freopen(out_file.c_str(), "w", stdout);
    FILE* err = std::freopen("/dev/null", "w", stderr);
    if (!out || !err) _exit(127);
    std::vector<char*> argv{const_cast<char*>(WARPSPAN_BINARY)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(WARPSPAN_BINARY, argv.data());
    _exit(127);
  }
  if (pid < 0) return e;
  for (int waited = 0; after_lines > 0 && waited < 60'000; waited += 10) {
    std::ifstream so(out_file);
    const std::string text{std::istreambuf_iterator<char>(so), {}};
    siginfo_t ended{};  // it ended already (left to be reaped below)
    if (count_lines(text) >= after_lines ||
        waitid(P_PID, static_cast<id_t>(pid), &ended, WEXITED | WNOHANG | WNOWAIT) != 0 || ended.si_pid != 0)
      break;
    usleep(10'000);
  }
  usleep(static_cast<useconds_t>(after_ms) * 1000);
  kill(pid, sig);
  const auto signalled = std::chrono::steady_clock::now();
  if (again_ms >= 0) {
    usleep(static_cast<useconds_t>(again_ms) * 1000);
    kill(pid, sig);
  }
  int status = 0;
  for (int waited = 0; waitpid(pid, &status, WNOHANG) == 0; waited += 10) {
    if (waited >= 60'000) {
      e.hung = true;
      kill(pid, SIGKILL);
      waitpid(pid, &status, 0);
      break;
    }
    usleep(10'000);
  }
  e.after_signal_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - signalled).count();
  e.exited = WIFEXITED(status);
  e.code = e.exited ? WEXITSTATUS(status) : -1;
  e.signal = WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  std::ifstream in(out_file);
  e.out.assign(std::istreambuf_iterator<char>(in), {});
  return e;
}

}  // namespace warpspan::test
