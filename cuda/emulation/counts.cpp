// The emulation's memory-request counter: what a profiler's memory counters say on a device
// (global sectors per request, shared-memory bank conflicts, atomics), for the CPU emulation build.
// Off by default; set_counting(true) or WARPSPAN_EMU_COUNTS=1 turns it on (the latter also prints
// every kernel's counts to stderr at exit). It sees the same traced loads and stores as the race
// checker (racecheck.cpp's callbacks pass them on with their return address, which names the load
// or store instruction: the "site").
//
// Warp requests. On a device the 32 lanes of a warp (threads 32w .. 32w + 31 of a block) execute a
// load or store instruction together, and the memory system serves that one request with as many
// 32-byte sectors (global memory) or wavefronts (shared memory) as the lanes' addresses need. In
// the emulation the lanes run one after another, so a request is rebuilt from its parts: the
// accesses of the lanes of one warp, in one barrier interval, at one site, for the k-th time in the
// lane (the k-th time since the lane last passed a reconvergence point: warp_reconverge(), which the
// annealing loop calls once per iteration, so that lanes whose iterations took different paths line
// up again at the next iteration, as a device's warp reconverges). Lanes that never reach a site
// are inactive in its requests; divergent code whose lanes pass a site different numbers of times
// between reconvergence points is matched by count, which is what a loop with a per-lane trip count
// does on a device.
//
// Per request: global memory: the distinct 32-byte sectors the lanes' bytes fall in, beside the
// ideal (the distinct bytes packed into whole sectors: 4 for 32 lanes reading 4 neighbouring bytes
// each, 1 for a broadcast); shared memory (32 banks of 4 bytes): the wavefronts, the most distinct
// 4-byte words any one bank must deliver (lanes reading the same word share it: a broadcast is no
// conflict), beside the ideal (the distinct words over 32); atomics: the lanes, and the most lanes
// on one address (the device serialises those). Accesses outside the block's shared memory and the
// device allocations (the stack: registers on a device; Thrust's host-side memory) are not counted.
//
// Each completed global request's distinct sectors go on to the cache model (cache_model.hpp): the
// block's L1, then the L2 at every size.
//
// Requests are complete when every lane of the warp has run the interval: with the ascending or
// descending thread order (warps run lane after lane, one warp after another) they are finished
// when the next warp starts, so memory stays at one warp's interval; in a random order at the end
// of each interval.
#include "counts.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <mutex>
#include <unordered_map>
#include <vector>

#include "cache_model.hpp"
#include "cuda_runtime.h"

