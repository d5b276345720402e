// SM presets and the JSON format they use (data/sm/README.md). The preset texts themselves are
// compiled in by cmake/embed_presets.cmake, which defines sm_presets().
#include "warpspan/sm/presets.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/sm/kernel_string.hpp"

namespace warpspan {

namespace {

using json = nlohmann::json;

constexpr std::array<std::string_view, 8> top_level_fields{"name",       "description", "source", "warp_size",
                                                           "schedulers", "units",       "ptx",    "comment"};
// An SM file is a few hundred bytes; anything past 1 MiB is not one.
constexpr std::size_t max_sm_file_bytes = std::size_t{1} << 20;

constexpr std::array<std::string_view, 4> unit_fields{"units", "latency", "sigma", "comment"};
constexpr std::array<std::string_view, 4> ptx_fields{"constant_reads", "sequences", "source", "comment"};
// A sequence of the table runs at most this many instructions (the longest measured, 64-bit integer
// division, is under 100).
constexpr std::size_t max_sequence_length = 4096;

std::string field_list(const auto& fields) {
  std::string out;
  for (auto f : fields) out += (out.empty() ? "" : ", ") + std::string(f);
  return out;
}

/// Prefix for messages: "FILE: field 'units.L.latency': ".
std::string at_field(std::string_view where, std::string_view field) {
  return std::string(where) + ": field '" + std::string(field) + "': ";
}

int integer_field(const json& obj, std::string_view where, std::string_view path, const char* key, int minimum) {
  const json& v = obj.at(key);
  if (!v.is_number_integer())
    throw input_error(at_field(where, path) + "must be a whole number, got " + json_excerpt(v));
  // Above 2^63 - 1 the parser keeps an unsigned number, which would wrap as a long long.
  if (v.is_number_unsigned() && v.get<std::uint64_t>() > 1'000'000)
    throw input_error(at_field(where, path) + "is implausibly large (" + v.dump() + ")");
  const auto value = v.get<long long>();
  if (value < minimum) throw input_error(at_field(where, path) + "must be at least " + std::to_string(minimum));
  if (value > 1'000'000) throw input_error(at_field(where, path) + "is implausibly large (" + v.dump() + ")");
  return static_cast<int>(value);
}

std::string string_field(const json& obj, std::string_view where, const char* key) {
  const json& v = obj.at(key);
  if (!v.is_string()) throw input_error(at_field(where, key) + "must be a string");
  return v.get<std::string>();
}

/// sigma given directly: a whole number >= 1, or 1/k (as "1/4" or 0.25); "4" as a string also works.
sigma_value parse_sigma(const json& v, std::string_view where, std::string_view path) {
  const auto bad = [&] {
    return input_error(at_field(where, path) + "must be a whole number >= 1 or 1/k (e.g. 4, \"1/2\", 0.25), got " +
                       json_excerpt(v));
  };
  if (v.is_number_unsigned()) {
    if (v.get<std::uint64_t>() < 1 || v.get<std::uint64_t>() > static_cast<std::uint64_t>(max_sigma)) throw bad();
    return {static_cast<int>(v.get<std::uint64_t>()), 1};
  }
  if (v.is_number_integer()) throw bad();  // negative
  if (v.is_number_float()) {
    // Ranges before any conversion to int: 1e-300 would make k = 1e300.
    const double d = v.get<double>();
    if (!(d > 0) || d > max_sigma) throw bad();
    if (d >= 1 && d == std::floor(d)) return {static_cast<int>(d), 1};
    const double k = 1.0 / d;
    if (d < 1 && k <= max_copies + 0.5 && std::fabs(k - std::round(k)) < 1e-9)
      return {1, static_cast<int>(std::round(k))};
    throw bad();
  }
  if (v.is_string()) {
    const std::string s = v.get<std::string>();
    const auto whole = [&](std::string_view t) {
      if (t.empty() || t.size() > 7 ||
          !std::all_of(t.begin(), t.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); }))
        throw bad();
      return std::stoi(std::string(t));
    };
    if (const auto slash = s.find('/'); slash != std::string::npos) {
      const int num = whole(std::string_view(s).substr(0, slash));
      const int den = whole(std::string_view(s).substr(slash + 1));
      if (num != 1 || den < 1) throw bad();
      return {1, den};
    }
    const int n = whole(s);
    if (n < 1) throw bad();
    return {n, 1};
  }
  throw bad();
}

/// Follows the keys while parsing, so that a number the parser cannot hold (1e400) is reported with
/// the field it stands in ("units.L.latency").
class key_path_sax : public nlohmann::json_sax<json> {
 public:
  std::string failed_at;  ///< the path where parsing stopped

