// The emulation's model of a GPU's caches, fed by the memory-request counter (counts.cpp): which of
// a kernel's global sectors an L1 serves, and which an L2 of any size would miss or write back.
//
// L1: each block's load sectors pass through an L1 of its own (l1_bytes_per_block, least recently
// used, 4 ways), which a store or atomic of the block invalidates (write-through, no allocation),
// emptied at each block's start: an SM's L1 shared by several blocks, and kept across a block's
// end, may serve more. What misses it reaches the L2, with every store and atomic.
// L2: one cache of 32-byte sectors, fully associative, least recently used, kept across launches
// until reset_counts(). Each sector's LRU stack distance (the distinct sectors touched since its
// last access) decides at once whether every capacity holds it, so one run answers for every L2
// size: a read (a load or atomic) misses a cache of C bytes when its distance is at least C / 32
// or the sector is new; a store makes the sector dirty (no read: the L2 keeps byte masks), and the
// dirty data is written back once if a later access's distance says the cache lost the sector
// before the next store to it, and at the end in any case (the dirty data left in the L2 at the
// end of what was counted is charged as if written back).
// The blocks of a launch run one after another in the emulation but side by side on a GPU: at its
// end, a launch's blocks' sectors reach the L2 interleaved, one from each block in turn, in block
// order (deterministic, whatever the OS threads did).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace warpspan::emu {

/// The L2 capacities the histograms resolve: 8 KiB to 128 MiB, eight a doubling (2^(13 + i/8)
/// bytes, rounded to whole sectors). A capacity between two of them is answered for the lower.
inline constexpr std::size_t l2_capacities = 14 * 8 + 1;
/// Capacity i in bytes.
std::uint64_t l2_capacity(std::size_t i);
/// Each block's own L1 (bytes): the least an SM's 256 KiB of L1 and shared memory keeps as L1
/// (28 KiB beside 228 KiB of shared memory), rounded down, for one block.
inline constexpr std::size_t l1_bytes_per_block = 16 * 1024;

/// What the cache model saw of one kernel (or of several, summed).
struct cache_counts {
  std::string kernel;
  std::uint64_t l1_hit_sectors = 0;  ///< load sectors the blocks' L1 served
  std::uint64_t l2_sectors = 0;      ///< sectors that reached the L2: L1 misses, stores, atomics
  std::uint64_t l2_reads = 0;        ///< of which read (loads and atomics)
  /// Histograms over l2_capacity(): [i] counts the reads (`reads`) or the dirty data (`dirty`)
  /// that a cache of l2_capacity(i) holds and one of l2_capacity(i - 1) does not; the last entry,
  /// those no capacity holds (a read of a new sector; dirty data left at the end).
  std::array<std::uint64_t, l2_capacities + 1> reads{}, dirty{};

  /// Reads an L2 of `bytes` misses (DRAM reads, in sectors), at the largest capacity <= bytes.
  std::uint64_t read_misses(std::uint64_t bytes) const;
  /// Sectors an L2 of `bytes` writes back to DRAM.
  std::uint64_t writebacks(std::uint64_t bytes) const;
  /// Sectors between the L2 and DRAM: read_misses + writebacks.
  std::uint64_t dram_sectors(std::uint64_t bytes) const { return read_misses(bytes) + writebacks(bytes); }
  cache_counts& operator+=(const cache_counts& o);
};

/// The cache model's counts of every kernel counted since reset_counts(), by name (as counts()).
std::vector<cache_counts> cache_counts_of_kernels();

namespace caching {

enum class sector_use : unsigned char { load, store, atomic };

/// One block's view: its L1 and the sectors it sends on to the L2, in order.
struct block_cache {
  std::uint64_t block = 0;  ///< the block's linear index in its grid
  std::uint64_t l1_hits = 0;
  std::vector<std::uint64_t> to_l2;  ///< sector << 2 | use
  struct way {
    std::uint64_t tag = 0;  ///< sector + 1; 0: empty
    std::uint64_t used = 0;
  };
  std::array<way, l1_bytes_per_block / 32> l1{};
  std::uint64_t clock = 0;

  void begin(std::uint64_t block_index);
  /// A warp request's distinct sectors.
  void request(const std::uint64_t* sectors, std::size_t n, sector_use use);
};

/// The block's sectors join its launch's (call with the launch's lock held or from one thread).
void end_block(block_cache& b);
/// The launch of `kernel` ended: its blocks' sectors go through the L2, interleaved.
void end_launch(const std::string& kernel);
/// Forgets every count and empties the L2.
void reset();

/// The L2 alone (for tests): a fully associative LRU cache of sectors measured at every capacity.
class l2_stack {
 public:
  l2_stack();
  ~l2_stack();
  l2_stack(const l2_stack&) = delete;
  l2_stack& operator=(const l2_stack&) = delete;
  /// An access by kernel number `kernel` (an index the caller keeps); the histograms of `counts`
  /// (indexed by kernel) grow as needed.
  void access(std::uint64_t sector, sector_use use, std::size_t kernel, std::vector<cache_counts>& counts);
  /// `counts` plus the dirty data left in the cache, charged to the kernels that stored it.
  std::vector<cache_counts> with_dirty_left(std::vector<cache_counts> counts) const;
  void clear();

 private:
  struct state;
  state* s_;
};

}  // namespace caching
}  // namespace warpspan::emu
