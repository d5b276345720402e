// SM presets: every preset parses and normalises; aliases; the JSON format's errors.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "test_util.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace warpspan {
namespace {

constexpr int L = static_cast<int>(unit::L);
constexpr int C = static_cast<int>(unit::C);
constexpr int S = static_cast<int>(unit::S);
constexpr int D = static_cast<int>(unit::D);

using test::error_of;

TEST(Presets, AllFivePresentAndSorted) {
  const auto& presets = sm_presets();
  std::vector<std::string> names;
  for (const auto& p : presets) names.push_back(p.name);
  const std::vector<std::string> expected{"ampere-8.0", "fermi-2.0", "hopper-9.0", "kepler-3.5", "volta-7.0"};
  EXPECT_EQ(names, expected);
}

TEST(Presets, EveryPresetParsesAndNormalises) {
  for (const auto& p : sm_presets()) {
    const sm_config sm = parse_sm_json(p.json, p.name);
    EXPECT_EQ(sm.name, p.name);
    EXPECT_EQ(sm.warp_size, 32) << p.name;
    EXPECT_FALSE(sm.source.empty()) << p.name;
    const normalized_sm norm = normalize(sm);
    for (int u = 0; u < unit_count; ++u) {
      EXPECT_GE(norm.sigma[u], 1) << p.name << " " << unit_letters[u];
      EXPECT_GE(norm.copies[u], 1) << p.name << " " << unit_letters[u];
    }
  }
}

TEST(Presets, FermiLoadsBecomeTwoWithSigmaOne) {
  const normalized_sm norm = normalize(load_sm("fermi-2.0"));
  EXPECT_EQ(norm.sigma[L], 1);
  EXPECT_EQ(norm.copies[L], 2);  // 16 LD/ST units, warp 32
  EXPECT_EQ(norm.sigma[C], 1);   // 32 cores
  EXPECT_EQ(norm.copies[C], 1);
  EXPECT_EQ(norm.copies[S], 8);  // 4 SFUs
  EXPECT_EQ(norm.copies[D], 2);  // 16 DP FMAs per clock
  EXPECT_EQ(norm.schedulers, 2);
  EXPECT_EQ(to_run_length(normalize_kernel(parse_kernel_string("LC"), norm)), "2LC");
}

TEST(Presets, UnitCounts) {
  const auto sigma = [](const char* name) { return normalize(load_sm(name)).sigma; };
  EXPECT_EQ(sigma("kepler-3.5"), (std::array<int, unit_count>{1, 6, 1, 2}));
  EXPECT_EQ(sigma("volta-7.0"), (std::array<int, unit_count>{1, 2, 1, 1}));
  EXPECT_EQ(sigma("ampere-8.0"), (std::array<int, unit_count>{1, 2, 1, 1}));
  EXPECT_EQ(sigma("hopper-9.0"), (std::array<int, unit_count>{1, 4, 1, 2}));
  EXPECT_EQ(normalize(load_sm("volta")).copies[S], 2);  // 16 SFUs
}

TEST(Presets, Aliases) {
  const std::pair<const char*, const char*> aliases[] = {
      {"fermi", "fermi-2.0"},   {"sm_20", "fermi-2.0"},  {"2.0", "fermi-2.0"},     {"FERMI-2.0", "fermi-2.0"},
      {"kepler", "kepler-3.5"}, {"sm_35", "kepler-3.5"}, {"3.5", "kepler-3.5"},    {"sm35", "kepler-3.5"},
      {"volta", "volta-7.0"},   {"sm_70", "volta-7.0"},  {"7.0", "volta-7.0"},     {"Ampere", "ampere-8.0"},
      {"SM_80", "ampere-8.0"},  {"8.0", "ampere-8.0"},   {"hopper", "hopper-9.0"}, {"sm_90", "hopper-9.0"},
      {"9.0", "hopper-9.0"},
  };
  for (const auto& [alias, name] : aliases) EXPECT_EQ(load_sm(alias).name, name) << alias;
}

TEST(Presets, UnknownNameListsPresets) {
  const std::string msg = error_of([] { load_sm("pascal"); });
  EXPECT_NE(msg.find("pascal"), std::string::npos) << msg;
  EXPECT_NE(msg.find("kepler-3.5"), std::string::npos) << msg;
  EXPECT_THROW(load_sm("/nonexistent/sm.json"), input_error);
}

TEST(Presets, LoadsAFile) {
  const auto path = std::filesystem::temp_directory_path() / "warpspan_test_sm.json";
  {
    std::ofstream out(path);
    out << R"({"name": "toy", "warp_size": 4, "units": {"L": {"units": 4}, "C": {"sigma": "1/2", "latency": 1}}})";
  }
  const sm_config sm = load_sm(path.string());
  std::filesystem::remove(path);
  EXPECT_EQ(sm.name, "toy");
  EXPECT_EQ(sm.warp_size, 4);
  EXPECT_EQ(sm.schedulers, 0);
  EXPECT_EQ(sm.units[L].units, 4);
  ASSERT_TRUE(sm.units[C].sigma.has_value());
  EXPECT_EQ(sm.units[C].sigma->num, 1);
  EXPECT_EQ(sm.units[C].sigma->den, 2);
  EXPECT_EQ(sm.units[S].units, 0);  // absent
  const normalized_sm norm = normalize(sm);
  EXPECT_EQ(norm.sigma[C], 1);
  EXPECT_EQ(norm.copies[C], 2);
  EXPECT_EQ(norm.sigma[S], 0);
}

TEST(PresetJson, SigmaForms) {
  const auto sigma_of = [](const char* value) {
    const std::string text = std::string(R"({"warp_size": 32, "units": {"C": {"sigma": )") + value + "}}}";
    return *parse_sm_json(text, "s.json").units[C].sigma;
  };
  EXPECT_EQ(sigma_of("4").num, 4);
  EXPECT_EQ(sigma_of("\"4\"").num, 4);
  EXPECT_EQ(sigma_of("\"1/4\"").den, 4);
  EXPECT_EQ(sigma_of("0.25").den, 4);
  for (const char* bad : {"0", "-1", "\"2/3\"", "0.3", "\"x\"", "true"})
    EXPECT_THROW(sigma_of(bad), input_error) << bad;
}

TEST(PresetJson, ErrorsNameFileAndField) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"warp_size": 32, "units": {"L": {"units": 32})", "not valid JSON"},
      {R"([1, 2])", "top level"},
      {R"({"units": {"L": {"units": 32}}})", "warp_size"},
      {R"({"warp_size": 32})", "units"},
      {R"({"warp_size": 0, "units": {"L": {"units": 32}}})", "warp_size"},
      {R"({"warp_size": "32", "units": {"L": {"units": 32}}})", "warp_size"},
      {R"({"warp_size": 32, "units": {"X": {"units": 32}}})", "units.X"},
      {R"({"warp_size": 32, "units": {"L": {"units": -1}}})", "units.L.units"},
      {R"({"warp_size": 32, "units": {"L": {"latency": 2}}})", "units.L.units"},
      {R"({"warp_size": 32, "units": {"L": {"units": 32, "latency": 0}}})", "units.L.latency"},
      {R"({"warp_size": 32, "units": {"L": {"units": 32.5}}})", "units.L.units"},
      {R"({"warp_size": 32, "units": {"L": {"units": 32, "latncy": 2}}})", "units.L.latncy"},
      {R"({"warp_size": 32, "warpsize": 32, "units": {"L": {"units": 32}}})", "warpsize"},
      {R"({"warp_size": 32, "schedulers": -1, "units": {"L": {"units": 32}}})", "schedulers"},
      {R"({"name": 7, "warp_size": 32, "units": {"L": {"units": 32}}})", "name"},
      {R"({"warp_size": 32, "units": {}})", "units"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": 3})", "ptx"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"tables": {}}})", "ptx.tables"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"sequences": {"div.rn.f32": ""}}})",
       "ptx.sequences.div.rn.f32"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"sequences": {"div.rn.f32": "S10X"}}})",
       "ptx.sequences.div.rn.f32"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"sequences": {"div.rn.f32": "CBC"}}})", "barrier"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"sequences": {"div rn": "C"}}})",
       "ptx.sequences.div rn"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"sequences": {"div.rn.f32": 11}}})",
       "ptx.sequences.div.rn.f32"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"sequences": {"div.u64": "9999C"}}})",
       "implausibly long"},
      {R"({"warp_size": 32, "units": {"C": {"units": 32}}, "ptx": {"constant_reads": 1}})", "ptx.constant_reads"},
  };
  for (const auto& [text, field] : cases) {
    // A structured binding cannot be captured by a lambda before C++20's P1091 (clang 14 refuses it).
    const char* const json_text = text;
    const std::string msg = error_of([json_text] { parse_sm_json(json_text, "my.json"); });
    EXPECT_EQ(msg.rfind("my.json:", 0), 0u) << text << " -> " << msg;
    EXPECT_NE(msg.find(field), std::string::npos) << text << " -> " << msg;
  }
}

