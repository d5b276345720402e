// The libFuzzer entry point of one fuzz executable; WARPSPAN_FUZZ_ONE names the target's body
// (tests/fuzz/CMakeLists.txt builds one executable per target from this file).
#include <cstddef>
#include <cstdint>

#include "targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  // Accepted and rejected inputs are both fine; anything else escapes and libFuzzer reports it.
  warpspan::fuzz::WARPSPAN_FUZZ_ONE(data, size);
  return 0;
}
