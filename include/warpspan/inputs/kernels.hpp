// The kernels shipped with `warpspan inputs`, our own versions of those of paper 004 (Sec. V), each
// written once for host and device against the hooks of harness.hpp. Instruction counts in work()
// are what a CUDA compiler would emit for the block, roughly; the model only needs them consistent.
// load/store hooks mark the real global memory accesses (their addresses give the sectors a warp
// touches); values held in registers after a first load are not loaded again.
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpspan/core/macros.hpp"
#include "warpspan/inputs/harness.hpp"

namespace warpspan::inputs {

/// Paper 004 Listing 1: `values[tid] == CONSTANT` makes a thread do `repeats` atomics on its block's
/// counter, else one on its own. The worst input is known: every value equal to CONSTANT (the
/// atomics of a warp serialise on one address, and no divergence).
struct artificial_kernel {
  static constexpr const char* name = "artificial";
  static constexpr std::uint32_t genes_per_thread = 1, block = 256, branches = 1, stages = 1;
  static constexpr bool iterative = false;
  static constexpr std::int32_t constant = 42, value_max = 255, repeats = 8;

  static gene_range range(std::uint32_t, std::uint32_t) { return {0, value_max}; }
  static std::size_t scratch_size(std::uint32_t threads) { return threads + blocks_of<artificial_kernel>(threads); }
  WARPSPAN_HD static std::size_t flag_index(std::uint32_t) { return 0; }
  static void init_scratch(const std::int32_t*, std::int32_t* s, std::uint32_t threads) {
    for (std::size_t i = 0; i < scratch_size(threads); ++i) s[i] = 0;
  }
  static output_range output(std::uint32_t threads) { return {0, scratch_size(threads)}; }

  template <class H>
  WARPSPAN_HD static void thread(H& h, const std::int32_t* values, std::int32_t* result, std::uint32_t threads,
                                 std::uint32_t tid, std::uint32_t block_id, int) {
    const std::int32_t v = values[tid];
    h.load(&values[tid], 4, space::global);
    h.work(4);
    h.compare(0, v, constant);
    if (h.branch(0, v == constant)) {
      for (std::int32_t r = 0; r < repeats; ++r) h.atomic_add(&result[threads + block_id], v);
    } else {
      h.atomic_add(&result[tid], 10);
    }
    h.join(0);
  }
};

/// Breadth-first search as Rodinia's two kernels (expand the frontier, then mark the next one),
/// launched again while a node was reached; a thread per node, node 0 the source. A node's genes:
/// its degree d in [0, max_degree], then max_degree edge offsets o in [0, n - 1] of which the first
/// d count (target (tid + o) mod n; o = 0 is a self-loop). The worst input is a long chain: one
/// round of both kernels per level.
struct bfs_kernel {
  static constexpr const char* name = "bfs";
  static constexpr std::uint32_t max_degree = 7;
  static constexpr std::uint32_t genes_per_thread = 1 + max_degree, block = 256, branches = 4, stages = 2;
  static constexpr bool iterative = true;
  // scratch: mask[n], updating[n], visited[n], cost[n], flag
  static gene_range range(std::uint32_t threads, std::uint32_t slot) {
    if (slot == 0) return {0, static_cast<std::int32_t>(max_degree)};
    return {0, static_cast<std::int32_t>(threads) - 1};
  }
  static std::size_t scratch_size(std::uint32_t threads) { return std::size_t{4} * threads + 1; }
  WARPSPAN_HD static std::size_t flag_index(std::uint32_t threads) { return std::size_t{4} * threads; }
  static void init_scratch(const std::int32_t*, std::int32_t* s, std::uint32_t n) {
    for (std::size_t i = 0; i < scratch_size(n); ++i) s[i] = 0;
    for (std::uint32_t i = 0; i < n; ++i) s[3 * std::size_t{n} + i] = -1;
    s[0] = 1;                      // mask[0]
    s[2 * std::size_t{n}] = 1;     // visited[0]
    s[3 * std::size_t{n}] = 0;     // cost[0]
  }
  static output_range output(std::uint32_t threads) { return {3 * std::size_t{threads}, threads}; }