namespace warpspan::emu {
namespace counting {
namespace {

std::atomic<bool> enabled{false};

using totals = request_counts;

struct launch_state {
  std::string kernel;
  race::ranges device;
  std::uintptr_t low = 0, high = 0;
  std::mutex m;
  totals t;
};
launch_state launch;

std::mutex kernels_mutex;
std::map<std::string, kernel_counts>& kernels() {
  static std::map<std::string, kernel_counts> k;
  return k;
}

struct lane_access {
  std::uintptr_t address;
  std::uint32_t bytes;
};

struct request {
  access_kind kind;
  bool shared;
  std::vector<lane_access> lanes;
};

struct request_key {
  std::uintptr_t site;
  std::uint32_t warp, epoch, k;
  access_kind kind;
  bool operator==(const request_key& o) const {
    return site == o.site && warp == o.warp && epoch == o.epoch && k == o.k && kind == o.kind;
  }
};
struct key_hash {
  std::size_t operator()(const request_key& r) const noexcept {
    std::uint64_t h = r.site * 0x9E3779B97F4A7C15ull;
    h ^= (std::uint64_t{r.warp} << 48 ^ std::uint64_t{r.epoch} << 24 ^ r.k ^ static_cast<std::uint64_t>(r.kind) << 62) *
         0xBF58476D1CE4E5B9ull;
    return static_cast<std::size_t>(h ^ (h >> 29));
  }
};
struct site_key {
  std::uintptr_t site;
  access_kind kind;
  bool operator==(const site_key& o) const { return site == o.site && kind == o.kind; }
};
struct site_hash {
  std::size_t operator()(const site_key& s) const noexcept {
    return static_cast<std::size_t>((s.site ^ static_cast<std::uintptr_t>(s.kind)) * 0x9E3779B97F4A7C15ull >> 7);
  }
};

}  // namespace

struct block_counter {
  std::uintptr_t shared = 0;
  std::size_t shared_bytes = 0;
  bool contiguous = true;
  // The lane now running (linear index and barrier count), its reconvergence epoch and how often it
  // passed each site in that epoch.
  unsigned lane = ~0u, lane_phase = ~0u;
  std::uint32_t epoch = 0;
  std::unordered_map<site_key, std::uint32_t, site_hash> passes;
  // The requests being assembled: of warp `group_warp` (contiguous orders) in interval `group_phase`.
  unsigned group_warp = ~0u, group_phase = ~0u;
  std::unordered_map<request_key, std::uint32_t, key_hash> index;
  std::vector<request> requests;
  std::size_t used = 0;  // requests[0, used) are live (the vectors are kept for reuse)
  // The block's critical path: per barrier interval, the load requests (shared, global) of the warp
  // that issued the most of them in it.
  std::vector<std::pair<std::uint32_t, std::uint32_t>> path;
  totals t;
  caching::block_cache cache;  // the block's L1 and what it sends on to the L2 (cache_model.hpp)
};

constinit thread_local block_counter* tls_counter = nullptr;

namespace {

thread_local block_counter tls_storage;

bool device_range(std::uintptr_t a) {
  if (a < launch.low || a >= launch.high) return false;
  auto it = std::upper_bound(launch.device.begin(), launch.device.end(), a,
                             [](std::uintptr_t x, const auto& r) { return x < r.first; });
  if (it == launch.device.begin()) return false;
  --it;
  return a < it->second;
}

/// Merged length of the lanes' byte ranges (sorted by address).
std::uint64_t distinct_bytes(std::vector<lane_access>& lanes) {
  std::sort(lanes.begin(), lanes.end(),
            [](const lane_access& x, const lane_access& y) { return x.address < y.address; });
  std::uint64_t total = 0;
  std::uintptr_t end = 0;
  for (const lane_access& l : lanes) {
    const std::uintptr_t b = std::max(l.address, end), e = l.address + l.bytes;
    if (e > b) total += e - b;
    end = std::max(end, e);
  }
  return total;
}

/// The distinct 32-byte sectors the lanes' bytes fall in, sorted, into `out`.
void distinct_sectors(const std::vector<lane_access>& lanes, std::vector<std::uint64_t>& out) {
  out.clear();
  for (const lane_access& l : lanes)
    for (std::uintptr_t s = l.address >> 5; s <= (l.address + l.bytes - 1) >> 5; ++s) out.push_back(s);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
}

void finish(block_counter& c, request& r) {
  totals& t = c.t;
  if (r.kind == access_kind::atomic) {
    ++t.atomic_requests;
    t.atomics += r.lanes.size();
    std::sort(r.lanes.begin(), r.lanes.end(),
              [](const lane_access& x, const lane_access& y) { return x.address < y.address; });
    std::uint64_t most = 0, run = 0;
    for (std::size_t i = 0; i < r.lanes.size(); ++i) {
      run = i > 0 && r.lanes[i].address == r.lanes[i - 1].address ? run + 1 : 1;
      most = std::max(most, run);
    }
    t.atomic_serialised += most;
    if (!r.shared) {
      thread_local std::vector<std::uint64_t> sectors;
      distinct_sectors(r.lanes, sectors);
      c.cache.request(sectors.data(), sectors.size(), caching::sector_use::atomic);
    }
    return;
  }
  thread_local std::vector<std::uint64_t> units;
  units.clear();
  if (r.shared) {
    ++t.shared_requests;
    t.shared_accesses += r.lanes.size();
    for (const lane_access& l : r.lanes)
      for (std::uintptr_t w = (l.address - c.shared) >> 2; w <= (l.address - c.shared + l.bytes - 1) >> 2; ++w)
        units.push_back(w);
    std::sort(units.begin(), units.end());
    units.erase(std::unique(units.begin(), units.end()), units.end());
    unsigned per_bank[32] = {};
    unsigned most = 0;
    for (std::uint64_t w : units) most = std::max(most, ++per_bank[w & 31]);
    const std::uint64_t ideal = (units.size() + 31) / 32;
    t.shared_wavefronts += most;
    t.shared_ideal_wavefronts += ideal;
    if (most > ideal) ++t.shared_conflicted_requests;
    return;
  }
  ++t.global_requests;
  (r.kind == access_kind::load ? t.global_load_requests : t.global_store_requests) += 1;
  t.global_accesses += r.lanes.size();
  for (const lane_access& l : r.lanes) t.global_bytes += l.bytes;
  distinct_sectors(r.lanes, units);
  const auto sectors = static_cast<std::uint64_t>(units.size());
  t.global_sectors += sectors;
  if (r.kind == access_kind::store) t.global_store_sectors += sectors;
  c.cache.request(units.data(), sectors,
                  r.kind == access_kind::store ? caching::sector_use::store : caching::sector_use::load);
  t.global_ideal_sectors += (distinct_bytes(r.lanes) + 31) / 32;
}

void flush(block_counter& c) {
  if (c.used > 0) {  // the interval's loads by warp, for the critical path
    thread_local std::vector<std::pair<std::uint32_t, std::uint32_t>> by_warp;
    by_warp.clear();
    for (const auto& [key, at] : c.index) {
      if (key.kind != access_kind::load) continue;
      if (by_warp.size() <= key.warp) by_warp.resize(key.warp + 1);
      (c.requests[at].shared ? by_warp[key.warp].first : by_warp[key.warp].second) += 1;
    }
    if (c.path.size() <= c.group_phase) c.path.resize(c.group_phase + 1);
    auto& most = c.path[c.group_phase];
    for (const auto& w : by_warp)
      if (w.first + w.second > most.first + most.second) most = w;
  }
  for (std::size_t i = 0; i < c.used; ++i) finish(c, c.requests[i]);
  c.used = 0;
  c.index.clear();
}

/// Brings the counter to the calling emulated thread: a new lane starts its passes afresh, and a new
/// warp (contiguous orders) or interval completes the requests assembled so far.
void follow(block_counter& c) {
  const thread_context& me = current();
  if (me.linear == c.lane && me.phase == c.lane_phase) return;
  c.lane = me.linear;
  c.lane_phase = me.phase;
  c.epoch = 0;
  c.passes.clear();
  const unsigned warp = me.linear / 32;
  if (me.phase != c.group_phase || (c.contiguous && warp != c.group_warp)) {
    flush(c);
    c.group_phase = me.phase;
    c.group_warp = warp;
  }
}

}  // namespace

void begin_launch(const char* kernel, race::ranges device) {
  launch.kernel = kernel;
  launch.device = std::move(device);
  launch.low = launch.device.empty() ? 0 : launch.device.front().first;
  launch.high = 0;
  for (const auto& r : launch.device) launch.high = std::max(launch.high, r.second);
  launch.t = totals{};
}

void end_launch() {
  std::lock_guard<std::mutex> lock(kernels_mutex);
  kernel_counts& k = kernels()[launch.kernel];
  k.kernel = launch.kernel;
  ++k.launches;
  k += launch.t;
  launch.device.clear();
  caching::end_launch(launch.kernel);
}

void begin_block(const unsigned char* shared, std::size_t bytes, unsigned threads, bool warps_contiguous,
                 std::size_t block_index) {
  block_counter& c = tls_storage;
  c.cache.begin(block_index);
  c.shared = reinterpret_cast<std::uintptr_t>(shared);
  c.shared_bytes = shared ? bytes : 0;
  c.contiguous = warps_contiguous;
  c.lane = c.lane_phase = c.group_warp = c.group_phase = ~0u;
  c.epoch = 0;
  c.passes.clear();
  c.index.clear();
  c.used = 0;
  c.path.clear();
  c.t = totals{};
  c.t.blocks = 1;
  c.t.threads = threads;
  c.t.dynamic_shared = bytes;
  tls_counter = &c;
}

void end_block() {
  block_counter* c = tls_counter;
  if (c == nullptr) return;
  flush(*c);
  for (const auto& [sh, gl] : c->path) {
    c->t.path_shared_loads += sh;
    c->t.path_global_loads += gl;
  }
  c->t.path_intervals += c->path.size();
  caching::end_block(c->cache);
  tls_counter = nullptr;
  std::lock_guard<std::mutex> lock(launch.m);
  launch.t += c->t;
}

void access(const void* address, std::size_t bytes, access_kind kind, const void* site) noexcept {
  block_counter& c = *tls_counter;
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  const bool shared = a - c.shared < c.shared_bytes;
  if (!shared && !device_range(a)) return;
  follow(c);
  const auto s = reinterpret_cast<std::uintptr_t>(site);
  const std::uint32_t k = ++c.passes[site_key{s, kind}];
  const request_key key{s, c.lane / 32, c.epoch, k, kind};
  const auto [it, fresh] = c.index.try_emplace(key, static_cast<std::uint32_t>(c.used));
  if (fresh) {
    if (c.used == c.requests.size()) c.requests.emplace_back();
    request& r = c.requests[c.used++];
    r.kind = kind;
    r.shared = shared;
    r.lanes.clear();
  }
  c.requests[it->second].lanes.push_back(lane_access{a, static_cast<std::uint32_t>(bytes)});
}

}  // namespace counting

void set_counting(bool on) { counting::enabled = on; }
bool counting_on() { return counting::enabled.load(std::memory_order_relaxed); }

std::vector<kernel_counts> counts() {
  std::lock_guard<std::mutex> lock(counting::kernels_mutex);
  std::vector<kernel_counts> out;
  for (const auto& [name, k] : counting::kernels()) out.push_back(k);
  return out;
}

void reset_counts() {
  std::lock_guard<std::mutex> lock(counting::kernels_mutex);
  counting::kernels().clear();
  caching::reset();
}

namespace counting {
void collective(unsigned lane) noexcept {
  if (tls_counter != nullptr && lane % 32 == 0) ++tls_counter->t.collectives;
}
}  // namespace counting

void warp_reconverge() noexcept {
  counting::block_counter* c = counting::tls_counter;
  if (c == nullptr) return;
  counting::follow(*c);
  ++c->epoch;
  c->passes.clear();
}

std::string counts_table() {
  std::string out =
      "kernel\tlaunches\tglobal requests\tsectors\tsectors/request\tideal sectors/request\tshared requests\t"
      "wavefronts/request\tconflicted requests\tatomics\tatomic requests\tmost lanes on one address\n";
  char line[512];
  for (const kernel_counts& k : counts()) {
    const double gr = static_cast<double>(std::max<std::uint64_t>(1, k.global_requests));
    const double sr = static_cast<double>(std::max<std::uint64_t>(1, k.shared_requests));
    std::snprintf(line, sizeof line, "%s\t%llu\t%llu\t%llu\t%.2f\t%.2f\t%llu\t%.2f\t%llu\t%llu\t%llu\t%llu\n",
                  k.kernel.c_str(), static_cast<unsigned long long>(k.launches),
                  static_cast<unsigned long long>(k.global_requests), static_cast<unsigned long long>(k.global_sectors),
                  static_cast<double>(k.global_sectors) / gr, static_cast<double>(k.global_ideal_sectors) / gr,
                  static_cast<unsigned long long>(k.shared_requests), static_cast<double>(k.shared_wavefronts) / sr,
                  static_cast<unsigned long long>(k.shared_conflicted_requests),
                  static_cast<unsigned long long>(k.atomics), static_cast<unsigned long long>(k.atomic_requests),
                  static_cast<unsigned long long>(k.atomic_serialised));
    out += line;
  }
  return out;
}

}  // namespace warpspan::emu
