// Recurring real-time tasks (paper 003 Sec. II): a DAG with a unique source and sink, execution
// requirements and relative deadlines on vertices, minimum separations on edges, and a period.
// The JSON format and the assumptions checked on load are in data/tasks/README.md.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace warpspan {

struct task_vertex {
  std::string id;
  std::uint64_t wcet = 0;      ///< e(v), a positive integer
  std::uint64_t deadline = 0;  ///< d(v), a positive integer
};

struct task_edge {
  std::uint32_t from = 0;  ///< index into task::vertices
  std::uint32_t to = 0;
  std::uint64_t separation = 0;  ///< p(u, v), a positive integer
};

struct task {
  std::string name;
  std::uint64_t period = 0;  ///< P(T)
  std::vector<task_vertex> vertices;
  std::vector<task_edge> edges;
};

struct task_set {
  std::vector<task> tasks;
};

/// Largest value accepted for a wcet, deadline, separation or period: spans of paths through two
/// copies of a task then fit 32-bit cells with room for "unreachable".
inline constexpr std::uint64_t task_value_limit = std::uint64_t{1} << 30;

/// Largest task-set file, and longest line of a .jsonl batch, that is read (64 MiB: a task of
/// 10,000 vertices takes under 1 MiB); larger input, /dev/zero included, is refused.
inline constexpr std::size_t max_task_file_bytes = std::size_t{64} << 20;

/// Checks the model's assumptions and throws input_error naming the task, vertex or edge: at least
/// one vertex, unique ids, positive values no larger than task_value_limit, edges between known
/// vertices and no duplicates or self-loops, acyclic (a cycle is named vertex by vertex, in O(V + E)), one source, one sink, frame separation
/// d(u) <= p(u, v), and a period no shorter than the longest source-to-sink sum of separations plus
/// d(sink).
void validate_task(const task& t);

/// Parses a task set from JSON text (format: data/tasks/README.md); `where` names the source in messages.
/// Every task is validated. Throws input_error on malformed or invalid input.
task_set parse_task_set(std::string_view text, const std::string& where);
/// Parses sporadic tasks from CSV: lines `name,wcet,deadline,period` (an optional header of those
/// names, `#` comments), or the job-set CSV of the NP schedulability test (header "Task ID, Job ID,
/// Arrival min, Arrival max, Cost min, Cost max, Deadline, Priority") where its jobs are strictly
/// periodic without jitter. Every task becomes a one-vertex graph.
task_set parse_task_csv(std::string_view text, const std::string& where);
/// Reads (read_text_file, at most max_task_file_bytes) and parses a file (*.csv with
/// parse_task_csv, anything else as JSON); a missing, empty or too large file, a directory or an
/// empty path is an input_error naming the path.
task_set load_task_set(const std::string& path);
/// The JSON text of a task set in the same format (one line when `compact`).
std::string task_set_json(const task_set& set, bool compact = false);

/// E(T): the largest sum of wcet over source-to-sink paths.
std::uint64_t max_path_wcet(const task& t);
/// The vertices in a topological order (validate_task first).
std::vector<std::uint32_t> topological_order(const task& t);

}  // namespace warpspan
