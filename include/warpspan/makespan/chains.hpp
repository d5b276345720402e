// Chains of the annealing search: where one chain's state lives in memory, how chains start, and
// the backend entry points, declared once and implemented by host/ (CPU) and cuda/ (GPU).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/core/macros.hpp"
#include "warpspan/core/occupancy.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/makespan/anneal.hpp"
#include "warpspan/makespan/problem.hpp"

namespace warpspan {

/// The element widths of a chain's arrays. `wide`: 16-bit string and usage counters, 32-bit cycles,
/// progress, last and undo (any problem the builder takes). `narrow`: 8-bit string and usage
/// counters, 16-bit cycles, progress, last and undo, and the usage table only up to the
/// pessimistic bound (problem_view::bound) instead of the horizon n, under half the bytes, for
/// problems where every value fits (narrow_fits()). `compact`: every element 8-bit, the usage
/// table as narrow, for problems whose bound, warps and I are at most 255 (compact_fits();
/// Voronoi W = 16: 1,632 working bytes, against 2,464 narrow and 5,744 wide). The builder's arithmetic is the same at every width (values are
/// read into 32-bit integers and every stored value fits its element), so all give the same
/// schedules and the same chains, bit for bit.
enum class chain_packing : std::uint8_t { wide, narrow, compact };

/// Whether every value a chain stores fits the narrow widths: warp ids and usage counters (a warp
/// issues at most one instruction a cycle, so a counter never exceeds W) at most 255, cycles (at
/// most the horizon) and a warp's progress (at most I) at most 65,535.
WARPSPAN_HD_INLINE bool narrow_fits(const problem_view& p) {
  return p.warps <= 255u && p.horizon <= 0xFFFFu && p.instructions <= 0xFFFFu;
}
/// Whether every value fits the compact widths: warp ids, usage counters and progress as narrow
/// (W and I at most 255) and every cycle the builder places at most the pessimistic bound
/// (problem_view::bound, proven in bounds.hpp), itself at most 255.
WARPSPAN_HD_INLINE bool compact_fits(const problem_view& p) {
  return p.warps <= 255u && p.instructions <= 255u && p.bound != 0 && p.bound <= 255u;
}
/// The narrowest packing that fits `p`.
WARPSPAN_HD_INLINE chain_packing pick_chain_packing(const problem_view& p) {
  return compact_fits(p) ? chain_packing::compact : narrow_fits(p) ? chain_packing::narrow : chain_packing::wide;
}
std::string to_string(chain_packing k);
/// The one word that names a packing in --json and the tables: wide, narrow or compact.
inline const char* packing_name(chain_packing k) {
  return k == chain_packing::compact ? "compact" : k == chain_packing::narrow ? "narrow" : "wide";
}
/// The CUDA chains' packing: `asked`, or the narrowest that fits when unset. The kernels that read
/// the instruction types from global memory (`stage_types` false) are compiled wide only. A packing
/// asked where it does not fit, or narrower than wide without staged types, is a
/// std::invalid_argument saying why.
inline chain_packing resolve_chain_packing(const problem_view& p, std::optional<chain_packing> asked,
                                           bool stage_types = true) {
  if (!asked) return stage_types ? pick_chain_packing(p) : chain_packing::wide;
  if (*asked == chain_packing::narrow && !narrow_fits(p))
    throw std::invalid_argument(
        "narrow chains need W <= 255, a horizon and I <= 65,535; this problem has W = " + std::to_string(p.warps) +
        ", horizon " + std::to_string(p.horizon) + ", I = " + std::to_string(p.instructions));
  if (*asked == chain_packing::compact && !compact_fits(p))
    throw std::invalid_argument(
        "compact chains need W, I and the pessimistic bound <= 255; this problem has W = " + std::to_string(p.warps) +
        ", I = " + std::to_string(p.instructions) + ", bound " + std::to_string(p.bound));
  if (*asked != chain_packing::wide && !stage_types)
    throw std::invalid_argument(std::string(packing_name(*asked)) +
                                " chains need the instruction types in shared memory");
  return *asked;
}

/// How the CUDA backend runs its chains. `thread`: one thread a chain, with the shared step of
/// anneal.hpp (the state on chip, interleaved by word, where a block's worth fits, else in global
/// memory). `warp`: the 32 lanes of a warp (a block of one warp) run one chain together, with the
/// team step of team_schedule.hpp, its state on chip; for chains too large for a thread's share of
/// the chip (W = 64 Voronoi: 9.8 KB of working state a chain, 312 KB for a warp of them). Both make the same
/// chains, bit for bit.
enum class chain_design : std::uint8_t { thread, warp };
/// The word that names a design in --json and the tables: "thread" or "warp".
inline const char* design_name(chain_design d) { return d == chain_design::warp ? "warp" : "thread"; }

/// The problem as a chain of `packing` is built with: a compact or narrow chain's usage table ends
/// at the pessimistic bound (no placement lies past it), so its horizon is the bound; a wide chain
/// (the CPU's, among others) keeps the horizon n.
WARPSPAN_HD_INLINE problem_view chain_problem(const problem_view& p, chain_packing packing) {
  problem_view q = p;
  if (packing != chain_packing::wide) q.horizon = last_placed_cycle(p);
  return q;
}

/// The element types of a packing: `small` for the string and usage counters, `large` for cycles,
/// progress, last and undo.
template <chain_packing Packing>
struct chain_elements {
  using small = std::uint16_t;
  using large = std::uint32_t;
};
template <>
struct chain_elements<chain_packing::narrow> {
  using small = std::uint8_t;
  using large = std::uint16_t;
};
template <>
struct chain_elements<chain_packing::compact> {
  using small = std::uint8_t;
  using large = std::uint8_t;
};

/// Byte offsets of one chain's arrays inside its block; the large-element arrays (cycles, undo,
/// progress, last) first, then the small-element ones (usage, string): see chain_packing. Every
/// array takes a whole number of 32-bit words (the word-interleaved view on chip needs it).
struct chain_layout {
  std::size_t cycle = 0, undo = 0, progress = 0, last = 0, usage = 0, str = 0, best = 0;
  std::size_t bytes = 0;  ///< whole block, a multiple of 16; `best` is 16-byte aligned too
  chain_packing packing = chain_packing::wide;
};

WARPSPAN_HD_INLINE chain_layout make_chain_layout(const problem_view& p, chain_packing packing = chain_packing::wide) {
  const std::size_t large = packing == chain_packing::wide ? 4 : packing == chain_packing::narrow ? 2 : 1;
  const std::size_t small = packing == chain_packing::wide ? 2 : 1;
  const problem_view q = chain_problem(p, packing);
  const auto words = [](std::size_t bytes) { return (bytes + 3) / 4 * 4; };
  chain_layout l;
  l.packing = packing;
  std::size_t at = 0;
  l.cycle = at;
  at += words(large * static_cast<std::size_t>(q.length));
  l.undo = at;
  at += words(large * static_cast<std::size_t>(q.length));
  l.progress = at;
  at += words(large * q.warps);
  l.last = at;
  at += words(large * q.warps);
  l.usage = at;
  at += words(small * static_cast<std::size_t>(q.horizon + 1) * q.stride);
  l.str = at;
  at += words(small * static_cast<std::size_t>(q.length));
  // The best string (16-bit at every packing: it is written only on improvement and read back by
  // the host) starts on a 16-byte boundary: everything before it is the working state, which the
  // CUDA kernel moves on and off chip in 16-byte words, so the copy back must end where best
  // begins (an unaligned best had its first entries overwritten by stale working bytes).
  at = (at + 15) / 16 * 16;
  l.best = at;
  at += sizeof(std::uint16_t) * static_cast<std::size_t>(q.length);
  l.bytes = (at + 15) / 16 * 16;
  return l;
}

/// A chain stored alone, through element types `Small` and `Large` (the layout's packing:
/// chain_elements).
/// A chain's view from the pointers `small(offset)` and `large(offset)` make of each array's offset
/// in the layout: one place that lists the arrays, for every way chains are stored.
template <class PSmall, class PLarge, class SmallAt, class LargeAt>
WARPSPAN_HD_INLINE basic_chain_view<PSmall, PLarge> view_from(const chain_layout& l, SmallAt small, LargeAt large) {
  basic_chain_view<PSmall, PLarge> v;
  v.cycle = large(l.cycle);
  v.undo = large(l.undo);
  v.progress = large(l.progress);
  v.last = large(l.last);
  v.usage = small(l.usage);
  v.str = small(l.str);
  return v;
}

/// A chain stored alone, through element types `Small` and `Large` (the layout's packing:
/// chain_elements).
template <class Small, class Large>
WARPSPAN_HD_INLINE basic_chain_view<Small*, Large*> view_as(unsigned char* block, const chain_layout& l) {
  return view_from<Small*, Large*>(
      l, [&](std::size_t offset) { return reinterpret_cast<Small*>(block + offset); },
      [&](std::size_t offset) { return reinterpret_cast<Large*>(block + offset); });
}

WARPSPAN_HD_INLINE chain_view chain_view_at(unsigned char* block, const chain_layout& l) {
  return view_as<std::uint16_t, std::uint32_t>(block, l);
}

/// A narrow chain stored alone (layout made with chain_packing::narrow).
WARPSPAN_HD_INLINE narrow_chain_view narrow_view_at(unsigned char* block, const chain_layout& l) {
  return view_as<std::uint8_t, std::uint16_t>(block, l);
}

/// A compact chain stored alone (layout made with chain_packing::compact; build it with
/// chain_problem(p, chain_packing::compact)).
WARPSPAN_HD_INLINE compact_chain_view compact_view_at(unsigned char* block, const chain_layout& l) {
  return view_as<std::uint8_t, std::uint8_t>(block, l);
}

WARPSPAN_HD_INLINE std::uint16_t* chain_best_at(unsigned char* block, const chain_layout& l) {
  return reinterpret_cast<std::uint16_t*>(block + l.best);
}

/// Chains stored interleaved: every array of chain_layout becomes a region `chains` times as large
/// that starts at (its offset in chain_layout) x chains and holds element k of chain c at
/// k * chains + c. The working arrays (everything before `best`) stay one contiguous prefix of
/// layout.best x chains bytes. Neighbouring chains, run by neighbouring threads, then touch
/// neighbouring words whenever they touch the same element: a warp's accesses to a 32-bit array
/// coalesce into one 128-byte transaction in global memory, and in shared memory (chains = the
/// block's threads, a multiple of 32) every thread keeps to its own bank for 32-bit elements, two
/// threads to a bank for 16-bit ones, whatever element each reads. (A chain stored whole, as on the
/// CPU, puts the same element of the 32 chains of a warp layout.bytes apart: 32 transactions in
/// global memory and, when layout.bytes / 4 is a multiple of 32, a 32-way bank conflict on chip.)
/// `Small` and `Large` are the element types of the layout's packing (chain_elements). On chip
/// the CUDA kernel uses word_interleaved_view_as() instead.
template <class Small, class Large>
WARPSPAN_HD_INLINE basic_chain_view<strided_ptr<Small>, strided_ptr<Large>> interleaved_view_as(unsigned char* base,
                                                                                                const chain_layout& l,
                                                                                                std::uint32_t chains,
                                                                                                std::uint32_t c) {
  return view_from<strided_ptr<Small>, strided_ptr<Large>>(
      l,
      [&](std::size_t offset) {
        return strided_ptr<Small>{reinterpret_cast<Small*>(base + offset * chains) + c, chains};
      },
      [&](std::size_t offset) {
        return strided_ptr<Large>{reinterpret_cast<Large*>(base + offset * chains) + c, chains};
      });
}

/// Chains stored word-interleaved (the CUDA kernel's on-chip layout): the regions as in
/// interleaved_view_as(), but interleaved by 32-bit word rather than by element: word m of chain
/// c's array at word m * chains + c, so element k of an array of 8- or 16-bit elements lies in the
/// chain's word k / (4 / sizeof(element)). With chains a multiple of 32, lane c of a warp then
/// always reads bank c % 32, whatever element each lane reads: no bank conflict at any width (with
/// elements interleaved, 2 or 4 lanes share a bank word and lanes reading different elements
/// collide: 1.76 wavefronts a request for narrow chains, bench/results/gpu_model_emulated.md).
template <class Small, class Large>
WARPSPAN_HD_INLINE basic_chain_view<word_strided_ptr<Small>, word_strided_ptr<Large>> word_interleaved_view_as(
    unsigned char* base, const chain_layout& l, std::uint32_t chains, std::uint32_t c) {
  const auto word = [&](std::size_t offset) { return base + offset * chains + 4 * std::size_t{c}; };
  return view_from<word_strided_ptr<Small>, word_strided_ptr<Large>>(
      l,
      [&](std::size_t offset) {
        return word_strided_ptr<Small>{reinterpret_cast<Small*>(word(offset)), chains};
      },
      [&](std::size_t offset) {
        return word_strided_ptr<Large>{reinterpret_cast<Large*>(word(offset)), chains};
      });
}

WARPSPAN_HD_INLINE interleaved_chain_view interleaved_view_at(unsigned char* base, const chain_layout& l,
                                                              std::uint32_t chains, std::uint32_t c) {
  return interleaved_view_as<std::uint16_t, std::uint32_t>(base, l, chains, c);
}

WARPSPAN_HD_INLINE interleaved_narrow_view interleaved_narrow_view_at(unsigned char* base, const chain_layout& l,
                                                                      std::uint32_t chains, std::uint32_t c) {
  return interleaved_view_as<std::uint8_t, std::uint16_t>(base, l, chains, c);
}

WARPSPAN_HD_INLINE strided_ptr<std::uint16_t> interleaved_best_at(unsigned char* base, const chain_layout& l,
                                                                  std::uint32_t chains, std::uint32_t c) {
  return {reinterpret_cast<std::uint16_t*>(base + l.best * chains) + c, chains};
}

/// Copies what the next iteration of a chain needs from one view to another: the cycles, the usage
/// table and the string. Every warp is marked complete (a chain between iterations always is);
/// `last` is recomputed by every rebuild and `undo` is scratch, so neither moves.
template <class To, class From>
WARPSPAN_HD_INLINE void copy_working_state(const problem_view& p, const To& to, const From& from) {
  for (std::uint32_t k = 0; k < p.length; ++k) {
    to.cycle[k] = from.cycle[k];
    to.str[k] = from.str[k];
  }
  const std::size_t cells = static_cast<std::size_t>(p.horizon + 1) * p.stride;
  for (std::size_t k = 0; k < cells; ++k) to.usage[k] = from.usage[k];
  for (std::uint32_t w = 0; w < p.warps; ++w) to.progress[w] = warp_length(p, w);
}

/// How a chain's first string is made (000 VI). `beam`: the beam search's string (exact/beam.hpp),
/// made once by the estimate (initial_string does not make it).
enum class initial_kind { round_robin, fixed_priority, most_pending, random, starve, beam };
std::string to_string(initial_kind k);
/// `--init`: rr, fp, mpwf, starve, random, beam, or mix (nullopt: the kinds in turn across chains); anything else
/// is an input_error.
std::optional<initial_kind> parse_initial_kind(std::string_view word);

/// 1, 2, ..., W repeated I times (000 VI-A).
std::vector<std::uint16_t> round_robin_string(const problem_view& p);
/// 1 repeated I times, then 2, ... (000 VI-B).
std::vector<std::uint16_t> fixed_priority_string(const problem_view& p);
/// Most pending warp executes first (000 VI-C, Fig. 8).
std::vector<std::uint16_t> most_pending_string(const problem_view& p);
/// Round robin over all warps for `joined` rounds, then over warps 1 .. W - 1 only, then warp W's
/// remaining instructions: W starves until the others are done (issue 26: the shape of the worst
/// schedules the other starts missed).
std::vector<std::uint16_t> starved_string(const problem_view& p, std::uint32_t joined);
/// The starved string whose schedule is longest over up to 32 values of `joined` spread over
/// [0, I) (the first among equals; fewer values for strings over 2^19 ids).
std::vector<std::uint16_t> starved_string(const problem_view& p);
/// A uniformly random permutation of the multiset, from draw(seed, chain, ..., init_tag).
std::vector<std::uint16_t> random_string(const problem_view& p, std::uint64_t seed, std::uint32_t chain);
std::vector<std::uint16_t> initial_string(const problem_view& p, initial_kind kind, std::uint64_t seed,
                                          std::uint32_t chain);

/// Everything a backend needs to run a set of chains.
struct chain_setup {
  const problem* prob = nullptr;
  anneal_params params;
  std::vector<std::uint32_t> chain_ids;  ///< RNG stream of each chain
  std::vector<std::uint16_t> initial;    ///< chain_ids.size() strings of length n, back to back
  /// CPU backend, instead of `initial` (left empty): writes chain `index`'s first string (n ids) to
  /// `out`, called from the set-up's threads, so no chain's string is made before its state.
  std::function<void(std::size_t index, std::uint16_t* out)> initial_of;
  /// CPU backend: asked between batches of chains during the set-up; where it says stop, the runner
  /// keeps the chains set up so far (the first ones, at least one) and drops the rest.
  std::function<bool()> stop;
  /// CPU backend: keep checkpoints of each chain's schedule builder (checkpoints.hpp), the same
  /// trajectory in fewer instructions for checkpoint_bytes() more memory a chain. CUDA ignores it.
  bool checkpoints = true;
  /// CUDA backend: the chains' element widths; unset, the narrowest that fits (pick_chain_packing).
  /// Narrow asked of a problem it does not fit is a std::invalid_argument. The CPU ignores it.
  std::optional<chain_packing> packing;
  /// CUDA backend: a thread or a warp a chain; unset, as plan_cuda_chains() picks. The CPU ignores it.
  std::optional<chain_design> design;
};

/// Where one chain stands.
struct chain_summary {
  std::uint32_t chain_id = 0;
  std::uint32_t best = 0;
  std::uint32_t current = 0;
  std::uint64_t iter = 0;
  std::uint64_t best_iter = 0;
};

/// A set of chains advanced in rounds. Chains keep their state between rounds, so the result of
/// N iterations does not depend on how they were split into rounds.
class chain_runner {
 public:
  virtual ~chain_runner() = default;
  /// Every chain runs `iterations` more iterations (fewer where its iter_max is reached).
  virtual void advance(std::uint64_t iterations) = 0;
  /// As advance(), but asks `stop` before each iteration of each chain: once it says true, every
  /// chain ends the round where it is (each keeps a consistent state, only with fewer iterations).
  /// Returns false when some chain ended early. Backends that run all chains at once (CUDA) run the
  /// whole round.
  virtual bool advance_until(std::uint64_t iterations, const std::function<bool()>& stop) {
    (void)stop;
    advance(iterations);
    return true;
  }
  virtual std::vector<chain_summary> summaries() = 0;
  /// Sets the length of the cooling schedule (anneal_params::iter_max) for the iterations still to
  /// come: a run fitted to a time budget learns it from the speed it measures. A chain that has
  /// already done n >= n_max iterations stops advancing.
  virtual void set_iter_max(std::uint64_t n_max) = 0;
  /// The best string of the chain at `index` (0-based warp ids).
  virtual std::vector<std::uint16_t> best_string(std::size_t index) = 0;
  virtual std::string name() const = 0;
};

/// CPU backend: chains split over `threads` threads (0: all cores), one pool of workers kept for the
/// runner's life. Defined in host/makespan.
std::unique_ptr<chain_runner> make_cpu_runner(const chain_setup& setup, int threads);
/// CUDA backend. Defined in cuda/makespan; throws not_compiled in a build without CUDA.
std::unique_ptr<chain_runner> make_cuda_runner(const chain_setup& setup);

/// Where the CUDA backend keeps the chains' working state, decided by a cost model (no GPU has
/// measured it yet: bench/results/current/gpu_traffic.md has the counted bytes, not timings).
///
/// An annealing iteration is a chain of dependent accesses to the chain's state (a placement reads
/// the warp's progress, then the cycle, then the usage cells it finds), the same A accesses on
/// either path, so one SM runs
///     min(T / L, B / b)   accesses per clock
/// where T is the threads it holds at once (the occupancy calculator's answer for that path's
/// kernel, registers and shared memory included), L the latency of one access (the thread waits
/// for it), B the SM's share of the memory's bandwidth and b the bytes one access costs there;
/// iterations per second are that over A, so A cancels out of the comparison. The constants are an
/// H100's, from its specification and published microbenchmarks, not from this project:
/// * on chip: shared memory, L = 30 clocks, B = 128 bytes a clock, b = 4 bytes (a bank word; the
///   interleaved layout keeps every thread in its own banks);
/// * global: the state of resident chains (hundreds of MB) is beyond the 50 MB L2, so L = 600
///   clocks (HBM), B = 3.35 TB/s / 132 SMs / 1.98 GHz = 12.8 bytes a clock, and b = 4 bytes as if
///   the 32 chains of a warp always touched the same element (one coalesced transaction) - the
///   global path's best case: most indices are data dependent and cost a 32-byte sector each, so
///   on chip is chosen only where it wins even against a perfectly coalescing global path.
/// The on-chip kernel also copies the working state in and out once per launch (2 x the working
/// bytes per chain); a launch runs a round of thousands of iterations, so the model leaves it out.
/// Work per chain follows from the same figures: a chain runs its path's rate over the threads per
/// SM, so where on chip wins with fewer resident chains, each chain runs faster still.
struct chain_memory_model {
  double shared_latency = 30, shared_bytes_per_clock = 128, shared_access_bytes = 4;
  double global_latency = 600, global_bytes_per_clock = 12.8, global_access_bytes = 4;
};

struct chain_memory_choice {
  bool on_chip = false;
  double global_rate = 0;   ///< accesses per clock per SM on the global-memory path
  double on_chip_rate = 0;  ///< the same on chip (0 when no block's state fits)
};

/// On chip exactly when its rate beats the global path's (0 threads: does not fit).
inline chain_memory_choice choose_chain_memory(int global_threads_per_sm, int on_chip_threads_per_sm,
                                               const chain_memory_model& m = {}) {
  const auto rate = [](int threads, double latency, double bytes_per_clock, double access_bytes) {
    return threads <= 0 ? 0.0 : std::min(threads / latency, bytes_per_clock / access_bytes);
  };
  chain_memory_choice c;
  c.global_rate = rate(global_threads_per_sm, m.global_latency, m.global_bytes_per_clock, m.global_access_bytes);
  c.on_chip_rate = rate(on_chip_threads_per_sm, m.shared_latency, m.shared_bytes_per_clock, m.shared_access_bytes);
  c.on_chip = c.on_chip_rate > c.global_rate;
  return c;
}

/// The dynamic shared memory a block of `threads` asks for: the staged instruction types (16-byte
/// rounded, when staged) and, on chip, every thread's working state (chain_layout::best bytes).
inline std::size_t anneal_types_bytes(const problem_view& p) { return (type_entries(p) + 15u) / 16u * 16u; }
inline std::size_t anneal_shared_bytes(const problem_view& p, bool on_chip, bool stage_types, int threads,
                                       chain_packing packing = chain_packing::wide) {
  const std::size_t types = stage_types ? anneal_types_bytes(p) : 0;
  return on_chip ? types + static_cast<std::size_t>(threads) * make_chain_layout(p, packing).best : types;
}

/// The warp design's read-ahead of a rebuild's next placements: 16 bytes for each of 32 lanes
/// (team_rejoin_rebuild::ahead, team_schedule.hpp).
inline constexpr std::size_t anneal_warp_ahead_bytes = 32u * 16u;
/// The warp design's `pre` counts (team_rejoin_rebuild::pre): a 32-bit count a warp, 16-byte rounded.
WARPSPAN_HD_INLINE std::size_t anneal_warp_pre_bytes(const problem_view& p) {
  return (sizeof(std::uint32_t) * p.warps + 15u) / 16u * 16u;
}
/// The dynamic shared memory of the warp design's block (one chain): the staged instruction types,
/// the chain's working state (chain_layout::best bytes) and its scratch (a count a warp,
/// team_rejoin_rebuild::pre, then the read-ahead), each 16-byte aligned.
inline std::size_t anneal_warp_shared_bytes(const problem_view& p, chain_packing packing) {
  return anneal_types_bytes(p) + make_chain_layout(p, packing).best + anneal_warp_pre_bytes(p) +
         anneal_warp_ahead_bytes;
}

/// How the CUDA backend would run chains of `p` on the current device: whether their working state
/// is on chip, the block size the occupancy calculator picks, and the chains that fill the device
/// (resident blocks per SM x SMs x block size, within 90 % of free memory). Throws not_compiled in
/// a build without CUDA.
struct cuda_chain_plan {
  /// A thread a chain, or a warp a chain (then `block` is 32, on_chip is true and threads_per_sm
  /// counts the resident warps' lanes: 32 a chain).
  chain_design design = chain_design::thread;
  chain_packing packing = chain_packing::wide;  ///< the chains' element widths
  std::size_t chain_bytes = 0;                  ///< a chain's block (make_chain_layout(p, packing).bytes)
  bool on_chip = false;
  bool stage_types = true;
  unsigned block = 0;
  std::uint32_t device_chains = 0;
  std::size_t shared_bytes = 0;  ///< dynamic shared memory per block
  std::uint32_t sms = 0;         ///< the device's multiprocessors
  std::size_t shared_limit = 0;  ///< the most dynamic shared memory a block may opt into
  unsigned threads_per_sm = 0;   ///< resident threads per SM on the chosen path
  chain_memory_choice memory;    ///< both paths' rates under chain_memory_model
};
/// `packing`: unset, the narrowest that fits. `design`: unset, a warp a chain exactly where a
/// thread's chains would keep their state in global memory and a warp's chain fits on chip; a warp
/// asked where its chain does not fit (or the types are not staged) is a std::invalid_argument.
cuda_chain_plan plan_cuda_chains(const problem_view& p, std::optional<chain_packing> packing = std::nullopt,
                                 std::optional<chain_design> design = std::nullopt);

/// The chains a plan launches by default: one for every resident thread (`resident`), as many as
/// the usable share of `free_bytes` holds (usable_device_bytes), at least one, at most 2^30.
inline std::uint32_t device_chain_count(std::uint64_t resident, std::size_t free_bytes, std::size_t chain_bytes) {
  const std::uint64_t fit = usable_device_bytes(free_bytes) / (chain_bytes + sizeof(chain_state));
  return static_cast<std::uint32_t>(std::max<std::uint64_t>(1, std::min({resident, fit, std::uint64_t{1} << 30})));
}

/// The warp design's half of a plan: from the thread design's `plan` (packing, stage_types, sms,
/// shared_limit and memory already set) and the warp kernel's resident blocks a SM (one chain
/// each), the design `asked` or picked as plan_cuda_chains() says. Throws std::invalid_argument for
/// a warp asked where it does not fit.
inline void plan_design(cuda_chain_plan& plan, const problem_view& p, std::optional<chain_design> asked,
                        int warp_blocks_per_sm, std::size_t free_bytes) {
  const std::size_t need = anneal_warp_shared_bytes(p, plan.packing);
  const bool fits = plan.stage_types && need <= plan.shared_limit && warp_blocks_per_sm > 0;
  if (asked == chain_design::warp && !fits)
    throw std::invalid_argument(
        "a warp a chain keeps the chain and the instruction types in shared memory: " + std::to_string(need) +
        " bytes a block, more than the " + std::to_string(plan.shared_limit) + " a block may have");
  plan.design = asked ? *asked : !plan.on_chip && fits ? chain_design::warp : chain_design::thread;
  if (plan.design == chain_design::thread) return;
  plan.on_chip = true;
  plan.block = 32;
  plan.threads_per_sm = 32u * static_cast<unsigned>(warp_blocks_per_sm);
  plan.shared_bytes = need;
  plan.device_chains = device_chain_count(std::uint64_t{static_cast<unsigned>(warp_blocks_per_sm)} * plan.sms,
                                          free_bytes, plan.chain_bytes);
}

/// The same plan from the occupancy arithmetic of include/warpspan/core/occupancy.hpp instead of
/// a device's calculator: an SM with `sm`'s limits, `sms` of them, the annealing kernel's
/// registers and __launch_bounds__ (`kernel`, from nvcc's report: cuda/emulation/resource_usage.tsv),
/// and `free_bytes` of device memory. What plan_cuda_chains() gives on an H100 (and in the
/// emulation, whose calculator is this arithmetic); the tests check the figures by hand.
cuda_chain_plan plan_chains_for(const problem_view& p, const sm_limits& sm, const kernel_resources& kernel,
                                std::uint32_t sms, std::size_t free_bytes,
                                std::optional<chain_packing> packing = std::nullopt,
                                std::optional<chain_design> design = std::nullopt,
                                const kernel_resources& warp_kernel = {64, 0, 32});

}  // namespace warpspan
