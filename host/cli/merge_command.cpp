// `warpspan merge FILE...`: the shards of one run (estimate, dbf --batch or dbf --sweep with
// --shard I/N) combined into exactly that run's output.
#include <charconv>
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/ranks.hpp"

namespace warpspan::cli {

std::pair<std::uint32_t, std::uint32_t> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  std::uint32_t i = 0, n = 0;
  const auto number = [](const std::string& part, std::uint32_t& v) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    return !part.empty() && ec == std::errc() && end == part.data() + part.size();
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), i) || !number(text.substr(slash + 1), n) || n == 0 || i >= n)
    throw input_error("--shard: '" + text + "' is not I/N with 0 <= I < N (e.g. --shard 0/4 ... --shard 3/4)");
  if (world().size() > 1) throw input_error("--shard is for runs without mpirun (under mpirun the ranks share the work)");
  return {i, n};
}

namespace {

/// Deepest nesting of a shard's JSON lines (they nest 4 levels).
constexpr int max_shard_depth = 16;

struct merge_cmd {
  std::vector<std::string> files;
  std::uint64_t max_mib = 4096;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "merge", "combine the JSON of the shards of one run (estimate, dbf --batch, dbf --sweep with --shard I/N) into "
                 "exactly that run's output");
    sub->add_option("files", files, "the shards' output files, every shard once, in any order")->required();
    sub->add_option("--max-mib", max_mib, "refuse shards larger than this in all (MiB; they are read a line at a time)")
        ->capture_default_str();
    sub->footer("Exit codes: those of the whole run (dbf: 1 with --check when a set is not schedulable, 2 for an invalid "
                "set; 130 when a shard was interrupted), 2 when the files are not the complete shards of one run.\n");
    commands.emplace_back(sub, [this] { return run(); });
  }

  int run() const {
    if (max_mib == 0 || max_mib > (std::uint64_t{1} << 30)) throw input_error("--max-mib must be from 1 to 1073741824");
    const std::uint64_t budget = max_mib << 20;
    std::uint64_t total = 0;
    std::vector<std::vector<nlohmann::json>> parts(files.size());
    std::string command;
    for (std::size_t f = 0; f < files.size(); ++f) {
      line_reader in(files[f], "shard", static_cast<std::size_t>(std::min<std::uint64_t>(budget, default_max_file_bytes)));
      std::string line;
      const std::uint64_t before = total;
      while (in.next(line)) {
        total = before + in.bytes();
        if (total > budget)
          throw input_error(files[f] + ": the shards are larger than " + std::to_string(max_mib) +
                            " MiB in all; refused (raise --max-mib if they really are)");
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        // No shard nests deeper than a few levels; a deeper file is refused while it is parsed
        // (comparing or printing a deeply nested value would recurse as deep).
        const auto shallow = [&](int depth, nlohmann::json::parse_event_t, nlohmann::json&) {
          if (depth > max_shard_depth)
            throw input_error(files[f] + ":" + std::to_string(in.line_number()) + ": nested deeper than " +
                              std::to_string(max_shard_depth) + " levels: not the output of --shard");
          return true;
        };
        try {
          parts[f].push_back(nlohmann::json::parse(line, shallow));
        } catch (const nlohmann::json::exception&) {
          throw input_error(files[f] + ":" + std::to_string(in.line_number()) +
                            ": not a JSON line (is the shard cut off, or not the output of --shard?)");
        }
      }
      if (parts[f].empty()) throw input_error(files[f] + ": empty, not the output of a --shard run");
      const nlohmann::json& head = parts[f].front();
      if (!head.is_object() || !head.contains("shard") || !head["shard"].is_object() ||
          !head["shard"].contains("command") || !head["shard"]["command"].is_string() ||
          !head["shard"].contains("count") || !head["shard"]["count"].is_number_unsigned())
        throw input_error(files[f] + ": not the JSON of a --shard run");
      const std::string c = head["shard"]["command"].get<std::string>();
      if (!command.empty() && c != command)
        throw input_error(files[f] + ": a shard of " + c + ", but " + files[0] + " is one of " + command);
      command = c;
    }
    if (command != "estimate") return merge_dbf(files, parts);
    try {
      return merge_estimate(files, parts);
    } catch (const nlohmann::json::exception& e) {
      throw input_error("merge: the shards' JSON lacks what estimate --shard writes (" + std::string(e.what()) + ")");
    }
  }
};

}  // namespace

void add_merge_command(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  static merge_cmd merge;
  merge.add(app, commands);
}

}  // namespace warpspan::cli