  bool null() override { return true; }
  bool boolean(bool) override { return true; }
  bool number_integer(number_integer_t) override { return true; }
  bool number_unsigned(number_unsigned_t) override { return true; }
  bool number_float(number_float_t, const string_t&) override { return true; }
  bool string(string_t&) override { return true; }
  bool binary(binary_t&) override { return true; }
  bool start_object(std::size_t) override {
    path_.emplace_back();
    return true;
  }
  bool key(string_t& k) override {
    path_.back() = k;
    return true;
  }
  bool end_object() override {
    path_.pop_back();
    return true;
  }
  bool start_array(std::size_t) override {
    path_.emplace_back("[]");
    return true;
  }
  bool end_array() override {
    path_.pop_back();
    return true;
  }
  bool parse_error(std::size_t, const std::string&, const nlohmann::detail::exception&) override {
    for (const auto& part : path_)
      if (!part.empty()) failed_at += (failed_at.empty() ? "" : ".") + part;
    return false;
  }

 private:
  std::vector<std::string> path_;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

/// The names a preset answers to: "hopper-9.0" -> hopper-9.0, hopper, 9.0, sm_90, sm90.
std::vector<std::string> aliases_of(std::string_view preset_name) {
  std::vector<std::string> out{lower(preset_name)};
  const std::size_t dash = preset_name.rfind('-');
  if (dash == std::string_view::npos) return out;
  const std::string family = lower(preset_name.substr(0, dash));
  const std::string version = lower(preset_name.substr(dash + 1));
  out.push_back(family);
  out.push_back(version);
  std::string digits;
  for (char c : version)
    if (c != '.') digits += c;
  out.push_back("sm_" + digits);
  out.push_back("sm" + digits);
  return out;
}

std::string preset_names() {
  std::string out;
  for (const auto& p : sm_presets()) out += (out.empty() ? "" : ", ") + p.name;
  return out;
}

/// The instructions of one PTX instruction as a kernel string ("S10C"); empty only where allowed.
std::vector<unit> sequence_field(const json& v, std::string_view where, const std::string& path, bool allow_empty) {
  if (!v.is_string()) throw input_error(at_field(where, path) + "must be a kernel string such as \"S10C\"");
  const std::string text = v.get<std::string>();
  if (text.empty()) {
    if (allow_empty) return {};
    throw input_error(at_field(where, path) + "must not be empty (an instruction runs as at least one)");
  }
  std::vector<unit> out;
  try {
    out = parse_kernel_string(text);
  } catch (const input_error& e) {
    throw input_error(at_field(where, path) + e.what());
  }
  if (std::find(out.begin(), out.end(), unit::B) != out.end())
    throw input_error(at_field(where, path) + "holds a barrier B; a sequence runs on the units L, C, S and D");
  if (out.size() > max_sequence_length)
    throw input_error(at_field(where, path) + "is implausibly long (" + std::to_string(out.size()) + " instructions)");
  return out;
}

ptx_rules parse_ptx_rules(const json& obj, std::string_view where) {
  if (!obj.is_object())
    throw input_error(at_field(where, "ptx") + "must be an object like {\"sequences\": {\"div.rn.f32\": \"S10C\"}}");
  for (const auto& [key, value] : obj.items())
    if (std::find(ptx_fields.begin(), ptx_fields.end(), key) == ptx_fields.end())
      throw input_error(at_field(where, "ptx." + key) + "unknown field (expected " + field_list(ptx_fields) + ")");
  ptx_rules r;
  if (obj.contains("source")) {
    if (!obj.at("source").is_string()) throw input_error(at_field(where, "ptx.source") + "must be a string");
    r.source = obj.at("source").get<std::string>();
  }
  if (obj.contains("constant_reads"))
    r.constant_reads = sequence_field(obj.at("constant_reads"), where, "ptx.constant_reads", true);
  if (obj.contains("sequences")) {
    const json& seq = obj.at("sequences");
    if (!seq.is_object())
      throw input_error(at_field(where, "ptx.sequences") + "must be an object of PTX opcodes and kernel strings");
    for (const auto& [opcode, value] : seq.items()) {
      const std::string path = "ptx.sequences." + opcode;
      const bool name_ok = !opcode.empty() && opcode.front() != '.' && opcode.back() != '.' &&
                           std::all_of(opcode.begin(), opcode.end(), [](char c) {
                             return std::isalnum(static_cast<unsigned char>(c)) || c == '.' || c == '_';
                           });
      if (!name_ok) throw input_error(at_field(where, path) + "does not name a PTX opcode (e.g. div.rn.f32)");
      r.sequences.emplace(opcode, sequence_field(value, where, path, false));
    }
  }
  return r;
}

}  // namespace

