// The bodies of the fuzz targets (issue 9): each feeds one kind of user input to the project's own
// entry points. An input_error is the expected answer to bad input; any other exception escapes (a
// finding), and so does a broken invariant (fuzz_finding). With WARPSPAN_FUZZ each is the body of a
// libFuzzer executable (fuzz_main.cpp); in every build warpspan_tests replays the committed corpus
// and regressions through them (test_fuzz_regressions.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace warpspan::fuzz {

/// A property the code promises did not hold for an input (not a user error).
class fuzz_finding : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

/// What an input came to: all the way through the entry points, or refused with an input_error.
enum class fuzz_outcome { accepted, rejected };

/// Kernel strings: parse, both printed forms parse back to the same kernel, normalisation.
fuzz_outcome fuzz_one_kernel(const std::uint8_t* data, std::size_t size);
/// PTX import with the default options; a first line "//map A=L,..." gives --ptx-map overrides.
fuzz_outcome fuzz_one_ptx(const std::uint8_t* data, std::size_t size);
/// The first line is a --sigma text (empty: none), the rest an SM JSON file (empty: --sigma alone,
/// as `--sigma` without `--sm`); normalised and made into a problem with a small kernel.
fuzz_outcome fuzz_one_sm(const std::uint8_t* data, std::size_t size);
/// A task-set JSON file: validation, the JSON round trip, T' of every task, its dbf table under a
/// 1 MiB cap and the EDF test (qpa against scan) under a bound on the points.
fuzz_outcome fuzz_one_taskset(const std::uint8_t* data, std::size_t size);
/// A JSON-lines batch read line by line as `dbf --batch FILE.jsonl` does, all tables in one call.
fuzz_outcome fuzz_one_jsonl(const std::uint8_t* data, std::size_t size);
/// A saved kernel input as `inputs --eval-input FILE` reads it: the first line names the kernel and
/// the thread count (at most 64), the rest is the file; an accepted input is run under the model.
fuzz_outcome fuzz_one_input(const std::uint8_t* data, std::size_t size);
/// Pseudo-precedence strings as `build --string` reads them, built against small fixed problems
/// (the first byte picks one).
fuzz_outcome fuzz_one_string(const std::uint8_t* data, std::size_t size);

/// wcet: a CFG JSON, a line "---", then a text trace; the whole analysis (ILP where CBC is linked,
/// else enumeration) with its invariants: Z_warp at least every WST, Z_dynamic at least the HWMT.
fuzz_outcome fuzz_one_wcet(const std::uint8_t* data, std::size_t size);

struct fuzz_target {
  std::string name;  ///< the input kind: tests/fuzz/{corpus,regressions,pending}/<name>/, fuzz_<name>
  fuzz_outcome (*run)(const std::uint8_t*, std::size_t);
  std::size_t max_len;  ///< longer inputs are not tried (also -max_len in scripts/fuzz.sh)
};

/// Every target, in a fixed order.
const std::vector<fuzz_target>& fuzz_targets();

}  // namespace warpspan::fuzz