  template <class H>
  WARPSPAN_HD static void thread(H& h, const std::int32_t* g, std::int32_t* s, std::uint32_t n, std::uint32_t tid,
                                 std::uint32_t, int stage) {
    std::int32_t* mask = s;
    std::int32_t* updating = s + n;
    std::int32_t* visited = s + 2 * std::size_t{n};
    std::int32_t* cost = s + 3 * std::size_t{n};
    h.work(3);
    if (stage == 0) {
      h.load(&mask[tid], 4, space::global);
      if (h.branch(0, mask[tid] != 0)) {
        mask[tid] = 0;
        h.store(&mask[tid], 4, space::global);
        const std::int32_t* node = g + std::size_t{tid} * genes_per_thread;  // 32 bytes a node: strided
        const std::int32_t degree = node[0];
        h.load(&node[0], 4, space::global);
        h.work(3);
        for (std::int32_t e = 0; h.branch(1, e < degree); ++e) {
          h.compare(1, e, degree);
          h.load(&node[1 + e], 4, space::global);
          const std::uint32_t id = static_cast<std::uint32_t>((std::uint64_t{tid} + static_cast<std::uint32_t>(node[1 + e])) % n);
          h.work(5);
          h.load(&visited[id], 4, space::global);  // scattered by the edge offsets
          if (h.branch(2, visited[id] == 0)) {
            h.load(&cost[tid], 4, space::global);
            cost[id] = cost[tid] + 1;
            h.store(&cost[id], 4, space::global);
            updating[id] = 1;
            h.store(&updating[id], 4, space::global);
            h.work(4);
          }
          h.join(2);
        }
      }
      h.join(0);
    } else {
      h.load(&updating[tid], 4, space::global);
      if (h.branch(3, updating[tid] != 0)) {
        mask[tid] = 1;
        visited[tid] = 1;
        s[flag_index(n)] = 1;
        updating[tid] = 0;
        h.store(&mask[tid], 4, space::global);
        h.store(&visited[tid], 4, space::global);
        h.store(&s[flag_index(n)], 4, space::global);  // every lane on one word: one sector
        h.store(&updating[tid], 4, space::global);
        h.work(5);
      }
      h.join(3);
    }
  }
};

/// A Petri-net simulation in the spirit of NSICHNEU (Malardalen; paper 004 Table II): every thread
/// simulates its own coloured net of `places` places and `transitions` transitions for `rounds`
/// rounds. Its genes: the token count of each place in [0, 7], then the colour of each place's
/// tokens in [0, 255]. A transition fires when its first input place holds enough tokens and the
/// second holds a token of the same colour (NSICHNEU's guards compare marking members for
/// equality, which random inputs rarely meet); a third branch handles a place about to overflow.
struct petri_kernel {
  static constexpr const char* name = "petri";
  static constexpr std::uint32_t places = 8, transitions = 8, rounds = 4;
  static constexpr std::uint32_t genes_per_thread = 2 * places, block = 128, branches = 3 * transitions, stages = 1;
  static constexpr bool iterative = false;
  static constexpr std::int32_t max_tokens = 7, colours = 256;

  static gene_range range(std::uint32_t, std::uint32_t slot) { return {0, slot < places ? max_tokens : colours - 1}; }
  static std::size_t scratch_size(std::uint32_t threads) { return std::size_t{threads} * genes_per_thread; }
  WARPSPAN_HD static std::size_t flag_index(std::uint32_t) { return 0; }
  static void init_scratch(const std::int32_t* g, std::int32_t* s, std::uint32_t threads) {
    for (std::size_t i = 0; i < scratch_size(threads); ++i) s[i] = g[i];
  }
  static output_range output(std::uint32_t threads) { return {0, scratch_size(threads)}; }

