// PTX import: reads a PTX listing, picks one .entry/.func body, walks its straight-line path (see
// data/kernels/README.md for the rules) and classifies every instruction walked into L/C/S/D.
//
// The reader is deliberately not a PTX parser: it only needs to tell directives, labels, braces and
// parameter lists (all skipped) from instructions, and to find branch targets. It works on a
// comment-free copy of the text, statement by statement, keeping 1-based line numbers for messages.
#include "warpspan/sm/ptx.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/file.hpp"

namespace warpspan {

namespace {

// Beyond this many instructions the walk is refused. Forward jumps cannot loop, so a real walk is at
// most as long as its body; the cap only guards against a bug turning into an endless walk.
constexpr std::size_t max_trace = 10'000'000;

// ---- Classification tables -----------------------------------------------------------------------

constexpr std::array<std::string_view, 15> load_store_bases{"ld",       "ldu",       "st",       "atom",     "red",
                                                            "prefetch", "prefetchu", "tex",      "tld4",     "suld",
                                                            "sust",     "sured",     "ldmatrix", "stmatrix", "cp"};
constexpr std::array<std::string_view, 5> special_bases{"sin", "cos", "lg2", "ex2", "tanh"};
constexpr std::array<std::string_view, 3> approx_special_bases{"rsqrt", "rcp", "sqrt"};

template <std::size_t N>
bool contains(const std::array<std::string_view, N>& set, std::string_view s) {
  return std::find(set.begin(), set.end(), s) != set.end();
}

/// The dot-separated parts of an opcode: "fma.rn.f64" -> {"fma", "rn", "f64"}.
std::vector<std::string_view> opcode_parts(std::string_view opcode) {
  std::vector<std::string_view> parts;
  std::size_t pos = 0;
  while (true) {
    const std::size_t dot = opcode.find('.', pos);
    parts.push_back(opcode.substr(pos, dot == std::string_view::npos ? std::string_view::npos : dot - pos));
    if (dot == std::string_view::npos) break;
    pos = dot + 1;
  }
  return parts;
}

std::string_view opcode_base(std::string_view opcode) { return opcode.substr(0, opcode.find('.')); }

// ---- Text handling -------------------------------------------------------------------------------

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$' || c == '%' || c == '.';
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

std::string at(std::string_view where, int line) { return std::string(where) + ":" + std::to_string(line) + ": "; }

/// The text with `//` and `/* */` comments replaced by spaces (newlines kept, so line numbers stay
/// right). Quoted strings (as in `.file 1 "a//b.cu"`) are left alone.
std::string strip_comments(std::string_view text, std::string_view where) {
  std::string out(text);
  int line = 1;
  int comment_line = 0;
  enum class state { code, line_comment, block_comment, string } st = state::code;
  for (std::size_t i = 0; i < out.size(); ++i) {
    const char c = out[i];
    const char next = i + 1 < out.size() ? out[i + 1] : '\0';
    switch (st) {
      case state::code:
        if (c == '/' && next == '/') {
          st = state::line_comment;
          out[i] = out[i + 1] = ' ';
          ++i;
        } else if (c == '/' && next == '*') {
          st = state::block_comment;
          comment_line = line;
          out[i] = out[i + 1] = ' ';
          ++i;
        } else if (c == '"') {
          st = state::string;
        }
        break;
      case state::line_comment:
        if (c == '\n')
          st = state::code;
        else
          out[i] = ' ';
        break;
      case state::block_comment:
        if (c == '*' && next == '/') {
          st = state::code;
          out[i] = out[i + 1] = ' ';
          ++i;
        } else if (c != '\n') {
          out[i] = ' ';
        }
        break;
      case state::string:
        if (c == '"' || c == '\n') st = state::code;
        break;
    }
    if (c == '\n') ++line;
  }
  if (st == state::block_comment) throw input_error(at(where, comment_line) + "unterminated /* comment");
  return out;
}

// ---- Statements ----------------------------------------------------------------------------------

/// One instruction or label of a body, in file order.
struct body_item {
  enum class kind { instruction, label } what;
  int line = 0;
  std::string label;     // label: its name
  bool guarded = false;  // instruction: has an @p / @!p guard
  std::string opcode;    // instruction
  std::string operands;  // instruction: the text between the opcode and ';'
};

struct function_body {
  std::string name;
  bool entry = false;  // .entry (a kernel), not a .func
  int first_line = 0;  // line of the opening '{'
  int last_line = 0;   // line of the closing '}'
  std::vector<body_item> items;
};

struct listing {
  std::vector<function_body> functions;  // .entry/.func definitions with a body, in file order
  function_body loose;                   // instructions outside any function (bare listings)
};

/// Splits the comment-free text into functions and their labels and instructions.
class reader {
 public:
  reader(const std::string& text, std::string_view where) : text_(text), where_(where) {}

