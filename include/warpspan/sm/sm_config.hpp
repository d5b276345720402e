// The streaming-multiprocessor model of paper 000 (Sec. III): unit types L/C/S/D, their counts and
// latencies, the warp size and an optional limit on warps issuing per cycle (the warp schedulers).
#pragma once

#include <array>
#include <map>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace warpspan {

/// The four kinds of functional unit: load/store, CUDA core, special function, double precision;
/// and B, a barrier (bar.sync, __syncthreads), which is an instruction of a kernel string but no
/// unit: it takes its warp's issue slot for one cycle (and a scheduler's, with a limit) and no unit's
/// capacity, and the warp's next instruction waits until every warp of its block has issued it
/// (docs/makespan.md, "Barriers"). `unit_count` counts the functional units only.
enum class unit : std::uint8_t { L = 0, C = 1, S = 2, D = 3, B = 4 };
inline constexpr int unit_count = 4;
inline constexpr std::array<char, unit_count> unit_letters{'L', 'C', 'S', 'D'};
inline char letter(unit u) { return u == unit::B ? 'B' : unit_letters[static_cast<int>(u)]; }
/// 'L' -> unit::L ...; nullopt for any other character (B included: no unit).
std::optional<unit> unit_from_letter(char c);
/// An instruction type of a kernel string: the units' letters and B.
std::optional<unit> instruction_from_letter(char c);

/// Largest sigma_U (warps per cycle) and largest number of notional cycles one instruction may
/// become (1/k copies times the latency). Far beyond any GPU; above them the numbers are a mistake
/// and would only overflow or fill memory (a kernel is at most 1,000,000 instructions anyway).
inline constexpr int max_sigma = 1'000'000;
inline constexpr int max_copies = 1'000'000;

/// sigma_U given directly as a rational: either an integer >= 1 (den = 1) or 1/k (num = 1).
struct sigma_value {
  int num = 0;
  int den = 1;
};

/// One unit type as the hardware has it.
struct unit_spec {
  int units = 0;                     ///< units per SM (0: absent)
  int latency = 1;                   ///< cycles one warp instruction holds a unit (x_U)
  std::optional<sigma_value> sigma;  ///< given directly; overrides units / warp_size
};

/// How PTX import counts what this SM runs differently from one PTX instruction each (the preset's
/// "ptx" object, data/sm/README.md): reads of the constant bank, and the instruction sequences the
/// compiler expands some PTX instructions to (IEEE div, sqrt and rcp, integer division, ...), as
/// the fast path of the compiled code issues them. Without rules (no preset, or none given) every
/// PTX instruction is one instruction of its class.
struct ptx_rules {
  /// ld.param / ld.const / ldu.const: their instructions (empty: none, read as an operand of the
  /// instruction that uses them); nullopt: one C, the class rule.
  std::optional<std::vector<unit>> constant_reads;
  /// Full PTX opcode ("div.rn.f32") -> the instructions it runs as, in order.
  std::map<std::string, std::vector<unit>> sequences;
  std::string source;  ///< where the table comes from
  bool empty() const { return !constant_reads && sequences.empty(); }
};

struct sm_config {
  std::string name;  ///< preset name or "custom"
  std::string description;
  std::string source;  ///< where the numbers come from
  int warp_size = 32;
  std::array<unit_spec, unit_count> units{};
  int schedulers = 0;  ///< warps that may issue in one cycle; 0 = no limit
  ptx_rules ptx;       ///< how PTX import counts instructions on this SM
};

/// After the normalisation of 000 III-E every instruction takes one cycle: each U instruction
/// becomes `copies[U]` instructions and at most `sigma[U]` warps execute a U instruction per cycle.
struct normalized_sm {
  std::array<int, unit_count> sigma{};  ///< 0 where the type has no units
  std::array<int, unit_count> copies{};
  int schedulers = 0;
};

/// Applies 000 III-E. Throws input_error for unit counts that neither divide nor are divided by the
/// warp size (unless sigma is given directly), for latencies < 1, for a warp size < 1, and for a
/// sigma over max_sigma or an instruction over max_copies cycles (checked in 64 bits).
normalized_sm normalize(const sm_config& sm);

/// Parses a sigma text "L=1,C=4,S=1/2" (the sigma parameter) into overrides on `sm` (sigma given
/// directly per type; a value like "1/4" or "0.25" means one U instruction per warp takes 4
/// notional cycles). Each value is read whole (no trailing characters), each type at most once;
/// sigma at most max_sigma, k of 1/k at most max_copies.
void apply_sigma_overrides(sm_config& sm, std::string_view text);

/// Human-readable one-line summary, e.g. "sigma L=1 C=4 (S, D absent), no scheduler limit".
std::string describe(const normalized_sm& norm);

}  // namespace warpspan
