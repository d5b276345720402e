// Loading, validating and writing recurring real-time tasks.
#include "warpspan/dbf/task.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <initializer_list>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string_view>
#include <type_traits>
#include <unordered_map>
#include <unordered_set>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/file.hpp"

namespace warpspan {
namespace {

using json = nlohmann::json;

std::string task_label(const task& t) { return "task '" + t.name + "'"; }

/// A place in the input for messages: a string, or a function that builds it. Places are built
/// only when a message is thrown: a set of 3 tasks of 10 vertices has about 200 values, and writing
/// out each one's place took longer than parsing it.
template <class Where>
std::string text_of(const Where& where) {
  if constexpr (std::is_invocable_v<const Where&>)
    return where();
  else
    return std::string(where);
}

std::string edge_label(const task& t, const task_edge& e) {
  return task_label(t) + ": edge " + t.vertices[e.from].id + " -> " + t.vertices[e.to].id;
}

template <class What>
void check_value(std::uint64_t v, const What& what) {
  if (v == 0) throw input_error(text_of(what) + " must be a positive integer");
  if (v > task_value_limit)
    throw input_error(text_of(what) + " = " + std::to_string(v) + " is larger than the supported " +
                      std::to_string(task_value_limit));
}

/// The value as written (shortened; arrays and objects not written out), for messages.
std::string shown(const json& v) { return json_excerpt(v, 37); }

template <class Where>
std::uint64_t read_positive(const json& obj, const char* key, const Where& where) {
  const auto found = obj.is_object() ? obj.find(key) : obj.end();
  if (found == obj.end()) throw input_error(text_of(where) + ": missing \"" + key + "\"");
  const json& v = *found;
  if (v.is_number_unsigned() && v.get<std::uint64_t>() != 0) return v.get<std::uint64_t>();
  const std::string what = text_of(where) + ": \"" + key + "\" must be a positive integer";
  if (v.is_number_unsigned()) throw input_error(what + ", got 0");
  if (v.is_number_integer()) throw input_error(what + ", got " + shown(v));
  if (v.is_number_float())  // a fraction, an exponent, or an integer beyond 64 bits
    throw input_error(what + " no larger than " + std::to_string(task_value_limit) + ", got " + shown(v));
  throw input_error(what + ", got " + std::string(v.type_name()) + " " + shown(v));
}

/// The DOM parser of nlohmann::json with errors that name the place: a number beyond the range of a
/// double (1e400) would otherwise escape as out_of_range, not as a parse error.
class located_parser : public nlohmann::detail::json_sax_dom_parser<json> {
 public:
  located_parser(json& root, std::string_view text, const std::string& where)
      : json_sax_dom_parser(root, true), text_(text), where_(where) {}

  bool key(string_t& k) {
    last_key_ = k;
    return json_sax_dom_parser::key(k);
  }