TEST(PresetPtxRules, TablesOfTheShippedPresets) {
  // Fermi: no toolkit within reach compiles sm_20, so no table (one instruction each, as before).
  EXPECT_TRUE(load_sm("fermi-2.0").ptx.empty());
  // The fast path of div.rn.f32 on sm_80, counted by hand from nvdisasm (data/sm/README.md):
  // MUFU.RCP; IMAD.MOV, BSSY, FFMA, FFMA, FCHK, FFMA, FFMA, FFMA, @!P0 BRA, BSYNC.
  const sm_config ampere = load_sm("ampere-8.0");
  EXPECT_EQ(to_run_length(ampere.ptx.sequences.at("div.rn.f32")), "S10C");
  ASSERT_TRUE(ampere.ptx.constant_reads.has_value());
  EXPECT_EQ(to_run_length(*ampere.ptx.constant_reads), "C");
  for (const char* name : {"kepler-3.5", "volta-7.0", "ampere-8.0", "hopper-9.0"}) {
    const sm_config sm = load_sm(name);
    EXPECT_FALSE(sm.ptx.source.empty()) << name;
    // Every table holds the same operations, each at least one instruction, with one S (the
    // MUFU) in the IEEE float divisions, and FP64 work in the double ones.
    EXPECT_EQ(sm.ptx.sequences.size(), 37u) << name;
    for (const auto& [op, seq] : sm.ptx.sequences) EXPECT_FALSE(seq.empty()) << name << " " << op;
    const auto count = [&](const char* op, unit u) {
      const auto& seq = sm.ptx.sequences.at(op);
      return std::count(seq.begin(), seq.end(), u);
    };
    EXPECT_EQ(count("div.rn.f32", unit::S), 1) << name;
    EXPECT_GE(count("div.rn.f64", unit::D), 8) << name;
    EXPECT_GE(sm.ptx.sequences.at("div.u64").size(), 60u) << name;  // a subroutine, not one instruction
  }
}

TEST(PresetPtxRules, AFileMayGiveItsOwn) {
  const sm_config sm = parse_sm_json(
      R"({"warp_size": 32, "units": {"C": {"units": 32}, "S": {"units": 8}},
          "ptx": {"constant_reads": "", "sequences": {"div.rn.f32": "2CS3C"}, "source": "mine"}})",
      "my.json");
  ASSERT_TRUE(sm.ptx.constant_reads.has_value());
  EXPECT_TRUE(sm.ptx.constant_reads->empty());
  EXPECT_EQ(to_run_length(sm.ptx.sequences.at("div.rn.f32")), "2CS3C");
  EXPECT_EQ(sm.ptx.source, "mine");
}

}  // namespace
}  // namespace warpspan
