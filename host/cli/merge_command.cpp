// `warpspan merge FILE...`: the shards of one run (estimate, dbf --batch or dbf --sweep with
// --shard I/N) combined into exactly that run's output.
#include <charconv>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "commands.hpp"
#include "warpspan/core/error.hpp"
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

struct merge_cmd {
  std::vector<std::string> files;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "merge", "combine the JSON of the shards of one run (estimate, dbf --batch, dbf --sweep with --shard I/N) into "
                 "exactly that run's output");
    sub->add_option("files", files, "the shards' output files, every shard once, in any order")->required();
    sub->footer("Exit codes: those of the whole run (dbf: 1 with --check when a set is not schedulable, 2 for an invalid "
                "set), 2 when the files are not the shards of one run.\n");
    commands.emplace_back(sub, [this] { return run(); });
  }

  int run() const {
    std::vector<std::string> texts;
    std::string command;
    for (const auto& f : files) {
      std::ifstream in(f, std::ios::binary);
      if (!in) throw input_error(f + ": cannot open the file");
      std::ostringstream text;
      text << in.rdbuf();
      texts.push_back(text.str());
      const std::string& t = texts.back();
      nlohmann::json head;
      try {
        head = nlohmann::json::parse(t.substr(0, t.find('\n')));
      } catch (const nlohmann::json::exception&) {
        throw input_error(f + ": not the JSON of a --shard run");
      }
      if (!head.is_object() || !head.contains("shard") || !head["shard"].is_object() ||
          !head["shard"].contains("command") || !head["shard"]["command"].is_string() ||
          !head["shard"].contains("count") || !head["shard"]["count"].is_number_unsigned())
        throw input_error(f + ": not the JSON of a --shard run");
      const std::string c = head["shard"]["command"].get<std::string>();
      if (!command.empty() && c != command)
        throw input_error(f + ": a shard of " + c + ", but " + files[0] + " is one of " + command);
      command = c;
    }
    if (command != "estimate") return merge_dbf(files, texts);
    try {
      return merge_estimate(files, texts);
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
