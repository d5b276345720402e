// warpspan's kernel harness: write the per-thread body of a GPU kernel against warpspan's hooks,
// declare its input, and `warpspan inputs --harness ./libyourkernel.so` searches for the inputs that
// make it slowest (docs/harness.md walks through it). This header is self-contained (the C++17
// standard library only) and is all a harness includes; the shared library it builds talks to
// warpspan through the C structs below, so it depends neither on warpspan's C++ ABI nor on its
// libraries.
//
//   #include <warpspan/harness.hpp>
//   struct my_kernel {
//     static constexpr const char* name = "my_kernel";
//     static constexpr std::uint32_t block = 128, branches = 1;
//     static constexpr warpspan_field fields[] = {warpspan::harness::thread_int("n", 0, 64)};
//     static std::uint64_t scratch_words(std::uint32_t threads) { return threads; }
//     template <class H>
//     WARPSPAN_HARNESS_HD static void thread(H& h, const warpspan::harness::args& a) {
//       const std::int32_t n = a.record()[0];
//       h.load(a.record(), 4);
//       for (std::int32_t i = 0; h.branch(0, i < n); ++i) h.work(3);
//       h.join(0);
//     }
//   };
//   WARPSPAN_HARNESS(my_kernel)
//
// A kernel K has (optional members take the default in brackets):
//   name                   [a-zA-Z0-9_-]+, names plots and saved inputs
//   description            one line for `inputs --list` [""]
//   block                  threads per block, 1 to 1024
//   branches               branch ids used: branch(id)/join(id) take id < branches (up to 1024)
//   stages                 launches per round, stage 0, 1, ... [1]
//   iterative              run all stages again while scratch[flag_index(threads)] != 0 [false]
//   default_threads        threads when --threads is not given [1024]
//   shared_bytes           shared memory a block gets (args::shared) [0]
//   fields[]               the input, declared with thread_int/thread_float/block_int/block_float
//   range(threads, slot)   bounds of slot `slot` of a record when they depend on the thread count
//                          (slots: a thread record's, then a block record's) [the fields' bounds]
//   scratch_words(threads) 32-bit words of read-write memory, args::scratch [0]
//   init_scratch(input, scratch, threads)   fill it before a run [zeros]
//   flag_index(threads)    the word an iterative kernel sets to launch again (required then)
//   output(threads)        the words of scratch a run computes [all of them]
//   thread(h, a)           the body of one thread, a template on the hooks type H
//
// The input (args::input) is an array of 32-bit words: one record per thread (its per-thread fields
// in the order declared, an array field's elements one after another), then one record per block
// (the per-block fields). An integer field holds its value; a float field holds an IEEE float: the
// search draws an integer g in [0, steps] and the field is min + g (max - min) / steps (read it
// with harness::real()). The whole input lies in global memory, 256-byte aligned.
//
// Hooks (h) the body calls; they record what a warp would execute, and the model costs it:
//   bool branch(id, taken)     a conditional branch; returns `taken` (write `if (h.branch(0, x < y))`)
//   void join(id)              where branch id's legs meet again (after the if/else, after the loop)
//   void compare(id, a, b)     the integer operands of a branch's condition (helps the search)
//   void work(n)               n instructions of arithmetic
//   void load(p, bytes, sp)    the kernel reads `bytes` at p from global (default) or shared memory
//   void store(p, bytes, sp)   ... writes them; both only record: the body makes the access itself
//   int  atomic_add(p, v)      atomicAdd on an int of scratch or shared memory (the hook does it)
//   void barrier()             __syncthreads()
// thread() runs once per thread and launch, possibly on several CPU threads at once (for different
// inputs): keep no state outside its arguments. An exception it throws is reported by warpspan as
// an error naming the thread. With nvcc, mark thread() WARPSPAN_HARNESS_HD and the same body also
// runs on the GPU (`--fitness gpu`), hooks compiled away except atomics and barriers. Compiled as C++
// against warpspan's emulated CUDA runtime (target warpspan::cuda_emulation of an emulation build),
// the same GPU entry runs on the emulated device inside that build's `warpspan` (docs/harness.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <exception>
#include <type_traits>

