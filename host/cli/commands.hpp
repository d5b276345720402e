// The subcommands of the warpspan binary. Each registers its options on the app and returns the
// function that runs it (exit code).
#pragma once

#include <CLI/CLI.hpp>

#include <functional>

namespace warpspan::cli {

using command_fn = std::function<int()>;

void add_makespan_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_dbf_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_inputs_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_wcet_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);

}  // namespace warpspan::cli
