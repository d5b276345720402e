// The kernels shipped with `warpspan inputs`, our own versions of those of paper 004 (Sec. V). Each
// is a harness written against the public header warpspan/harness.hpp exactly as a user's kernel is
// (docs/harness.md); they are compiled in rather than loaded, and the same descriptor path runs them
// (host/inputs/kernels.cpp). Instruction counts in work() are what a CUDA compiler would emit for
// the block, roughly; the model only needs them consistent. load/store hooks mark the real global
// memory accesses (their addresses give the sectors a warp touches); values held in registers after
// a first load are not loaded again.
#pragma once

#include <cmath>
#include <cstddef>
#include <cstdint>

#include "warpspan/harness.hpp"

namespace warpspan::inputs {

namespace hx = warpspan::harness;

/// Paper 004 Listing 1: `values[tid] == CONSTANT` makes a thread do `repeats` atomics on its block's
/// counter, else one on its own. The worst input is known: every value equal to CONSTANT (the
/// atomics of a warp serialise on one address, and no divergence).
struct artificial_kernel {
  static constexpr const char* name = "artificial";
  static constexpr const char* description =
      "paper 004 Listing 1: values == 42 do 8 atomics on one address (worst case known)";
  static constexpr std::uint32_t block = 256, branches = 1, default_threads = 1u << 15;
  static constexpr std::int32_t constant = 42, value_max = 255, repeats = 8;
  static constexpr warpspan_field fields[] = {hx::thread_int("value", 0, value_max)};

  static std::uint64_t scratch_words(std::uint32_t threads) { return threads + (threads + block - 1) / block; }

  template <class H>
  WARPSPAN_HARNESS_HD static void thread(H& h, const hx::args& a) {
    const std::int32_t* values = a.input;
    std::int32_t* result = a.scratch;
    const std::int32_t v = values[a.tid];
    h.load(&values[a.tid], 4);
    h.work(4);
    h.compare(0, v, constant);
    if (h.branch(0, v == constant)) {
      for (std::int32_t r = 0; r < repeats; ++r) h.atomic_add(&result[a.threads + a.block], v);
    } else {
      h.atomic_add(&result[a.tid], 10);
    }
    h.join(0);
  }
};

/// Breadth-first search as Rodinia's two kernels (expand the frontier, then mark the next one),
/// launched again while a node was reached; a thread per node, node 0 the source. A node's record:
/// its degree d in [0, max_degree], then max_degree edge offsets o in [0, n - 1] of which the first
/// d count (target (tid + o) mod n; o = 0 is a self-loop). The worst input is a long chain: one
/// round of both kernels per level.
struct bfs_kernel {
  static constexpr const char* name = "bfs";
  static constexpr const char* description = "Rodinia-style BFS, a thread per node, degree and 7 edge offsets per node";
  static constexpr std::uint32_t max_degree = 7;
  static constexpr std::uint32_t genes_per_thread = 1 + max_degree;
  static constexpr std::uint32_t block = 256, branches = 4, stages = 2, default_threads = 1024;
  static constexpr bool iterative = true;
  // The offsets' bounds depend on the thread count: range() narrows [0, 2^20 - 1] to [0, n - 1].
  static constexpr warpspan_field fields[] = {hx::thread_int("degree", 0, max_degree),
                                              hx::thread_int("offset", 0, (1 << 20) - 1, max_degree)};

  static hx::range range(std::uint32_t threads, std::uint32_t slot) {
    if (slot == 0) return {0, static_cast<std::int32_t>(max_degree)};
    return {0, static_cast<std::int32_t>(threads) - 1};
  }
  // scratch: mask[n], updating[n], visited[n], cost[n], flag
  static std::uint64_t scratch_words(std::uint32_t threads) { return std::uint64_t{4} * threads + 1; }
  WARPSPAN_HARNESS_HD static std::uint64_t flag_index(std::uint32_t threads) { return std::uint64_t{4} * threads; }
  static void init_scratch(const std::int32_t*, std::int32_t* s, std::uint32_t n) {
    for (std::uint64_t i = 0; i < scratch_words(n); ++i) s[i] = 0;
    for (std::uint32_t i = 0; i < n; ++i) s[3 * std::size_t{n} + i] = -1;
    s[0] = 1;                   // mask[0]
    s[2 * std::size_t{n}] = 1;  // visited[0]
    s[3 * std::size_t{n}] = 0;  // cost[0]
  }
  static hx::output output(std::uint32_t threads) { return {3 * std::uint64_t{threads}, threads}; }

