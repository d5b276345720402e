// The deterministic SIMT cost model of `warpspan inputs --fitness model`, run on the CPU.
//
// Recording: the threads of a block run one after another under lane_hooks (through the C hook
// table of warpspan/harness.hpp, the harness's thread function being a C function), each recorded as a
// sequence of *nodes* (program points the hooks mark: the kernel entry, each branch leg, each join,
// and EXIT), every node execution with its operations in order: work(n), global and shared loads
// and stores (address, bytes), atomics (address) and barriers.
//
// Lockstep: the control-flow graph is the union of the node sequences of the block's lanes (edges
// seen), its immediate post-dominators are computed with EXIT as the root, and each warp is run as
// a SIMT machine with a reconvergence stack of (pc, active mask, reconvergence pc) entries: node pc
// executes for the active lanes, whose next nodes are then grouped; one group continues, several
// make the entry wait at ipdom(pc) and push one entry per group (reconverging at ipdom(pc)), and an
// entry is popped when it reaches its reconvergence pc. Both sides of a divergent branch run; a loop
// runs until its last lane leaves it.
//
// Cost of one node execution for its active lanes, operation by operation (the k-th operation of
// every lane in the node is one warp instruction): work = the most instructions any lane has there
// (C issue slots); a global load or store = the distinct 32-byte sectors the lanes touch (L slots;
// 4 for 32 coalesced 4-byte words, 32 for a stride of 32 bytes or more); a shared one = the
// bank-conflict degree (32 banks of 4-byte words, lanes on one word broadcast); an atomic = the most
// lanes on one address (they serialise). A C slot costs copies_C cycles and an L slot copies_L,
// normalised from the SM preset's unit counts and latencies (000 III-E). Barriers cut a warp's
// cycles into segments; a block takes the sum over segments of its slowest warp in each. Blocks go
// round-robin to `sms` SMs; on one SM its blocks share the units, so the SM takes
//   max( max_b cycles_b, ceil(sum_w C_w copies_C / sigma_C), ceil(sum_w L_w copies_L / sigma_L),
//        ceil(sum_w (C_w + L_w) / schedulers) )
// cycles, the lower bounds of the 000 makespan (a block's own time, each unit's throughput, the
// schedulers) rather than its full schedule. A launch takes its slowest SM; a run sums its launches.
// What the model leaves out is listed in docs/inputs.md.
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
  normalized_sm sm;       ///< sigma and copies per unit type, schedulers
  std::string sm_name;    ///< for reports
  std::uint32_t sms = 1;  ///< SMs blocks are spread over
  std::uint32_t warp_size = 32;
};

/// The model of the paper's platform by default: one Kepler SMX (the Tegra K1 has one), from the
/// kepler-3.5 preset. `sm` is a preset name or file as `--sm` elsewhere; sms >= 1.
model_config make_model(const std::string& sm = "kepler-3.5", std::int64_t sms = 1);

/// What one recorded thread did (analysis runs for the atoms).
struct thread_trace {
  std::uint64_t path = 0;          ///< hash of the branch legs taken, in order
  std::uint64_t instructions = 0;  ///< work plus atomics
  std::vector<std::uint8_t> legs;  ///< legs[2 * id + taken] != 0 when covered
  struct compare_operands {
    std::uint32_t id;
    std::int32_t a, b;
  };
  std::vector<compare_operands> compares;
};

/// What a lane does inside a node execution.
enum class op_kind : std::uint8_t { work, global, shared, atomic, barrier };

struct lane_op {
  op_kind kind = op_kind::work;
  std::uint64_t size = 0;  ///< work: instructions (64 bits: a lane's work calls in a row add up); global, shared: bytes
  std::uint64_t address = 0;  ///< global, shared, atomic
};

/// The recorded run of the lanes of one block (or of any lanes simulated together).
struct block_record {
  std::vector<std::uint32_t> node;       ///< node of every node execution, lane after lane
  std::vector<std::uint32_t> ops_begin;  ///< first op of every node execution (+ the end, once finished)
  std::vector<lane_op> ops;
  std::vector<std::uint32_t> lane_begin;  ///< first node execution of every lane (+ the end)
  void clear() {
    node.clear();
    ops_begin.clear();
    ops.clear();
    lane_begin.clear();
  }
  std::size_t lanes() const { return lane_begin.empty() ? 0 : lane_begin.size() - 1; }
};

/// Node ids of a kernel with `branches` branch ids: 0 the entry, 1 + 3 id + leg a branch leg,
/// 1 + 3 id + 2 its join, 1 + 3 branches EXIT.
inline constexpr std::uint32_t exit_node(std::uint32_t branches) { return 1 + 3 * branches; }

/// The recording hooks, one lane at a time (harness.hpp).
class lane_hooks {
 public:
  lane_hooks(block_record& record, std::uint32_t branches) : rec_(record), exit_(exit_node(branches)) {}

