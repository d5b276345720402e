// The dense sweep on a CUDA device (issue 26; the CPU form is host/exact/dense_sweep.cpp). The
// table holds one entry per multiset of progress levels, C(I + W, W) of them, indexed by colex rank:
// the way in plus one (0: not reached), a byte while the pessimistic bound fits one. A cycle raises
// the progress sum, so the sweep takes the sums in order and expands every state of one sum at once,
// one thread each: the thread finds its multiset by its index among the multisets of that sum
// (include/warpspan/detail/exact/dense_sum_index.hpp), reads its entry, and raises its successors' entries
// to its own plus one with a compare-and-swap on the 32-bit word that holds them (the successor
// enumeration is frontier.hpp's, as the CPU's). Nothing else lives on the device: Voronoi W = 16
// (C(41, 16) = 1.03e11 multisets) needs 103 GB, which an H200 holds and an H100 does not. The entry
// of a state is read with an atomic too: its word may hold entries of later sums that other threads
// are raising. The witness is backtracked on the host, reading the few entries it tests. Stopped
// early, the sweep bounds the states it holds on the device (dense_held_step).
#include <algorithm>
#include <chrono>
#include <string>
#include <vector>

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/detail/core/step_deadline.hpp"
#include "warpspan/detail/exact/dense_index.hpp"
#include "warpspan/detail/exact/dense_sum_index.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/detail/exact/sweep_host.hpp"
#include "warpspan/makespan/bounds.hpp"

namespace warpspan {
namespace {

constexpr int block_threads = 128;

/// Entries per 32-bit word: 4 bytes, or 2 halves when the bound needs 16 bits.
template <class V>
constexpr std::uint32_t per_word = 4 / sizeof(V);

template <class V>
WARPSPAN_HD_INLINE std::uint32_t lane_of(std::uint32_t word, std::uint64_t rank) {
  const std::uint32_t shift = static_cast<std::uint32_t>(rank % per_word<V>) * 8 * sizeof(V);
  return (word >> shift) & ((1u << (8 * sizeof(V))) - 1);
}

/// Raises the entry of `rank` to `value` (never lowers it).
template <class V>
__device__ void raise_entry(unsigned* words, std::uint64_t rank, std::uint32_t value) {
  unsigned* word = words + rank / per_word<V>;
  const std::uint32_t shift = static_cast<std::uint32_t>(rank % per_word<V>) * 8 * sizeof(V);
  const unsigned mask = ((1u << (8 * sizeof(V))) - 1) << shift;
  unsigned old = atomicAdd(word, 0u);
  while (((old & mask) >> shift) < value) {
    const unsigned seen = atomicCAS(word, old, (old & ~mask) | (value << shift));
    if (seen == old) break;
    old = seen;
  }
}

/// The counters of a step: states reached and taken, and those dropped by the floor.
struct step_counts {
  unsigned long long states = 0;
  unsigned long long pruned = 0;
};

/// Sets up the successors of a reached state `key` with way in plus one `here`: false when it has
/// none to raise, because it is the final state (its way in goes to *reached) or, with a floor
/// (sweep_common_options::at_most), it lies on no schedule longer than the floor (counted in
/// block_counts[1]). The CPU's dense sweep drops the same states.
__device__ bool start_expanding(const frontier_view& v, packed_state key, std::uint32_t here, std::uint32_t floor_value,
                                successor_enum& e, unsigned* reached, unsigned* block_counts) {
  atomicAdd(block_counts, 1u);
  if (!e.start(v, key)) {
    atomicMax(reached, here - 1);
    return false;
  }
  if (floor_value && here - 1 + remaining_bound(v, key) <= floor_value) {
    atomicAdd(block_counts + 1, 1u);
    return false;
  }
  return true;
}

/// Adds a block's counts (block_counts[0..1], in shared memory) to the totals.
__device__ void add_block_counts(const unsigned* block_counts, step_counts* counts) {
  if (threadIdx.x != 0) return;
  if (block_counts[0] != 0) atomicAdd(&counts->states, static_cast<unsigned long long>(block_counts[0]));
  if (block_counts[1] != 0) atomicAdd(&counts->pruned, static_cast<unsigned long long>(block_counts[1]));
}

/// Expands the states of progress sum `sum` (n of them): counts the reached ones (and those the
/// floor drops) into *counts and puts the final state's way in into *reached.
template <class V>
__global__ void __launch_bounds__(block_threads)
    dense_sum_step(frontier_view v, dense_sum_view d, std::uint32_t sum, std::uint64_t n, unsigned* words,
                   std::uint32_t floor_value, unsigned* reached, step_counts* counts) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(block_threads);
  WARPSPAN_DYNAMIC_SHARED(unsigned, block_counts);
  if (threadIdx.x < 2) block_counts[threadIdx.x] = 0;
  __syncthreads();
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    std::uint8_t a[frontier_max_warps];
    dense_sum_unrank(d, sum, i, a);
    const std::uint64_t rank = dense_sum_rank(d, a);
    const std::uint32_t here = lane_of<V>(atomicAdd(words + rank / per_word<V>, 0u), rank);
    successor_enum e;
    if (here != 0 && start_expanding(v, dense_sum_pack(d, a), here, floor_value, e, reached, block_counts)) {
      do raise_entry<V>(words, dense_sum_rank_of(d, e.successor(v)), here + 1);
      while (e.advance(v));
    }
  }
  __syncthreads();
  add_block_counts(block_counts, counts);
}

