// The progress sweep across ranks (see sweep_ranks.hpp): a sweep_pass whose tables hold only
// this rank's states. Every exchange goes through rank_group's collectives (MPI's in host/mpi/,
// threads in the tests), so this file is built, and tested, in every build. Per progress sum: expand the states held here, send every successor to the
// rank owning it (merged per owner and sum first; one alltoall carrying all the sums it reaches),
// insert what arrives, and agree in one allgather on the counts, the stop and the states kept for
// the witness.
#include <algorithm>
#include <chrono>
#include <cstring>
#include <memory>
#include <type_traits>

#include <unistd.h>

#include "warpspan/core/interrupt.hpp"
#include "warpspan/detail/core/step_deadline.hpp"
#include "warpspan/exact/frontier.hpp"
#include "warpspan/detail/exact/frontier_host.hpp"
#include "warpspan/detail/exact/packed_table.hpp"
#include "warpspan/detail/exact/sweep_host.hpp"
#include "warpspan/exact/sweep_ranks.hpp"

namespace warpspan {
namespace {

using clock_type = std::chrono::steady_clock;
using exact_detail::sweep_entry;

/// The rank that owns `key` (a multiplicative hash of both halves).
int owner_of(packed_state key, int ranks) {
  const std::uint64_t h =
      (static_cast<std::uint64_t>(key) ^ static_cast<std::uint64_t>(key >> 64)) * 0xD6E8FEB86659FD93ull;
  return static_cast<int>((h >> 32) % static_cast<std::uint64_t>(ranks));
}

/// A successor on the wire: key, way in, and how far ahead its sum lies.
struct wire_entry {
  packed_state key;
  std::uint16_t way_in;
  std::uint8_t ahead;
};
constexpr std::size_t wire_bytes = sizeof(packed_state) + sizeof(std::uint16_t) + sizeof(std::uint8_t);

void put(std::string& out, packed_state key, std::uint16_t way_in, std::uint8_t ahead) {
  char buf[wire_bytes];
  std::memcpy(buf, &key, sizeof key);
  std::memcpy(buf + sizeof key, &way_in, sizeof way_in);
  buf[sizeof key + sizeof way_in] = static_cast<char>(ahead);
  out.append(buf, wire_bytes);
}

wire_entry get(const char* p) {
  wire_entry e{};
  std::memcpy(&e.key, p, sizeof e.key);
  std::memcpy(&e.way_in, p + sizeof e.key, sizeof e.way_in);
  e.ahead = static_cast<std::uint8_t>(p[sizeof e.key + sizeof e.way_in]);
  return e;
}

/// What the ranks agree on after each sum.
struct sum_state {
  std::uint64_t taken = 0, pruned = 0, bytes = 0;
  std::uint32_t reached = 0;
  std::uint8_t stop_memory = 0, stop_interrupt = 0;
  double elapsed = 0;   ///< seconds into the run (rank 0's decides)
  double finish_s = 0;  ///< the bound over the held states after a stop, predicted (rank 0's decides)
};

/// Memory for this rank's tables: half the machine's, shared by the ranks on this machine.
std::uint64_t memory_share(const rank_group& ranks) {
  const long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGE_SIZE);
  const std::uint64_t physical = pages > 0 && size > 0
                                     ? static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(size)
                                     : (std::uint64_t{8} << 30);
  return physical / 2 / static_cast<std::uint64_t>(std::max(ranks.local_size(), 1));
}

template <class V>
class ranks_sweep final : public exact_detail::basic_sweep_pass<V> {
  using base = exact_detail::basic_sweep_pass<V>;
  using base::v_, base::last_sum_, base::reach_, base::floor_, base::keeping_, base::states_, base::pruned_,
      base::reached_, base::stop_, base::taken_;

 public:
  ranks_sweep(const V& v, const sweep_options& o, rank_group& g, std::uint64_t memory_limit, std::uint32_t floor_value,
              std::uint64_t keep_limit)
      : base(v, o, floor_value, keep_limit), o_(o), g_(g), memory_limit_(memory_limit) {
    window_.assign(reach_ + 1, packed_table(16));
  }

  /// The largest way in plus bound over the states every rank still holds.
  std::uint32_t held_bound() const override {
    std::uint32_t upper = 0;
    for (const packed_table& table : window_)
      table.for_each([&](packed_state key, std::uint16_t way_in) {
        upper = std::max(upper, exact_detail::held_bound(v_, key, way_in));
      });
    for (const auto& part : g_.allgather(to_bytes(upper))) upper = std::max(upper, from_bytes<std::uint32_t>(part));
    return upper;
  }

 private:
  using step_report = typename base::step_report;

  void begin() override {
    const packed_state init = initial_state(v_);
    if (owner_of(init, g_.size()) == g_.rank()) window_[0].insert_max(init, 0);
    taken_.assign(last_sum_ + 1, exact_detail::taken_states{});
  }

