// The emulated CUDA runtime (see cuda_runtime.h in this directory). Compiled only in the emulation
// build, into the same library as the kernels it runs.
#include "cuda_runtime.h"

#include <cstdlib>

#include "counts.hpp"
#include "racecheck.hpp"

#include <sys/mman.h>
#include <dlfcn.h>
#include <ucontext.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <system_error>
#include <exception>
#include <climits>
#include <map>
#include <string>
#include <tuple>
#include <set>
#include <memory>
#include <mutex>
#include <thread>
#include <vector>

namespace warpspan::emu {

namespace {

// ---- The emulated device: an H100 SXM (80 GiB HBM3, 132 SMs, compute capability 9.0).
constexpr std::size_t total_memory = std::size_t{80} << 30;
constexpr int sm_count = 132;
constexpr std::size_t shared_default = 48 * 1024;  // without cudaFuncSetAttribute
constexpr std::size_t shared_optin = 227 * 1024;   // cudaDevAttrMaxSharedMemoryPerBlockOptin
constexpr std::size_t shared_per_sm = 228 * 1024;
constexpr unsigned max_block_threads = 1024;
constexpr unsigned max_grid_x = 2147483647u, max_grid_yz = 65535u;
constexpr int memory_clock_khz = 2619000;  // 3.35 TB/s with the 5120-bit bus
constexpr int bus_width_bits = 5120;

thread_local cudaError_t last_error = cudaSuccess;

cudaError_t record(cudaError_t e) {
  if (e != cudaSuccess) last_error = e;
  return e;
}

// ---- Injected failures (fail_call, WARPSPAN_EMU_FAIL).
struct injection {
  std::string call;
  cudaError_t error;
  int after;
};
std::mutex injection_mutex;
std::vector<injection> injections;
std::atomic<bool> any_injection{false};
void read_environment();

/// The error `call` must fail with now, or cudaSuccess.
cudaError_t injected(const char* call) {
  read_environment();
  if (!any_injection.load(std::memory_order_relaxed)) return cudaSuccess;
  std::lock_guard<std::mutex> lock(injection_mutex);
  for (auto it = injections.begin(); it != injections.end(); ++it) {
    if (it->call != call) continue;
    if (it->after-- > 0) return cudaSuccess;
    const cudaError_t e = it->error;
    injections.erase(it);
    any_injection = !injections.empty();
    return e;
  }
  return cudaSuccess;
}
#define WARPSPAN_EMU_INJECT() \
  if (const cudaError_t injected_ = injected(__func__); injected_ != cudaSuccess) return record(injected_)

// ---- Device memory: host memory, every allocation tracked by its range.
std::mutex memory_mutex;
// Both maps live until the process ends (never destroyed): memory a static object frees at exit
// (a CLI command's dbf_session and its workspace) finds them still there.
std::map<std::uintptr_t, std::size_t>& allocations() {
  static auto* const a = new std::map<std::uintptr_t, std::size_t>;
  return *a;
}
std::size_t allocated_bytes = 0;
std::size_t allocation_calls = 0;                            // successful cudaMalloc / cudaMallocAsync calls
std::size_t host_allocation_calls = 0;                       // successful cudaMallocHost calls
std::map<std::uintptr_t, std::size_t>& host_allocations() {  // cudaMallocHost's blocks not yet freed
  static auto* const blocks = new std::map<std::uintptr_t, std::size_t>;
  return *blocks;
}
std::size_t allocated_peak = 0;  // the most bytes allocated at once since the last reset
std::size_t memory_limit = 0;    // 0: the whole emulated device
std::size_t device_memory() { return memory_limit > 0 ? memory_limit : total_memory; }

std::size_t host_available() {
  const long pages = sysconf(_SC_AVPHYS_PAGES), page = sysconf(_SC_PAGESIZE);
  return pages > 0 && page > 0 ? static_cast<std::size_t>(pages) * static_cast<std::size_t>(page) : total_memory;
}

/// Whether [p, p + bytes) may be touched as device memory: inside one tracked allocation, or outside
/// all of them (memory Thrust allocated on its CPP system, which the runtime does not see; ASan still
/// checks it). Starting inside an allocation and running past its end is the error.
bool device_range_ok(const void* p, std::size_t bytes) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard<std::mutex> lock(memory_mutex);
  auto& a = allocations();
  auto it = a.upper_bound(at);
  if (it == a.begin()) return true;
  --it;
  const std::uintptr_t end = it->first + it->second;
  if (at > end || (at == end && bytes == 0)) return true;  // past this allocation: not tracked
  if (at == end) return false;                             // one past the end, with bytes to copy
  return bytes <= end - at;
}

// ---- Kernel attributes set by cudaFuncSetAttribute.
std::mutex attribute_mutex;
std::map<const void*, std::size_t>& max_dynamic_shared() {
  static std::map<const void*, std::size_t> m;
  return m;
}

// ---- Streams and events: work runs when it is issued, so a stream is always complete.
}  // namespace
}  // namespace warpspan::emu

/// A graph's nodes, in issue order: each runs one captured launch or memset and says how it went.
struct CUgraph_st {
  std::vector<std::function<cudaError_t()>> nodes;
};
struct CUgraphExec_st {
  std::vector<std::function<cudaError_t()>> nodes;
};
struct CUstream_st {
  unsigned flags = 0;
  std::unique_ptr<CUgraph_st> capture;  ///< set while the stream captures
  bool capture_invalidated = false;     ///< something illegal was issued during the capture
};
struct CUevent_st {
  bool recorded = false;
  std::chrono::steady_clock::time_point when;
};

namespace warpspan::emu {
namespace {

std::mutex handle_mutex;
std::vector<std::unique_ptr<CUstream_st>> streams;
std::vector<std::unique_ptr<CUevent_st>> events;
std::vector<std::unique_ptr<CUgraph_st>> graphs;
std::vector<std::unique_ptr<CUgraphExec_st>> graph_execs;

bool stream_ok(cudaStream_t s) {
  if (s == nullptr) return true;
  std::lock_guard<std::mutex> lock(handle_mutex);
  return std::any_of(streams.begin(), streams.end(), [&](const auto& p) { return p.get() == s; });
}
/// The stream's capture, or null where `s` does not capture (the legacy stream never does).
CUgraph_st* capture_of(cudaStream_t s) {
  if (s == nullptr) return nullptr;
  std::lock_guard<std::mutex> lock(handle_mutex);
  const auto it = std::find_if(streams.begin(), streams.end(), [&](const auto& p) { return p.get() == s; });
  return it == streams.end() ? nullptr : (*it)->capture.get();
}
/// What a call that cannot be captured does to a capturing stream: invalidates its capture.
cudaError_t refuse_in_capture(cudaStream_t s) {
  {
    std::lock_guard<std::mutex> lock(handle_mutex);
    s->capture_invalidated = true;
  }
  return record(cudaErrorStreamCaptureUnsupported);
}
bool event_ok(cudaEvent_t e) {
  std::lock_guard<std::mutex> lock(handle_mutex);
  return e && std::any_of(events.begin(), events.end(), [&](const auto& p) { return p.get() == e; });
}

// ---- Kernel execution.

thread_local thread_context tls_context;

}  // namespace

/// What probe_pass keeps of a block (cuda_runtime.h): its sites, each lane's passes since the last
/// barrier, and each warp's clock.
struct probe_lanes {
  struct site {
    probe_site where;
    probe_slot* records;
    unsigned* counts;
    unsigned capacity;
    unsigned function;  // sites of one function (and file) have the same number
    std::uint64_t pc;   // its place in the source: sites of one function compare in source order
  };
  struct pass {
    unsigned site;
    long long clock;
  };
  struct lane {
    std::vector<pass> passes;  // since the last barrier
    int last = -1;             // the site it passed last, -1 before its first
    int before = -1;           // its last site before this barrier interval
  };
  struct warp {
    bool has_target = false, has_now = false;
    unsigned long long target = 0;  // the warp's index in the records (probe.cuh)
    long long now = 0;              // the clock of its last record
  };
  std::vector<site> sites;
  std::map<std::tuple<unsigned, const char*, const char*, unsigned, unsigned, const void*, const unsigned*, unsigned>,
           unsigned>
      index;
  std::map<std::pair<std::string, std::string>, unsigned> functions;
  // Loops seen by their back edges: a lane that went from a site to one at or before it in the same
  // function went back to a loop's header; per header, the furthest site a lane went back from.
  std::map<std::uint64_t, std::uint64_t> back;
  std::vector<lane> lanes;
  std::vector<warp> warps;

