// Parameter sweeps over a task set.
#include "warpspan/dbf/sweep.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "warpspan/core/error.hpp"

namespace warpspan {
namespace {

constexpr std::uint32_t max_steps = 1'000'000;

double parse_factor(const std::string& text, const std::string& spec) {
  std::size_t used = 0;
  double v = 0;
  try {
    v = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || !std::isfinite(v) || v <= 0)
    throw input_error(param_quoted("sweep", spec) + ": '" + text + "' is not a positive factor");
  return v;
}

std::uint64_t scaled(std::uint64_t value, double factor) {
  const double v = std::round(static_cast<double>(value) * factor);
  if (v >= static_cast<double>(task_value_limit)) return task_value_limit + 1;  // refused by validation
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(v));
}

}  // namespace

sweep_spec parse_sweep(std::string_view text) {
  const std::string spec(text);
  std::vector<std::string> parts;
  std::stringstream in(spec);
  for (std::string item; std::getline(in, item, ':');) parts.push_back(item);
  if (!spec.empty() && spec.back() == ':') parts.emplace_back();  // getline drops a trailing empty field
  if (parts.size() < 4 || parts.size() > 5)
    throw input_error(param_quoted("sweep", spec) + ": expected KIND:FROM:TO:STEPS[:TASK], e.g. wcet:0.5:1.5:101");
  sweep_spec s;
  s.kind = parts[0];
  if (s.kind != "wcet" && s.kind != "deadline" && s.kind != "separation" && s.kind != "period")
    throw input_error(param_quoted("sweep", spec) + ": unknown kind '" + s.kind +
                      "' (wcet, deadline, separation or period)");
  s.from = parse_factor(parts[1], spec);
  s.to = parse_factor(parts[2], spec);
  const std::string& steps = parts[3];
  if (steps.empty() || steps.find_first_not_of("0123456789") != std::string::npos || steps.size() > 7 ||
      std::stoul(steps) < 1 || std::stoul(steps) > max_steps)
    throw input_error(param_quoted("sweep", spec) + ": STEPS must be an integer from 1 to " +
                      std::to_string(max_steps));
  s.steps = static_cast<std::uint32_t>(std::stoul(steps));
  if (parts.size() == 5) {
    s.task = parts[4];
    if (s.task.empty()) throw input_error(param_quoted("sweep", spec) + ": empty task name");
  }
  return s;
}

void check_sweep_task(const task_set& base, const sweep_spec& spec) {
  if (!spec.task.empty() &&
      std::none_of(base.tasks.begin(), base.tasks.end(), [&](const task& t) { return t.name == spec.task; }))
    throw input_error(param("sweep") + ": the set has no task '" + spec.task + "'");
}

sweep_variant sweep_variant_at(const task_set& base, const sweep_spec& spec, std::uint32_t k) {
  return sweep_variant_with(base, spec,
                            spec.steps == 1 ? spec.from : spec.from + (spec.to - spec.from) * k / (spec.steps - 1));
}

sweep_variant sweep_variant_with(const task_set& base, const sweep_spec& spec, double factor) {
  sweep_variant v;
  v.factor = factor;
  v.set = base;
  for (task& t : v.set.tasks) {
    if (!spec.task.empty() && t.name != spec.task) continue;
    if (spec.kind == "period") t.period = scaled(t.period, v.factor);
    for (task_vertex& x : t.vertices) {
      if (spec.kind == "wcet") x.wcet = scaled(x.wcet, v.factor);
      if (spec.kind == "deadline") x.deadline = scaled(x.deadline, v.factor);
    }
    if (spec.kind == "separation")
      for (task_edge& e : t.edges) e.separation = scaled(e.separation, v.factor);
  }
  try {
    for (const task& t : v.set.tasks) validate_task(t);
  } catch (const input_error& e) {
    v.error = e.description();
  }
  return v;
}

std::vector<sweep_variant> sweep_variants(const task_set& base, const sweep_spec& spec) {
  check_sweep_task(base, spec);
  std::vector<sweep_variant> out;
  out.reserve(spec.steps);
  for (std::uint32_t k = 0; k < spec.steps; ++k) out.push_back(sweep_variant_at(base, spec, k));
  return out;
}

}  // namespace warpspan
