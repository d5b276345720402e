#include "warpspan/orchestrator/shards.hpp"

#include <algorithm>
#include <charconv>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/ranks.hpp"
#include "warpspan/dbf/task.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/makespan/schedule_table.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {

using json = nlohmann::json;

shard_slice parse_shard(const std::string& text) {
  const auto slash = text.find('/');
  std::uint32_t i = 0, n = 0;
  const auto number = [](const std::string& part, std::uint32_t& v) {
    const auto [end, ec] = std::from_chars(part.data(), part.data() + part.size(), v);
    return !part.empty() && ec == std::errc() && end == part.data() + part.size();
  };
  if (slash == std::string::npos || !number(text.substr(0, slash), i) || !number(text.substr(slash + 1), n) || n == 0 ||
      i >= n)
    throw input_error(param_quoted("slices", text) + " is not I/N with 0 <= I < N (e.g. 0/4 ... 3/4)");
  if (world().size() > 1)
    throw input_error(param("slices") + " is for runs without mpirun (under mpirun the ranks share the work)");
  return {i, n};
}

json shard_inputs(const std::vector<std::pair<std::string, std::string>>& files) {
  json out = json::object();
  for (const auto& [parameter, path] : files)
    if (!path.empty()) out[parameter] = {{"path", path}, {"fnv1a64", content_hash(path, "input file")}};
  return out;
}

namespace {

/// Deepest nesting of a shard's JSON lines (they nest 4 levels).
constexpr int max_shard_depth = 16;

/// One line of shard `where` (line `number`), parsed; input_error when it is no JSON or nests
/// deeper than a shard does (comparing or printing a deeply nested value would recurse as deep).
json parse_shard_line(const std::string& line, const std::string& where, std::size_t number) {
  const auto shallow = [&](int depth, json::parse_event_t, json&) {
    if (depth > max_shard_depth)
      throw input_error(where + ":" + std::to_string(number) + ": nested deeper than " +
                        std::to_string(max_shard_depth) + " levels: not the output of a shard");
    return true;
  };
  try {
    return json::parse(line, shallow);
  } catch (const json::exception&) {
    throw input_error(where + ":" + std::to_string(number) +
                      ": not a JSON line (is the shard cut off, or not the output of a shard?)");
  }
}

bool blank(const std::string& line) { return line.find_first_not_of(" \t\r") == std::string::npos; }

/// `s` is a shard's output: lines, the first a header naming its command and count.
shard_output checked_shard(shard_output s) {
  if (s.lines.empty()) throw input_error(s.name + ": empty, not the output of a shard");
  const json& head = s.lines.front();
  if (!head.is_object() || !head.contains("shard") || !head["shard"].is_object() ||
      !head["shard"].contains("command") || !head["shard"]["command"].is_string() || !head["shard"].contains("count") ||
      !head["shard"]["count"].is_number_unsigned())
    throw input_error(s.name + ": not the JSON of a shard");
  return s;
}

}  // namespace

std::vector<shard_output> read_shards(const std::vector<std::string>& files, std::uint64_t max_mib) {
  if (max_mib == 0 || max_mib > (std::uint64_t{1} << 30))
    throw input_error(param("max_mib") + " must be from 1 to 1073741824");
  const std::uint64_t budget = max_mib << 20;
  std::uint64_t total = 0;
  std::vector<shard_output> shards;
  for (const std::string& path : files) {
    line_reader in(path, "shard", static_cast<std::size_t>(std::min<std::uint64_t>(budget, default_max_file_bytes)));
    shard_output s{path, {}};
    std::string line;
    const std::uint64_t before = total;
    while (in.next(line)) {
      total = before + in.bytes();
      if (total > budget)
        throw input_error(path + ": the shards are larger than " + param("max_mib", max_mib) +
                          " MiB in all; refused (raise it if they really are)");
      if (!blank(line)) s.lines.push_back(parse_shard_line(line, path, in.line_number()));
    }
    shards.push_back(checked_shard(std::move(s)));
  }
  if (!shards.empty()) shards_command(shards);
  return shards;
}

shard_output parse_shard_text(const std::string& text, const std::string& name) {
  shard_output s{name, {}};
  std::size_t start = 0, number = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    const std::string line = text.substr(start, end - start);
    ++number;
    if (!blank(line)) s.lines.push_back(parse_shard_line(line, name, number));
    start = end + 1;
  }
  return checked_shard(std::move(s));
}

