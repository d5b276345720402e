// The Ipoint probe for CUDA kernels (002 Sec. II-A with software probes): WARPSPAN_IPOINT(id) in a
// kernel that has a `probe_view probe` parameter records, once per warp, the Ipoint, the SM's
// %clock64, %smid and %globaltimer into the warp's own slice of a device buffer. Warps are keyed by
// block and thread index (not %warpid, which names a hardware slot that other warps reuse). On the
// GPU the first active lane records, so a divergent side records its own Ipoints as the paper's
// simulator did; the CPU emulation build picks the same lane (emu::first_active_lane_at) and emulates
// the clocks (cuda/emulation/cuda_runtime.h). Self-contained: needs only include/ (the CMake target
// warpspan::probe) and the CUDA runtime.
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstdint>
#include <vector>

#include "warpspan/cuda/cuda_check.cuh"
#include "warpspan/cuda/device_buffer.cuh"
#include "warpspan/wcet/collect.hpp"

namespace warpspan::wcet {

/// What a kernel gets: `capacity` records per warp, a count per warp (which may exceed capacity:
/// the records beyond are lost and counted).
struct probe_view {
  probe_record* records;
  unsigned* counts;
  unsigned capacity;
};

__device__ __forceinline__ void record_ipoint(const probe_view& p, unsigned id) {
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  [[maybe_unused]] const unsigned lane = tid % 32u;  // the emulation picks its lane itself
  long long clock;
  unsigned sm;
  unsigned long long global;
#if defined(WARPSPAN_CUDA_EMULATED)
  if (!::warpspan::emu::first_active_lane_at(id, clock)) return;
  sm = ::warpspan::emu::sm_id();
  global = ::warpspan::emu::global_timer_ns();
#else
  if (lane != static_cast<unsigned>(__ffs(__activemask()) - 1)) return;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(clock));
  asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(global));
#endif
  const unsigned warps_per_block = (blockDim.x * blockDim.y * blockDim.z + 31u) / 32u;
  const unsigned long long block = blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                                                    (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  const unsigned long long warp = block * warps_per_block + tid / 32u;
  // Atomic: with independent thread scheduling two divergent sides of a warp may record at once.
  const unsigned n = atomicAdd(p.counts + warp, 1u);
  if (n < p.capacity)
    p.records[warp * p.capacity + n] = probe_record{id, sm, static_cast<std::int64_t>(clock), static_cast<std::int64_t>(global)};
}

/// The host side: allocates the slices, hands the kernel its view, and reads the records back
/// keyed as trace records.
class probe_buffer {
 public:
  probe_buffer(std::size_t warps, unsigned capacity, cudaStream_t stream)
      : warps_(warps), capacity_(capacity), records_(warps * capacity, stream), counts_(warps, stream) {
    reset();
  }
  probe_view view() { return probe_view{records_.data(), counts_.data(), capacity_}; }
  void reset() { WARPSPAN_CUDA_TRY(cudaMemsetAsync(counts_.data(), 0, counts_.bytes(), counts_.stream())); }

  /// Appends the records of the last launch as run `run` (warp w of the grid is cta
  /// w / warps_per_block, warp w % warps_per_block); returns how many were lost.
  std::uint64_t collect(std::uint32_t run, unsigned warps_per_block, std::vector<collected_record>& out) const {
    const auto counts = counts_.to_host();
    const auto records = records_.to_host();
    std::uint64_t lost = 0;
    for (std::size_t w = 0; w < warps_; ++w) {
      const unsigned kept = std::min(counts[w], capacity_);
      lost += counts[w] - kept;
      std::vector<collected_record> mine;
      for (unsigned k = 0; k < kept; ++k) {
        const probe_record& r = records[w * capacity_ + k];
        mine.push_back(collected_record{run, r.sm, static_cast<std::uint32_t>(w / warps_per_block),
                                        static_cast<std::uint32_t>(w % warps_per_block), r.ipoint, r.clock});
      }
      // Atomic slots follow the order lanes got them; the clock orders them.
      std::stable_sort(mine.begin(), mine.end(),
                       [](const collected_record& a, const collected_record& b) { return a.clock < b.clock; });
      out.insert(out.end(), mine.begin(), mine.end());
    }
    return lost;
  }

 private:
  std::size_t warps_;
  unsigned capacity_;
  device_buffer<probe_record> records_;
  device_buffer<unsigned> counts_;
};

}  // namespace warpspan::wcet

/// Records Ipoint `id` for the calling warp; the kernel must have a `probe_view probe` in scope.
#define WARPSPAN_IPOINT(id) ::warpspan::wcet::record_ipoint(probe, (id))