/// The windowed form: `slots` holds the entries of `slot_count` progress sums (a cycle raises the
/// sum by 1 to slot_count - 1), sum s in slot s % slot_count at its multisets' indices among that
/// sum's (dense_sum_index), `slot_words` words a slot. Expands sum `sum` (n states); a successor
/// outside the window sets *bad (never expected: the host checks it).
template <class V>
__global__ void __launch_bounds__(block_threads)
    dense_window_step(frontier_view v, dense_sum_view d, std::uint32_t sum, std::uint64_t n, unsigned* slots,
                      std::uint64_t slot_words, std::uint32_t slot_count, std::uint32_t floor_value, unsigned* reached,
                      step_counts* counts, unsigned* bad) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(block_threads);
  WARPSPAN_DYNAMIC_SHARED(unsigned, block_counts);
  if (threadIdx.x < 2) block_counts[threadIdx.x] = 0;
  __syncthreads();
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    // Only this sum's slot is read and no thread writes it: every successor lies in a later sum.
    const std::uint32_t here = lane_of<V>(slots[(sum % slot_count) * slot_words + i / per_word<V>], i);
    if (here != 0) {
      std::uint8_t a[frontier_max_warps];
      dense_sum_unrank(d, sum, i, a);
      successor_enum e;
      if (start_expanding(v, dense_sum_pack(d, a), here, floor_value, e, reached, block_counts)) {
        do {
          std::uint32_t to = 0;
          const std::uint64_t j = dense_sum_index_of(d, e.successor(v), to);
          if (to <= sum || to - sum >= slot_count) {
            atomicExch(bad, 1u);
          } else {
            raise_entry<V>(slots + (to % slot_count) * slot_words, j, here + 1);
          }
        } while (e.advance(v));
      }
    }
  }
  __syncthreads();
  add_block_counts(block_counts, counts);
}

/// After a stop: the largest way in plus remaining bound over the reached states of sum `sum` (n of
/// them), raised into *upper. Every schedule still to finish passes through a reached state of a sum
/// not yet expanded, and only the few sums one cycle reaches past the last expanded one hold any
/// (the CPU's dense sweep bounds its held states so too). `words` holds the entries by colex rank
/// (the full table) or, `by_index`, the sum's slot by its multisets' indices among the sum's.
template <class V>
__global__ void __launch_bounds__(block_threads)
    dense_held_step(frontier_view v, dense_sum_view d, std::uint32_t sum, std::uint64_t n, const unsigned* words,
                    bool by_index, unsigned* upper) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(block_threads);
  WARPSPAN_DYNAMIC_SHARED(unsigned, block_upper);
  if (threadIdx.x == 0) block_upper[0] = 0;
  __syncthreads();
  const std::uint64_t i = blockIdx.x * static_cast<std::uint64_t>(blockDim.x) + threadIdx.x;
  if (i < n) {
    std::uint8_t a[frontier_max_warps];
    if (!by_index) dense_sum_unrank(d, sum, i, a);
    const std::uint64_t at = by_index ? i : dense_sum_rank(d, a);
    const std::uint32_t here = lane_of<V>(words[at / per_word<V>], at);
    if (here != 0) {
      if (by_index) dense_sum_unrank(d, sum, i, a);
      atomicMax(block_upper, here - 1 + remaining_bound(v, dense_sum_pack(d, a)));
    }
  }
  __syncthreads();
  if (threadIdx.x == 0 && block_upper[0] != 0) atomicMax(upper, block_upper[0]);
}

