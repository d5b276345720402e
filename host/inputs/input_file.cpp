// Saved kernel inputs (include/warpspan/inputs/input_file.hpp).
#include "warpspan/inputs/input_file.hpp"

#include <algorithm>
#include <charconv>
#include <sstream>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"

namespace warpspan::inputs {

std::string format_input(const kernel_harness& k, std::uint32_t threads, const std::vector<std::int32_t>& genome) {
  std::ostringstream out;
  out << "# warpspan inputs: kernel " << k.name() << ", " << threads << " threads, " << k.genes_per_thread()
      << " integers per thread";
  if (k.genes_per_block() > 0) out << ", then " << k.genes_per_block() << " per block";
  out << '\n';
  const std::size_t thread_part = std::size_t{threads} * k.genes_per_thread();
  for (std::size_t i = 0; i < genome.size(); ++i) {
    const bool last =
        i < thread_part ? (i + 1) % k.genes_per_thread() == 0 : (i + 1 - thread_part) % k.genes_per_block() == 0;
    out << genome[i] << (last ? '\n' : ' ');
  }
  return out.str();
}

std::optional<saved_input_header> read_input_header(const std::string& text) {
  static const std::string lead = "# warpspan inputs: kernel ";
  if (text.compare(0, lead.size(), lead) != 0) return std::nullopt;
  const std::size_t comma = text.find(", ", lead.size());
  const std::size_t eol = text.find('\n');
  if (comma == std::string::npos || comma > eol) return std::nullopt;
  saved_input_header h;
  h.kernel = text.substr(lead.size(), comma - lead.size());
  const char* first = text.data() + comma + 2;
  const auto [end, ec] = std::from_chars(first, text.data() + std::min(eol, text.size()), h.threads);
  if (ec != std::errc() || text.compare(static_cast<std::size_t>(end - text.data()), 8, " threads") != 0) h.threads = 0;
  return h;
}

std::vector<std::int32_t> parse_input(const std::string& text, const std::string& where, const kernel_harness& k,
                                      std::uint32_t threads) {
  if (const auto header = read_input_header(text); header && header->kernel != k.name())
    throw input_error(where + ":1: an input for kernel " + quote_text(header->kernel) + ", not for " +
                      quote_text(k.name()) + " (evaluate it with that kernel)");
  const std::vector<gene_range> ranges = k.genome_ranges(threads);
  std::vector<std::int32_t> out;
  std::istringstream lines(text);
  std::string line;
  for (std::size_t number = 1; std::getline(lines, line); ++number) {
    if (!line.empty() && line[0] == '#') continue;
    std::istringstream words(line);
    std::string word;
    while (words >> word) {
      std::int32_t v = 0;
      const auto [end, ec] = std::from_chars(word.data(), word.data() + word.size(), v);
      if (ec != std::errc() || end != word.data() + word.size())
        throw input_error(where + ":" + std::to_string(number) + ": " + quote_text(word) + " is not a 32-bit integer");
      if (out.size() < ranges.size()) {
        const gene_range r = ranges[out.size()];
        if (v < r.lo || v > r.hi)
          throw input_error(where + ":" + std::to_string(number) + ": " + word + " is outside [" +
                            std::to_string(r.lo) + ", " + std::to_string(r.hi) + "] for integer " +
                            std::to_string(out.size()) + " of " + k.name());
      }
      out.push_back(v);
    }
  }
  if (out.size() != ranges.size())
    throw input_error(where + ": an input for " + k.name() + " with " + std::to_string(threads) + " threads has " +
                      std::to_string(ranges.size()) + " integers (" + std::to_string(k.genes_per_thread()) +
                      " per thread" +
                      (k.genes_per_block() ? ", " + std::to_string(k.genes_per_block()) + " per block" : "") +
                      "), found " + std::to_string(out.size()));
  return out;
}

}  // namespace warpspan::inputs
