// Kernels with the structures of the Rodinia suite's barrier kernels, for warpspan's PTX import:
// a shared-memory tree reduction (a loop with __syncthreads inside), a tiled matrix multiply (a
// loop over tiles, two barriers a pass), and a 1D stencil with a halo (one barrier).
#define BLOCK 256
#define TILE 16

extern "C" __global__ void reduce_sum(const float* in, float* out, int n) {
  __shared__ float s[BLOCK];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}

extern "C" __global__ void matmul_tiled(const float* a, const float* b, float* c, int n) {
  __shared__ float ta[TILE][TILE], tb[TILE][TILE];
  const int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
  float acc = 0.0f;
  for (int t = 0; t < n / TILE; ++t) {
    ta[threadIdx.y][threadIdx.x] = a[row * n + t * TILE + threadIdx.x];
    tb[threadIdx.y][threadIdx.x] = b[(t * TILE + threadIdx.y) * n + col];
    __syncthreads();
#pragma unroll 4
    for (int k = 0; k < TILE; ++k) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  c[row * n + col] = acc;
}

extern "C" __global__ void stencil_1d(const float* in, float* out, int n) {
  __shared__ float s[BLOCK + 2];
  const int i = blockIdx.x * blockDim.x + threadIdx.x;
  s[threadIdx.x + 1] = in[i];
  if (threadIdx.x == 0) s[0] = i > 0 ? in[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1) s[BLOCK + 1] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  out[i] = 0.25f * s[threadIdx.x] + 0.5f * s[threadIdx.x + 1] + 0.25f * s[threadIdx.x + 2];
}
