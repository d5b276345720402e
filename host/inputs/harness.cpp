// Kernel harnesses (include/warpspan/inputs/harness.hpp): checking a descriptor, calling into it,
// and loading one from a shared library.
#include "warpspan/inputs/harness.hpp"

#include <dlfcn.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"

namespace warpspan::inputs {

namespace {

/// `v` in the shortest form that reads back as the same double (1e+300, 0.1, -2.5).
std::string shortest(double v) {
  char buf[32];
  const auto r = std::to_chars(buf, buf + sizeof buf, v);
  return std::string(buf, r.ptr);
}

bool good_name(const char* s) {
  if (!s || !*s) return false;
  for (std::size_t i = 0; s[i]; ++i) {
    const char c = s[i];
    if (i >= 64 ||
        !((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '-'))
      return false;
  }
  return true;
}

}  // namespace

std::string kernel_harness::label() const {
  return is_builtin() || source_ == "built-in" ? "kernel '" + name_ + "'" : "harness '" + name_ + "' (" + source_ + ")";
}

std::string kernel_harness::fail(const std::string& what) const { return label() + ": " + what; }

kernel_harness::kernel_harness(const warpspan_harness_v1* d, std::string source, std::shared_ptr<void> library,
                               int builtin)
    : d_(d), library_(std::move(library)), source_(std::move(source)), builtin_(builtin) {
  const std::string where = "harness " + source_;
  if (!d) throw input_error(where + ": its entry point returned no descriptor (a null pointer)");
  if (d->abi_version != WARPSPAN_HARNESS_ABI_VERSION)
    throw input_error(where + ": it was built for harness ABI version " + std::to_string(d->abi_version) +
                      ", this warpspan reads version " + std::to_string(WARPSPAN_HARNESS_ABI_VERSION) +
                      " (rebuild it against this warpspan's warpspan/harness.hpp)");
  if (d->size < sizeof(warpspan_harness_v1))
    throw input_error(where + ": its descriptor is " + std::to_string(d->size) + " bytes, ABI version 1 has " +
                      std::to_string(sizeof(warpspan_harness_v1)));
  if (!good_name(d->name))
    throw input_error(where + ": its name must be 1 to 64 letters, digits, '_' or '-', got " +
                      (d->name ? quote_text(d->name) : std::string("none")));
  name_ = d->name;
  description_ = d->description ? printable_text(d->description) : "";
  const std::string at = label() + ": ";
  if (d->block < 1 || d->block > max_block)
    throw input_error(at + "block must be between 1 and " + std::to_string(max_block) + " threads, got " +
                      std::to_string(d->block));
  if (d->branches > max_branches)
    throw input_error(at + "branches must be at most " + std::to_string(max_branches) + ", got " +
                      std::to_string(d->branches));
  if (d->stages < 1 || d->stages > max_stages)
    throw input_error(at + "stages must be between 1 and " + std::to_string(max_stages) + ", got " +
                      std::to_string(d->stages));
  if (d->default_threads < 1 || d->default_threads > max_threads)
    throw input_error(at + "default_threads must be between 1 and " + std::to_string(max_threads) + ", got " +
                      std::to_string(d->default_threads));
  if (d->shared_bytes > max_shared_bytes)
    throw input_error(at + "shared_bytes must be at most " + std::to_string(max_shared_bytes) + ", got " +
                      std::to_string(d->shared_bytes));
  if (!d->thread) throw input_error(at + "it has no thread function");
  if (d->iterative && !d->flag_index) throw input_error(at + "it is iterative but has no flag_index");
  if (d->field_count > 0 && !d->fields) throw input_error(at + "it declares fields but gives none (a null pointer)");
  std::vector<std::size_t> thread_slots, block_slots;
  for (std::uint32_t i = 0; i < d->field_count; ++i) {
    const warpspan_field& f = d->fields[i];
    const std::string which =
        at + "field " + std::to_string(i) + (good_name(f.name) ? " (" + std::string(f.name) + ")" : "");
    if (!good_name(f.name)) throw input_error(which + ": its name must be 1 to 64 letters, digits, '_' or '-'");
    if (f.kind != WARPSPAN_FIELD_INT && f.kind != WARPSPAN_FIELD_FLOAT)
      throw input_error(which + ": kind " + std::to_string(f.kind) + " is neither int (0) nor float (1)");
    if (f.per != WARPSPAN_PER_THREAD && f.per != WARPSPAN_PER_BLOCK)
      throw input_error(which + ": per " + std::to_string(f.per) + " is neither per thread (0) nor per block (1)");
    if (f.count < 1 || f.count > 4096)
      throw input_error(which + ": count must be between 1 and 4096 elements, got " + std::to_string(f.count));
    if (f.lo > f.hi)
      throw input_error(which + ": bad range [" + std::to_string(f.lo) + ", " + std::to_string(f.hi) +
                        "] (lo above hi)");
    if (f.kind == WARPSPAN_FIELD_FLOAT &&
        (!std::isfinite(f.min) || !std::isfinite(f.max) || f.min > f.max || !std::isfinite(static_cast<float>(f.min)) ||
         !std::isfinite(static_cast<float>(f.max))))
      throw input_error(which + ": bad float range [" + shortest(f.min) + ", " + shortest(f.max) +
                        "] (min and max must be finite floats, min <= max)");
    field_info fi{f.name, f.kind == WARPSPAN_FIELD_FLOAT, f.per == WARPSPAN_PER_BLOCK, f.count, f.lo, f.hi, f.min,
                  f.max};
    std::uint32_t& genes = fi.per_block ? genes_per_block_ : genes_per_thread_;
    if (genes + f.count > 65536) throw input_error(at + "a record has more than 65536 words");
    genes += f.count;
    fields_.push_back(std::move(fi));
  }
  if (genes_per_thread_ + genes_per_block_ == 0)
    throw input_error(at + "it declares no input (zero genes): give it at least one field");
  // Per record slot: a thread record's slots, then a block record's.
  for (bool block_part : {false, true}) {
    for (const field_info& f : fields_) {
      if (f.per_block != block_part) continue;
      for (std::uint32_t k = 0; k < f.count; ++k) {
        slot_float_.push_back(f.is_float ? 1 : 0);
        slot_range_.push_back({f.lo, f.hi});
        slot_min_.push_back(f.min);
        slot_step_.push_back(f.hi > f.lo ? (f.max - f.min) / (static_cast<double>(f.hi) - f.lo) : 0.0);
      }
    }
  }
  // The harness's own functions answer once at its default thread count, so that what is wrong
  // shows when it is loaded rather than in the middle of a search.
  genome_ranges(std::min<std::uint32_t>(d->default_threads, 64));
  const std::uint32_t t = d->default_threads;
  scratch_words(t);
  output(t);
  if (d->iterative) flag_index(t);
}

std::vector<gene_range> kernel_harness::genome_ranges(std::uint32_t threads) const {
  std::vector<gene_range> slots = slot_range_;
  if (d_->range) {
    char error[WARPSPAN_HARNESS_ERROR_SIZE] = {};
    for (std::uint32_t s = 0; s < slots.size(); ++s) {
      gene_range r;
      if (d_->range(threads, s, &r.lo, &r.hi, error) != 0)
        throw input_error(fail("range(" + std::to_string(threads) + ", " + std::to_string(s) +
                               ") failed: " + harness_message(error)));
      slots[s] = r;
    }
  }
  for (std::uint32_t s = 0; s < slots.size(); ++s)
    if (slots[s].lo > slots[s].hi)
      throw input_error(fail("bad range [" + std::to_string(slots[s].lo) + ", " + std::to_string(slots[s].hi) +
                             "] for slot " + std::to_string(s) + " of a record with " + std::to_string(threads) +
                             " threads (lo above hi)"));
  std::vector<gene_range> out(genes(threads));
  const std::size_t thread_part = std::size_t{threads} * genes_per_thread_;
  for (std::size_t i = 0; i < thread_part; ++i) out[i] = slots[i % genes_per_thread_];
  for (std::size_t i = thread_part; i < out.size(); ++i)
    out[i] = slots[genes_per_thread_ + (i - thread_part) % genes_per_block_];
  return out;
}

void kernel_harness::decode(const std::int32_t* genome, std::uint32_t threads, std::int32_t* out) const {
  const std::size_t n = genes(threads), thread_part = std::size_t{threads} * genes_per_thread_;
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t s =
        i < thread_part ? i % genes_per_thread_ : genes_per_thread_ + (i - thread_part) % genes_per_block_;
    if (!slot_float_[s]) {
      out[i] = genome[i];
      continue;
    }
    const double v = slot_min_[s] + (static_cast<double>(genome[i]) - slot_range_[s].lo) * slot_step_[s];
    out[i] = warpspan::harness::word_of(static_cast<float>(v));
  }
}

void kernel_harness::check_length(std::size_t n, std::uint32_t threads, const std::string& what) const {
  if (n != genes(threads))
    throw input_error(what + " for " + name_ + " with " + std::to_string(threads) + " threads has " +
                      std::to_string(genes(threads)) + " integers, got " + std::to_string(n));
}

std::uint64_t kernel_harness::scratch_words(std::uint32_t threads) const {
  if (!d_->scratch_words) return 0;
  char error[WARPSPAN_HARNESS_ERROR_SIZE] = {};
  std::uint64_t words = 0;
  if (d_->scratch_words(threads, &words, error) != 0)
    throw input_error(fail("scratch_words(" + std::to_string(threads) + ") failed: " + harness_message(error)));
  if (words > max_scratch_words)
    throw input_error(fail("scratch_words(" + std::to_string(threads) + ") is " + std::to_string(words) +
                           " words, more than " + std::to_string(max_scratch_words)));
  return words;
}

std::uint64_t kernel_harness::flag_index(std::uint32_t threads) const {
  if (!d_->iterative) return 0;
  char error[WARPSPAN_HARNESS_ERROR_SIZE] = {};
  std::uint64_t index = 0;
  if (d_->flag_index(threads, &index, error) != 0)
    throw input_error(fail("flag_index(" + std::to_string(threads) + ") failed: " + harness_message(error)));
  const std::uint64_t words = scratch_words(threads);
  if (index >= words)
    throw input_error(fail("flag_index(" + std::to_string(threads) + ") is " + std::to_string(index) +
                           ", outside its " + std::to_string(words) + " scratch words"));
  return index;
}

void kernel_harness::init_scratch(const std::int32_t* input, std::int32_t* scratch, std::uint32_t threads) const {
  if (!d_->init_scratch) {
    std::fill(scratch, scratch + scratch_words(threads), 0);
    return;
  }
  char error[WARPSPAN_HARNESS_ERROR_SIZE] = {};
  if (d_->init_scratch(input, scratch, threads, error) != 0)
    throw input_error(fail("init_scratch failed: " + harness_message(error)));
}

output_range kernel_harness::output(std::uint32_t threads) const {
  const std::uint64_t words = scratch_words(threads);
  if (!d_->output) return {0, static_cast<std::size_t>(words)};
  char error[WARPSPAN_HARNESS_ERROR_SIZE] = {};
  std::uint64_t offset = 0, size = 0;
  if (d_->output(threads, &offset, &size, error) != 0)
    throw input_error(fail("output(" + std::to_string(threads) + ") failed: " + harness_message(error)));
  if (offset > words || size > words - offset)
    throw input_error(fail("output(" + std::to_string(threads) + ") asks for " + std::to_string(size) +
                           " words from word " + std::to_string(offset) + ", but its scratch has " +
                           std::to_string(words) + " words"));
  return {static_cast<std::size_t>(offset), static_cast<std::size_t>(size)};
}

harness_ref make_harness(const warpspan_harness_v1* descriptor, std::string source) {
  return std::make_shared<const kernel_harness>(descriptor, std::move(source));
}

harness_ref load_harness(const std::string& path) {
  namespace fs = std::filesystem;
  if (path.empty()) throw input_error("the harness path is empty");
  std::error_code ec;
  if (!fs::exists(path, ec)) throw input_error("harness " + quote_text(path) + ": no such file");
  if (fs::is_directory(path, ec)) throw input_error("harness " + quote_text(path) + ": is a directory, not a library");
  // A path without a slash would make dlopen search the library path instead of opening this file.
  const std::string file = fs::absolute(path, ec).string();
  dlerror();
  void* handle = dlopen(file.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle) {
    const char* why = dlerror();
    throw input_error("harness " + quote_text(path) +
                      ": cannot load it: " + (why ? printable_text(why) : "dlopen failed"));
  }
  std::shared_ptr<void> library(handle, [](void* h) { dlclose(h); });
  dlerror();
  void* symbol = dlsym(handle, WARPSPAN_HARNESS_ENTRY_NAME);
  if (!symbol)
    throw input_error("harness " + quote_text(path) +
                      ": no entry point " WARPSPAN_HARNESS_ENTRY_NAME
                      " (export one with WARPSPAN_HARNESS(YourKernel) from warpspan/harness.hpp)");
  warpspan_harness_entry_fn entry = nullptr;
  static_assert(sizeof entry == sizeof symbol);
  std::memcpy(&entry, &symbol, sizeof entry);
  const warpspan_harness_v1* d = entry();
  return std::make_shared<const kernel_harness>(d, path, std::move(library));
}

std::string harness_message(const char* error) {
  const std::size_t n = strnlen(error, WARPSPAN_HARNESS_ERROR_SIZE);
  return n == 0 ? std::string("it failed without a message") : printable_text(std::string_view(error, n));
}

void check_threads(std::int64_t threads) {
  if (threads < 1 || threads > static_cast<std::int64_t>(max_threads))
    throw input_error(param("threads") + " must be between 1 and " + std::to_string(max_threads) + ", got " +
                      std::to_string(threads));
}

}  // namespace warpspan::inputs
