#include "warpspan/core/quote.hpp"

namespace warpspan {

namespace {

void append_printable(std::string& out, std::string_view text, bool in_quotes) {
  static const char hex[] = "0123456789abcdef";
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (in_quotes && (c == '\\' || c == '\'')) {
      out += '\\';
      out += ch;
    } else if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
}

}  // namespace

std::string quote_text(std::string_view text, std::size_t max_bytes) {
  std::string out = "'";
  append_printable(out, text.substr(0, max_bytes), true);
  out += '\'';
  if (text.size() > max_bytes) out += "...";
  return out;
}

std::string printable_text(std::string_view text, std::size_t max_bytes) {
  std::string out;
  append_printable(out, text.substr(0, max_bytes), false);
  if (text.size() > max_bytes) out += "...";
  return out;
}

}  // namespace warpspan
