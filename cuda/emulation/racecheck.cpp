// The emulation's race checker: what `compute-sanitizer --tool racecheck` does on a device, for the
// CPU emulation build. The kernels' translation units are compiled with clang's load and store
// tracing (-fsanitize-coverage=trace-loads,trace-stores: CMakeLists.txt), so every load and store
// they make calls __sanitizer_cov_load<N> / __sanitizer_cov_store<N> below with its address; this
// file and runtime.cpp are not traced. While a block runs, an access that falls in the block's
// shared memory or in a device allocation updates a shadow record per byte: which thread last wrote
// it, in which barrier interval (the thread's count of barriers), whether atomically, and which
// threads read it in that interval. Two threads touching a byte in the same interval, at least one
// writing and not both atomically, is a race (two plain writes only if their values differ: see
// same_value_check); a read of shared memory no thread of the block wrote
// in the launch is reported too. Shared memory has a flat shadow (the launch's size times 20
// bytes); device memory a hash table per block, a slot per 8-byte word, that forgets everything at
// each barrier (only the current interval matters for device memory). Blocks are not checked against each other (as
// racecheck, which checks shared memory only). What the tracing cannot see: accesses through
// memcpy/memset and copies of large structs (compiled as memcpy), and memory outside tracked
// allocations (Thrust's CPP-system vectors, the stack).
#include "racecheck.hpp"

#include "counts.hpp"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <mutex>

#include "cuda_runtime.h"

