// Messages that name parameters (core/error.hpp): the library's words in what(), each face's
// spelling where it renders them, and the parameters kept when a message is rethrown with context.
#include <gtest/gtest.h>

#include <iterator>
#include <optional>
#include <stdexcept>
#include <string>

#include "warpspan/core/error.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {
namespace {

constexpr parameter_spelling option_spellings[] = {
    {"warps", "--warps"}, {"max_table_mib", "--max-table-mib"}, {"method", "--method"}, {"sweep", "--sweep"}};
constexpr parameter_spelling keyword_spellings[] = {
    {"warps", "warps="}, {"max_table_mib", "max_table_mib="}, {"method", "method="}, {"sweep", "sweep="}};
const parameter_face option_face{option_spellings, std::size(option_spellings), parameter_face::style::option};
const parameter_face keyword_face{keyword_spellings, std::size(keyword_spellings), parameter_face::style::keyword};

TEST(ErrorMessage, ParametersInTheLibrarysWordsAndEachFacesSpelling) {
  const message m = param("warps", 100) + " is more than " + std::to_string(64) + "; raise " + param("max_table_mib") +
                    " or use " + param("method", "ilp") + " (" + param_quoted("sweep", "a b") + ")";
  EXPECT_EQ(m.neutral(), "warps 100 is more than 64; raise max_table_mib or use method ilp (sweep 'a b')");
  EXPECT_EQ(m.render(option_face),
            "--warps 100 is more than 64; raise --max-table-mib or use --method ilp (--sweep 'a b')");
  EXPECT_EQ(m.render(keyword_face),
            "warps=100 is more than 64; raise max_table_mib= or use method='ilp' (sweep='a b')");
}

TEST(ErrorMessage, AKeywordBeforeAColonDropsItsEqualsSign) {
  const message m = param("method") + ": 'fast' is not one of auto, ilp";
  EXPECT_EQ(m.render(option_face), "--method: 'fast' is not one of auto, ilp");
  EXPECT_EQ(m.render(keyword_face), "method: 'fast' is not one of auto, ilp");
  EXPECT_EQ(m.neutral(), "method: 'fast' is not one of auto, ilp");
}

TEST(ErrorMessage, AParameterAFaceLacksKeepsItsLibraryName) {
  const message m = "give " + param("cfg_path") + " or " + param("ptx_path", "k.ptx");
  EXPECT_EQ(m.render(option_face), "give cfg_path or ptx_path k.ptx");
  EXPECT_EQ(m.render(keyword_face), "give cfg_path or ptx_path k.ptx");
}

TEST(ErrorMessage, UserTextIsNeverReadAsAParameter) {
  // Only param() names a parameter: braces or option-like text in what the user gave stay as given.
  const message m = param("sweep") + ": '{warps} --warps' is not a factor";
  EXPECT_EQ(m.render(keyword_face), "sweep: '{warps} --warps' is not a factor");
}

TEST(ErrorMessage, ExceptionsCarryTheirParametersAndWhatIsNeutral) {
  try {
    throw input_error(param("warps") + " must be at least 1 (got 0)");
  } catch (const input_error& e) {
    EXPECT_STREQ(e.what(), "warps must be at least 1 (got 0)");
    EXPECT_EQ(render(e, option_face), "--warps must be at least 1 (got 0)");
    EXPECT_EQ(render(e, keyword_face), "warps= must be at least 1 (got 0)");
    // Context added by a caller keeps the parameter.
    const input_error outer("set 3: " + e.description());
    EXPECT_EQ(render(outer, option_face), "set 3: --warps must be at least 1 (got 0)");
    EXPECT_STREQ(outer.what(), "set 3: warps must be at least 1 (got 0)");
  }
  EXPECT_EQ(render(std::runtime_error("plain"), option_face), "plain");
  const not_compiled n("use " + param("method", "tree"));
  EXPECT_EQ(render(n, keyword_face), "use method='tree'");
  const input_error copy = input_error(param("warps", 3));
  const input_error copied(copy);  // shared, cannot throw
  EXPECT_EQ(render(copied, option_face), "--warps 3");
}

TEST(ErrorMessage, LibraryErrorsNameTheirParameters) {
  try {
    (void)resolve_threads(-1);
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_EQ(std::string(e.what()).rfind("threads: -1 threads is negative", 0), 0u) << e.what();
  }
  const normalized_sm sm = normalize(sm_from_options(std::nullopt, std::string("L=1,C=4"), -1));
  try {
    (void)make_problem(normalize_kernel(parse_kernel_string("LC"), sm), sm, 0);
    FAIL() << "no error";
  } catch (const input_error& e) {
    EXPECT_STREQ(e.what(), "warps must be at least 1 (got 0)");
    EXPECT_EQ(render(e, option_face), "--warps must be at least 1 (got 0)");
  }
}

}  // namespace
}  // namespace warpspan
