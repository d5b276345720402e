// The exact search over a dense table of every multiset (see exact_dense_cpu in search.hpp).
//
// A state is the multiset of the W warps' progress levels 0..I, sorted ascending a_1 <= .. <= a_W.
// With b_i = a_i + i - 1 (strictly increasing in [0, I + W)) its colex rank is sum_i C(b_i, i), a
// bijection onto [0, C(I + W, W)). One cycle moves some warps up one level each and keeps the order
// (the warps that leave a level are the top of its run), so every b_i it touches rises by one and
// the rank rises by sum C(b_i, i - 1): the rank is a topological order of the successor relation.
// Taking the ranks in increasing order therefore visits each state after all its predecessors, with
// its longest way in final, and a successor's rank is the state's plus a few table entries. The
// table holds one way in (plus one; 0: not reached) per multiset, a byte while the pessimistic bound
// fits one. No hashing: a successor costs an addition and one store. Every reached state is
// expanded: the remaining bound costs more per state than the few states it would drop save, unless
// options.at_most asks whether the worst case stays under a value above the string in hand; then
// the states that lie on no longer schedule are dropped. The successors are worked out ahead, on
// the other thread, for the reached ranks of the next run, except those the floor already drops at
// the way in known then: the sweep works theirs out only should a later raise lift them past it.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include <sys/mman.h>
#include <unistd.h>

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
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

namespace {

using clock_type = std::chrono::steady_clock;

/// A zeroed table of n values in anonymous memory, on huge pages where the kernel gives them (the
/// sweep's stores land all over it: with 4 KiB pages nearly each one would also miss the TLB).
template <class V>
class zeroed_table {
 public:
  /// `populate`: fault every page in now (a whole sweep touches them all); otherwise each page is
  /// zeroed when first written (a sweep stopped early by a time limit touches few of them).
  zeroed_table(std::uint64_t n, bool populate) : bytes_((n * sizeof(V) + huge - 1) / huge * huge) {
    void* p = mmap(nullptr, bytes_, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
      throw std::runtime_error("the dense sweep's table of " + std::to_string(bytes_ >> 20) +
                               " MiB could not be mapped");
#ifdef MADV_HUGEPAGE
    madvise(p, bytes_, MADV_HUGEPAGE);  // a hint: without huge pages the sweep is slower, not wrong
#endif
#ifdef MADV_POPULATE_WRITE
    if (populate) madvise(p, bytes_, MADV_POPULATE_WRITE);  // fault it in now, in huge pages where it can (Linux 5.14+)
#endif
    data_ = static_cast<V*>(p);
  }
  ~zeroed_table() { munmap(data_, bytes_); }
  zeroed_table(const zeroed_table&) = delete;
  zeroed_table& operator=(const zeroed_table&) = delete;
  V& operator[](std::uint64_t i) { return data_[i]; }
  const V& operator[](std::uint64_t i) const { return data_[i]; }

 private:
  static constexpr std::uint64_t huge = std::uint64_t{2} << 20;
  std::uint64_t bytes_;
  V* data_ = nullptr;
};

/// The successors of a run of ranks, worked out ahead of the sweep (they depend on the state, not
/// on its way in): per rank, up to four lists of rank gains whose sums over one entry of each list
/// are its successors' ranks minus its own (the types' choices, or every successor in one list when
/// the scheduler limit splits the issues); no lists for the final state.
struct rank_run {
  std::uint64_t first = 0, end = 0;                  ///< the ranks [first, end)
  std::vector<std::uint32_t> offset;                 ///< per rank: its lists' start in `gains`
  std::vector<std::array<std::uint16_t, 4>> counts;  ///< per rank: the lists' lengths (all 0: final)
  std::vector<std::uint64_t> gains;
  std::vector<std::uint16_t> bound;  ///< per rank: remaining_bound (when pruning; 0 if not reached)

  /// Empties the run and makes it [f, e) (the vectors keep their capacity).
  void reset(std::uint64_t f, std::uint64_t e) {
    first = f;
    end = e;
    offset.clear();
    counts.clear();
    gains.clear();
    bound.clear();
  }
};

/// One pass over the table (values of type V: way in + 1, 0 when not reached) of the states of
/// view FV (frontier_view, or wide_frontier_view: 16-bit levels).
template <class V, class FV>
class dense_pass {
  using level = typename FV::level_type;

 public:
  /// `floor`: drop the reached states whose way in plus remaining bound is at most this (0: none).
  dense_pass(const FV& v, const dense_index& index, const dense_options& o, std::uint32_t floor)
      : v_(v),
        index_(index),
        o_(o),
        g_(index.size(), populate_table(index.size() * sizeof(V), o.time_limit_s)),
        floor_(floor) {}

