// wcet-collect on the CUDA backend: the probe's own cost, then the kernel run after run with the
// probe buffer reset between runs.
#include <algorithm>
#include <string>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "common/stream.cuh"
#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "wcet/sdk_kernels.cuh"

namespace warpspan::wcet {

namespace {

constexpr unsigned probe_pairs = 64;

__global__ void __launch_bounds__(32) empty_probes(probe_view probe) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(32);
  for (unsigned k = 0; k < probe_pairs; ++k) {
    WARPSPAN_IPOINT(0);
    WARPSPAN_IPOINT(1);
  }
}

/// Median clock difference of two probes back to back on one warp.
std::int64_t measure_probe_cost(cudaStream_t stream) {
  probe_buffer buffer(1, 2 * probe_pairs, stream);
  WARPSPAN_LAUNCH(empty_probes, 1, 32, 0, stream)(buffer.view());
  WARPSPAN_CUDA_CHECK_LAST();
  std::vector<collected_record> records;
  buffer.collect(0, 1, records);
  std::vector<std::int64_t> gaps;
  for (std::size_t k = 0; k + 1 < records.size(); k += 2) gaps.push_back(records[k + 1].clock - records[k].clock);
  if (gaps.empty()) return 0;
  std::nth_element(gaps.begin(), gaps.begin() + static_cast<std::ptrdiff_t>(gaps.size() / 2), gaps.end());
  return gaps[gaps.size() / 2];
}

}  // namespace

collect_result collect_wcet_traces(const collect_request& request) {
  const auto& table = sdk_kernels();
  const auto it =
      std::find_if(table.begin(), table.end(), [&](const sdk_kernel& k) { return k.name == request.kernel; });
  if (it == table.end()) throw input_error("unknown kernel '" + request.kernel + "'");
  if (request.runs == 0 || request.runs > 100000) throw input_error(param("runs") + " must be 1 to 100000");
  if (request.size == 0 || request.size > (1u << 24)) throw input_error(param("size") + " must be 1 to 16777216");
  if (request.slice == 0 || request.slice > (1u << 20)) throw input_error(param("slice") + " must be 1 to 1048576");
  require_cuda_device("wcet-collect");
  collect_result result;
  result.size = request.size;
  const launch_shape shape = it->shape(result.size);
  if (shape.grid == 0) throw input_error(param("size", result.size) + " is too small for " + request.kernel);
  result.grid = shape.grid;
  result.block = shape.block;
  const unsigned warps_per_block = (shape.block + 31) / 32;
  cuda_stream stream;
  result.probe_cost = measure_probe_cost(stream.get());
  probe_buffer buffer(std::size_t{shape.grid} * warps_per_block, request.slice, stream.get());
  result.verified = true;
  for (unsigned run = 0; run < request.runs; ++run) {
    buffer.reset();
    const bool ok = it->run(result.size, request.seed * 1000003u + run, buffer.view(), stream.get());
    if (!ok) throw cuda_error(request.kernel + ": run " + std::to_string(run) + " computed a wrong result");
    result.lost += buffer.collect(run, warps_per_block, result.records);
  }
  return result;
}

}  // namespace warpspan::wcet
