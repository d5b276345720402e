// The exact search as a sweep over total progress (see exact_sweep_cpu in search.hpp).
//
// A cycle moves a state to a successor by a non-empty issue set, so the sum of the warps' progress
// rises by the number of issues (1 .. the most one cycle can issue). Taking the states in order of
// that sum visits each once, after all its predecessors: the longest way in is final when the state
// is taken. Only the sums still to come within one cycle's reach are held, as hash tables; the
// states taken are kept, per sum, to backtrack a witness.
#include <algorithm>
#include <chrono>
#include <memory>
#include <numeric>
#include <type_traits>

#include <unistd.h>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/detail/core/step_deadline.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/detail/exact/packed_table.hpp"
#include "warpspan/exact/search.hpp"
#include "warpspan/detail/exact/sweep_host.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {
namespace {

using clock_type = std::chrono::steady_clock;

using exact_detail::sweep_entry;
using pending = sweep_entry;  ///< a successor on its way to the tables

std::uint32_t shard_of(packed_state key, std::uint32_t shards) {
  const std::uint64_t h =
      (static_cast<std::uint64_t>(key) ^ static_cast<std::uint64_t>(key >> 64)) * 0x9E3779B97F4A7C15ull;
  return static_cast<std::uint32_t>((h >> 40) % shards);
}

std::uint64_t physical_memory_bytes() {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  return pages > 0 && size > 0 ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size)
                               : (std::uint64_t{8} << 30);
}

/// One pass of the CPU sweep over sharded hash tables (see exact_sweep_cpu in search.hpp).
template <class V>
class sweep final : public exact_detail::basic_sweep_pass<V> {
  using base = exact_detail::basic_sweep_pass<V>;
  using base::v_, base::last_sum_, base::reach_, base::floor_, base::keeping_, base::states_, base::pruned_,
      base::reached_, base::stop_, base::taken_;

 public:
  sweep(const V& v, const sweep_options& o, std::uint32_t floor_value, std::uint64_t keep_limit)
      : base(v, o, floor_value, keep_limit),
        o_(o),
        threads_(static_cast<std::uint32_t>(resolve_threads(o.threads, "threads"))),
        pool_(static_cast<int>(threads_)) {
    window_.assign(reach_ + 1, std::vector<packed_table>(threads_, packed_table(16)));
    memory_limit_ = physical_memory_bytes() / 2;
  }

  /// On all threads: thread t bounds shard t of every held sum and a slice of the unexpanded.
  std::uint32_t held_bound() const override {
    std::vector<std::uint32_t> upper(threads_, 0);
    pool_.run(threads_, [&](std::size_t t) {
      for (const auto& shards : window_)
        shards[t].for_each([&](packed_state key, std::uint16_t way_in) {
          upper[t] = std::max(upper[t], exact_detail::held_bound(v_, key, way_in));
        });
      for (std::size_t i = t; i < unexpanded_.size(); i += threads_)
        upper[t] = std::max(upper[t], exact_detail::held_bound(v_, unexpanded_[i].key, unexpanded_[i].way_in));
    });
    return *std::max_element(upper.begin(), upper.end());
  }

 private:
  using step_report = typename base::step_report;

  void begin() override {
    const packed_state init = initial_state(v_);
    window_[0][shard_of(init, threads_)].insert_max(init, 0);
    taken_.assign(last_sum_ + 1, exact_detail::taken_states{});
  }

