// Our own CUDA SDK-style kernels of 002 Table I with Ipoints (include/warpspan/wcet/probe.cuh) at
// their source-level basic blocks; the CFGs they follow are in host/wcet/kernels.cpp (Ipoint ids are
// the indices of its `ipoints` lists). Each runs on a random test vector and checks its output
// against the CPU: unsigned arithmetic, so the comparison is exact.
#include "wcet/sdk_kernels.cuh"

#include <algorithm>
#include <random>

#include "common/cuda_check.cuh"
#include "common/device_buffer.cuh"
#include "common/launch.cuh"

namespace warpspan::wcet {

namespace {

constexpr unsigned tile = 32, tile_rows = 8, bins = 64, sort_block = 128;

// ---- vector add: start 0, add 1, end 2
__global__ void __launch_bounds__(256)
    vector_add(const unsigned* a, const unsigned* b, unsigned* c, unsigned n, probe_view probe) {
  WARPSPAN_IPOINT(0);
  const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    WARPSPAN_IPOINT(1);
    c[i] = a[i] + b[i];
  }
  WARPSPAN_IPOINT(2);
}

// ---- reductions: start 0, step 1, add 2, sync 3, after 4, store 5, end 6
template <bool Interleaved>
__global__ void __launch_bounds__(256) reduce(const unsigned* in, unsigned* out, unsigned n, probe_view probe) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  WARPSPAN_IPOINT(0);
  const unsigned tid = threadIdx.x;
  const unsigned i = blockIdx.x * blockDim.x + tid;
  sh[tid] = i < n ? in[i] : 0u;
  __syncthreads();
  for (unsigned s = Interleaved ? 1u : blockDim.x / 2; Interleaved ? s < blockDim.x : s > 0;
       s = Interleaved ? s * 2 : s / 2) {
    WARPSPAN_IPOINT(1);
    if (Interleaved ? tid % (2 * s) == 0 : tid < s) {
      WARPSPAN_IPOINT(2);
      sh[tid] += sh[tid + s];
    }
    WARPSPAN_IPOINT(3);
    __syncthreads();
  }
  WARPSPAN_IPOINT(4);
  if (tid == 0) {
    WARPSPAN_IPOINT(5);
    out[blockIdx.x] = sh[0];
  }
  WARPSPAN_IPOINT(6);
}

// ---- naive transpose: start 0, row 1, copy 2, end 3 (w x h in, h x w out)
__global__ void __launch_bounds__(256)
    transpose_naive(const unsigned* in, unsigned* out, unsigned w, unsigned h, probe_view probe) {
  WARPSPAN_IPOINT(0);
  const unsigned x = blockIdx.x * tile + threadIdx.x, y = blockIdx.y * tile + threadIdx.y;
  for (unsigned j = 0; j < tile; j += tile_rows) {
    WARPSPAN_IPOINT(1);
    if (x < w && y + j < h) {
      WARPSPAN_IPOINT(2);
      out[static_cast<std::size_t>(x) * h + y + j] = in[static_cast<std::size_t>(y + j) * w + x];
    }
  }
  WARPSPAN_IPOINT(3);
}

// ---- shared-tile transpose: start 0, load 1, copy_in 2, synced 3, store 4, copy_out 5, end 6
__global__ void __launch_bounds__(256)
    transpose_shared(const unsigned* in, unsigned* out, unsigned w, unsigned h, probe_view probe) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, t);  // tile x (tile + 1): the padding avoids bank conflicts
  WARPSPAN_IPOINT(0);
  unsigned x = blockIdx.x * tile + threadIdx.x, y = blockIdx.y * tile + threadIdx.y;
  for (unsigned j = 0; j < tile; j += tile_rows) {
    WARPSPAN_IPOINT(1);
    if (x < w && y + j < h) {
      WARPSPAN_IPOINT(2);
      t[(threadIdx.y + j) * (tile + 1) + threadIdx.x] = in[static_cast<std::size_t>(y + j) * w + x];
    }
  }
  __syncthreads();
  WARPSPAN_IPOINT(3);
  x = blockIdx.y * tile + threadIdx.x;
  y = blockIdx.x * tile + threadIdx.y;
  for (unsigned j = 0; j < tile; j += tile_rows) {
    WARPSPAN_IPOINT(4);
    if (x < h && y + j < w) {
      WARPSPAN_IPOINT(5);
      out[static_cast<std::size_t>(y + j) * h + x] = t[threadIdx.x * (tile + 1) + threadIdx.y + j];
    }
  }
  WARPSPAN_IPOINT(6);
}