  /// Whether to fault the table in up front: without a time limit, or when the limit leaves time
  /// to zero it many times over (zeroing ran at about 0.5 GB/s on the 2-core VM: a 600 MB table
  /// took 1.2 s, against an estimate's quarter of a second for its interval).
  static bool populate_table(std::uint64_t bytes, double time_limit_s) {
    return time_limit_s <= 0 || static_cast<double>(bytes) < time_limit_s * 64e6;
  }

  /// Runs from the initial state to the final one or to a limit; returns the stop reason ("" when
  /// complete). With two threads one works out the successors of the next run of ranks while the
  /// other sweeps the current one (the table is written by the sweeping thread only).
  std::string run(clock_type::time_point start) {
    const std::uint64_t n = index_.size();
    const bool two = resolve_threads(o_.threads, param("threads")) >= 2;
    thread_pool pool(two ? 2 : 1);
    rank_run runs[2][2];  // [step % 2][part]: the run being swept and the one being worked out
    g_[0] = 1;            // the initial state, all at level 0, has rank 0
    auto produce = [&](rank_run& run, std::uint64_t first, std::uint64_t end) {
      run.reset(first, end);
      if (first == end) return;
      level a[frontier_max_warps + 1] = {};
      index_.unrank(first, a);
      for (std::uint64_t r = first; r < end; ++r) {
        // Not reached yet: most such states never are (a fifth of the multisets for the exact
        // answer, most of them once at_most drops states), so they are left for the sweep to work
        // out should one be reached meanwhile by a state before it.
        const V seen = entry(r).load(std::memory_order_relaxed);
        if (seen == 0) {
          run.offset.push_back(static_cast<std::uint32_t>(run.gains.size()));
          run.counts.push_back(later);
          if (floor_) run.bound.push_back(0);
        } else if (!floor_ || r + 1 == index_.size()) {
          successors_of(a, run);
        } else {
          const auto bound = static_cast<std::uint16_t>(remaining_bound(v_, index_.pack(a)));
          if (seen - 1u + bound <= floor_) {
            // Dropped by the floor at the way in known now: most such states stay dropped, so their
            // successors are left for the sweep, which works them out should a later raise lift it.
            run.offset.push_back(static_cast<std::uint32_t>(run.gains.size()));
            run.counts.push_back(dropped);
            run.bound.push_back(bound);
          } else {
            successors_of(a, run, &bound);
          }
        }
        index_.next(a);
      }
    };
    // The sweeping thread also works out the later part of the next run, a share chosen so that both
    // threads finish a step together: with sweeping taking S and working a run out P (smoothed over
    // the steps), the sweeper takes (P - S) / 2P of the run.
    double share = 3.0 / 8, sweep_s = 0, produce_s = 0;
    double bound_s_per_state = -1;
    step_stop stopping(o_.time_limit_s, 0);  // the table holds every state: no state limit
    const int scan_threads = resolve_threads(o_.threads, param("threads"));
    auto split = [&](std::uint64_t first) {
      const std::uint64_t end = std::min(n, first + run_length);
      const auto mine = static_cast<std::uint64_t>(static_cast<double>(end - first) * share);
      return std::array<std::uint64_t, 3>{first, two ? end - mine : end, end};
    };
    auto cut = split(0);
    produce(runs[0][0], cut[0], cut[1]);
    produce(runs[0][1], cut[1], cut[2]);
    for (std::uint64_t k = 0;; ++k) {
      rank_run* current = runs[k % 2];
      rank_run* ahead = runs[(k + 1) % 2];
      const std::uint64_t done = current[1].end;
      cut = split(done);
      if (two && done < n) {
        double busy[3] = {};  // sweeping; working out the later part; the earlier part
        pool.run(2, [&](std::size_t i) {
          const auto t0 = clock_type::now();
          if (i == 0) {
            sweep(current[0]);
            sweep(current[1]);
            const auto t1 = clock_type::now();
            produce(ahead[1], cut[1], cut[2]);
            busy[0] = std::chrono::duration<double>(t1 - t0).count();
            busy[1] = std::chrono::duration<double>(clock_type::now() - t1).count();
          } else {
            produce(ahead[0], cut[0], cut[1]);
            busy[2] = std::chrono::duration<double>(clock_type::now() - t0).count();
          }
        });
        sweep_s = 0.8 * sweep_s + 0.2 * busy[0];
        produce_s = 0.8 * produce_s + 0.2 * (busy[1] + busy[2]);
        if (produce_s > 0) share = std::clamp((produce_s - sweep_s) / (2 * produce_s), 0.0, 0.5);
      } else {
        sweep(current[0]);
        sweep(current[1]);
        produce(ahead[0], cut[0], cut[1]);
        produce(ahead[1], cut[1], cut[2]);
      }
      const double elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
      if (o_.progress && (k % 64 == 63 || done == n))
        o_.progress({static_cast<std::uint32_t>(done * 1000 / n), 1000, states_, elapsed});
      if (done == n) return {};
      std::string stop;
      // The time limit covers the bound over the held states after the stop (held_bound): the
      // pass stops when one more step and that scan would pass it (step_deadline, with its margin:
      // on Voronoi W = 12 and 13 beside a compiler the scan took 1.06 and 1.62 s where 0.84 and
      // 1.54 were predicted, and the runs ended 4-5 % past the limit before the margin).
      // The scan's cost: the states reached and not yet taken, at the rate timed once on a sample
      // of 4,096, over the threads, plus reading the rest of the table (10 GB/s: Voronoi W = 12
      // and 13, 1.8 and 5.1 GB mostly never written, scanned in well under a tenth of a second).
      // On Voronoi W = 9 the limit now holds (0.23, 1.01, 3.05, 5.06 s for 0.25 to 5) with upper
      // ends 114-112; stopping at the limit and scanning till 1.1 times it gave up every time (117).
      if (o_.time_limit_s > 0 && bound_s_per_state < 0 && states_ >= 4096) bound_s_per_state = time_bound_sample(done);
      const double scan_s =
          std::max(bound_s_per_state, 0.0) * static_cast<double>(reached_states_ - states_) / scan_threads +
          static_cast<double>((n - done) * sizeof(V)) * 1e-10;
      stop = stopping.after_step(elapsed, states_, scan_s);
      if (!stop.empty()) {
        stopped_at_ = done;
        return stop;
      }
    }
  }