  step_report step(std::uint32_t sum, clock_type::time_point start) override {
    std::vector<pending> here;
    for (packed_table& shard : window_[sum % (reach_ + 1)]) {
      shard.for_each([&](packed_state key, std::uint16_t way_in) { here.push_back({key, way_in}); });
      shard.reset(16);
    }
    states_ += here.size();
    // The cost of bounding one held state, timed once, for the stop.
    if (o_.time_limit_s > 0 && bound_s_per_state_ < 0) bound_s_per_state_ = exact_detail::time_held_bound(v_, here);
    expand(sum, here);
    if (keeping_) this->keep(sum, expanded_);
    expanded_.clear();
    std::uint64_t bytes = 0, held = 0;
    for (const auto& shards : window_)
      for (const packed_table& t : shards) {
        bytes += t.bytes();
        held += t.size();
      }
    step_report r;
    r.elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
    // The time limit covers the bound over the held states after the stop. The bound runs on all
    // threads but scans sparse tables: on 2 threads it took as long as the sample's rate on one
    // predicts (Voronoi W = 16: 0.150 s for 1.0 M states at 1.5e-7 s each).
    r.finish_s = std::max(bound_s_per_state_, 0.0) * static_cast<double>(held);
    if (bytes > memory_limit_) r.limit = "memory limit (half the machine's memory) reached";
    r.interrupt = interrupted();
    return r;
  }

  /// Expands the states of one sum in rounds: threads expand slices into their own buffers (one
  /// per target sum and shard), then each thread merges its shard from every buffer. A sum can take
  /// many seconds, so an interrupt is heeded between rounds: the states not yet expanded go to
  /// unexpanded_, still held for the proven upper bound (those expanded are covered by their
  /// successors, already merged into the window).
  void expand(std::uint32_t sum, const std::vector<pending>& here) {
    const std::size_t round = std::size_t{1} << 12;  // states per thread per round
    const std::uint32_t nthreads = here.size() >= 2 * round ? threads_ : 1;
    std::vector<std::vector<std::vector<pending>>> out(nthreads,
                                                       std::vector<std::vector<pending>>((reach_ + 1) * threads_));
    std::vector<std::vector<pending>> kept(nthreads);
    std::vector<std::uint64_t> pruned(nthreads, 0);
    std::vector<std::uint32_t> reached(nthreads, 0);
    for (std::size_t begin = 0; begin < here.size(); begin += round * nthreads) {
      if (begin > 0 && interrupted()) {
        unexpanded_.assign(here.begin() + static_cast<std::ptrdiff_t>(begin), here.end());
        break;
      }
      auto produce = [&](std::uint32_t t) {
        const std::size_t lo = begin + t * round, hi = std::min(here.size(), lo + round);
        for (std::size_t i = lo; i < hi; ++i) {
          const pending& p = here[i];
          basic_successor_enum<V> e;
          if (!e.start(v_, p.key)) {  // the final state
            reached[t] = p.way_in;
            continue;
          }
          if (o_.prune && p.way_in + remaining_bound(v_, p.key) <= floor_) {
            ++pruned[t];
            continue;
          }
          if (keeping_) kept[t].push_back(p);
          do {
            std::uint32_t issues = 0;
            for (std::uint32_t u = 0; u < v_.ntypes; ++u) issues += e.quota[u];
            const packed_state next = e.successor(v_);
            out[t][(issues % (reach_ + 1)) * threads_ + shard_of(next, threads_)].push_back(
                {next, static_cast<std::uint16_t>(p.way_in + 1)});
          } while (e.advance(v_));
        }
      };
      auto merge = [&](std::uint32_t shard) {
        for (std::uint32_t j = 1; j <= reach_; ++j) {
          packed_table& table = window_[(sum + j) % (reach_ + 1)][shard];
          for (std::uint32_t t = 0; t < nthreads; ++t) {
            std::vector<pending>& buffer = out[t][(j % (reach_ + 1)) * threads_ + shard];
            constexpr std::size_t ahead = 8;  // the inserts miss the cache: fetch a few slots early
            for (std::size_t i = 0; i < buffer.size(); ++i) {
              if (i + ahead < buffer.size()) table.prefetch(buffer[i + ahead].key);
              table.insert_max(buffer[i].key, buffer[i].way_in);
            }
            buffer.clear();
          }
        }
      };
      pool_.run(nthreads, [&](std::size_t t) { produce(static_cast<std::uint32_t>(t)); });
      pool_.run(nthreads == 1 ? 1 : threads_, [&](std::size_t t) {
        if (nthreads == 1)
          for (std::uint32_t shard = 0; shard < threads_; ++shard) merge(shard);
        else
          merge(static_cast<std::uint32_t>(t));
      });
    }
    for (std::uint32_t t = 0; t < nthreads; ++t) {
      pruned_ += pruned[t];
      reached_ = std::max(reached_, reached[t]);
      expanded_.insert(expanded_.end(), kept[t].begin(), kept[t].end());
    }
  }