  unsigned site_of(const probe_site& where, const probe_target& target) {
    const auto key = std::make_tuple(where.point, where.function, where.file, where.line, where.column,
                                     static_cast<const void*>(target.records),
                                     static_cast<const unsigned*>(target.counts), target.capacity);
    const auto it = index.find(key);
    if (it != index.end()) return it->second;
    const auto f = functions
                       .emplace(std::make_pair(std::string(where.function ? where.function : ""),
                                               std::string(where.file ? where.file : "")),
                                static_cast<unsigned>(functions.size()))
                       .first->second;
    // Function, line, column: the sites of one function in source order, each function apart.
    const std::uint64_t pc = (std::uint64_t{f} << 44) | (std::uint64_t{std::min(where.line, (1u << 24) - 1)} << 20) |
                             std::min(where.column, (1u << 20) - 1);
    sites.push_back(site{where, target.records, target.counts, target.capacity, f, pc});
    return index[key] = static_cast<unsigned>(sites.size() - 1);
  }
};

/// One block in flight: its shared memory and its threads (see run_block).
struct block_state {
  std::unique_ptr<unsigned char[]> shared;
  dim3 grid, block;
  uint3 block_idx;
  const std::function<void()>* body = nullptr;
  // Per thread: 0 not started, 1 started as a fiber (suspended or running), 2 returned. The fiber
  // records (a ucontext each, about 1 KiB) are taken only for threads that start as fibers, from
  // the OS thread's pool (stack_pool), as their stacks are.
  std::vector<unsigned char> status;
  std::vector<struct fiber*> fibers;
  bool blank_ready = false;
  struct fiber* running = nullptr;  // the fiber now executing; null while the native thread runs
  unsigned native = 0;              // the thread running on the OS thread's own stack
  ucontext_t scheduler{};           // where a fiber returns to at a barrier or at its end
  ucontext_t blank{};               // getcontext once per block (when a fiber is first needed)
  const void* scheduler_stack_bottom = nullptr;
  std::size_t scheduler_stack_size = 0;
  std::exception_ptr error;
  // The order of the current barrier interval, and where the native thread stands in it (the
  // threads before it have run the interval, those after it have not).
  std::vector<unsigned> order;
  std::size_t native_pos = 0;
  std::uint64_t interval = 0;
  std::uint64_t linear_block = 0;
  bool fibers_started = false;
  bool check = false;  // the barrier-divergence check (with the race checker)
  // Per thread: the barriers it arrived at, and the one it waits at (file null: it returned).
  std::vector<unsigned> arrived;
  std::vector<const char*> barrier_file;
  std::vector<unsigned> barrier_line;
  // The probe's lanes (probe_pass): made at the block's first probe.
  std::unique_ptr<probe_lanes> probe;
  // The warp collectives' values (warp_exchange): per lane, two slots used by barrier count's parity.
  std::vector<unsigned long long> lanes[2];

  thread_context context_of(unsigned t) {
    thread_context c;
    c.grid_dim = grid;
    c.block_dim = block;
    c.block_idx = block_idx;
    c.thread_idx = uint3{t % block.x, t / block.x % block.y, t / (block.x * block.y)};
    c.dynamic_shared = shared.get();
    c.block = this;
    c.linear = t;
    return c;
  }
};

thread_context& current() noexcept { return tls_context; }

long long clock_cycles() noexcept {
  static const auto origin = std::chrono::steady_clock::now();
  return std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - origin).count();
}
unsigned long long global_timer_ns() noexcept { return static_cast<unsigned long long>(clock_cycles()); }
unsigned sm_id() noexcept {
  const auto& c = tls_context;
  const unsigned long long block =
      c.block_idx.x + static_cast<unsigned long long>(c.grid_dim.x) *
                          (c.block_idx.y + static_cast<unsigned long long>(c.grid_dim.y) * c.block_idx.z);
  return static_cast<unsigned>(block % sm_count);
}

namespace {

// ---- How a block runs. Its threads take turns on one OS thread, in the order of the current
// barrier interval (WARPSPAN_EMU_ORDER: ascending, descending, or a seeded permutation per interval).
// The first thread of the order runs on the OS thread's own stack ("native"). If it reaches
// __syncthreads, the threads after it in the order are started (or resumed) as fibers and run until
// they reach a barrier or return; then the next interval's order is drawn, the threads before the
// native one in it run that interval, and only then does the native thread go on (so that it is not
// always first). When the native thread returns, the fibers go on interval by interval. A kernel
// without barriers therefore runs its threads one after the other with no fibers at all (fast), and
// a kernel with barriers keeps the barrier's promise exactly: no thread passes a barrier before
// every thread that has not returned has reached it. At each barrier the threads must all wait at
// the same one, and none may have returned without reaching it (barrier divergence fails the
// launch). What a missing barrier does to memory is the race checker's business (racecheck.cpp);
// without it, a thread that reads what another writes in the same interval reads what was there
// (for shared memory the 0xA5 fill) in one order and the new value in the other. Blocks run in
// parallel on a few OS threads, as on SMs.

constexpr std::size_t fiber_stack_bytes = std::size_t{256} << 10;  // kernels are shallow; ASan frames are larger

#if defined(__SANITIZE_ADDRESS__)
#define WARPSPAN_EMU_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define WARPSPAN_EMU_ASAN 1
#endif
#endif

#if defined(WARPSPAN_EMU_ASAN)
extern "C" void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, std::size_t size);
extern "C" void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, std::size_t* size_old);
extern "C" void __asan_unpoison_memory_region(void const volatile* addr, std::size_t size);

/// glibc's swapcontext, past ASan's interceptor. The interceptor clears the shadow of the whole
/// stack it switches to, at every switch: 32 KiB of shadow for a 256 KiB fiber stack, twice a
/// fiber a barrier, which was a quarter of the time of a kernel with many barriers (the dbf batch
/// kernel on a wide fork-join task). Here a fiber's stack is unpoisoned once, when a fiber starts
/// on it (step_fiber: a stack is reused by the fibers of later blocks), and each switch is told to
/// ASan by the start/finish_switch_fiber calls, as before; a suspended fiber keeps its shadow.
int raw_swapcontext(ucontext_t* from, const ucontext_t* to) {
  using swap_fn = int (*)(ucontext_t*, const ucontext_t*);
  static const swap_fn real = reinterpret_cast<swap_fn>(dlsym(RTLD_NEXT, "swapcontext"));
  return real != nullptr ? real(from, to) : swapcontext(from, to);
}
#else
int raw_swapcontext(ucontext_t* from, const ucontext_t* to) { return swapcontext(from, to); }
#endif

}  // namespace

struct fiber {
  enum class state { not_started, suspended, done };
  ucontext_t context{};
  void* stack = nullptr;
  state st = state::not_started;
  thread_context where;
};