  /// One sum on every rank: this rank's states expanded, the successors sent to their owners, and
  /// one agreement (counts, the stop's inputs with rank 0's clock, the states kept for the witness).
  step_report step(std::uint32_t sum, clock_type::time_point start) override {
    const int ranks = g_.size(), me = g_.rank();
    std::vector<sweep_entry> here;
    packed_table& table = window_[sum % (reach_ + 1)];
    table.for_each([&](packed_state key, std::uint16_t way_in) { here.push_back({key, way_in}); });
    table.reset(16);
    sum_state mine;
    mine.taken = here.size();
    // The cost of bounding one held state, timed once, for the stop.
    if (o_.time_limit_s > 0 && bound_s_per_state_ < 0) bound_s_per_state_ = exact_detail::time_held_bound(v_, here);
    // Expand this rank's states. A successor this rank owns goes straight into its table; the
    // others are first merged per owner and sum (a state has many ways in: merging them here
    // keeps only the longest, and cuts what is sent several times over).
    std::vector<std::vector<packed_table>> outbox(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
      if (r != me) outbox[static_cast<std::size_t>(r)].assign(reach_ + 1, packed_table(16));
    std::string kept;
    for (const sweep_entry& p : here) {
      basic_successor_enum<V> e;
      if (!e.start(v_, p.key)) {  // the final state
        mine.reached = p.way_in;
        continue;
      }
      if (o_.prune && p.way_in + remaining_bound(v_, p.key) <= floor_) {
        ++mine.pruned;
        continue;
      }
      if (keeping_) put(kept, p.key, p.way_in, 0);
      do {
        std::uint32_t issues = 0;
        for (std::uint32_t u = 0; u < v_.ntypes; ++u) issues += e.quota[u];
        const packed_state next = e.successor(v_);
        const int owner = owner_of(next, ranks);
        const auto way_in = static_cast<std::uint16_t>(p.way_in + 1);
        if (owner == me)
          window_[(sum + issues) % (reach_ + 1)].insert_max(next, way_in);
        else
          outbox[static_cast<std::size_t>(owner)][issues].insert_max(next, way_in);
      } while (e.advance(v_));
    }
    std::vector<std::string> out(static_cast<std::size_t>(ranks));
    for (int r = 0; r < ranks; ++r)
      for (std::uint32_t ahead = 1; r != me && ahead <= reach_; ++ahead) {
        std::string& to = out[static_cast<std::size_t>(r)];
        outbox[static_cast<std::size_t>(r)][ahead].for_each(
            [&](packed_state key, std::uint16_t way_in) { put(to, key, way_in, static_cast<std::uint8_t>(ahead)); });
      }
    outbox.clear();
    for (const std::string& part : g_.alltoall(out))
      for (std::size_t i = 0; i + wire_bytes <= part.size(); i += wire_bytes) {
        const wire_entry w = get(part.data() + i);
        window_[(sum + w.ahead) % (reach_ + 1)].insert_max(w.key, w.way_in);
      }
    std::uint64_t held = 0;
    for (const packed_table& t : window_) {
      mine.bytes += t.bytes();
      held += t.size();
    }
    mine.elapsed = std::chrono::duration<double>(clock_type::now() - start).count();
    mine.stop_memory = mine.bytes > memory_limit_;
    // The time limit covers the bound over the held states after the stop (held_bound), as in the
    // threads' sweep; rank 0's clock and prediction decide (the ranks hold about equal shares).
    mine.finish_s = std::max(bound_s_per_state_, 0.0) * static_cast<double>(held);
    mine.stop_interrupt = interrupted();
    return agree(sum, mine, kept);
  }

  /// One agreement of every rank after a sum: the counts summed, the stops of any rank, rank 0's
  /// clock and prediction, and the states kept for the witness (kept here alike on every rank).
  step_report agree(std::uint32_t sum, const sum_state& mine, const std::string& kept) {
    const auto all = g_.allgather(to_bytes(mine) + kept);
    sum_state agreed = from_bytes<sum_state>(all[0].substr(0, sizeof(sum_state)));
    agreed.taken = agreed.pruned = 0;
    std::vector<sweep_entry> expanded;
    for (const std::string& part : all) {
      const auto s = from_bytes<sum_state>(part.substr(0, sizeof(sum_state)));
      agreed.taken += s.taken;
      agreed.pruned += s.pruned;
      agreed.reached = std::max(agreed.reached, s.reached);
      agreed.stop_memory |= s.stop_memory;
      agreed.stop_interrupt |= s.stop_interrupt;
      for (std::size_t i = sizeof(sum_state); i + wire_bytes <= part.size(); i += wire_bytes) {
        const wire_entry w = get(part.data() + i);
        expanded.push_back({w.key, w.way_in});
      }
    }
    states_ += agreed.taken;
    pruned_ += agreed.pruned;
    reached_ = std::max(reached_, agreed.reached);
    if (keeping_) this->keep(sum, expanded);
    step_report r;
    r.elapsed = agreed.elapsed;
    r.finish_s = agreed.finish_s;
    if (agreed.stop_memory) r.limit = "memory limit (half the machine's memory) reached";
    r.interrupt = agreed.stop_interrupt != 0;
    return r;
  }

  const sweep_options& o_;
  rank_group& g_;
  double bound_s_per_state_ = -1;  ///< the time of one held_bound call, timed once (-1: not yet)
  std::uint64_t memory_limit_;
  std::vector<packed_table> window_;  ///< [sum % (reach + 1)]: this rank's states of that sum
};

}  // namespace

exact_result exact_sweep_ranks(const problem& prob, const sweep_options& options, rank_group& ranks) {
  if (ranks.size() == 1) return exact_sweep_cpu(prob, options);
  const std::uint64_t memory = memory_share(ranks);
  return exact_detail::with_checked_view(prob, options.wide_levels, [&](const auto& v) {
    using view = std::decay_t<decltype(v)>;
    return exact_detail::run_sweeps(
        prob, v, options,
        [&](std::uint32_t floor_value,
            std::uint64_t keep_limit) -> std::unique_ptr<exact_detail::basic_sweep_pass<view>> {
          return std::make_unique<ranks_sweep<view>>(v, options, ranks, memory, floor_value, keep_limit);
        });
  });
}

}  // namespace warpspan
