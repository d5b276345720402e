// The deterministic SIMT cost model of `warpspan inputs --fitness model`, run on the CPU.
//
// Per warp, every block that any active thread executes costs its work once per execution: a
// block execution is (block, k), the k-th time a thread entered that block (a branch leg or the
// code after a join), so divergent legs are both paid for and a loop costs its longest thread's
// trip count. Within one block execution the i-th atomics of the lanes serialise per address (the
// warp pays the largest number of lanes on one address). Work is issued on the CUDA cores (C),
// atomics on the load/store units (L) of warpspan's SM model (000 III-E, normalised sigma and
// copies). Blocks go round-robin to `sms` SMs; on one SM its warps share the units, so the SM takes
//   max( max_w cycles_w, ceil(sum_w C_w copies_C / sigma_C), ceil(sum_w L_w copies_L / sigma_L),
//        ceil(sum_w (C_w + L_w) / schedulers) )
// cycles, the lower bounds of the 000 makespan (a warp's own issue, each unit's throughput, the
// schedulers) rather than its full schedule, which would cost too much per evaluation. A launch
// takes its slowest SM; a run is the sum of its launches.
//
// Caveat (documented in docs/inputs.md): keying block executions by per-thread occurrence counts treats
// threads that take a leg in different loop iterations as if they took it together.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "warpspan/core/resources.hpp"
#include "warpspan/inputs/harness.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan::inputs {

struct model_config {
  normalized_sm sm;            ///< sigma and copies per unit type, schedulers
  std::string sm_name;         ///< for reports
  std::uint32_t sms = 1;       ///< SMs blocks are spread over
  std::uint32_t warp_size = 32;
};

/// The model of the paper's platform by default: one Kepler SMX (the Tegra K1 has one), from the
/// kepler-3.5 preset. `sm` is a preset name or file as `--sm` elsewhere; sms >= 1.
model_config make_model(const std::string& sm = "kepler-3.5", std::int64_t sms = 1);

/// What one recorded thread did (analysis runs for the atoms).
struct thread_trace {
  std::uint64_t path = 0;               ///< hash of the branch legs taken, in order
  std::uint64_t instructions = 0;       ///< work plus atomics
  std::vector<std::uint8_t> legs;       ///< legs[2 * id + taken] != 0 when covered
  struct compare_operands {
    std::uint32_t id;
    std::int32_t a, b;
  };
  std::vector<compare_operands> compares;
};

/// One event of a lane: a block execution entered (value = its work) or an atomic (value = address).
struct model_event {
  std::uint64_t exec = 0;  ///< block key << 32 | occurrence
  std::uint32_t kind = 0;  ///< 0 block, 1 atomic
  std::uint32_t seq = 0;   ///< atomics: index within the block execution
  std::uint64_t value = 0;
  bool operator<(const model_event& o) const {
    if (exec != o.exec) return exec < o.exec;
    if (kind != o.kind) return kind < o.kind;
    if (seq != o.seq) return seq < o.seq;
    return value < o.value;
  }
};

/// The recording hooks for one lane at a time (harness.hpp).
class lane_hooks {
 public:
  lane_hooks(std::vector<model_event>& events, std::vector<std::uint32_t>& occurrences)
      : events_(events), occ_(occurrences) {}

  /// Starts a lane: its first block is the kernel entry.
  void begin(thread_trace* trace) {
    std::fill(occ_.begin(), occ_.end(), 0u);
    trace_ = trace;
    if (trace_) {
      trace_->path = 1469598103934665603ull;
      trace_->instructions = 0;
      trace_->legs.assign((occ_.size() - 1) / 3 * 2, 0);
      trace_->compares.clear();
    }
    enter(0);
  }
  bool branch(std::uint32_t id, bool taken) {
    enter(1 + 3 * id + (taken ? 1 : 0));
    if (trace_) {
      trace_->legs[2 * id + (taken ? 1 : 0)] = 1;
      trace_->path = (trace_->path ^ (2 * id + (taken ? 1 : 0) + 1)) * 1099511628211ull;
    }
    return taken;
  }
  void join(std::uint32_t id) { enter(1 + 3 * id + 2); }
  void work(std::uint32_t n) {
    events_[current_].value += n;
    if (trace_) trace_->instructions += n;
  }
  void compare(std::uint32_t id, std::int32_t a, std::int32_t b) {
    if (trace_) trace_->compares.push_back({id, a, b});
  }
  std::int32_t atomic_add(std::int32_t* p, std::int32_t v) {
    events_.push_back({exec_, 1, atomics_++, reinterpret_cast<std::uintptr_t>(p)});
    if (trace_) ++trace_->instructions;
    const std::int32_t old = *p;
    *p = old + v;
    return old;
  }

 private:
  void enter(std::uint32_t key) {
    exec_ = (static_cast<std::uint64_t>(key) << 32) | occ_[key]++;
    atomics_ = 0;
    current_ = events_.size();
    events_.push_back({exec_, 0, 0, 0});
  }
  std::vector<model_event>& events_;
  std::vector<std::uint32_t>& occ_;
  thread_trace* trace_ = nullptr;
  std::uint64_t exec_ = 0;
  std::uint32_t atomics_ = 0;
  std::size_t current_ = 0;
};

