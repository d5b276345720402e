#include "warpspan/sm/kernel_string.hpp"

#include "warpspan/core/error.hpp"

namespace warpspan {

kernel_string parse_kernel_string(std::string_view text) {
  kernel_string out;
  long long count = -1;  // pending run length, -1 when none
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  // White space around the string is nothing; inside it, it would join two kernels into one.
  std::size_t first = 0, end = text.size();
  while (first < end && blank(text[first])) ++first;
  while (end > first && blank(text[end - 1])) --end;
  for (std::size_t i = first; i < end; ++i)
    if (blank(text[i]))
      throw input_error("kernel string: '" + std::string(text.substr(first, end - first)) +
                        "' has white space at position " + std::to_string(i + 1) +
                        ": a kernel is one word (5L9C, or 5L_9C with underscores); for warps "
                        "that run different kernels give " +
                        param("warp_kernels") + " (e.g. LCL:2,CCL:1)");
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (blank(c) || c == '_') continue;
    if (c >= '0' && c <= '9') {
      count = (count < 0 ? 0 : count) * 10 + (c - '0');
      if (count > max_kernel_length)
        throw input_error("kernel string: run length at position " + std::to_string(i + 1) + " is too large");
      continue;
    }
    const auto u = instruction_from_letter(c);
    if (!u)
      throw input_error("kernel string: unknown instruction type '" + std::string(1, c) + "' at position " +
                        std::to_string(i + 1) +
                        " (expected L, C, S, D or the barrier B, optionally preceded by a count)");
    if (count == 0) throw input_error("kernel string: run length 0 at position " + std::to_string(i + 1));
    const long long n = count < 0 ? 1 : count;
    if (static_cast<long long>(out.size()) + n > max_kernel_length)
      throw input_error("kernel string: longer than " + std::to_string(max_kernel_length) + " instructions");
    out.insert(out.end(), static_cast<std::size_t>(n), *u);
    count = -1;
  }
  if (count >= 0) throw input_error("kernel string: ends with a count and no instruction type");
  if (out.empty()) throw input_error("kernel string: empty");
  return out;
}

std::string to_plain(const kernel_string& k) {
  std::string s;
  s.reserve(k.size());
  for (unit u : k) s.push_back(letter(u));
  return s;
}

std::string to_run_length(const kernel_string& k) {
  std::string s;
  for (std::size_t i = 0; i < k.size();) {
    std::size_t j = i;
    while (j < k.size() && k[j] == k[i]) ++j;
    if (j - i > 1) s += std::to_string(j - i);
    s.push_back(letter(k[i]));
    i = j;
  }
  return s;
}

kernel_string normalize_kernel(const kernel_string& k, const normalized_sm& norm) {
  // The length first (in 64 bits), so that a huge copy count is refused before any allocation.
  long long length = 0;
  // A barrier is no unit's instruction: it stays one instruction of one cycle.
  const auto copies = [&](unit u) { return u == unit::B ? 1 : norm.copies[static_cast<int>(u)]; };
  for (unit u : k) {
    if (u == unit::B) {
      if (++length > max_kernel_length)
        throw input_error("kernel string: longer than " + std::to_string(max_kernel_length) +
                          " instructions after normalisation");
      continue;
    }
    const int idx = static_cast<int>(u);
    if (norm.sigma[idx] == 0)
      throw input_error(std::string("the kernel uses ") + letter(u) + " instructions but the SM has no " + letter(u) +
                        " units (give " + param("sigma", std::string(1, letter(u)) + "=N") + " or an " + param("sm") +
                        " preset)");
    if (norm.copies[idx] < 1) throw input_error(std::string("SM: unit ") + letter(u) + " has no notional cycle count");
    length += norm.copies[idx];
    if (length > max_kernel_length)
      throw input_error("kernel string: longer than " + std::to_string(max_kernel_length) +
                        " instructions after normalisation (" + std::to_string(k.size()) + " instructions, " +
                        letter(u) + " becoming " + std::to_string(norm.copies[idx]) + " each)");
  }
  kernel_string out;
  out.reserve(static_cast<std::size_t>(length));
  for (unit u : k) out.insert(out.end(), static_cast<std::size_t>(copies(u)), u);
  return out;
}

}  // namespace warpspan