/// The version of the C structs below; warpspan refuses a harness built against another.
#define WARPSPAN_HARNESS_ABI_VERSION 1u
/// The exported entry point's name, as a string (what dlsym looks for).
#define WARPSPAN_HARNESS_ENTRY_NAME "warpspan_harness_entry"
/// Bytes of the error buffer a harness function may write a message into (with its terminating 0).
#define WARPSPAN_HARNESS_ERROR_SIZE 512

#if defined(__CUDACC__)
#define WARPSPAN_HARNESS_HD __host__ __device__
#else
#define WARPSPAN_HARNESS_HD
#endif

extern "C" {

/// Field kinds, per-thread or per-block, memory spaces.
enum { WARPSPAN_FIELD_INT = 0, WARPSPAN_FIELD_FLOAT = 1 };
enum { WARPSPAN_PER_THREAD = 0, WARPSPAN_PER_BLOCK = 1 };
enum { WARPSPAN_SPACE_GLOBAL = 0, WARPSPAN_SPACE_SHARED = 1 };

/// One declared input field. int: values in [lo, hi]. float: the search draws g in [lo, hi] =
/// [0, steps] and the field holds min + (g - lo) (max - min) / (hi - lo) as an IEEE float.
typedef struct warpspan_field {
  const char* name;
  std::uint32_t kind;   ///< WARPSPAN_FIELD_INT or WARPSPAN_FIELD_FLOAT
  std::uint32_t per;    ///< WARPSPAN_PER_THREAD or WARPSPAN_PER_BLOCK
  std::uint32_t count;  ///< elements (an array field), at least 1
  std::int32_t lo, hi;  ///< inclusive bounds of the searched integer
  double min, max;      ///< float: the values g = lo and g = hi stand for
} warpspan_field;

/// The hooks warpspan passes to a thread: function pointers and their context.
typedef struct warpspan_hooks {
  void* context;
  int (*branch)(void* context, std::uint32_t id, int taken);
  void (*join)(void* context, std::uint32_t id);
  void (*compare)(void* context, std::uint32_t id, std::int32_t a, std::int32_t b);
  void (*work)(void* context, std::uint32_t n);
  void (*load)(void* context, const void* p, std::uint32_t bytes, std::uint32_t space);
  void (*store)(void* context, const void* p, std::uint32_t bytes, std::uint32_t space);
  std::int32_t (*atomic_add)(void* context, std::int32_t* p, std::int32_t v);
  void (*barrier)(void* context);
} warpspan_hooks;

/// What one thread of one launch sees.
typedef struct warpspan_thread {
  const std::int32_t* input;  ///< thread records, then block records
  std::int32_t* scratch;
  void* shared;  ///< the block's shared memory (null when shared_bytes is 0)
  std::uint32_t threads, tid, block, stage;
  std::uint32_t genes_per_thread, genes_per_block;  ///< words of a thread record and of a block record
} warpspan_thread;

/// The descriptor a harness library exports. Every function returns 0, or nonzero with a message
/// in `error` (WARPSPAN_HARNESS_ERROR_SIZE bytes). Null functions take their defaults (above).
typedef struct warpspan_harness_v1 {
  std::uint32_t abi_version;  ///< WARPSPAN_HARNESS_ABI_VERSION
  std::uint32_t size;         ///< sizeof(warpspan_harness_v1)
  const char* name;
  const char* description;
  std::uint32_t block, branches, stages, iterative, default_threads, shared_bytes;
  std::uint32_t field_count;
  const warpspan_field* fields;
  int (*range)(std::uint32_t threads, std::uint32_t slot, std::int32_t* lo, std::int32_t* hi, char* error);
  int (*scratch_words)(std::uint32_t threads, std::uint64_t* words, char* error);
  int (*flag_index)(std::uint32_t threads, std::uint64_t* index, char* error);
  int (*init_scratch)(const std::int32_t* input, std::int32_t* scratch, std::uint32_t threads, char* error);
  int (*output)(std::uint32_t threads, std::uint64_t* offset, std::uint64_t* words, char* error);
  int (*thread)(const warpspan_hooks* hooks, const warpspan_thread* thread, char* error);
  /// The GPU entry (a harness compiled with nvcc): runs the kernel on `input` (decoded, thread and
  /// block records) once to warm up, then `repetitions` times, each from init_scratch; the median
  /// in ms, the launches of one run, and the output words (`output_words` of them).
  int (*time_gpu)(const std::int32_t* input, std::uint64_t input_words, std::uint32_t threads,
                  std::uint32_t repetitions, double* median_ms, std::uint32_t* launches, std::int32_t* output,
                  std::uint64_t output_words, char* error);
} warpspan_harness_v1;

/// The type of the exported entry point, `warpspan_harness_entry`: the descriptor, whose first
/// word is its ABI version.
typedef const warpspan_harness_v1* (*warpspan_harness_entry_fn)(void);

}  // extern "C"

