// Shards in one place: `--shard I/N` as every command reads it, and `warpspan merge FILE...`, the
// shards of one run (estimate, dbf --batch or dbf --sweep with --shard I/N) combined into exactly
// that run's output (dbf's records are printed by the dbf command's own printer, dbf_cmd::merge).
#include <charconv>
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/ranks.hpp"

namespace warpspan::cli {

using json = nlohmann::json;

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

// ------------------------------------------------------------------------------ estimate shards
int merge_estimate(const std::vector<std::string>& files, const std::vector<std::vector<nlohmann::json>>& lines) {
  // The shards' objects, by index; each must be there once, all of one run.
  std::vector<nlohmann::json> parts;
  for (std::size_t f = 0; f < files.size(); ++f) {
    if (lines[f].size() != 1 || !lines[f][0].contains("best_makespan") || !lines[f][0]["shard"].contains("settings"))
      throw input_error(files[f] + ": not the output of estimate --shard (one JSON object with its settings)");
    parts.push_back(lines[f][0]);
  }
  const json& first = parts.front();
  const auto count = first["shard"]["count"].get<std::uint32_t>();
  std::vector<const json*> by_index(count, nullptr);
  for (std::size_t f = 0; f < parts.size(); ++f) {
    const json& s = parts[f]["shard"];
    const auto index = s.value("index", count);
    if (s.value("count", 0u) != count || index >= count)
      throw input_error(files[f] + ": shard " + json_excerpt(s.value("index", json())) + "/" + json_excerpt(s.value("count", json())) +
                        " is not one of the " + std::to_string(count) + " shards of " + files[0]);
    if (by_index[index]) throw input_error(files[f] + ": shard " + std::to_string(index) + " is given twice");
    for (const char* key : {"chains", "seed", "upper_bound", "problem"})
      if (parts[f][key] != first[key])
        throw input_error(files[f] + ": its " + key + " differs from " + files[0] + "'s: the shards of different runs");
    for (const auto& [name, value] : first["shard"]["settings"].items())
      if (s["settings"].value(name, json()) != value)
        throw input_error(files[f] + ": " + name + " " + json_excerpt(s["settings"].value(name, json())) + ", but " + files[0] +
                          " has " + name + " " + json_excerpt(value) + ": the shards of different runs");
    if (s["settings"].size() != first["shard"]["settings"].size())
      throw input_error(files[f] + ": its settings differ from " + files[0] + "'s: the shards of different runs");
    by_index[index] = &parts[f];
    if (parts[f].value("interrupted", false))
      std::cerr << "warpspan merge: " << files[f] << " is a shard that was interrupted (Ctrl-C or SIGTERM): the merged "
                << "result is marked interrupted\n";
  }
  for (std::uint32_t i = 0; i < count; ++i)
    if (!by_index[i]) throw input_error("merge: shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing");

  // The best: the highest makespan, the lowest chain id among equals (as the whole run picks).
  const json* best = by_index[0];
  std::uint64_t iterations = 0, per_chain = UINT64_MAX, validated = 0;
  double elapsed = 0, setup = 0;
  bool time_limited = false, was_interrupted = false;
  std::vector<std::pair<double, std::uint32_t>> points;
  for (const json* part : by_index) {
    const auto b = (*part)["best_makespan"].get<std::uint32_t>(), bb = (*best)["best_makespan"].get<std::uint32_t>();
    if (b > bb || (b == bb && (*part)["best_chain"].get<std::uint32_t>() < (*best)["best_chain"].get<std::uint32_t>()))
      best = part;
    iterations += (*part)["iterations"].get<std::uint64_t>();
    per_chain = std::min(per_chain, (*part)["iterations_per_chain"].get<std::uint64_t>());
    validated += (*part)["validated_chains"].get<std::uint64_t>();
    elapsed = std::max(elapsed, (*part)["elapsed_s"].get<double>());
    setup = std::max(setup, (*part)["setup_s"].get<double>());
    time_limited = time_limited || (*part)["time_limited"].get<bool>();
    was_interrupted = was_interrupted || (*part)["interrupted"].get<bool>();
    for (const auto& e : (*part)["envelope"]) points.emplace_back(e[0].get<double>(), e[1].get<std::uint32_t>());
  }
  // The envelope: every shard's points in time order, each one that raises the best so far.
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  std::uint32_t so_far = 0;
  for (const auto& p : points)
    if (p.first == 0) so_far = std::max(so_far, p.second);
  json env = json::array({json::array({0.0, so_far})});
  for (const auto& p : points)
    if (p.second > so_far) {
      so_far = p.second;
      env.push_back({p.first, so_far});
    }
  json out = *best;
  out.erase("shard");
  // Every shard ran the same beam (a fixed width): its summary, with the longest time any took.
  for (const json* part : by_index)
    if (part->contains("beam") && (*part)["beam"].is_object() && out["beam"].is_object())
      out["beam"]["elapsed_s"] = std::max(out["beam"]["elapsed_s"].get<double>(), (*part)["beam"]["elapsed_s"].get<double>());
  out["iterations"] = iterations;
  out["iterations_per_chain"] = per_chain;
  out["validated_chains"] = validated;
  out["elapsed_s"] = elapsed;
  out["setup_s"] = setup;
  out["time_limited"] = time_limited && !was_interrupted;
  out["interrupted"] = was_interrupted;
  out["envelope"] = env;
  std::cout << out.dump() << '\n';
  return was_interrupted ? interrupted_exit_code : 0;
}

void add_merge_command(CLI::App& app, std::vector<std::pair<CLI::App*, command_fn>>& commands) {
  static merge_cmd merge;
  merge.add(app, commands);
}

}  // namespace warpspan::cli
