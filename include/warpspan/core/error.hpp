// Exceptions of the project, and their messages. A message names the parameters it is about in the
// library's own words (the field of the options struct: "warps", "max_table_mib"); each face adds
// its spelling where it shows the message: the command line `--warps`, Python `warps=`
// (render with a parameter_face). what() is the message in the library's words.
#pragma once

#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

namespace warpspan {

/// How one face spells a parameter: `parameter` in the library's words, `spelling` in the face's
/// ("--max-table-mib", "max_table_mib=").
struct parameter_spelling {
  std::string_view parameter;
  std::string_view spelling;
};

/// A face's table of spellings (`count` of them) and how it attaches a value: an option
/// (`--method tree`) or a keyword (`method='tree'`; its spellings end in '='). A parameter the table
/// lacks keeps the library's words (`method tree`). C++17: the CUDA sources include this header.
struct parameter_face {
  enum class style { option, keyword };
  const parameter_spelling* spellings = nullptr;
  std::size_t count = 0;
  style values = style::option;
};

/// A message: text and the parameters it names (with the value given, if any). Built with + from
/// strings and param(...): `param("warps", w) + " is more than " + std::to_string(max)`.
class message {
 public:
  message() = default;
  message(std::string text);  // NOLINT(google-explicit-constructor): text is a message
  message(const char* text);  // NOLINT(google-explicit-constructor)
  struct part;
  explicit message(part p);

  message& operator+=(const message& more);
  friend message operator+(message a, const message& b) { return a += b; }

  /// The text with every parameter spelt by `face` (or in the library's words where it has none).
  std::string render(const parameter_face& face) const;
  /// The text in the library's words (what() of the exceptions below).
  std::string neutral() const;

  /// One run of text, or a parameter (`text` its name) with an optional value.
  struct part {
    enum class kind { text, parameter, word, number, quoted } what = kind::text;
    std::string text;
    std::string value;
  };
  const std::vector<part>& parts() const { return parts_; }
  bool empty() const { return parts_.empty(); }

 private:
  std::vector<part> parts_;
};

/// A parameter by its name in the library (`param("warps")`: --warps, warps=).
message param(std::string_view name);
/// A parameter with the value given: `param("method", "tree")` is `--method tree`, `method='tree'`.
message param(std::string_view name, std::string_view word);
/// A parameter with a value quoted in every face: `--sweep 'x'`, `sweep='x'`.
message param_quoted(std::string_view name, std::string_view text);
/// A parameter with a number given as its digits (param(name, number) below).
message param_number(std::string_view name, std::string_view digits);
/// A parameter with a number: `param("warps", 100)` is `--warps 100`, `warps=100`.
template <class T,
          std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool> && !std::is_same_v<T, char>, int> = 0>
message param(std::string_view name, T number) {
  return param_number(name, std::to_string(number));
}

/// The message an exception carries (its what() where it is not one of the exceptions below).
std::string render(const std::exception& e, const parameter_face& face);

/// The message of an exception below, with its parameters.
class described_error {
 public:
  explicit described_error(message m) : message_(std::make_shared<const message>(std::move(m))) {}
  const message& description() const noexcept { return *message_; }

 private:
  std::shared_ptr<const message> message_;  // shared: copying an exception cannot throw
};

/// Something the user gave is wrong (a string, a file, a configuration). The message says what and
/// where, in words a user can act on. The command line turns it into one line on stderr and exit 2.
class input_error : public std::runtime_error, public described_error {
 public:
  explicit input_error(const message& m) : std::runtime_error(m.neutral()), described_error(m) {}
};

/// The backend asked for was not compiled into this build (for example CUDA without nvcc).
class not_compiled : public std::runtime_error, public described_error {
 public:
  explicit not_compiled(const message& m) : std::runtime_error(m.neutral()), described_error(m) {}
};

/// A CUDA runtime call or kernel launch failed.
class cuda_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// A result from one backend disagreed with the CPU reference (the validate option).
class validation_error : public std::runtime_error, public described_error {
 public:
  explicit validation_error(const message& m) : std::runtime_error(m.neutral()), described_error(m) {}
};

}  // namespace warpspan