/// The blocks of one thread per state for a sum of n states.
unsigned sum_blocks(std::uint64_t n) {
  const std::uint64_t blocks = (n + block_threads - 1) / block_threads;
  if (blocks > 0x7FFFFFFFull)
    throw std::runtime_error("dense sweep on the device: too many states in one progress sum");
  return static_cast<unsigned>(blocks);
}

/// The sums in order: `launch(sum, n, blocks)` expands each sum's n states (one thread each), then
/// the device is synchronised, progress told, and the time limit and interrupts checked. Returns why
/// it stopped early ("" when every sum was expanded) and fills r.states and r.pruned. Stopped, r is
/// the interval from r.lower to the largest way in plus bound over the held states (at least
/// `floor`, the states dropped by it lie on no longer schedule; at most the pessimistic bound),
/// which `held(sum, n, blocks, upper)` raises *upper to, sum by sum, for the sums one cycle reaches
/// past the last expanded. A time limit covers that scan: the sweep stops when one more sum and a
/// scan as long would pass it, and the scan gives up (leaving the pessimistic bound) past 1.1 times it.
template <class Launch, class Held>
std::string sweep_sums(const problem& prob, const frontier_view& v, const dense_sum_tables& tables,
                       const dense_options& options, std::uint32_t floor, std::chrono::steady_clock::time_point start,
                       const device_buffer<step_counts>& counts, exact_result& r, const Launch& launch,
                       const Held& held) {
  using clock_type = std::chrono::steady_clock;
  const dense_sum_view host_d = tables.view();
  std::string stop;
  std::uint32_t sum = 0;
  double last_elapsed = 0;
  step_stop stopping(options.time_limit_s, 0);  // the table holds every state: no state limit
  for (; sum < tables.sums; ++sum) {
    const std::uint64_t n = dense_sum_count(host_d, tables.warps, tables.instructions, sum);
    if (n > 0) {
      launch(sum, n, sum_blocks(n));
      WARPSPAN_CUDA_TRY(cudaDeviceSynchronize());
    }
    const double elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
    if (options.progress) options.progress({sum + 1, tables.sums, counts.to_host()[0].states, elapsed});
    if (sum + 1 == tables.sums) break;
    // The bound over the held sums after a stop costs about one more sum's launch.
    stop = stopping.after_step(elapsed, 0, elapsed - last_elapsed);
    last_elapsed = elapsed;
    if (!stop.empty()) break;
  }
  const step_counts total = counts.to_host()[0];
  r.states = total.states;
  r.pruned = total.pruned;
  if (!stop.empty()) {
    r.complete = false;
    r.stop_reason = stop;
    r.interrupted = interrupted();
    std::uint32_t bound = static_cast<std::uint32_t>(pessimistic_bound(prob));
    device_buffer<unsigned> upper(std::vector<unsigned>{0}, nullptr);
    const auto deadline = start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(
                                      step_deadline::finish_cutoff * options.time_limit_s));
    bool gave_up = false;
    const std::uint32_t last = std::min(tables.sums - 1, sum + exact_detail::most_issues(v));
    for (std::uint32_t s = sum + 1; s <= last && !gave_up; ++s) {
      gave_up = options.time_limit_s > 0 && clock_type::now() > deadline;
      const std::uint64_t n = dense_sum_count(host_d, tables.warps, tables.instructions, s);
      if (n > 0 && !gave_up) {
        held(s, n, sum_blocks(n), upper.data());
        WARPSPAN_CUDA_TRY(cudaDeviceSynchronize());
      }
    }
    if (!gave_up) bound = std::min(bound, upper.to_host()[0]);
    r.upper = std::max({r.lower, floor, bound});
  }
  return stop;
}

