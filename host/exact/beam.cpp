// The beam search over the exact search's states (see beam.hpp).
#include "warpspan/exact/beam.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

namespace {

using clock_type = std::chrono::steady_clock;

/// A state reached at some progress sum: its longest way in found and where that came from.
struct candidate {
  packed_state key;  ///< 0: an empty slot (a real key's bytes are levels plus one)
  std::uint32_t way_in;
  std::uint32_t parent_sum;    ///< the parent's progress sum
  std::uint32_t parent_index;  ///< the parent's index among the states kept at that sum
};

/// The states reached at one progress sum, one entry each (open addressing, linear probing): of the
/// longest ways in, the one from the lowest parent sum and index is kept, whatever the order of
/// the offers, so the result depends neither on the table's layout nor on the threads.
class candidate_set {
 public:
  void offer(const candidate& c) {
    if (2 * (size_ + 1) > slots_.size()) grow();
    candidate* slot = find(c.key);
    if (slot->key == 0) {
      *slot = c;
      ++size_;
    } else if (c.way_in > slot->way_in || (c.way_in == slot->way_in && (c.parent_sum < slot->parent_sum ||
                                                                        (c.parent_sum == slot->parent_sum &&
                                                                         c.parent_index < slot->parent_index)))) {
      slot->way_in = c.way_in;
      slot->parent_sum = c.parent_sum;
      slot->parent_index = c.parent_index;
    }
  }
  /// Offers every state of `other` (another thread's successors of the same sums).
  void merge(const candidate_set& other) {
    for (const candidate& c : other.slots_)
      if (c.key != 0) offer(c);
  }
  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }
  const std::vector<candidate>& slots() const { return slots_; }
  void clear() {
    std::vector<candidate>().swap(slots_);
    size_ = 0;
  }

