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

/// --shard i/N: slice i (0-based) of N. input_error unless 0 <= i < N; refused under mpirun.
std::pair<std::uint32_t, std::uint32_t> parse_shard(const std::string& text);

/// The input files of a --shard run, for its header: {OPTION: {"path": PATH, "fnv1a64": HASH}} for
/// every (OPTION, PATH) given with a non-empty path (content_hash, core/file.hpp). `merge` refuses
/// shards whose inputs differ, so the shards of two runs on different files are never combined.
nlohmann::json shard_inputs(const std::vector<std::pair<std::string, std::string>>& files);

/// `warpspan merge` of estimate shards: the whole run's JSON object (parts[k]: file k's JSON lines).
int merge_estimate(const std::vector<std::string>& files, const std::vector<std::vector<nlohmann::json>>& parts);
/// `warpspan merge` of dbf --batch or --sweep shards (JSON lines, the first the header): the whole
/// run's output.
int merge_dbf(const std::vector<std::string>& files, const std::vector<std::vector<nlohmann::json>>& parts);

}  // namespace warpspan::cli