namespace {

thread_local block_state* tls_block = nullptr;

/// Fiber stacks of one OS thread, kept for the process (mapped once, reused by every launch).
struct stack_pool {
  std::vector<void*> stacks;
  /// Whether the last fiber on a stack finished (its frames all returned, so ASan's shadow is clear
  /// but for the few top frames that switch away and never return): the next fiber then unpoisons
  /// only the top of it, not 32 KiB of shadow (step_fiber).
  std::vector<unsigned char> finished;
  std::vector<std::unique_ptr<fiber>> records;  // a fiber record per stack
  ~stack_pool() {
    for (void* s : stacks) munmap(s, fiber_stack_bytes);
  }
  void* get(std::size_t k) {
    while (stacks.size() <= k) {
      void* s =
          mmap(nullptr, fiber_stack_bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
      if (s == MAP_FAILED) throw std::bad_alloc();
      mprotect(s, 4096, PROT_NONE);  // guard page: a stack overflow faults instead of corrupting
      stacks.push_back(s);
      finished.push_back(0);
      records.push_back(std::make_unique<fiber>());
    }
    return stacks[k];
  }
};
thread_local stack_pool tls_stacks;

void run_body(block_state& b) {
  try {
    (*b.body)();
  } catch (...) {
    if (!b.error) b.error = std::current_exception();
  }
  b.arrived[tls_context.linear] = tls_context.phase;
  b.barrier_file[tls_context.linear] = nullptr;
}

/// From the running fiber back to whoever resumed it; `finished` when it will never resume.
void yield_to_scheduler(block_state& b, fiber& f, bool finished) {
#if defined(WARPSPAN_EMU_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(finished ? nullptr : &fake, b.scheduler_stack_bottom, b.scheduler_stack_size);
  raw_swapcontext(&f.context, &b.scheduler);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  (void)finished;
  raw_swapcontext(&f.context, &b.scheduler);
#endif
}

void fiber_entry() {
  block_state& b = *tls_block;
  fiber& f = *b.running;
#if defined(WARPSPAN_EMU_ASAN)
  __sanitizer_finish_switch_fiber(nullptr, &b.scheduler_stack_bottom, &b.scheduler_stack_size);
#endif
  run_body(b);
  f.st = fiber::state::done;
  yield_to_scheduler(b, f, true);
}

/// Runs thread t as a fiber until its next barrier or its end (starting it if it has not started).
void step_fiber(block_state& b, unsigned t) {
  if (b.status[t] == 2) return;
  if (b.status[t] == 0) {
    if (!b.blank_ready) {
      getcontext(&b.blank);
      b.blank_ready = true;
    }
    void* stack = tls_stacks.get(t);
    fiber& f = *(b.fibers[t] = tls_stacks.records[t].get());
    f.stack = stack;
#if defined(WARPSPAN_EMU_ASAN)
    // What an earlier fiber left on this stack is not this one's: all of it but the guard page, or
    // where that fiber finished, the top frames that never returned (fiber_entry's, the switch's).
    const std::size_t dirty = tls_stacks.finished[t] ? std::size_t{16} << 10 : fiber_stack_bytes - 4096;
    __asan_unpoison_memory_region(static_cast<unsigned char*>(f.stack) + fiber_stack_bytes - dirty, dirty);
#endif
    tls_stacks.finished[t] = 0;
    f.where = b.context_of(t);
    f.context = b.blank;
    f.context.uc_stack.ss_sp = f.stack;
    f.context.uc_stack.ss_size = fiber_stack_bytes;
    f.context.uc_link = nullptr;
    makecontext(&f.context, fiber_entry, 0);
    f.st = fiber::state::suspended;
    b.status[t] = 1;
  }
  fiber& f = *b.fibers[t];
  const thread_context saved = tls_context;
  b.running = &f;
  tls_context = f.where;
#if defined(WARPSPAN_EMU_ASAN)
  void* fake = nullptr;
  __sanitizer_start_switch_fiber(&fake, f.stack, fiber_stack_bytes);
  raw_swapcontext(&b.scheduler, &f.context);
  __sanitizer_finish_switch_fiber(fake, nullptr, nullptr);
#else
  raw_swapcontext(&b.scheduler, &f.context);
#endif
  b.running = nullptr;
  tls_context = saved;
  if (f.st == fiber::state::done) {
    b.status[t] = 2;
    tls_stacks.finished[t] = 1;
  }
}

// ---- The probe's records (probe_pass): each warp's lanes merged into lockstep order at a barrier.

std::mutex refusal_mutex;
std::map<const unsigned*, std::string> refusals;  // per probe buffer (its counts), the first refusal

/// Appends one record for target warp `warp` to the buffer of `s`.
void probe_write(const probe_lanes::site& s, unsigned long long warp, unsigned sm, long long clock) {
  const unsigned n = s.counts[warp]++;
  if (n < s.capacity)
    s.records[warp * s.capacity + n] =
        probe_slot{s.where.point, sm, static_cast<std::int64_t>(clock), static_cast<std::int64_t>(clock)};
}

/// Every thread of the block has reached a barrier or returned: writes each warp's records of the
/// interval in the order a SIMT warp runs its lanes' passes (cuda_runtime.h, probe_pass) and starts
/// the lanes' next interval.
void probe_flush(block_state& b) {
  if (!b.probe) return;
  probe_lanes& pl = *b.probe;
  // Where each loop ends: its furthest back edge, or that of a loop inside it that reaches further.
  std::map<std::uint64_t, std::uint64_t> end = pl.back;
  for (auto it = end.rbegin(); it != end.rend(); ++it)
    for (auto in = end.upper_bound(it->first); in != end.end() && in->first <= it->second; ++in)
      it->second = std::max(it->second, in->second);
  const unsigned sm = static_cast<unsigned>(b.linear_block % sm_count);
  const auto lanes = static_cast<unsigned>(pl.lanes.size());
  struct cursor {
    probe_lanes::lane* lane;
    std::size_t k = 0;
    int prev;
    bool has_clock = false;
    long long clock = 0;
  };
  // A lane's next pass, as the warp schedules it: a site in source order, except that a lane going
  // back to a loop's header waits at the loop's end (after its body, inner loops first).
  using key = std::tuple<std::uint64_t, int, std::uint64_t, unsigned, unsigned>;
  const auto key_of = [&](const cursor& c) {
    const unsigned t = c.lane->passes[c.k].site;
    const auto& to = pl.sites[t];
    if (c.prev >= 0 && pl.sites[static_cast<unsigned>(c.prev)].function == to.function &&
        to.pc <= pl.sites[static_cast<unsigned>(c.prev)].pc)
      return key{end.at(to.pc), 1, ~to.pc, to.where.point, t};
    return key{to.pc, 0, 0, to.where.point, t};
  };
  for (unsigned w = 0; w * 32 < lanes; ++w) {
    probe_lanes::warp& warp = pl.warps[w];
    std::vector<cursor> cs;
    bool same = true;
    std::set<unsigned> functions;
    for (unsigned t = 32 * w; t < std::min(lanes, 32 * w + 32); ++t) {
      probe_lanes::lane& lane = pl.lanes[t];
      if (lane.passes.empty()) continue;
      if (!cs.empty()) {
        const auto& ref = cs.front().lane->passes;
        same = same && ref.size() == lane.passes.size() &&
               std::equal(ref.begin(), ref.end(), lane.passes.begin(),
                          [](const probe_lanes::pass& x, const probe_lanes::pass& y) { return x.site == y.site; });
      }
      for (const auto& p : lane.passes) functions.insert(pl.sites[p.site].function);
      if (lane.before >= 0) functions.insert(pl.sites[static_cast<unsigned>(lane.before)].function);
      cs.push_back(cursor{&lane, 0, lane.before});
    }
    if (cs.empty()) continue;
    if (!same && functions.size() > 1) {
      // Source positions order the sites of one function only.
      std::string names;
      for (const auto& [name, number] : pl.functions)
        if (functions.count(number)) names += (names.empty() ? "" : ", ") + name.first;
      const auto& first = pl.sites[cs.front().lane->passes.front().site];
      std::lock_guard<std::mutex> lock(refusal_mutex);
      refusals.emplace(first.counts,
                       "the CUDA emulation runs the lanes of a warp one after another and cannot order them as the "
                       "warp runs them in lockstep: the lanes of warp " +
                           std::to_string(w) + " of block " + std::to_string(b.linear_block) +
                           " take different paths through Ipoints in more than one "
                           "function (" +
                           names +
                           "), whose order in the compiled code it does not know; record this "
                           "trace on a GPU");
      continue;
    }
    for (;;) {
      bool found = false;
      key best{};
      for (const cursor& c : cs) {
        if (c.k >= c.lane->passes.size()) continue;
        const key k = key_of(c);
        if (!found || k < best) best = k, found = true;
      }
      if (!found) break;
      // The lanes whose next pass is that one run it together: one record, its clock the warp's.
      long long delta = 0, first = LLONG_MAX;
      bool any_prev = false;
      const unsigned site = std::get<4>(best);
      for (cursor& c : cs) {
        if (c.k >= c.lane->passes.size() || key_of(c) != best) continue;
        const auto& p = c.lane->passes[c.k];
        if (c.has_clock) delta = std::max(delta, p.clock - c.clock), any_prev = true;
        first = std::min(first, p.clock);
        c.clock = p.clock, c.has_clock = true, c.prev = static_cast<int>(site), ++c.k;
      }
      const long long clock = !warp.has_now ? first : any_prev ? warp.now + delta : std::max(warp.now, first);
      warp.now = clock, warp.has_now = true;
      probe_write(pl.sites[site], warp.target, sm, clock);
    }
  }
  for (auto& lane : pl.lanes) lane.passes.clear(), lane.before = lane.last;
}

// ---- Thread order and the barrier check.

enum class order_kind { ascending, descending, random };
std::atomic<order_kind> order_now{order_kind::ascending};
std::atomic<std::uint64_t> order_seed{0};
std::atomic<bool> check_now{true};
std::atomic<bool> launch_counted{false};  // the launch now running is counted (counts.cpp)

std::uint64_t splitmix(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9E3779B97F4A7C15ull);
  z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
  return z ^ (z >> 31);
}

/// The order of interval `b.interval` of the block: a pure function of the setting, the block and
/// the interval, so that a failing order can be replayed.
void make_order(block_state& b) {
  const auto n = static_cast<unsigned>(b.status.size());
  b.order.resize(n);
  for (unsigned t = 0; t < n; ++t) b.order[t] = t;
  switch (order_now.load(std::memory_order_relaxed)) {
    case order_kind::ascending: break;
    case order_kind::descending: std::reverse(b.order.begin(), b.order.end()); break;
    case order_kind::random: {
      std::uint64_t x = order_seed.load(std::memory_order_relaxed) ^ (b.linear_block * 0xD1B54A32D192ED03ull) ^
                        (b.interval * 0x8CB92BA72F3D8DD7ull);
      for (unsigned i = n; i > 1; --i) std::swap(b.order[i - 1], b.order[splitmix(x) % i]);
      break;
    }
  }
}

std::string barrier_name(const char* file, unsigned line) {
  const char* slash = std::strrchr(file, '/');
  return "the __syncthreads() at " + std::string(slash ? slash + 1 : file) + ":" + std::to_string(line);
}

/// Every thread of the block has reached a barrier or returned: checks that the waiting threads wait
/// at the same barrier and that none returned without reaching it (as synccheck on a device), then
/// starts the next interval. False when every thread has returned.
bool next_interval(block_state& b) {
  probe_flush(b);
  const auto n = static_cast<unsigned>(b.status.size());
  unsigned ref = n;
  for (unsigned t = 0; t < n && ref == n; ++t)
    if (b.barrier_file[t] != nullptr) ref = t;
  if (ref == n) return false;
  for (unsigned t = 0; b.check && t < n; ++t) {
    if (t == ref) continue;
    const auto waits = [&] {  // built only for a report: this loop runs for every thread at every barrier
      return "thread " + race::thread_name(ref, b.block) + " waits at " +
             barrier_name(b.barrier_file[ref], b.barrier_line[ref]);
    };
    if (b.barrier_file[t] == nullptr) {
      if (b.arrived[t] < b.arrived[ref])
        race::report("barrier divergence: " + waits() + ", which thread " + race::thread_name(t, b.block) +
                         " never reaches (it returned)",
                     b.block_idx);
    } else if (b.arrived[t] != b.arrived[ref] || b.barrier_line[t] != b.barrier_line[ref] ||
               std::strcmp(b.barrier_file[t], b.barrier_file[ref]) != 0) {
      race::report("barrier divergence: " + waits() + " (its barrier " + std::to_string(b.arrived[ref]) + "), thread " +
                       race::thread_name(t, b.block) + " at " + barrier_name(b.barrier_file[t], b.barrier_line[t]) +
                       " (its barrier " + std::to_string(b.arrived[t]) + ")",
                   b.block_idx);
    }
  }
  ++b.interval;
  make_order(b);
  return true;
}

void run_block(std::size_t block_index, dim3 grid, dim3 block, std::size_t smem, const std::function<void()>& body) {
  const unsigned threads = block.x * block.y * block.z;
  block_state b;
  if (smem > 0) {
    b.shared.reset(new unsigned char[smem]);
    // Shared memory starts as garbage on a device; a pattern here makes a read before a write show.
    std::memset(b.shared.get(), 0xA5, smem);
  }
  b.grid = grid;
  b.block = block;
  b.block_idx = uint3{static_cast<unsigned>(block_index % grid.x), static_cast<unsigned>(block_index / grid.x % grid.y),
                      static_cast<unsigned>(block_index / (std::size_t{grid.x} * grid.y))};
  b.linear_block = block_index;
  b.body = &body;
  b.status.assign(threads, 0);
  b.fibers.assign(threads, nullptr);
  b.arrived.assign(threads, 0);
  b.barrier_file.assign(threads, nullptr);
  b.barrier_line.assign(threads, 0);
  b.check = check_now.load(std::memory_order_relaxed);
  make_order(b);
  tls_block = &b;
  if (b.check) race::begin_block(b.shared.get(), smem);
  const bool counted = launch_counted.load(std::memory_order_relaxed);
  if (counted)
    counting::begin_block(b.shared.get(), smem, threads,
                          order_now.load(std::memory_order_relaxed) != order_kind::random, block_index);
  // Threads run on the OS thread's stack, one after the other, until one reaches a barrier: then
  // the rest go on as fibers, interval by interval (see syncthreads).
  for (std::size_t i = 0; i < threads && !b.fibers_started; ++i) {
    b.native = b.order[i];
    b.native_pos = i;
    tls_context = b.context_of(b.native);
    run_body(b);
    b.status[b.native] = 2;
  }
  if (b.fibers_started) {
    for (std::size_t i = b.native_pos + 1; i < threads; ++i) step_fiber(b, b.order[i]);
    while (next_interval(b))
      for (unsigned t : b.order) step_fiber(b, t);
  }
  if (!b.error) probe_flush(b);
  if (b.check) race::end_block();
  if (counted) counting::end_block();
  tls_context = thread_context{};
  tls_block = nullptr;
  if (b.error) std::rethrow_exception(b.error);
}

/// OS threads for blocks, kept for the process: blocks are taken in order from a shared counter.
class executor {
 public:
  static executor& get() {
    static executor e;
    return e;
  }

