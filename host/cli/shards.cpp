// `warpspan merge FILE...`: the shards of one run (estimate, dbf --batch or dbf --sweep with
// --shard I/N) combined into exactly that run's output. The reading, checking and merging are the
// library's (orchestrator/shards.hpp); the dbf records are printed by the dbf command's own
// printer (print_merged_sets).
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/orchestrator/shards.hpp"

namespace warpspan::cli {

namespace {

struct merge_cmd {
  std::vector<std::string> files;
  std::uint64_t max_mib = default_max_shard_mib;

  void add(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
    auto* sub = app.add_subcommand(
        "merge",
        "combine the JSON of the shards of one run (estimate, dbf --batch, dbf --sweep with --shard I/N) into "
        "exactly that run's output");
    sub->add_option("files", files, "the shards' output files, every shard once, in any order")->required();
    sub->add_option("--max-mib", max_mib, "refuse shards larger than this in all (MiB; they are read a line at a time)")
        ->capture_default_str();
    sub->footer(
        "Exit codes: those of the whole run (dbf: 1 with --check when a set is not schedulable, 2 for an invalid "
        "set; 130 when a shard was interrupted), 2 when the files are not the complete shards of one run.\n");
    commands.emplace_back(sub, [this] { return run(); });
  }

  static void say_interrupted(const std::vector<std::string>& names) {
    for (const auto& name : names)
      std::cerr << "warpspan merge: " << name << " is a shard that was interrupted (Ctrl-C or SIGTERM): the merged "
                << "result is marked interrupted\n";
  }

  int run() const {
    const std::vector<shard_output> shards = read_shards(files, max_mib);
    if (shards_command(shards) != "estimate") {
      const set_merge merged = merge_set_shards(shards);
      say_interrupted(merged.interrupted);
      return print_merged_sets(shards.front().name, merged);
    }
    const estimate_merge merged = merge_estimate_shards(shards);
    say_interrupted(merged.interrupted);
    std::cout << merged.result.dump() << '\n';
    return merged.result["interrupted"].get<bool>() ? interrupted_exit_code : 0;
  }
};

}  // namespace

void add_merge_command(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  static merge_cmd merge;
  merge.add(app, commands);
}

}  // namespace warpspan::cli
