// PTX import: the straight-line instructions of a PTX listing classified into L/C/S/D.
// The rules are documented in data/kernels/README.md and in `warpspan kernel --help`.
#pragma once

#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {

/// Most passes through a loop import_ptx unrolls (ptx_options::loop_passes).
inline constexpr int max_ptx_loop_passes = 1000000;

struct ptx_options {
  int first_line = 0;                     ///< 1-based, inclusive; 0 = from the entry's start
  int last_line = 0;                      ///< 1-based, inclusive; 0 = to the entry's end
  std::string entry;                      ///< .entry/.func to read; empty = the first one
  std::map<std::string, unit> overrides;  ///< opcode (e.g. "mov" or "mov.f32") -> type
  ptx_rules rules;                        ///< the SM's counting rules (sm_config::ptx); the
                                          ///< overrides come first
  int loop_passes = 1;  ///< passes through each loop (1 to max_ptx_loop_passes): a branch back (guarded or
                        ///< not) is taken loop_passes - 1 times, then falls
                        ///< through; a guarded branch forward into a loop that
                        ///< the path would jump past is taken
};

struct ptx_instruction {
  int line = 0;               ///< 1-based line in the file
  std::string opcode;         ///< e.g. "ld.global.f32"
  unit type = unit::C;        ///< its class (the class rule or an override)
  std::vector<unit> runs_as;  ///< what it counts as in the kernel string: {type},
                              ///< or the SM's sequence or constant-read rule
};

/// A loop of the body read: a branch back to a label at or before it.
struct ptx_loop {
  int head_line = 0;  ///< the loop's first instruction (the branch's target)
  int back_line = 0;  ///< the branch back
  int passes = 0;     ///< passes the walk made through it (0: not walked)
};

struct ptx_import_result {
  std::string entry;  ///< name of the entry read
  kernel_string kernel;
  std::vector<ptx_instruction> trace;  ///< the instructions walked, in order
  std::string stop_reason;             ///< why the walk ended (ret, exit, end of body or range)
  std::vector<ptx_loop> loops;         ///< every loop of the body, in order of its branch back
  std::size_t by_rule = 0;             ///< instructions walked that an SM rule counted (ptx_rules)
};

/// Parses PTX text. `where` names the source for error messages ("file.ptx:12: ...").
ptx_import_result import_ptx(std::string_view text, const ptx_options& options, std::string_view where);
/// Reads the file and imports it; a missing or unreadable file is an input_error.
ptx_import_result import_ptx_file(const std::string& path, const ptx_options& options);

/// One label or instruction of a body, for readers that need the control flow (wcet's CFG).
struct ptx_statement {
  int line = 0;
  bool is_label = false;
  std::string label;     ///< label: its name
  bool guarded = false;  ///< instruction: has an @p / @!p guard
  std::string opcode;    ///< instruction
  std::string target;    ///< bra: the label it jumps to
};
struct ptx_body {
  std::string entry;
  std::vector<ptx_statement> statements;
};
/// The labels and instructions of one .entry/.func (empty name: the first), with branch targets
/// checked; the same reader and errors as import_ptx.
ptx_body read_ptx_body(std::string_view text, const std::string& entry, std::string_view where);

/// The type one opcode gets under the default rules and the overrides.
unit classify_opcode(std::string_view opcode, const std::map<std::string, unit>& overrides);

/// Parses "mov=L,mul.f32=D" into overrides.
std::map<std::string, unit> parse_ptx_overrides(std::string_view text);

}  // namespace warpspan
