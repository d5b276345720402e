// Kernel instruction strings (000 III-D): plain "LLLLLCCCC" or run-length "5L9C2L9C".
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "warpspan/sm/sm_config.hpp"

namespace warpspan {

using kernel_string = std::vector<unit>;

/// Longest kernel accepted, as written and after normalisation (instructions).
inline constexpr long long max_kernel_length = 1'000'000;

/// Accepts plain and run-length forms, mixed ("5LC2L"), runs optionally separated by underscores
/// ("5L_9C"), white space around the string ignored. Throws input_error naming the offending
/// character and its position; an empty string is refused, and so is white space inside the string
/// (two kernels run as one: per-warp kernels are make_problem's groups, param("warp_kernels")).
kernel_string parse_kernel_string(std::string_view text);

std::string to_plain(const kernel_string& k);
/// Run-length form, counts of 1 omitted: "5L9C2L9C".
std::string to_run_length(const kernel_string& k);

/// Applies the normalisation: each U becomes norm.copies[U] U's. Throws input_error when the string
/// uses a type whose sigma is 0 (no units of that type) or would be longer than max_kernel_length
/// (checked before anything is allocated).
kernel_string normalize_kernel(const kernel_string& k, const normalized_sm& norm);

}  // namespace warpspan