/// The words of one slot of the windowed sweep and the slots (the largest sum's entries; one slot
/// per sum a cycle can reach, and the sum being expanded).
template <class V>
std::pair<std::uint64_t, std::uint32_t> window_shape(const dense_sum_tables& tables, const frontier_view& v) {
  std::uint64_t most = 0;
  for (std::uint32_t s = 0; s < tables.sums; ++s)
    most = std::max(most, dense_sum_count(tables.view(), v.warps, v.instructions, s));
  return {(most + per_word<V> - 1) / per_word<V>, exact_detail::most_issues(v) + 1};
}

/// The window of sums on the device and how to expand one sum into it: what the windowed sweep and
/// its replays (window_witness) share.
template <class V>
struct dense_window {
  const frontier_view& v;
  const dense_sum_tables& tables;
  dense_sum_view d;                ///< the tables on the device
  device_buffer<unsigned>& slots;  ///< slot_count slots of slot_words words
  std::uint64_t slot_words;
  std::uint32_t slot_count;
  std::uint32_t floor;

  /// The words that hold sum s's entries (the front of its slot).
  std::uint64_t words_of(std::uint32_t s) const {
    return (dense_sum_count(tables.view(), v.warps, v.instructions, s) + per_word<V> - 1) / per_word<V>;
  }
  unsigned* slot(std::uint32_t s) const { return slots.data() + (s % slot_count) * slot_words; }
  /// Copies sum s's entries to the host, or back into its slot.
  void save(std::uint32_t s, std::vector<unsigned>& to) const {
    to.resize(words_of(s));
    slots.copy_to_host(to.data(), to.size(), (s % slot_count) * slot_words);
  }
  void restore(std::uint32_t s, const std::vector<unsigned>& from) const {
    slots.copy_from_host(from.data(), from.size(), (s % slot_count) * slot_words);
  }

  /// Every slot empty but the initial state's (sum 0, index 0), reached with way in 0.
  void reset() const {
    WARPSPAN_CUDA_TRY(cudaMemset(slots.data(), 0, slots.size() * sizeof(unsigned)));
    const unsigned one = 1;
    WARPSPAN_CUDA_TRY(cudaMemcpy(slots.data(), &one, sizeof(one), cudaMemcpyHostToDevice));
  }

  /// Expands sum `sum` into the later sums' slots, then clears its slot for the sum slot_count on;
  /// `keep`, when given, first receives the sum's entries (final once every earlier sum is expanded).
  void expand(std::uint32_t sum, unsigned* reached, step_counts* counts, unsigned* bad,
              std::vector<unsigned>* keep = nullptr) const {
    const std::uint64_t n = dense_sum_count(tables.view(), v.warps, v.instructions, sum);
    if (n == 0) return;
    WARPSPAN_LAUNCH(dense_window_step<V>, sum_blocks(n), block_threads, 2 * sizeof(unsigned), nullptr)
    (v, d, sum, n, slots.data(), slot_words, slot_count, floor, reached, counts, bad);
    WARPSPAN_CUDA_CHECK_LAST();
    if (keep) save(sum, *keep);
    WARPSPAN_CUDA_TRY(cudaMemset(slot(sum), 0, words_of(sum) * sizeof(unsigned)));
  }
};

/// Thrown inside the replay when the time limit or an interrupt ends it.
struct replay_stopped {};