namespace warpspan::harness {

/// Memory space of a load or store: global costs by the 32-byte sectors a warp touches, shared by
/// bank conflicts (32 banks of 4-byte words).
enum class space : std::uint32_t { global = WARPSPAN_SPACE_GLOBAL, shared = WARPSPAN_SPACE_SHARED };

/// Inclusive bounds of one searched integer.
struct range {
  std::int32_t lo = 0;
  std::int32_t hi = 0;
};

/// A slice [offset, offset + words) of scratch: what a run computes.
struct output {
  std::uint64_t offset = 0;
  std::uint64_t words = 0;
};

/// An integer field of every thread's record (count > 1: an array of count elements).
constexpr warpspan_field thread_int(const char* name, std::int32_t lo, std::int32_t hi, std::uint32_t count = 1) {
  return {name, WARPSPAN_FIELD_INT, WARPSPAN_PER_THREAD, count, lo, hi, 0.0, 0.0};
}
/// A float field of every thread's record: min + g (max - min) / steps for g in [0, steps].
constexpr warpspan_field thread_float(const char* name, double min, double max, std::int32_t steps = 1024,
                                      std::uint32_t count = 1) {
  return {name, WARPSPAN_FIELD_FLOAT, WARPSPAN_PER_THREAD, count, 0, steps, min, max};
}
/// Fields of every block's record.
constexpr warpspan_field block_int(const char* name, std::int32_t lo, std::int32_t hi, std::uint32_t count = 1) {
  return {name, WARPSPAN_FIELD_INT, WARPSPAN_PER_BLOCK, count, lo, hi, 0.0, 0.0};
}
constexpr warpspan_field block_float(const char* name, double min, double max, std::int32_t steps = 1024,
                                     std::uint32_t count = 1) {
  return {name, WARPSPAN_FIELD_FLOAT, WARPSPAN_PER_BLOCK, count, 0, steps, min, max};
}

/// A float held in a 32-bit word of the input or scratch, and back.
WARPSPAN_HARNESS_HD inline float real(std::int32_t word) {
  float f;
  std::memcpy(&f, &word, sizeof f);
  return f;
}
WARPSPAN_HARNESS_HD inline std::int32_t word_of(float f) {
  std::int32_t w;
  std::memcpy(&w, &f, sizeof w);
  return w;
}

/// The arguments of K::thread: the thread's place in the launch and the memory it works on.
struct args {
  const std::int32_t* input;
  std::int32_t* scratch;
  void* shared;
  std::uint32_t threads, tid, block, stage;
  std::uint32_t genes_per_thread, genes_per_block;

