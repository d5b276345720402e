// warpspan: one binary, one subcommand per analysis. User mistakes become one line on stderr and
// exit code 2; everything else unexpected is exit code 1.
#include <iostream>

#include "commands.hpp"
#include "warpspan/core/error.hpp"

int main(int argc, char** argv) {
  CLI::App app{"warpspan: worst-case timing analysis of GPU warps and real-time task sets", "warpspan"};
  app.set_version_flag("--version", std::string(WARPSPAN_VERSION));
  app.require_subcommand(1);
  std::vector<std::pair<CLI::App*, warpspan::cli::command_fn>> commands;
  warpspan::cli::add_makespan_commands(app, commands);
  warpspan::cli::add_dbf_commands(app, commands);
  warpspan::cli::add_inputs_commands(app, commands);
  warpspan::cli::add_wcet_commands(app, commands);
  std::string names;
  bool known = false;
  for (const auto* sub : app.get_subcommands({})) {
    names += (names.empty() ? "" : ", ") + sub->get_name();
    known = known || (argc > 1 && sub->get_name() == argv[1]);
  }
  if (argc > 1 && argv[1][0] != '-' && !known) {
    std::cerr << "warpspan: unknown command '" << argv[1] << "' (commands: " << names << ")\n";
    return 2;
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
    std::cerr << "warpspan: " << e.what() << " (see warpspan --help)\n";
    return 2;
  }
  try {
    for (auto& [sub, run] : commands)
      if (sub->parsed()) return run();
  } catch (const warpspan::input_error& e) {
    std::cerr << "warpspan: " << e.what() << '\n';
    return 2;
  } catch (const warpspan::not_compiled& e) {
    std::cerr << "warpspan: " << e.what() << '\n';
    return 2;
  } catch (const warpspan::validation_error& e) {
    std::cerr << "warpspan: VALIDATION FAILED: " << e.what() << '\n';
    return 3;
  } catch (const std::bad_alloc&) {
    std::cerr << "warpspan: out of memory; try a smaller problem or fewer chains\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "warpspan: internal error: " << e.what() << '\n';
    return 1;
  }
  return 0;
}