/// A schedule of `length` cycles (the answer of a finished windowed sweep, beyond the string in
/// hand) traced back by replaying the sweep as exact_detail::plan_window_replay says. Empty, with
/// `why`, when the host has not the memory or the time limit or an interrupt cuts it short. The
/// replays raise the same entries as the sweep did (a maximum does not depend on the order).
template <class V>
std::vector<std::uint16_t> window_witness(const dense_window<V>& w, std::uint32_t length, const dense_options& options,
                                          std::chrono::steady_clock::time_point start, std::uint64_t states,
                                          std::string& why) {
  using clock_type = std::chrono::steady_clock;
  const std::uint32_t sums = w.tables.sums;
  std::vector<std::uint64_t> sum_bytes(sums);
  for (std::uint32_t s = 0; s < sums; ++s) sum_bytes[s] = w.words_of(s) * sizeof(unsigned);
  const exact_detail::window_replay_plan plan =
      exact_detail::plan_window_replay(sum_bytes, w.slot_count, memory_budget_bytes(~std::uint64_t{0}));
  if (plan.span == 0) {
    why = "tracing it back would take " + std::to_string((plan.bytes >> 20) + 1) +
          " MiB of host memory, more than is free";
    return {};
  }
  const std::uint32_t span = options.window_replay_span ? std::min(options.window_replay_span, sums) : plan.span;
  const std::uint32_t segments = (sums + span - 1) / span;
  device_buffer<unsigned> reached(std::vector<unsigned>{0}, nullptr), bad(std::vector<unsigned>{0}, nullptr);
  device_buffer<step_counts> counts(std::vector<step_counts>(1), nullptr);
  // Progress over both replays: the sums to the last checkpoint, then every sum once more.
  const std::uint32_t work = (segments - 1) * span + sums;
  std::uint32_t done = 0;
  const auto step = [&](std::uint32_t sum, std::vector<unsigned>* keep) {
    w.expand(sum, reached.data(), counts.data(), bad.data(), keep);
    WARPSPAN_CUDA_TRY(cudaDeviceSynchronize());
    const double elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
    if (options.progress) options.progress({++done, work, states, elapsed});
    if ((options.time_limit_s > 0 && elapsed > options.time_limit_s) || interrupted()) throw replay_stopped{};
  };
  try {
    // The first replay: the window at each segment's first sum (its slot_count sums' words).
    std::vector<std::vector<std::vector<unsigned>>> checkpoint(segments);
    w.reset();
    for (std::uint32_t sum = 0;; ++sum) {
      if (sum % span == 0) {
        auto& c = checkpoint[sum / span];
        for (std::uint32_t s = sum; s < std::min(sums, sum + w.slot_count); ++s) w.save(s, c.emplace_back());
        if (sum / span + 1 == segments) break;
      }
      step(sum, nullptr);
    }
    // Then segment by segment from the last, as the backtracking asks for their sums.
    std::vector<std::vector<unsigned>> kept(sums);
    std::vector<char> held(sums, 0);
    const dense_sum_view host_d = w.tables.view();
    const auto load = [&](std::uint32_t seg) {
      const std::uint32_t first = seg * span, end = std::min(sums, first + span);
      // The walk is below first + span + slot_count once it reaches back into this segment.
      for (std::uint32_t s = std::min(sums, first + span + w.slot_count); s < sums && held[s]; ++s) {
        held[s] = 0;
        std::vector<unsigned>().swap(kept[s]);
      }
      WARPSPAN_CUDA_TRY(cudaMemset(w.slots.data(), 0, w.slots.size() * sizeof(unsigned)));
      auto& c = checkpoint[seg];
      for (std::uint32_t j = 0; j < c.size(); ++j) w.restore(first + j, c[j]);
      std::vector<std::vector<unsigned>>().swap(c);
      for (std::uint32_t s = first; s < end; ++s) {
        step(s, &kept[s]);
        held[s] = 1;
      }
    };
    auto string = exact_detail::dense_witness(w.v, length, [&](packed_state key) {
      std::uint32_t sum = 0;
      const std::uint64_t j = dense_sum_index_of(host_d, key, sum);
      if (!held[sum]) load(sum / span);
      return lane_of<V>(kept[sum][j / per_word<V>], j);
    });
    if (bad.to_host()[0] != 0) throw std::logic_error("windowed dense sweep: a successor outside the window of sums");
    return string;
  } catch (const replay_stopped&) {
    why = interrupted() ? "tracing it back was interrupted" : "the time limit ended tracing it back";
    return {};
  }
}

