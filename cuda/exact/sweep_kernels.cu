// The progress sweep on a CUDA device (issue 4; the CPU form is host/exact/sweep.cpp). The states
// of one progress sum arrive as a buffer of (state, way in) pairs that may repeat; they are sorted
// by state and reduced by key with max, which leaves each state once with its longest way in. One
// thread per state then counts its successors per issue count j (the step of the sum), after the
// remaining-work bound has pruned what cannot beat the lower bound; an exclusive scan over the
// counts laid out j-major gives every (j, state) its place, so a second pass writes the successors
// of each j into one contiguous segment, which is appended to the buffer of sum + j. The successor
// enumeration and the bound are the host/device code of include/warpspan/exact/frontier.hpp.
//
// Memory: the per-level arrays (counts, offsets, flags, successors, the witness's copy) are kept
// for the whole sweep and only grow, and Thrust's temporaries come from a device_pool, so a level
// allocates nothing that an earlier level of the same size already had. Every vector's storage
// comes from cudaMalloc (common/device_vector.cuh), and every growth, sort and compaction is
// accounted against the free memory before it is made: a device too small stops the sweep with
// its proven interval, never with a failed allocation. Keys are sorted with
// thrust::less on the 128-bit packed state, which Thrust sends to CUB's radix sort (see
// exact/key_order.cuh); only the expanded states that the witness needs are copied back.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <chrono>
#include <memory>

#include "common/cuda_check.cuh"
#include "common/device.cuh"
#include "common/device_pool.cuh"
#include "common/device_vector.cuh"
#include "exact/key_order.cuh"
#include "common/launch.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/detail/core/step_deadline.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/detail/exact/sweep_host.hpp"

namespace warpspan {
namespace {

constexpr int block_threads = 128;
constexpr std::uint32_t max_reach = frontier_max_warps;  // one cycle issues at most W <= 16 warps
/// A pending buffer is reduced in place (sorted, one entry per state) beyond this many entries,
/// unless sweep_options::device_compact_entries says otherwise.
constexpr std::size_t default_compact_entries = std::size_t{1} << 26;

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + block_threads - 1) / block_threads); }

/// Room for the scratch of a scan, count or selection over `n` entries (CUB's tile states, far
/// less than a byte per entry; none on Thrust's CPP system).
std::size_t scan_scratch_bytes(std::size_t n) { return (std::size_t{64} << 10) + n; }

struct state_equal {
  __host__ __device__ bool operator()(packed_state a, packed_state b) const { return a == b; }
};
struct way_max {
  __host__ __device__ std::uint32_t operator()(std::uint32_t a, std::uint32_t b) const { return a < b ? b : a; }
};
struct is_set {
  __host__ __device__ bool operator()(std::uint8_t f) const { return f != 0; }
};

WARPSPAN_HD_INLINE std::uint32_t issues_of(const frontier_view& v, const successor_enum& e) {
  std::uint32_t issues = 0;
  for (std::uint32_t t = 0; t < v.ntypes; ++t) issues += e.quota[t];
  return issues;
}

/// counts[(j - 1) * n + i]: successors of state i that issue j warps; expanded[i]: 1 unless the
/// state is final or pruned; the final state's way in goes to *reached.
__global__ void __launch_bounds__(block_threads)
    sweep_count(frontier_view v, const packed_state* keys, const std::uint32_t* way_in, std::size_t n,
                std::uint32_t reach, std::uint32_t floor_value, int prune, std::uint64_t* counts,
                std::uint8_t* expanded, unsigned* reached) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(block_threads);
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  std::uint64_t c[max_reach] = {};
  expanded[i] = 0;
  successor_enum e;
  if (!e.start(v, keys[i])) {
    atomicMax(reached, way_in[i]);
  } else if (!prune || way_in[i] + remaining_bound(v, keys[i]) > floor_value) {
    expanded[i] = 1;
    do ++c[issues_of(v, e) - 1];
    while (e.advance(v));
  }
  for (std::uint32_t j = 0; j < reach; ++j) counts[j * n + i] = c[j];
}

__global__ void __launch_bounds__(block_threads)
    sweep_write(frontier_view v, const packed_state* keys, const std::uint32_t* way_in, std::size_t n,
                std::uint32_t reach, const std::uint8_t* expanded, const std::uint64_t* offsets, packed_state* out_keys,
                std::uint32_t* out_way) {
  WARPSPAN_CHECK_LAUNCH_BOUNDS(block_threads);
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n || !expanded[i]) return;
  std::uint64_t at[max_reach];
  for (std::uint32_t j = 0; j < reach; ++j) at[j] = offsets[j * n + i];
  successor_enum e;
  e.start(v, keys[i]);
  const std::uint32_t next_way = way_in[i] + 1;
  do {
    const std::uint32_t j = issues_of(v, e) - 1;
    out_keys[at[j]] = e.successor(v);
    out_way[at[j]] = next_way;
    ++at[j];
  } while (e.advance(v));
}

