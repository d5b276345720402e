// Quoting file content for messages: what a reader echoes from a file it cannot read must stay one
// printable line, however binary or long the file is.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace warpspan {

/// Longest excerpt quote_text keeps by default (in bytes of the input).
inline constexpr std::size_t default_quote_bytes = 60;

/// `text` in single quotes for a message: printable ASCII as is, backslash and quote escaped, every
/// other byte (control characters, NUL, bytes of UTF-8 sequences) as \xNN; cut after `max_bytes`
/// bytes of `text` with "..." after the closing quote.
std::string quote_text(std::string_view text, std::size_t max_bytes = default_quote_bytes);

/// The same escaping without the quotes (for text already set in a message, such as a parser's own
/// description of an error).
std::string printable_text(std::string_view text, std::size_t max_bytes = 4 * default_quote_bytes);

/// A JSON value (nlohmann::json) for a message: a scalar as written, made printable and cut; an array
/// or an object as [...] or {...}: writing it out would recurse as deep as the file nests it.
template <class Json>
std::string json_excerpt(const Json& v, std::size_t max_bytes = default_quote_bytes) {
  if (v.is_array()) return v.empty() ? "[]" : "[...]";
  if (v.is_object()) return v.empty() ? "{}" : "{...}";
  return printable_text(v.dump(), max_bytes);
}

}  // namespace warpspan
