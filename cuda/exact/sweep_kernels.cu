// The progress sweep on a CUDA device (issue 4; the CPU form is host/exact/sweep.cpp). The states
// of one progress sum arrive as a buffer of (state, way in) pairs that may repeat; they are sorted
// by state and reduced by key with max, which leaves each state once with its longest way in. One
// thread per state then counts its successors per issue count j (the step of the sum), after the
// remaining-work bound has pruned what cannot beat the lower bound; an exclusive scan over the
// counts laid out j-major gives every (j, state) its place, so a second pass writes the successors
// of each j into one contiguous segment, which is appended to the buffer of sum + j. The successor
// enumeration and the bound are the host/device code of include/warpspan/exact/frontier.hpp.
#include <thrust/copy.h>
#include <thrust/count.h>
#include <thrust/device_vector.h>
#include <thrust/execution_policy.h>
#include <thrust/reduce.h>
#include <thrust/scan.h>
#include <thrust/sort.h>

#include <chrono>
#include <memory>

#include "common/cuda_check.cuh"
#include "common/launch.cuh"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/exact/sweep_host.hpp"

namespace warpspan {
namespace {

constexpr int block_threads = 128;
constexpr std::uint32_t max_reach = frontier_max_warps;  // one cycle issues at most W <= 16 warps
/// A pending buffer is reduced in place (sorted, one entry per state) beyond this many entries.
constexpr std::size_t compact_entries = std::size_t{1} << 26;

unsigned blocks_for(std::size_t n) { return static_cast<unsigned>((n + block_threads - 1) / block_threads); }

struct state_less {
  __host__ __device__ bool operator()(packed_state a, packed_state b) const { return a < b; }
};
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
__global__ void sweep_count(frontier_view v, const packed_state* keys, const std::uint32_t* way_in, std::size_t n,
                            std::uint32_t reach, std::uint32_t floor_value, int prune, std::uint64_t* counts,
                            std::uint8_t* expanded, unsigned* reached) {
  const std::size_t i = blockIdx.x * static_cast<std::size_t>(blockDim.x) + threadIdx.x;
  if (i >= n) return;
  std::uint64_t c[max_reach] = {};
  expanded[i] = 0;
  successor_enum e;
  if (!e.start(v, keys[i])) {
    atomicMax(reached, way_in[i]);
  } else if (!prune || way_in[i] + remaining_bound(v, e.count) > floor_value) {
    expanded[i] = 1;
    do ++c[issues_of(v, e) - 1];
    while (e.advance(v));
  }
  for (std::uint32_t j = 0; j < reach; ++j) counts[j * n + i] = c[j];
}

__global__ void sweep_write(frontier_view v, const packed_state* keys, const std::uint32_t* way_in, std::size_t n,
                            std::uint32_t reach, const std::uint8_t* expanded, const std::uint64_t* offsets,
                            packed_state* out_keys, std::uint32_t* out_way) {
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
std::vector<T> to_host(const thrust::device_vector<T>& d) {
  std::vector<T> h(d.size());
  if (!h.empty())
    WARPSPAN_CUDA_TRY(cudaMemcpy(h.data(), thrust::raw_pointer_cast(d.data()), h.size() * sizeof(T), cudaMemcpyDeviceToHost));
  return h;
}

/// Free device memory now.
std::size_t free_device_bytes() {
  std::size_t free = 0, all = 0;
  WARPSPAN_CUDA_TRY(cudaMemGetInfo(&free, &all));
  return free;
}

/// (state, way in) pairs, possibly repeated.
struct pending_buffer {
  /// What reduce() allocates: the sort's scratch (about one more copy of the pairs) and the reduced
  /// copy, accounted before anything is allocated.
  std::size_t reduce_bytes() const { return keys.size() * (sizeof(packed_state) + sizeof(std::uint32_t)) * 2; }

  thrust::device_vector<packed_state> keys;
  thrust::device_vector<std::uint32_t> way;

  /// Sorts by state and keeps each once with its largest way in.
  void reduce() {
    if (keys.empty()) return;
    thrust::sort_by_key(thrust::device, keys.begin(), keys.end(), way.begin(), state_less{});
    thrust::device_vector<packed_state> k(keys.size());
    thrust::device_vector<std::uint32_t> w(keys.size());
    const auto ends = thrust::reduce_by_key(thrust::device, keys.begin(), keys.end(), way.begin(), k.begin(), w.begin(),
                                            state_equal{}, way_max{});
    k.resize(ends.first - k.begin());
    w.resize(ends.second - w.begin());
    keys.swap(k);
    way.swap(w);
  }
};

class cuda_sweep final : public exact_detail::sweep_pass {
 public:
  cuda_sweep(const frontier_view& v, const exact_options& o, std::uint32_t floor_value, std::uint64_t keep_limit)
      : sweep_pass(v, floor_value, keep_limit), o_(o) {
    ring_.resize(reach_ + 1);
  }

  void run(std::chrono::steady_clock::time_point start) override {
    ring_[0].keys.assign(1, initial_state(v_));
    ring_[0].way.assign(1, 0u);
    thrust::device_vector<unsigned> reached(1, 0u);
    for (std::uint32_t sum = 0; sum <= last_sum_; ++sum) {
      pending_buffer& here = ring_[sum % (reach_ + 1)];
      if (here.reduce_bytes() > free_device_bytes()) {
        stop_ = "GPU memory: " + std::to_string(here.keys.size()) + " pending states of one progress sum cannot be sorted";
        break;  // `here` stays held, unreduced: its states count toward the proven upper end
      }
      here.reduce();
      const std::size_t n = here.keys.size();
      states_ += n;
      if (n > 0) expand(sum, here, reached);
      if (!stop_.empty()) break;  // `here` stays held: its states were not expanded
      here.keys.clear();
      here.keys.shrink_to_fit();
      here.way.clear();
      here.way.shrink_to_fit();
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (o_.max_states && states_ > o_.max_states) stop_ = "state limit (" + std::to_string(o_.max_states) + " states) reached";
      if (o_.time_limit_s > 0 && elapsed > o_.time_limit_s) stop_ = "time limit reached";
      if (interrupted()) stop_ = "interrupted";
      if (o_.progress) o_.progress(sum + 1, last_sum_ + 1, states_, elapsed);
      if (!stop_.empty()) break;
    }
    reached_ = reached[0];
  }

  std::uint32_t held_bound() const override {
    std::uint32_t upper = 0;
    for (const pending_buffer& b : ring_) {
      const std::vector<packed_state> keys = to_host(b.keys);
      const std::vector<std::uint32_t> way = to_host(b.way);
      for (std::size_t i = 0; i < keys.size(); ++i) upper = std::max(upper, exact_detail::held_bound(v_, keys[i], way[i]));
    }
    return upper;
  }

 private:
  void expand(std::uint32_t sum, pending_buffer& here, thrust::device_vector<unsigned>& reached) {
    const std::size_t n = here.keys.size();
    const packed_state* keys = thrust::raw_pointer_cast(here.keys.data());
    const std::uint32_t* way = thrust::raw_pointer_cast(here.way.data());
    // Counts, offsets and flags, accounted before they are allocated.
    if (reach_ * n * sizeof(std::uint64_t) * 2 + n > free_device_bytes()) {
      stop_ = "GPU memory: the successor counts of " + std::to_string(n) + " states do not fit";
      return;
    }
    thrust::device_vector<std::uint64_t> counts(reach_ * n), offsets(reach_ * n);
    thrust::device_vector<std::uint8_t> expanded(n);
    WARPSPAN_LAUNCH(sweep_count, blocks_for(n), block_threads, 0, nullptr)(v_, keys, way, n, reach_, floor_, o_.prune ? 1 : 0,
                                                  thrust::raw_pointer_cast(counts.data()),
                                                  thrust::raw_pointer_cast(expanded.data()),
                                                  thrust::raw_pointer_cast(reached.data()));
    WARPSPAN_CUDA_CHECK_LAST();
    thrust::exclusive_scan(thrust::device, counts.begin(), counts.end(), offsets.begin(), std::uint64_t{0});
    const std::uint64_t total = static_cast<std::uint64_t>(offsets.back()) + static_cast<std::uint64_t>(counts.back());
    const std::size_t expanded_count = thrust::count_if(thrust::device, expanded.begin(), expanded.end(), is_set{});
    pruned_ += n - expanded_count - (sum == last_sum_ ? n : 0);
    if (keeping_) {  // the expanded states, for the witness
      const std::vector<packed_state> k = to_host(here.keys);
      const std::vector<std::uint32_t> w = to_host(here.way);
      const std::vector<std::uint8_t> f = to_host(expanded);
      std::vector<exact_detail::sweep_entry> kept;
      kept.reserve(expanded_count);
      for (std::size_t i = 0; i < n; ++i)
        if (f[i]) kept.push_back({k[i], static_cast<std::uint16_t>(w[i])});
      keep(sum, kept);
    }
    if (total == 0) return;
    std::size_t free = 0, all = 0;
    WARPSPAN_CUDA_TRY(cudaMemGetInfo(&free, &all));
    // The successors, their copy into the pending buffers, and room for a sort of those.
    if (total * (sizeof(packed_state) + sizeof(std::uint32_t)) * 4 > free) {
      stop_ = "GPU memory: " + std::to_string(total) + " successors of one progress sum do not fit";
      return;
    }
    thrust::device_vector<packed_state> out_keys(total);
    thrust::device_vector<std::uint32_t> out_way(total);
    WARPSPAN_LAUNCH(sweep_write, blocks_for(n), block_threads, 0, nullptr)(v_, keys, way, n, reach_, thrust::raw_pointer_cast(expanded.data()),
                                                  thrust::raw_pointer_cast(offsets.data()),
                                                  thrust::raw_pointer_cast(out_keys.data()),
                                                  thrust::raw_pointer_cast(out_way.data()));
    WARPSPAN_CUDA_CHECK_LAST();
    // Segment j (issues j + 1) starts at offsets[j * n].
    std::vector<std::uint64_t> begin(reach_ + 1);
    for (std::uint32_t j = 0; j < reach_; ++j)
      WARPSPAN_CUDA_TRY(cudaMemcpy(&begin[j], thrust::raw_pointer_cast(offsets.data()) + j * n, sizeof(std::uint64_t),
                                   cudaMemcpyDeviceToHost));
    begin[reach_] = total;
    for (std::uint32_t j = 0; j < reach_; ++j) {
      if (begin[j + 1] == begin[j]) continue;
      pending_buffer& to = ring_[(sum + j + 1) % (reach_ + 1)];
      const std::size_t old = to.keys.size(), add = begin[j + 1] - begin[j];
      to.keys.resize(old + add);
      to.way.resize(old + add);
      thrust::copy(thrust::device, out_keys.begin() + begin[j], out_keys.begin() + begin[j + 1], to.keys.begin() + old);
      thrust::copy(thrust::device, out_way.begin() + begin[j], out_way.begin() + begin[j + 1], to.way.begin() + old);
      if (to.keys.size() > compact_entries) to.reduce();
    }
  }

  const exact_options& o_;
  std::vector<pending_buffer> ring_;  // [sum % (reach + 1)]
};

}  // namespace

exact_result exact_sweep_cuda(const problem& prob, const exact_options& options) {
  const frontier_view v = exact_detail::checked_view(prob);
  return exact_detail::run_sweeps(prob, v, options, [&](std::uint32_t floor_value, std::uint64_t keep_limit) {
    return std::unique_ptr<exact_detail::sweep_pass>(new cuda_sweep(v, options, floor_value, keep_limit));
  });
}

}  // namespace warpspan