  void run(std::size_t blocks, dim3 grid, dim3 block, std::size_t smem, const std::function<void()>& body) {
    std::lock_guard<std::mutex> launch_lock(launch_mutex_);  // one launch at a time, as on one stream
    job j;
    j.blocks = blocks;
    j.grid = grid;
    j.block = block;
    j.smem = smem;
    j.body = &body;
    const unsigned helpers = static_cast<unsigned>(std::min<std::size_t>(workers_.size(), blocks > 0 ? blocks - 1 : 0));
    {
      std::lock_guard<std::mutex> lock(m_);
      job_ = &j;
      active_ = helpers;
      ++generation_;
    }
    if (helpers > 0) cv_.notify_all();
    work(j);  // the launching thread takes blocks too
    std::unique_lock<std::mutex> lock(m_);
    done_cv_.wait(lock, [&] { return active_ == 0; });
    job_ = nullptr;
    if (j.error) std::rethrow_exception(j.error);
  }

  ~executor() {
    {
      std::lock_guard<std::mutex> lock(m_);
      stop_ = true;
    }
    cv_.notify_all();
    for (auto& w : workers_) w.join();
  }

 private:
  struct job {
    std::size_t blocks = 0;
    dim3 grid, block;
    std::size_t smem = 0;
    const std::function<void()>* body = nullptr;
    std::atomic<std::size_t> next{0};
    std::mutex m;
    std::exception_ptr error;
  };

  executor() {
    const unsigned n = std::max(1u, std::min(8u, std::thread::hardware_concurrency())) - 1;
    for (unsigned t = 0; t < n; ++t) {
      try {
        workers_.emplace_back([this, t] { loop(t); });
      } catch (const std::system_error&) {
        break;  // fewer OS threads: blocks simply run on fewer
      }
    }
  }

  static void work(job& j) {
    for (std::size_t b = j.next++; b < j.blocks; b = j.next++) {
      try {
        run_block(b, j.grid, j.block, j.smem, *j.body);
      } catch (...) {
        std::lock_guard<std::mutex> lock(j.m);
        if (!j.error) j.error = std::current_exception();
      }
    }
  }

  void loop(unsigned t) {
    std::uint64_t seen = 0;
    for (;;) {
      job* j = nullptr;
      {
        std::unique_lock<std::mutex> lock(m_);
        cv_.wait(lock, [&] { return stop_ || generation_ != seen; });
        if (stop_) return;
        seen = generation_;
        if (job_ == nullptr || t >= active_total(*job_)) continue;
        j = job_;
      }
      work(*j);
      std::lock_guard<std::mutex> lock(m_);
      if (--active_ == 0) done_cv_.notify_all();
    }
  }

  unsigned active_total(const job& j) const {
    return static_cast<unsigned>(std::min<std::size_t>(workers_.size(), j.blocks > 0 ? j.blocks - 1 : 0));
  }

  std::mutex launch_mutex_;
  std::mutex m_;
  std::condition_variable cv_, done_cv_;
  std::vector<std::thread> workers_;
  job* job_ = nullptr;
  std::uint64_t generation_ = 0;
  unsigned active_ = 0;
  bool stop_ = false;
};

}  // namespace

// A fault a kernel thread reports (on an executor thread), recorded for the launching thread when
// the launch returns.
std::atomic<int> kernel_fault{cudaSuccess};

bool within_launch_bounds(unsigned max_threads) {
  const dim3 b = tls_context.block_dim;
  if (std::uint64_t{b.x} * b.y * b.z <= max_threads) return true;
  kernel_fault.store(cudaErrorLaunchOutOfResources);
  return false;
}

void syncthreads(const char* file, unsigned line) {
  block_state* b = tls_context.block;
  if (b == nullptr) {
    std::fprintf(stderr, "warpspan emulation: __syncthreads outside a kernel\n");
    std::terminate();
  }
  const unsigned me = tls_context.linear;
  b->arrived[me] = ++tls_context.phase;
  b->barrier_file[me] = file;
  b->barrier_line[me] = line;
  if (b->running != nullptr) {  // a fiber: wait here until the others have arrived
    fiber& f = *b->running;
    f.where = tls_context;
    yield_to_scheduler(*b, f, false);
    return;
  }
  // The native thread: the threads after it in this interval's order run to this barrier; then, in
  // the next interval's order, the threads before it run that interval before it does.
  b->fibers_started = true;
  for (std::size_t i = b->native_pos + 1; i < b->order.size(); ++i) step_fiber(*b, b->order[i]);
  next_interval(*b);
  std::size_t i = 0;
  for (; b->order[i] != me; ++i) step_fiber(*b, b->order[i]);
  b->native_pos = i;
}

