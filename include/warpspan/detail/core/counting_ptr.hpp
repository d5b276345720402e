// A pointer that counts the bytes read and written through it: the memory traffic of the shared
// host/device code (the annealing step, the dbf cell), measured by running exactly that code on the
// CPU through views built from these pointers. Host-only; a measurement tool, not a fast path.
//
// Every read of an element through the pointer adds its size to `read`, every write to `written`; a
// read-modify-write (++, --) counts both. What the code keeps in registers is not counted, which is
// what a compiler does too, up to the values it reloads.
#pragma once

#include <cstddef>
#include <cstdint>

namespace warpspan {

struct access_tally {
  std::uint64_t read = 0;      ///< bytes
  std::uint64_t written = 0;   ///< bytes
  std::uint64_t accesses = 0;  ///< element reads and writes
  std::uint64_t bytes() const { return read + written; }
};

template <class T>
class counting_ref {
 public:
  counting_ref(T* at, access_tally* tally) : at_(at), tally_(tally) {}
  operator T() const {
    tally_->read += sizeof(T);
    ++tally_->accesses;
    return *at_;
  }
  counting_ref& operator=(T value) {
    tally_->written += sizeof(T);
    ++tally_->accesses;
    *at_ = value;
    return *this;
  }
  counting_ref& operator=(const counting_ref& other) { return *this = static_cast<T>(other); }
  counting_ref(const counting_ref&) = default;
  T operator++() {
    const T now = static_cast<T>(static_cast<T>(*this) + 1);
    *this = now;
    return now;
  }
  T operator--() {
    const T now = static_cast<T>(static_cast<T>(*this) - 1);
    *this = now;
    return now;
  }
  T operator++(int) {
    const T old = *this;
    *this = static_cast<T>(old + 1);
    return old;
  }
  T operator--(int) {
    const T old = *this;
    *this = static_cast<T>(old - 1);
    return old;
  }

 private:
  T* at_;
  access_tally* tally_;
};

/// Element k is `stride` elements after element k - 1, as strided_ptr (schedule.hpp), so it can
/// stand for a chain stored alone (stride 1) or interleaved.
template <class T>
struct counting_ptr {
  T* base = nullptr;
  access_tally* tally = nullptr;
  std::size_t stride = 1;
  counting_ref<T> operator[](std::size_t k) const { return {base + k * stride, tally}; }
  counting_ptr operator+(std::size_t k) const { return {base + k * stride, tally, stride}; }
  counting_ptr& operator+=(std::size_t k) {
    base += k * stride;
    return *this;
  }
};

}  // namespace warpspan