std::string shards_command(const std::vector<shard_output>& shards) {
  if (shards.empty()) throw input_error("merge: give the shards of one run");
  std::string command;
  for (const shard_output& s : shards) {
    const std::string c = s.lines.front()["shard"]["command"].get<std::string>();
    if (!command.empty() && c != command)
      throw input_error(s.name + ": a shard of " + c + ", but " + shards.front().name + " is one of " + command);
    command = c;
  }
  return command;
}

// ---------------------------------------------------------------------------------- estimate
estimate_whole combine_estimate_parts(const std::vector<estimate_part>& parts) {
  estimate_whole w;
  estimate_part& t = w.total;
  t.iterations_per_chain = UINT64_MAX;
  std::vector<envelope_point> points;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    const estimate_part& p = parts[k];
    if (k > 0 && chain_beats(p.best_makespan, p.best_chain, parts[w.best].best_makespan, parts[w.best].best_chain))
      w.best = k;
    t.iterations += p.iterations;
    t.iterations_per_chain = std::min(t.iterations_per_chain, p.iterations_per_chain);
    t.validated += p.validated;
    t.chains_run += p.chains_run;
    t.elapsed_s = std::max(t.elapsed_s, p.elapsed_s);
    t.setup_s = std::max(t.setup_s, p.setup_s);
    if (p.beam_elapsed_s) t.beam_elapsed_s = std::max(t.beam_elapsed_s.value_or(0.0), *p.beam_elapsed_s);
    t.time_limited = t.time_limited || p.time_limited;
    t.interrupted = t.interrupted || p.interrupted;
    points.insert(points.end(), p.envelope.begin(), p.envelope.end());
  }
  t.time_limited = t.time_limited && !t.interrupted;
  if (!parts.empty()) {
    t.best_makespan = parts[w.best].best_makespan;
    t.best_chain = parts[w.best].best_chain;
  }
  // The envelope: every part's points in time order, each one that raises the best so far.
  std::stable_sort(points.begin(), points.end(), [](const auto& a, const auto& b) { return a.seconds < b.seconds; });
  std::uint32_t so_far = 0;
  for (const auto& p : points)
    if (p.seconds == 0) so_far = std::max(so_far, p.best);
  t.envelope.push_back({0.0, so_far});
  for (const auto& p : points)
    if (p.best > so_far) {
      so_far = p.best;
      t.envelope.push_back(p);
    }
  return w;
}

