// The Ipoint probe for CUDA kernels (002 Sec. II-A with software probes): WARPSPAN_IPOINT(id) in a
// kernel that has a `probe_view probe` parameter records, once per warp, the Ipoint, the SM's
// %clock64, %smid and %globaltimer into the warp's own slice of a device buffer. Warps are keyed by
// block and thread index (not %warpid, which names a hardware slot that other warps reuse). On the
// GPU the first active lane records, so a divergent side records its own Ipoints as the paper's
// simulator did; the CPU emulation build, which runs a warp's lanes one after another, keeps each
// lane's sites and merges them into the order the warp runs them in lockstep (emu::probe_pass,
// cuda/emulation/cuda_runtime.h), with emulated clocks.
//
// With nvcc the probe is one block of inline PTX without a branch, which begins with the line
// `// warpspan-ipoint ID`: `warpspan wcet --ptx` finds these lines in the kernel's PTX and makes the
// basic block each sits in the Ipoint named ID, so the PTX and the traces agree by construction and
// the probe adds no basic block of its own (docs/wcet.md, "Your own kernel").
//
// Host side: probe_session allocates the buffer for one launch shape, launches nothing, collects the
// records after each of the user's launches and writes them as a trace (text or binary).
// Self-contained: needs only the installed include/ (the CMake target warpspan::probe) and the CUDA
// runtime (or, in an emulation build of warpspan, its emulated runtime, which that target brings).
#pragma once

#include <cuda_runtime.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <fstream>
#include <ostream>
#include <string>
#include <vector>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/detail/cuda/cuda_check.cuh"
#include "warpspan/detail/cuda/device_buffer.cuh"
#include "warpspan/wcet/collect.hpp"

