// The level-by-level exact search on a CUDA device (issue 4). Each level (the sorted, distinct
// states reachable in exactly t cycles) is expanded by one thread per state with the shared
// successor enumeration (include/warpspan/exact/frontier.hpp): a first pass counts each state's
// successors, an exclusive scan gives every state its output range, a second pass writes them,
// and the next level is the sorted, deduplicated result. The level loop (limits, "all done", the
// witness) is the CPU search's own (exact_detail::run_levels in host/exact/frontier.cpp); levels
// are copied back for the witness, which the host backtracks exactly as the CPU search does. Counts and offsets are kept across levels and only
// grow; Thrust's temporaries come from a device_pool; the sort is a radix sort on the 128-bit keys
// (see sweep_kernels.cu).
#include <thrust/binary_search.h>
#include <thrust/execution_policy.h>
#include <thrust/scan.h>
#include <thrust/sort.h>
#include <thrust/unique.h>

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_pool.cuh"
#include "common/device_vector.cuh"
#include "exact/key_order.cuh"
#include "common/launch.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/exact/search.hpp"

namespace warpspan {
namespace {

constexpr int block_threads = 128;

__global__ void __launch_bounds__(block_threads)
    count_successors(frontier_view v, const packed_state* level, std::size_t n, std::uint64_t* counts) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(block_threads);
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  successor_enum e;
  std::uint64_t c = 0;
  if (e.start(v, level[i])) do
      ++c;
    while (e.advance(v));
  counts[i] = c;
}

__global__ void __launch_bounds__(block_threads)
    write_successors(frontier_view v, const packed_state* level, std::size_t n, const std::uint64_t* offsets,
                     packed_state* out) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(block_threads);
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  successor_enum e;
  std::uint64_t at = offsets[i];
  if (e.start(v, level[i])) do
      out[at++] = e.successor(v);
    while (e.advance(v));
}

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + block_threads - 1) / block_threads); }

}  // namespace

exact_result exact_frontier_cuda(const problem& prob, const frontier_options& options) {
  const frontier_view v = exact_detail::checked_view(prob);
  device_pool pool;
  device_vector<packed_state> level;  // the level being expanded, kept on the device between levels
  bool first = true;
  device_vector<std::uint64_t> counts, offsets;  // kept across levels; they only grow
  const auto free_now = [] { return free_device_bytes(); };
  const auto usable = [&] { return free_now() + pool.cached_bytes(); };
  // The vectors cannot reuse the pool's cache: it goes back to the device when they need it.
  const auto make_room = [&](std::size_t bytes) {
    if (bytes > free_now()) pool.release();
  };
  // The level loop, its limits and the witness are the CPU search's (exact_detail::run_levels);
  // only the expansion runs here.
  return exact_detail::run_levels(
      prob, options,
      [&](const std::vector<packed_state>& host_level, std::vector<packed_state>& host_next) -> std::string {
        if (first) {  // later levels are already on the device (the previous call's `next`)
          level = device_vector<packed_state>(host_level.begin(), host_level.end());
          first = false;
        }
        const std::size_t n = level.size();
        // counts and offsets are accounted before they are allocated (a bad_alloc loses the interval)
        const std::size_t grow = n > counts.capacity() ? 2 * n * sizeof(std::uint64_t) : 0;
        if (grow + (std::size_t{64} << 10) + n > usable())  // and the scan's scratch (see sweep_kernels.cu)
          return "GPU memory: the counts of a level of " + std::to_string(n) + " states do not fit";
        if (grow) {
          make_room(grow);
          counts = device_vector<std::uint64_t>();
          offsets = device_vector<std::uint64_t>();
          counts.reserve(n);
          offsets.reserve(n);
        }
        counts.resize(n);
        offsets.resize(n);
        WARPSPAN_LAUNCH(count_successors, blocks_for(n), block_threads, 0, nullptr)
        (v, thrust::raw_pointer_cast(level.data()), n, thrust::raw_pointer_cast(counts.data()));
        WARPSPAN_CUDA_CHECK_LAST();
        thrust::exclusive_scan(thrust::device(pool), counts.begin(), counts.end(), offsets.begin(), std::uint64_t{0});
        const std::uint64_t total =
            static_cast<std::uint64_t>(offsets.back()) + static_cast<std::uint64_t>(counts.back());
        // The successors, plus room for the sort's temporary copy.
        if (total * sizeof(packed_state) * 3 > usable())
          return "GPU memory: a level of " + std::to_string(total) + " successors does not fit";
        make_room(total * sizeof(packed_state));
        device_vector<packed_state> next(total);
        WARPSPAN_LAUNCH(write_successors, blocks_for(n), block_threads, 0, nullptr)
        (v, thrust::raw_pointer_cast(level.data()), n, thrust::raw_pointer_cast(offsets.data()),
         thrust::raw_pointer_cast(next.data()));
        WARPSPAN_CUDA_CHECK_LAST();
        thrust::sort(thrust::device(pool), next.begin(), next.end(), key_order{});
        next.erase(thrust::unique(thrust::device(pool), next.begin(), next.end()), next.end());
        host_next.resize(next.size());
        // An empty level has no host storage to copy into (begin() of an empty vector may be null,
        // which UBSan reports in the emulation build).
        if (!next.empty()) thrust::copy(next.begin(), next.end(), host_next.begin());
        level.swap(next);
        return std::string();
      });
}

}  // namespace warpspan