// ---- block scan: start 0, step 1, add 2, after 3, store 4, end 5
__global__ void __launch_bounds__(256) scan(const unsigned* in, unsigned* out, unsigned n, probe_view probe) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, buf);
  WARPSPAN_IPOINT(0);
  const unsigned tid = threadIdx.x, i = blockIdx.x * blockDim.x + tid;
  buf[tid] = i < n ? in[i] : 0u;
  __syncthreads();
  for (unsigned offset = 1; offset < blockDim.x; offset *= 2) {
    WARPSPAN_IPOINT(1);
    unsigned v = buf[tid];
    if (tid >= offset) {
      WARPSPAN_IPOINT(2);
      v += buf[tid - offset];
    }
    __syncthreads();
    buf[tid] = v;
    __syncthreads();
  }
  WARPSPAN_IPOINT(3);
  if (i < n) {
    WARPSPAN_IPOINT(4);
    out[i] = buf[tid];
  }
  WARPSPAN_IPOINT(5);
}

// ---- histogram: start 0, count 1, merged 2, merge 3, end 4
__global__ void __launch_bounds__(256) histogram(const unsigned* data, unsigned* hist, unsigned n, probe_view probe) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  WARPSPAN_IPOINT(0);
  for (unsigned b = threadIdx.x; b < bins; b += blockDim.x) sh[b] = 0;
  __syncthreads();
  for (unsigned i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
    WARPSPAN_IPOINT(1);
    atomicAdd(&sh[data[i] % bins], 1u);
  }
  __syncthreads();
  WARPSPAN_IPOINT(2);
  if (threadIdx.x < bins) {
    WARPSPAN_IPOINT(3);
    atomicAdd(&hist[threadIdx.x], sh[threadIdx.x]);
  }
  WARPSPAN_IPOINT(4);
}

// ---- bitonic sort of each block's keys: start 0, stage 1, pass 2, compare 3, up 4, down 5, end 6
__global__ void __launch_bounds__(sort_block) bitonic(const unsigned* in, unsigned* out, probe_view probe) {
  WARPSPAN_DYNAMIC_SHARED(unsigned, sh);
  WARPSPAN_IPOINT(0);
  const unsigned tid = threadIdx.x, g = blockIdx.x * blockDim.x + tid;
  sh[tid] = in[g];
  __syncthreads();
  for (unsigned k = 2; k <= blockDim.x; k <<= 1) {
    WARPSPAN_IPOINT(1);
    for (unsigned j = k >> 1; j > 0; j >>= 1) {
      WARPSPAN_IPOINT(2);
      const unsigned partner = tid ^ j;
      if (partner > tid) {
        WARPSPAN_IPOINT(3);
        const unsigned a = sh[tid], b = sh[partner];
        if ((tid & k) == 0) {
          WARPSPAN_IPOINT(4);
          if (a > b) sh[tid] = b, sh[partner] = a;
        } else {
          WARPSPAN_IPOINT(5);
          if (a < b) sh[tid] = b, sh[partner] = a;
        }
      }
      __syncthreads();
    }
  }
  out[g] = sh[tid];
  WARPSPAN_IPOINT(6);
}

std::vector<unsigned> random_values(std::size_t n, std::uint64_t seed, unsigned limit) {
  std::mt19937_64 rng(seed);
  std::vector<unsigned> v(n);
  for (auto& x : v) x = static_cast<unsigned>(rng() % limit);
  return v;
}

unsigned blocks_for(unsigned n, unsigned block) { return (n + block - 1) / block; }

// Each `run` launches one kernel with the probe, waits, and compares with the CPU.

bool run_vector_add(unsigned n, std::uint64_t seed, probe_view probe, cudaStream_t s) {
  const auto a = random_values(n, seed, 1u << 30), b = random_values(n, seed + 1, 1u << 30);
  device_buffer<unsigned> da(a, s), db(b, s), dc(n, s);
  WARPSPAN_LAUNCH(vector_add, blocks_for(n, 256), 256, 0, s)(da.data(), db.data(), dc.data(), n, probe);
  WARPSPAN_CUDA_CHECK_LAST();
  const auto c = dc.to_host();
  for (unsigned i = 0; i < n; ++i)
    if (c[i] != a[i] + b[i]) return false;
  return true;
}

template <bool Interleaved>
bool run_reduce(unsigned n, std::uint64_t seed, probe_view probe, cudaStream_t s) {
  const unsigned block = 256, grid = blocks_for(n, block);
  const auto in = random_values(n, seed, 1000);
  device_buffer<unsigned> din(in, s), dout(grid, s);
  WARPSPAN_LAUNCH(reduce<Interleaved>, grid, block, block * sizeof(unsigned), s)(din.data(), dout.data(), n, probe);
  WARPSPAN_CUDA_CHECK_LAST();
  const auto out = dout.to_host();
  for (unsigned b = 0; b < grid; ++b) {
    unsigned sum = 0;
    for (unsigned i = b * block; i < std::min(n, (b + 1) * block); ++i) sum += in[i];
    if (out[b] != sum) return false;
  }
  return true;
}

