// warpspan: one binary, one subcommand per analysis. User mistakes become one line on stderr and
// exit code 2; everything else unexpected is exit code 1.
#include <cstdio>
#include <iostream>

#include "commands.hpp"
#include "options.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/ranks.hpp"

namespace {

int run_main(int argc, char** argv);

}  // namespace

// Under mpirun every rank runs the command; only rank 0 prints, and an error on any rank ends the
// job with that rank's line and exit code (fail_ranks).
int main(int argc, char** argv) {
  warpspan::start_ranks(argc, argv);
  if (warpspan::world().rank() != 0 && !std::freopen("/dev/null", "w", stdout)) std::fclose(stdout);
  const int code = run_main(argc, argv);
  warpspan::finish_ranks(code);
  return code;
}

namespace {

/// One line on stderr (or the end of the whole job under mpirun) and the exit code.
int fail(int code, const std::string& line) { return warpspan::fail_ranks(code, line); }

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
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForVersion& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    return fail(2, "warpspan: " + std::string(e.what()) + " (see warpspan --help)");
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return run();
  } catch (const warpspan::input_error& e) {
    return fail(2, "warpspan: " + render(e, warpspan::cli::cli_face()));
  } catch (const warpspan::not_compiled& e) {
    return fail(2, "warpspan: " + render(e, warpspan::cli::cli_face()));
  } catch (const warpspan::validation_error& e) {
    return fail(3, "warpspan: VALIDATION FAILED: " + render(e, warpspan::cli::cli_face()));
  } catch (const std::bad_alloc&) {
    return fail(2, "warpspan: out of memory; try a smaller problem or fewer chains");
  } catch (const std::exception& e) {
    return fail(1, "warpspan: internal error: " + std::string(e.what()));
  }
  return 0;
}

}  // namespace
