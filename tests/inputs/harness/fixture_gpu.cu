// The good fixture harness with its GPU entry (InputsHarness.GpuEntryMatchesCpu): compiled by nvcc in
// a CUDA build, or as C++ against the emulated runtime in the emulation build (tests/CMakeLists.txt),
// as a user's .cu harness is.
#include "fixture.cpp"