template <bool Shared>
bool run_transpose(unsigned size, std::uint64_t seed, probe_view probe, cudaStream_t s) {
  const unsigned w = size, h = size * 7 / 10 + 1;  // not multiples of the tile on purpose
  const auto in = random_values(std::size_t{w} * h, seed, 1u << 30);
  device_buffer<unsigned> din(in, s), dout(std::size_t{w} * h, s);
  const dim3 grid(blocks_for(w, tile), blocks_for(h, tile)), block(tile, tile_rows);
  if (Shared) WARPSPAN_LAUNCH(transpose_shared, grid, block, tile * (tile + 1) * sizeof(unsigned), s)
  (din.data(), dout.data(), w, h, probe);
  else WARPSPAN_LAUNCH(transpose_naive, grid, block, 0, s)(din.data(), dout.data(), w, h, probe);
  WARPSPAN_CUDA_CHECK_LAST();
  const auto out = dout.to_host();
  for (unsigned y = 0; y < h; ++y)
    for (unsigned x = 0; x < w; ++x)
      if (out[std::size_t{x} * h + y] != in[std::size_t{y} * w + x]) return false;
  return true;
}

bool run_scan(unsigned n, std::uint64_t seed, probe_view probe, cudaStream_t s) {
  const unsigned block = 256;
  const auto in = random_values(n, seed, 1000);
  device_buffer<unsigned> din(in, s), dout(n, s);
  WARPSPAN_LAUNCH(scan, blocks_for(n, block), block, block * sizeof(unsigned), s)(din.data(), dout.data(), n, probe);
  WARPSPAN_CUDA_CHECK_LAST();
  const auto out = dout.to_host();
  unsigned sum = 0;
  for (unsigned i = 0; i < n; ++i) {
    sum = i % block == 0 ? in[i] : sum + in[i];
    if (out[i] != sum) return false;
  }
  return true;
}

bool run_histogram(unsigned n, std::uint64_t seed, probe_view probe, cudaStream_t s) {
  const auto data = random_values(n, seed, 1u << 20);
  device_buffer<unsigned> dd(data, s), dh(std::vector<unsigned>(bins, 0), s);
  WARPSPAN_LAUNCH(histogram, 8, 128, bins * sizeof(unsigned), s)(dd.data(), dh.data(), n, probe);
  WARPSPAN_CUDA_CHECK_LAST();
  std::vector<unsigned> want(bins, 0);
  for (unsigned v : data) ++want[v % bins];
  return dh.to_host() == want;
}

bool run_bitonic(unsigned n, std::uint64_t seed, probe_view probe, cudaStream_t s) {
  const unsigned grid = n / sort_block;
  auto keys = random_values(std::size_t{grid} * sort_block, seed, 1u << 30);
  device_buffer<unsigned> din(keys, s), dout(keys.size(), s);
  WARPSPAN_LAUNCH(bitonic, grid, sort_block, sort_block * sizeof(unsigned), s)(din.data(), dout.data(), probe);
  WARPSPAN_CUDA_CHECK_LAST();
  for (unsigned b = 0; b < grid; ++b) std::sort(keys.begin() + b * sort_block, keys.begin() + (b + 1) * sort_block);
  return dout.to_host() == keys;
}

}  // namespace

const std::vector<sdk_kernel>& sdk_kernels() {
  static const std::vector<sdk_kernel> kernels{
      {"vector_add",
       [](unsigned n) {
         return launch_shape{blocks_for(n, 256), 256};
       },
       run_vector_add},
      {"reduce_interleaved",
       [](unsigned n) {
         return launch_shape{blocks_for(n, 256), 256};
       },
       run_reduce<true>},
      {"reduce_sequential",
       [](unsigned n) {
         return launch_shape{blocks_for(n, 256), 256};
       },
       run_reduce<false>},
      {"transpose_naive",
       [](unsigned n) {
         return launch_shape{blocks_for(n, tile) * blocks_for(n * 7 / 10 + 1, tile), tile * tile_rows};
       },
       run_transpose<false>},
      {"transpose_shared",
       [](unsigned n) {
         return launch_shape{blocks_for(n, tile) * blocks_for(n * 7 / 10 + 1, tile), tile * tile_rows};
       },
       run_transpose<true>},
      {"scan",
       [](unsigned n) {
         return launch_shape{blocks_for(n, 256), 256};
       },
       run_scan},
      {"histogram",
       [](unsigned) {
         return launch_shape{8, 128};
       },
       run_histogram},
      {"bitonic_sort",
       [](unsigned n) {
         return launch_shape{n / sort_block, sort_block};
       },
       run_bitonic},
  };
  return kernels;
}

}  // namespace warpspan::wcet
