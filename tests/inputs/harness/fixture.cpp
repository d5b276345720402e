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
#define WARPSPAN_FIXTURE_crash 10
#define WARPSPAN_FIXTURE_aborts 11
#define WARPSPAN_FIXTURE_spin 12
#define WARPSPAN_FIXTURE_hang 13
#define WARPSPAN_FIXTURE_exits 14
#define WARPSPAN_FIXTURE_throws_int 15
#define WARPSPAN_FIXTURE_load_aborts 16
#if VARIANT(throws)
#define WARPSPAN_FIXTURE_THROWS 1
#endif

#include <csignal>
#include <cstdlib>

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

// Harnesses that misbehave the way user code does (issue 41): the fixture kernel, whose last thread,
// on an input of at least 64 threads whose loop trips n add up to 470 or more (random inputs of 100
// threads: about 1 in 300; the atoms' few threads: never), then crashes, aborts, loops on a hook
// forever, hangs without hooks, calls exit(3) or throws 42.
bool misbehaves(const hx::args& a) {
  if (a.threads < 64 || a.tid != a.threads - 1) return false;
  std::int64_t trips = 0;
  for (std::uint32_t t = 0; t < a.threads; ++t) trips += a.record(t)[0];
  return trips >= 470;
}

template <int Kind>
struct misbehaving : fixture::kernel {
  template <class H>
  static void thread(H& h, const hx::args& a) {
    if (misbehaves(a)) {
      if constexpr (Kind == WARPSPAN_FIXTURE_crash) std::raise(SIGSEGV);
      if constexpr (Kind == WARPSPAN_FIXTURE_aborts) std::abort();
      if constexpr (Kind == WARPSPAN_FIXTURE_spin)
        for (;;) h.work(1);
      if constexpr (Kind == WARPSPAN_FIXTURE_hang) {
        volatile int spins = 0;
        for (;;) spins = spins + 1;  // a statement: C++20 deprecates using a volatile assignment's value
      }
      if constexpr (Kind == WARPSPAN_FIXTURE_exits) std::exit(3);
    }
    fixture::kernel::thread(h, a);
  }
};

// A thread function written against the C descriptor, not the C++ wrapper (which turns what it
// catches into an error message): an int thrown through warpspan's frames.
int throwing_thread(const warpspan_hooks* table, const warpspan_thread* t, char* error) {
  hx::args a{t->input, t->scratch, t->shared,           t->threads,        t->tid,
             t->block, t->stage,   t->genes_per_thread, t->genes_per_block};
  if (misbehaves(a)) throw 42;
  return hx::describe<fixture::kernel>()->thread(table, t, error);
}

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
#elif VARIANT(crash) || VARIANT(aborts) || VARIANT(spin) || VARIANT(hang) || VARIANT(exits)
WARPSPAN_HARNESS(misbehaving<WARPSPAN_FIXTURE>)
#elif VARIANT(throws_int)
extern "C" __attribute__((visibility("default"))) const warpspan_harness_v1* warpspan_harness_entry(void) {
  static warpspan_harness_v1 d = *hx::describe<fixture::kernel>();
  d.thread = throwing_thread;
  return &d;
}
#elif VARIANT(load_aborts)
// Its entry point aborts: warpspan must survive loading it.
extern "C" __attribute__((visibility("default"))) const warpspan_harness_v1* warpspan_harness_entry(void) {
  std::abort();
}
#else
#error "define WARPSPAN_FIXTURE as one of the variants"
#endif
