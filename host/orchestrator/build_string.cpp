#include "warpspan/orchestrator/build_string.hpp"

#include <string>

#include "warpspan/core/error.hpp"
#include "warpspan/exact/beam.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {

std::vector<std::uint16_t> constructed_string(const problem& prob, std::string_view word) {
  const auto kind = parse_initial_kind(word.empty() ? "rr" : word);
  if (!kind || *kind == initial_kind::random)
    throw input_error(param("init") + ": use rr, fp, mpwf, starve or beam with build");
  if (*kind != initial_kind::beam) return initial_string(prob.view(), *kind, 1, 0);
  beam_result b = beam_search(prob);
  if (!b.applicable && prob.per_warp())
    throw input_error(param("init") + ": beam takes one kernel for all warps, not per-warp kernels (" +
                      param("warp_kernels") + ")");
  if (!b.applicable)
    throw input_error(param("init") +
                      ": beam takes at most 16 warps and 254 instructions, or past 254 instructions "
                      "at most 8 warps with W x I at most 65,535 (have " +
                      std::to_string(prob.warps) + " and " + std::to_string(prob.instructions()) + ")");
  return std::move(b.string);
}

}  // namespace warpspan
