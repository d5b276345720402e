// The SIMT cost model (include/warpspan/inputs/model.hpp), run through a harness's descriptor.
#include "warpspan/inputs/model.hpp"

#include <algorithm>
#include <bit>

#include <cstring>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/worker.hpp"
#include "warpspan/sm/presets.hpp"

namespace warpspan::inputs {

model_config make_model(const std::string& sm, std::int64_t sms) {
  if (sms < 1 || sms > 100000)
    throw input_error(param("sms") + " must be between 1 and 100000, got " + std::to_string(sms));
  const sm_config config = load_sm(sm);
  model_config cfg;
  cfg.sm = normalize(config);
  cfg.sm_name = config.name;
  cfg.sms = static_cast<std::uint32_t>(sms);
  cfg.warp_size = static_cast<std::uint32_t>(config.warp_size);
  if (cfg.sm.sigma[static_cast<int>(unit::C)] == 0 || cfg.sm.sigma[static_cast<int>(unit::L)] == 0)
    throw input_error("the SM '" + config.name + "' needs C and L units for the inputs model");
  return cfg;
}

std::vector<std::uint32_t> observed_ipdom(const block_record& rec, std::uint32_t nodes) {
  // Post-dominator sets as bitsets over the observed edges, by the usual fixed point from EXIT.
  const std::uint32_t exit = nodes - 1;
  const std::size_t words = (nodes + 63) / 64;
  thread_local std::vector<std::uint64_t> succ, pdom, next;
  thread_local std::vector<std::uint8_t> seen;
  succ.assign(std::size_t{nodes} * words, 0);
  seen.assign(nodes, 0);
  for (std::size_t l = 0; l < rec.lanes(); ++l) {
    for (std::uint32_t i = rec.lane_begin[l]; i < rec.lane_begin[l + 1]; ++i) {
      const std::uint32_t n = rec.node[i];
      seen[n] = 1;
      if (i + 1 < rec.lane_begin[l + 1]) {
        const std::uint32_t m = rec.node[i + 1];
        succ[n * words + m / 64] |= std::uint64_t{1} << (m % 64);
      }
    }
  }
  // Blocks of one launch mostly trace the same graph: the last answer is kept.
  thread_local std::vector<std::uint64_t> last_succ;
  thread_local std::vector<std::uint8_t> last_seen;
  thread_local std::vector<std::uint32_t> last_ipdom;
  if (succ == last_succ && seen == last_seen && last_ipdom.size() == nodes) return last_ipdom;
  pdom.assign(std::size_t{nodes} * words, ~std::uint64_t{0});
  for (std::size_t w = 0; w < words; ++w) pdom[exit * words + w] = 0;
  pdom[exit * words + exit / 64] = std::uint64_t{1} << (exit % 64);
  next.assign(words, 0);
  for (bool changed = true; changed;) {
    changed = false;
    for (std::uint32_t n = nodes; n-- > 0;) {
      if (n == exit || !seen[n]) continue;
      std::fill(next.begin(), next.end(), ~std::uint64_t{0});
      bool any = false;
      for (std::uint32_t m = 0; m < nodes; ++m) {
        if (!(succ[n * words + m / 64] >> (m % 64) & 1)) continue;
        any = true;
        for (std::size_t w = 0; w < words; ++w) next[w] &= pdom[m * words + w];
      }
      if (!any) std::fill(next.begin(), next.end(), 0);  // cannot happen: every lane ends at EXIT
      next[n / 64] |= std::uint64_t{1} << (n % 64);
      for (std::size_t w = 0; w < words; ++w) {
        if (pdom[n * words + w] != next[w]) {
          pdom[n * words + w] = next[w];
          changed = true;
        }
      }
    }
  }
  const auto size_of = [&](std::uint32_t n) {
    int c = 0;
    for (std::size_t w = 0; w < words; ++w) c += std::popcount(pdom[n * words + w]);
    return c;
  };
  std::vector<std::uint32_t> ipdom(nodes, nodes);
  ipdom[exit] = exit;
  for (std::uint32_t n = 0; n < nodes; ++n) {
    if (n == exit || !seen[n]) continue;
    // The strict post-dominators form a chain; the immediate one has the largest set of its own.
    const int want = size_of(n) - 1;
    for (std::uint32_t d = 0; d < nodes; ++d)
      if (d != n && (pdom[n * words + d / 64] >> (d % 64) & 1) && size_of(d) == want) ipdom[n] = d;
  }
  last_succ = succ;
  last_seen = seen;
  last_ipdom = ipdom;
  return ipdom;
}

namespace {

/// Warp instructions of the active lanes' ops at one index of a node execution.
struct request_costs {
  std::vector<std::uint64_t> addresses;
  /// Sorts `addresses` (lanes usually come in address order already) and drops repeats.
  void sort_unique() {
    if (!std::is_sorted(addresses.begin(), addresses.end())) std::sort(addresses.begin(), addresses.end());
    addresses.erase(std::unique(addresses.begin(), addresses.end()), addresses.end());
  }
  /// Distinct 32-byte sectors of the global accesses in `ops`.
  std::uint64_t sectors(const std::vector<const lane_op*>& ops) {
    addresses.clear();
    for (const lane_op* o : ops)
      for (std::uint64_t s = o->address >> 5; s <= (o->address + o->size - 1) >> 5; ++s) addresses.push_back(s);
    sort_unique();
    return addresses.size();
  }
  /// Bank-conflict degree of shared accesses: the most distinct 4-byte words in one of 32 banks.
  std::uint64_t conflicts(const std::vector<const lane_op*>& ops) {
    addresses.clear();
    for (const lane_op* o : ops)
      for (std::uint64_t w = o->address >> 2; w <= (o->address + o->size - 1) >> 2; ++w) addresses.push_back(w);
    sort_unique();
    std::uint64_t per_bank[32] = {};
    std::uint64_t degree = 0;
    for (std::uint64_t w : addresses) degree = std::max(degree, ++per_bank[w % 32]);
    return degree;
  }
  /// Atomics: the most lanes on one address.
  std::uint64_t rounds(const std::vector<const lane_op*>& ops) {
    addresses.clear();
    for (const lane_op* o : ops) addresses.push_back(o->address);
    if (!std::is_sorted(addresses.begin(), addresses.end())) std::sort(addresses.begin(), addresses.end());
    std::uint64_t best = 0, run = 0;
    for (std::size_t i = 0; i < addresses.size(); ++i) {
      run = (i > 0 && addresses[i] == addresses[i - 1]) ? run + 1 : 1;
      best = std::max(best, run);
    }
    return best;
  }
};

}  // namespace

namespace {
/// A warp's instructions as runs of one letter (run-length: 3L8C), merged as they come.
struct letter_runs {
  std::vector<std::pair<char, std::uint64_t>> runs;
  void add(char letter, std::uint64_t n) {
    if (n == 0) return;
    if (!runs.empty() && runs.back().first == letter)
      runs.back().second += n;
    else
      runs.emplace_back(letter, n);
  }
  std::string text() const {
    std::string s;
    for (const auto& [letter, n] : runs) s += (n == 1 ? std::string() : std::to_string(n)) + letter;
    return s;
  }
};

/// Identical strings grouped in the order of their first warp, empty ones left out.
std::string group_warps(const std::vector<std::string>& strings, std::uint32_t& warps) {
  std::vector<std::pair<std::string, std::uint32_t>> groups;
  warps = 0;
  for (const std::string& s : strings) {
    if (s.empty()) continue;
    ++warps;
    auto it = std::find_if(groups.begin(), groups.end(), [&](const auto& g) { return g.first == s; });
    if (it == groups.end())
      groups.emplace_back(s, 1);
    else
      ++it->second;
  }
  std::string spec;
  for (const auto& [s, n] : groups) spec += (spec.empty() ? "" : ",") + s + ":" + std::to_string(n);
  return spec;
}
}  // namespace

block_cost simulate_block(const model_config& cfg, const block_record& rec, std::uint32_t nodes,
                          std::vector<std::string>* warp_strings) {
  const std::uint32_t exit = nodes - 1;
  const std::vector<std::uint32_t> ipdom = observed_ipdom(rec, nodes);
  const std::uint32_t ws = std::min<std::uint32_t>(std::max<std::uint32_t>(cfg.warp_size, 1), 64);
  const std::uint64_t copies_c = static_cast<std::uint64_t>(cfg.sm.copies[static_cast<int>(unit::C)]);
  const std::uint64_t copies_l = static_cast<std::uint64_t>(cfg.sm.copies[static_cast<int>(unit::L)]);
  const std::size_t lanes = rec.lanes();
  struct entry {
    std::uint32_t pc;
    std::uint64_t mask;
    std::uint32_t rpc;
  };
  thread_local std::vector<entry> stack;
  thread_local std::vector<std::uint32_t> cursor;
  thread_local std::vector<std::vector<std::uint64_t>> segments;  // per warp, cycles per barrier segment
  thread_local std::vector<const lane_op*> groups_by_kind[3];     // global, shared, atomic
  thread_local request_costs req;
  block_cost cost;
  const std::size_t warps = (lanes + ws - 1) / ws;
  if (segments.size() < warps) segments.resize(warps);
  thread_local std::vector<letter_runs> letters;
  if (warp_strings) letters.assign(warps, letter_runs{});
  for (std::size_t w = 0; w < warps; ++w) {
    auto& seg = segments[w];
    seg.assign(1, 0);
    const std::size_t first = w * ws, count = std::min<std::size_t>(ws, lanes - first);
    cursor.assign(count, 0);
    for (std::size_t l = 0; l < count; ++l) cursor[l] = rec.lane_begin[first + l];
    stack.clear();
    const std::uint64_t all = count == 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << count) - 1;
    stack.push_back({rec.node[cursor[0]], all, exit});
    while (!stack.empty()) {
      entry& top = stack.back();
      if (top.pc == top.rpc || top.pc == exit) {  // reconverged (or done): the entry below goes on
        stack.pop_back();
        continue;
      }
      const std::uint64_t mask = top.mask;
      // Execute node pc for the active lanes, the k-th op of every lane as one warp instruction.
      std::size_t longest = 0;
      for (std::uint64_t m = mask; m; m &= m - 1) {
        const std::size_t l = static_cast<std::size_t>(__builtin_ctzll(m));
        const std::uint32_t i = cursor[l];
        longest = std::max<std::size_t>(longest, rec.ops_begin[i + 1] - rec.ops_begin[i]);
      }
      for (std::size_t k = 0; k < longest; ++k) {
        std::uint64_t work = 0;
        bool barrier = false;
        for (auto& g : groups_by_kind) g.clear();
        for (std::uint64_t m = mask; m; m &= m - 1) {
          const std::uint32_t i = cursor[static_cast<std::size_t>(__builtin_ctzll(m))];
          if (rec.ops_begin[i] + k >= rec.ops_begin[i + 1]) continue;
          const lane_op& o = rec.ops[rec.ops_begin[i] + k];
          switch (o.kind) {
            case op_kind::work: work = std::max<std::uint64_t>(work, o.size); break;
            case op_kind::barrier: barrier = true; break;
            case op_kind::global: groups_by_kind[0].push_back(&o); break;
            case op_kind::shared: groups_by_kind[1].push_back(&o); break;
            case op_kind::atomic: groups_by_kind[2].push_back(&o); break;
          }
        }
        std::uint64_t slots = 0;
        if (!groups_by_kind[0].empty()) slots += req.sectors(groups_by_kind[0]);
        if (!groups_by_kind[1].empty()) slots += req.conflicts(groups_by_kind[1]);
        if (!groups_by_kind[2].empty()) slots += req.rounds(groups_by_kind[2]);
        cost.memory += slots;
        cost.compute += work;
        seg.back() += slots * copies_l + work * copies_c;
        if (barrier) seg.push_back(0);
        if (warp_strings) {
          letters[w].add('C', work);
          letters[w].add('L', slots);
          if (barrier) letters[w].add('B', 1);
        }
      }
      // Advance the active lanes and group them by their next node.
      std::uint32_t next_nodes[64];
      std::uint64_t next_masks[64];
      std::size_t groups = 0;
      for (std::uint64_t m = mask; m; m &= m - 1) {
        const std::size_t l = static_cast<std::size_t>(__builtin_ctzll(m));
        const std::uint32_t nx = rec.node[++cursor[l]];
        std::size_t g = 0;
        while (g < groups && next_nodes[g] != nx) ++g;
        if (g == groups) {
          next_nodes[groups] = nx;
          next_masks[groups++] = 0;
        }
        next_masks[g] |= std::uint64_t{1} << l;
      }
      if (groups == 1) {
        top.pc = next_nodes[0];
        continue;
      }
      // Divergence: wait at the immediate post-dominator, the groups run one after another (the
      // lowest node first). When it is the entry's own reconvergence point, the entry is replaced.
      const std::uint32_t r = ipdom[top.pc];
      if (r == top.rpc) {
        stack.pop_back();
      } else {
        top.pc = r;
      }
      std::sort(next_nodes, next_nodes + groups);  // masks re-derived below, in node order
      for (std::size_t g = groups; g-- > 0;) {
        std::uint64_t gm = 0;
        for (std::uint64_t m = mask; m; m &= m - 1) {
          const std::size_t l = static_cast<std::size_t>(__builtin_ctzll(m));
          if (rec.node[cursor[l]] == next_nodes[g]) gm |= std::uint64_t{1} << l;
        }
        stack.push_back({next_nodes[g], gm, r});
      }
    }
  }
  if (warp_strings) {
    warp_strings->clear();
    for (std::size_t w = 0; w < warps; ++w) warp_strings->push_back(letters[w].text());
  }
  // Barrier segments: a block waits for its slowest warp in each.
  std::size_t most = 0;
  for (std::size_t w = 0; w < warps; ++w) most = std::max(most, segments[w].size());
  for (std::size_t s = 0; s < most; ++s) {
    std::uint64_t slowest = 0;
    for (std::size_t w = 0; w < warps; ++w)
      if (s < segments[w].size()) slowest = std::max(slowest, segments[w][s]);
    cost.cycles += slowest;
  }
  return cost;
}