  /// Over the reached states from the stop on: the largest way in plus remaining bound (every path
  /// still to finish passes through one of them with at least its way in so far recorded).
  /// The reached ones are few after an early stop and the table is large: the scan skips blocks of
  /// unreached entries, unranks the first reached entry after a gap and steps with next() through
  /// a run of them (stepping every rank with next() took seconds on a 600 MB table stopped after a
  /// quarter of a second; unranking every reached one, 0.6-1.9 s for Voronoi W = 9 stopped at
  /// 1-5 s). On all threads, segments of ranks taken as they come.
  /// Past `deadline` (with a time limit: step_deadline::finish_cutoff times it) it gives up and returns the
  /// largest value, which leaves the pessimistic bound as the upper end.
  std::uint32_t held_bound(clock_type::time_point deadline) const {
    constexpr std::uint64_t block = 64, segment = std::uint64_t{1} << 20;
    const std::uint64_t n = index_.size();
    const int threads = resolve_threads(o_.threads, param("threads"));
    std::atomic<std::uint64_t> next_segment{stopped_at_};
    std::atomic<bool> gave_up{false};
    std::vector<std::uint32_t> upper(static_cast<std::size_t>(threads), 0);
    auto scan = [&](std::size_t t) {
      level a[frontier_max_warps + 1] = {};
      std::uint64_t seen = 0, at = n;  // `a` holds the levels of rank `at`
      for (;;) {
        const std::uint64_t lo = next_segment.fetch_add(segment);
        if (lo >= n || gave_up.load(std::memory_order_relaxed)) return;
        const std::uint64_t hi = std::min(n, lo + segment);
        for (std::uint64_t r = lo; r < hi;) {
          if (r % block == 0 && r + block <= hi) {
            V any = 0;
            for (std::uint64_t i = 0; i < block; ++i) any |= g_[r + i];
            if (any == 0) {
              r += block;
              continue;
            }
          }
          if (g_[r] != 0) {
            if (++seen % 4096 == 0 && o_.time_limit_s > 0 &&
                (gave_up.load(std::memory_order_relaxed) || clock_type::now() > deadline)) {
              gave_up = true;
              return;
            }
            if (at != r) index_.unrank(r, a);
            upper[t] =
                std::max(upper[t], exact_detail::held_bound(v_, index_.pack(a), static_cast<std::uint32_t>(g_[r] - 1)));
            at = r + 1 < n && index_.next(a) ? r + 1 : n;
          }
          ++r;
        }
      }
    };
    if (threads > 1) {
      thread_pool pool(threads);
      pool.run(static_cast<std::size_t>(threads), scan);
    } else {
      scan(0);
    }
    return gave_up ? ~std::uint32_t{0} : *std::max_element(upper.begin(), upper.end());
  }

