// The order in which the exact searches sort packed states: ascending as unsigned 128-bit integers.
// On a device it is thrust::less, for which Thrust picks CUB's radix sort (checked here at compile
// time; a comparison functor of our own would make it a merge sort). Thrust's sequential (CPP)
// system, which the CUDA emulation build runs, has no radix sort for 16-byte keys, so there the same
// order is a comparison functor.
#pragma once

#include <thrust/functional.h>
#if !defined(WARPSPAN_CUDA_EMULATION_BUILD) && defined(__CUDACC__)
#include <thrust/system/cuda/detail/sort.h>
#endif

#include "warpspan/exact/frontier.hpp"

namespace warpspan {

#if defined(WARPSPAN_CUDA_EMULATION_BUILD)
struct key_order {
  bool operator()(packed_state a, packed_state b) const { return a < b; }
};
#else
using key_order = thrust::less<packed_state>;
#if defined(__CUDACC__) && THRUST_VERSION >= 300000 && THRUST_VERSION < 400000
static_assert(thrust::cuda_cub::__smart_sort::can_use_primitive_sort<packed_state, key_order>::value,
              "packed states are expected to be radix-sorted");
#endif
#endif

}  // namespace warpspan