  template <class H>
  WARPSPAN_HARNESS_HD static void thread(H& h, const hx::args& a) {
    const std::uint32_t n = a.threads, tid = a.tid;
    std::int32_t* s = a.scratch;
    std::int32_t* mask = s;
    std::int32_t* updating = s + n;
    std::int32_t* visited = s + 2 * std::size_t{n};
    std::int32_t* cost = s + 3 * std::size_t{n};
    h.work(3);
    if (a.stage == 0) {
      h.load(&mask[tid], 4);
      if (h.branch(0, mask[tid] != 0)) {
        mask[tid] = 0;
        h.store(&mask[tid], 4);
        const std::int32_t* node = a.record();  // 32 bytes a node: strided
        const std::int32_t degree = node[0];
        h.load(&node[0], 4);
        h.work(3);
        for (std::int32_t e = 0; h.branch(1, e < degree); ++e) {
          h.compare(1, e, degree);
          h.load(&node[1 + e], 4);
          const std::uint32_t id =
              static_cast<std::uint32_t>((std::uint64_t{tid} + static_cast<std::uint32_t>(node[1 + e])) % n);
          h.work(5);
          h.load(&visited[id], 4);  // scattered by the edge offsets
          if (h.branch(2, visited[id] == 0)) {
            h.load(&cost[tid], 4);
            cost[id] = cost[tid] + 1;
            h.store(&cost[id], 4);
            updating[id] = 1;
            h.store(&updating[id], 4);
            h.work(4);
          }
          h.join(2);
        }
      }
      h.join(0);
    } else {
      h.load(&updating[tid], 4);
      if (h.branch(3, updating[tid] != 0)) {
        mask[tid] = 1;
        visited[tid] = 1;
        s[flag_index(n)] = 1;
        updating[tid] = 0;
        h.store(&mask[tid], 4);
        h.store(&visited[tid], 4);
        h.store(&s[flag_index(n)], 4);  // every lane on one word: one sector
        h.store(&updating[tid], 4);
        h.work(5);
      }
      h.join(3);
    }
  }
};

/// A Petri-net simulation in the spirit of NSICHNEU (Malardalen; paper 004 Table II): every thread
/// simulates its own coloured net of `places` places and `transitions` transitions for `rounds`
/// rounds. Its record: the token count of each place in [0, 7], then the colour of each place's
/// tokens in [0, 255]. A transition fires when its first input place holds enough tokens and the
/// second holds a token of the same colour (NSICHNEU's guards compare marking members for
/// equality, which random inputs rarely meet); a third branch handles a place about to overflow.
struct petri_kernel {
  static constexpr const char* name = "petri";
  static constexpr const char* description =
      "coloured Petri net per thread (NSICHNEU spirit): 8 places x 8 transitions, 4 rounds";
  static constexpr std::uint32_t places = 8, transitions = 8, rounds = 4;
  static constexpr std::uint32_t genes_per_thread = 2 * places;
  static constexpr std::uint32_t block = 128, branches = 3 * transitions, default_threads = 4096;
  static constexpr std::int32_t max_tokens = 7, colours = 256;
  static constexpr warpspan_field fields[] = {hx::thread_int("tokens", 0, max_tokens, places),
                                              hx::thread_int("colour", 0, colours - 1, places)};