  /// Seconds per held state of the bound in held_bound(), timed on up to 4,096 reached entries
  /// before rank `end` (a millisecond).
  double time_bound_sample(std::uint64_t end) const {
    level a[frontier_max_warps + 1] = {};
    [[maybe_unused]] volatile std::uint32_t sink = 0;  // the calls are for their time only
    std::uint32_t timed = 0;
    const auto t0 = clock_type::now();
    for (std::uint64_t r = end; r-- > 0 && timed < 4096;)
      if (g_[r] != 0) {
        index_.unrank(r, a);
        sink = exact_detail::held_bound(v_, index_.pack(a), static_cast<std::uint32_t>(g_[r] - 1));
        ++timed;
      }
    return timed == 0 ? 0 : std::chrono::duration<double>(clock_type::now() - t0).count() / timed;
  }

  /// A path of `length` cycles through the recorded ways in (exact_detail::dense_witness).
  std::vector<std::uint16_t> witness(std::uint32_t length) const {
    return exact_detail::dense_witness(v_, index_, length,
                                       [this](std::uint64_t r) { return static_cast<std::uint32_t>(g_[r]); });
  }

  std::uint64_t states() const { return states_; }
  std::uint64_t pruned() const { return pruned_; }
  std::uint32_t reached() const { return reached_; }

 private:
  static constexpr std::uint64_t run_length = std::uint64_t{1} << 15;
  /// The lists' lengths of a rank not reached when its run was worked out.
  static constexpr std::array<std::uint16_t, 4> later{0xFFFF, 0xFFFF, 0xFFFF, 0xFFFF};
  /// ... and of one the floor dropped then (its bound is kept, its successors are not worked out).
  static constexpr std::array<std::uint16_t, 4> dropped{0xFFFE, 0xFFFE, 0xFFFE, 0xFFFE};
  static bool worked_out(const std::array<std::uint16_t, 4>& c) { return c != later && c != dropped; }

  std::atomic_ref<V> entry(std::uint64_t rank) { return std::atomic_ref<V>(g_[rank]); }

  /// Appends the rank gains of the successors of the state with ascending levels `a` to `run`
  /// (and, with a floor, its remaining bound: `known` when the caller has worked it out).
  __attribute__((flatten)) void successors_of(const level* a, rank_run& run, const std::uint16_t* known = nullptr) {
    run.offset.push_back(static_cast<std::uint32_t>(run.gains.size()));
    std::array<std::uint16_t, 4> count{};
    basic_successor_enum<FV> e;
    const packed_state key = index_.pack(a);
    if (!e.start(v_, key)) {  // the final state
      run.counts.push_back(count);
      if (floor_) run.bound.push_back(0);
      return;
    }
    // The bound is worked out here, ahead, on both threads.
    if (floor_) run.bound.push_back(known ? *known : static_cast<std::uint16_t>(remaining_bound(v_, key)));
    std::uint32_t issues = 0;
    for (std::uint32_t t = 0; t < v_.ntypes; ++t) issues += e.most[t];
    if (v_.limit != 0 && issues > v_.limit) {  // the limit splits over the types: successor by successor
      std::uint32_t m = 0;
      do {
        std::uint64_t d = 0;
        for (std::uint32_t s = 0; s < e.slots; ++s)
          if (e.x[s] != 0) d += index_.move_delta(e.level[s], v_.warps - e.above[s], e.x[s]);
        run.gains.push_back(d);
        ++m;
      } while (e.advance(v_));
      run.counts.push_back({static_cast<std::uint16_t>(m), 1, 1, 1});
      run.gains.insert(run.gains.end(), 3, 0);
      return;
    }
    // Every type issues its whole quota, chosen among its levels independently of the others: the
    // successors are the product of the types' choices, and so are their rank gains.
    for (std::uint32_t t = 0; t < 4; ++t) {
      const std::size_t before = run.gains.size();
      const std::uint32_t b = t < v_.ntypes ? e.slot_begin[t] : 0;
      const std::uint32_t slots = t < v_.ntypes ? e.slot_begin[t + 1] - b : 0;
      if (slots == 0) {
        run.gains.push_back(0);
      } else {
        // gain[j][x]: x warps of slot j move; room[j]: the warps at slots j.. (what they can take).
        std::uint64_t gain[frontier_max_warps][frontier_max_warps + 1];
        std::uint32_t room[frontier_max_warps + 1];
        room[slots] = 0;
        for (std::uint32_t j = slots; j-- > 0;) {
          const std::uint32_t level = e.level[b + j], top = v_.warps - e.above[b + j];
          const std::uint32_t most = e.avail[b + j] < e.quota[t] ? e.avail[b + j] : e.quota[t];
          for (std::uint32_t x = 0; x <= most; ++x) gain[j][x] = index_.move_delta(level, top, x);
          room[j] = room[j + 1] + e.avail[b + j];
        }
        choices(e, b, slots, gain, room, 0, e.quota[t], 0, run.gains);
      }
      count[t] = static_cast<std::uint16_t>(run.gains.size() - before);
    }
    run.counts.push_back(count);
  }