  /// Thread t's record, this thread's, block b's, this block's.
  WARPSPAN_HARNESS_HD const std::int32_t* record(std::uint32_t t) const {
    return input + std::size_t{t} * genes_per_thread;
  }
  WARPSPAN_HARNESS_HD const std::int32_t* record() const { return record(tid); }
  WARPSPAN_HARNESS_HD const std::int32_t* block_record(std::uint32_t b) const {
    return input + std::size_t{threads} * genes_per_thread + std::size_t{b} * genes_per_block;
  }
  WARPSPAN_HARNESS_HD const std::int32_t* block_record() const { return block_record(block); }
};

/// The hooks as the CPU model passes them: calls through warpspan's function table. (Marked
/// host/device only so that nvcc compiles a WARPSPAN_HARNESS_HD thread() with them silently; they
/// run on the host.)
class hooks {
 public:
  WARPSPAN_HARNESS_HD explicit hooks(const warpspan_hooks* table) : t_(table) {}
  WARPSPAN_HARNESS_HD bool branch(std::uint32_t id, bool taken) const {
    return t_->branch(t_->context, id, taken ? 1 : 0) != 0;
  }
  WARPSPAN_HARNESS_HD void join(std::uint32_t id) const { t_->join(t_->context, id); }
  WARPSPAN_HARNESS_HD void compare(std::uint32_t id, std::int32_t a, std::int32_t b) const {
    t_->compare(t_->context, id, a, b);
  }
  WARPSPAN_HARNESS_HD void work(std::uint32_t n) const { t_->work(t_->context, n); }
  WARPSPAN_HARNESS_HD void load(const void* p, std::uint32_t bytes, space s = space::global) const {
    t_->load(t_->context, p, bytes, static_cast<std::uint32_t>(s));
  }
  WARPSPAN_HARNESS_HD void store(const void* p, std::uint32_t bytes, space s = space::global) const {
    t_->store(t_->context, p, bytes, static_cast<std::uint32_t>(s));
  }
  WARPSPAN_HARNESS_HD std::int32_t atomic_add(std::int32_t* p, std::int32_t v) const {
    return t_->atomic_add(t_->context, p, v);
  }
  WARPSPAN_HARNESS_HD void barrier() const { t_->barrier(t_->context); }