namespace {

/// How the input files of shard header `got` differ from `want` ("the content of --kernel F
/// differs"), or empty when they are the same.
message input_difference(const json& want, const json& got) {
  const auto path = [](const json& file) {
    const json p = file.is_object() ? file.value("path", json()) : json();
    return p.is_string() ? p.get<std::string>() : json_excerpt(p);
  };
  for (const auto& [name, file] : want.items())
    if (got.value(name, json()) != file)
      return got.contains(name) ? "the content of " + param(name) + " " + path(got[name]) + " differs"
                                : "no " + param(name) + " was given";
  for (const auto& [name, file] : got.items())
    if (!want.contains(name)) return param(name) + " " + path(file) + " was given";
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
    throw input_error(file + ": its problem and its SM do not agree: not the output of an estimate's shard");
  return prob;
}

/// Every shard's best string, rebuilt by the schedule builder on the problem the shards name, must
/// give the makespan it claims, within the pessimistic bound of that problem.
std::vector<built_schedule> check_best_strings(const std::vector<const shard_output*>& by_index, const problem& prob) {
  std::vector<built_schedule> schedules;
  const std::uint64_t bound = pessimistic_bound(prob);
  std::uint64_t lowest_upper = bound;
  for (const shard_output* s : by_index)
    lowest_upper = std::min(lowest_upper, s->lines[0]["upper_bound"].get<std::uint64_t>());
  for (const shard_output* s : by_index) {
    const json& part = s->lines[0];
    const std::string& file = s->name;
    const auto claimed = part["best_makespan"].get<std::uint64_t>();
    if (part["upper_bound"].get<std::uint64_t>() != bound)
      throw input_error(file + ": upper_bound " + std::to_string(part["upper_bound"].get<std::uint64_t>()) +
                        ", but the pessimistic bound of its problem is " + std::to_string(bound) +
                        ": the shard was altered");
    if (claimed > lowest_upper)
      throw input_error(file + ": best_makespan " + std::to_string(claimed) + " is above the upper bound " +
                        std::to_string(lowest_upper) + ": the shard was altered");
    std::string text;
    for (const auto& id : part["best_string"]) {
      if (!text.empty()) text += ' ';
      text += std::to_string(id.get<std::int64_t>());
    }
    std::vector<std::uint16_t> str;
    try {
      str = parse_warp_string(prob, text);
    } catch (const input_error& e) {
      throw input_error(file + ": best_string: " + e.description());
    }
    const built_schedule built = build_schedule(prob, str);
    if (built.makespan != claimed)
      throw input_error(file + ": its best_string builds a schedule of " + std::to_string(built.makespan) +
                        " cycles, not the best_makespan " + std::to_string(claimed) +
                        " it claims: the shard was altered");
    if (part["warp_cycle_string"] != json(built.warp_cycle))
      throw input_error(file + ": its warp_cycle_string is not the schedule of its best_string: the shard was altered");
    schedules.push_back(built);
  }
  return schedules;
}

/// Shard `s` is one of the run of `first` (the same count, settings, problem, SM and inputs).
void check_same_run(const shard_output& s, const shard_output& first, std::uint32_t count) {
  const json& part = s.lines[0];
  const json& h = part["shard"];
  const json& want = first.lines[0];
  const std::string& file = s.name;
  if (h.value("count", 0u) != count || h.value("index", count) >= count)
    throw input_error(file + ": shard " + json_excerpt(h.value("index", json())) + "/" +
                      json_excerpt(h.value("count", json())) + " is not one of the " + std::to_string(count) +
                      " shards of " + first.name);
  for (const char* key : {"chains", "seed", "upper_bound", "problem"})
    if (part[key] != want[key])
      throw input_error(file + ": its " + key + " differs from " + first.name + "'s: the shards of different runs");
  const json& settings = want["shard"]["settings"];
  for (const auto& [name, value] : settings.items())
    if (h["settings"].value(name, json()) != value)
      throw input_error(file + ": " + param(name) + " " + json_excerpt(h["settings"].value(name, json())) + ", but " +
                        first.name + " has " + param(name) + " " + json_excerpt(value) +
                        ": the shards of different runs");
  if (h["settings"].size() != settings.size())
    throw input_error(file + ": its settings differ from " + first.name + "'s: the shards of different runs");
  for (const char* key : {"sm", "inputs"})
    if (!h.contains(key) || !h[key].is_object())
      throw input_error(file + ": its header has no " + key + " (a shard of an older warpspan?): run the shards again");
  if (h["sm"] != want["shard"]["sm"])
    throw input_error(file + ": its SM " + json_excerpt(h["sm"]) + " differs from " + first.name + "'s " +
                      json_excerpt(want["shard"]["sm"]) + ": the shards of different runs");
  if (const message d = input_difference(want["shard"]["inputs"], h["inputs"]); !d.empty())
    throw input_error(file + ": " + d + " from " + first.name +
                      "'s (another file, or one that changed between the shards): the shards of different runs");
}

/// A shard's typed record, read from its JSON.
estimate_part part_of(const json& j) {
  estimate_part p;
  p.best_makespan = j["best_makespan"].get<std::uint32_t>();
  p.best_chain = j["best_chain"].get<std::uint32_t>();
  p.iterations = j["iterations"].get<std::uint64_t>();
  p.iterations_per_chain = j["iterations_per_chain"].get<std::uint64_t>();
  p.validated = j["validated_chains"].get<std::uint64_t>();
  p.chains_run = j.value("chains_run", std::uint64_t{0});
  p.elapsed_s = j["elapsed_s"].get<double>();
  p.setup_s = j["setup_s"].get<double>();
  if (j.contains("beam") && j["beam"].is_object()) p.beam_elapsed_s = j["beam"]["elapsed_s"].get<double>();
  p.time_limited = j["time_limited"].get<bool>();
  p.interrupted = j["interrupted"].get<bool>();
  for (const auto& e : j["envelope"]) p.envelope.push_back({e[0].get<double>(), e[1].get<std::uint32_t>()});
  return p;
}

estimate_merge merge_checked_estimates(const std::vector<shard_output>& shards) {
  for (const shard_output& s : shards)
    if (s.lines.size() != 1 || !s.lines[0].contains("best_makespan") || !s.lines[0]["shard"].contains("settings"))
      throw input_error(s.name + ": not the output of an estimate's shard (one JSON object with its settings)");
  const auto count = shards.front().lines[0]["shard"]["count"].get<std::uint32_t>();
  std::vector<const shard_output*> by_index(count, nullptr);
  estimate_merge out;
  for (const shard_output& s : shards) {
    check_same_run(s, shards.front(), count);
    const auto index = s.lines[0]["shard"]["index"].get<std::uint32_t>();
    if (by_index[index]) throw input_error(s.name + ": shard " + std::to_string(index) + " is given twice");
    by_index[index] = &s;
    if (s.lines[0].value("interrupted", false)) out.interrupted.push_back(s.name);
  }
  for (std::uint32_t i = 0; i < count; ++i)
    if (!by_index[i])
      throw input_error("merge: shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing");
  out.prob = shards_problem(by_index[0]->name, by_index[0]->lines[0]);
  std::vector<built_schedule> schedules = check_best_strings(by_index, out.prob);

  std::vector<estimate_part> parts;
  for (const shard_output* s : by_index) parts.push_back(part_of(s->lines[0]));
  const estimate_whole whole = combine_estimate_parts(parts);
  const estimate_part& t = whole.total;
  out.schedule = std::move(schedules[whole.best]);
  json& r = out.result;
  r = by_index[whole.best]->lines[0];
  r.erase("shard");
  // Every shard ran the same beam (a fixed width): its summary, with the longest time any took.
  if (t.beam_elapsed_s && r["beam"].is_object()) r["beam"]["elapsed_s"] = *t.beam_elapsed_s;
  r["iterations"] = t.iterations;
  r["iterations_per_chain"] = t.iterations_per_chain;
  r["validated_chains"] = t.validated;
  r["chains_run"] = t.chains_run;
  r["elapsed_s"] = t.elapsed_s;
  r["setup_s"] = t.setup_s;
  r["time_limited"] = t.time_limited;
  r["interrupted"] = t.interrupted;
  json env = json::array();
  for (const auto& e : t.envelope) env.push_back({e.seconds, e.best});
  r["envelope"] = env;
  return out;
}

}  // namespace