  /// Appends the rank gain of every way to take `quota` warps from slots j.. of one type.
  /// flatten (here and on successors_of): since the view became a template parameter GCC inlined
  /// differently (the recursion here a few levels deep, the vector's push_back not at all), which
  /// made Voronoi W = 9 run 15-25 % slower; flattened, within 5 % of before (bench/results/archive/exact/wide_levels_cpu_2core.md).
  __attribute__((flatten)) static void choices(const basic_successor_enum<FV>& e, std::uint32_t b, std::uint32_t slots,
                                               const std::uint64_t (*gain)[frontier_max_warps + 1],
                                               const std::uint32_t* room, std::uint32_t j, std::uint32_t quota,
                                               std::uint64_t partial, std::vector<std::uint64_t>& out) {
    if (quota == 0) {  // the rest take nothing (without this each choice walked the remaining slots)
      out.push_back(partial);
      return;
    }
    if (j + 1 == slots) {  // the last slot takes what is left
      out.push_back(partial + gain[j][quota]);
      return;
    }
    const std::uint32_t most = quota < e.avail[b + j] ? quota : e.avail[b + j];
    const std::uint32_t least = quota > room[j + 1] ? quota - room[j + 1] : 0;
    for (std::uint32_t x = least; x <= most; ++x)
      choices(e, b, slots, gain, room, j + 1, quota - x, partial + gain[j][x], out);
  }

  /// Takes the ranks of `run` in order: each reached state raises the way in of its successors.
  /// The successors of the rank `ahead` places on are fetched into the cache meanwhile (whether it
  /// is reached is known only when its turn comes; most are): the stores land all over the table.
  void sweep(const rank_run& run) {
    constexpr std::uint64_t ahead = 2;
    const std::uint64_t count = run.end - run.first;
    for (std::uint64_t i = 0; i < count; ++i) {
      if (i + ahead < count && worked_out(run.counts[i + ahead]))
        for_each_successor(run, i + ahead, [&](std::uint64_t to) { __builtin_prefetch(&g_[to], 1); });
      const V here = g_[run.first + i];
      if (here == 0) continue;
      ++states_;
      if (run.first + i + 1 == index_.size()) {  // the final state (all done) has the last rank
        reached_ = static_cast<std::uint32_t>(here - 1);
        continue;
      }
      const rank_run* from = &run;
      std::uint64_t at = i;
      if (run.counts[i] == dropped && here - 1u + run.bound[i] <= floor_) {  // still dropped
        ++pruned_;
        continue;
      }
      if (!worked_out(run.counts[i])) {  // its successors now
        level a[frontier_max_warps + 1] = {};
        index_.unrank(run.first + i, a);
        late_.reset(run.first + i, run.first + i + 1);
        successors_of(a, late_);
        from = &late_;
        at = 0;
      }
      // On no schedule longer than the floor? Then its successors are not raised.
      if (floor_ && here - 1u + from->bound[at] <= floor_) {
        ++pruned_;
        continue;
      }
      const V value = static_cast<V>(here + 1);
      for_each_successor(*from, at, [&](std::uint64_t to) {
        // Relaxed atomics: the other thread reads entries of the next run meanwhile (a zero it
        // sees there only means its successors are worked out later).
        const std::atomic_ref<V> slot = entry(to);
        const V old = slot.load(std::memory_order_relaxed);
        if (old < value) {
          reached_states_ += old == 0;
          slot.store(value, std::memory_order_relaxed);
        }
      });
    }
  }

  /// Calls f(rank) for each successor of the i-th rank of `run`.
  template <class F>
  static void for_each_successor(const rank_run& run, std::uint64_t i, F&& f) {
    const std::array<std::uint16_t, 4>& c = run.counts[i];
    const std::uint64_t r = run.first + i;
    const std::uint64_t* g0 = run.gains.data() + run.offset[i];
    const std::uint64_t *g1 = g0 + c[0], *g2 = g1 + c[1], *g3 = g2 + c[2];
    for (std::uint32_t i0 = 0; i0 < c[0]; ++i0)
      for (std::uint32_t i1 = 0; i1 < c[1]; ++i1)
        for (std::uint32_t i2 = 0; i2 < c[2]; ++i2) {
          const std::uint64_t base = r + g0[i0] + g1[i1] + g2[i2];
          for (std::uint32_t i3 = 0; i3 < c[3]; ++i3) f(base + g3[i3]);
        }
  }