namespace {

/// Every lane's `value` after a barrier of the block (see the declaration in cuda_runtime.h): the
/// block must be one warp and `mask` must name every thread of it.
const std::vector<unsigned long long>& warp_exchange(const char* what, unsigned mask, unsigned long long value,
                                                     const char* file, unsigned line) {
  block_state* b = tls_context.block;
  if (b == nullptr) {
    std::fprintf(stderr, "warpspan emulation: %s outside a kernel\n", what);
    std::terminate();
  }
  const auto threads = static_cast<unsigned>(b->status.size());
  if (threads > 32)
    throw std::logic_error(std::string("the CUDA emulation runs ") + what +
                           " only in blocks of one warp (at most 32 "
                           "threads); this block has " +
                           std::to_string(threads));
  const unsigned all = threads == 32 ? 0xFFFFFFFFu : (1u << threads) - 1u;
  if ((mask & all) != all)
    throw std::logic_error(std::string("the CUDA emulation runs ") + what +
                           " only with every lane of the warp in its "
                           "mask; this one is " +
                           std::to_string(mask));
  // The slot of this collective: the barrier this thread is about to arrive at, by parity. A lane
  // that has passed the barrier and reaches the next collective writes the other slot, so one
  // barrier a collective is enough.
  const unsigned me = tls_context.linear;
  counting::collective(me);
  const unsigned slot = (tls_context.phase + 1) & 1u;
  auto& lanes = b->lanes[slot];
  if (lanes.size() != threads) lanes.assign(threads, 0);
  lanes[me] = value;
  syncthreads(file, line);
  return lanes;
}

}  // namespace

void syncwarp(unsigned mask, const char* file, unsigned line) { warp_exchange("__syncwarp", mask, 0, file, line); }

unsigned warp_ballot(unsigned mask, bool predicate, const char* file, unsigned line) {
  const auto& lanes = warp_exchange("__ballot_sync", mask, predicate ? 1 : 0, file, line);
  unsigned bits = 0;
  for (std::size_t t = 0; t < lanes.size(); ++t) bits |= static_cast<unsigned>(lanes[t] != 0) << t;
  return bits;
}

unsigned long long warp_shuffle(unsigned mask, unsigned long long value, int source, const char* file, unsigned line) {
  const auto& lanes = warp_exchange("__shfl_sync", mask, value, file, line);
  return lanes[static_cast<unsigned>(source) % 32u % lanes.size()];
}

unsigned warp_reduce_max(unsigned mask, unsigned value, const char* file, unsigned line) {
  const auto& lanes = warp_exchange("__reduce_max_sync", mask, value, file, line);
  unsigned most = 0;
  for (const unsigned long long v : lanes) most = std::max(most, static_cast<unsigned>(v));
  return most;
}

unsigned warp_match_any(unsigned mask, unsigned long long value, const char* file, unsigned line) {
  const unsigned me = current().linear;
  const auto& lanes = warp_exchange("__match_any_sync", mask, value, file, line);
  unsigned bits = 0;
  for (std::size_t t = 0; t < lanes.size(); ++t) bits |= static_cast<unsigned>(lanes[t] == lanes[me]) << t;
  return bits;
}

void probe_pass(const probe_site& where, const probe_target& target) {
  const long long now = clock_cycles();
  block_state* b = tls_context.block;
  if (b == nullptr) {  // not in a kernel: nothing to order
    probe_lanes::site s{where, target.records, target.counts, target.capacity, 0, 0};
    probe_write(s, target.warp, sm_id(), now);
    return;
  }
  if (!b->probe) {
    b->probe = std::make_unique<probe_lanes>();
    b->probe->lanes.resize(b->status.size());
    b->probe->warps.resize((b->status.size() + 31) / 32);
  }
  probe_lanes& pl = *b->probe;
  const unsigned s = pl.site_of(where, target);
  probe_lanes::lane& lane = pl.lanes[tls_context.linear];
  probe_lanes::warp& warp = pl.warps[tls_context.linear / 32];
  if (!warp.has_target) warp.target = target.warp, warp.has_target = true;
  if (lane.last >= 0) {
    const auto& from = pl.sites[static_cast<unsigned>(lane.last)];
    const auto& to = pl.sites[s];
    if (from.function == to.function && to.pc <= from.pc) {
      auto& furthest = pl.back[to.pc];
      furthest = std::max(furthest, from.pc);
    }
  }
  lane.passes.push_back({s, now});
  lane.last = static_cast<int>(s);
}

std::string take_probe_refusal(const unsigned* counts) {
  std::lock_guard<std::mutex> lock(refusal_mutex);
  const auto it = refusals.find(counts);
  if (it == refusals.end()) return "";
  std::string why = std::move(it->second);
  refusals.erase(it);
  return why;
}

namespace {

std::mutex report_mutex;
std::string last_report;  // the race checker's finding about the last launch that failed with one

bool apply_order(const std::string& order) {
  if (order == "ascending" || order == "descending") {
    order_now = order == "ascending" ? order_kind::ascending : order_kind::descending;
    return true;
  }
  if (order.rfind("random:", 0) != 0 || order.size() == 7) return false;
  char* end = nullptr;
  const unsigned long long seed = std::strtoull(order.c_str() + 7, &end, 10);
  if (*end != '\0') return false;
  order_seed = seed;
  order_now = order_kind::random;
  return true;
}

/// WARPSPAN_EMU_ORDER and WARPSPAN_EMU_RACECHECK, read once (before the first launch or setting).
void read_environment() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (const char* order = std::getenv("WARPSPAN_EMU_ORDER"); order && *order && !apply_order(order)) {
      std::fprintf(stderr,
                   "warpspan emulation: WARPSPAN_EMU_ORDER must be ascending, descending or random:SEED, not %s\n",
                   order);
      std::exit(2);
    }
    if (const char* check = std::getenv("WARPSPAN_EMU_RACECHECK"); check && std::strcmp(check, "0") == 0)
      check_now = false;
    if (const char* count = std::getenv("WARPSPAN_EMU_COUNTS"); count && std::strcmp(count, "1") == 0) {
      set_counting(true);
      (void)counts();  // the table outlives the handler
      std::atexit(
          [] { std::fprintf(stderr, "warpspan emulation: memory requests per kernel\n%s", counts_table().c_str()); });
    }
    if (const char* fail = std::getenv("WARPSPAN_EMU_FAIL"); fail && *fail) {
      const std::string f = fail;
      const std::size_t colon = f.find(':'), second = f.find(':', colon + 1);
      if (colon == std::string::npos) {
        std::fprintf(stderr, "warpspan emulation: WARPSPAN_EMU_FAIL must be call:error[:after], not %s\n", fail);
        std::exit(2);
      }
      const int error = std::atoi(f.c_str() + colon + 1);
      const int after = second == std::string::npos ? 0 : std::atoi(f.c_str() + second + 1);
      std::lock_guard<std::mutex> lock(injection_mutex);
      injections.push_back({f.substr(0, colon), static_cast<cudaError_t>(error), after});
      any_injection = true;
    }
  });
}

race::ranges device_ranges() {
  std::lock_guard<std::mutex> lock(memory_mutex);
  race::ranges r;
  r.reserve(allocations().size());
  for (const auto& [begin, bytes] : allocations()) r.emplace_back(begin, begin + bytes);
  return r;
}

}  // namespace

bool set_thread_order(const std::string& order) {
  read_environment();
  return apply_order(order);
}

std::string thread_order() {
  read_environment();
  switch (order_now.load()) {
    case order_kind::ascending: return "ascending";
    case order_kind::descending: return "descending";
    case order_kind::random: return "random:" + std::to_string(order_seed.load());
  }
  return "";
}

void set_race_check(bool on) {
  read_environment();
  check_now = on;
}
bool race_check_on() {
  read_environment();
  return check_now;
}
bool race_check_traced() {
#if defined(WARPSPAN_EMU_TRACED)
  return true;
#else
  return false;
#endif
}
std::string last_race_report() {
  std::lock_guard<std::mutex> lock(report_mutex);
  return last_report;
}

namespace {
cudaError_t run_launch(const void* function, dim3 grid, dim3 block, std::size_t dynamic_smem, cudaStream_t stream,
                       const std::function<void()>& thread_body, const char* name);
}  // namespace

bool stream_capturing(cudaStream_t stream) { return capture_of(stream) != nullptr; }

void launch(const void* function, dim3 grid, dim3 block, std::size_t dynamic_smem, cudaStream_t stream,
            const std::function<void()>& thread_body, const char* name) {
  CUgraph_st* const capture = capture_of(stream);
  if (capture == nullptr) {
    run_launch(function, grid, block, dynamic_smem, stream, thread_body, name);
    return;
  }
  // A node: the configuration is checked now, as the device checks it when the launch is captured
  // (a bad one invalidates the capture), and again when the graph runs it.
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || threads > max_block_threads || grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > max_grid_x ||
      grid.y > max_grid_yz || grid.z > max_grid_yz) {
    refuse_in_capture(stream);
    record(cudaErrorInvalidConfiguration);
    return;
  }
  std::lock_guard<std::mutex> lock(handle_mutex);
  capture->nodes.push_back([=] { return run_launch(function, grid, block, dynamic_smem, nullptr, thread_body, name); });
}