estimate_merge merge_estimate_shards(const std::vector<shard_output>& shards) {
  if (shards.empty()) throw input_error("merge: give the shards");
  try {
    return merge_checked_estimates(shards);
  } catch (const json::exception& e) {
    throw input_error("merge: the shards' JSON lacks what an estimate's shard writes (" + std::string(e.what()) + ")");
  }
}

// ---------------------------------------------------------------------------------- dbf
std::optional<int> stated_verdict(const std::string& line, bool as_json) {
  if (as_json) {
    const auto j = json::parse(line, nullptr, false);
    if (!j.is_object()) return std::nullopt;
    if (j.contains("error")) return 2;
    if (!j.contains("schedulable") || !j["schedulable"].is_boolean()) return std::nullopt;
    return j["schedulable"].get<bool>() ? 0 : 1;
  }
  // A batch line: the verdict first, then U (or, invalid, the message).
  if (line.rfind("invalid ", 0) == 0) return 2;
  if (line.rfind("NOT schedulable ", 0) == 0 && line.find(" U ") != std::string::npos) return 1;
  if (line.rfind("schedulable ", 0) == 0 && line.find(" U ") != std::string::npos) return 0;
  // A sweep line: the factor, then U and the verdict, or the message.
  const auto invalid = line.find("  invalid: "), u = line.find("  U ");
  if (invalid != std::string::npos && invalid < u) return 2;
  if (u == std::string::npos) return std::nullopt;
  if (line.find("  NOT schedulable", u) != std::string::npos) return 1;
  const std::string good = "  schedulable by EDF\n";
  if (line.size() >= good.size() && line.compare(line.size() - good.size(), good.size(), good) == 0) return 0;
  return std::nullopt;
}

