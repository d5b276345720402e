// The CUDA error checks are public (the probe uses them): include/warpspan/cuda/cuda_check.cuh.
#pragma once

#include "warpspan/cuda/cuda_check.cuh"