  listing read() {
    while (skip_space(), pos_ < text_.size()) statement();
    if (in_body_) throw input_error(at(where_, body_.first_line) + "'{' of " + body_.name + " is never closed");
    if (depth_ > 0) throw input_error(at(where_, line_) + "a '{' is never closed");
    return std::move(out_);
  }

 private:
  const std::string& text_;
  std::string_view where_;
  std::size_t pos_ = 0;
  int line_ = 1;

  listing out_;
  std::string pending_name_;    // a .entry/.func header was read; its body '{' may follow
  bool pending_entry_ = false;  // and it was a .entry
  bool in_body_ = false;
  int depth_ = 0;  // '{' nesting inside a body (or in a bare listing)
  function_body body_;

  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  void advance() {
    if (text_[pos_] == '\n') ++line_;
    ++pos_;
  }
  void skip_space() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) advance();
  }
  void skip_blanks_on_line() {
    while (pos_ < text_.size() && (text_[pos_] == ' ' || text_[pos_] == '\t' || text_[pos_] == '\r')) advance();
  }
  std::string word() {
    const std::size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) advance();
    return text_.substr(start, pos_ - start);
  }
  function_body& target() { return in_body_ ? body_ : out_.loose; }

  /// Skips a balanced (...) group starting at '(' (may span lines).
  void skip_parens() {
    const int start_line = line_;
    int level = 0;
    do {
      if (pos_ >= text_.size()) throw input_error(at(where_, start_line) + "'(' is never closed");
      if (text_[pos_] == '(') ++level;
      if (text_[pos_] == ')') --level;
      advance();
    } while (level > 0);
  }

  void statement() {
    const char c = peek();
    if (c == '{') {
      advance();
      if (!pending_name_.empty() && !in_body_) {
        in_body_ = true;
        body_ = function_body{pending_name_, pending_entry_, line_, 0, {}};
        pending_name_.clear();
      } else {
        ++depth_;
      }
    } else if (c == '}') {
      advance();
      if (depth_ > 0) {
        --depth_;
      } else if (in_body_) {
        body_.last_line = line_;
        out_.functions.push_back(std::move(body_));
        body_ = function_body{};
        in_body_ = false;
      } else {
        throw input_error(at(where_, line_) + "'}' without a matching '{'");
      }
    } else if (c == '(') {
      skip_parens();  // a parameter list on its own line(s)
    } else if (c == ';') {
      advance();
      pending_name_.clear();  // `.func name(...) ;` is a declaration, not a definition
    } else if (c == '.') {
      directive();
    } else if (c == '@' || is_ident_char(c)) {
      label_or_instruction();
    } else {
      throw input_error(at(where_, line_) + "unexpected character " + quote_text(std::string_view(&c, 1)));
    }
  }

  /// A directive runs to the first ';' or the end of its line, whichever comes first, with (...),
  /// [...] and {...} groups allowed to span lines (parameter lists, array initialisers, .section
  /// contents). In a .entry/.func header a '{' outside parentheses opens the body instead.
  void directive() {
    const int start_line = line_;
    bool function_header = false;
    bool expect_name = false;
    int parens = 0, others = 0;
    while (pos_ < text_.size()) {
      const char c = text_[pos_];
      if (c == '\n' && parens == 0 && others == 0) break;
      if (c == ';' && parens == 0 && others == 0) {
        advance();
        if (function_header) pending_name_.clear();  // a prototype only
        return;
      }
      if (c == '{' && parens == 0 && others == 0 && function_header) return;  // body opens
      if (c == '(')
        ++parens;
      else if (c == ')')
        --parens;
      else if (c == '[' || c == '{')
        ++others;
      else if (c == ']' || c == '}')
        --others;
      if (is_ident_char(c)) {
        const std::string w = word();
        if (w == ".entry" || w == ".func") {
          function_header = true;
          expect_name = true;
          pending_entry_ = w == ".entry";
        } else if (expect_name && parens == 0 && w[0] != '.') {
          pending_name_ = w;  // the first plain word after .entry/.func outside (...) is the name
          expect_name = false;
        }
        continue;
      }
      if (parens < 0 || others < 0) throw input_error(at(where_, line_) + "unbalanced bracket in a directive");
      advance();
    }
    if (parens > 0 || others > 0) throw input_error(at(where_, start_line) + "bracket never closed in a directive");
  }

  void label_or_instruction() {
    const int start_line = line_;
    bool guarded = false;
    if (peek() == '@') {
      guarded = true;
      advance();
      if (peek() == '!') advance();
      if (word().empty()) throw input_error(at(where_, start_line) + "predicate guard '@' without a predicate");
      skip_blanks_on_line();
    }
    std::string first = word();
    if (first.empty()) throw input_error(at(where_, start_line) + "expected an instruction after the guard");
    skip_blanks_on_line();
    if (!guarded && peek() == ':') {  // NAME:
      advance();
      target().items.push_back({body_item::kind::label, start_line, first, false, {}, {}});
      return;
    }
    // Operands run to ';'. An instruction may continue on the next line only where its operand list
    // visibly goes on (the line ends in ',' or inside '(', as in nvcc's multi-line `call`).
    std::string operands;
    int parens = 0;
    while (true) {
      if (pos_ >= text_.size()) throw input_error(at(where_, line_) + "instruction without ';' (" + first + ")");
      const char c = text_[pos_];
      if (c == ';' && parens == 0) {
        advance();
        break;
      }
      if (c == '\n') {
        const std::string_view so_far = trim(operands);
        if (parens == 0 && (so_far.empty() || so_far.back() != ','))
          throw input_error(at(where_, line_) + "instruction without ';' (" + first + ")");
        operands += ' ';
        advance();
        continue;
      }
      if (c == '(') ++parens;
      if (c == ')') --parens;
      operands += c;
      advance();
    }
    target().items.push_back(
        {body_item::kind::instruction, start_line, {}, guarded, std::move(first), std::string(trim(operands))});
  }
};

