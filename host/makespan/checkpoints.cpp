// Checkpointed rebuild of one CPU chain's schedule (checkpoints.hpp).
#include "warpspan/detail/makespan/checkpoints.hpp"

#include <algorithm>
#include <bit>

#include "warpspan/makespan/chains.hpp"

namespace warpspan {

namespace {

std::size_t usage_cells(const problem_view& p) { return static_cast<std::size_t>(p.horizon + 1) * p.stride; }

/// 64-bit words of one type's bitset of full cycles: cycles 0..horizon and one word to spare, so a
/// search that starts at or below the horizon never reads past the end.
std::size_t full_words(const problem_view& p) { return (p.horizon + 1 + 63) / 64 + 1; }

std::uint32_t checkpoint_count(const problem_view& p, std::uint32_t interval) {
  return (p.length + interval - 1) / interval;
}

}  // namespace

std::uint64_t checkpoint_bytes(const problem_view& p, std::uint32_t interval) {
  const std::uint64_t slot = sizeof(std::uint16_t) * usage_cells(p) + sizeof(std::uint64_t) * p.stride * full_words(p) +
                             sizeof(std::uint32_t) * 2 * std::uint64_t{p.warps};
  const std::uint64_t count = checkpoint_count(p, interval);
  // Plus the working bitsets, the last move's moved pairs (2 words a position), its difference
  // table and warp flags.
  return 2 * count * slot + count + sizeof(std::uint64_t) * p.stride * full_words(p) +
         2 * sizeof(std::uint32_t) * std::uint64_t{p.length} + sizeof(std::int16_t) * usage_cells(p) + p.warps;
}

std::uint32_t checkpoint_interval(const problem_view& p) {
  const std::uint64_t cap = std::max<std::uint64_t>(std::uint64_t{128} << 10, 8 * make_chain_layout(p).bytes);
  std::uint32_t interval = default_checkpoint_interval;
  while (interval < p.length && checkpoint_bytes(p, interval) > cap) interval *= 2;
  return interval;
}

chain_checkpoints::chain_checkpoints(const problem_view& p, std::uint32_t interval)
    : interval_(interval ? interval : checkpoint_interval(p)),
      count_(checkpoint_count(p, interval ? interval : checkpoint_interval(p))),
      warps_(p.warps),
      cells_(usage_cells(p)),
      words_(p.stride * full_words(p)),
      tables_(2 * std::size_t{count_} * cells_, 0),
      full_slots_(2 * std::size_t{count_} * words_, 0),
      counters_(2 * std::size_t{count_} * 2 * p.warps, 0),
      live_(count_, 0),
      moved_at_(p.length),
      moved_old_(p.length),
      full_(words_, 0),
      delta_(cells_, 0),
      warp_off_(p.warps, 0) {}

void chain_checkpoints::save(const chain_view& c, std::size_t slot) {
  std::copy_n(c.usage, cells_, tables_.data() + slot * cells_);
  std::copy_n(full_.data(), words_, full_slots_.data() + slot * words_);
  std::uint32_t* to = counters_.data() + slot * 2 * warps_;
  std::copy_n(c.progress, warps_, to);
  std::copy_n(c.last, warps_, to + warps_);
}

namespace {

/// One rebuild's arrays and problem fields as plain locals: through the problem_view reference the
/// compiler rereads every field after each store to a 16-bit array (they might alias), and the
/// scheduler limit's tests are compiled away where there is none, and so is the per-warp indexing
/// where all warps run one string.
template <bool Limited, bool PerWarp>
struct builder {
  std::uint16_t* usage;
  std::uint32_t* cycle;
  std::uint32_t* progress;
  std::uint32_t* last;
  const std::uint16_t* str;
  std::uint64_t* full;  // per type, `words` words: bit t set when cycle t has no room for the type
  const std::uint8_t* types;
  const std::uint32_t* starts;  // problem_view::starts (PerWarp only)
  std::size_t I, stride, words, all;
  std::uint16_t cap[max_types + 1];
  const problem_view& view;

  builder(const problem_view& p, const chain_view& c, std::uint64_t* full_cycles, std::size_t type_words)
      : usage(c.usage),
        cycle(c.cycle),
        progress(c.progress),
        last(c.last),
        str(c.str),
        full(full_cycles),
        types(p.types),
        starts(p.starts),
        I(p.instructions),
        stride(p.stride),
        words(type_words),
        all(p.ntypes),
        view(p) {
    std::copy_n(p.cap, max_types + 1, cap);
  }

  /// Where warp w's instructions begin in c.cycle.
  std::size_t begin(std::uint32_t w) const {
    if constexpr (PerWarp) return starts[w];
    return w * I;
  }
  /// The type of the instruction at c.cycle index `at`, warp w's j-th.
  std::size_t type(std::size_t at, std::uint32_t j) const {
    if constexpr (PerWarp) return types[at];
    return types[j];
  }

