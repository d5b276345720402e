// The device buffer is public (the probe's buffers are device_buffers): include/warpspan/cuda/device_buffer.cuh.
#pragma once

#include "warpspan/cuda/device_buffer.cuh"