  const FV& v_;
  const dense_index& index_;
  const dense_options& o_;
  zeroed_table<V> g_;
  std::uint32_t floor_ = 0;
  std::uint64_t states_ = 0, pruned_ = 0, stopped_at_ = 0;
  rank_run late_;  ///< the successors of a state reached after its run was worked out (or raised past the floor)
  std::uint64_t reached_states_ = 1;  ///< entries ever reached (the initial state's included)
  std::uint32_t reached_ = 0;
};

template <class V, class FV>
exact_result run_dense(const problem& prob, const FV& v, const dense_index& index, const dense_options& options) {
  const auto start = clock_type::now();
  exact_result r;
  exact_detail::start_interval(prob, options, r);
  const std::uint32_t floor = exact_detail::at_most_floor(prob, options, r.lower);
  dense_pass<V, FV> pass(v, index, options, floor);
  const std::string stop = pass.run(start);
  r.states = pass.states();
  r.pruned = pass.pruned();
  if (!stop.empty()) {
    r.complete = false;
    r.stop_reason = stop;
    // The dropped states lie on no schedule longer than the floor.
    r.upper = std::max(
        {r.lower, floor,
         std::min(
             static_cast<std::uint32_t>(pessimistic_bound(prob)),
             pass.held_bound(start + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(
                                         step_deadline::finish_cutoff * options.time_limit_s))))});
    r.interrupted = interrupted();
  } else {
    if (pass.reached() > r.lower) {
      r.lower = pass.reached();
      r.best_string = pass.witness(r.lower);
    }
    exact_detail::settle_finished(r, floor, pass.reached());
  }
  r.elapsed_s = std::chrono::duration<double>(clock_type::now() - start).count();
  return r;
}

}  // namespace

dense_index::dense_index(std::uint32_t warps, std::uint32_t instructions) : warps_(warps), instructions_(instructions) {
  // C(n, k) for n < I + W + 1 and k <= W, saturating (only used when the total fits).
  const std::uint32_t n_max = instructions + warps + 1;
  binom_.assign(static_cast<std::size_t>(n_max) * (warps + 1), 0);
  for (std::uint32_t n = 0; n < n_max; ++n)
    for (std::uint32_t k = 0; k <= warps; ++k) {
      std::uint64_t c = 0;
      if (k == 0)
        c = 1;
      else if (n > 0) {
        const std::uint64_t x = choose(n - 1, k - 1), y = choose(n - 1, k);
        c = x > ~std::uint64_t{0} - y ? ~std::uint64_t{0} : x + y;
      }
      binom_[static_cast<std::size_t>(n) * (warps + 1) + k] = c;
    }
  size_ = choose(instructions + warps, warps);
  // D[k][i] = sum_{j=1..i} C(k + j - 1, j - 1): moving the warps at positions (i - x, i] from level k.
  delta_.assign(static_cast<std::size_t>(instructions + 1) * (warps + 1), 0);
  for (std::uint32_t k = 0; k <= instructions; ++k)
    for (std::uint32_t i = 1; i <= warps; ++i)
      delta_[k * (warps + 1) + i] = delta_[k * (warps + 1) + i - 1] + choose(k + i - 1, i - 1);
}

template <class L>
std::uint64_t dense_index::rank_of(packed_state key) const {
  // The key's least significant field is the highest level (a_W).
  constexpr std::uint32_t bits = 8 * sizeof(L);
  std::uint64_t rank = 0;
  for (std::uint32_t i = warps_; i >= 1; --i) {
    const std::uint32_t a = key_field<bits>(key, 0) - 1;
    key >>= bits;
    rank += choose(a + i - 1, i);
  }
  return rank;
}

template <class L>
void dense_index::unrank(std::uint64_t rank, L* a) const {
  // Position by position from the top: b_i is the largest b with C(b, i) <= what is left.
  std::uint32_t b = instructions_ + warps_;
  for (std::uint32_t i = warps_; i >= 1; --i) {
    while (b > 0 && choose(b, i) > rank) --b;
    rank -= choose(b, i);
    a[i - 1] = static_cast<L>(b - (i - 1));
  }
}

template <class L>
packed_state dense_index::pack(const L* a) const {
  return pack_levels<8 * sizeof(L)>(a, warps_);
}

template <class L>
bool dense_index::next(L* a) const {
  std::uint32_t i = 0;
  while (i + 1 < warps_ && a[i] == a[i + 1]) ++i;
  if (i + 1 == warps_ && a[i] == instructions_) return false;
  ++a[i];
  for (std::uint32_t j = 0; j < i; ++j) a[j] = 0;
  return true;
}

#define WARPSPAN_DENSE_INDEX(L)                                       \
  template std::uint64_t dense_index::rank_of<L>(packed_state) const; \
  template void dense_index::unrank<L>(std::uint64_t, L*) const;      \
  template packed_state dense_index::pack<L>(const L*) const;         \
  template bool dense_index::next<L>(L*) const;
WARPSPAN_DENSE_INDEX(std::uint8_t)
WARPSPAN_DENSE_INDEX(std::uint16_t)
#undef WARPSPAN_DENSE_INDEX

