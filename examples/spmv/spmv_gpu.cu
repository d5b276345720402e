// The same harness compiled by nvcc: WARPSPAN_HARNESS then also exports the GPU entry, which
// launches spmv::thread as a __global__ kernel and times it with CUDA events (`--fitness gpu`).
#include "spmv.cpp"
