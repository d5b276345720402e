// Messages that name parameters, and their rendering by a face (core/error.hpp).
#include "warpspan/core/error.hpp"

#include <utility>

namespace warpspan {

message::message(std::string text) {
  if (!text.empty()) parts_.push_back({part::kind::text, std::move(text), {}});
}

message::message(const char* text) : message(std::string(text)) {}

message::message(part p) { parts_.push_back(std::move(p)); }

message& message::operator+=(const message& more) {
  for (const part& p : more.parts_) {
    if (p.what == part::kind::text && !parts_.empty() && parts_.back().what == part::kind::text)
      parts_.back().text += p.text;
    else
      parts_.push_back(p);
  }
  return *this;
}

std::string message::render(const parameter_face& face) const {
  std::string out;
  for (std::size_t k = 0; k < parts_.size(); ++k) {
    const part& p = parts_[k];
    if (p.what == part::kind::text) {
      out += p.text;
      continue;
    }
    const parameter_spelling* spelt = nullptr;
    for (std::size_t k = 0; k < face.count && !spelt; ++k)
      if (face.spellings[k].parameter == p.text) spelt = &face.spellings[k];
    const bool keyword = spelt && face.values == parameter_face::style::keyword;
    std::string name = spelt ? std::string(spelt->spelling) : p.text;
    if (p.what == part::kind::parameter) {
      // "warps= must be ..." but "loop_bounds: 'b2' is not ...": a keyword before a colon drops its '='.
      const bool colon =
          k + 1 < parts_.size() && parts_[k + 1].what == part::kind::text && parts_[k + 1].text[0] == ':';
      if (keyword && colon && !name.empty() && name.back() == '=') name.pop_back();
      out += name;
      continue;
    }
    out += name;
    // A keyword's spelling ends in '=' (warps=); an option's and the library's words take a space.
    if (!keyword) out += ' ';
    const bool quote = p.what == part::kind::quoted || (keyword && p.what == part::kind::word);
    if (quote) out += '\'';
    out += p.value;
    if (quote) out += '\'';
  }
  return out;
}

std::string message::neutral() const { return render(parameter_face{}); }

message param(std::string_view name) { return message({message::part::kind::parameter, std::string(name), {}}); }

message param(std::string_view name, std::string_view word) {
  return message({message::part::kind::word, std::string(name), std::string(word)});
}

message param_quoted(std::string_view name, std::string_view text) {
  return message({message::part::kind::quoted, std::string(name), std::string(text)});
}

message param_number(std::string_view name, std::string_view digits) {
  return message({message::part::kind::number, std::string(name), std::string(digits)});
}

std::string render(const std::exception& e, const parameter_face& face) {
  if (const auto* d = dynamic_cast<const described_error*>(&e)) return d->description().render(face);
  return e.what();
}

}  // namespace warpspan