std::uint64_t dense_sweep_bytes(const problem& prob) {
  if (!frontier_packs(prob)) return 0;
  const dense_index index(prob.warps, static_cast<std::uint32_t>(prob.instructions()));
  if (index.size() == ~std::uint64_t{0}) return ~std::uint64_t{0};
  const std::uint64_t per = pessimistic_bound(prob) + 1 <= 0xFF ? 1 : 2;
  return index.size() > ~std::uint64_t{0} / per ? ~std::uint64_t{0} : index.size() * per;
}

exact_result exact_dense_cpu(const problem& prob, const dense_options& options) {
  exact_detail::check_packs(prob, false);
  if (pessimistic_bound(prob) + 1 > 0xFFFF)
    throw input_error("the dense sweep stores ways in of at most 65,534 cycles; this problem's bound is " +
                      std::to_string(pessimistic_bound(prob)));
  return exact_detail::with_checked_view(prob, options.wide_levels, [&](const auto& v) {
    const dense_index index(v.warps, v.instructions);
    if (pessimistic_bound(prob) + 1 <= 0xFF) return run_dense<std::uint8_t>(prob, v, index, options);
    return run_dense<std::uint16_t>(prob, v, index, options);
  });
}

}  // namespace warpspan

namespace warpspan {

dense_sum_tables build_dense_sum_tables(std::uint32_t warps, std::uint32_t instructions) {
  dense_sum_tables t;
  t.warps = warps;
  t.instructions = instructions;
  t.sums = warps * instructions + 1;
  const auto add = [](std::uint64_t x, std::uint64_t y) {
    return x > ~std::uint64_t{0} - y ? ~std::uint64_t{0} : x + y;
  };
  const dense_index index(warps, instructions);
  t.binom.assign(static_cast<std::size_t>(instructions + warps + 1) * (warps + 1), 0);
  for (std::uint32_t n = 0; n <= instructions + warps; ++n)
    for (std::uint32_t k = 0; k <= warps; ++k)
      t.binom[static_cast<std::size_t>(n) * (warps + 1) + k] = index.choose(n, k);
  const std::size_t per_w = static_cast<std::size_t>(instructions + 1) * t.sums;
  t.count.assign((warps + 1) * per_w, 0);
  for (std::uint32_t m = 0; m <= instructions; ++m) t.count[m * t.sums] = 1;  // no levels: sum 0 only
  for (std::uint32_t w = 1; w <= warps; ++w) {
    t.count[w * per_w] = 1;  // all at level 0: sum 0
    for (std::uint32_t m = 1; m <= instructions; ++m)
      for (std::uint32_t s = 0; s < t.sums; ++s) {
        // The largest level is below m, or it is m and the other w - 1 (at most m) sum to s - m.
        std::uint64_t c = t.count[w * per_w + (m - 1) * t.sums + s];
        if (s >= m) c = add(c, t.count[(w - 1) * per_w + m * t.sums + (s - m)]);
        t.count[w * per_w + m * t.sums + s] = c;
      }
  }
  return t;
}

}  // namespace warpspan