namespace {

/// The first setting in which two dbf shard headers differ, as "--edf scan, not qpa".
message first_difference(const json& want, const json& got) {
  static const char* const settings[] = {"command", "json", "check",   "keep_going", "file",  "batch",
                                         "sweep",   "edf",  "backend", "threads",    "block", "max_table_mib"};
  for (const char* key : settings)
    if (want.value(key, json()) != got.value(key, json()))
      return (std::string(key) == "command" ? message("command") : param(key)) + " " +
             json_excerpt(got.value(key, json())) + ", not " + json_excerpt(want.value(key, json()));
  for (const auto& [key, name] : {std::pair{"backend_label", "the backend"}, {"inputs", "the input files' content"}})
    if (want.value(key, json()) != got.value(key, json()))
      return std::string(name) + " " + json_excerpt(got.value(key, json())) + ", not " +
             json_excerpt(want.value(key, json()));
  return "the options differ";
}

}  // namespace

set_record json_set_record(const analysed_set& a, bool batch) {
  set_record r;
  r.index = a.index;
  r.label = a.label;
  if (batch) {
    r.verdict = !a.error.empty() ? 2 : a.result.schedulable ? 0 : 1;
    r.line = dbf_batch_json(a).dump();
  } else {
    const sweep_point p = sweep_point_of(a);
    r.factor = p.factor;
    r.u = p.utilization;
    r.verdict = p.verdict;
    r.line = sweep_variant_json(a).dump();
  }
  return r;
}

void in_input_order(std::vector<set_record>& records) {
  std::sort(records.begin(), records.end(), [](const set_record& a, const set_record& b) { return a.index < b.index; });
  std::size_t next = 0;
  while (next < records.size() && records[next].index == next) ++next;
  records.resize(next);
}

set_record set_record_from_json(const json& j) {
  set_record r;
  r.index = j.at("index").get<std::uint64_t>();
  r.label = j.at("label").get<std::string>();
  r.line = j.at("line").get<std::string>();
  r.verdict = j.at("verdict").get<int>();
  r.factor = j.at("factor").get<double>();
  r.u = j.at("u").get<double>();
  return r;
}

