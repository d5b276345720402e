// What the CUDA emulation build (cuda/emulation/, docs/development.md) needs from the headers that
// host and device code share, kept here out of the public headers. Only the emulation's kernel
// sources define WARPSPAN_EMU_KERNEL_SOURCE; for every other compilation (nvcc, the host, a user's
// program) this header defines the hooks as nothing.
#pragma once

#if defined(WARPSPAN_EMU_KERNEL_SOURCE) && !defined(__CUDACC__)
/// The emulation's kernel sources are traced for its race checker: their shared functions are
/// forced inline as nvcc does, so that the kernels run their own traced copies (see CMakeLists.txt).
#define WARPSPAN_DETAIL_EMU_KERNEL_INLINE inline __attribute__((always_inline))

namespace warpspan::emu {
void warp_reconverge() noexcept;
}
/// A point where a warp's lanes reconverge (the top of an annealing iteration), for the
/// emulation's memory-request counter (cuda/emulation/counts.cpp), which lines the lanes' accesses
/// up into warp requests anew from there.
#define WARPSPAN_WARP_RECONVERGE() ::warpspan::emu::warp_reconverge()
#else
#define WARPSPAN_WARP_RECONVERGE() static_cast<void>(0)
#endif
