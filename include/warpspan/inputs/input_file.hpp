// A kernel input saved by `warpspan inputs --save-input` and read back by `--eval-input`: a comment
// line naming the kernel and the thread count, then each thread's integers on a line, then each
// block's (a kernel with per-block fields). A float field is saved as its searched integer.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "warpspan/inputs/harness.hpp"

namespace warpspan::inputs {

std::string format_input(const kernel_harness& kernel, std::uint32_t threads, const std::vector<std::int32_t>& genome);
/// Parses `text` (from `where`) as an input for `threads` threads of `kernel`: every integer (lines
/// starting with '#' are comments) must lie in its gene's range and there must be exactly
/// kernel.genes(threads) of them, and a first line naming another kernel is refused; otherwise an
/// input_error naming `where`.
std::vector<std::int32_t> parse_input(const std::string& text, const std::string& where, const kernel_harness& kernel,
                                      std::uint32_t threads);

/// What the first line of a saved input says (format_input's comment), when it is one.
struct saved_input_header {
  std::string kernel;
  std::uint32_t threads = 0;
};
std::optional<saved_input_header> read_input_header(const std::string& text);

}  // namespace warpspan::inputs