namespace {
cudaError_t run_launch(const void* function, dim3 grid, dim3 block, std::size_t dynamic_smem, cudaStream_t stream,
                       const std::function<void()>& thread_body, const char* name) {
  read_environment();
  if (name == nullptr) {
    // The kernel's name from its symbol, kept for the rest of the process (the checkers hold the pointer).
    static std::mutex names_mutex;
    static std::set<std::string> names;
    std::string known = kernel_name(function);
    std::lock_guard<std::mutex> lock(names_mutex);
    name = names.insert(known.empty() ? std::string("an unnamed kernel") : known).first->c_str();
  }
  const std::uint64_t threads = std::uint64_t{block.x} * block.y * block.z;
  if (threads == 0 || threads > max_block_threads || block.x > max_block_threads || block.y > max_block_threads ||
      block.z > 64 || grid.x == 0 || grid.y == 0 || grid.z == 0 || grid.x > max_grid_x || grid.y > max_grid_yz ||
      grid.z > max_grid_yz) {
    return record(cudaErrorInvalidConfiguration);
  }
  std::size_t limit = shared_default;
  {
    std::lock_guard<std::mutex> lock(attribute_mutex);
    const auto it = max_dynamic_shared().find(function);
    if (it != max_dynamic_shared().end()) limit = std::max(limit, it->second);
  }
  if (dynamic_smem > limit) {
    return record(cudaErrorInvalidValue);  // what the device says for too much dynamic shared memory
  }
  if (!stream_ok(stream)) {
    return record(cudaErrorInvalidResourceHandle);
  }
  const std::size_t blocks = std::size_t{grid.x} * grid.y * grid.z;
  // One launch at a time from its checks to its end, whichever host thread makes it (a GPU
  // batch's two chunk workers launch at once): the race checker, the counter and the fault are
  // one launch's state. The executor alone serialised only the blocks' run, so a second thread's
  // begin_launch could replace the checker's ranges under a running kernel (an ASan report in
  // DbfPipeline.TwoChunksInFlightOnTheDeviceMatchesCpu, one run in six).
  static std::mutex whole_launch_mutex;
  const std::lock_guard<std::mutex> whole_launch(whole_launch_mutex);
  const bool check = race_check_on();
  if (check) race::begin_launch(name, device_ranges());
  const bool count = counting_on() && race_check_traced();
  if (count) counting::begin_launch(name, device_ranges());
  launch_counted = count;
  struct end_count {
    bool count;
    ~end_count() {
      if (!count) return;
      launch_counted = false;
      counting::end_launch();
    }
  } end_counting{count};
  cudaError_t result = cudaSuccess;
  {
    struct end_check {
      bool check;
      cudaError_t& result;
      ~end_check() {
        if (!check) return;
        std::string found = race::end_launch();  // already on stderr (race::report)
        if (found.empty()) return;
        {
          std::lock_guard<std::mutex> lock(report_mutex);
          last_report = std::move(found);
        }
        result = record(cudaErrorLaunchFailure);
      }
    } end{check, result};
    executor::get().run(blocks, grid, block, dynamic_smem, thread_body);
    if (const int fault = kernel_fault.exchange(cudaSuccess); fault != cudaSuccess)
      result = record(static_cast<cudaError_t>(fault));
  }
  return result;
}
}  // namespace

std::size_t allocation_count() {
  std::lock_guard<std::mutex> lock(memory_mutex);
  return allocation_calls;
}

std::size_t host_allocation_count() {
  std::lock_guard<std::mutex> lock(memory_mutex);
  return host_allocation_calls;
}

std::size_t live_host_allocations() {
  std::lock_guard<std::mutex> lock(memory_mutex);
  return host_allocations().size();
}

std::size_t live_graphs() {
  std::lock_guard<std::mutex> lock(handle_mutex);
  return graphs.size() + graph_execs.size();
}

std::size_t live_events() {
  std::lock_guard<std::mutex> lock(handle_mutex);
  return events.size();
}

void fail_call(const std::string& call, cudaError_t error, int after) {
  read_environment();
  std::lock_guard<std::mutex> lock(injection_mutex);
  injections.push_back({call, error, after});
  any_injection = true;
}

std::size_t live_streams() {
  std::lock_guard<std::mutex> lock(handle_mutex);
  return streams.size();
}

std::size_t allocation_peak(bool reset) {
  std::lock_guard<std::mutex> lock(memory_mutex);
  const std::size_t peak = allocated_peak;
  if (reset) allocated_peak = allocated_bytes;
  return peak;
}

void set_memory_limit(std::size_t bytes) {
  std::lock_guard<std::mutex> lock(memory_mutex);
  memory_limit = bytes;
}

cudaError_t set_function_attribute(const void* function, cudaFuncAttribute attr, int value) {
  if (function == nullptr) return record(cudaErrorInvalidDevicePointer);
  if (attr == cudaFuncAttributeMaxDynamicSharedMemorySize) {
    if (value < 0 || static_cast<std::size_t>(value) > shared_optin) return record(cudaErrorInvalidValue);
    std::lock_guard<std::mutex> lock(attribute_mutex);
    max_dynamic_shared()[function] = static_cast<std::size_t>(value);
    return cudaSuccess;
  }
  if (attr == cudaFuncAttributePreferredSharedMemoryCarveout) return cudaSuccess;
  return record(cudaErrorInvalidValue);
}

cudaError_t occupancy_block_size(int* min_grid, int* block, const void* function,
                                 const std::function<std::size_t(int)>& smem_of, int block_limit,
                                 std::size_t dynamic_limit, int sms);
cudaError_t occupancy_active_blocks(int* blocks, const void* function, int threads, std::size_t dynamic_smem,
                                    std::size_t dynamic_limit);

/// The dynamic shared memory `function` may take: 48 KiB unless raised by cudaFuncSetAttribute.
std::size_t dynamic_shared_limit(const void* function) {
  std::size_t smem_limit = shared_default;
  std::lock_guard<std::mutex> lock(attribute_mutex);
  const auto it = max_dynamic_shared().find(function);
  if (it != max_dynamic_shared().end()) smem_limit = std::max(smem_limit, it->second);
  return smem_limit;
}

// The calculator itself, with every kernel's registers from nvcc's report: occupancy.cpp.
cudaError_t occupancy_max_potential_block_size(int* min_grid, int* block, const void* function,
                                               const std::function<std::size_t(int)>& smem_of, int block_limit) {
  if (!min_grid || !block || !function || !smem_of) return record(cudaErrorInvalidValue);
  return record(
      occupancy_block_size(min_grid, block, function, smem_of, block_limit, dynamic_shared_limit(function), sm_count));
}

cudaError_t occupancy_max_active_blocks(int* blocks, const void* function, int threads, std::size_t dynamic_smem) {
  if (!blocks || !function) return record(cudaErrorInvalidValue);
  return record(occupancy_active_blocks(blocks, function, threads, dynamic_smem, dynamic_shared_limit(function)));
}

}  // namespace warpspan::emu

using namespace warpspan::emu;

cudaError_t cudaGetDeviceCount(int* count) {
  WARPSPAN_EMU_INJECT();
  if (!count) return record(cudaErrorInvalidValue);
  *count = 1;
  return cudaSuccess;
}
cudaError_t cudaGetDevice(int* device) {
  if (!device) return record(cudaErrorInvalidValue);
  *device = 0;
  return cudaSuccess;
}
cudaError_t cudaSetDevice(int device) { return device == 0 ? cudaSuccess : record(cudaErrorInvalidDevice); }

cudaError_t cudaGetDeviceProperties(cudaDeviceProp* prop, int device) {
  if (!prop) return record(cudaErrorInvalidValue);
  if (device != 0) return record(cudaErrorInvalidDevice);
  *prop = cudaDeviceProp{};
  std::snprintf(prop->name, sizeof prop->name, "%s", "NVIDIA H100 (CPU emulation)");
  prop->totalGlobalMem = total_memory;
  prop->sharedMemPerBlock = shared_default;
  prop->sharedMemPerBlockOptin = shared_optin;
  prop->sharedMemPerMultiprocessor = shared_per_sm;
  prop->warpSize = 32;
  prop->maxThreadsPerBlock = static_cast<int>(max_block_threads);
  prop->maxThreadsPerMultiProcessor = 2048;
  prop->multiProcessorCount = sm_count;
  prop->major = 9;
  prop->minor = 0;
  prop->memoryBusWidth = bus_width_bits;
  prop->l2CacheSize = 50 << 20;
  return cudaSuccess;
}

