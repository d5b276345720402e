#include "warpspan/io/result_json.hpp"

#include <string>

#include "warpspan/exact/search.hpp"
#include "warpspan/sm/kernel_string.hpp"

namespace warpspan {

using json = nlohmann::json;

json problem_json(const problem& prob) {
  json sigma = json::object();
  for (int u = 0; u < unit_count; ++u)
    if (prob.sm.sigma[u] > 0) sigma[std::string(1, unit_letters[u])] = prob.sm.sigma[u];
  return {{"warps", prob.warps},
          {"kernel", to_run_length(prob.kernel)},
          {"instructions", prob.instructions()},
          {"sigma", sigma},
          {"schedulers", prob.sm.schedulers}};
}

void t_runs_json(json& out, const problem& prob, const std::vector<t_run>& runs) {
  std::vector<std::uint32_t> t;
  json per_t = json::array(), unfinished = json::array();
  for (const t_run& run : runs) {
    json e{{"y", run.y}, {"complete", run.complete}, {"lower", run.lower}, {"upper", run.upper}};
    if (run.complete) {
      t.push_back(run.lower);
    } else {
      e["started"] = run.started;
      e["stop_reason"] = run.stop_reason;
      unfinished.push_back(run.y);
      if (!out.contains("stopped_at")) {
        out["stopped_at"] = run.y;
        out["stop_reason"] = "T(" + std::to_string(run.y) + "): " + run.stop_reason;
      }
    }
    per_t.push_back(e);
  }
  out["T"] = per_t;
  out["unfinished"] = unfinished;
  out["exact_T"] = t;
  // Only exact T(y) make the estimate safe; without T(1) there is none (the pessimistic bound stands).
  if (!t.empty()) {
    const auto tractable = tractable_estimate(prob.warps, t);
    out["tractable"] = tractable.first;
    out["tractable_y"] = tractable.second;
  }
}

}  // namespace warpspan
