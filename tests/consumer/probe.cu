// A kernel of our own with Ipoints (warpspan::probe): each warp of 3 blocks of 48 threads (a full and
// a half warp per block) records Ipoints 1, 2, 2, 2, 3, once per warp (its first active lane), on a
// GPU and in the emulation alike. Without a CUDA device it says so and exits 0: compiling and linking
// against the installed headers is then what was tested.
#include <cstdio>
#include <vector>

#include "warpspan/wcet/probe.cuh"

__global__ void instrumented(warpspan::wcet::probe_view probe) {
  WARPSPAN_IPOINT(1);
  for (int i = 0; i < 3; ++i) WARPSPAN_IPOINT(2);
  WARPSPAN_IPOINT(3);
}

int main() {
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("probe: no CUDA device, compiled and linked only\n");
    return 0;
  }
  constexpr unsigned blocks = 3, threads = 48, warps_per_block = 2, capacity = 8;
  warpspan::wcet::probe_buffer buffer(blocks * warps_per_block, capacity, nullptr);
#if defined(WARPSPAN_CUDA_EMULATED)  // an emulation build of warpspan: the host compiler has no <<<>>>
  warpspan::emu::make_launcher(instrumented, blocks, threads)(buffer.view());
#else
  // clang-format off
  instrumented<<<blocks, threads>>>(buffer.view());
  // clang-format on
#endif
  WARPSPAN_CUDA_CHECK_LAST();
  std::vector<warpspan::wcet::collected_record> records;
  const auto lost = buffer.collect(0, warps_per_block, records);

  const unsigned expected[] = {1, 2, 2, 2, 3};
  bool ok = lost == 0 && records.size() == blocks * warps_per_block * 5;
  for (std::size_t k = 0; ok && k < records.size(); ++k) {
    const auto& r = records[k];
    ok = r.ipoint == expected[k % 5] && r.cta == k / 5 / warps_per_block && r.warp == k / 5 % warps_per_block;
  }
  std::printf("probe: %zu records, %llu lost: %s\n", records.size(), static_cast<unsigned long long>(lost),
              ok ? "as expected" : "WRONG");
  return ok ? 0 : 1;
}