/// One bulk copy to the host (not element by element).
template <class T>
std::vector<T> to_host(const device_vector<T>& d) {
  std::vector<T> h(d.size());
  if (!h.empty())
    WARPSPAN_CUDA_TRY(
        cudaMemcpy(h.data(), thrust::raw_pointer_cast(d.data()), h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

/// Bytes that making `v` hold `n` elements adds to what it holds now.
template <class V>
std::size_t growth_bytes(const V& v, std::size_t n) {
  return n > v.capacity() ? (n - v.capacity()) * sizeof(typename V::value_type) : 0;
}

/// Makes `v` hold `n` elements (their values are about to be overwritten), keeping its storage
/// when it is large enough and otherwise freeing it before allocating the larger one.
template <class V>
void ensure_size(V& v, std::size_t n) {
  if (n > v.capacity()) {
    v.clear();
    v.shrink_to_fit();
    v.reserve(n);
  }
  v.resize(n);
}

/// (state, way in) pairs, possibly repeated.
struct pending_buffer {
  device_vector<packed_state> keys;
  device_vector<std::uint32_t> way;
};

class cuda_sweep final : public exact_detail::sweep_pass {
 public:
  cuda_sweep(const frontier_view& v, const sweep_options& o, std::uint32_t floor_value, std::uint64_t keep_limit)
      : exact_detail::sweep_pass(v, o, floor_value, keep_limit), o_(o), reached_on_device_(1, 0u) {
    ring_.resize(reach_ + 1);
  }

  std::uint32_t held_bound() const override {
    std::uint32_t upper = 0;
    for (const pending_buffer& b : ring_) {
      const std::vector<packed_state> keys = to_host(b.keys);
      const std::vector<std::uint32_t> way = to_host(b.way);
      for (std::size_t i = 0; i < keys.size(); ++i)
        upper = std::max(upper, exact_detail::held_bound(v_, keys[i], way[i]));
    }
    return upper;
  }

 private:
  void begin() override {
    ring_[0].keys.assign(1, initial_state(v_));
    ring_[0].way.assign(1, 0u);
  }

  /// One sum: its pending pairs reduced (sorted, each state once with its longest way in) and
  /// expanded; `failed` where the device's memory cannot hold the step (the sum's states then stay
  /// held, unreduced or unexpanded, and count toward the proven upper end).
  step_report step(std::uint32_t sum, std::chrono::steady_clock::time_point start) override {
    step_report r;
    pending_buffer& here = ring_[sum % (reach_ + 1)];
    if (reduce_bytes(here) > usable_bytes()) {
      r.failed =
          "GPU memory: " + std::to_string(here.keys.size()) + " pending states of one progress sum cannot be sorted";
      return r;
    }
    make_room(reduce_bytes(here));
    reduce(here);
    const std::size_t n = here.keys.size();
    states_ += n;
    if (n > 0) expand(sum, here, reached_on_device_);
    if (!stop_.empty()) {
      r.failed = stop_;
      return r;
    }
    here.keys.clear();
    here.keys.shrink_to_fit();
    here.way.clear();
    here.way.shrink_to_fit();
    r.elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    r.interrupt = interrupted();
    return r;
  }

  void end() override { reached_ = reached_on_device_[0]; }

  /// Device memory free now or held in the pool's cache.
  std::size_t usable_bytes() const { return free_device_bytes() + pool_.cached_bytes(); }

  /// Makes `bytes` (accounted against usable_bytes()) allocatable by the vectors too: only the pool
  /// reuses its cache, so the cache goes back to the device when the free memory alone is short.
  void make_room(std::size_t bytes) {
    if (bytes > free_device_bytes()) pool_.release();
  }

  /// What reduce() may allocate: the sort's scratch (about one more copy of the pairs, from the
  /// pool) and the reduced copy's growth.
  std::size_t reduce_bytes(const pending_buffer& b) const {
    const std::size_t n = b.keys.size();
    return n * (sizeof(packed_state) + sizeof(std::uint32_t)) + growth_bytes(reduced_keys_, n) +
           growth_bytes(reduced_way_, n);
  }

  /// Sorts the pairs by state (radix sort) and keeps each state once with its largest way in. The
  /// reduced pairs go to the spare vectors, which then trade places with the buffer's, so the
  /// storage of both is reused.
  void reduce(pending_buffer& b) {
    if (b.keys.empty()) return;
    thrust::sort_by_key(thrust::device(pool_), b.keys.begin(), b.keys.end(), b.way.begin(), key_order{});
    ensure_size(reduced_keys_, b.keys.size());
    ensure_size(reduced_way_, b.keys.size());
    const auto ends = thrust::reduce_by_key(thrust::device(pool_), b.keys.begin(), b.keys.end(), b.way.begin(),
                                            reduced_keys_.begin(), reduced_way_.begin(), state_equal{}, way_max{});
    reduced_keys_.resize(ends.first - reduced_keys_.begin());
    reduced_way_.resize(ends.second - reduced_way_.begin());
    b.keys.swap(reduced_keys_);
    b.way.swap(reduced_way_);
  }

  void expand(std::uint32_t sum, pending_buffer& here, device_vector<unsigned>& reached) {
    const std::size_t n = here.keys.size();
    const packed_state* keys = thrust::raw_pointer_cast(here.keys.data());
    const std::uint32_t* way = thrust::raw_pointer_cast(here.way.data());
    // Counts, offsets and flags (their growth, and the scan's scratch), accounted before they are
    // allocated.
    if (growth_bytes(counts_, reach_ * n) + growth_bytes(offsets_, reach_ * n) + growth_bytes(expanded_, n) +
            scan_scratch_bytes(reach_ * n) >
        usable_bytes()) {
      stop_ = "GPU memory: the successor counts of " + std::to_string(n) + " states do not fit";
      return;
    }
    make_room(growth_bytes(counts_, reach_ * n) + growth_bytes(offsets_, reach_ * n) + growth_bytes(expanded_, n) +
              scan_scratch_bytes(reach_ * n));
    ensure_size(counts_, reach_ * n);
    ensure_size(offsets_, reach_ * n);
    ensure_size(expanded_, n);
    device_vector<std::uint64_t>& counts = counts_;
    device_vector<std::uint64_t>& offsets = offsets_;
    device_vector<std::uint8_t>& expanded = expanded_;
    WARPSPAN_LAUNCH(sweep_count, blocks_for(n), block_threads, 0, nullptr)
    (v_, keys, way, n, reach_, floor_, o_.prune ? 1 : 0, thrust::raw_pointer_cast(counts.data()),
     thrust::raw_pointer_cast(expanded.data()), thrust::raw_pointer_cast(reached.data()));
    WARPSPAN_CUDA_CHECK_LAST();
    thrust::exclusive_scan(thrust::device(pool_), counts.begin(), counts.end(), offsets.begin(), std::uint64_t{0});
    const std::uint64_t total = static_cast<std::uint64_t>(offsets.back()) + static_cast<std::uint64_t>(counts.back());
    const std::size_t expanded_count =
        thrust::count_if(thrust::device(pool_), expanded.begin(), expanded.end(), is_set{});
    pruned_ += n - expanded_count - (sum == last_sum_ ? n : 0);
    if (keeping_ && !keep_expanded(sum, here, expanded_count)) return;
    if (total == 0) return;
    // Segment j (issues j + 1) starts at offsets[j * n].
    std::vector<std::uint64_t> begin(reach_ + 1);
    for (std::uint32_t j = 0; j < reach_; ++j)
      WARPSPAN_CUDA_TRY(cudaMemcpy(&begin[j], thrust::raw_pointer_cast(offsets.data()) + j * n, sizeof(std::uint64_t),
                                   cudaMemcpyDeviceToHost));
    begin[reach_] = total;
    // The successors' growth, the pending buffers' growth (a buffer that grows is copied into its
    // new storage, both alive at once), and the sort of the largest (its scratch: one more copy of
    // its pairs, whether it is compacted here or reduced at its own sum), with the reduced copy's
    // growth where a buffer is compacted here.
    const std::size_t pair = sizeof(packed_state) + sizeof(std::uint32_t);
    std::size_t need = growth_bytes(out_keys_, total) + growth_bytes(out_way_, total);
    std::size_t largest = 0, compacted = 0;
    for (std::uint32_t j = 0; j < reach_; ++j) {
      const pending_buffer& to = ring_[(sum + j + 1) % (reach_ + 1)];
      const std::size_t size = to.keys.size() + (begin[j + 1] - begin[j]);
      need += append_capacity(to.keys, size) * pair;
      largest = std::max(largest, size);
      if (begin[j + 1] > begin[j] && size > compact_entries()) compacted = std::max(compacted, size);
    }
    need += largest * pair + growth_bytes(reduced_keys_, compacted) + growth_bytes(reduced_way_, compacted);
    if (need > usable_bytes()) {
      stop_ = "GPU memory: " + std::to_string(total) + " successors of one progress sum do not fit";
      return;
    }
    make_room(need);
    ensure_size(out_keys_, total);
    ensure_size(out_way_, total);
    WARPSPAN_LAUNCH(sweep_write, blocks_for(n), block_threads, 0, nullptr)
    (v_, keys, way, n, reach_, thrust::raw_pointer_cast(expanded.data()), thrust::raw_pointer_cast(offsets.data()),
     thrust::raw_pointer_cast(out_keys_.data()), thrust::raw_pointer_cast(out_way_.data()));
    WARPSPAN_CUDA_CHECK_LAST();
    for (std::uint32_t j = 0; j < reach_; ++j) {
      if (begin[j + 1] == begin[j]) continue;
      pending_buffer& to = ring_[(sum + j + 1) % (reach_ + 1)];
      const std::size_t old = to.keys.size(), add = begin[j + 1] - begin[j];
      if (const std::size_t grow = append_capacity(to.keys, old + add)) {
        to.keys.reserve(grow);
        to.way.reserve(grow);
      }
      to.keys.resize(old + add);
      to.way.resize(old + add);
      thrust::copy(thrust::device(pool_), out_keys_.begin() + begin[j], out_keys_.begin() + begin[j + 1],
                   to.keys.begin() + old);
      thrust::copy(thrust::device(pool_), out_way_.begin() + begin[j], out_way_.begin() + begin[j + 1],
                   to.way.begin() + old);
      if (to.keys.size() > compact_entries()) reduce(to);
    }
  }

  std::size_t compact_entries() const {
    return o_.device_compact_entries > 0 ? o_.device_compact_entries : default_compact_entries;
  }

  /// The capacity a pending buffer takes to hold `size` entries: 0 if it already can, else half as
  /// much again as it had (fewer copies as it grows) and at least `size`.
  static std::size_t append_capacity(const device_vector<packed_state>& v, std::size_t size) {
    if (size <= v.capacity()) return 0;
    return std::max(size, v.capacity() + v.capacity() / 2);
  }

  /// The expanded states of this sum, for the witness: gathered on the device, and only they (not
  /// every state with its flag) copied back. False, with the reason to stop, when their copy does
  /// not fit.
  bool keep_expanded(std::uint32_t sum, const pending_buffer& here, std::size_t expanded_count) {
    if (growth_bytes(kept_keys_, expanded_count) + growth_bytes(kept_way_, expanded_count) > usable_bytes()) {
      stop_ =
          "GPU memory: the " + std::to_string(expanded_count) + " expanded states of one progress sum cannot be kept";
      return false;
    }
    make_room(growth_bytes(kept_keys_, expanded_count) + growth_bytes(kept_way_, expanded_count));
    ensure_size(kept_keys_, expanded_count);
    ensure_size(kept_way_, expanded_count);
    thrust::copy_if(thrust::device(pool_), here.keys.begin(), here.keys.end(), expanded_.begin(), kept_keys_.begin(),
                    is_set{});
    thrust::copy_if(thrust::device(pool_), here.way.begin(), here.way.end(), expanded_.begin(), kept_way_.begin(),
                    is_set{});
    const std::vector<packed_state> k = to_host(kept_keys_);
    const std::vector<std::uint32_t> w = to_host(kept_way_);
    std::vector<exact_detail::sweep_entry> kept(expanded_count);
    for (std::size_t i = 0; i < expanded_count; ++i) kept[i] = {k[i], static_cast<std::uint16_t>(w[i])};
    keep(sum, kept);
    return true;
  }

  const sweep_options& o_;
  std::vector<pending_buffer> ring_;  // [sum % (reach + 1)]
  // Kept for the whole sweep (see the top of the file). The pool holds only Thrust's temporaries,
  // all handed back by the time a Thrust call returns.
  device_pool pool_;
  device_vector<packed_state> reduced_keys_, out_keys_, kept_keys_;
  device_vector<std::uint32_t> reduced_way_, out_way_, kept_way_;
  device_vector<std::uint64_t> counts_, offsets_;
  device_vector<std::uint8_t> expanded_;
  device_vector<unsigned> reached_on_device_;  ///< the longest way into the final state, found by expand()
};

}  // namespace

exact_result exact_sweep_cuda(const problem& prob, const sweep_options& options) {
  const frontier_view v = exact_detail::checked_view(prob);
  return exact_detail::run_sweeps(prob, v, options, [&](std::uint32_t floor_value, std::uint64_t keep_limit) {
    return std::unique_ptr<exact_detail::sweep_pass>(new cuda_sweep(v, options, floor_value, keep_limit));
  });
}

}  // namespace warpspan