sm_config parse_sm_json(std::string_view text, std::string_view where) {
  json doc;
  try {
    doc = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.what() reads "[json.exception.parse_error.101] parse error at line 3, column 5: ..."
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    throw input_error(std::string(where) + ": not valid JSON: " + what);
  } catch (const json::exception& e) {
    // A number beyond a double (1e400): the parser stops with out_of_range.406.
    std::string what = e.what();
    if (const auto p = what.find("] "); p != std::string::npos) what = what.substr(p + 2);
    key_path_sax sax;
    json::sax_parse(text, &sax);
    if (sax.failed_at.empty()) throw input_error(std::string(where) + ": " + what);
    throw input_error(at_field(where, sax.failed_at) + what);
  }
  if (!doc.is_object()) throw input_error(std::string(where) + ": expected a JSON object {...} at the top level");

  for (const auto& [key, value] : doc.items())
    if (std::find(top_level_fields.begin(), top_level_fields.end(), key) == top_level_fields.end())
      throw input_error(at_field(where, key) + "unknown field (expected " + field_list(top_level_fields) + ")");

  sm_config sm;
  sm.name = doc.contains("name") ? string_field(doc, where, "name") : "custom";
  if (sm.name.empty()) throw input_error(at_field(where, "name") + "must not be empty");
  if (doc.contains("description")) sm.description = string_field(doc, where, "description");
  if (doc.contains("source")) sm.source = string_field(doc, where, "source");

  if (!doc.contains("warp_size")) throw input_error(at_field(where, "warp_size") + "missing");
  sm.warp_size = integer_field(doc, where, "warp_size", "warp_size", 1);
  if (doc.contains("schedulers")) sm.schedulers = integer_field(doc, where, "schedulers", "schedulers", 0);

  if (!doc.contains("units")) throw input_error(at_field(where, "units") + "missing");
  const json& units = doc.at("units");
  if (!units.is_object() || units.empty())
    throw input_error(at_field(where, "units") + "must be an object with at least one of L, C, S, D");
  for (const auto& [letter_text, spec] : units.items()) {
    const std::string path = "units." + letter_text;
    const auto u = letter_text.size() == 1 ? unit_from_letter(letter_text[0]) : std::nullopt;
    if (!u) throw input_error(at_field(where, path) + "unknown unit type (expected L, C, S or D)");
    if (!spec.is_object())
      throw input_error(at_field(where, path) + "must be an object like {\"units\": 32, \"latency\": 1}");
    for (const auto& [key, value] : spec.items())
      if (std::find(unit_fields.begin(), unit_fields.end(), key) == unit_fields.end())
        throw input_error(at_field(where, path + "." + key) + "unknown field (expected " + field_list(unit_fields) +
                          ")");

    unit_spec& out = sm.units[static_cast<int>(*u)];
    if (spec.contains("sigma")) out.sigma = parse_sigma(spec.at("sigma"), where, path + ".sigma");
    if (spec.contains("units"))
      out.units = integer_field(spec, where, path + ".units", "units", 0);
    else if (!out.sigma)
      throw input_error(at_field(where, path + ".units") + "missing (give \"units\", or \"sigma\" directly)");
    if (spec.contains("latency")) out.latency = integer_field(spec, where, path + ".latency", "latency", 1);
  }
  if (doc.contains("ptx")) sm.ptx = parse_ptx_rules(doc.at("ptx"), where);
  return sm;
}

sm_config load_sm(std::string_view name_or_file) {
  const std::string key = lower(name_or_file);
  if (key.empty())
    throw input_error(param("sm") + ": empty; expected a preset (" + preset_names() + ") or a JSON file");

  // A family alias ("ampere") must name exactly one preset; every other alias is unique by form.
  const preset_entry* found = nullptr;
  int matches = 0;
  for (const auto& p : sm_presets()) {
    const auto names = aliases_of(p.name);
    if (std::find(names.begin(), names.end(), key) != names.end()) {
      found = &p;
      ++matches;
    }
  }
  if (matches > 1)
    throw input_error("SM '" + std::string(name_or_file) + "' is ambiguous; give the full preset name (" +
                      preset_names() + ")");
  if (found) return parse_sm_json(found->json, "preset " + found->name);

  const std::string path(name_or_file);
  std::error_code ec;
  if (std::filesystem::exists(path, ec))  // a file; a directory or a device is refused by the reader
    return parse_sm_json(read_text_file(path, "SM file", max_sm_file_bytes), path);
  throw input_error("unknown SM '" + path + "': neither a preset (" + preset_names() +
                    "; also e.g. 'fermi', 'sm_35', '9.0') nor an existing JSON file");
}

sm_config sm_from_options(const std::optional<std::string>& sm, const std::optional<std::string>& sigma,
                          int schedulers) {
  sm_config cfg;
  if (sm) {
    cfg = load_sm(*sm);
  } else {
    cfg.name = "custom";
    if (!sigma)
      throw input_error("give " + param("sigma") + " (e.g. " + param("sigma", "L=1,C=4") + ") or " +
                        param("sm", "NAME"));
  }
  if (sigma) apply_sigma_overrides(cfg, *sigma);
  if (schedulers >= 0) cfg.schedulers = schedulers;
  return cfg;
}

}  // namespace warpspan