std::uint64_t sm_cycles(const model_config& cfg, std::uint64_t max_warp, std::uint64_t compute, std::uint64_t memory) {
  const auto ceil_div = [](std::uint64_t a, std::uint64_t b) { return (a + b - 1) / b; };
  const int C = static_cast<int>(unit::C), L = static_cast<int>(unit::L);
  std::uint64_t t = max_warp;
  t = std::max(
      t, ceil_div(compute * static_cast<std::uint64_t>(cfg.sm.copies[C]), static_cast<std::uint64_t>(cfg.sm.sigma[C])));
  t = std::max(
      t, ceil_div(memory * static_cast<std::uint64_t>(cfg.sm.copies[L]), static_cast<std::uint64_t>(cfg.sm.sigma[L])));
  if (cfg.sm.schedulers > 0) t = std::max(t, ceil_div(compute + memory, static_cast<std::uint64_t>(cfg.sm.schedulers)));
  return t;
}

namespace {

/// Buffers the model works in, aligned as cudaMalloc's (256 bytes), so that sector and bank
/// numbers do not depend on where the host allocator put them.
class aligned_ints {
 public:
  void assign(std::size_t n, std::int32_t value) {
    storage_.assign(n + 64, value);
    const auto at = reinterpret_cast<std::uintptr_t>(storage_.data());
    offset_ = ((256 - at % 256) % 256) / sizeof(std::int32_t);
    size_ = n;
  }
  std::int32_t* data() { return storage_.data() + offset_; }
  std::size_t size() const { return size_; }