  /// Starts a lane: its first node is the kernel entry.
  void begin(thread_trace* trace) {
    trace_ = trace;
    if (trace_) {
      trace_->path = 1469598103934665603ull;
      trace_->instructions = 0;
      trace_->legs.assign((exit_ - 1) / 3 * 2, 0);
      trace_->compares.clear();
    }
    rec_.lane_begin.push_back(static_cast<std::uint32_t>(rec_.node.size()));
    enter(0);
  }
  /// Ends the lane (its EXIT node).
  void end() { enter(exit_); }
  /// After the last lane: closes the record.
  void finish() {
    rec_.ops_begin.push_back(static_cast<std::uint32_t>(rec_.ops.size()));
    rec_.lane_begin.push_back(static_cast<std::uint32_t>(rec_.node.size()));
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
    if (rec_.ops.size() > open_ && rec_.ops.back().kind == op_kind::work)
      rec_.ops.back().size += n;
    else
      rec_.ops.push_back({op_kind::work, n, 0});
    if (trace_) trace_->instructions += n;
  }
  void compare(std::uint32_t id, std::int32_t a, std::int32_t b) {
    if (trace_) trace_->compares.push_back({id, a, b});
  }
  std::int32_t atomic_add(std::int32_t* p, std::int32_t v) {
    rec_.ops.push_back({op_kind::atomic, 4, reinterpret_cast<std::uintptr_t>(p)});
    if (trace_) ++trace_->instructions;
    const std::int32_t old = *p;
    *p = old + v;
    return old;
  }
  void load(const void* p, std::uint32_t bytes, space s = space::global) { access(p, bytes, s); }
  void store(const void* p, std::uint32_t bytes, space s = space::global) { access(p, bytes, s); }
  /// The atomic_add hook's record without the add (the caller checked the address and adds).
  void atomic_record(const void* p) {
    rec_.ops.push_back({op_kind::atomic, 4, reinterpret_cast<std::uintptr_t>(p)});
    if (trace_) ++trace_->instructions;
  }
  void barrier() { rec_.ops.push_back({op_kind::barrier, 0, 0}); }

 private:
  void access(const void* p, std::uint32_t bytes, space s) {
    rec_.ops.push_back({s == space::shared ? op_kind::shared : op_kind::global, bytes == 0 ? 1 : bytes,
                        reinterpret_cast<std::uintptr_t>(p)});
  }
  void enter(std::uint32_t node) {
    rec_.node.push_back(node);
    open_ = rec_.ops.size();
    rec_.ops_begin.push_back(static_cast<std::uint32_t>(open_));
  }
  block_record& rec_;
  std::uint32_t exit_;
  thread_trace* trace_ = nullptr;
  std::size_t open_ = 0;
};

/// What one block costs under the model.
struct block_cost {
  std::uint64_t cycles = 0;   ///< sum over barrier segments of its slowest warp
  std::uint64_t compute = 0;  ///< C issue slots of all its warps
  std::uint64_t memory = 0;   ///< L issue slots of all its warps
};

/// Immediate post-dominators of the graph the record's lanes traced (`nodes` = exit_node + 1 ids;
/// EXIT the root). ipdom[EXIT] = EXIT; a node no lane reached gets `nodes`.
std::vector<std::uint32_t> observed_ipdom(const block_record& record, std::uint32_t nodes);

/// Runs the warps of a finished record in lockstep (the SIMT stack at the top) and costs them.
/// With `warp_strings`, each warp's issue slots as a run-length kernel string of the makespan model
/// (docs/makespan.md): a work op of n instructions is nC, a memory op of s slots (sectors, bank
/// conflicts, atomic rounds) sL, a barrier B; a warp that issues nothing gets "".
block_cost simulate_block(const model_config& cfg, const block_record& record, std::uint32_t nodes,
                          std::vector<std::string>* warp_strings = nullptr);

/// The slowest block of a run as warps of the makespan model: its warps' instruction strings as a
/// --warp-kernels spec (identical strings grouped, in the order of their first warp; warps that
/// issue nothing left out), so that `estimate`/`exact --warp-kernels` take the worst input's block
/// to its worst-case makespan on one SM.
struct block_warp_kernels {
  std::string spec;                                ///< "K1:n1,K2:n2,..." (empty when no warp issues anything)
  std::uint32_t block = 0, stage = 0, launch = 0;  ///< which block of which launch (0-based)
  std::uint32_t warps = 0;                         ///< warps in the spec
  std::uint64_t cycles = 0;                        ///< the model's cycles for that block
};

/// Cycles one SM needs for blocks with these totals (the formula at the top).
std::uint64_t sm_cycles(const model_config& cfg, std::uint64_t max_block, std::uint64_t compute, std::uint64_t memory);

/// The result of running a kernel under the model.
struct model_run {
  std::uint64_t cycles = 0;
  std::uint32_t launches = 0;
  std::vector<std::int32_t> output;  ///< the kernel's output range of its scratch memory
};

/// Most hook calls one thread may make in one launch; more is taken for an endless loop (an
/// input_error naming the thread).
inline constexpr std::uint64_t max_hook_calls = std::uint64_t{1} << 22;
/// Most bytes one load or store hook may name.
inline constexpr std::uint32_t max_access_bytes = 256;

/// Runs kernel `k` on `threads` threads with `genome` under the model: every thread of a block
/// through the harness's thread function with recording hooks (the C table of warpspan/harness.hpp),
/// then the block in lockstep. With `traces` (one per thread, resized here) every thread's path,
/// instructions, covered legs and compare operands are recorded over all the launches of the run
/// (a BFS thread's trace spans every level). An exception the harness throws, or a hook called
/// wrongly (a branch id out of range, an atomic outside scratch and shared memory, ...), is an
/// input_error naming the thread.
/// With `slowest`, the slowest block of the run as warp kernels (the first of equals).
model_run run_model(const kernel_harness& k, const model_config& cfg, const std::vector<std::int32_t>& genome,
                    std::uint32_t threads, std::vector<thread_trace>* traces = nullptr,
                    block_warp_kernels* slowest = nullptr);

/// Model cycles of every genome, on all threads of `pool` (one genome per task); equal to calling
/// run_model one by one.
std::vector<std::uint64_t> model_cycles_batch(const kernel_harness& k, const model_config& cfg,
                                              const std::vector<std::vector<std::int32_t>>& genomes,
                                              std::uint32_t threads, thread_pool& pool);

}  // namespace warpspan::inputs