namespace warpspan::emu::race {
namespace {

constexpr std::uint16_t nobody = 0xFFFF;

/// What a byte saw in the current interval (phases count from 1; 0: never).
struct cell {
  std::uint32_t write_phase = 0, read_phase = 0;
  std::uint16_t writer = nobody, writer2 = nobody;  // writer2: another atomic writer of the interval
  std::uint16_t reader = nobody, reader2 = nobody;  // the first two distinct readers of the interval
  bool atomic = false;                              // every write of the interval was atomic
};

/// The cells of one aligned 8-byte word of device memory: an access of up to 8 bytes looks up one
/// slot, not one per byte (the lookups were most of the race checker's time).
struct device_slot {
  std::uintptr_t word = 0;       // address / 8
  std::uint32_t generation = 0;  // the slot is empty unless this is the table's generation
  cell c[8];
};

/// Two plain writes of one byte in one interval: a race unless the second wrote what the first did
/// (Rodinia's BFS sets a node's cost and a "changed" flag from several threads, all to one value).
/// The byte holds the first writer's value when the second writes; the interval's end compares.
struct same_value_check {
  const unsigned char* byte;
  unsigned char first;
  bool shared;
  std::uintptr_t offset;
  std::uint16_t writer, other;
  std::uint32_t phase;
};

struct block_shadow {
  std::vector<same_value_check> pending;
  std::uint32_t pending_phase = 0;
  std::uintptr_t shared = 0;
  std::size_t shared_bytes = 0;
  std::vector<cell> shared_cells;
  std::vector<device_slot> slots;  // open addressing, a power of two
  std::size_t used = 0;
  std::uint32_t generation = 1, phase = 0;  // the table holds the accesses of interval `phase`
};

struct launch_state {
  std::atomic<std::uint64_t> id{0};  // counts launches, for device_offset's cache
  const char* kernel = "kernel";
  ranges device;
  std::uintptr_t low = 0, high = 0;  // the span of all device ranges
  std::atomic<bool> found{false};
  std::mutex m;
  std::string first;
};
launch_state launch;  // one launch at a time (the executor serialises them)

constinit thread_local block_shadow* tls_shadow = nullptr;
thread_local block_shadow tls_storage;

enum class kind { read, write, atomic };

/// The allocation an OS thread's last device access of this launch fell in: most accesses fall in
/// the one before them.
struct range_cache {
  std::uint64_t launch = ~std::uint64_t{0};
  std::uintptr_t first = 0, end = 0;
};
thread_local range_cache tls_range;

/// The offset of `a` in its device allocation, or false when `a` is in none.
bool device_offset(std::uintptr_t a, std::uintptr_t& offset) {
  const std::uint64_t id = launch.id.load(std::memory_order_relaxed);
  if (tls_range.launch == id && a >= tls_range.first && a < tls_range.end) {
    offset = a - tls_range.first;
    return true;
  }
  if (a < launch.low || a >= launch.high) return false;
  auto it = std::upper_bound(launch.device.begin(), launch.device.end(), a,
                             [](std::uintptr_t x, const auto& r) { return x < r.first; });
  if (it == launch.device.begin()) return false;
  --it;
  if (a >= it->second) return false;
  tls_range = {id, it->first, it->second};
  offset = a - it->first;
  return true;
}

/// The cells of the 8-byte word `word` (an address / 8) in this interval's table.
device_slot& device_word(block_shadow& s, std::uintptr_t word, std::uint32_t phase) {
  if (phase != s.phase) {  // a barrier passed: the previous interval's accesses are ordered before
    s.phase = phase;
    ++s.generation;
    s.used = 0;
  }
  if (2 * (s.used + 1) > s.slots.size()) {  // grow, keeping this interval's slots
    std::vector<device_slot> old(std::max<std::size_t>(1024, 2 * s.slots.size()));
    old.swap(s.slots);
    s.used = 0;
    for (const device_slot& o : old) {
      if (o.generation != s.generation) continue;
      std::size_t k = (o.word * 0x9E3779B97F4A7C15ull) >> 20 & (s.slots.size() - 1);
      while (s.slots[k].generation == s.generation) k = (k + 1) & (s.slots.size() - 1);
      s.slots[k] = o;
      ++s.used;
    }
  }
  std::size_t k = (word * 0x9E3779B97F4A7C15ull) >> 20 & (s.slots.size() - 1);
  for (;; k = (k + 1) & (s.slots.size() - 1)) {
    device_slot& slot = s.slots[k];
    if (slot.generation != s.generation) {
      slot.word = word;
      slot.generation = s.generation;
      for (cell& c : slot.c) c = cell{};
      ++s.used;
      return slot;
    }
    if (slot.word == word) return slot;
  }
}

std::string where_of(bool shared, std::uintptr_t offset) {
  return std::string(shared ? "shared memory at offset " : "device memory at offset ") + std::to_string(offset) +
         (shared ? "" : " of its allocation");
}

void report_here(const std::string& what) { report(what, current().block_idx); }

void found(bool shared, std::uintptr_t offset, std::uint16_t thread, const char* verb, std::uint16_t other,
           const char* other_verb, std::uint32_t phase) {
  if (launch.found.load(std::memory_order_relaxed)) return;
  const dim3 block = current().block_dim;
  report_here("thread " + thread_name(thread, block) + " " + verb + " " + where_of(shared, offset) + ", which thread " +
              thread_name(other, block) + " " + other_verb + " in the same barrier interval (after " +
              std::to_string(phase - 1) + " barriers): a missing __syncthreads() or a race");
}

/// At the end of an interval: the bytes two threads wrote must hold what the first wrote.
void check_same_values(block_shadow& s) {
  for (const same_value_check& w : s.pending)
    if (*w.byte != w.first) found(w.shared, w.offset, w.writer, "writes", w.other, "writes another value", w.phase);
  s.pending.clear();
}

/// One byte's check and update.
void touch(cell& c, bool shared, std::uintptr_t offset, std::uint16_t t, std::uint32_t phase, kind k,
           const unsigned char* byte) {
  const bool writes = k != kind::read, atomic = k == kind::atomic;
  if (shared && c.write_phase == 0 && k != kind::write && !launch.found.load(std::memory_order_relaxed))
    report_here("thread " + thread_name(t, current().block_dim) + " reads " + where_of(true, offset) +
                ", which no thread of the block has written in this launch (uninitialised shared memory)");
  if (c.write_phase == phase) {
    const std::uint16_t other = c.writer != t ? c.writer : c.writer2 != t ? c.writer2 : nobody;
    if (other != nobody && k == kind::write && !c.atomic) {
      tls_shadow->pending.push_back(same_value_check{byte, *byte, shared, offset, t, other, phase});
    } else if (other != nobody && !(atomic && c.atomic))
      found(shared, offset, t,
            atomic   ? "atomically updates"
            : writes ? "writes"
                     : "reads",
            other, c.atomic ? "atomically updates" : "writes", phase);
  }
  if (writes && c.read_phase == phase) {
    const std::uint16_t other = c.reader != t ? c.reader : c.reader2 != t ? c.reader2 : nobody;
    if (other != nobody) found(shared, offset, t, atomic ? "atomically updates" : "writes", other, "reads", phase);
  }
  if (writes) {
    if (c.write_phase != phase) {
      c.write_phase = phase;
      c.writer = t;
      c.writer2 = nobody;
      c.atomic = atomic;
    } else {
      if (c.writer != t) c.writer2 = c.writer;
      c.writer = t;
      c.atomic = c.atomic && atomic;
    }
  } else if (c.read_phase != phase) {
    c.read_phase = phase;
    c.reader = t;
    c.reader2 = nobody;
  } else if (c.reader != t && c.reader2 == nobody) {
    c.reader2 = t;
  }
}

void access(const void* p, std::size_t bytes, kind k) {
  block_shadow& s = *tls_shadow;
  const thread_context& me = current();
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  const auto t = static_cast<std::uint16_t>(me.linear);
  const std::uint32_t phase = me.phase + 1;
  if (phase != s.pending_phase) {
    if (!s.pending.empty()) check_same_values(s);
    s.pending_phase = phase;
  }
  if (a - s.shared < s.shared_bytes) {
    const std::size_t end = std::min(s.shared_bytes, a - s.shared + bytes);
    for (std::size_t off = a - s.shared; off < end; ++off)
      touch(s.shared_cells[off], true, off, t, phase, k, reinterpret_cast<const unsigned char*>(s.shared + off));
    return;
  }
  std::uintptr_t offset = 0;
  if (!device_offset(a, offset)) return;
  device_slot* slot = nullptr;  // the word of the byte before, while the bytes stay in it
  for (std::size_t i = 0; i < bytes; ++i) {
    const std::uintptr_t byte = a + i;
    if (slot == nullptr || (byte & 7) == 0) slot = &device_word(s, byte >> 3, phase);
    touch(slot->c[byte & 7], false, offset + i, t, phase, k, reinterpret_cast<const unsigned char*>(byte));
  }
}

}  // namespace

void begin_launch(const char* kernel, ranges device) {
  launch.id.fetch_add(1, std::memory_order_relaxed);
  launch.kernel = kernel;
  launch.device = std::move(device);
  launch.low = launch.device.empty() ? 0 : launch.device.front().first;
  launch.high = 0;
  for (const auto& r : launch.device) launch.high = std::max(launch.high, r.second);
  launch.found = false;
  launch.first.clear();
}

std::string end_launch() {
  std::lock_guard<std::mutex> lock(launch.m);
  launch.device.clear();
  return std::exchange(launch.first, std::string());
}

void begin_block(const unsigned char* shared, std::size_t bytes) {
  if (!race_check_traced()) return;
  block_shadow& s = tls_storage;
  s.shared = reinterpret_cast<std::uintptr_t>(shared);
  s.shared_bytes = shared ? bytes : 0;
  s.shared_cells.assign(s.shared_bytes, cell{});
  s.phase = 0;
  ++s.generation;
  s.used = 0;
  s.pending.clear();
  s.pending_phase = 0;
  tls_shadow = &s;
}

void end_block() {
  if (tls_shadow != nullptr) check_same_values(*tls_shadow);
  tls_shadow = nullptr;
}

std::string thread_name(unsigned linear, dim3 b) {
  return "(" + std::to_string(linear % b.x) + "," + std::to_string(linear / b.x % b.y) + "," +
         std::to_string(linear / (b.x * b.y)) + ")";
}

void report(const std::string& what, uint3 b) {
  if (launch.found.exchange(true)) return;
  std::lock_guard<std::mutex> lock(launch.m);
  launch.first = std::string("race check: kernel ") + launch.kernel + ", block (" + std::to_string(b.x) + "," +
                 std::to_string(b.y) + "," + std::to_string(b.z) + "): " + what;
  // Said now, not only when the launch fails: the kernel goes on with what it read (an uninitialised
  // staged index, say) and may crash first, as it would fault on a device.
  std::fprintf(stderr, "warpspan emulation: %s\n", launch.first.c_str());
}

}  // namespace warpspan::emu::race

