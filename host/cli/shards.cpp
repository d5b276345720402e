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
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/estimate.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan::cli {

using json = nlohmann::json;

std::pair<std::uint32_t, std::uint32_t> parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  std::uint32_t i = 0, n = 0;
  const auto number = [](const std::string& part, std::uint32_t& v) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    return !part.empty() && ec == std::errc() && end == part.data() + part.size();
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), i) || !number(text.substr(slash + 1), n) || n == 0 ||
      i >= n)
    throw input_error("--shard: '" + text + "' is not I/N with 0 <= I < N (e.g. --shard 0/4 ... --shard 3/4)");
  if (world().size() > 1)
    throw input_error("--shard is for runs without mpirun (under mpirun the ranks share the work)");
  return {i, n};
}

nlohmann::json shard_inputs(const std::vector<std::pair<std::string, std::string>>& files) {
  json out = json::object();
  for (const auto& [option, path] : files)
    if (!path.empty()) out[option] = {{"path", path}, {"fnv1a64", content_hash(path, option)}};
  return out;
}

namespace {

/// Deepest nesting of a shard's JSON lines (they nest 4 levels).
constexpr int max_shard_depth = 16;

struct merge_cmd {
  std::vector<std::string> files;
  std::uint64_t max_mib = 4096;

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