cudaError_t cudaDeviceGetAttribute(int* value, cudaDeviceAttr attr, int device) {
  if (!value) return record(cudaErrorInvalidValue);
  if (device != 0) return record(cudaErrorInvalidDevice);
  switch (attr) {
    case cudaDevAttrMaxThreadsPerBlock: *value = static_cast<int>(max_block_threads); break;
    case cudaDevAttrMaxBlockDimX: *value = static_cast<int>(max_block_threads); break;
    case cudaDevAttrMaxGridDimX: *value = static_cast<int>(max_grid_x); break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *value = static_cast<int>(shared_default); break;
    case cudaDevAttrWarpSize: *value = 32; break;
    case cudaDevAttrMultiProcessorCount: *value = sm_count; break;
    case cudaDevAttrMemoryClockRate: *value = memory_clock_khz; break;
    case cudaDevAttrGlobalMemoryBusWidth: *value = bus_width_bits; break;
    case cudaDevAttrL2CacheSize: *value = 50 << 20; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *value = 2048; break;
    case cudaDevAttrComputeCapabilityMajor: *value = 9; break;
    case cudaDevAttrComputeCapabilityMinor: *value = 0; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *value = static_cast<int>(shared_per_sm); break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *value = static_cast<int>(shared_optin); break;
    default: return record(cudaErrorInvalidValue);
  }
  return cudaSuccess;
}

cudaError_t cudaDeviceSynchronize() { return cudaSuccess; }
cudaError_t cudaGetLastError() { return std::exchange(last_error, cudaSuccess); }
cudaError_t cudaPeekAtLastError() { return last_error; }

const char* cudaGetErrorName(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "cudaSuccess";
    case cudaErrorInvalidValue: return "cudaErrorInvalidValue";
    case cudaErrorMemoryAllocation: return "cudaErrorMemoryAllocation";
    case cudaErrorInitializationError: return "cudaErrorInitializationError";
    case cudaErrorInvalidConfiguration: return "cudaErrorInvalidConfiguration";
    case cudaErrorInvalidDevicePointer: return "cudaErrorInvalidDevicePointer";
    case cudaErrorInvalidMemcpyDirection: return "cudaErrorInvalidMemcpyDirection";
    case cudaErrorInsufficientDriver: return "cudaErrorInsufficientDriver";
    case cudaErrorInvalidDeviceFunction: return "cudaErrorInvalidDeviceFunction";
    case cudaErrorNoDevice: return "cudaErrorNoDevice";
    case cudaErrorInvalidDevice: return "cudaErrorInvalidDevice";
    case cudaErrorInvalidResourceHandle: return "cudaErrorInvalidResourceHandle";
    case cudaErrorIllegalState: return "cudaErrorIllegalState";
    case cudaErrorStreamCaptureUnsupported: return "cudaErrorStreamCaptureUnsupported";
    case cudaErrorStreamCaptureInvalidated: return "cudaErrorStreamCaptureInvalidated";
    case cudaErrorNotReady: return "cudaErrorNotReady";
    case cudaErrorLaunchOutOfResources: return "cudaErrorLaunchOutOfResources";
    case cudaErrorLaunchFailure: return "cudaErrorLaunchFailure";
  }
  return "cudaErrorUnknown";
}

const char* cudaGetErrorString(cudaError_t error) {
  switch (error) {
    case cudaSuccess: return "no error";
    case cudaErrorInvalidValue: return "invalid argument";
    case cudaErrorMemoryAllocation: return "out of memory";
    case cudaErrorInitializationError: return "initialization error";
    case cudaErrorInvalidConfiguration: return "invalid configuration argument";
    case cudaErrorInvalidDevicePointer: return "invalid device pointer";
    case cudaErrorInvalidMemcpyDirection: return "invalid copy direction for memcpy";
    case cudaErrorInsufficientDriver: return "CUDA driver version is insufficient for CUDA runtime version";
    case cudaErrorInvalidDeviceFunction: return "invalid device function";
    case cudaErrorNoDevice: return "no CUDA-capable device is detected";
    case cudaErrorInvalidDevice: return "invalid device ordinal";
    case cudaErrorInvalidResourceHandle: return "invalid resource handle";
    case cudaErrorIllegalState: return "the operation cannot be performed in the present state";
    case cudaErrorStreamCaptureUnsupported: return "operation not permitted when stream is capturing";
    case cudaErrorStreamCaptureInvalidated: return "operation failed due to a previous error during capture";
    case cudaErrorNotReady: return "device not ready";
    case cudaErrorLaunchOutOfResources: return "too many resources requested for launch";
    case cudaErrorLaunchFailure: {
      // The race checker fails a launch with this error; its finding is the explanation.
      static thread_local std::string with_report;
      const std::string found = last_race_report();
      with_report = "unspecified launch failure" + (found.empty() ? std::string() : " (" + found + ")");
      return with_report.c_str();
    }
  }
  return "unknown error";
}