  static std::uint64_t scratch_words(std::uint32_t threads) { return std::uint64_t{threads} * genes_per_thread; }
  static void init_scratch(const std::int32_t* g, std::int32_t* s, std::uint32_t threads) {
    for (std::uint64_t i = 0; i < scratch_words(threads); ++i) s[i] = g[i];
  }

  template <class H>
  WARPSPAN_HARNESS_HD static void thread(H& h, const hx::args& a) {
    std::int32_t* m = a.scratch + std::size_t{a.tid} * genes_per_thread;
    std::int32_t* colour = m + places;
    h.work(2);
    for (std::uint32_t r = 0; r < rounds; ++r) {
      for (std::uint32_t t = 0; t < transitions; ++t) {
        // Transition t takes 1 + t % 3 tokens from place t and 1 from place t + 3, and puts one token
        // on places t + 1 and t + 5 (all mod places): arithmetic, so no table has to live on the device.
        const std::uint32_t pa = t, pb = (t + 3) % places, pc = (t + 1) % places, pd = (t + 5) % places;
        const std::int32_t wa = 1 + static_cast<std::int32_t>(t % 3);
        // The nets lie in global memory, a thread's 16 words after another's: a warp's access to
        // one place touches 32 sectors (strided by genes_per_thread).
        h.work(3);
        h.load(&m[pa], 4);
        h.compare(3 * t, m[pa], wa);
        if (h.branch(3 * t, m[pa] >= wa)) {
          h.work(3);
          h.load(&m[pb], 4);
          h.load(&colour[pa], 4);
          h.load(&colour[pb], 4);
          h.compare(3 * t + 1, colour[pa], colour[pb]);
          if (h.branch(3 * t + 1, m[pb] >= 1 && colour[pa] == colour[pb])) {
            m[pa] -= wa;
            m[pb] -= 1;
            m[pc] += 1;
            m[pd] += 1;
            colour[pc] = colour[pa];
            colour[pd] = colour[pb];
            h.load(&m[pc], 4);
            h.load(&m[pd], 4);
            h.store(&m[pa], 4);
            h.store(&m[pb], 4);
            h.store(&m[pc], 4);
            h.store(&m[pd], 4);
            h.store(&colour[pc], 4);
            h.store(&colour[pd], 4);
            h.work(10);
            h.compare(3 * t + 2, m[pc], max_tokens);
            if (h.branch(3 * t + 2, m[pc] > max_tokens)) {
              m[pc] = max_tokens;
              h.store(&m[pc], 4);
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
  static constexpr const char* description = "bisection search per thread with an early exit";
  static constexpr std::uint32_t block = 128, branches = 3, default_threads = 4096;
  static constexpr std::int32_t size = 1000;
  static constexpr warpspan_field fields[] = {hx::thread_int("key", 0, 2 * size)};

  static std::uint64_t scratch_words(std::uint32_t threads) { return threads; }
  static void init_scratch(const std::int32_t*, std::int32_t* s, std::uint32_t threads) {
    for (std::size_t i = 0; i < threads; ++i) s[i] = -1;
  }

  template <class H>
  WARPSPAN_HARNESS_HD static void thread(H& h, const hx::args& a) {
    const std::int32_t* keys = a.input;
    std::int32_t* found = a.scratch;
    const std::uint32_t tid = a.tid;
    const std::int32_t key = keys[tid];
    h.load(&keys[tid], 4);
    std::int32_t lo = 0, hi = size;
    h.work(4);
    while (h.branch(0, lo < hi)) {
      const std::int32_t mid = (lo + hi) / 2, value = 2 * mid + 1;
      h.work(5);
      h.compare(1, value, key);
      if (h.branch(1, value == key)) {
        found[tid] = mid;
        h.store(&found[tid], 4);
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

/// Lattice Boltzmann, paper 004's LBM (Table II: one kernel, 13 ifs, no loops, a thread per cell of
/// a square lattice): one collide-and-stream step of D2Q9 (BGK) on a lattice `width` =
/// ceil(sqrt(threads)) cells wide, cell tid at (tid % width, tid / width). A cell's record: its type
/// (0 fluid, 1 obstacle, 2 inlet, 3 outlet) and its 9 distributions f_0..f_8 in [0, 0.5]. Branches:
/// the cell's type (obstacle: bounce everything back; inlet: the velocity is imposed; outlet: the
/// density is), a density floor and a velocity cap, and one per moving direction: stream to the
/// neighbour, or bounce back from a wall (an obstacle or the lattice's edge). The lattice lives in
/// scratch as structure of arrays (type[n], src[9][n], dst[9][n], floats as their bits), as real LBM
/// codes lay it out, so a warp's accesses to one distribution coalesce.
struct lbm_kernel {
  static constexpr const char* name = "lbm";
  static constexpr const char* description =
      "D2Q9 lattice Boltzmann step, a thread per cell: fluid, obstacle, inlet, outlet";
  static constexpr std::uint32_t block = 128, branches = 13, default_threads = 32768;
  enum : std::int32_t { fluid = 0, obstacle = 1, inlet = 2, outlet = 3 };
  static constexpr warpspan_field fields[] = {hx::thread_int("type", fluid, outlet),
                                              hx::thread_float("f", 0.0, 0.5, 1024, 9)};

  WARPSPAN_HARNESS_HD static std::uint32_t width(std::uint32_t threads) {
    std::uint32_t w = 1;
    while (std::uint64_t{w} * w < threads) ++w;
    return w;
  }
  /// D2Q9: direction d moves by (ex[d], ey[d]); opposite(d) reverses it; weights 4/9, 1/9, 1/36.
  WARPSPAN_HARNESS_HD static int ex(int d) {
    return d == 1 || d == 5 || d == 8 ? 1 : (d == 3 || d == 6 || d == 7 ? -1 : 0);
  }
  WARPSPAN_HARNESS_HD static int ey(int d) {
    return d == 2 || d == 5 || d == 6 ? 1 : (d == 4 || d == 7 || d == 8 ? -1 : 0);
  }
  WARPSPAN_HARNESS_HD static int opposite(int d) { return d == 0 ? 0 : (d <= 4 ? (d + 1) % 4 + 1 : (d - 3) % 4 + 5); }
  WARPSPAN_HARNESS_HD static float weight(int d) {
    return d == 0 ? 4.0f / 9.0f : (d <= 4 ? 1.0f / 9.0f : 1.0f / 36.0f);
  }

  static std::uint64_t scratch_words(std::uint32_t threads) { return std::uint64_t{19} * threads; }
  static void init_scratch(const std::int32_t* in, std::int32_t* s, std::uint32_t n) {
    for (std::uint32_t i = 0; i < n; ++i) {
      s[i] = in[std::size_t{i} * 10];
      for (std::uint32_t d = 0; d < 9; ++d) {
        s[std::size_t{1 + d} * n + i] = in[std::size_t{i} * 10 + 1 + d];
        s[std::size_t{10 + d} * n + i] = 0;
      }
    }
  }
  static hx::output output(std::uint32_t threads) { return {10 * std::uint64_t{threads}, 9 * std::uint64_t{threads}}; }

  template <class H>
  WARPSPAN_HARNESS_HD static void thread(H& h, const hx::args& a) {
    constexpr float omega = 1.0f, rho_min = 0.05f, u_inlet = 0.05f, u_max = 0.2f;
    const std::uint32_t n = a.threads, tid = a.tid, w = width(n);
    std::int32_t* type = a.scratch;
    std::int32_t* src = a.scratch + n;
    std::int32_t* dst = a.scratch + std::size_t{10} * n;
    const auto at = [n](std::int32_t* base, int d, std::uint32_t cell) { return base + std::size_t(d) * n + cell; };
    h.work(4);
    const std::int32_t kind = type[tid];
    h.load(&type[tid], 4);
    h.compare(0, kind, obstacle);
    if (h.branch(0, kind == obstacle)) {
      // A wall cell: every distribution goes back the way it came.
      for (int d = 0; d < 9; ++d) {
        *at(dst, opposite(d), tid) = *at(src, d, tid);
        h.load(at(src, d, tid), 4);
        h.store(at(dst, opposite(d), tid), 4);
      }
      h.work(2);
    } else {
      float f[9], rho = 0, ux = 0, uy = 0;
      for (int d = 0; d < 9; ++d) {
        f[d] = hx::real(*at(src, d, tid));
        h.load(at(src, d, tid), 4);
        rho += f[d];
        ux += static_cast<float>(ex(d)) * f[d];
        uy += static_cast<float>(ey(d)) * f[d];
      }
      h.work(20);
      h.compare(1, kind, inlet);
      if (h.branch(1, kind == inlet)) {  // a velocity inlet: (u_inlet, 0)
        ux = u_inlet * rho;
        uy = 0;
        h.work(3);
      }
      h.join(1);
      h.compare(2, kind, outlet);
      if (h.branch(2, kind == outlet)) {  // a pressure outlet: density 1, the velocity kept
        const float scale = rho > 0 ? 1.0f / rho : 0.0f;
        ux *= scale;
        uy *= scale;
        rho = 1.0f;
        h.work(6);
      }
      h.join(2);
      if (h.branch(3, rho < rho_min)) {  // a near-vacuum: floor the density
        rho = rho_min;
        h.work(2);
      }
      h.join(3);
      ux /= rho;
      uy /= rho;
      const float u2 = ux * ux + uy * uy;
      h.work(8);
      if (h.branch(4, u2 > u_max * u_max)) {  // too fast for the lattice: cap the speed
        const float scale = u_max / sqrtf(u2);
        ux *= scale;
        uy *= scale;
        h.work(12);
      }
      h.join(4);
      // BGK collision towards the equilibrium.
      for (int d = 0; d < 9; ++d) {
        const float eu = static_cast<float>(ex(d)) * ux + static_cast<float>(ey(d)) * uy;
        const float eq = weight(d) * rho * (1.0f + 3.0f * eu + 4.5f * eu * eu - 1.5f * u2);
        f[d] = f[d] + omega * (eq - f[d]);
      }
      h.work(9 * 7);
      *at(dst, 0, tid) = hx::word_of(f[0]);
      h.store(at(dst, 0, tid), 4);
      // Streaming, one branch per moving direction (unrolled: no loop at run time).
      const std::int64_t x = tid % w, y = tid / w;
      for (int d = 1; d < 9; ++d) {
        const std::int64_t nx = x + ex(d), ny = y + ey(d), cell = ny * w + nx;
        const bool inside = nx >= 0 && nx < w && ny >= 0 && cell < n;
        const std::uint32_t probe = inside ? static_cast<std::uint32_t>(cell) : tid;  // a predicated load
        const std::int32_t next = type[probe];
        h.load(&type[probe], 4);
        h.work(6);
        if (h.branch(4 + static_cast<std::uint32_t>(d), inside && next != obstacle)) {
          *at(dst, d, probe) = hx::word_of(f[d]);
          h.store(at(dst, d, probe), 4);
        } else {
          *at(dst, opposite(d), tid) = hx::word_of(f[d]);
          h.store(at(dst, opposite(d), tid), 4);
        }
        h.join(4 + static_cast<std::uint32_t>(d));
      }
    }
    h.join(0);
  }
};

/// Calls f(K{}) for the built-in of index `i` in builtin_kernels() (the CUDA backend instantiates
/// what it launches; everything else goes through the descriptors).
template <class F>
decltype(auto) with_builtin(int i, F&& f) {
  switch (i) {
    case 1: return f(bfs_kernel{});
    case 2: return f(petri_kernel{});
    case 3: return f(bisect_kernel{});
    case 4: return f(lbm_kernel{});
    default: break;
  }
  return f(artificial_kernel{});
}
inline constexpr int builtin_count = 5;

}  // namespace warpspan::inputs