  template <class Exception>
  bool parse_error(std::size_t position, const std::string& token, const Exception& ex) {
    // Line and column of the byte before `position` (the lexer has read the token).
    const std::size_t end = std::min(position, text_.size());
    std::size_t line = 1, column = 1;
    for (std::size_t k = 0; k + 1 < end; ++k) {
      if (text_[k] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    const std::string at = where_ + ": line " + std::to_string(line) + ", column " + std::to_string(column);
    if (ex.id == 406) {  // out_of_range: number overflow
      std::string number = token.size() > 40 ? token.substr(0, 37) + "..." : token;
      throw input_error(at + (last_key_.empty() ? "" : " (\"" + last_key_ + "\")") + ": the number " + number +
                        " is out of range (values are positive integers no larger than " +
                        std::to_string(task_value_limit) + ")");
    }
    std::string what = ex.what();  // "[json.exception.parse_error.101] parse error at line 2, column 1: ..."
    const auto tag = what.find("] ");
    throw input_error(where_ + ": malformed JSON (" +
                      printable_text(tag == std::string::npos ? what : what.substr(tag + 2)) + ")");
  }

 private:
  std::string_view text_;
  const std::string& where_;
  std::string last_key_;
};

template <class Where>
std::string read_string(const json& obj, const char* key, const Where& where) {
  const auto found = obj.is_object() ? obj.find(key) : obj.end();
  if (found == obj.end() || !found->is_string()) throw input_error(text_of(where) + ": missing string \"" + key + "\"");
  return found->get<std::string>();
}

/// Refuses a key of `obj` that is not one of `allowed` (a misspelt "deadine" would otherwise be a
/// missing value somewhere else, or silently nothing).
template <class Where>
void check_keys(const json& obj, std::initializer_list<std::string_view> allowed, const Where& where) {
  if (!obj.is_object()) return;
  for (auto item = obj.begin(); item != obj.end(); ++item) {
    const std::string& key = item.key();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string expected;
    for (std::string_view a : allowed) expected.append(expected.empty() ? "" : ", ").append(a);
    throw input_error(text_of(where) + ": unknown key " + quote_text(key) + " (expected: " + expected + ")");
  }
}

/// A sporadic task (Liu and Layland 1973; Baruah, Mok and Rosier 1990 with deadlines): one job of
/// `wcet` every `period` or later, due `deadline` after its release (the period when absent). In
/// the recurring model it is a one-vertex graph.
task sporadic_task(std::string name, std::uint64_t wcet, std::uint64_t deadline, std::uint64_t period,
                   const std::string& where) {
  if (deadline > period)
    throw input_error(where + ": deadline " + std::to_string(deadline) + " is longer than the period " +
                      std::to_string(period) + "; arbitrary deadlines are outside the model (deadline <= period)");
  task t;
  t.name = std::move(name);
  t.period = period;
  t.vertices.push_back({t.name, wcet, deadline});
  return t;
}

task parse_task(const json& jt, std::size_t index, const std::string& where) {
  const auto at = [&] { return where + ": task " + std::to_string(index + 1); };
  if (!jt.is_object()) throw input_error(at() + " is not an object");
  task t;
  if (jt.contains("name"))
    t.name = read_string(jt, "name", at);
  else
    t.name = std::string("T").append(std::to_string(index + 1));
  const std::string named = where + ": task '" + t.name + "'";
  if (jt.contains("wcet")) {  // the sporadic short form
    check_keys(jt, {"name", "wcet", "deadline", "period"}, named);
    const std::uint64_t period = read_positive(jt, "period", named);
    const std::uint64_t deadline = jt.contains("deadline") ? read_positive(jt, "deadline", named) : period;
    return sporadic_task(t.name, read_positive(jt, "wcet", named), deadline, period, named);
  }
  check_keys(jt, {"name", "period", "vertices", "edges"}, named);
  t.period = read_positive(jt, "period", named);
  if (!jt.contains("vertices") || !jt.at("vertices").is_array())
    throw input_error(named + ": missing array \"vertices\"");
  std::unordered_map<std::string, std::uint32_t> index_of;
  for (const json& jv : jt.at("vertices")) {
    const auto vat = [&] { return named + ": vertex " + std::to_string(t.vertices.size() + 1); };
    task_vertex v;
    v.id = read_string(jv, "id", vat);
    const auto vnamed = [&] { return named + ": vertex '" + v.id + "'"; };
    check_keys(jv, {"id", "wcet", "deadline"}, vnamed);
    v.wcet = read_positive(jv, "wcet", vnamed);
    v.deadline = read_positive(jv, "deadline", vnamed);
    if (!index_of.emplace(v.id, static_cast<std::uint32_t>(t.vertices.size())).second)
      throw input_error(named + ": vertex id " + quote_text(v.id) + " appears twice");
    t.vertices.push_back(std::move(v));
  }
  if (jt.contains("edges")) {
    if (!jt.at("edges").is_array()) throw input_error(named + ": \"edges\" must be an array");
    for (const json& je : jt.at("edges")) {
      const auto eat = [&] { return named + ": edge " + std::to_string(t.edges.size() + 1); };
      const std::string from = read_string(je, "from", eat);
      const std::string to = read_string(je, "to", eat);
      const auto enamed = [&] { return named + ": edge " + from + " -> " + to; };
      check_keys(je, {"from", "to", "separation"}, enamed);
      const auto f = index_of.find(from);
      const auto g = index_of.find(to);
      if (f == index_of.end()) throw input_error(enamed() + ": no vertex " + quote_text(from));
      if (g == index_of.end()) throw input_error(enamed() + ": no vertex " + quote_text(to));
      t.edges.push_back({f->second, g->second, read_positive(je, "separation", enamed)});
    }
  }
  return t;
}

/// Kahn's algorithm: the vertices it frees, in order (all of them unless the graph has a cycle).
std::vector<std::uint32_t> kahn_partial(const task& t) {
  const std::size_t n = t.vertices.size();
  std::vector<std::uint32_t> indeg(n, 0);
  std::vector<std::vector<std::uint32_t>> out(n);
  for (const auto& e : t.edges) {
    ++indeg[e.to];
    out[e.from].push_back(e.to);
  }
  std::vector<std::uint32_t> order;
  order.reserve(n);
  for (std::uint32_t v = 0; v < n; ++v)
    if (indeg[v] == 0) order.push_back(v);
  for (std::size_t k = 0; k < order.size(); ++k)
    for (std::uint32_t w : out[order[k]])
      if (--indeg[w] == 0) order.push_back(w);
  return order;
}

/// Kahn's algorithm; empty when the graph has a cycle.
std::vector<std::uint32_t> kahn(const task& t) {
  std::vector<std::uint32_t> order = kahn_partial(t);
  if (order.size() != t.vertices.size()) order.clear();
  return order;
}

/// The vertices of one cycle, in edge order, when Kahn's algorithm could not free every vertex.
/// Each vertex it left has an edge from another vertex it left (else it would have been freed), so
/// walking such edges backwards from any of them repeats a vertex within n steps; the walk between
/// the two visits is a cycle. O(V + E).
std::vector<std::uint32_t> find_cycle(const task& t, const std::vector<std::uint32_t>& freed_order) {
  const std::size_t n = t.vertices.size();
  std::vector<bool> freed(n, false);
  for (std::uint32_t v : freed_order) freed[v] = true;
  constexpr std::uint32_t none = ~std::uint32_t{0};
  std::vector<std::uint32_t> pred(n, none);  // one predecessor that was left too
  for (const auto& e : t.edges)
    if (!freed[e.from] && !freed[e.to]) pred[e.to] = e.from;
  std::uint32_t v = 0;
  while (freed[v]) ++v;
  std::vector<std::uint32_t> step(n, none);  // when the walk visited a vertex
  std::vector<std::uint32_t> walk;
  while (step[v] == none) {
    step[v] = static_cast<std::uint32_t>(walk.size());
    walk.push_back(v);
    v = pred[v];
  }
  std::vector<std::uint32_t> cycle(walk.begin() + step[v], walk.end());
  std::reverse(cycle.begin(), cycle.end());  // the walk went against the edges
  return cycle;
}

std::string cycle_text(const task& t, const std::vector<std::uint32_t>& cycle) {
  constexpr std::size_t shown_vertices = 10;
  std::string text;
  for (std::size_t k = 0; k < cycle.size() && k < shown_vertices; ++k) text += "'" + t.vertices[cycle[k]].id + "' -> ";
  if (cycle.size() > shown_vertices) text += "... -> ";
  text += "'" + t.vertices[cycle.front()].id + "' (" + std::to_string(cycle.size()) + " vertices)";
  return text;
}

/// Longest source-to-v sums of a per-edge weight, in topological order.
template <class Weight>
std::vector<std::uint64_t> longest_from_sources(const task& t, const std::vector<std::uint32_t>& order, Weight weight,
                                                std::vector<std::uint64_t> start) {
  std::vector<std::vector<const task_edge*>> out(t.vertices.size());
  for (const auto& e : t.edges) out[e.from].push_back(&e);
  for (std::uint32_t v : order)
    for (const task_edge* e : out[v]) start[e->to] = std::max(start[e->to], start[v] + weight(*e));
  return start;
}

}  // namespace

std::vector<std::uint32_t> topological_order(const task& t) { return kahn(t); }

void validate_task(const task& t) {
  const std::string at = task_label(t);
  if (t.vertices.empty()) throw input_error(at + ": no vertices");
  check_value(t.period, at + ": period");
  std::unordered_set<std::string_view> ids;
  ids.reserve(t.vertices.size());
  for (const auto& v : t.vertices) {
    if (!ids.insert(v.id).second) throw input_error(at + ": vertex id '" + v.id + "' appears twice");
    check_value(v.wcet, [&] { return at + ": vertex '" + v.id + "': wcet"; });
    check_value(v.deadline, [&] { return at + ": vertex '" + v.id + "': deadline"; });
  }
  const std::size_t n = t.vertices.size();
  std::vector<int> indeg(n, 0), outdeg(n, 0);
  std::unordered_set<std::uint64_t> seen;  // (from, to) of every edge
  seen.reserve(t.edges.size());
  for (const auto& e : t.edges) {
    if (e.from >= n || e.to >= n) throw input_error(at + ": an edge names a vertex that does not exist");
    const auto el = [&] { return edge_label(t, e); };
    if (e.from == e.to) throw input_error(el() + ": an edge from a vertex to itself");
    if (!seen.insert(std::uint64_t{e.from} << 32 | e.to).second) throw input_error(el() + ": appears twice");
    check_value(e.separation, [&] { return el() + ": separation"; });
    if (t.vertices[e.from].deadline > e.separation)
      throw input_error(el() + ": frame separation broken: d(" + t.vertices[e.from].id + ") = " +
                        std::to_string(t.vertices[e.from].deadline) + " > separation " + std::to_string(e.separation));
    ++indeg[e.to];
    ++outdeg[e.from];
  }
  const std::vector<std::uint32_t> order = kahn_partial(t);
  if (order.size() != n) throw input_error(at + ": the graph has a cycle: " + cycle_text(t, find_cycle(t, order)));
  std::vector<std::uint32_t> sources, sinks;
  for (std::uint32_t v = 0; v < n; ++v) {
    if (indeg[v] == 0) sources.push_back(v);
    if (outdeg[v] == 0) sinks.push_back(v);
  }
  if (sources.size() != 1)
    throw input_error(at + ": " + std::to_string(sources.size()) + " sources ('" + t.vertices[sources[0]].id + "', '" +
                      t.vertices[sources[1]].id + "'...); a task has exactly one");
  if (sinks.size() != 1)
    throw input_error(at + ": " + std::to_string(sinks.size()) + " sinks ('" + t.vertices[sinks[0]].id + "', '" +
                      t.vertices[sinks[1]].id + "'...); a task has exactly one");
  std::vector<std::uint64_t> zero(n, 0);
  const auto sep = longest_from_sources(
      t, order, [](const task_edge& e) { return e.separation; }, zero);
  const std::uint64_t needed = sep[sinks[0]] + t.vertices[sinks[0]].deadline;
  if (n == 1 && t.period < needed)  // a sporadic task: in its own terms
    throw input_error(at + ": deadline " + std::to_string(needed) + " > period " + std::to_string(t.period) +
                      "; arbitrary deadlines are outside the model (deadline <= period)");
  if (t.period < needed)
    throw input_error(at + ": period " + std::to_string(t.period) +
                      " is shorter than the longest source-to-sink "
                      "separation plus d(sink) = " +
                      std::to_string(needed));
}

std::uint64_t max_path_wcet(const task& t) {
  const std::vector<std::uint32_t> order = kahn(t);
  if (order.empty()) throw input_error(task_label(t) + ": the graph has a cycle");
  std::vector<std::uint64_t> start(t.vertices.size());
  for (std::size_t v = 0; v < start.size(); ++v) start[v] = t.vertices[v].wcet;
  // Longest path by vertex weight: the edge weight is the wcet of its head.
  const auto best = longest_from_sources(
      t, order, [&](const task_edge& e) { return t.vertices[e.to].wcet; }, start);
  // Every vertex lies on a source-to-sink path, and wcet > 0, so the maximum is at the sink.
  return *std::max_element(best.begin(), best.end());
}

task_set parse_task_set(std::string_view text, const std::string& where) {
  json doc;
  located_parser parser(doc, text, where);
  json::sax_parse(text, &parser);
  if (!doc.is_object() || !doc.contains("tasks") || !doc.at("tasks").is_array())
    throw input_error(where + ": expected an object with an array \"tasks\"");
  check_keys(doc, {"tasks", "name", "description"}, where);
  if (doc.at("tasks").empty()) throw input_error(where + ": \"tasks\" is empty");
  task_set set;
  for (std::size_t i = 0; i < doc.at("tasks").size(); ++i) {
    set.tasks.push_back(parse_task(doc.at("tasks")[i], i, where));
    try {
      validate_task(set.tasks.back());
    } catch (const input_error& e) {
      throw input_error(where + ": " + e.description());
    }
  }
  return set;
}

task_set load_task_set(const std::string& path) {
  const std::string s = read_text_file(path, "task set", max_task_file_bytes);
  if (s.find_first_not_of(" \t\r\n") == std::string::npos)
    throw input_error("task set " + path + ": the file is empty");
  const std::string ext = path.size() >= 4 ? path.substr(path.size() - 4) : "";
  if (ext == ".csv" || ext == ".CSV") return parse_task_csv(s, path);
  return parse_task_set(s, path);
}

namespace {

std::string trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r");
  return std::string(text.substr(first, last - first + 1));
}

std::vector<std::string> csv_fields(const std::string& line) {
  std::vector<std::string> out;
  std::size_t start = 0;
  for (;;) {
    const std::size_t comma = line.find(',', start);
    out.push_back(
        trimmed(std::string_view(line).substr(start, comma == std::string::npos ? std::string::npos : comma - start)));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::string lower(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

/// A non-negative integer field (the NP tool's arrivals start at 0); `positive` refuses 0 too.
std::uint64_t csv_number(const std::string& field, const std::string& column, const std::string& at, bool positive) {
  std::uint64_t v = 0;
  const char* end = field.data() + field.size();
  const auto [ptr, ec] = std::from_chars(field.data(), end, v);
  if (field.empty() || ec != std::errc() || ptr != end || (positive && v == 0) || v > task_value_limit)
    throw input_error(at + ": " + column + " must be " + (positive ? "a positive" : "a non-negative") +
                      " integer no larger than " + std::to_string(task_value_limit) + ", got " + quote_text(field));
  return v;
}

/// The job-set CSV of the NP schedulability test (Nasri and Brandenburg, RTSS 2017): one line per
/// job, "Task ID, Job ID, Arrival min, Arrival max, Cost min, Cost max, Deadline, Priority", with
/// absolute arrivals and deadlines. It maps onto sporadic tasks when every task's jobs arrive
/// strictly periodically without jitter (arrival min = max, a constant gap: the period) with a
/// constant relative deadline; the cost is the largest Cost max. Anything else is refused, naming
/// the line. (The NP tool analyses non-preemptive schedules; warpspan's EDF test is preemptive.)
task_set parse_np_jobs(const std::vector<std::pair<std::size_t, std::vector<std::string>>>& rows,
                       const std::string& where) {
  struct job {
    std::size_t line;
    std::uint64_t arrival, cost, deadline;
  };
  std::map<std::uint64_t, std::vector<job>> by_task;
  for (const auto& [line, f] : rows) {
    const std::string at = where + ":" + std::to_string(line);
    if (f.size() != 8)
      throw input_error(at +
                        ": expected 8 fields (Task ID, Job ID, Arrival min, Arrival max, Cost min, Cost max, Deadline, "
                        "Priority), got " +
                        std::to_string(f.size()));
    const std::uint64_t id = csv_number(f[0], "Task ID", at, false);
    const std::uint64_t a_min = csv_number(f[2], "Arrival min", at, false);
    const std::uint64_t a_max = csv_number(f[3], "Arrival max", at, false);
    const std::uint64_t c_max = csv_number(f[5], "Cost max", at, true);
    const std::uint64_t d = csv_number(f[6], "Deadline", at, true);
    if (a_max != a_min)
      throw input_error(at + ": release jitter (Arrival min " + f[2] + " < max " + f[3] +
                        ") is outside the sporadic model warpspan imports");
    if (d <= a_min) throw input_error(at + ": the deadline " + f[6] + " is not after the arrival " + f[2]);
    by_task[id].push_back({line, a_min, c_max, d - a_min});
  }
  task_set set;
  for (auto& [id, jobs] : by_task) {
    std::sort(jobs.begin(), jobs.end(), [](const job& a, const job& b) { return a.arrival < b.arrival; });
    const std::string name = std::string("T").append(std::to_string(id));
    if (jobs.size() < 2)
      throw input_error(where + ":" + std::to_string(jobs[0].line) + ": task " + std::to_string(id) +
                        " has one job; its period cannot be told (give at least two jobs)");
    const std::uint64_t period = jobs[1].arrival - jobs[0].arrival;
    std::uint64_t cost = 0;
    for (std::size_t k = 0; k < jobs.size(); ++k) {
      const std::string at = where + ":" + std::to_string(jobs[k].line);
      if (k > 0 && jobs[k].arrival - jobs[k - 1].arrival != period)
        throw input_error(at + ": task " + std::to_string(id) + " is not periodic (gap " +
                          std::to_string(jobs[k].arrival - jobs[k - 1].arrival) + " after " + std::to_string(period) +
                          ")");
      if (jobs[k].deadline != jobs[0].deadline)
        throw input_error(at + ": task " + std::to_string(id) + " changes its relative deadline");
      cost = std::max(cost, jobs[k].cost);
    }
    if (period == 0)
      throw input_error(where + ":" + std::to_string(jobs[1].line) + ": two jobs of task " + std::to_string(id) +
                        " arrive at once");
    set.tasks.push_back(sporadic_task(name, cost, jobs[0].deadline, period, where + ": task " + std::to_string(id)));
  }
  return set;
}

}  // namespace

namespace {

/// The columns of a CSV of sporadic tasks, by the names a header may give them (case does not
/// matter): name, wcet, deadline (optional: the period) and period.
struct csv_columns {
  int name = 0, wcet = 1, deadline = 2, period = 3;
  std::size_t count = 4;
};

const char* const csv_header_help =
    "the columns are name (or task, id), wcet (or c, e, cost), deadline (or d; optional, the period when "
    "absent) and period (or t, p), in any order";

/// The columns a header line names; input_error naming a word it does not know.
csv_columns csv_header(const std::vector<std::string>& fields, const std::string& at) {
  csv_columns c{-1, -1, -1, -1, fields.size()};
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const std::string f = lower(fields[k]);
    int* slot = f == "name" || f == "task" || f == "id" || f == "task name" ? &c.name
                : f == "wcet" || f == "c" || f == "e" || f == "cost"        ? &c.wcet
                : f == "deadline" || f == "d"                               ? &c.deadline
                : f == "period" || f == "t" || f == "p"                     ? &c.period
                                                                            : nullptr;
    if (!slot)
      throw input_error(at + ": '" + fields[k] +
                        "' is not a column name warpspan knows (a first line whose second field is not a "
                        "number is read as a header); " +
                        csv_header_help);
    if (*slot >= 0) throw input_error(at + ": the header names the same column twice ('" + fields[k] + "')");
    *slot = static_cast<int>(k);
  }
  if (c.name < 0 || c.wcet < 0 || c.period < 0)
    throw input_error(at + ": the header lacks the " +
                      std::string(c.name < 0   ? "name"
                                  : c.wcet < 0 ? "wcet"
                                               : "period") +
                      " column; " + csv_header_help);
  return c;
}

/// A first line is a header when its second field is not a number (a task may be named anything).
bool looks_like_header(const std::vector<std::string>& fields) {
  if (fields.size() < 2) return false;
  const std::string& f = fields[1];
  return f.empty() || !std::all_of(f.begin(), f.end(), [](unsigned char ch) { return std::isdigit(ch); });
}

}  // namespace

task_set parse_task_csv(std::string_view text, const std::string& where) {
  text = without_bom(text);
  std::vector<std::pair<std::size_t, std::vector<std::string>>> rows;
  std::vector<std::string> header;
  std::size_t number = 0, start = 0, header_line = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find('\n', start), text.size());
    const std::string line = trimmed(text.substr(start, end - start));
    start = end + 1;
    ++number;
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> fields = csv_fields(line);
    if (rows.empty() && header.empty() && (lower(fields[0]) == "task id" || looks_like_header(fields))) {
      header = std::move(fields);
      header_line = number;
      continue;
    }
    rows.emplace_back(number, std::move(fields));
  }
  if (!header.empty() && lower(header[0]) == "task id") {
    if (rows.empty()) throw input_error(where + ": no jobs after the header");
    return parse_np_jobs(rows, where);
  }
  const csv_columns col =
      header.empty() ? csv_columns{} : csv_header(header, where + ":" + std::to_string(header_line));
  if (rows.empty()) throw input_error(where + ": no tasks");
  task_set set;
  for (const auto& [line, f] : rows) {
    const std::string at = where + ":" + std::to_string(line);
    if (f.size() != col.count)
      throw input_error(at + ": expected " + std::to_string(col.count) + " fields" +
                        (header.empty() ? std::string(" name,wcet,deadline,period") : " as the header") + ", got " +
                        std::to_string(f.size()));
    const std::string& name = f[static_cast<std::size_t>(col.name)];
    if (name.empty()) throw input_error(at + ": the task name is empty");
    const std::uint64_t period = csv_number(f[static_cast<std::size_t>(col.period)], "period", at, true);
    const std::uint64_t deadline =
        col.deadline < 0 ? period : csv_number(f[static_cast<std::size_t>(col.deadline)], "deadline", at, true);
    set.tasks.push_back(
        sporadic_task(name, csv_number(f[static_cast<std::size_t>(col.wcet)], "wcet", at, true), deadline, period, at));
  }
  for (task& t : set.tasks) {
    try {
      validate_task(t);
    } catch (const input_error& e) {
      throw input_error(where + ": " + e.description());
    }
  }
  return set;
}

std::string task_set_json(const task_set& set, bool compact) {
  json doc;
  doc["tasks"] = json::array();
  for (const auto& t : set.tasks) {
    json jt;
    jt["name"] = t.name;
    jt["period"] = t.period;
    jt["vertices"] = json::array();
    for (const auto& v : t.vertices)
      jt["vertices"].push_back({{"id", v.id}, {"wcet", v.wcet}, {"deadline", v.deadline}});
    jt["edges"] = json::array();
    for (const auto& e : t.edges)
      jt["edges"].push_back(
          {{"from", t.vertices[e.from].id}, {"to", t.vertices[e.to].id}, {"separation", e.separation}});
    doc["tasks"].push_back(std::move(jt));
  }
  return compact ? doc.dump() : doc.dump(2);
}

}  // namespace warpspan
