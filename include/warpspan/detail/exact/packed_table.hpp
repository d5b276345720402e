// An open-addressing hash table from packed states (include/warpspan/exact/frontier.hpp) to a
// 16-bit value, used by the depth-first search's memo and by the progress sweep's buckets. Packed
// states are never 0 (every warp's byte is its progress plus one), so 0 marks an empty slot.
// Host code.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "warpspan/exact/frontier.hpp"

namespace warpspan {

class packed_table {
 public:
  explicit packed_table(std::size_t slots = std::size_t{1} << 10) { reset(slots); }

  /// Empties the table with room for `slots` (rounded up to a power of two).
  void reset(std::size_t slots) {
    std::size_t n = 16;
    while (n < slots) n *= 2;
    keys_.assign(n, 0);
    values_.assign(n, 0);
    mask_ = n - 1;
    size_ = 0;
  }

  const std::uint16_t* find(packed_state key) const {
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      if (keys_[i] == 0) return nullptr;
      if (keys_[i] == key) return &values_[i];
    }
  }

  /// Inserts key with value, or keeps the larger value when the key is there.
  void insert_max(packed_state key, std::uint16_t value) {
    if (4 * (size_ + 1) > 3 * keys_.size()) grow(2 * keys_.size());  // load at most 3/4
    for (std::size_t i = slot(key);; i = (i + 1) & mask_) {
      if (keys_[i] == 0) {
        keys_[i] = key;
        values_[i] = value;
        ++size_;
        return;
      }
      if (keys_[i] == key) {
        if (value > values_[i]) values_[i] = value;
        return;
      }
    }
  }

  /// Hints the cache to fetch key's home slot (for inserts a few entries ahead in a batch).
  void prefetch(packed_state key) const {
    const std::size_t i = slot(key);
    __builtin_prefetch(&keys_[i], 1);
    __builtin_prefetch(&values_[i], 1);
  }

  std::uint64_t size() const { return size_; }
  std::uint64_t bytes() const { return keys_.size() * (sizeof(packed_state) + sizeof(std::uint16_t)); }

  /// Calls f(key, value) for every entry.
  template <class F>
  void for_each(F&& f) const {
    for (std::size_t i = 0; i < keys_.size(); ++i)
      if (keys_[i] != 0) f(keys_[i], values_[i]);
  }

 private:
  std::size_t slot(packed_state key) const {
    const std::uint64_t lo = static_cast<std::uint64_t>(key), hi = static_cast<std::uint64_t>(key >> 64);
    std::uint64_t h = (lo ^ (hi * 0x9E3779B97F4A7C15ull)) * 0xBF58476D1CE4E5B9ull;
    h ^= h >> 31;
    return static_cast<std::size_t>(h) & mask_;
  }

  void grow(std::size_t slots) {
    std::vector<packed_state> keys(std::move(keys_));
    std::vector<std::uint16_t> values(std::move(values_));
    reset(slots);
    for (std::size_t i = 0; i < keys.size(); ++i)
      if (keys[i] != 0) insert_max(keys[i], values[i]);
  }

  std::vector<packed_state> keys_;
  std::vector<std::uint16_t> values_;
  std::size_t mask_ = 0;
  std::uint64_t size_ = 0;
};

}  // namespace warpspan
