// Hostile numbers and files on the SM side (issue 9): --sigma values read whole and range-checked
// before any conversion, SM JSON whose products overflow an int or whose numbers overflow a double,
// normalisation refused before it allocates, and PTX/SM files read with a bound.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/ptx.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {
namespace {

constexpr int load_unit = static_cast<int>(unit::L);

using test::error_of;

normalized_sm sigma(const std::string& text) {
  sm_config sm;
  sm.name = "custom";
  apply_sigma_overrides(sm, text);
  return normalize(sm);
}

TEST(SigmaOption, DecimalsAndFractionsWithinTheLimits) {
  EXPECT_EQ(sigma("L=4.0").sigma[load_unit], 4);
  EXPECT_EQ(sigma("L=0.25").copies[load_unit], 4);
  EXPECT_EQ(sigma("L=2.5e-1").copies[load_unit], 4);
  EXPECT_EQ(sigma("L=1e6").sigma[load_unit], max_sigma);
  EXPECT_EQ(sigma("L=0.000001").copies[load_unit], max_copies);
  EXPECT_EQ(sigma("L=1/1000000").copies[load_unit], max_copies);
  EXPECT_EQ(sigma("L=1000000").sigma[load_unit], max_sigma);
}

TEST(SigmaOption, HugeTinyAndMalformedValuesAreInputErrors) {
  const std::pair<const char*, const char*> cases[] = {
      {"L=1e300", "too large"},
      {"L=1e-300", "too small"},
      {"L=1e400", "L=1e400"},
      {"L=0.0000001", "too small"},
      {"L=1.5", "whole number or 1/k"},
      {"L=4.garbage", "not a number"},
      {"L=4garbage", "'4garbage' is not a"},
      {"L=0.25x", "not a number"},
      {"L=1000001", "too large"},
      {"L=99999999999999999999", "too large"},
      {"L=1/2147483647", "too small"},
      {"L=1/1000001", "too small"},
      {"L=2000000/1", "too large"},
      {"L=1/", "not a whole number"},
      {"L=1,L=2", "L is given twice"},
      {"C=1,L=1,C=1", "C is given twice"},
      {"L=nan", "not a whole number"},
      {"L=inf", "not a whole number"},
      {"L=.", "not a number"},
  };
  for (const auto& [text, mention] : cases) {
    const std::string msg = error_of([&, t = text] { sigma(t); });  // clang 14: no capture of a binding
    EXPECT_NE(msg.find(mention), std::string::npos) << text << " -> '" << msg << "'";
  }
}

sm_config json_sm(const std::string& units_l, int warp_size = 32) {
  return parse_sm_json(R"({"warp_size": )" + std::to_string(warp_size) + R"(, "units": {"L": )" + units_l + "}}",
                       "big.json");
}

TEST(SmJson, ProductsBeyondAnIntAreRefusedNotWrapped) {
  // 1 unit for warps of 1,000,000 threads, latency 1,000,000: 10^12 cycles per instruction, which
  // wrapped to an int before.
  const std::string a = error_of([] { normalize(json_sm(R"({"units": 1, "latency": 1000000})", 1'000'000)); });
  EXPECT_NE(a.find("unit L"), std::string::npos) << a;
  EXPECT_NE(a.find("1000000000000"), std::string::npos) << a;
  // 3,000 copies x latency 1,000 = 3,000,000: an int, but past the cap (it filled 1.4 GB before).
  const std::string b = error_of([] { normalize(json_sm(R"({"units": 1, "latency": 1000})", 3000)); });
  EXPECT_NE(b.find("3000000"), std::string::npos) << b;
  // At the cap it is fine.
  EXPECT_EQ(normalize(json_sm(R"({"units": 1, "latency": 1000})", 1000)).copies[load_unit], max_copies);
}

TEST(SmJson, NumbersBeyondADoubleNameTheField) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"warp_size": 32, "units": {"L": {"units": 32, "latency": 1e400}}})", "units.L.latency"},
      {R"({"warp_size": -1e999, "units": {"L": {"units": 32}}})", "warp_size"},
      {R"({"warp_size": 32, "units": {"C": {"sigma": 1e-400}}})", "units.C.sigma"},
  };
  for (const auto& [text, mention] : cases) {
    const std::string msg = error_of([&, t = text] { parse_sm_json(t, "big.json"); });
    EXPECT_EQ(msg.rfind("big.json", 0), 0u) << text << " -> '" << msg << "'";
    EXPECT_NE(msg.find(mention), std::string::npos) << text << " -> '" << msg << "'";
  }
}