namespace warpspan::exact_detail {

void start_interval(const problem& prob, const sweep_common_options& options, exact_result& r) {
  if (!options.lower_string.empty()) {
    r.lower = build_schedule(prob, options.lower_string).makespan;
    r.best_string = options.lower_string;
  } else {
    fill_interval(prob, r);
  }
}

std::uint32_t at_most_floor(const problem& prob, const sweep_common_options& options, std::uint32_t lower) {
  const auto bound = static_cast<std::uint32_t>(std::min<std::uint64_t>(pessimistic_bound(prob), 0xFFFFFFFFu));
  const std::uint32_t floor = std::min(options.at_most, bound);
  return floor > lower ? floor : 0;
}

void settle_finished(exact_result& r, std::uint32_t floor, std::uint32_t reached) {
  if (floor > std::max(r.lower, reached)) {
    // Every schedule longer than the floor passes only through states the search expanded, and
    // none reached the end: the floor is proven, the exact value not worked out.
    r.complete = false;
    r.at_most_proven = true;
    r.upper = floor;
    r.stop_reason = "at most " + std::to_string(floor) +
                    " cycles proven: no schedule is longer (the states that could " + "lie on one were all searched)";
    if (reached > r.lower)
      r.stop_reason +=
          "; one of " + std::to_string(reached) + " cycles was met but cannot be shown (no table to trace it back)";
    return;
  }
  if (reached > r.lower) {  // the answer, with no table to show a schedule of that length
    r.complete = false;
    r.upper = reached;
    r.stop_reason = "no schedule of the answer's length could be traced back: the worst case is " +
                    std::to_string(reached) + " cycles, the longest schedule in hand " + std::to_string(r.lower);
    return;
  }
  r.complete = true;
  r.makespan = r.upper = r.lower;
}

template <class V>
std::vector<std::uint16_t> dense_witness(const V& v, const dense_index& index, std::uint32_t length,
                                         const std::function<std::uint32_t(std::uint64_t)>& entry) {
  return dense_witness(v, length, [&](packed_state key) { return entry(index.rank_of<typename V::level_type>(key)); });
}

template <class V>
std::vector<std::uint16_t> dense_witness(const V& v, std::uint32_t length,
                                         const std::function<std::uint32_t(packed_state)>& entry) {
  // From the final state back: a predecessor recorded one cycle shorter whose successors include
  // the current state.
  constexpr std::uint32_t bits = V::level_bits;
  std::vector<std::vector<std::uint8_t>> takes(length);
  packed_state cur = final_state(v);
  const std::uint32_t reach = most_issues(v);
  for (std::uint32_t t = length; t-- > 0;) {
    // The occupied levels of the current state, ascending, with their warps (O(W), whatever I).
    std::uint32_t level[frontier_max_warps], count[frontier_max_warps], back[frontier_max_warps] = {}, runs = 0;
    for (std::uint32_t j = v.warps; j-- > 0;) {
      const std::uint32_t k = key_field<bits>(cur, j) - 1;
      if (runs > 0 && level[runs - 1] == k) {
        ++count[runs - 1];
      } else {
        level[runs] = k;
        count[runs] = 1;
        ++runs;
      }
    }
    packed_state found = 0;
    // Depth-first over the occupied levels above 0 (ascending), moving back[i] warps of run i from
    // its level k to k - 1, at most `reach` warps in all.
    auto try_runs = [&](auto&& self, std::uint32_t i, std::uint32_t left, std::uint32_t moved) -> bool {
      if (i == runs) {
        if (moved == 0) return false;
        // The predecessor's levels, ascending: per run, the warps moved back below those staying.
        packed_state key = 0;
        for (std::uint32_t r = 0; r < runs; ++r) {
          for (std::uint32_t c = 0; c < back[r]; ++c) key = (key << bits) | level[r];  // level - 1, plus one
          for (std::uint32_t c = back[r]; c < count[r]; ++c) key = (key << bits) | (level[r] + 1);
        }
        if (entry(key) != t + 1) return false;
        if (!takes_between(v, key, cur, takes[t])) return false;
        found = key;
        return true;
      }
      if (level[i] == 0) return self(self, i + 1, left, moved);
      for (std::uint32_t y = 0; y <= std::min(left, count[i]); ++y) {
        back[i] = y;
        if (self(self, i + 1, left - y, moved + y)) return true;
      }
      back[i] = 0;
      return false;
    };
    if (!try_runs(try_runs, 0, reach, 0))
      throw std::logic_error("dense sweep: no predecessor found while backtracking the witness");
    cur = found;
  }
  return string_from_takes(v, std::move(takes));
}

#define WARPSPAN_DENSE_WITNESS(V)                                                                        \
  template std::vector<std::uint16_t> dense_witness(const V&, const dense_index&, std::uint32_t,         \
                                                    const std::function<std::uint32_t(std::uint64_t)>&); \
  template std::vector<std::uint16_t> dense_witness(const V&, std::uint32_t,                             \
                                                    const std::function<std::uint32_t(packed_state)>&);
WARPSPAN_DENSE_WITNESS(frontier_view)
WARPSPAN_DENSE_WITNESS(wide_frontier_view)
#undef WARPSPAN_DENSE_WITNESS

window_replay_plan plan_window_replay(const std::vector<std::uint64_t>& sum_bytes, std::uint32_t slot_count,
                                      std::uint64_t budget) {
  const auto sums = static_cast<std::uint32_t>(sum_bytes.size());
  std::vector<std::uint64_t> prefix(sums + 1, 0);
  for (std::uint32_t s = 0; s < sums; ++s) prefix[s + 1] = prefix[s] + sum_bytes[s];
  const auto between = [&](std::uint32_t a, std::uint32_t b) {
    return prefix[std::min(b, sums)] - prefix[std::min(a, sums)];
  };
  window_replay_plan best;
  for (std::uint32_t span = 1; span <= sums; ++span) {
    std::uint64_t checkpoints = 0, segment = 0;
    for (std::uint32_t c = 0; c < sums; c += span) {
      checkpoints += between(c, c + slot_count);
      segment = std::max(segment, between(c, c + span + slot_count));
    }
    const std::uint64_t bytes = checkpoints + segment;
    if (best.span == 0 || bytes < best.bytes) best = {span, bytes};
  }
  if (best.bytes > budget) best.span = 0;
  return best;
}

}  // namespace warpspan::exact_detail
