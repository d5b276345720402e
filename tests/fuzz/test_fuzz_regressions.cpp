// Replays the fuzz corpus (tests/fuzz/corpus/<input>/) and the regressions found by fuzzing
// (tests/fuzz/regressions/<input>/) through the fuzz targets' bodies: no input may end in anything
// but acceptance or an input_error (in the clang-asan build also: no sanitizer report). Seeds named
// valid-* must be accepted and invalid-* refused, so the corpus keeps reaching past the parsers.
// Inputs still waiting for a fix live in tests/fuzz/pending/<input>/ and are not replayed.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <ostream>
#include <string>
#include <vector>

#include "targets.hpp"
#include "test_util.hpp"

namespace warpspan::fuzz {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> files_in(const fs::path& dir) {
  std::vector<fs::path> out;
  if (!fs::is_directory(dir)) return out;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file() && entry.path().filename().string().front() != '.') out.push_back(entry.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

}  // namespace

// Test names and failure messages show the target by its name.
void PrintTo(const fuzz_target& target, std::ostream* os) { *os << target.name; }

namespace {

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

struct replayed {
  std::size_t files = 0;
  std::size_t accepted = 0;
};

class FuzzReplay : public ::testing::TestWithParam<fuzz_target> {
 protected:
  /// Every file of one folder through the target.
  replayed replay(const std::string& folder) const {
    const fuzz_target& target = GetParam();
    const std::vector<fs::path> files = files_in(test::source_path("tests/fuzz/" + folder + "/" + target.name));
    replayed out;
    out.files = files.size();
    for (const fs::path& file : files) {
      const std::string bytes = read_bytes(file);
      const std::string name = file.filename().string();
      SCOPED_TRACE(folder + "/" + target.name + "/" + name);
      EXPECT_LE(bytes.size(), target.max_len) << "longer than the target reads (max_len)";
      fuzz_outcome outcome = fuzz_outcome::rejected;
      try {
        outcome = target.run(reinterpret_cast<const std::uint8_t*>(bytes.data()), bytes.size());
      } catch (const std::exception& e) {
        ADD_FAILURE() << "escaped: " << e.what();
        continue;
      }
      if (outcome == fuzz_outcome::accepted) ++out.accepted;
      if (starts_with(name, "valid-")) {
        EXPECT_EQ(outcome, fuzz_outcome::accepted) << "a valid seed was refused";
      } else if (starts_with(name, "invalid-")) {
        EXPECT_EQ(outcome, fuzz_outcome::rejected) << "an invalid seed was accepted";
      }
    }
    return out;
  }
};

TEST_P(FuzzReplay, Corpus) {
  const replayed r = replay("corpus");
  // Every target has seeds, and some of them go all the way through the entry points.
  EXPECT_GE(r.files, 5u) << "tests/fuzz/corpus/" << GetParam().name << " has too few seeds";
  EXPECT_GE(r.accepted, 3u) << "too few seeds of tests/fuzz/corpus/" << GetParam().name << " are accepted";
}

TEST_P(FuzzReplay, Regressions) { replay("regressions"); }

INSTANTIATE_TEST_SUITE_P(Fuzz, FuzzReplay, ::testing::ValuesIn(fuzz_targets()),
                         [](const ::testing::TestParamInfo<fuzz_target>& info) { return info.param.name; });

}  // namespace
}  // namespace warpspan::fuzz