namespace {

/// Shard `s`'s records (after its header) into `m`; its total of sets into `total` (where it
/// finished). `index` is its slice of `count`, `as_json` how its lines are written.
void take_records(const shard_output& s, std::uint32_t index, std::uint32_t count, bool as_json, set_merge& m,
                  std::optional<std::uint64_t>& total) {
  bool ended = false;
  for (std::size_t l = 1; l < s.lines.size(); ++l) {
    const json& j = s.lines[l];
    if (j.contains("shard_end")) {
      ended = true;
      const json& end = j["shard_end"];
      const bool finished = end.at("finished").get<bool>();
      m.finished = m.finished && finished;
      m.elapsed_s += end.at("elapsed_s").get<double>();
      if (const json k = end.value("kernel_s", json()); k.is_number())
        m.kernel_s = std::max(m.kernel_s, 0.0) + k.get<double>();
      const auto sets = end.at("sets").get<std::uint64_t>();
      if (total && *total != sets && m.finished)
        throw input_error(s.name + ": " + std::to_string(sets) + " sets, but another shard saw " +
                          std::to_string(*total));
      if (m.finished) total = sets;
      if (!finished) m.interrupted.push_back(s.name);
      continue;
    }
    set_record r = set_record_from_json(j);
    if (r.index % count != index)
      throw input_error(s.name + ": set " + std::to_string(r.index) + " is not shard " + std::to_string(index) + "'s");
    if (r.verdict < 0 || r.verdict > 2 || stated_verdict(r.line, as_json) != r.verdict)
      throw input_error(s.name + ":" + std::to_string(l + 1) + ": set " + std::to_string(r.index) + "'s verdict " +
                        std::to_string(r.verdict) + " is not what its line says: the shard was altered");
    m.records.push_back(std::move(r));
  }
  // A shard without its last line was cut off (or is still running): not a run to merge.
  if (!ended)
    throw input_error(s.name +
                      ": incomplete, its last line (shard_end) is missing: the shard was cut off or is still running; "
                      "run it again");
  if (!s.lines.back().contains("shard_end"))
    throw input_error(s.name + ": lines after its last line (shard_end): not one shard's output");
}

/// The settings of a dbf shard's header (dbf_shard_json): json exceptions where one is missing.
dbf_shard_settings settings_of(const json& h) {
  dbf_shard_settings s;
  s.command = h.at("command").get<std::string>();
  s.slice = {h.at("index").get<std::uint32_t>(), h.at("count").get<std::uint32_t>()};
  s.json = h.at("json").get<bool>();
  s.check = h.at("check").get<bool>();
  s.keep_going = h.at("keep_going").get<bool>();
  s.file = h.at("file").get<std::string>();
  s.batch = h.at("batch").get<std::string>();
  s.sweep = h.at("sweep").get<std::string>();
  s.edf = h.at("edf").get<std::string>();
  s.backend = h.at("backend").get<std::string>();
  s.threads = h.at("threads").get<long long>();
  s.block = h.at("block").get<unsigned>();
  s.max_table_mib = h.at("max_table_mib").get<std::uint64_t>();
  s.backend_label = h.at("backend_label").get<std::string>();
  return s;
}

set_merge merge_checked_sets(const std::vector<shard_output>& shards) {
  set_merge m;
  m.header = shards.front().lines[0]["shard"];
  m.settings = settings_of(m.header);
  const auto count = m.header.at("count").get<std::uint32_t>();
  const bool as_json = m.header.at("json").get<bool>();
  const std::string command = m.header.at("command").get<std::string>();
  if (command != "dbf-batch" && command != "dbf-sweep")
    throw input_error(shards.front().name + ": a shard of an unknown command '" + command + "'");
  if (!m.header.contains("inputs") || !m.header["inputs"].is_object())
    throw input_error(shards.front().name +
                      ": its header names no input files' content (a shard of an older warpspan?): run the shards "
                      "again");
  std::vector<bool> seen(count, false);
  std::optional<std::uint64_t> total;
  for (const shard_output& s : shards) {
    json h = s.lines[0]["shard"];
    const auto index = h.value("index", count);
    if (h.value("count", 0u) != count || index >= count)
      throw input_error(s.name + ": not one of the " + std::to_string(count) + " shards of " + shards.front().name);
    h["index"] = m.header["index"];
    if (h != m.header)
      throw input_error(s.name + ": a shard of another run than " + shards.front().name + ": " +
                        first_difference(m.header, h));
    if (seen[index]) throw input_error(s.name + ": shard " + std::to_string(index) + " is given twice");
    seen[index] = true;
    take_records(s, index, count, as_json, m, total);
  }
  for (std::uint32_t i = 0; i < count; ++i)
    if (!seen[i]) throw input_error("merge: shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing");
  if (m.finished && total && m.records.size() != *total)
    throw input_error("merge: " + std::to_string(m.records.size()) + " results for " + std::to_string(*total) +
                      " sets");
  in_input_order(m.records);
  return m;
}

}  // namespace

set_merge merge_set_shards(const std::vector<shard_output>& shards) {
  if (shards.empty()) throw input_error("merge: give the shards");
  try {
    return merge_checked_sets(shards);
  } catch (const json::exception& e) {
    throw input_error("merge: the shards' JSON lacks what a dbf shard writes (" + std::string(e.what()) + ")");
  }
}

task_set merged_sweep_base(const set_merge& merged, const std::string& first) {
  const std::string file = merged.header.at("file").get<std::string>();
  const json& ran = merged.header.at("inputs").value("file", json::object());
  if (!ran.contains("fnv1a64") || content_hash(file, "task set") != ran["fnv1a64"])
    throw input_error("merge: the task set " + file +
                      " changed since the shards ran (its content hash is not the one in " + first +
                      "): run the shards again");
  return load_task_set(file);
}

std::string dbf_shard_text(const dbf_shard_settings& settings, const std::vector<set_record>& records, bool finished,
                           double elapsed_s, double kernel_s, std::uint64_t sets) {
  std::string text = dbf_shard_json(settings).dump() + "\n";
  for (const set_record& r : records) text += set_record_json(r).dump() + "\n";
  return text + shard_end_json(finished, elapsed_s, kernel_s, sets).dump() + "\n";
}

}  // namespace warpspan