/// The branch target of a `bra` instruction: its first operand.
std::string branch_target(const body_item& item) {
  std::string_view ops = item.operands;
  std::size_t end = 0;
  while (end < ops.size() && is_ident_char(ops[end])) ++end;
  return std::string(ops.substr(0, end));
}

bool is_branch(std::string_view opcode) { return opcode_base(opcode) == "bra"; }

/// ld.param, ld.const, ldu.const (and their typed forms): reads of the constant bank.
bool is_constant_read(std::string_view opcode) {
  const std::string_view base = opcode_base(opcode);
  if (base != "ld" && base != "ldu") return false;
  const auto parts = opcode_parts(opcode);
  return std::find(parts.begin() + 1, parts.end(), "param") != parts.end() ||
         std::find(parts.begin() + 1, parts.end(), "const") != parts.end();
}

/// The body read by default: the first .entry (a kernel), else the first .func (a listing of device
/// functions only, or one compiled with -rdc where a .func comes first).
const function_body* first_body(const listing& lst) {
  for (const auto& f : lst.functions)
    if (f.entry) return &f;
  return &lst.functions.front();
}

/// What one walked instruction counts as: the user's override as it is; else the SM's sequence for
/// the full opcode, or its constant-read rule for ld.param/ld.const; else one of its class.
std::vector<unit> counted_as(std::string_view opcode, unit type, const ptx_options& options) {
  const auto& o = options.overrides;
  if (o.count(std::string(opcode)) || o.count(std::string(opcode_base(opcode)))) return {type};
  if (auto it = options.rules.sequences.find(std::string(opcode)); it != options.rules.sequences.end())
    return it->second;
  if (options.rules.constant_reads && is_constant_read(opcode)) return *options.rules.constant_reads;
  return {type};
}