  int run() const {
    if (max_mib == 0 || max_mib > (std::uint64_t{1} << 30)) throw input_error("--max-mib must be from 1 to 1073741824");
    const std::uint64_t budget = max_mib << 20;
    std::uint64_t total = 0;
    std::vector<std::vector<nlohmann::json>> parts(files.size());
    std::string command;
    for (std::size_t f = 0; f < files.size(); ++f) {
      line_reader in(files[f], "shard",
                     static_cast<std::size_t>(std::min<std::uint64_t>(budget, default_max_file_bytes)));
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
namespace {

/// How the input files of shard header `got` differ from `want` ("the content of --ptx F differs"),
/// or empty when they are the same.
std::string input_difference(const json& want, const json& got) {
  const auto path = [](const json& file) {
    const json p = file.is_object() ? file.value("path", json()) : json();
    return p.is_string() ? p.get<std::string>() : json_excerpt(p);
  };
  for (const auto& [option, file] : want.items())
    if (got.value(option, json()) != file)
      return got.contains(option) ? "the content of " + option + " " + path(got[option]) + " differs"
                                  : "no " + option + " was given";
  for (const auto& [option, file] : got.items())
    if (!want.contains(option)) return option + " " + path(file) + " was given";
  return {};
}

/// The problem the shards of an estimate ran on: its kernel, warps and blocks from "problem", the
/// normalised SM from the header. Refused unless it prints back as the shards' "problem".
problem shards_problem(const std::string& file, const json& part) {
  const json& p = part["problem"];
  const json& sm = part["shard"]["sm"];
  normalized_sm norm;
  norm.sigma = sm.at("sigma").get<std::array<int, unit_count>>();
  norm.copies = sm.at("copies").get<std::array<int, unit_count>>();
  norm.schedulers = sm.at("schedulers").get<int>();
  problem prob;
  try {
    if (p.contains("warp_kernels")) {
      std::vector<warp_group> groups;
      for (const json& g : p.at("warp_kernels"))
        groups.push_back({parse_kernel_string(g.at("kernel").get<std::string>()), g.at("warps").get<std::uint32_t>()});
      prob = make_problem(groups, norm, p.value("block_warps", std::int64_t{0}));
    } else {
      prob = make_problem(parse_kernel_string(p.at("kernel").get<std::string>()), norm,
                          p.at("warps").get<std::int64_t>(), p.value("block_warps", std::int64_t{0}));
    }
  } catch (const input_error& e) {
    throw input_error(file + ": its problem is not one estimate runs: " + e.description());
  }
  if ((prob.per_warp() ? prob.kernel_text() : to_run_length(prob.kernel)) != p.at("kernel").get<std::string>() ||
      prob.instructions() != p.at("instructions").get<std::uint32_t>() ||
      prob.sm.schedulers != p.at("schedulers").get<int>())
    throw input_error(file + ": its problem and its SM do not agree: not the output of estimate --shard");
  return prob;
}

void check_best_strings(const std::vector<std::string>& files, const std::vector<json>& parts,
                        const std::vector<const json*>& by_index) {
  const problem prob = shards_problem(files[0], parts[0]);
  const std::uint64_t bound = pessimistic_bound(prob);
  std::uint64_t lowest_upper = bound;
  for (const json* part : by_index) lowest_upper = std::min(lowest_upper, (*part)["upper_bound"].get<std::uint64_t>());
  for (std::size_t f = 0; f < parts.size(); ++f) {
    const json& part = parts[f];
    const auto claimed = part["best_makespan"].get<std::uint64_t>();
    if (part["upper_bound"].get<std::uint64_t>() != bound)
      throw input_error(files[f] + ": upper_bound " + std::to_string(part["upper_bound"].get<std::uint64_t>()) +
                        ", but the pessimistic bound of its problem is " + std::to_string(bound) +
                        ": the shard was altered");
    if (claimed > lowest_upper)
      throw input_error(files[f] + ": best_makespan " + std::to_string(claimed) + " is above the upper bound " +
                        std::to_string(lowest_upper) + ": the shard was altered");
    std::string text;
    for (const auto& id : part["best_string"])
      text += (text.empty() ? "" : " ") + std::to_string(id.get<std::int64_t>());
    std::vector<std::uint16_t> str;
    try {
      str = parse_warp_string(prob, text);
    } catch (const input_error& e) {
      throw input_error(files[f] + ": best_string: " + e.description());
    }
    const built_schedule built = build_schedule(prob, str);
    if (built.makespan != claimed)
      throw input_error(files[f] + ": its best_string builds a schedule of " + std::to_string(built.makespan) +
                        " cycles, not the best_makespan " + std::to_string(claimed) +
                        " it claims: the shard was altered");
    if (part["warp_cycle_string"] != json(built.warp_cycle))
      throw input_error(files[f] +
                        ": its warp_cycle_string is not the schedule of its best_string: the shard was altered");
  }
}

}  // namespace

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
      throw input_error(files[f] + ": shard " + json_excerpt(s.value("index", json())) + "/" +
                        json_excerpt(s.value("count", json())) + " is not one of the " + std::to_string(count) +
                        " shards of " + files[0]);
    if (by_index[index]) throw input_error(files[f] + ": shard " + std::to_string(index) + " is given twice");
    for (const char* key : {"chains", "seed", "upper_bound", "problem"})
      if (parts[f][key] != first[key])
        throw input_error(files[f] + ": its " + key + " differs from " + files[0] + "'s: the shards of different runs");
    for (const auto& [name, value] : first["shard"]["settings"].items())
      if (s["settings"].value(name, json()) != value)
        throw input_error(files[f] + ": " + name + " " + json_excerpt(s["settings"].value(name, json())) + ", but " +
                          files[0] + " has " + name + " " + json_excerpt(value) + ": the shards of different runs");
    if (s["settings"].size() != first["shard"]["settings"].size())
      throw input_error(files[f] + ": its settings differ from " + files[0] + "'s: the shards of different runs");
    for (const char* key : {"sm", "inputs"})
      if (!s.contains(key) || !s[key].is_object())
        throw input_error(files[f] + ": its header has no " + key +
                          " (a shard of an older warpspan?): run the shards again");
    if (s["sm"] != first["shard"]["sm"])
      throw input_error(files[f] + ": its SM " + json_excerpt(s["sm"]) + " differs from " + files[0] + "'s " +
                        json_excerpt(first["shard"]["sm"]) + ": the shards of different runs");
    if (const std::string d = input_difference(first["shard"]["inputs"], s["inputs"]); !d.empty())
      throw input_error(files[f] + ": " + d + " from " + files[0] +
                        "'s (another file, or one that changed between "
                        "the shards): the shards of different runs");
    by_index[index] = &parts[f];
    if (parts[f].value("interrupted", false))
      std::cerr << "warpspan merge: " << files[f] << " is a shard that was interrupted (Ctrl-C or SIGTERM): the merged "
                << "result is marked interrupted\n";
  }
  for (std::uint32_t i = 0; i < count; ++i)
    if (!by_index[i])
      throw input_error("merge: shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing");

  // Every shard's best string, rebuilt by the library's schedule builder on the problem the shards
  // name, must give the makespan it claims, within the pessimistic bound of that problem.
  check_best_strings(files, parts, by_index);

  // The best: the highest makespan, the lowest chain id among equals (as the whole run picks).
  const json* best = by_index[0];
  std::uint64_t iterations = 0, per_chain = UINT64_MAX, validated = 0, chains_run = 0;
  double elapsed = 0, setup = 0;
  bool time_limited = false, was_interrupted = false;
  std::vector<std::pair<double, std::uint32_t>> points;
  for (const json* part : by_index) {
    const auto b = (*part)["best_makespan"].get<std::uint32_t>(), bb = (*best)["best_makespan"].get<std::uint32_t>();
    if (chain_beats(b, (*part)["best_chain"].get<std::uint32_t>(), bb, (*best)["best_chain"].get<std::uint32_t>()))
      best = part;
    iterations += (*part)["iterations"].get<std::uint64_t>();
    per_chain = std::min(per_chain, (*part)["iterations_per_chain"].get<std::uint64_t>());
    validated += (*part)["validated_chains"].get<std::uint64_t>();
    chains_run += part->value("chains_run", std::uint64_t{0});
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
      out["beam"]["elapsed_s"] =
          std::max(out["beam"]["elapsed_s"].get<double>(), (*part)["beam"]["elapsed_s"].get<double>());
  out["iterations"] = iterations;
  out["iterations_per_chain"] = per_chain;
  out["validated_chains"] = validated;
  out["chains_run"] = chains_run;
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