  template <class H>
  WARPSPAN_HD static void thread(H& h, const std::int32_t*, std::int32_t* s, std::uint32_t, std::uint32_t tid,
                                 std::uint32_t, int) {
    std::int32_t* m = s + std::size_t{tid} * genes_per_thread;
    std::int32_t* colour = m + places;
    h.work(2);
    for (std::uint32_t r = 0; r < rounds; ++r) {
      for (std::uint32_t t = 0; t < transitions; ++t) {
        // Transition t takes 1 + t % 3 tokens from place t and 1 from place t + 3, and puts one token
        // on places t + 1 and t + 5 (all mod places): arithmetic, so no table has to live on the device.
        const std::uint32_t a = t, b = (t + 3) % places, c = (t + 1) % places, d = (t + 5) % places;
        const std::int32_t wa = 1 + static_cast<std::int32_t>(t % 3);
        // The nets lie in global memory, a thread's 16 words after another's: a warp's access to
        // one place touches 32 sectors (strided by genes_per_thread).
        h.work(3);
        h.load(&m[a], 4, space::global);
        h.compare(3 * t, m[a], wa);
        if (h.branch(3 * t, m[a] >= wa)) {
          h.work(3);
          h.load(&m[b], 4, space::global);
          h.load(&colour[a], 4, space::global);
          h.load(&colour[b], 4, space::global);
          h.compare(3 * t + 1, colour[a], colour[b]);
          if (h.branch(3 * t + 1, m[b] >= 1 && colour[a] == colour[b])) {
            m[a] -= wa;
            m[b] -= 1;
            m[c] += 1;
            m[d] += 1;
            colour[c] = colour[a];
            colour[d] = colour[b];
            h.load(&m[c], 4, space::global);
            h.load(&m[d], 4, space::global);
            h.store(&m[a], 4, space::global);
            h.store(&m[b], 4, space::global);
            h.store(&m[c], 4, space::global);
            h.store(&m[d], 4, space::global);
            h.store(&colour[c], 4, space::global);
            h.store(&colour[d], 4, space::global);
            h.work(10);
            h.compare(3 * t + 2, m[c], max_tokens);
            if (h.branch(3 * t + 2, m[c] > max_tokens)) {
              m[c] = max_tokens;
              h.store(&m[c], 4, space::global);
              h.work(6);
            }
            h.join(3 * t + 2);
          }
          h.join(3 * t + 1);
        }
        h.join(3 * t);
      }
    }
  }
};

/// A bisection loop: thread tid looks for its key in the sorted odd numbers 1, 3, ..., 2 size - 1
/// and stops early when it finds it. Trip counts differ by key; even keys search the whole depth.
struct bisect_kernel {
  static constexpr const char* name = "bisect";
  static constexpr std::uint32_t genes_per_thread = 1, block = 128, branches = 3, stages = 1;
  static constexpr bool iterative = false;
  static constexpr std::int32_t size = 1000;

  static gene_range range(std::uint32_t, std::uint32_t) { return {0, 2 * size}; }
  static std::size_t scratch_size(std::uint32_t threads) { return threads; }
  WARPSPAN_HD static std::size_t flag_index(std::uint32_t) { return 0; }
  static void init_scratch(const std::int32_t*, std::int32_t* s, std::uint32_t threads) {
    for (std::size_t i = 0; i < threads; ++i) s[i] = -1;
  }
  static output_range output(std::uint32_t threads) { return {0, threads}; }

  template <class H>
  WARPSPAN_HD static void thread(H& h, const std::int32_t* keys, std::int32_t* found, std::uint32_t, std::uint32_t tid,
                                 std::uint32_t, int) {
    const std::int32_t key = keys[tid];
    h.load(&keys[tid], 4, space::global);
    std::int32_t lo = 0, hi = size;
    h.work(4);
    while (h.branch(0, lo < hi)) {
      const std::int32_t mid = (lo + hi) / 2, value = 2 * mid + 1;
      h.work(5);
      h.compare(1, value, key);
      if (h.branch(1, value == key)) {
        found[tid] = mid;
        h.store(&found[tid], 4, space::global);
        h.work(1);
        break;
      }
      h.compare(2, value, key);
      if (h.branch(2, value < key)) {
        lo = mid + 1;
        h.work(1);
      } else {
        hi = mid;
        h.work(1);
      }
      h.join(2);
    }
    h.join(0);
  }
};

/// Calls f(K{}) with the kernel type of `id` (a host function: each backend instantiates what it runs).
template <class F>
decltype(auto) with_kernel(kernel_id id, F&& f) {
  switch (id) {
    case kernel_id::bfs: return f(bfs_kernel{});
    case kernel_id::petri: return f(petri_kernel{});
    case kernel_id::bisect: return f(bisect_kernel{});
    case kernel_id::artificial: break;
  }
  return f(artificial_kernel{});
}

}  // namespace warpspan::inputs