std::string list_names(const std::vector<function_body>& functions) {
  std::string names;
  for (const auto& f : functions) names += (names.empty() ? "" : ", ") + f.name;
  return names;
}

}  // namespace

unit classify_opcode(std::string_view opcode, const std::map<std::string, unit>& overrides) {
  if (auto it = overrides.find(std::string(opcode)); it != overrides.end()) return it->second;
  const std::string_view base = opcode_base(opcode);
  if (auto it = overrides.find(std::string(base)); it != overrides.end()) return it->second;

  const auto parts = opcode_parts(opcode);
  const auto has_part = [&](std::string_view p) { return std::find(parts.begin() + 1, parts.end(), p) != parts.end(); };
  // The block's barriers (__syncthreads: bar.sync, barrier.sync, bar.red): the warp waits until
  // every warp of its block has issued one. bar.arrive does not wait, bar.warp.sync is within a warp.
  if ((base == "bar" || base == "barrier") && !has_part("arrive") && !has_part("warp")) return unit::B;
  // Kernel parameters and constants live in the constant bank: the hardware reads them as operands
  // of other instructions (c[0x0][...]) or moves them in one core instruction, not through the
  // load/store unit.
  if (is_constant_read(opcode)) return unit::C;
  if (contains(load_store_bases, base)) return unit::L;
  if (contains(special_bases, base)) return unit::S;
  if (contains(approx_special_bases, base) && has_part("approx")) return unit::S;
  if (has_part("f64")) return unit::D;
  return unit::C;
}

std::map<std::string, unit> parse_ptx_overrides(std::string_view text) {
  std::map<std::string, unit> out;
  if (trim(text).empty()) return out;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    const std::string_view item = trim(text.substr(pos, comma - pos));
    const std::size_t eq = item.find('=');
    const auto bad = [&](const std::string& why) {
      return input_error(param("overrides") + ": '" + std::string(item) + "' " + why +
                         " (expected OPCODE=TYPE, e.g. mov=L,mul.f32=D; TYPE one of L, C, S, D or B, a barrier)");
    };
    if (eq == std::string_view::npos) throw bad("has no '='");
    const std::string_view key = trim(item.substr(0, eq));
    const std::string_view value = trim(item.substr(eq + 1));
    if (key.empty() || key.front() == '.' || key.back() == '.' ||
        !std::all_of(key.begin(), key.end(), [](char c) { return is_ident_char(c) && c != '$' && c != '%'; }))
      throw bad("does not name an opcode");
    if (value.size() != 1) throw bad("does not give one type letter");
    const auto u = instruction_from_letter(static_cast<char>(std::toupper(static_cast<unsigned char>(value[0]))));
    if (!u) throw bad("has an unknown type letter");
    const auto [it, inserted] = out.emplace(std::string(key), *u);
    if (!inserted && it->second != *u) throw bad("contradicts an earlier mapping of the same opcode");
    pos = comma + 1;
  }
  return out;
}