 private:
  const warpspan_hooks* t_;
};

namespace detail {

template <class...>
using void_t = void;

// The optional members of a kernel, with their defaults.
#define WARPSPAN_HARNESS_OPTIONAL(trait, member, type, fallback) \
  template <class K, class = void>                               \
  struct trait {                                                 \
    static constexpr type value = fallback;                      \
  };                                                             \
  template <class K>                                             \
  struct trait<K, void_t<decltype(K::member)>> {                 \
    static constexpr type value = static_cast<type>(K::member);  \
  };
WARPSPAN_HARNESS_OPTIONAL(stages_of, stages, std::uint32_t, 1)
WARPSPAN_HARNESS_OPTIONAL(iterative_of, iterative, bool, false)
WARPSPAN_HARNESS_OPTIONAL(default_threads_of, default_threads, std::uint32_t, 1024)
WARPSPAN_HARNESS_OPTIONAL(shared_bytes_of, shared_bytes, std::uint32_t, 0)
WARPSPAN_HARNESS_OPTIONAL(description_of, description, const char*, "")
#undef WARPSPAN_HARNESS_OPTIONAL

template <class K, class = void>
struct has_range : std::false_type {};
template <class K>
struct has_range<K, void_t<decltype(K::range(0u, 0u))>> : std::true_type {};
template <class K, class = void>
struct has_scratch_words : std::false_type {};
template <class K>
struct has_scratch_words<K, void_t<decltype(K::scratch_words(0u))>> : std::true_type {};
template <class K, class = void>
struct has_init_scratch : std::false_type {};
template <class K>
struct has_init_scratch<K, void_t<decltype(K::init_scratch(static_cast<const std::int32_t*>(nullptr),
                                                           static_cast<std::int32_t*>(nullptr), 0u))>>
    : std::true_type {};
template <class K, class = void>
struct has_flag_index : std::false_type {};
template <class K>
struct has_flag_index<K, void_t<decltype(K::flag_index(0u))>> : std::true_type {};
template <class K, class = void>
struct has_output : std::false_type {};
template <class K>
struct has_output<K, void_t<decltype(K::output(0u))>> : std::true_type {};

/// Words of a record: the counts of the fields that are `per` (thread or block).
template <class K>
constexpr std::uint32_t genes(std::uint32_t per) {
  std::uint32_t n = 0;
  for (const warpspan_field& f : K::fields)
    if (f.per == per) n += f.count;
  return n;
}

/// The words of K's thread and block records, as constants device code may read.
template <class K>
struct record_words {
  static constexpr std::uint32_t per_thread = genes<K>(WARPSPAN_PER_THREAD);
  static constexpr std::uint32_t per_block = genes<K>(WARPSPAN_PER_BLOCK);
};

/// Copies `what` (an exception's message) into the error buffer.
inline void set_error(char* error, const char* what) {
  if (!error) return;
  std::size_t n = 0;
  for (; what && what[n] && n + 1 < WARPSPAN_HARNESS_ERROR_SIZE; ++n) error[n] = what[n] == '\n' ? ' ' : what[n];
  error[n] = 0;
}

/// Runs f, turning an exception into 1 and its message.
template <class F>
int guarded(char* error, F&& f) {
  try {
    f();
    return 0;
  } catch (const std::exception& e) {
    set_error(error, e.what()[0] ? e.what() : "an exception with an empty message");
  } catch (...) {
    set_error(error, "an exception that is not a std::exception");
  }
  return 1;
}

template <class K>
std::uint64_t scratch_words(std::uint32_t threads) {
  if constexpr (has_scratch_words<K>::value)
    return static_cast<std::uint64_t>(K::scratch_words(threads));
  else
    return 0;
}

template <class K>
output output_of(std::uint32_t threads) {
  if constexpr (has_output<K>::value) {
    const auto o = K::output(threads);
    return {static_cast<std::uint64_t>(o.offset), static_cast<std::uint64_t>(o.words)};
  } else {
    return {0, scratch_words<K>(threads)};
  }
}

template <class K>
void init_scratch(const std::int32_t* input, std::int32_t* scratch, std::uint32_t threads) {
  if constexpr (has_init_scratch<K>::value)
    K::init_scratch(input, scratch, threads);
  else
    for (std::uint64_t i = 0, n = scratch_words<K>(threads); i < n; ++i) scratch[i] = 0;
}

template <class K>
std::uint64_t flag_index(std::uint32_t threads) {
  if constexpr (has_flag_index<K>::value)
    return static_cast<std::uint64_t>(K::flag_index(threads));
  else
    return 0;
}

template <class K>
struct entry_points {
  static int range(std::uint32_t threads, std::uint32_t slot, std::int32_t* lo, std::int32_t* hi, char* error) {
    return guarded(error, [&] {
      const auto r = K::range(threads, slot);
      *lo = r.lo;
      *hi = r.hi;
    });
  }
  static int scratch_words(std::uint32_t threads, std::uint64_t* words, char* error) {
    return guarded(error, [&] { *words = detail::scratch_words<K>(threads); });
  }
  static int flag_index(std::uint32_t threads, std::uint64_t* index, char* error) {
    return guarded(error, [&] { *index = detail::flag_index<K>(threads); });
  }
  static int init_scratch(const std::int32_t* input, std::int32_t* scratch, std::uint32_t threads, char* error) {
    return guarded(error, [&] { detail::init_scratch<K>(input, scratch, threads); });
  }
  static int output(std::uint32_t threads, std::uint64_t* offset, std::uint64_t* words, char* error) {
    return guarded(error, [&] {
      const auto o = output_of<K>(threads);
      *offset = o.offset;
      *words = o.words;
    });
  }
  static int thread(const warpspan_hooks* table, const warpspan_thread* t, char* error) {
    return guarded(error, [&] {
      hooks h(table);
      const args a{t->input, t->scratch, t->shared,           t->threads,        t->tid,
                   t->block, t->stage,   t->genes_per_thread, t->genes_per_block};
      K::thread(h, a);
    });
  }
};

/// range and flag_index only where K has them (null: the fields' bounds; not iterative).
template <class K>
constexpr decltype(warpspan_harness_v1::range) range_entry() {
  if constexpr (has_range<K>::value)
    return &entry_points<K>::range;
  else
    return nullptr;
}
template <class K>
constexpr decltype(warpspan_harness_v1::flag_index) flag_index_entry() {
  if constexpr (has_flag_index<K>::value)
    return &entry_points<K>::flag_index;
  else
    return nullptr;
}

/// The GPU entry of K when compiled with nvcc (below), else none.
template <class K>
struct gpu_entry {
  static constexpr decltype(warpspan_harness_v1::time_gpu) value = nullptr;
};

}  // namespace detail

/// The descriptor of kernel K (static storage, built once). Without nvcc time_gpu is null.
template <class K>
const warpspan_harness_v1* describe() {
  using E = detail::entry_points<K>;
  static const warpspan_harness_v1 d = {
      WARPSPAN_HARNESS_ABI_VERSION,
      static_cast<std::uint32_t>(sizeof(warpspan_harness_v1)),
      K::name,
      detail::description_of<K>::value,
      K::block,
      K::branches,
      detail::stages_of<K>::value,
      detail::iterative_of<K>::value ? 1u : 0u,
      detail::default_threads_of<K>::value,
      detail::shared_bytes_of<K>::value,
      static_cast<std::uint32_t>(sizeof(K::fields) / sizeof(K::fields[0])),
      K::fields,
      detail::range_entry<K>(),
      &E::scratch_words,
      detail::flag_index_entry<K>(),
      &E::init_scratch,
      &E::output,
      &E::thread,
      detail::gpu_entry<K>::value,
  };
  return &d;
}

// ----------------------------------------------------------------------------------------- GPU
#if defined(__CUDACC__) || defined(WARPSPAN_CUDA_EMULATED)
/// The hooks of a timed GPU run: nothing is recorded; atomics and barriers are the real ones.
struct device_hooks {
  WARPSPAN_HARNESS_HD bool branch(std::uint32_t, bool taken) const { return taken; }
  WARPSPAN_HARNESS_HD void join(std::uint32_t) const {}
  WARPSPAN_HARNESS_HD void compare(std::uint32_t, std::int32_t, std::int32_t) const {}
  WARPSPAN_HARNESS_HD void work(std::uint32_t) const {}
  WARPSPAN_HARNESS_HD void load(const void*, std::uint32_t, space = space::global) const {}
  WARPSPAN_HARNESS_HD void store(const void*, std::uint32_t, space = space::global) const {}
  WARPSPAN_HARNESS_HD void barrier() const {
#if defined(__CUDA_ARCH__) || defined(WARPSPAN_CUDA_EMULATED)
    __syncthreads();  // a kernel that uses it needs whole blocks: threads past `threads` still arrive
#endif
  }
  WARPSPAN_HARNESS_HD std::int32_t atomic_add(std::int32_t* p, std::int32_t v) const {
#if defined(__CUDA_ARCH__) || defined(WARPSPAN_CUDA_EMULATED)
    return atomicAdd(p, v);
#else
    (void)p;
    (void)v;
    return 0;  // the host pass of nvcc only
#endif
  }
};
#endif

#if defined(__CUDACC__) || defined(WARPSPAN_CUDA_EMULATED)
namespace detail {

/// One thread of K on the device. Threads past `threads` return at once (a kernel that calls
/// barrier() must then be launched with whole blocks). In warpspan's CUDA emulation (a harness
/// compiled as C++ against its emulated cuda_runtime.h, docs/harness.md) the block's dynamic shared
/// memory comes from the emulated runtime, which has no per-block `extern __shared__`.
template <class K>
__global__ void __launch_bounds__(K::block)
    harness_kernel(const std::int32_t* input, std::int32_t* scratch, std::uint32_t threads, std::uint32_t stage) {
#if defined(WARPSPAN_CUDA_EMULATED)
  unsigned char* const warpspan_harness_shared = ::warpspan::emu::current().dynamic_shared;
#else
  extern __shared__ __align__(16) unsigned char warpspan_harness_shared[];
#endif
  const std::uint64_t tid = std::uint64_t{blockIdx.x} * blockDim.x + threadIdx.x;
  if (tid >= threads) return;
  device_hooks h;
  const args a{input,
               scratch,
               shared_bytes_of<K>::value ? warpspan_harness_shared : nullptr,
               threads,
               static_cast<std::uint32_t>(tid),
               blockIdx.x,
               stage,
               record_words<K>::per_thread,
               record_words<K>::per_block};
  K::thread(h, a);
}

/// A CUDA call that failed: its message in `error`, and 1.
inline bool cuda_failed(cudaError_t e, const char* what, char* error) {
  if (e == cudaSuccess) return false;
  char text[WARPSPAN_HARNESS_ERROR_SIZE];
  const char* name = cudaGetErrorString(e);
  std::size_t n = 0;
  for (const char* s : {what, ": ", name})
    for (; *s && n + 1 < sizeof text; ++s) text[n++] = *s;
  text[n] = 0;
  set_error(error, text);
  return true;
}

/// What one timing on the GPU holds, freed however the timing ends.
struct gpu_timing {
  std::int32_t* host_scratch = nullptr;
  std::int32_t* d_input = nullptr;
  std::int32_t* d_scratch = nullptr;
  cudaStream_t stream = nullptr;
  cudaEvent_t start = nullptr, stop = nullptr;