template <class V>
exact_result run_dense_window_cuda(const problem& prob, const frontier_view& v, const dense_options& options) {
  using clock_type = std::chrono::steady_clock;
  const auto start = clock_type::now();
  exact_result r;
  exact_detail::start_interval(prob, options, r);
  const std::uint32_t floor = exact_detail::at_most_floor(prob, options, r.lower);
  const dense_sum_tables tables = build_dense_sum_tables(v.warps, v.instructions);
  const auto shape = window_shape<V>(tables, v);
  device_buffer<std::uint64_t> binom(tables.binom, nullptr), count(tables.count, nullptr);
  device_buffer<unsigned> slots(shape.first * shape.second, nullptr);
  const dense_window<V> w{
      v,     tables,      {binom.data(), count.data(), tables.warps, tables.instructions, tables.sums},
      slots, shape.first, shape.second,
      floor};
  w.reset();
  device_buffer<unsigned> reached(std::vector<unsigned>{0}, nullptr), bad(std::vector<unsigned>{0}, nullptr);
  device_buffer<step_counts> counts(std::vector<step_counts>(1), nullptr);
  auto launch = [&](std::uint32_t sum, std::uint64_t, unsigned) {
    w.expand(sum, reached.data(), counts.data(), bad.data());
  };
  auto held = [&](std::uint32_t sum, std::uint64_t n, unsigned blocks, unsigned* upper) {
    WARPSPAN_LAUNCH(dense_held_step<V>, blocks, block_threads, sizeof(unsigned), nullptr)
    (v, w.d, sum, n, w.slot(sum), true, upper);
    WARPSPAN_CUDA_CHECK_LAST();
  };
  const std::string stop = sweep_sums(prob, v, tables, options, floor, start, counts, r, launch, held);
  if (bad.to_host()[0] != 0) throw std::logic_error("windowed dense sweep: a successor outside the window of sums");
  if (stop.empty()) {
    // The sums behind the window are gone: a schedule longer than the string in hand is traced back
    // by replaying the sweep (window_witness); without one, proven is the interval from that string
    // (the caller's warm start) to the answer.
    const std::uint32_t length = reached.to_host()[0];
    std::string why;
    if (length > r.lower) {
      auto string = window_witness<V>(w, length, options, start, r.states, why);
      if (!string.empty()) {
        r.lower = length;
        r.best_string = std::move(string);
      }
    }
    exact_detail::settle_finished(r, floor, length);
    if (!why.empty()) r.stop_reason += " (" + why + ")";
    r.interrupted = !r.complete && interrupted();
  }
  r.elapsed_s = std::chrono::duration<double>(clock_type::now() - start).count();
  return r;
}

template <class V>
exact_result run_dense_cuda(const problem& prob, const frontier_view& v, const dense_options& options) {
  using clock_type = std::chrono::steady_clock;
  const auto start = clock_type::now();
  exact_result r;
  exact_detail::start_interval(prob, options, r);
  const std::uint32_t floor = exact_detail::at_most_floor(prob, options, r.lower);
  const dense_index index(v.warps, v.instructions);
  const dense_sum_tables tables = build_dense_sum_tables(v.warps, v.instructions);
  const std::uint64_t words_n = (index.size() + per_word<V> - 1) / per_word<V>;
  device_buffer<std::uint64_t> binom(tables.binom, nullptr), count(tables.count, nullptr);
  device_buffer<unsigned> words(words_n, nullptr);
  WARPSPAN_CUDA_TRY(cudaMemset(words.data(), 0, words_n * sizeof(unsigned)));
  const unsigned one = 1;  // the initial state (rank 0) is reached with way in 0
  WARPSPAN_CUDA_TRY(cudaMemcpy(words.data(), &one, sizeof(one), cudaMemcpyHostToDevice));
  device_buffer<unsigned> reached(std::vector<unsigned>{0}, nullptr);
  device_buffer<step_counts> counts(std::vector<step_counts>(1), nullptr);
  const dense_sum_view d{binom.data(), count.data(), tables.warps, tables.instructions, tables.sums};
  auto launch = [&](std::uint32_t sum, std::uint64_t n, unsigned blocks) {
    WARPSPAN_LAUNCH(dense_sum_step<V>, blocks, block_threads, 2 * sizeof(unsigned), nullptr)
    (v, d, sum, n, words.data(), floor, reached.data(), counts.data());
    WARPSPAN_CUDA_CHECK_LAST();
  };
  auto held = [&](std::uint32_t sum, std::uint64_t n, unsigned blocks, unsigned* upper) {
    WARPSPAN_LAUNCH(dense_held_step<V>, blocks, block_threads, sizeof(unsigned), nullptr)
    (v, d, sum, n, words.data(), false, upper);
    WARPSPAN_CUDA_CHECK_LAST();
  };
  const std::string stop = sweep_sums(prob, v, tables, options, floor, start, counts, r, launch, held);
  if (stop.empty()) {
    const std::uint32_t length = reached.to_host()[0];
    if (length > r.lower) {
      r.lower = length;
      // A few entries at a time from the device: one word per entry the backtracking tests.
      r.best_string = exact_detail::dense_witness(v, index, length, [&](std::uint64_t rank) {
        unsigned w = 0;
        words.copy_to_host(&w, 1, rank / per_word<V>);
        return lane_of<V>(w, rank);
      });
    }
    exact_detail::settle_finished(r, floor, length);
  }
  r.elapsed_s = std::chrono::duration<double>(clock_type::now() - start).count();
  return r;
}

}  // namespace

