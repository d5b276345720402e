// The emulation's cache model (cache_model.hpp): a per-block L1 and an L2 measured at every size by
// LRU stack distance (a Fenwick tree over the access times marks each sector's latest access; the
// marks after a sector's own count the distinct sectors touched since).
#include "cache_model.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <mutex>
#include <unordered_map>

namespace warpspan::emu {
namespace {

/// The capacities in sectors, increasing.
const std::array<std::uint64_t, l2_capacities>& capacity_sectors() {
  static const std::array<std::uint64_t, l2_capacities> c = [] {
    std::array<std::uint64_t, l2_capacities> out{};
    for (std::size_t i = 0; i < l2_capacities; ++i)
      out[i] = static_cast<std::uint64_t>(std::llround(std::exp2(13.0 + static_cast<double>(i) / 8.0) / 32.0));
    return out;
  }();
  return c;
}

/// The histogram entry of a stack distance: the first capacity that holds it (the last entry: none).
std::size_t bin_of(std::uint64_t distance) {
  const auto& c = capacity_sectors();
  return static_cast<std::size_t>(std::upper_bound(c.begin(), c.end(), distance) - c.begin());
}

/// Entries of a histogram a cache of `bytes` does not hold.
std::uint64_t beyond(const std::array<std::uint64_t, l2_capacities + 1>& h, std::uint64_t bytes) {
  const auto& c = capacity_sectors();
  // The largest capacity <= bytes: k such that c[k] * 32 <= bytes; none: everything beyond.
  const std::size_t held = static_cast<std::size_t>(std::upper_bound(c.begin(), c.end(), bytes / 32) -
                                                    c.begin());  // entries [0, held) are held
  std::uint64_t n = 0;
  for (std::size_t i = held; i <= l2_capacities; ++i) n += h[i];
  return n;
}

}  // namespace

std::uint64_t l2_capacity(std::size_t i) { return capacity_sectors().at(i) * 32; }

std::uint64_t cache_counts::read_misses(std::uint64_t bytes) const { return beyond(reads, bytes); }
std::uint64_t cache_counts::writebacks(std::uint64_t bytes) const { return beyond(dirty, bytes); }

cache_counts& cache_counts::operator+=(const cache_counts& o) {
  l1_hit_sectors += o.l1_hit_sectors;
  l2_sectors += o.l2_sectors;
  l2_reads += o.l2_reads;
  for (std::size_t i = 0; i <= l2_capacities; ++i) {
    reads[i] += o.reads[i];
    dirty[i] += o.dirty[i];
  }
  return *this;
}

namespace caching {

struct l2_stack::state {
  struct entry {
    std::uint32_t last = 0;       ///< time of the latest access (1-based)
    std::uint32_t dirty_max = 0;  ///< the largest distance since the store that made it dirty
    std::uint32_t kernel = 0;     ///< who stored the dirty data
    bool dirty = false;
  };
  std::unordered_map<std::uint64_t, entry> sectors;
  std::vector<std::int32_t> tree;  ///< Fenwick tree over times 1..tree.size() - 1
  std::uint32_t now = 1;           ///< the next access's time