  gpu_timing() = default;
  gpu_timing(const gpu_timing&) = delete;
  gpu_timing& operator=(const gpu_timing&) = delete;
  ~gpu_timing() {
    if (stream) cudaStreamSynchronize(stream);  // nothing still reads or writes what is freed below
    delete[] host_scratch;
    if (d_input) cudaFree(d_input);
    if (d_scratch) cudaFree(d_scratch);
    if (start) cudaEventDestroy(start);
    if (stop) cudaEventDestroy(stop);
    if (stream) cudaStreamDestroy(stream);
  }
};

template <class K>
int time_gpu(const std::int32_t* input, std::uint64_t input_words, std::uint32_t threads, std::uint32_t repetitions,
             double* median_ms, std::uint32_t* launches, std::int32_t* output_out, std::uint64_t output_words,
             char* error) {
  constexpr std::uint32_t max_repetitions = 1000;
  if (repetitions < 1 || repetitions > max_repetitions) {
    set_error(error, "the GPU entry takes 1 to 1000 repetitions");
    return 1;
  }
  const std::uint64_t words = scratch_words<K>(threads);
  const output out = output_of<K>(threads);
  if (output_words != out.words) {
    set_error(error, "the GPU entry was asked for another number of output words");
    return 1;
  }
  gpu_timing g;
  if (guarded(error, [&] {
        g.host_scratch = new std::int32_t[words ? words : 1];
        init_scratch<K>(input, g.host_scratch, threads);
      }) != 0)
    return 1;
  float times[max_repetitions];
  const std::uint32_t blocks = (threads + K::block - 1) / K::block;
  const std::uint64_t flag = flag_index<K>(threads);
  if (cuda_failed(cudaStreamCreate(&g.stream), "cudaStreamCreate", error) ||
      cuda_failed(cudaMalloc(&g.d_input, (input_words ? input_words : 1) * 4), "cudaMalloc", error) ||
      cuda_failed(cudaMalloc(&g.d_scratch, (words ? words : 1) * 4), "cudaMalloc", error) ||
      cuda_failed(cudaMemcpy(g.d_input, input, input_words * 4, cudaMemcpyHostToDevice), "cudaMemcpy", error) ||
      cuda_failed(cudaEventCreate(&g.start), "cudaEventCreate", error) ||
      cuda_failed(cudaEventCreate(&g.stop), "cudaEventCreate", error))
    return 1;
  bool ok = true;
  for (std::int64_t r = -1; ok && r < static_cast<std::int64_t>(repetitions); ++r) {  // r = -1: warm-up
    ok = !cuda_failed(cudaMemcpyAsync(g.d_scratch, g.host_scratch, words * 4, cudaMemcpyHostToDevice, g.stream),
                      "cudaMemcpyAsync", error) &&
         !cuda_failed(cudaEventRecord(g.start, g.stream), "cudaEventRecord", error);
    std::uint32_t n = 0;
    for (std::uint32_t round = 0; ok; ++round) {
      const std::int32_t zero = 0;
      if (iterative_of<K>::value)
        ok = !cuda_failed(cudaMemcpyAsync(g.d_scratch + flag, &zero, 4, cudaMemcpyHostToDevice, g.stream),
                          "cudaMemcpyAsync", error);
      for (std::uint32_t stage = 0; ok && stage < stages_of<K>::value; ++stage) {
#if defined(WARPSPAN_CUDA_EMULATED)
        ::warpspan::emu::make_launcher(&harness_kernel<K>, blocks, K::block, shared_bytes_of<K>::value, g.stream,
                                       K::name)(g.d_input, g.d_scratch, threads, stage);
#else
        harness_kernel<K>
            <<<blocks, K::block, shared_bytes_of<K>::value, g.stream>>>(g.d_input, g.d_scratch, threads, stage);
#endif
        ok = !cuda_failed(cudaGetLastError(), "the kernel launch", error);
        ++n;
      }
      if (!ok || !iterative_of<K>::value || round >= threads) break;
      std::int32_t again = 0;
      ok = !cuda_failed(cudaMemcpyAsync(&again, g.d_scratch + flag, 4, cudaMemcpyDeviceToHost, g.stream),
                        "cudaMemcpyAsync", error) &&
           !cuda_failed(cudaStreamSynchronize(g.stream), "the kernel", error);
      if (again == 0) break;
    }
    ok = ok && !cuda_failed(cudaEventRecord(g.stop, g.stream), "cudaEventRecord", error) &&
         !cuda_failed(cudaEventSynchronize(g.stop), "the kernel", error);
    float ms = 0;
    ok = ok && !cuda_failed(cudaEventElapsedTime(&ms, g.start, g.stop), "cudaEventElapsedTime", error);
    if (ok && r >= 0) times[r] = ms;
    *launches = n;
  }
  if (!ok) return 1;
  for (std::uint32_t i = 1; i < repetitions; ++i)  // insertion sort: a few repetitions
    for (std::uint32_t j = i; j > 0 && times[j - 1] > times[j]; --j) {
      const float t = times[j];
      times[j] = times[j - 1];
      times[j - 1] = t;
    }
  *median_ms = repetitions % 2 ? times[repetitions / 2]
                               : 0.5 * (static_cast<double>(times[repetitions / 2 - 1]) + times[repetitions / 2]);
  if (out.words > 0 &&
      cuda_failed(cudaMemcpy(output_out, g.d_scratch + out.offset, out.words * 4, cudaMemcpyDeviceToHost), "cudaMemcpy",
                  error))
    return 1;
  return 0;
}

template <class K>
struct gpu_entry_cuda {
  static constexpr decltype(warpspan_harness_v1::time_gpu) value = &time_gpu<K>;
};

}  // namespace detail

/// With nvcc (or against the emulated runtime), WARPSPAN_HARNESS exports the GPU entry too.
template <class K>
const warpspan_harness_v1* describe_with_gpu() {
  static const warpspan_harness_v1 d = [] {
    warpspan_harness_v1 x = *describe<K>();
    x.time_gpu = detail::gpu_entry_cuda<K>::value;
    return x;
  }();
  return &d;
}
#define WARPSPAN_HARNESS_DESCRIBE(K) ::warpspan::harness::describe_with_gpu<K>()
#else
#define WARPSPAN_HARNESS_DESCRIBE(K) ::warpspan::harness::describe<K>()
#endif

}  // namespace warpspan::harness

/// Exports kernel K as the harness of this shared library (once per library).
#define WARPSPAN_HARNESS(K)                                                                                   \
  extern "C" __attribute__((visibility("default"))) const warpspan_harness_v1* warpspan_harness_entry(void) { \
    return WARPSPAN_HARNESS_DESCRIBE(K);                                                                      \
  }