/// Issue counts of one warp: C (work) and L (serialised atomic rounds).
struct warp_cost {
  std::uint64_t compute = 0;
  std::uint64_t memory = 0;
};

/// Merges the events of a warp's lanes into its cost.
warp_cost merge_warp(std::vector<model_event>& events);

/// Cycles one SM needs for warps with these totals (the formula at the top).
std::uint64_t sm_cycles(const model_config& cfg, std::uint64_t max_warp, std::uint64_t compute,
                        std::uint64_t memory);

/// The result of running a kernel under the model.
struct model_run {
  std::uint64_t cycles = 0;
  std::uint32_t launches = 0;
  std::vector<std::int32_t> output;  ///< the kernel's output range of its scratch memory
};

/// Runs kernel K on `threads` threads with `genome` under the model. With `traces` (one per thread,
/// resized here) every thread's path, instructions, covered legs and compare operands are recorded
/// over all the launches of the run (a BFS thread's trace spans every level).
template <class K>
model_run run_model(const model_config& cfg, const std::int32_t* genome, std::uint32_t threads,
                    std::vector<thread_trace>* traces = nullptr) {
  std::vector<std::int32_t> scratch(K::scratch_size(threads));
  K::init_scratch(genome, scratch.data(), threads);
  std::vector<model_event> events;
  std::vector<std::uint32_t> occ(1 + 3 * K::branches);
  lane_hooks hooks(events, occ);
  thread_trace scratch_trace;
  if (traces) traces->assign(threads, thread_trace{});
  const std::uint32_t blocks = blocks_of<K>(threads);
  const std::uint32_t warps_per_block = (K::block + cfg.warp_size - 1) / cfg.warp_size;
  struct sm_totals {
    std::uint64_t max_warp = 0, compute = 0, memory = 0;
  };
  // Only the SMs that receive a block: block b goes to SM b mod sms, so with fewer blocks than SMs
  // the others stay idle and cost nothing (--sms 100000 runs as fast as --sms = blocks).
  std::vector<sm_totals> sms(std::min(cfg.sms, std::max<std::uint32_t>(blocks, 1)));
  model_run run;
  for (std::uint32_t round = 0;; ++round) {
    if (K::iterative) scratch[K::flag_index(threads)] = 0;
    for (std::uint32_t stage = 0; stage < K::stages; ++stage) {
      std::fill(sms.begin(), sms.end(), sm_totals{});
      for (std::uint32_t b = 0; b < blocks; ++b) {
        auto& sm = sms[b % cfg.sms];
        for (std::uint32_t w = 0; w < warps_per_block; ++w) {
          events.clear();
          const std::uint64_t first = std::uint64_t{b} * K::block + std::uint64_t{w} * cfg.warp_size;
          const std::uint64_t block_end = std::uint64_t{b + 1} * K::block;
          const std::uint64_t last = std::min<std::uint64_t>({first + cfg.warp_size, block_end, threads});
          if (first >= last) break;
          for (std::uint64_t tid = first; tid < last; ++tid) {
            thread_trace* t = traces ? &scratch_trace : nullptr;
            hooks.begin(t);
            K::thread(hooks, genome, scratch.data(), threads, static_cast<std::uint32_t>(tid), b, static_cast<int>(stage));
            if (traces) {
              auto& into = (*traces)[tid];
              if (into.legs.empty()) {
                into = scratch_trace;
              } else {
                into.path = (into.path ^ scratch_trace.path) * 1099511628211ull;
                into.instructions += scratch_trace.instructions;
                for (std::size_t i = 0; i < into.legs.size(); ++i) into.legs[i] |= scratch_trace.legs[i];
                into.compares.insert(into.compares.end(), scratch_trace.compares.begin(), scratch_trace.compares.end());
              }
            }
          }
          const warp_cost c = merge_warp(events);
          const std::uint64_t cycles = c.compute * static_cast<std::uint64_t>(cfg.sm.copies[1]) +
                                       c.memory * static_cast<std::uint64_t>(cfg.sm.copies[0]);
          sm.max_warp = std::max(sm.max_warp, cycles);
          sm.compute += c.compute;
          sm.memory += c.memory;
        }
      }
      std::uint64_t launch = 0;
      for (const auto& sm : sms) launch = std::max(launch, sm_cycles(cfg, sm.max_warp, sm.compute, sm.memory));
      run.cycles += launch;
      ++run.launches;
    }
    if (!K::iterative || scratch[K::flag_index(threads)] == 0 || round >= threads) break;
  }
  const output_range out = K::output(threads);
  run.output.assign(scratch.begin() + static_cast<std::ptrdiff_t>(out.offset),
                    scratch.begin() + static_cast<std::ptrdiff_t>(out.offset + out.size));
  return run;
}

/// run_model for a shipped kernel.
model_run run_model(kernel_id id, const model_config& cfg, const std::vector<std::int32_t>& genome,
                    std::uint32_t threads, std::vector<thread_trace>* traces = nullptr);

/// Model cycles of every genome, on all threads of `pool` (one genome per task); equal to calling
/// run_model one by one.
std::vector<std::uint64_t> model_cycles_batch(kernel_id id, const model_config& cfg,
                                              const std::vector<std::vector<std::int32_t>>& genomes,
                                              std::uint32_t threads, thread_pool& pool);

}  // namespace warpspan::inputs