  void add(std::uint32_t t, std::int32_t v) {
    for (std::size_t i = t; i < tree.size(); i += i & (~i + 1)) tree[i] += v;
  }
  std::int64_t prefix(std::uint32_t t) const {
    std::int64_t s = 0;
    for (std::size_t i = t; i > 0; i -= i & (~i + 1)) s += tree[i];
    return s;
  }
  /// Renumbers the sectors' latest accesses 1..m in order and rebuilds the tree with room to spare.
  void compact() {
    std::vector<std::pair<std::uint32_t, entry*>> order;
    order.reserve(sectors.size());
    for (auto& [sector, e] : sectors) order.emplace_back(e.last, &e);
    std::sort(order.begin(), order.end(), [](const auto& x, const auto& y) { return x.first < y.first; });
    std::size_t size = std::max<std::size_t>(tree.size(), 1 << 16);
    while (size < 4 * order.size() + 2) size *= 2;
    tree.assign(size, 0);
    for (std::size_t i = 0; i < order.size(); ++i) {
      order[i].second->last = static_cast<std::uint32_t>(i + 1);
      tree[i + 1] = 1;
    }
    for (std::size_t i = 1; i < tree.size(); ++i) {  // linear Fenwick construction
      const std::size_t up = i + (i & (~i + 1));
      if (up < tree.size()) tree[up] += tree[i];
    }
    now = static_cast<std::uint32_t>(order.size() + 1);
  }
};

l2_stack::l2_stack() : s_(new state) { s_->compact(); }
l2_stack::~l2_stack() { delete s_; }

void l2_stack::clear() {
  s_->sectors.clear();
  s_->tree.clear();
  s_->compact();
}

void l2_stack::access(std::uint64_t sector, sector_use use, std::size_t kernel, std::vector<cache_counts>& counts) {
  state& s = *s_;
  if (s.now >= s.tree.size()) s.compact();
  if (counts.size() <= kernel) counts.resize(kernel + 1);
  const auto [it, fresh] = s.sectors.try_emplace(sector);
  state::entry& e = it->second;
  std::size_t bin = l2_capacities;  // a new sector: no cache holds it
  std::uint64_t distance = ~std::uint64_t{0};
  if (!fresh) {
    // Marked times after this sector's latest access: the distinct sectors touched since (every
    // sector but this one has its mark at its own latest access, and all are before `now`).
    distance = static_cast<std::uint64_t>(static_cast<std::int64_t>(s.sectors.size()) - s.prefix(e.last));
    bin = bin_of(distance);
    s.add(e.last, -1);
  }
  e.last = s.now++;
  s.add(e.last, 1);
  cache_counts& k = counts[kernel];
  ++k.l2_sectors;
  if (use != sector_use::store) {
    ++k.l2_reads;
    ++k.reads[bin];
  }
  if (e.dirty && !fresh)
    e.dirty_max =
        static_cast<std::uint32_t>(std::max<std::uint64_t>(e.dirty_max, std::min<std::uint64_t>(distance, ~0u)));
  if (use != sector_use::load) {
    if (e.dirty) ++counts[e.kernel].dirty[bin_of(e.dirty_max)];  // written back if the cache lost it since
    e.dirty = true;
    e.dirty_max = 0;
    e.kernel = static_cast<std::uint32_t>(kernel);
  }
}

std::vector<cache_counts> l2_stack::with_dirty_left(std::vector<cache_counts> counts) const {
  for (const auto& [sector, e] : s_->sectors) {
    if (!e.dirty) continue;
    if (counts.size() <= e.kernel) counts.resize(e.kernel + 1);
    ++counts[e.kernel].dirty[l2_capacities];
  }
  return counts;
}

void block_cache::begin(std::uint64_t block_index) {
  block = block_index;
  l1_hits = 0;
  to_l2.clear();
  l1.fill(way{});
  clock = 0;
}

void block_cache::request(const std::uint64_t* sectors, std::size_t n, sector_use use) {
  constexpr std::size_t ways = 4, sets = std::tuple_size_v<decltype(l1)> / ways;
  for (std::size_t i = 0; i < n; ++i) {
    const std::uint64_t sector = sectors[i];
    way* set = l1.data() + (sector % sets) * ways;
    way* found = nullptr;
    for (std::size_t w = 0; w < ways; ++w)
      if (set[w].tag == sector + 1) found = set + w;
    if (use == sector_use::load) {
      if (found) {
        found->used = ++clock;
        ++l1_hits;
        continue;
      }
      way* victim = set;
      for (std::size_t w = 1; w < ways; ++w)
        if (set[w].used < victim->used) victim = set + w;
      *victim = way{sector + 1, ++clock};
    } else if (found) {
      *found = way{};  // write-through, no allocation: the L1's copy is dropped
    }
    to_l2.push_back(sector << 2 | static_cast<std::uint64_t>(use));
  }
}

namespace {

struct model_state {
  std::mutex m;
  // The launch being counted: its blocks' sectors, by block index, and their L1 hits.
  std::vector<std::vector<std::uint64_t>> streams;
  std::uint64_t l1_hits = 0;
  // Every kernel counted since the last reset, numbered in order of first launch.
  std::map<std::string, std::size_t> numbers;
  std::vector<std::string> names;
  std::vector<cache_counts> counts;
  l2_stack l2;
};
model_state& model() {
  static model_state m;
  return m;
}

}  // namespace

void end_block(block_cache& b) {
  model_state& s = model();
  std::lock_guard<std::mutex> lock(s.m);
  if (s.streams.size() <= b.block) s.streams.resize(b.block + 1);
  s.streams[b.block].swap(b.to_l2);
  s.l1_hits += b.l1_hits;
}

void end_launch(const std::string& kernel) {
  model_state& s = model();
  std::lock_guard<std::mutex> lock(s.m);
  const auto [it, fresh] = s.numbers.try_emplace(kernel, s.names.size());
  if (fresh) s.names.push_back(kernel);
  const std::size_t k = it->second;
  if (s.counts.size() <= k) s.counts.resize(k + 1);
  s.counts[k].l1_hit_sectors += s.l1_hits;
  // One sector of each block in turn, in block order, as blocks side by side would send them.
  std::vector<std::size_t> live;
  for (std::size_t b = 0; b < s.streams.size(); ++b)
    if (!s.streams[b].empty()) live.push_back(b);
  for (std::size_t at = 0; !live.empty(); ++at) {
    std::size_t kept = 0;
    for (std::size_t b : live) {
      const std::vector<std::uint64_t>& stream = s.streams[b];
      s.l2.access(stream[at] >> 2, static_cast<sector_use>(stream[at] & 3), k, s.counts);
      if (at + 1 < stream.size()) live[kept++] = b;
    }
    live.resize(kept);
  }
  for (auto& stream : s.streams) stream.clear();
  s.l1_hits = 0;
}

void reset() {
  model_state& s = model();
  std::lock_guard<std::mutex> lock(s.m);
  s.streams.clear();
  s.l1_hits = 0;
  s.numbers.clear();
  s.names.clear();
  s.counts.clear();
  s.l2.clear();
}

}  // namespace caching

std::vector<cache_counts> cache_counts_of_kernels() {
  caching::model_state& s = caching::model();
  std::lock_guard<std::mutex> lock(s.m);
  std::vector<cache_counts> all = s.l2.with_dirty_left(s.counts);
  all.resize(s.names.size());
  std::vector<cache_counts> out;
  for (const auto& [name, k] : s.numbers) {
    cache_counts c = all[k];
    c.kernel = name;
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace warpspan::emu
