// A histogram of a user-sized input, traced with warpspan's probe (examples/histogram/README.md).
// The kernel is the user's own: five WARPSPAN_IPOINTs, one per basic block of interest, the first
// and the last its first and last statements. The host driver allocates nothing for the probe
// itself: warpspan::wcet::probe_session does, and writes the trace after our own launches.
//
//   histogram N RUNS TRACE [BINARY]  - RUNS launches over N random values (seed = run), each checked
//                                      against the CPU; the text trace to TRACE (and the binary one)
#include <cstdio>
#include <cstdlib>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpspan/wcet/probe.cuh"

using warpspan::wcet::probe_view;

// counts[v] for every value v < bins, counts[bins] for the rest; the grid takes the input a tile of
// gridDim.x * blockDim.x values at a time (so every thread of a block runs the same iterations).
__global__ void histogram(probe_view probe, const unsigned* in, unsigned n, unsigned* counts, unsigned bins) {
  WARPSPAN_IPOINT(0);
  const unsigned tile = blockDim.x * gridDim.x;
#pragma unroll 1  // one copy of each Ipoint in the PTX (an unrolled loop would copy them)
  for (unsigned base = blockIdx.x * blockDim.x; base < n; base += tile) {
    WARPSPAN_IPOINT(1);
    const unsigned i = base + threadIdx.x;
    if (i < n) {
      const unsigned v = in[i];
      if (v < bins) {
        WARPSPAN_IPOINT(2);
        atomicAdd(counts + v, 1u);
      } else {
        WARPSPAN_IPOINT(3);
        atomicAdd(counts + bins, 1u);
      }
    }
    // The end of a tile: the block's warps wait for each other (the emulation's probe needs no
    // barrier to order a warp's passes: docs/wcet.md, "Your own kernel").
    __syncthreads();
  }
  WARPSPAN_IPOINT(4);
}

int main(int argc, char** argv) try {
  if (argc < 4) {
    std::fprintf(stderr, "usage: histogram N RUNS TRACE [BINARY]\n");
    return 2;
  }
  const unsigned n = static_cast<unsigned>(std::strtoul(argv[1], nullptr, 10));
  const unsigned runs = static_cast<unsigned>(std::strtoul(argv[2], nullptr, 10));
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("histogram: no CUDA device, compiled and linked only\n");
    return 0;
  }
  constexpr unsigned bins = 64, blocks = 4, threads = 128;
  // One shape for every launch; each warp keeps up to 4 records per element it visits, plus 2.
  const unsigned per_warp = 4 * ((n + blocks * threads - 1) / (blocks * threads)) + 2;
  warpspan::wcet::probe_session probe(blocks, threads, per_warp);
  warpspan::device_buffer<unsigned> counts(bins + 1, nullptr);
  for (unsigned run = 0; run < runs; ++run) {
    // A quarter of the values out of range: both sides of the branch run, in every warp.
    std::mt19937 rng(run);
    std::uniform_int_distribution<unsigned> value(0, bins + bins / 3);
    std::vector<unsigned> input(n);
    std::vector<unsigned> expected(bins + 1, 0);
    for (auto& v : input) {
      v = value(rng);
      ++expected[v < bins ? v : bins];
    }
    warpspan::device_buffer<unsigned> in(input, nullptr);
    WARPSPAN_CUDA_TRY(cudaMemset(counts.data(), 0, counts.bytes()));
#if defined(WARPSPAN_CUDA_EMULATED)  // warpspan built with its CUDA emulation: the host compiler has no <<<>>>
    warpspan::emu::make_launcher(histogram, blocks, threads)(probe.view(), in.data(), n, counts.data(), bins);
#else
    // clang-format off
    histogram<<<blocks, threads>>>(probe.view(), in.data(), n, counts.data(), bins);
    // clang-format on
#endif
    if (probe.collect() != 0) throw std::runtime_error("records lost: the slices are too small");
    if (counts.to_host() != expected) {
      std::fprintf(stderr, "histogram: run %u differs from the CPU\n", run);
      return 1;
    }
  }
  const std::string note = "examples/histogram: " + std::to_string(runs) + " runs of N = " + std::to_string(n) + ", " +
                           std::to_string(blocks) + " blocks of " + std::to_string(threads) + " threads";
  probe.write_text(argv[3], note);
  if (argc > 4) probe.write_binary(argv[4]);
  std::printf("histogram: %u runs of N = %u, every run equal to the CPU's; %zu records, %llu lost\n", runs, n,
              probe.records().size(), static_cast<unsigned long long>(probe.lost()));
  return 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "histogram: %s\n", e.what());
  return 2;
}