namespace warpspan::wcet {

/// What a kernel gets: `capacity` records per warp, a count per warp (which may exceed capacity:
/// the records beyond are lost and counted).
struct probe_view {
  probe_record* records;
  unsigned* counts;
  unsigned capacity;
};

/// Records Ipoint `Id` for the calling warp (WARPSPAN_IPOINT).
#if defined(WARPSPAN_CUDA_EMULATED)
static_assert(sizeof(probe_record) == sizeof(::warpspan::emu::probe_slot) &&
                  offsetof(probe_record, sm) == offsetof(::warpspan::emu::probe_slot, sm) &&
                  offsetof(probe_record, clock) == offsetof(::warpspan::emu::probe_slot, clock) &&
                  offsetof(probe_record, global_ns) == offsetof(::warpspan::emu::probe_slot, global_ns),
              "the emulation stores probe records as probe_slot");
template <unsigned Id>
inline void record_ipoint(const probe_view& p, const ::warpspan::emu::probe_site& site) {
#else
template <unsigned Id>
__device__ __forceinline__ void record_ipoint(const probe_view& p) {
#endif
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned warps_per_block = (blockDim.x * blockDim.y * blockDim.z + 31u) / 32u;
  const unsigned long long block =
      blockIdx.x + static_cast<unsigned long long>(gridDim.x) *
                       (blockIdx.y + static_cast<unsigned long long>(gridDim.y) * blockIdx.z);
  const unsigned long long warp = block * warps_per_block + tid / 32u;
#if defined(WARPSPAN_CUDA_EMULATED)
  // The lane's pass; the emulation writes the warp's records when its lanes have run to the next
  // barrier (or returned), in the warp's lockstep order.
  ::warpspan::emu::probe_pass(
      site, ::warpspan::emu::probe_target{reinterpret_cast<::warpspan::emu::probe_slot*>(p.records), p.counts,
                                          p.capacity, warp});
#else
  // The first active lane (no lower lane in __activemask()) takes the warp's next slot with an
  // atomic (with independent thread scheduling two divergent sides may record at once) and, when
  // the slot is within the slice, stores {Id, %smid, %clock64, %globaltimer} (probe_record's
  // layout: 24 bytes). Predicated, not branched: the probe's block is the block of its site.
  asm volatile(
      "{\n\t"
      ".reg .pred wsp_first, wsp_keep;\n\t"
      ".reg .b32 wsp_mask, wsp_below, wsp_n, wsp_sm, wsp_id;\n\t"
      ".reg .b64 wsp_clock, wsp_global, wsp_at;\n\t"
      "// warpspan-ipoint %0\n\t"
      "activemask.b32 wsp_mask;\n\t"
      "mov.u32 wsp_below, %%lanemask_lt;\n\t"
      "and.b32 wsp_below, wsp_below, wsp_mask;\n\t"
      "setp.eq.u32 wsp_first, wsp_below, 0;\n\t"
      "mov.u64 wsp_clock, %%clock64;\n\t"
      "mov.u32 wsp_sm, %%smid;\n\t"
      "mov.u64 wsp_global, %%globaltimer;\n\t"
      "mov.u32 wsp_id, %0;\n\t"
      "mov.u32 wsp_n, 0xffffffff;\n\t"
      "@wsp_first atom.add.u32 wsp_n, [%1], 1;\n\t"
      "setp.lt.u32 wsp_keep, wsp_n, %3;\n\t"
      "mad.wide.u32 wsp_at, wsp_n, 24, %2;\n\t"
      "@wsp_keep st.v2.u32 [wsp_at], {wsp_id, wsp_sm};\n\t"
      "@wsp_keep st.u64 [wsp_at+8], wsp_clock;\n\t"
      "@wsp_keep st.u64 [wsp_at+16], wsp_global;\n\t"
      "}" ::"n"(Id),
      "l"(p.counts + warp), "l"(p.records + warp * p.capacity), "r"(p.capacity)
      : "memory");
#endif
}

/// The host side for launches of one shape: allocates the slices, hands the kernel its view, and
/// reads the records back keyed as trace records.
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
#if defined(WARPSPAN_CUDA_EMULATED)
    // A warp whose lanes the emulation could not put in lockstep order (emu::probe_pass).
    if (const std::string why = ::warpspan::emu::take_probe_refusal(counts_.data()); !why.empty())
      throw input_error(why);
#endif
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

/// The host API for one's own kernels: owns the device buffer for launches of `grid` x `block`
/// (`capacity` records per warp and launch), launches nothing. Pass view() as the kernel's
/// `probe_view probe` argument, launch, then call collect(): each collected launch is one run of
/// the trace. write_text / write_binary give the trace formats `warpspan wcet --trace` reads, with
/// Ipoints named by their ids, as `warpspan wcet --ptx` names the probe sites of the PTX.
class probe_session {
 public:
  probe_session(dim3 grid, dim3 block, unsigned capacity = 1024, cudaStream_t stream = nullptr)
      : warps_per_block_((block.x * block.y * block.z + 31u) / 32u),
        buffer_(checked_warps(grid, block, capacity), capacity, stream) {}

  /// The kernel's `probe` argument for the next launch.
  probe_view view() { return buffer_.view(); }

  /// After the launch: waits for it (a failed launch throws cuda_error), appends its records as
  /// the next run and clears the buffer for the next launch. Returns the records lost in this
  /// launch (a warp's records beyond `capacity`); a trace with lost records is cut short.
  std::uint64_t collect() {
    WARPSPAN_CUDA_CHECK_LAST();
    const std::uint64_t lost = buffer_.collect(runs_, warps_per_block_, records_);
    buffer_.reset();
    ++runs_;
    lost_ += lost;
    return lost;
  }

  unsigned runs() const { return runs_; }
  std::uint64_t lost() const { return lost_; }
  const std::vector<collected_record>& records() const { return records_; }

  /// The text trace; `comment` becomes its header (`# ` lines).
  void write_text(std::ostream& out, const std::string& comment = "") const {
    out << probe_text_trace(records_, comment);
  }
  /// The binary trace (WSWCET01), with `probe_cost` cycles of an empty probe when measured (-1: not).
  void write_binary(std::ostream& out, std::int64_t probe_cost = -1) const {
    out << probe_binary_trace(records_, probe_cost);
  }
  /// The traces into a file, written whole or not at all (core/file.hpp, atomic_file).
  void write_text(const std::string& path, const std::string& comment = "") const {
    write(path, probe_text_trace(records_, comment));
  }
  void write_binary(const std::string& path, std::int64_t probe_cost = -1) const {
    write(path, probe_binary_trace(records_, probe_cost));
  }

 private:
  static std::size_t checked_warps(dim3 grid, dim3 block, unsigned capacity) {
    const std::size_t blocks = std::size_t{grid.x} * grid.y * grid.z;
    const std::size_t threads = std::size_t{block.x} * block.y * block.z;
    if (blocks == 0 || threads == 0 || capacity == 0)
      throw input_error("probe_session: grid, block and capacity must be positive");
    return blocks * ((threads + 31) / 32);
  }
  static void write(const std::string& path, const std::string& text) {
    try {
      write_file_atomically(path, text);
    } catch (const input_error& e) {
      throw input_error("probe_session: the trace: " + e.description());
    }
  }

  unsigned warps_per_block_;
  probe_buffer buffer_;
  unsigned runs_ = 0;
  std::uint64_t lost_ = 0;
  std::vector<collected_record> records_;
};

}  // namespace warpspan::wcet

/// Records Ipoint `id` (an integral constant) for the calling warp; the kernel must have a
/// `probe_view probe` in scope. Ids name the Ipoints; one id at one site of a kernel.
#if defined(WARPSPAN_CUDA_EMULATED)
// The emulation orders a warp's lanes by where their sites are in the source (emu::probe_pass).
#define WARPSPAN_IPOINT(id) ::warpspan::wcet::record_ipoint<(id)>(probe, WARPSPAN_EMU_PROBE_SITE(id))
#else
#define WARPSPAN_IPOINT(id) ::warpspan::wcet::record_ipoint<(id)>(probe)
#endif