  const sweep_options& o_;
  std::uint32_t threads_ = 1;  ///< shards, and items per parallel step
  /// Workers kept for the whole pass: a sum's rounds are a few thousand states each, and creating
  /// threads every round cost more than some rounds' work.
  mutable thread_pool pool_;
  std::vector<std::vector<packed_table>> window_;  // [sum % (reach + 1)][shard]
  std::vector<pending> expanded_;
  std::vector<pending> unexpanded_;  ///< states of the last sum left when interrupted in the middle
  std::uint64_t memory_limit_ = 0;
  double bound_s_per_state_ = -1;  ///< the time of one held_bound call, timed once (-1: not yet)
};

}  // namespace

exact_result exact_sweep_cpu(const problem& prob, const sweep_options& options) {
  return exact_detail::with_checked_view(prob, options.wide_levels, [&](const auto& v) {
    using view = std::decay_t<decltype(v)>;
    return exact_detail::run_sweeps(
        prob, v, options,
        [&](std::uint32_t floor_value,
            std::uint64_t keep_limit) -> std::unique_ptr<exact_detail::basic_sweep_pass<view>> {
          return std::make_unique<sweep<view>>(v, options, floor_value, keep_limit);
        });
  });
}

namespace exact_detail {

template <class V>
std::uint32_t most_issues(const V& v) {
  std::uint32_t most = 0;
  for (std::uint32_t t = 0; t < v.ntypes; ++t) most += std::min<std::uint32_t>(v.cap[t], v.warps);
  if (v.limit != 0) most = std::min(most, v.limit);
  return std::min(most, v.warps);
}

template <class V>
std::vector<std::uint16_t> sweep_witness(const V& v, const std::vector<taken_states>& taken, std::uint32_t reach,
                                         std::uint32_t length) {
  std::vector<std::vector<std::uint8_t>> takes(length);
  packed_state cur = final_state(v);
  std::uint32_t sum = v.warps * v.instructions;
  for (std::uint32_t t = length; t-- > 0;) {
    bool found = false;
    for (std::uint32_t j = 1; j <= reach && j <= sum && !found; ++j) {
      const taken_states& at = taken[sum - j];
      for (std::size_t i = 0; i < at.keys.size() && !found; ++i)
        if (at.way_in[i] == t && takes_between(v, at.keys[i], cur, takes[t])) {
          cur = at.keys[i];
          sum -= j;
          found = true;
        }
    }
    if (!found) throw std::logic_error("progress sweep: no predecessor found while backtracking the witness");
  }
  return string_from_takes(v, std::move(takes));
}

namespace {

template <class V>
exact_result run_sweeps_of(const problem& prob, const V& v, const sweep_options& options,
                           const basic_sweep_factory<V>& make) {
  const auto start = std::chrono::steady_clock::now();
  // States are kept for a witness only in case the sweep beats the lower string. Given a string
  // (the warm start's annealing, or the caller's), it usually is the answer already (the annealing
  // found T(8) to T(11) in every seed we tried), so the first pass keeps nothing and
  // a second, tighter-pruned pass finds a witness in the rare case it is beaten; without one, the
  // standard strings are usually beaten, and keeping up to 100 million states saves that pass.
  const std::uint64_t keep_limit = options.witness_states         ? options.witness_states
                                   : options.lower_string.empty() ? std::uint64_t{100'000'000}
                                                                  : 0;
  exact_result r;
  // The lower bound to beat, with the string that attains it.
  if (!options.lower_string.empty()) {
    r.lower = build_schedule(prob, options.lower_string).makespan;
    r.best_string = options.lower_string;
  } else {
    fill_interval(prob, r);
  }
  // Pruned against the lower string, or against options.at_most when that asks about a higher value.
  const std::uint32_t at_most = at_most_floor(prob, options, r.lower);
  const std::uint32_t floor = std::max(options.prune ? r.lower : 0u, at_most);
  const std::unique_ptr<basic_sweep_pass<V>> first = make(floor, keep_limit);
  first->run(start);
  r.states = first->states();
  r.pruned = first->pruned();
  if (first->stopped()) {
    // Every path to completion passes through a held state (or a pruned one, which cannot beat
    // the floor): the largest way in plus bound over them is a proven upper bound.
    r.complete = false;
    r.stop_reason = first->stop_reason();
    r.upper = std::max(
        {r.lower, at_most, std::min(static_cast<std::uint32_t>(pessimistic_bound(prob)), first->held_bound())});
  } else {
    if (first->reached() > r.lower) {
      if (first->kept_all()) {
        r.lower = first->reached();
        r.best_string = sweep_witness(v, first->taken(), first->reach(), r.lower);
      } else {
        // Pruned no less than the first pass, so that it finds the same longest schedule.
        const std::unique_ptr<basic_sweep_pass<V>> second =
            make(std::max(floor, first->reached() - 1), ~std::uint64_t{0});
        second->run(start);
        if (second->stopped()) {
          // A limit or an interrupt in the second pass: the first proved the answer, only its
          // witness is missing. The answer stays as the upper end, the best string known as the lower.
          r.complete = false;
          r.stop_reason = second->stop_reason() + " while sweeping again for the witness";
          r.upper = std::max(first->reached(), at_most);
          r.interrupted = interrupted();
          r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
          return r;
        }
        if (second->reached() != first->reached())
          throw std::logic_error("progress sweep: the second pass did not find the answer again");
        r.lower = first->reached();
        r.best_string = sweep_witness(v, second->taken(), second->reach(), r.lower);
      }
    }
    settle_finished(r, at_most, first->reached());
  }
  r.interrupted = !r.complete && interrupted();
  r.elapsed_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return r;
}

}  // namespace

exact_result run_sweeps(const problem& prob, const frontier_view& v, const sweep_options& options,
                        const sweep_factory& make) {
  return run_sweeps_of(prob, v, options, make);
}

exact_result run_sweeps(const problem& prob, const wide_frontier_view& v, const sweep_options& options,
                        const basic_sweep_factory<wide_frontier_view>& make) {
  return run_sweeps_of(prob, v, options, make);
}

template <class V>
std::uint32_t held_bound(const V& v, packed_state key, std::uint32_t way_in) {
  return way_in + remaining_bound(v, key);
}

template <class V>
double time_held_bound(const V& v, const std::vector<sweep_entry>& states) {
  constexpr std::size_t sample = 4096;
  if (states.size() < sample) return -1;
  const auto t0 = std::chrono::steady_clock::now();
  [[maybe_unused]] volatile std::uint32_t sink = 0;  // the calls are for their time only
  for (std::size_t i = 0; i < sample; ++i) sink = held_bound(v, states[i].key, states[i].way_in);
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() / sample;
}

#define WARPSPAN_SWEEP_HELPERS(V)                                                                              \
  template std::uint32_t most_issues(const V&);                                                                \
  template std::vector<std::uint16_t> sweep_witness(const V&, const std::vector<taken_states>&, std::uint32_t, \
                                                    std::uint32_t);                                            \
  template std::uint32_t held_bound(const V&, packed_state, std::uint32_t);                                    \
  template double time_held_bound(const V&, const std::vector<sweep_entry>&);
WARPSPAN_SWEEP_HELPERS(frontier_view)
WARPSPAN_SWEEP_HELPERS(wide_frontier_view)
#undef WARPSPAN_SWEEP_HELPERS

}  // namespace exact_detail

}  // namespace warpspan