  /// Counts one more instruction of type ty in cycle t and marks the cycle full for the type (and
  /// for all types, with a scheduler limit) where it reaches the capacity.
  void note(std::uint32_t t, std::size_t ty) {
    // Shifts, not a conditional: whether a cycle fills is as good as random (a branch here was
    // mispredicted 36 times an iteration).
    const std::uint32_t bit = t & 63;
    const std::size_t at = t >> 6;
    std::uint16_t* row = usage + std::size_t{t} * stride;
    full[ty * words + at] |= std::uint64_t{++row[ty] >= cap[ty]} << bit;
    if constexpr (Limited) full[all * words + at] |= std::uint64_t{++row[all] >= cap[all]} << bit;
  }

  /// place() (schedule.hpp) with the search for a cycle with room done 64 cycles at a time on the
  /// bitsets: the same cycle, without a branch per full cycle passed (with sigma 1 and 16 warps a
  /// search passes many, and its exit was the step's most mispredicted branch).
  std::uint32_t place(std::uint32_t w) {
    const std::uint32_t j = progress[w];
    const std::size_t at = begin(w) + j;
    const std::size_t ty = type(at, j);
    std::uint32_t from = last[w] + 1;
    if (view.barrier != no_barrier && j != 0 && type(at - 1, j - 1) == view.barrier) {
      const struct {
        std::uint32_t* cycle;
        std::uint32_t* progress;
      } placed{cycle, progress};
      const std::uint32_t release = barrier_release(view, placed, w, j);
      if (release == no_schedule) return no_schedule;
      from = release + 1;
    }
    const std::uint64_t* own = full + ty * words;
    const std::uint64_t* any = Limited ? full + all * words : own;
    std::size_t word = from >> 6;
    std::uint64_t open = ~(own[word] | any[word]) & (~std::uint64_t{0} << (from & 63));
    while (open == 0) {
      ++word;
      open = ~(own[word] | any[word]);
    }
    const auto t = static_cast<std::uint32_t>(word * 64 + static_cast<std::size_t>(std::countr_zero(open)));
    note(t, ty);
    cycle[at] = t;
    last[w] = t;
    progress[w] = j + 1;
    return t;
  }