 private:
  std::vector<std::int32_t> storage_;
  std::size_t offset_ = 0, size_ = 0;
};

/// What the recording hooks of one thread work with: the C hook table's context. The checks are
/// inline; what they say when they fail is not (the hooks run millions of times per evaluation).
struct recording {
  lane_hooks* hooks = nullptr;
  std::uint32_t branches = 0;
  std::uint64_t calls = 0;
  std::uintptr_t scratch_lo = 0, scratch_hi = 0, shared_lo = 0, shared_hi = 0;
  bool failed = false;
  std::string error;                            ///< the first hook called wrongly in this thread
  std::string (*where)(const void*) = nullptr;  ///< names the thread running (for a worker's message)
  const void* where_arg = nullptr;

  [[gnu::noinline, gnu::cold]] void fail(std::string what) {
    // In a worker process the thread is ended here: a harness looping on a hook whose answer it
    // ignores (h.work(1) forever) would never return to be told.
    if (in_worker()) worker_fail((where ? where(where_arg) + ": " : std::string()) + what);
    if (!failed) error = std::move(what);
    failed = true;
  }
  /// Counts a call; false once something went wrong (the hooks then record nothing).
  bool ok() {
    if (++calls > max_hook_calls && !failed) [[unlikely]]
      fail("it called the hooks more than " + std::to_string(max_hook_calls) +
           " times in one launch (an endless loop?)");
    return !failed;
  }
  bool id_ok(const char* hook, std::uint32_t id) {
    if (id < branches) [[likely]]
      return true;
    bad_id(hook, id);
    return false;
  }
  bool access_ok(const char* hook, std::uint32_t bytes, std::uint32_t sp) {
    if (sp <= WARPSPAN_SPACE_SHARED && bytes <= max_access_bytes) [[likely]]
      return true;
    bad_access(hook, bytes, sp);
    return false;
  }
  [[gnu::noinline, gnu::cold]] void bad_id(const char* hook, std::uint32_t id) {
    fail(std::string(hook) + "(" + std::to_string(id) + "): the id must be below its branches (" +
         std::to_string(branches) + ")");
  }
  [[gnu::noinline, gnu::cold]] void bad_access(const char* hook, std::uint32_t bytes, std::uint32_t sp) {
    if (sp > WARPSPAN_SPACE_SHARED)
      fail(std::string(hook) + ": memory space " + std::to_string(sp) + " is neither global (0) nor shared (1)");
    else
      fail(std::string(hook) + " of " + std::to_string(bytes) + " bytes: at most " + std::to_string(max_access_bytes) +
           " a call");
  }
};

/// Runs a hook, turning anything thrown in warpspan's side (out of memory) into the thread's error:
/// nothing may unwind into the harness's C frames.
template <class F>
auto guarded(void* c, F&& f, decltype(f()) otherwise) noexcept -> decltype(f()) {
  auto& r = *static_cast<recording*>(c);
  try {
    if (r.ok()) return f();
  } catch (const std::exception& e) {
    r.fail(std::string("warpspan ran out of resources recording it: ") + e.what());
  }
  return otherwise;
}

recording& rec_of(void* c) { return *static_cast<recording*>(c); }

const warpspan_hooks recording_table = {
    nullptr,
    [](void* c, std::uint32_t id, int taken) -> int {
      return guarded(
          c, [&] { return rec_of(c).id_ok("branch", id) ? (rec_of(c).hooks->branch(id, taken != 0) ? 1 : 0) : 0; }, 0);
    },
    [](void* c, std::uint32_t id) {
      guarded(
          c,
          [&] {
            if (rec_of(c).id_ok("join", id)) rec_of(c).hooks->join(id);
            return 0;
          },
          0);
    },
    [](void* c, std::uint32_t id, std::int32_t a, std::int32_t b) {
      guarded(
          c,
          [&] {
            rec_of(c).hooks->compare(id, a, b);
            return 0;
          },
          0);
    },
    [](void* c, std::uint32_t n) {
      guarded(
          c,
          [&] {
            rec_of(c).hooks->work(n);
            return 0;
          },
          0);
    },
    [](void* c, const void* p, std::uint32_t bytes, std::uint32_t sp) {
      guarded(
          c,
          [&] {
            if (rec_of(c).access_ok("load", bytes, sp)) rec_of(c).hooks->load(p, bytes, static_cast<space>(sp));
            return 0;
          },
          0);
    },
    [](void* c, const void* p, std::uint32_t bytes, std::uint32_t sp) {
      guarded(
          c,
          [&] {
            if (rec_of(c).access_ok("store", bytes, sp)) rec_of(c).hooks->store(p, bytes, static_cast<space>(sp));
            return 0;
          },
          0);
    },
    [](void* c, std::int32_t* p, std::int32_t v) -> std::int32_t {
      return guarded(
          c,
          [&]() -> std::int32_t {
            recording& r = rec_of(c);
            const auto at = reinterpret_cast<std::uintptr_t>(p);
            const bool in_scratch = at >= r.scratch_lo && at + 4 <= r.scratch_hi;
            const bool in_shared = at >= r.shared_lo && at + 4 <= r.shared_hi;
            if (at % 4 != 0 || !(in_scratch || in_shared)) {
              r.fail("atomic_add on an address outside its scratch and shared memory (or not 4-byte aligned)");
              return 0;
            }
            r.hooks->atomic_record(p);
            const std::int32_t old = *p;
            *p = static_cast<std::int32_t>(static_cast<std::uint32_t>(old) +
                                           static_cast<std::uint32_t>(v));  // wraps as the device's
            return old;
          },
          0);
    },
    [](void* c) {
      guarded(
          c,
          [&] {
            rec_of(c).hooks->barrier();
            return 0;
          },
          0);
    },
};

}  // namespace