std::uint64_t dense_sweep_device_bytes(const problem& prob) {
  const std::uint64_t table = dense_sweep_bytes(prob);
  return table == ~std::uint64_t{0} ? table : (table + 3) / 4 * 4 + (std::uint64_t{1} << 24);
}

bool dense_sweep_fits_device(const problem& prob, const exact_options& options) {
  const bool packs = frontier_packs_narrow(prob);  // the device takes 8-bit levels only
  if (!packs || options.max_states != 0) return false;
  return dense_sweep_device_bytes(prob) <= usable_device_bytes(free_device_bytes());
}

std::uint64_t dense_window_device_bytes(const problem& prob) {
  const bool packs = frontier_packs_narrow(prob);  // the device takes 8-bit levels only
  if (!packs || pessimistic_bound(prob) + 1 > 0xFFFF) return ~std::uint64_t{0};
  const frontier_view v = make_frontier_view(prob.view());
  const dense_sum_tables tables = build_dense_sum_tables(v.warps, v.instructions);
  const auto [words, slots] = pessimistic_bound(prob) + 1 <= 0xFF ? window_shape<std::uint8_t>(tables, v)
                                                                  : window_shape<std::uint16_t>(tables, v);
  return words * slots * sizeof(unsigned) + (tables.binom.size() + tables.count.size()) * sizeof(std::uint64_t) +
         (std::uint64_t{1} << 24);
}

bool dense_window_fits_device(const problem& prob, const exact_options& options) {
  if (options.max_states != 0) return false;
  return dense_window_device_bytes(prob) <= usable_device_bytes(free_device_bytes());
}

namespace {

exact_result dense_cuda(const problem& prob, const dense_options& options, bool window) {
  const frontier_view v = exact_detail::checked_view(prob);
  if (pessimistic_bound(prob) + 1 > 0xFFFF)
    throw input_error("the dense sweep stores ways in of at most 65,534 cycles; this problem's bound is " +
                      std::to_string(pessimistic_bound(prob)));
  if (pessimistic_bound(prob) + 1 <= 0xFF)
    return window ? run_dense_window_cuda<std::uint8_t>(prob, v, options)
                  : run_dense_cuda<std::uint8_t>(prob, v, options);
  return window ? run_dense_window_cuda<std::uint16_t>(prob, v, options)
                : run_dense_cuda<std::uint16_t>(prob, v, options);
}

}  // namespace

exact_result exact_dense_cuda(const problem& prob, const dense_options& options) {
  return dense_cuda(prob, options, false);
}

exact_result exact_dense_window_cuda(const problem& prob, const dense_options& options) {
  return dense_cuda(prob, options, true);
}

}  // namespace warpspan
