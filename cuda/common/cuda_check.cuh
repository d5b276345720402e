// The CUDA error checks are public (the probe uses them): include/warpspan/detail/cuda/cuda_check.cuh.
#pragma once

#include "warpspan/detail/cuda/cuda_check.cuh"
