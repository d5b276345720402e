// A sparse matrix-vector product y = A x, one thread per row (the "scalar CSR" kernel), written as a
// warpspan harness: `warpspan inputs --harness ./libspmv.so` searches for the matrix that makes it
// slowest. Not one of warpspan's built-ins; built against an installed warpspan (README.md).
//
// The input is the matrix's shape. Each warp's 32 rows share a budget of 8 nonzeros a row (256):
// a row's `weight` in [0, 15] says how much of it the row gets (all weights 0: 8 each), so the
// search moves nonzeros between rows instead of just making every row full. A row's `spread` in
// [0, 3] places its columns: entry j of row r is in column (r * 2^spread + j) mod n, so the x
// values the lanes of a warp read together are 4 to 32 bytes apart. Values are 1, x_i = i mod 10.
#include <warpspan/harness.hpp>

namespace hx = warpspan::harness;

struct spmv {
  static constexpr const char* name = "spmv";
  static constexpr const char* description =
      "CSR y = A x, a thread per row; the rows' lengths and column spread come from the input";
  static constexpr std::uint32_t block = 128, branches = 1, default_threads = 4096;
  static constexpr std::uint32_t per_row = 8;  // nonzeros a row on average
  static constexpr warpspan_field fields[] = {hx::thread_int("weight", 0, 15), hx::thread_int("spread", 0, 3)};

  // scratch: row_ptr[n + 1], col[8 n], val[8 n] (floats), x[n] (floats), y[n] (floats)
  static std::uint64_t scratch_words(std::uint32_t n) {
    return (n + 1) + 2 * std::uint64_t{per_row} * n + 2 * std::uint64_t{n};
  }
  static hx::output output(std::uint32_t n) { return {scratch_words(n) - n, n}; }

  /// Builds the CSR matrix from the input: the lengths from the weights, warp by warp.
  static void init_scratch(const std::int32_t* in, std::int32_t* s, std::uint32_t n) {
    std::int32_t* row_ptr = s;
    std::int32_t* col = s + n + 1;
    std::int32_t* val = col + std::uint64_t{per_row} * n;
    std::int32_t* x = val + std::uint64_t{per_row} * n;
    std::int32_t* y = x + n;
    row_ptr[0] = 0;
    for (std::uint32_t w = 0; w < n; w += 32) {
      const std::uint32_t rows = n - w < 32 ? n - w : 32;
      const std::uint32_t budget = per_row * rows;
      std::uint32_t total = 0;
      for (std::uint32_t r = w; r < w + rows; ++r) total += static_cast<std::uint32_t>(in[2 * r]);
      for (std::uint32_t r = w; r < w + rows; ++r) {
        const std::uint32_t length = total == 0 ? per_row : budget * static_cast<std::uint32_t>(in[2 * r]) / total;
        row_ptr[r + 1] = row_ptr[r] + static_cast<std::int32_t>(length);
        const std::uint32_t spread = static_cast<std::uint32_t>(in[2 * r + 1]);
        for (std::uint32_t j = 0; j < length; ++j) {
          const std::int32_t k = row_ptr[r] + static_cast<std::int32_t>(j);
          col[k] = static_cast<std::int32_t>((std::uint64_t{r} * (1u << spread) + j) % n);
          val[k] = hx::word_of(1.0f);
        }
      }
    }
    for (std::uint32_t i = 0; i < n; ++i) {
      x[i] = hx::word_of(static_cast<float>(i % 10));
      y[i] = 0;
    }
  }

  template <class H>
  WARPSPAN_HARNESS_HD static void thread(H& h, const hx::args& a) {
    const std::uint32_t n = a.threads, row = a.tid;
    const std::int32_t* row_ptr = a.scratch;
    const std::int32_t* col = row_ptr + n + 1;
    const std::int32_t* val = col + std::uint64_t{per_row} * n;
    const std::int32_t* x = val + std::uint64_t{per_row} * n;
    std::int32_t* y = a.scratch + (n + 1) + 2 * std::uint64_t{per_row} * n + n;
    const std::int32_t start = row_ptr[row], end = row_ptr[row + 1];
    h.load(&row_ptr[row], 4);
    h.load(&row_ptr[row + 1], 4);
    h.work(4);
    float sum = 0;
    for (std::int32_t k = start; h.branch(0, k < end); ++k) {
      h.compare(0, k, end);
      const std::int32_t c = col[k];
      h.load(&col[k], 4);
      h.load(&val[k], 4);
      h.load(&x[c], 4);  // the gather: where the columns are
      sum += hx::real(val[k]) * hx::real(x[c]);
      h.work(3);
    }
    h.join(0);
    y[row] = hx::word_of(sum);
    h.store(&y[row], 4);
  }
};

WARPSPAN_HARNESS(spmv)