TEST(SmJson, HugeIntegersAndSigmasAreInputErrors) {
  const std::pair<std::string, std::string> cases[] = {
      {R"({"warp_size": 18446744073709551615, "units": {"L": {"units": 32}}})", "warp_size"},
      {R"({"warp_size": 32, "units": {"L": {"units": 9223372036854775808}}})", "units.L.units"},
      {R"({"warp_size": 32, "units": {"L": {"sigma": 18446744073709551615}}})", "units.L.sigma"},
      {R"({"warp_size": 32, "units": {"L": {"sigma": 1e-300}}})", "units.L.sigma"},
      {R"({"warp_size": 32, "units": {"L": {"sigma": 0.0000001}}})", "units.L.sigma"},
  };
  for (const auto& [text, mention] : cases) {
    const std::string msg = error_of([&, t = text] { parse_sm_json(t, "big.json"); });
    EXPECT_NE(msg.find(mention), std::string::npos) << text << " -> '" << msg << "'";
  }
}

TEST(Normalise, RefusesALongKernelBeforeAllocating) {
  // 1,000 instructions x 1,000 copies passes the cap by one instruction's worth; a single
  // instruction of max_copies is fine.
  normalized_sm norm;
  norm.sigma = {1, 0, 0, 0};
  norm.copies = {max_copies, 0, 0, 0};
  EXPECT_EQ(normalize_kernel(parse_kernel_string("L"), norm).size(), static_cast<std::size_t>(max_copies));
  EXPECT_NE(error_of([&] { normalize_kernel(parse_kernel_string("2L"), norm); }).find("after normalisation"),
            std::string::npos);
  // Copies no int could hold: refused by the length, not by running out of memory.
  norm.copies = {2'000'000'000, 0, 0, 0};
  EXPECT_NE(error_of([&] { normalize_kernel(parse_kernel_string("L"), norm); }).find("after normalisation"),
            std::string::npos);
}

TEST(KernelString, HugeRunLengthsAreRefused) {
  EXPECT_NE(error_of([] { parse_kernel_string("99999999999C"); }).find("too large"), std::string::npos);
  EXPECT_NE(error_of([] { parse_kernel_string("999999L2C"); }).find("longer than"), std::string::npos);
  EXPECT_EQ(parse_kernel_string("1000000C").size(), static_cast<std::size_t>(max_kernel_length));
}

TEST(Files, PtxAndSmFilesAreReadWithABound) {
  const std::string dir = ::testing::TempDir();
  const std::string ptx_dir = error_of([&] { import_ptx_file(dir, {}); });
  EXPECT_NE(ptx_dir.find("is a directory"), std::string::npos) << ptx_dir;
  EXPECT_NE(error_of([] { import_ptx_file("", {}); }).find("empty"), std::string::npos);
  const std::string sm_dir = error_of([&] { load_sm(dir); });
  EXPECT_NE(sm_dir.find("is a directory"), std::string::npos) << sm_dir;
  // An endless device: refused at the bound instead of read forever.
  if (std::filesystem::exists("/dev/zero")) {
    const std::string zero = error_of([] { load_sm("/dev/zero"); });
    EXPECT_NE(zero.find("/dev/zero"), std::string::npos) << zero;
    EXPECT_NE(zero.find("larger than"), std::string::npos) << zero;
  }
}

}  // namespace
}  // namespace warpspan