cudaError_t cudaMalloc(void** ptr, std::size_t bytes) {
  WARPSPAN_EMU_INJECT();
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = nullptr;
  std::lock_guard<std::mutex> lock(memory_mutex);
  if (bytes > device_memory() - std::min(allocated_bytes, device_memory()) || bytes > host_available())
    return record(cudaErrorMemoryAllocation);
  if (bytes == 0) return cudaSuccess;  // the device returns success and a null pointer
  void* p = ::operator new (bytes, std::align_val_t{256}, std::nothrow);
  if (!p) return record(cudaErrorMemoryAllocation);
  allocations()[reinterpret_cast<std::uintptr_t>(p)] = bytes;
  allocated_bytes += bytes;
  allocated_peak = std::max(allocated_peak, allocated_bytes);
  ++allocation_calls;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFree(void* ptr) {
  if (!ptr) return cudaSuccess;
  std::lock_guard<std::mutex> lock(memory_mutex);
  const auto it = allocations().find(reinterpret_cast<std::uintptr_t>(ptr));
  if (it == allocations().end()) return record(cudaErrorInvalidValue);
  allocated_bytes -= it->second;
  allocations().erase(it);
  ::operator delete (ptr, std::align_val_t{256});
  return cudaSuccess;
}

cudaError_t cudaMallocHost(void** ptr, std::size_t bytes) {
  WARPSPAN_EMU_INJECT();
  if (!ptr) return record(cudaErrorInvalidValue);
  *ptr = nullptr;
  std::lock_guard<std::mutex> lock(memory_mutex);
  if (bytes > host_available()) return record(cudaErrorMemoryAllocation);
  void* p = ::operator new (bytes == 0 ? 1 : bytes, std::align_val_t{256}, std::nothrow);
  if (!p) return record(cudaErrorMemoryAllocation);
  host_allocations()[reinterpret_cast<std::uintptr_t>(p)] = bytes;
  ++host_allocation_calls;
  *ptr = p;
  return cudaSuccess;
}

cudaError_t cudaFreeHost(void* ptr) {
  if (!ptr) return cudaSuccess;
  std::lock_guard<std::mutex> lock(memory_mutex);
  const auto it = host_allocations().find(reinterpret_cast<std::uintptr_t>(ptr));
  if (it == host_allocations().end()) return record(cudaErrorInvalidValue);
  host_allocations().erase(it);
  ::operator delete (ptr, std::align_val_t{256});
  return cudaSuccess;
}

cudaError_t cudaMallocAsync(void** ptr, std::size_t bytes, cudaStream_t stream) {
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  if (capture_of(stream)) return refuse_in_capture(stream);
  return cudaMalloc(ptr, bytes);
}
cudaError_t cudaFreeAsync(void* ptr, cudaStream_t stream) {
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  if (capture_of(stream)) return refuse_in_capture(stream);
  return cudaFree(ptr);
}

cudaError_t cudaMemcpy(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind) {
  WARPSPAN_EMU_INJECT();
  if (bytes == 0) return cudaSuccess;
  if (!dst || !src) return record(cudaErrorInvalidValue);
  const bool dst_device =
      kind == cudaMemcpyHostToDevice || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault;
  const bool src_device =
      kind == cudaMemcpyDeviceToHost || kind == cudaMemcpyDeviceToDevice || kind == cudaMemcpyDefault;
  if (kind < cudaMemcpyHostToHost || kind > cudaMemcpyDefault) return record(cudaErrorInvalidMemcpyDirection);
  if ((dst_device && !device_range_ok(dst, bytes)) || (src_device && !device_range_ok(src, bytes)))
    return record(cudaErrorInvalidValue);
  std::memmove(dst, src, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemcpyAsync(void* dst, const void* src, std::size_t bytes, cudaMemcpyKind kind, cudaStream_t stream) {
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  if (capture_of(stream)) return refuse_in_capture(stream);
  return cudaMemcpy(dst, src, bytes, kind);
}

cudaError_t cudaMemset(void* ptr, int value, std::size_t bytes) {
  if (bytes == 0) return cudaSuccess;
  if (!ptr || !device_range_ok(ptr, bytes)) return record(cudaErrorInvalidValue);
  std::memset(ptr, value, bytes);
  return cudaSuccess;
}
cudaError_t cudaMemsetAsync(void* ptr, int value, std::size_t bytes, cudaStream_t stream) {
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  if (CUgraph_st* const capture = capture_of(stream)) {
    if (bytes != 0 && (!ptr || !device_range_ok(ptr, bytes))) {  // checked when captured, as the device does
      refuse_in_capture(stream);
      return record(cudaErrorInvalidValue);
    }
    std::lock_guard<std::mutex> lock(handle_mutex);
    capture->nodes.push_back([=] { return cudaMemset(ptr, value, bytes); });
    return cudaSuccess;
  }
  return cudaMemset(ptr, value, bytes);
}

cudaError_t cudaMemGetInfo(std::size_t* free_bytes, std::size_t* total_bytes) {
  if (!free_bytes || !total_bytes) return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(memory_mutex);
  // Never more than the host can give: the emulated device lives in host memory.
  *free_bytes = std::min(device_memory() - std::min(allocated_bytes, device_memory()), host_available());
  *total_bytes = device_memory();
  return cudaSuccess;
}

struct CUmemPoolHandle_st {
  std::atomic<std::uint64_t> release_threshold{0};
};
namespace {
CUmemPoolHandle_st default_pool;
}  // namespace
namespace warpspan::emu {
std::uint64_t pool_release_threshold() { return default_pool.release_threshold; }
}  // namespace warpspan::emu
cudaError_t cudaDeviceGetDefaultMemPool(cudaMemPool_t* pool, int device) {
  if (!pool || device != 0) return record(cudaErrorInvalidValue);
  *pool = &default_pool;
  return cudaSuccess;
}
cudaError_t cudaMemPoolSetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (pool != &default_pool || !value || attr != cudaMemPoolAttrReleaseThreshold) return record(cudaErrorInvalidValue);
  pool->release_threshold = *static_cast<std::uint64_t*>(value);
  return cudaSuccess;
}
cudaError_t cudaMemPoolGetAttribute(cudaMemPool_t pool, cudaMemPoolAttr attr, void* value) {
  if (pool != &default_pool || !value || attr != cudaMemPoolAttrReleaseThreshold) return record(cudaErrorInvalidValue);
  *static_cast<std::uint64_t*>(value) = pool->release_threshold;
  return cudaSuccess;
}

cudaError_t cudaStreamCreate(cudaStream_t* stream) { return cudaStreamCreateWithFlags(stream, cudaStreamDefault); }
cudaError_t cudaStreamCreateWithFlags(cudaStream_t* stream, unsigned flags) {
  WARPSPAN_EMU_INJECT();
  if (!stream) return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(handle_mutex);
  streams.push_back(std::make_unique<CUstream_st>());
  streams.back()->flags = flags;
  *stream = streams.back().get();
  return cudaSuccess;
}
cudaError_t cudaStreamDestroy(cudaStream_t stream) {
  std::lock_guard<std::mutex> lock(handle_mutex);
  const auto it = std::find_if(streams.begin(), streams.end(), [&](const auto& p) { return p.get() == stream; });
  if (stream == nullptr || it == streams.end()) return record(cudaErrorInvalidResourceHandle);
  streams.erase(it);
  return cudaSuccess;
}
cudaError_t cudaStreamSynchronize(cudaStream_t stream) {
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  return capture_of(stream) ? refuse_in_capture(stream) : cudaSuccess;
}

cudaError_t cudaStreamBeginCapture(cudaStream_t stream, cudaStreamCaptureMode mode) {
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  if (mode < cudaStreamCaptureModeGlobal || mode > cudaStreamCaptureModeRelaxed) return record(cudaErrorInvalidValue);
  if (stream == nullptr) return record(cudaErrorStreamCaptureUnsupported);  // the legacy stream cannot capture
  std::lock_guard<std::mutex> lock(handle_mutex);
  if (stream->capture) return record(cudaErrorIllegalState);
  stream->capture = std::make_unique<CUgraph_st>();
  stream->capture_invalidated = false;
  return cudaSuccess;
}
cudaError_t cudaStreamEndCapture(cudaStream_t stream, cudaGraph_t* graph) {
  if (!graph) return record(cudaErrorInvalidValue);
  *graph = nullptr;
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(handle_mutex);
  if (stream == nullptr || !stream->capture) return record(cudaErrorIllegalState);
  std::unique_ptr<CUgraph_st> made = std::move(stream->capture);
  if (std::exchange(stream->capture_invalidated, false)) return record(cudaErrorStreamCaptureInvalidated);
  graphs.push_back(std::move(made));
  *graph = graphs.back().get();
  return cudaSuccess;
}
cudaError_t cudaStreamIsCapturing(cudaStream_t stream, cudaStreamCaptureStatus* status) {
  if (!status) return record(cudaErrorInvalidValue);
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  std::lock_guard<std::mutex> lock(handle_mutex);
  *status = stream == nullptr || !stream->capture ? cudaStreamCaptureStatusNone
            : stream->capture_invalidated         ? cudaStreamCaptureStatusInvalidated
                                                  : cudaStreamCaptureStatusActive;
  return cudaSuccess;
}
cudaError_t cudaGraphInstantiate(cudaGraphExec_t* exec, cudaGraph_t graph, unsigned long long flags) {
  WARPSPAN_EMU_INJECT();
  if (!exec || flags != 0) return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(handle_mutex);
  const auto it = std::find_if(graphs.begin(), graphs.end(), [&](const auto& p) { return p.get() == graph; });
  if (it == graphs.end()) return record(cudaErrorInvalidValue);
  graph_execs.push_back(std::make_unique<CUgraphExec_st>());
  graph_execs.back()->nodes = graph->nodes;
  *exec = graph_execs.back().get();
  return cudaSuccess;
}
cudaError_t cudaGraphLaunch(cudaGraphExec_t exec, cudaStream_t stream) {
  WARPSPAN_EMU_INJECT();
  if (!stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  if (capture_of(stream)) return refuse_in_capture(stream);
  std::vector<std::function<cudaError_t()>> nodes;
  {
    std::lock_guard<std::mutex> lock(handle_mutex);
    const auto it =
        std::find_if(graph_execs.begin(), graph_execs.end(), [&](const auto& p) { return p.get() == exec; });
    if (it == graph_execs.end()) return record(cudaErrorInvalidResourceHandle);
    nodes = exec->nodes;
  }
  for (const auto& node : nodes)  // one stream's capture: a chain, run in order
    if (const cudaError_t e = node(); e != cudaSuccess) return record(e);
  return cudaSuccess;
}
cudaError_t cudaGraphExecDestroy(cudaGraphExec_t exec) {
  std::lock_guard<std::mutex> lock(handle_mutex);
  const auto it = std::find_if(graph_execs.begin(), graph_execs.end(), [&](const auto& p) { return p.get() == exec; });
  if (it == graph_execs.end()) return record(cudaErrorInvalidResourceHandle);
  graph_execs.erase(it);
  return cudaSuccess;
}
cudaError_t cudaGraphDestroy(cudaGraph_t graph) {
  std::lock_guard<std::mutex> lock(handle_mutex);
  const auto it = std::find_if(graphs.begin(), graphs.end(), [&](const auto& p) { return p.get() == graph; });
  if (it == graphs.end()) return record(cudaErrorInvalidValue);
  graphs.erase(it);
  return cudaSuccess;
}

cudaError_t cudaEventCreate(cudaEvent_t* event) {
  WARPSPAN_EMU_INJECT();
  if (!event) return record(cudaErrorInvalidValue);
  std::lock_guard<std::mutex> lock(handle_mutex);
  events.push_back(std::make_unique<CUevent_st>());
  *event = events.back().get();
  return cudaSuccess;
}
cudaError_t cudaEventDestroy(cudaEvent_t event) {
  std::lock_guard<std::mutex> lock(handle_mutex);
  const auto it = std::find_if(events.begin(), events.end(), [&](const auto& p) { return p.get() == event; });
  if (it == events.end()) return record(cudaErrorInvalidResourceHandle);
  events.erase(it);
  return cudaSuccess;
}
cudaError_t cudaEventRecord(cudaEvent_t event, cudaStream_t stream) {
  WARPSPAN_EMU_INJECT();
  if (!event_ok(event) || !stream_ok(stream)) return record(cudaErrorInvalidResourceHandle);
  if (capture_of(stream)) return refuse_in_capture(stream);
  event->recorded = true;
  event->when = std::chrono::steady_clock::now();
  return cudaSuccess;
}
cudaError_t cudaEventSynchronize(cudaEvent_t event) {
  return event_ok(event) ? cudaSuccess : record(cudaErrorInvalidResourceHandle);
}
cudaError_t cudaEventElapsedTime(float* ms, cudaEvent_t start, cudaEvent_t stop) {
  if (!ms) return record(cudaErrorInvalidValue);
  if (!event_ok(start) || !event_ok(stop)) return record(cudaErrorInvalidResourceHandle);
  if (!start->recorded || !stop->recorded) return record(cudaErrorInvalidResourceHandle);
  *ms = std::chrono::duration<float, std::milli>(stop->when - start->when).count();
  return cudaSuccess;
}
