// warpspan: one binary, one subcommand per analysis. User mistakes become one line on stderr and
// exit code 2; everything else unexpected is exit code 1.
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <streambuf>

#include "commands.hpp"
#include "options.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/ranks.hpp"

namespace {

int run_main(int argc, char** argv);

/// std::cout's buffer, passed through, noting the errno of the first write that fails: by the time
/// the command ends, later calls have overwritten it (written() says why the output was lost).
class noting_buffer : public std::streambuf {
 public:
  explicit noting_buffer(std::streambuf* to) : to_(to) {}
  int error() const { return error_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    errno = 0;
    const int_type r = to_->sputc(traits_type::to_char_type(c));
    if (traits_type::eq_int_type(r, traits_type::eof())) note();
    return r;
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    errno = 0;
    const std::streamsize r = to_->sputn(s, n);
    if (r < n) note();
    return r;
  }
  int sync() override {
    errno = 0;
    const int r = to_->pubsync();
    if (r != 0) note();
    return r;
  }

 private:
  void note() {
    if (error_ == 0) error_ = errno;
  }
  std::streambuf* to_;
  int error_ = 0;
};

noting_buffer* stdout_buffer = nullptr;

}  // namespace

// Under mpirun every rank runs the command; only rank 0 prints, and an error on any rank ends the
// job with that rank's line and exit code (fail_ranks).
int main(int argc, char** argv) {
  static noting_buffer noting(std::cout.rdbuf());
  stdout_buffer = &noting;
  std::cout.rdbuf(&noting);
  warpspan::start_ranks(argc, argv);
  if (warpspan::world().rank() != 0 && !std::freopen("/dev/null", "w", stdout)) std::fclose(stdout);
  const int code = run_main(argc, argv);
  warpspan::finish_ranks(code);
  return code;
}

namespace {

/// One line on stderr (or the end of the whole job under mpirun) and the exit code.
int fail(int code, const std::string& line) { return warpspan::fail_ranks(code, line); }

/// What makes `command` need less memory, in its own options.
std::string out_of_memory_advice(const std::string& command) {
  if (command == "estimate") return "try fewer --warps or fewer --chains";
  if (command == "exact") return "try fewer --warps or a lower --max-states";
  if (command == "bound") return "try fewer --warps";
  if (command == "build") return "try fewer --warps";
  if (command == "inputs") return "try fewer --threads, a smaller --population or fewer --jobs";
  if (command == "wcet") return "try fewer or shorter traces (a lower --max-trace-mib)";
  if (command == "wcet-collect") return "try fewer --runs or a smaller --slice";
  if (command == "dbf" || command == "generate-tasks") return "try a lower --max-table-mib or fewer sets";
  if (command == "merge") return "try a lower --max-mib";
  return "try a smaller input";
}

/// `code`, once what the command printed has reached standard output; a result that could not be
/// written (a full disk, a closed descriptor: `warpspan estimate --json > /dev/full`) is exit 2,
/// never a silent 0. Every command's output passes here, so none checks its own.
int written(int code) {
  std::cout.flush();
  const bool stream_ok = !std::cout.fail();
  errno = 0;
  const bool flushed = std::fflush(stdout) == 0;
  const int after_flush = errno;
  if (stream_ok && flushed && !std::ferror(stdout)) return code;
  const int reason = stdout_buffer && stdout_buffer->error() ? stdout_buffer->error() : after_flush;
  return fail(
      2, "warpspan: cannot write standard output: " + std::string(reason ? std::strerror(reason) : "the write failed"));
}

int run_main(int argc, char** argv) {
  CLI::App app{"warpspan: worst-case timing analysis of GPU warps and real-time task sets", "warpspan"};
  app.set_version_flag("--version", std::string(WARPSPAN_VERSION));
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, warpspan::cli::command_fn>> commands;
  warpspan::cli::add_makespan_commands(app, commands);
  warpspan::cli::add_dbf_commands(app, commands);
  warpspan::cli::add_inputs_commands(app, commands);
  warpspan::cli::add_wcet_commands(app, commands);
  warpspan::cli::add_merge_command(app, commands);
  warpspan::cli::check_numeric_options(app);
  std::string names;
  bool known = false;
  for (const auto* sub : app.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
    known = known || (argc > 1 && sub->get_name() == argv[1]);
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    return fail(2, "warpspan: unknown command '" + std::string(argv[1]) + "' (commands: " + names + ")");
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return written(app.exit(e));
  } catch (const CLI::CallForAllHelp& e) {
    return written(app.exit(e));
  } catch (const CLI::CallForVersion& e) {
    return written(app.exit(e));
  } catch (const CLI::ParseError& e) {
    // An argument that is no option of the command is said first, whatever else went wrong:
    // `--warp 4` (for --warps) is an unknown option, not "--warps is required".
    const std::vector<std::string> left = app.remaining(true);
    if (!left.empty()) {
      std::string command = "warpspan";
      for (const auto* sub : app.get_subcommands()) command += " " + sub->get_name();
      const auto option =
          std::find_if(left.begin(), left.end(), [](const std::string& a) { return a.size() > 1 && a[0] == '-'; });
      const std::string what = option != left.end() ? "unknown option '" + option->substr(0, option->find('=')) + "'"
                                                    : "unexpected argument '" + left.front() + "'";
      return fail(2, "warpspan: " + what + " for " + command + " (see " + command + " --help)");
    }
    return fail(2, "warpspan: " + std::string(e.what()) + " (see warpspan --help)");
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return written(run());
  } catch (const warpspan::input_error& e) {
    return fail(2, "warpspan: " + render(e, warpspan::cli::cli_face()));
  } catch (const warpspan::not_compiled& e) {
    return fail(2, "warpspan: " + render(e, warpspan::cli::cli_face()));
  } catch (const warpspan::validation_error& e) {
    return fail(3, "warpspan: VALIDATION FAILED: " + render(e, warpspan::cli::cli_face()));
  } catch (const std::bad_alloc&) {
    std::string command;
    for (const auto* sub : app.get_subcommands()) command = sub->get_name();
    return fail(2, "warpspan: out of memory in " + (command.empty() ? std::string("warpspan") : command) + "; " +
                       out_of_memory_advice(command));
  } catch (const std::exception& e) {
    return fail(1, "warpspan: internal error: " + std::string(e.what()));
  }
  return 0;
}

}  // namespace
