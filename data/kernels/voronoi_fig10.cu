// voronoi_fig10.cu -- paper 000, Fig. 10, as a CUDA kernel: each thread takes one pixel (x, y) and
// finds the nearest of the N limit points (xs[i-1], ys[i-1]), i = 1..N, by squared distance.
// The PTX that nvcc emits for it is voronoi_fig10_sm90.ptx (command in README.md).
//
// nearest[y * width + x] receives mdp, the 1-based index of the nearest limit point.

extern "C" __global__ void voronoi(int* __restrict__ nearest, const float* __restrict__ xs,
                                   const float* __restrict__ ys, int n, int width, int height) {
  const int px = blockIdx.x * blockDim.x + threadIdx.x;
  const int py = blockIdx.y * blockDim.y + threadIdx.y;
  if (px >= width || py >= height || n < 1) return;
  const float x = static_cast<float>(px);
  const float y = static_cast<float>(py);

  // minimal distance square
  float md = (x - xs[0]) * (x - xs[0]) + (y - ys[0]) * (y - ys[0]);
  // minimal distance point
  int mdp = 1;
  // N number of points in S
  for (int i = 2; i <= n; i++) {
    const float d = (x - xs[i - 1]) * (x - xs[i - 1]) + (y - ys[i - 1]) * (y - ys[i - 1]);
    if (d < md) {
      md = d;
      mdp = i;
    }
  }
  nearest[py * width + px] = mdp;
}