model_run run_model(const kernel_harness& k, const model_config& cfg, const std::vector<std::int32_t>& genome,
                    std::uint32_t threads, std::vector<thread_trace>* traces, block_warp_kernels* slowest) {
  check_threads(threads);
  k.check_length(genome.size(), threads);
  thread_local aligned_ints input, scratch_buffer, shared_buffer;
  thread_local block_record record;
  input.assign(k.genes(threads), 0);
  k.decode(genome.data(), threads, input.data());
  const std::uint64_t words = k.scratch_words(threads);
  scratch_buffer.assign(static_cast<std::size_t>(words), 0);
  std::int32_t* scratch = scratch_buffer.data();
  k.init_scratch(input.data(), scratch, threads);
  const std::uint64_t flag = k.flag_index(threads);
  const output_range out = k.output(threads);
  const std::size_t shared_words = (k.shared_bytes() + 3) / 4;
  shared_buffer.assign(shared_words, 0);
  const std::uint32_t nodes = exit_node(k.branches()) + 1;
  lane_hooks hooks(record, k.branches());
  recording rec;
  rec.hooks = &hooks;
  rec.branches = k.branches();
  rec.scratch_lo = reinterpret_cast<std::uintptr_t>(scratch);
  rec.scratch_hi = rec.scratch_lo + words * 4;
  rec.shared_lo = reinterpret_cast<std::uintptr_t>(shared_buffer.data());
  rec.shared_hi = rec.shared_lo + shared_words * 4;
  warpspan_hooks table = recording_table;
  table.context = &rec;
  warpspan_thread t{input.data(),
                    scratch,
                    shared_words ? shared_buffer.data() : nullptr,
                    threads,
                    0,
                    0,
                    0,
                    k.genes_per_thread(),
                    k.genes_per_block()};
  char error[WARPSPAN_HARNESS_ERROR_SIZE];
  thread_trace scratch_trace;
  if (traces) traces->assign(threads, thread_trace{});
  const std::uint32_t blocks = k.blocks(threads);
  struct sm_totals {
    std::uint64_t max_block = 0, compute = 0, memory = 0;
  };
  // Only the SMs that receive a block: block b goes to SM b mod sms, so with fewer blocks than SMs
  // the others stay idle and cost nothing (--sms 100000 runs as fast as --sms = blocks).
  std::vector<sm_totals> sms(std::min(cfg.sms, std::max<std::uint32_t>(blocks, 1)));
  model_run run;
  bool found_slowest = false;
  if (slowest) *slowest = block_warp_kernels{};
  for (std::uint32_t round = 0;; ++round) {
    if (k.iterative()) scratch[flag] = 0;
    for (std::uint32_t stage = 0; stage < k.stages(); ++stage) {
      std::fill(sms.begin(), sms.end(), sm_totals{});
      for (std::uint32_t b = 0; b < blocks; ++b) {
        auto& sm = sms[b % cfg.sms];
        record.clear();
        std::fill(shared_buffer.data(), shared_buffer.data() + shared_words, 0);
        const std::uint64_t first = std::uint64_t{b} * k.block();
        const std::uint64_t last = std::min<std::uint64_t>(first + k.block(), threads);
        for (std::uint64_t tid = first; tid < last; ++tid) {
          thread_trace* tt = traces ? &scratch_trace : nullptr;
          hooks.begin(tt);
          rec.calls = 0;
          t.tid = static_cast<std::uint32_t>(tid);
          t.block = b;
          t.stage = stage;
          error[0] = 0;
          const auto which = [&] {
            return k.label() + ": thread " + std::to_string(tid) + " (block " + std::to_string(b) + ", stage " +
                   std::to_string(stage) + ")";
          };
          rec.where = [](const void* f) { return (*static_cast<const decltype(which)*>(f))(); };
          rec.where_arg = &which;
          // A thread function written against the C descriptor may throw anything through here.
          int rc = 0;
          try {
            rc = k.run_thread(table, t, error);
          } catch (const std::exception& e) {
            throw input_error(which() + " threw: " + printable_text(e.what()));
          } catch (...) {
            throw input_error(which() + " threw an exception that is not a std::exception");
          }
          if (rec.failed) throw input_error(which() + ": " + rec.error);
          if (rc != 0) throw input_error(which() + " threw: " + harness_message(error));
          hooks.end();
          if (traces) {
            auto& into = (*traces)[tid];
            if (into.legs.empty()) {
              into = scratch_trace;
            } else {
              into.path = (into.path ^ scratch_trace.path) * 1099511628211ull;
              into.instructions += scratch_trace.instructions;
              for (std::size_t i = 0; i < into.legs.size(); ++i) into.legs[i] |= scratch_trace.legs[i];
              into.compares.insert(into.compares.end(), scratch_trace.compares.begin(), scratch_trace.compares.end());
            }
          }
        }
        hooks.finish();
        thread_local std::vector<std::string> strings;
        const block_cost c = simulate_block(cfg, record, nodes, slowest ? &strings : nullptr);
        if (slowest && (!found_slowest || c.cycles > slowest->cycles)) {
          found_slowest = true;
          slowest->spec = group_warps(strings, slowest->warps);
          slowest->block = b;
          slowest->stage = stage;
          slowest->launch = run.launches;
          slowest->cycles = c.cycles;
        }
        sm.max_block = std::max(sm.max_block, c.cycles);
        sm.compute += c.compute;
        sm.memory += c.memory;
      }
      std::uint64_t launch = 0;
      for (const auto& sm : sms) launch = std::max(launch, sm_cycles(cfg, sm.max_block, sm.compute, sm.memory));
      run.cycles += launch;
      ++run.launches;
      worker_tick();  // progress, in a worker process
    }
    if (!k.iterative() || scratch[flag] == 0 || round >= threads) break;
  }
  run.output.assign(scratch + out.offset, scratch + out.offset + out.size);
  return run;
}

std::vector<std::uint64_t> model_cycles_batch(const kernel_harness& k, const model_config& cfg,
                                              const std::vector<std::vector<std::int32_t>>& genomes,
                                              std::uint32_t threads, thread_pool& pool) {
  std::vector<std::uint64_t> out(genomes.size());
  pool.run(genomes.size(), [&](std::size_t i) { out[i] = run_model(k, cfg, genomes[i], threads).cycles; });
  return out;
}

}  // namespace warpspan::inputs
