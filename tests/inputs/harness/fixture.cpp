// Test harness libraries (tests/CMakeLists.txt builds one per WARPSPAN_FIXTURE variant): a good one,
// and one for each thing `inputs --harness` must refuse or report.
#define VARIANT(name) (WARPSPAN_FIXTURE == WARPSPAN_FIXTURE_##name)
#define WARPSPAN_FIXTURE_good 1
#define WARPSPAN_FIXTURE_throws 2
#define WARPSPAN_FIXTURE_no_entry 3
#define WARPSPAN_FIXTURE_bad_abi 4
#define WARPSPAN_FIXTURE_zero_genes 5
#define WARPSPAN_FIXTURE_bad_range 6
#define WARPSPAN_FIXTURE_bad_branch 7
#define WARPSPAN_FIXTURE_bad_atomic 8
#define WARPSPAN_FIXTURE_endless 9
#if VARIANT(throws)
#define WARPSPAN_FIXTURE_THROWS 1
#endif

#include "fixture_kernel.hpp"

namespace {

namespace hx = warpspan::harness;

// lo above hi.
struct bad_range : fixture::kernel {
  static constexpr warpspan_field fields[] = {hx::thread_int("n", 5, 1)};
};
// branch(2) with 2 branches.
struct bad_branch : fixture::kernel {
  template <class H>
  static void thread(H& h, const hx::args& a) {
    h.work(1);
    h.branch(a.tid == 3 ? 2 : 0, true);
  }
};
// An atomic on memory warpspan does not own.
struct bad_atomic : fixture::kernel {
  template <class H>
  static void thread(H& h, const hx::args&) {
    std::int32_t local = 0;
    h.atomic_add(&local, 1);
  }
};
// A loop that never ends (its condition always holds).
struct endless : fixture::kernel {
  template <class H>
  static void thread(H& h, const hx::args&) {
    while (h.branch(0, true)) h.work(1);
    h.join(0);
  }
};

}  // namespace

#if VARIANT(good) || VARIANT(throws)
WARPSPAN_HARNESS(fixture::kernel)
#elif VARIANT(no_entry)
extern "C" int not_a_harness(void) { return 0; }
#elif VARIANT(bad_abi)
extern "C" __attribute__((visibility("default"))) const warpspan_harness_v1* warpspan_harness_entry(void) {
  static warpspan_harness_v1 d = *hx::describe<fixture::kernel>();
  d.abi_version = 99;
  return &d;
}
#elif VARIANT(zero_genes)
// A descriptor written by hand that declares no field: nothing to search.
extern "C" __attribute__((visibility("default"))) const warpspan_harness_v1* warpspan_harness_entry(void) {
  static warpspan_harness_v1 d = *hx::describe<fixture::kernel>();
  d.field_count = 0;
  d.fields = nullptr;
  return &d;
}
#elif VARIANT(bad_range)
WARPSPAN_HARNESS(bad_range)
#elif VARIANT(bad_branch)
WARPSPAN_HARNESS(bad_branch)
#elif VARIANT(bad_atomic)
WARPSPAN_HARNESS(bad_atomic)
#elif VARIANT(endless)
WARPSPAN_HARNESS(endless)
#else
#error "define WARPSPAN_FIXTURE as one of the variants"
#endif