ptx_import_result import_ptx(std::string_view text, const ptx_options& options, std::string_view where) {
  if (options.loop_passes < 1 || options.loop_passes > max_ptx_loop_passes)
    throw input_error(param("loop_passes") + ": must be an integer from 1 to " + std::to_string(max_ptx_loop_passes) +
                      ", got '" + std::to_string(options.loop_passes) + "'");
  if (options.first_line < 0 || options.last_line < 0)
    throw input_error(std::string(where) + ": line numbers must be positive");
  if (options.first_line > 0 && options.last_line > 0 && options.first_line > options.last_line)
    throw input_error(std::string(where) + ": first line " + std::to_string(options.first_line) +
                      " is after last line " + std::to_string(options.last_line));

  const std::string clean = strip_comments(text, where);
  listing lst = reader(clean, where).read();
  // Two definitions with one name would make "the first" and "the one named" different bodies.
  for (std::size_t a = 0; a < lst.functions.size(); ++a)
    for (std::size_t b = 0; b < a; ++b)
      if (lst.functions[a].name == lst.functions[b].name)
        throw input_error(std::string(where) + ":" + std::to_string(lst.functions[a].first_line) + ": '" +
                          lst.functions[a].name + "' is defined twice (first at line " +
                          std::to_string(lst.functions[b].first_line) + ")");

  // Choose the body: the named entry; else the one holding first_line; else the first; a file
  // without any .entry/.func is one body (a bare, pasted listing).
  const function_body* body = nullptr;
  if (lst.functions.empty()) {
    if (!options.entry.empty())
      throw input_error(std::string(where) + ": no entry '" + options.entry + "': the file has no .entry or .func");
    lst.loose.name = "(whole file)";
    body = &lst.loose;
  } else if (!options.entry.empty()) {
    for (const auto& f : lst.functions)
      if (f.name == options.entry) body = &f;
    if (!body)
      throw input_error(std::string(where) + ": no entry '" + options.entry +
                        "'; entries found: " + list_names(lst.functions));
  } else if (options.first_line > 0) {
    for (const auto& f : lst.functions)
      if (options.first_line >= f.first_line && options.first_line <= f.last_line) body = &f;
    if (!body) body = first_body(lst);
  } else {
    body = first_body(lst);
  }

  // Instructions in order, and each label's position: the index of the instruction after it.
  std::vector<const body_item*> code;
  std::unordered_map<std::string, std::size_t> labels;
  for (const auto& item : body->items) {
    if (item.what == body_item::kind::label) {
      if (!labels.emplace(item.label, code.size()).second)
        throw input_error(at(where, item.line) + "label '" + item.label + "' defined twice");
    } else {
      code.push_back(&item);
    }
  }
  for (const auto* ins : code) {
    if (!is_branch(ins->opcode)) continue;
    const std::string label = branch_target(*ins);
    if (label.empty()) throw input_error(at(where, ins->line) + ins->opcode + " without a target label");
    if (!labels.count(label)) throw input_error(at(where, ins->line) + "branch to undefined label '" + label + "'");
  }

  ptx_import_result result;
  result.entry = body->name;
  std::size_t i = 0;
  if (options.first_line > 0)
    while (i < code.size() && code[i]->line < options.first_line) ++i;

  const auto walk_one = [&](const body_item& ins) {
    if (result.trace.size() >= max_trace)
      throw input_error(at(where, ins.line) + "walk longer than " + std::to_string(max_trace) + " instructions");
    const unit u = classify_opcode(ins.opcode, options.overrides);
    std::vector<unit> runs_as = counted_as(ins.opcode, u, options);
    if (runs_as.size() != 1 || runs_as[0] != u) ++result.by_rule;
    if (result.kernel.size() + runs_as.size() > static_cast<std::size_t>(max_kernel_length))
      throw input_error(at(where, ins.line) + "the kernel walked is longer than " + std::to_string(max_kernel_length) +
                        " instructions");
    result.kernel.insert(result.kernel.end(), runs_as.begin(), runs_as.end());
    result.trace.push_back({ins.line, ins.opcode, u, std::move(runs_as)});
  };

  // The loops: every branch back (to a label at or before it), with the passes walked through it.
  std::map<std::size_t, std::size_t> loop_of_back;  // back-edge index -> index in result.loops
  std::vector<std::size_t> heads;                   // loop heads (instruction indices), sorted
  for (std::size_t b = 0; b < code.size(); ++b) {
    if (!is_branch(code[b]->opcode)) continue;
    const std::size_t h = labels.at(branch_target(*code[b]));
    if (h > b) continue;
    loop_of_back[b] = result.loops.size();
    result.loops.push_back({h < code.size() ? code[h]->line : code[b]->line, code[b]->line, 0});
    heads.push_back(h);
  }
  std::sort(heads.begin(), heads.end());
  const auto is_head = [&](std::size_t t) { return std::binary_search(heads.begin(), heads.end(), t); };
  // A guarded branch forward into a loop whose fall-through jumps past the loop's head (nvcc's
  // `@p bra BODY; bra.uni SKIP;` around a loop): taken, so that the loop is walked.
  const auto enters_loop = [&](std::size_t i, std::size_t t) {
    if (t <= i || !is_head(t)) return false;
    for (std::size_t k = i + 1; k < t; ++k)
      if (is_branch(code[k]->opcode) && !code[k]->guarded) return labels.at(branch_target(*code[k])) > t;
    return false;
  };

  // How often each backward branch has been taken in the current pass of its enclosing loops.
  std::map<std::size_t, int> taken_back;
  const auto take_back = [&](std::size_t from, std::size_t to) {
    if (taken_back[from] + 1 >= options.loop_passes) return false;
    ++taken_back[from];
    // A new pass of this loop starts the loops nested in it afresh.
    for (auto it = taken_back.upper_bound(to); it != taken_back.end() && it->first < from; ++it) it->second = 0;
    return true;
  };

  while (true) {
    if (i >= code.size()) {
      result.stop_reason = "end of " + body->name;
      break;
    }
    const body_item& ins = *code[i];
    if (options.last_line > 0 && ins.line > options.last_line) {
      result.stop_reason = "end of range (line " + std::to_string(options.last_line) + ")";
      break;
    }
    const std::string_view base = opcode_base(ins.opcode);
    if (is_branch(ins.opcode)) {
      const std::size_t to = labels.at(branch_target(ins));
      if (to <= i) ++result.loops[loop_of_back.at(i)].passes;  // a pass of this loop ends here
      walk_one(ins);
      // A branch back is taken for --ptx-loops passes, then falls through (an unconditional one
      // too: the loop's exit is a guarded branch inside it, taken on the last pass); an
      // unconditional branch forward is taken, a guarded one only into a loop it would skip.
      const bool take = to <= i ? take_back(i, to) : !ins.guarded || enters_loop(i, to);
      i = take ? to : i + 1;
      continue;
    }
    walk_one(ins);  // a guarded ret counts and falls through: not taken
    if (!ins.guarded && (base == "ret" || base == "exit" || base == "trap")) {
      result.stop_reason = std::string(base) + " at line " + std::to_string(ins.line);
      break;
    }
    ++i;
  }

  if (result.trace.empty()) {
    std::string msg = std::string(where) + ": no instruction walked in " + body->name;
    if (options.first_line > 0 || options.last_line > 0)
      msg += " within lines " + (options.first_line > 0 ? std::to_string(options.first_line) : std::string("start")) +
             ".." + (options.last_line > 0 ? std::to_string(options.last_line) : std::string("end"));
    msg += " (stopped: " + result.stop_reason + ")";
    throw input_error(msg);
  }
  return result;
}

