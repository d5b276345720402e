// The subcommands of the warpspan binary. Each registers its options on the app and returns the
// function that runs it (exit code).
#pragma once

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace warpspan {
struct set_merge;
}

namespace warpspan::cli {

using command_fn = std::function<int()>;

/// estimate, build, bound, exact, kernel and sm (in that order in --help).
void add_makespan_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_estimate_command(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_exact_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_dbf_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_inputs_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_wcet_commands(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);
void add_merge_command(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands);

/// The whole run's output of the merged shards of a dbf batch or sweep (merge_set_shards,
/// orchestrator/shards.hpp), printed by the dbf command's printers; `first` names the first shard in
/// messages. Returns the whole run's exit code.
int print_merged_sets(const std::string& first, const set_merge& merged);

}  // namespace warpspan::cli