 private:
  static std::uint64_t hash(packed_state key) {
    const auto lo = static_cast<std::uint64_t>(key), hi = static_cast<std::uint64_t>(key >> 64);
    std::uint64_t h = (lo ^ (hi * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    return h ^ (h >> 31);
  }
  candidate* find(packed_state key) {
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = hash(key) & mask;; i = (i + 1) & mask)
      if (slots_[i].key == key || slots_[i].key == 0) return &slots_[i];
  }
  void grow() {
    std::vector<candidate> old(std::max<std::size_t>(64, 2 * slots_.size()), candidate{0, 0, 0, 0});
    old.swap(slots_);
    for (const candidate& c : old)
      if (c.key != 0) *find(c.key) = c;
  }
  std::vector<candidate> slots_;
  std::size_t size_ = 0;
};

struct kept_state {
  packed_state key;
  std::uint32_t way_in, parent_sum, parent_index;
  std::uint32_t high;  ///< way in + remaining_bound: the longest the state may still make it
  std::uint32_t low;   ///< way in + remaining_low: the least it will make
};

/// Cycles the state needs at least, by any schedule: its least advanced warp's instructions, and
/// each type's (and the scheduler limit's) instructions left over what one cycle can issue.
template <class V>
std::uint32_t remaining_low(const V& v, const level_runs_of<V>& runs) {
  std::uint32_t low = runs.n == 0 ? 0 : v.instructions - runs.level[0], left[max_types] = {}, all = 0;
  for (std::uint32_t i = 0; i < runs.n; ++i)
    for (std::uint32_t t = 0; t < v.ntypes; ++t) left[t] += runs.size[i] * std::uint32_t{v.rem[runs.level[i]][t]};
  for (std::uint32_t t = 0; t < v.ntypes; ++t) {
    low = std::max(low, (left[t] + v.cap[t] - 1) / v.cap[t]);
    all += left[t];
  }
  if (v.limit != 0) low = std::max(low, (all + v.limit - 1) / v.limit);
  return low;
}

/// The widest beam the memory holds: the kept states of every sum (for the witness) and, for the sums
/// in flight, the successors of a width's states (a few dozen each, at most 16 sums ahead, in hash
/// sets at most half full), within a quarter of the memory budget (at most 4 GiB).
std::uint32_t widest_beam(const problem& prob) {
  const std::uint64_t sums = std::uint64_t{prob.warps} * prob.instructions() + 1;
  const std::uint64_t per_width = sums * sizeof(kept_state) + 16 * 64 * 2 * sizeof(candidate);
  return static_cast<std::uint32_t>(
      std::clamp<std::uint64_t>(memory_budget_bytes(std::uint64_t{4} << 30) / per_width, 1, std::uint64_t{1} << 30));
}

/// How many states (multisets of W levels in [0, I]) each progress sum has, a cap on what a sum
/// can reach; empty when the table would cost more than the beam (then no cap is used).
std::vector<double> states_by_sum(std::uint32_t warps, std::uint32_t instructions) {
  const std::uint64_t sums = std::uint64_t{warps} * instructions + 1;
  if (std::uint64_t{instructions + 1} * warps * sums > 50'000'000) return {};
  // dp[w][s]: multisets of w levels among those taken so far with sum s; each level in turn may
  // hold any number of warps (counted as in coin change: one more warp at the level at a time).
  std::vector<double> dp((warps + 1) * sums, 0.0);
  dp[0] = 1;
  for (std::uint32_t level = 0; level <= instructions; ++level)
    for (std::uint32_t w = 1; w <= warps; ++w)
      for (std::uint64_t s = level; s < sums; ++s) dp[w * sums + s] += dp[(w - 1) * sums + s - level];
  return {dp.begin() + static_cast<std::ptrdiff_t>(warps * sums), dp.end()};
}

/// The widest width (1 to `most`) whose sums from `from` on, each at min(width, its states), cost at
/// most `seconds` at `per_state` seconds a kept state.
std::uint32_t fitted_width(const std::vector<double>& states, std::uint32_t from, std::uint32_t sums, double per_state,
                           double seconds, std::uint32_t most) {
  const auto cost = [&](double width) {
    double kept = 0;
    for (std::uint32_t s = from; s < sums; ++s) kept += states.empty() ? width : std::min(width, states[s]);
    return kept * per_state;
  };
  if (cost(most) <= seconds) return most;
  std::uint32_t lo = 1, hi = most;  // cost(hi) > seconds; lo fits or is the least there is
  while (hi - lo > 1) {
    const std::uint32_t mid = lo + (hi - lo) / 2;
    (cost(mid) <= seconds ? lo : hi) = mid;
  }
  return lo;
}

/// The beam over the states of view V (8-bit levels, or 16-bit past 254 instructions).
template <class V>
beam_result beam_of(const problem& prob, const V& v, const beam_options& options, clock_type::time_point start) {
  beam_result out;
  out.applicable = true;
  const std::uint32_t last = v.warps * v.instructions;  // the progress sum of "all done"
  // With two threads each expands half of a sum's kept states into its own sets, merged when their
  // sum comes; which parent a state keeps does not depend on the order of the offers, and the kept
  // states are put in key order, so the result does not depend on the thread count.
  const int threads = std::clamp(options.threads, 1, 2);
  std::vector<candidate_set> pending[2] = {std::vector<candidate_set>(last + 1),
                                           std::vector<candidate_set>(threads > 1 ? last + 1 : 0)};
  std::vector<std::vector<kept_state>> kept(last + 1);
  pending[0][0].offer({initial_state(v), 0, 0, 0});
  // A width beyond the memory is cut down to what it holds (the result says which width ran).
  const std::uint32_t full_width = std::clamp<std::uint32_t>(options.width, 1, widest_beam(prob));
  std::uint32_t width = full_width, narrowest = full_width;
  // fit_width: the seconds and kept states of the sums so far (all, and those cut to the width,
  // which also pay for bounding), and when the last sum with states began.
  const bool fit = options.fit_width && options.time_limit_s > 0;
  const std::vector<double> states = fit ? states_by_sum(v.warps, v.instructions) : std::vector<double>{};
  double all_s = 0, cut_s = 0, last_began = -1;
  std::uint64_t all_kept = 0, cut_kept = 0, last_kept = 0;
  bool last_cut = false;
  out.exact = true;
  // Ties go to the longer way in, then to the smaller key: the same states every run.
  const auto by_high = [](const kept_state& a, const kept_state& b) {
    if (a.high != b.high) return a.high > b.high;
    if (a.way_in != b.way_in) return a.way_in > b.way_in;
    return a.key < b.key;
  };
  const auto by_low = [](const kept_state& a, const kept_state& b) {
    if (a.low != b.low) return a.low > b.low;
    if (a.way_in != b.way_in) return a.way_in > b.way_in;
    return a.key < b.key;
  };
  // Each sum has two parallel steps, bounding the states reached (when there are more than the
  // width) and expanding those kept, split into chunks that the threads take as they come. The
  // thread that finishes a step's last chunk does the serial work before the next step (gathers
  // and chooses, or sorts) and publishes it. No thread waits for another to arrive, only for
  // chunks taken and not yet done, so on a loaded machine a thread that has lost its core holds
  // the others up by at most the chunk it had. (A barrier per step, both threads meeting, made a
  // width-256 beam of 0.09 s on the idle 2-core VM take 1.8-2.4 s while two compilers ran: each
  // step waited for the other thread's next time slice. A pool's hand-over per step was worse
  // still on an idle machine, 5-50 us each, as much as a narrow beam's step.)
  // Step 2 s bounds sum s, step 2 s + 1 expands it; a step with nothing to do is skipped.
  const std::uint32_t steps = 2 * (last + 1);
  constexpr std::uint32_t finished = ~std::uint32_t{0};
  constexpr std::uint32_t bound_chunk = 256, expand_chunk = 16;  // states per chunk
  std::atomic<std::uint64_t> ticket{0};                          // (step << 32) | next chunk to take
  // Each step's chunks and chunks done, written before its ticket is published and kept by step: a
  // thread holding a stale ticket of the step before (its CAS can still succeed until the new
  // ticket is stored) must not read the next step's count. With one `chunks` and one `done` for
  // all steps it did: it took a chunk past the old step's end, counted it done in the new step, and
  // the new step ended one chunk early, its last chunk still running while the next was prepared
  // ("a recorded parent does not lead to its state" in CI, 1 run in many, two threads).
  std::vector<std::uint32_t> chunks(steps, 0);
  std::vector<std::atomic<std::uint32_t>> done(steps);
  std::atomic<std::uint32_t> published{0};  // the step the threads work on, or `finished`
  std::atomic<std::uint32_t> sleepers{0};
  std::atomic<bool> failed{false};
  std::mutex error_mutex;
  std::exception_ptr error;
  const auto guarded = [&](auto&& work) {
    if (failed.load(std::memory_order_relaxed)) return;
    try {
      work();
    } catch (...) {
      const std::lock_guard<std::mutex> lock(error_mutex);
      if (!error) error = std::current_exception();
      failed = true;
    }
  };
  bool choose = false;  // of the sum being bounded: more states than the width
  // The serial work before step p (one thread at a time); the number of chunks of step p.
  const auto prepare = [&](std::uint32_t p) -> std::uint32_t {
    const std::uint32_t s = p / 2;
    std::vector<kept_state>& keep = kept[s];
    if (p % 2 == 0) {
      candidate_set& here = pending[0][s];
      if (threads > 1) {
        here.merge(pending[1][s]);
        pending[1][s].clear();
      }
      const double now = std::chrono::duration<double>(clock_type::now() - start).count();
      const bool out_of_time = options.time_limit_s > 0 && now > options.time_limit_s;
      if (fit && !here.empty() && !out_of_time) {
        if (last_began >= 0) {  // the last sum with states ran from then to now
          all_s += now - last_began;
          all_kept += last_kept;
          if (last_cut) {
            cut_s += now - last_began;
            cut_kept += last_kept;
          }
        }
        last_began = now;
        // Until the cost is measured on a few thousand states the width stays full (the first
        // sums reach few states). A sum not cut costs no bounds: twice its cost until one is.
        if (all_kept >= 2048) {
          const double per_state =
              cut_kept > 0 ? cut_s / static_cast<double>(cut_kept) : 2 * all_s / static_cast<double>(all_kept);
          width = fitted_width(states, s, last + 1, per_state, 0.9 * (options.time_limit_s - now), full_width);
        }
      }
      if (!here.empty() && width > 1 && (out_of_time || interrupted())) {
        width = 1;
        out.narrowed = true;
      }
      keep.reserve(here.size());
      for (const candidate& c : here.slots())
        if (c.key != 0) keep.push_back({c.key, c.way_in, c.parent_sum, c.parent_index, 0, 0});
      here.clear();
      choose = keep.size() > width;  // the bounds only order the states to choose from
      if (choose && fit && !out.narrowed) narrowest = std::min(narrowest, width);
      last_kept = std::min<std::uint64_t>(keep.size(), width);
      last_cut = choose;
      return choose ? static_cast<std::uint32_t>((keep.size() + bound_chunk - 1) / bound_chunk) : 0;
    }
    if (choose) {
      // The most promising by the upper bound, and by the lower bound among the rest: either
      // alone misses worst cases the other finds (issue 26, bench/results/archive/defaults/corpus_issue26c.md).
      out.exact = false;
      const double low_share = std::clamp(options.low_share, 0.0, 1.0);
      const auto by_bound = static_cast<std::uint32_t>(std::lround(width * (1 - low_share)));
      std::nth_element(keep.begin(), keep.begin() + by_bound, keep.end(), by_high);
      std::nth_element(keep.begin() + by_bound, keep.begin() + width, keep.end(), by_low);
      keep.resize(width);
      keep.shrink_to_fit();
    }
    std::sort(keep.begin(), keep.end(), [](const kept_state& a, const kept_state& b) { return a.key < b.key; });
    return static_cast<std::uint32_t>((keep.size() + expand_chunk - 1) / expand_chunk);
  };
  // Prepares the steps after `p` up to the first with work and publishes it (or the end).
  const auto advance = [&](std::uint32_t p) {
    std::uint32_t next = p, n = 0;
    while (n == 0 && !failed.load(std::memory_order_relaxed) && ++next < steps) guarded([&] { n = prepare(next); });
    if (failed.load(std::memory_order_relaxed) || next >= steps) next = finished;
    if (next != finished) chunks[next] = n;  // published by the ticket's release
    ticket.store(std::uint64_t{next} << 32, std::memory_order_release);
    published.store(next, std::memory_order_seq_cst);
    if (sleepers.load(std::memory_order_seq_cst) != 0) published.notify_all();
  };
  std::uint64_t expanded[2] = {};
  const auto run = [&](std::size_t t) {
    std::uint64_t expanded_here = 0;
    level_runs_of<V> runs;
    basic_successor_enum<V> e;
    const auto work = [&](std::uint32_t p, std::uint32_t c) {
      const std::uint32_t s = p / 2;
      std::vector<kept_state>& keep = kept[s];
      if (p % 2 == 0) {
        for (std::size_t i = std::size_t{c} * bound_chunk;
             i < std::min<std::size_t>(keep.size(), (c + 1) * std::size_t{bound_chunk}); ++i) {
          runs_of_key(v, keep[i].key, runs);
          keep[i].high = keep[i].way_in + remaining_bound(v, runs);
          keep[i].low = keep[i].way_in + remaining_low(v, runs);
        }
        return;
      }
      std::vector<candidate_set>& into = pending[t];
      const auto end =
          static_cast<std::uint32_t>(std::min<std::size_t>(keep.size(), (c + 1) * std::size_t{expand_chunk}));
      for (std::uint32_t i = c * expand_chunk; i < end; ++i) {
        if (!e.start(v, keep[i].key)) continue;  // all done
        ++expanded_here;
        do {
          std::uint32_t moved = 0;
          for (std::uint32_t j = 0; j < e.slots; ++j) moved += e.x[j];
          into[s + moved].offer({e.successor(v), keep[i].way_in + 1, s, i});
        } while (e.advance(v));
      }
    };
    for (;;) {
      const std::uint32_t p = published.load(std::memory_order_acquire);
      if (p == finished) break;
      // Take the step's chunks while there are any (a ticket of another step: it has moved on).
      for (std::uint64_t tk = ticket.load(std::memory_order_acquire);;) {
        if (tk >> 32 != p) break;
        const auto c = static_cast<std::uint32_t>(tk);
        const std::uint32_t n = chunks[p];  // written before the ticket of step p was stored
        if (c >= n) break;
        if (!ticket.compare_exchange_weak(tk, tk + 1, std::memory_order_acq_rel, std::memory_order_acquire)) continue;
        guarded([&] { work(p, c); });
        if (done[p].fetch_add(1, std::memory_order_acq_rel) + 1 == n) {
          advance(p);  // the last chunk of the step: on to the next
          break;
        }
        tk = ticket.load(std::memory_order_acquire);
      }
      // Wait until the step is no longer p: spin, yielding, for up to 200 us (a serial step takes
      // about that on a wide beam; waking from a sleep at every step made a narrow beam 30 % slower
      // on the idle VM), then sleep (the publisher wakes sleepers only when there are any;
      // seq_cst on both sides: either it sees the sleeper, or the sleeper's wait sees the new step).
      bool moved = false;
      const auto spin_until = clock_type::now() + std::chrono::microseconds(200);
      for (std::uint32_t spins = 0; !moved; ++spins) {
        moved = published.load(std::memory_order_acquire) != p;
        if (!moved && spins >= 1024) {
          if (spins % 64 == 0 && clock_type::now() > spin_until) break;
          std::this_thread::yield();
        }
      }
      if (!moved) {
        sleepers.fetch_add(1, std::memory_order_seq_cst);
        while (published.load(std::memory_order_seq_cst) == p) published.wait(p, std::memory_order_seq_cst);
        sleepers.fetch_sub(1, std::memory_order_relaxed);
      }
    }
    expanded[t] = expanded_here;
  };
  advance(~std::uint32_t{0});  // the first step with work (step 0 has one state: none to bound)
  if (threads > 1) {
    thread_pool pool(threads);
    pool.run(static_cast<std::size_t>(threads), run);
  } else {
    run(0);
  }
  if (error) std::rethrow_exception(error);
  out.expanded = expanded[0] + expanded[1];
  out.width = narrowest;
  if (kept[last].empty()) throw std::logic_error("beam search: the final state was not reached");
  // Back from "all done" through the recorded parents.
  const kept_state* cur = &kept[last][0];
  out.makespan = cur->way_in;
  std::vector<std::vector<std::uint8_t>> takes(out.makespan);
  for (std::uint32_t t = out.makespan; t-- > 0;) {
    const kept_state* parent = &kept[cur->parent_sum][cur->parent_index];
    if (!exact_detail::takes_between(v, parent->key, cur->key, takes[t]))
      throw std::logic_error("beam search: a recorded parent does not lead to its state");
    cur = parent;
  }
  out.string = exact_detail::string_from_takes(v, std::move(takes));
  const std::uint32_t built = build_schedule(prob, out.string).makespan;
  if (built != out.makespan)
    throw std::logic_error("beam search: the witness string builds " + std::to_string(built) + " cycles, not " +
                           std::to_string(out.makespan));
  out.exact = out.exact && !out.narrowed;
  out.elapsed_s = std::chrono::duration<double>(clock_type::now() - start).count();
  return out;
}

}  // namespace

beam_result beam_search(const problem& prob, const beam_options& options) {
  const auto start = clock_type::now();
  const bool forced =
      options.wide_levels && frontier_one_string(prob) && frontier_fits_wide(prob.warps, prob.instructions());
  if (forced || frontier_packs_wide(prob)) return beam_of(prob, make_wide_frontier_view(prob.view()), options, start);
  if (frontier_packs_narrow(prob)) return beam_of(prob, make_frontier_view(prob.view()), options, start);
  return {};
}

beam_result budget_beam(const problem& prob, double seconds, std::uint32_t max_width, int threads) {
  beam_options o;
  o.threads = threads;
  o.width = std::max<std::uint32_t>(max_width, 1);
  o.time_limit_s = seconds > 0 ? seconds : 1e-9;
  o.fit_width = true;
  return beam_search(prob, o);
}

}  // namespace warpspan