ptx_body read_ptx_body(std::string_view text, const std::string& entry, std::string_view where) {
  const std::string clean = strip_comments(text, where);
  listing lst = reader(clean, where).read();
  const function_body* body = nullptr;
  if (lst.functions.empty()) {
    if (!entry.empty())
      throw input_error(std::string(where) + ": no entry '" + entry + "': the file has no .entry or .func");
    lst.loose.name = "(whole file)";
    body = &lst.loose;
  } else {
    if (entry.empty()) body = first_body(lst);
    for (const auto& f : lst.functions)
      if (!entry.empty() && f.name == entry) body = &f;
    if (!body)
      throw input_error(std::string(where) + ": no entry '" + entry + "'; entries found: " + list_names(lst.functions));
  }
  ptx_body out;
  out.entry = body->name;
  std::unordered_map<std::string, int> labels;
  for (const auto& item : body->items)
    if (item.what == body_item::kind::label && !labels.emplace(item.label, item.line).second)
      throw input_error(at(where, item.line) + "label '" + item.label + "' defined twice");
  for (const auto& item : body->items) {
    ptx_statement s;
    s.line = item.line;
    s.is_label = item.what == body_item::kind::label;
    s.label = item.label;
    s.guarded = item.guarded;
    s.opcode = item.opcode;
    if (!s.is_label && is_branch(item.opcode)) {
      s.target = branch_target(item);
      if (s.target.empty()) throw input_error(at(where, item.line) + item.opcode + " without a target label");
      if (!labels.count(s.target))
        throw input_error(at(where, item.line) + "branch to undefined label '" + s.target + "'");
    }
    out.statements.push_back(std::move(s));
  }
  return out;
}

ptx_import_result import_ptx_file(const std::string& path, const ptx_options& options) {
  // Bounded: a directory, an empty path or an endless device (/dev/zero) is refused with the path.
  return import_ptx(std::string(without_bom(read_text_file(path, "PTX file"))), options, path);
}

}  // namespace warpspan
