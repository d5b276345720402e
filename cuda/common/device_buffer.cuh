// The device buffer is public (the probe's buffers are device_buffers): include/warpspan/detail/cuda/device_buffer.cuh.
#pragma once

#include "warpspan/detail/cuda/device_buffer.cuh"