  /// Places positions [from, to) at their cycles in c.cycle, without searching.
  void replay(std::uint32_t from, std::uint32_t to) {
    for (std::uint32_t k = from; k < to; ++k) {
      const std::uint32_t w = str[k];
      const std::uint32_t j = progress[w]++;
      const std::size_t at = begin(w) + j;
      const std::uint32_t t = cycle[at];
      note(t, type(at, j));
      last[w] = t;
    }
  }
};

}  // namespace

void chain_checkpoints::capture(const problem_view& p, const chain_view& c) {
  reset_schedule(p, c);
  std::fill(full_.begin(), full_.end(), 0);
  std::fill(live_.begin(), live_.end(), 0);
  const auto take = [&](auto b) {
    for (std::uint32_t m = 0; m < count_; ++m) {
      save(c, 2 * std::size_t{m});
      b.replay(m * interval_, std::min(p.length, (m + 1) * interval_));
    }
  };
  if (p.starts) {
    if (p.limited)
      take(builder<true, true>(p, c, full_.data(), words_ / p.stride));
    else
      take(builder<false, true>(p, c, full_.data(), words_ / p.stride));
  } else if (p.limited) {
    take(builder<true, false>(p, c, full_.data(), words_ / p.stride));
  } else {
    take(builder<false, false>(p, c, full_.data(), words_ / p.stride));
  }
  first_ = end_ = 0;
}

std::uint32_t chain_checkpoints::candidate(const problem_view& p, const chain_view& c, std::uint32_t z,
                                           std::uint32_t settle, std::uint32_t old_makespan) {
  (void)old_makespan;
  if (p.starts)
    return p.limited ? candidate_as<true, true>(p, c, z, settle) : candidate_as<false, true>(p, c, z, settle);
  return p.limited ? candidate_as<true, false>(p, c, z, settle) : candidate_as<false, false>(p, c, z, settle);
}

template <bool Limited, bool PerWarp>
std::uint32_t chain_checkpoints::candidate_as(const problem_view& p, const chain_view& c, std::uint32_t z,
                                              std::uint32_t settle) {
  builder<Limited, PerWarp> b(p, c, full_.data(), words_ / p.stride);
  const std::uint32_t K = interval_;
  const std::uint32_t n = p.length;
  const std::uint32_t m0 = z / K;
  {
    const std::size_t slot = 2 * std::size_t{m0} + live_[m0];
    std::copy_n(tables_.data() + slot * cells_, cells_, c.usage);
    std::copy_n(full_slots_.data() + slot * words_, words_, full_.data());
    const std::uint32_t* from = counters_.data() + slot * 2 * warps_;
    std::copy_n(from, warps_, c.progress);
    std::copy_n(from + warps_, warps_, c.last);
  }
  // Positions before z did not change: their placements are the old ones, replayed unsearched.
  b.replay(m0 * K, z);

  // From `settle` on, the prefix placed holds the same (warp, instruction) pairs as the old
  // string's prefix of the same length. The builder's state is the usage table and every warp's
  // last cycle (progress follows from the pairs), so once the pairs that moved cancel out in the
  // table (per cell as many arrive as leave) and no warp's last placed pair moved, the state equals
  // the old one, and so does the rest of the schedule (bench/results/archive/annealing/anneal_issue26_reconverge.patch
  // measured this test with a short list of cells, which overflowed in 30 % of the moves; here the
  // differences are a table of their own, so the test is exact at every position).
  std::int16_t* const delta = delta_.data();
  std::uint8_t* const warp_off = warp_off_.data();
  std::uint32_t* const moved_at = moved_at_.data();
  std::uint32_t* const moved_old = moved_old_.data();
  std::uint32_t cells_off = 0;
  std::uint32_t warps_off = 0;
  const auto shift = [&](std::size_t cell, std::int16_t by) {
    const std::int16_t was = delta[cell];
    const std::int16_t now = static_cast<std::int16_t>(was + by);
    delta[cell] = now;
    cells_off += (now != 0) - (was != 0);
  };

  std::uint32_t moved = 0;
  bool barrier_moved = false;
  std::uint32_t next = (m0 + 1) * K;  // the next checkpoint's position
  std::uint32_t k = z;
  for (; k < n; ++k) {
    if (k == next) {
      save(c, 2 * std::size_t{k / K} + (live_[k / K] ^ 1u));
      next += K;
    }
    const std::uint32_t w = b.str[k];
    const std::uint32_t j = b.progress[w];
    const std::size_t at = b.begin(w) + j;
    const std::uint32_t before = b.cycle[at];
    const std::uint32_t t = b.place(w);
    if (t == no_schedule) {  // the string breaks a barrier: the old schedule back, no candidate
      for (std::uint32_t q = 0; q < moved; ++q) b.cycle[moved_at[q]] = moved_old[q];
      std::fill(delta_.begin(), delta_.end(), std::int16_t{0});
      std::fill(warp_off_.begin(), warp_off_.end(), std::uint8_t{0});
      placed_ += k + 1 - z;
      first_ = end_ = 0;
      moves_ = 0;
      return no_schedule;
    }
    if (t != before) {
      // A barrier issued in another cycle changes when its block goes on, which the table and the
      // last cycles do not show: no rejoin after that (kernels with barriers only).
      const std::size_t ty = b.type(at, j);
      barrier_moved = barrier_moved || ty == p.barrier;
      moved_at[moved] = static_cast<std::uint32_t>(at);
      moved_old[moved] = before;
      ++moved;
      warps_off += 1u - warp_off[w];
      warp_off[w] = 1;
      shift(std::size_t{t} * b.stride + ty, 1);
      shift(std::size_t{before} * b.stride + ty, -1);
      if constexpr (Limited) {
        shift(std::size_t{t} * b.stride + b.all, 1);
        shift(std::size_t{before} * b.stride + b.all, -1);
      }
    } else {
      warps_off -= warp_off[w];
      warp_off[w] = 0;
    }
    if (k >= settle && cells_off == 0 && warps_off == 0 && !barrier_moved) break;
  }
  placed_ += (k < n ? k + 1 : n) - z;
  // Back to clear for the next move (a rebuild that ran to the end without rejoining): clearing
  // the whole table is a few vector stores, cheaper than finding the cells the moved pairs touched.
  if (cells_off != 0 || warps_off != 0) {
    std::fill(delta_.begin(), delta_.end(), std::int16_t{0});
    std::fill(warp_off_.begin(), warp_off_.end(), std::uint8_t{0});
  }
  first_ = m0 + 1;
  end_ = std::min(next / K, count_);
  moves_ = moved;

  return last_makespan(p, c);
}

void chain_checkpoints::accepted() {
  for (std::uint32_t m = first_; m < end_; ++m) live_[m] ^= 1u;
}

void chain_checkpoints::rejected(const problem_view& p, const chain_view& c, std::uint32_t z) {
  (void)p;
  (void)z;
  for (std::uint32_t q = 0; q < moves_; ++q) c.cycle[moved_at_[q]] = moved_old_[q];
}

}  // namespace warpspan
