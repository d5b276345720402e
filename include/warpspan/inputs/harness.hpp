// The kernels `warpspan inputs` searches, as one kind of object: a harness (include/warpspan/harness.hpp,
// the public header a kernel is written against) behind its C descriptor, either compiled into
// warpspan (the built-ins of kernels.hpp) or loaded from a shared library (`--harness PATH`). The
// search, the model, the GPU backend, the command line, Python and the JSON see only this.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "warpspan/harness.hpp"

namespace warpspan::inputs {

/// The memory space of a load or store hook: global costs by 32-byte sectors, shared by banks.
using space = warpspan::harness::space;

/// Inclusive bounds of one gene (one searched integer of a kernel's input).
using gene_range = warpspan::harness::range;

/// A slice [offset, offset + size) of the scratch memory that holds a run's result.
struct output_range {
  std::size_t offset = 0;
  std::size_t size = 0;
};

/// Most threads a run may have (genomes are held in memory per individual).
inline constexpr std::uint32_t max_threads = 1u << 20;
/// Limits a harness is checked against.
inline constexpr std::uint32_t max_block = 1024, max_branches = 1024, max_stages = 64, max_shared_bytes = 48 * 1024;
inline constexpr std::uint64_t max_scratch_words = std::uint64_t{1} << 30;

/// One declared input field, as a harness declared it (checked).
struct field_info {
  std::string name;
  bool is_float = false;
  bool per_block = false;
  std::uint32_t count = 1;
  std::int32_t lo = 0, hi = 0;  ///< the searched integer's bounds (without range())
  double min = 0, max = 0;      ///< float: what lo and hi stand for
};

/// A kernel under test: its descriptor, checked when made, and the calls into it. Every call that
/// runs the harness's code turns a failure (an exception it threw, a bad answer) into an
/// input_error naming the harness.
class kernel_harness {
 public:
  /// Checks `descriptor` (input_error naming `source` for the first thing wrong) and keeps it.
  /// `source` is "built-in" or the library's path; `library` keeps that library loaded;
  /// `builtin` is the built-in's index for the CUDA backend (-1 for a loaded harness).
  kernel_harness(const warpspan_harness_v1* descriptor, std::string source, std::shared_ptr<void> library = {},
                 int builtin = -1);

  const std::string& name() const { return name_; }
  const std::string& description() const { return description_; }
  /// "built-in" or the path the harness was loaded from.
  const std::string& source() const { return source_; }
  bool is_builtin() const { return builtin_ >= 0; }
  int builtin_index() const { return builtin_; }
  /// "kernel 'bfs'" or "harness 'spmv' (./libspmv.so)", to begin messages with.
  std::string label() const;

  std::uint32_t block() const { return d_->block; }
  std::uint32_t branches() const { return d_->branches; }
  std::uint32_t stages() const { return d_->stages; }
  bool iterative() const { return d_->iterative != 0; }
  std::uint32_t default_threads() const { return d_->default_threads; }
  std::uint32_t shared_bytes() const { return d_->shared_bytes; }
  std::uint32_t genes_per_thread() const { return genes_per_thread_; }
  std::uint32_t genes_per_block() const { return genes_per_block_; }
  const std::vector<field_info>& fields() const { return fields_; }

  std::uint32_t blocks(std::uint32_t threads) const { return (threads + d_->block - 1) / d_->block; }
  /// Genes of an input for `threads` threads: thread records, then block records.
  std::size_t genes(std::uint32_t threads) const {
    return std::size_t{threads} * genes_per_thread_ + std::size_t{blocks(threads)} * genes_per_block_;
  }
  /// The bounds of every gene for `threads` threads.
  std::vector<gene_range> genome_ranges(std::uint32_t threads) const;
  /// The input memory of a genome: float fields become IEEE floats (`out` holds genes(threads)).
  void decode(const std::int32_t* genome, std::uint32_t threads, std::int32_t* out) const;
  /// Throws input_error unless `genome` has genes(threads) genes (`what` names it).
  void check_length(std::size_t genes, std::uint32_t threads, const std::string& what = "an input") const;

  std::uint64_t scratch_words(std::uint32_t threads) const;
  std::uint64_t flag_index(std::uint32_t threads) const;
  void init_scratch(const std::int32_t* input, std::int32_t* scratch, std::uint32_t threads) const;
  output_range output(std::uint32_t threads) const;
  /// Runs one thread under `hooks`; returns 0, or nonzero with the harness's message in `error`.
  int run_thread(const warpspan_hooks& hooks, const warpspan_thread& thread, char* error) const {
    return d_->thread(&hooks, &thread, error);
  }

  /// Whether the harness itself carries a GPU entry (compiled with nvcc).
  bool has_gpu_entry() const { return d_->time_gpu != nullptr; }
  const warpspan_harness_v1& descriptor() const { return *d_; }

 private:
  std::string fail(const std::string& what) const;
  const warpspan_harness_v1* d_;
  std::shared_ptr<void> library_;
  std::string name_, description_, source_;
  int builtin_ = -1;
  std::uint32_t genes_per_thread_ = 0, genes_per_block_ = 0;
  std::vector<field_info> fields_;
  std::vector<std::uint8_t> slot_float_;  ///< per record slot (thread's, then block's): a float field
  std::vector<gene_range> slot_range_;    ///< the fields' bounds per slot
  std::vector<double> slot_min_, slot_step_;
};

using harness_ref = std::shared_ptr<const kernel_harness>;

/// The built-in kernels (include/warpspan/inputs/kernels.hpp), in a fixed order.
const std::vector<harness_ref>& builtin_kernels();
/// The built-in called `name`; input_error listing the names otherwise.
harness_ref find_kernel(const std::string& name);
/// Loads the harness library at `path` (dlopen) and checks its descriptor: input_error for a
/// missing file, a library that does not load, no entry point, another ABI version, or a
/// descriptor that is wrong (no genes, bad ranges, ...).
harness_ref load_harness(const std::string& path);
/// The harness as the descriptor of a kernel compiled into the caller (tests, tools).
harness_ref make_harness(const warpspan_harness_v1* descriptor, std::string source = "built-in");

/// Throws input_error for zero threads or more than max_threads.
void check_threads(std::int64_t threads);

/// A harness's own message from its error buffer (WARPSPAN_HARNESS_ERROR_SIZE bytes at most), one
/// printable line; a fixed phrase where it left none.
std::string harness_message(const char* error);

}  // namespace warpspan::inputs