void warpspan::emu::note_atomic(const void* address, std::size_t bytes) noexcept {
  if (race::tls_shadow != nullptr) race::access(address, bytes, race::kind::atomic);
  if (counting::tls_counter != nullptr)
    counting::access(address, bytes, counting::access_kind::atomic, __builtin_return_address(0));
}

// The tracing callbacks (clang's sanitizer coverage calls them with the address of every load and
// store of the traced translation units). The sanitizer runtimes define them weakly as no-ops. The
// memory-request counter (counts.cpp) takes them too when it is on, with the return address, which
// names the load or store instruction.
#define WARPSPAN_EMU_TRACE(n)                                                                                          \
  extern "C" void __sanitizer_cov_load##n(void* p) {                                                                   \
    if (warpspan::emu::race::tls_shadow != nullptr)                                                                    \
      warpspan::emu::race::access(p, n, warpspan::emu::race::kind::read);                                              \
    if (warpspan::emu::counting::tls_counter != nullptr)                                                               \
      warpspan::emu::counting::access(p, n, warpspan::emu::counting::access_kind::load, __builtin_return_address(0));  \
  }                                                                                                                    \
  extern "C" void __sanitizer_cov_store##n(void* p) {                                                                  \
    if (warpspan::emu::race::tls_shadow != nullptr)                                                                    \
      warpspan::emu::race::access(p, n, warpspan::emu::race::kind::write);                                             \
    if (warpspan::emu::counting::tls_counter != nullptr)                                                               \
      warpspan::emu::counting::access(p, n, warpspan::emu::counting::access_kind::store, __builtin_return_address(0)); \
  }
WARPSPAN_EMU_TRACE(1)
WARPSPAN_EMU_TRACE(2)
WARPSPAN_EMU_TRACE(4)
WARPSPAN_EMU_TRACE(8)
WARPSPAN_EMU_TRACE(16)
#undef WARPSPAN_EMU_TRACE

// The tracing needs a coverage kind (inline-bool-flag: CMakeLists.txt); libFuzzer and the sanitizer
// runtimes define its initialiser, a build with neither takes this one.
extern "C" __attribute__((weak)) void __sanitizer_cov_bool_flag_init(bool*, bool*) {}
