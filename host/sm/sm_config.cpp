#include "warpspan/sm/sm_config.hpp"

#include <charconv>
#include <cmath>
#include <sstream>

#include "warpspan/core/error.hpp"

namespace warpspan {

std::optional<unit> unit_from_letter(char c) {
  switch (c) {
    case 'L': return unit::L;
    case 'C': return unit::C;
    case 'S': return unit::S;
    case 'D': return unit::D;
    default: return std::nullopt;
  }
}

std::optional<unit> instruction_from_letter(char c) {
  if (c == 'B') return unit::B;
  return unit_from_letter(c);
}

normalized_sm normalize(const sm_config& sm) {
  if (sm.warp_size < 1) throw input_error("SM '" + sm.name + "': warp size must be at least 1");
  if (sm.schedulers < 0) throw input_error("SM '" + sm.name + "': schedulers must be 0 (no limit) or more");
  normalized_sm out;
  out.schedulers = sm.schedulers;
  for (int u = 0; u < unit_count; ++u) {
    const unit_spec& spec = sm.units[u];
    const std::string what = "SM '" + sm.name + "', unit " + std::string(1, unit_letters[u]);
    if (spec.latency < 1) throw input_error(what + ": latency must be at least 1 cycle");
    // 64 bits throughout: units, warp size and latency may each be up to a million.
    std::int64_t sigma = 0;
    std::int64_t copies = 0;
    if (spec.sigma) {
      // Given directly: an integer >= 1, or 1/k meaning k notional cycles per instruction.
      const sigma_value v = *spec.sigma;
      if (v.num < 1 || v.den < 1 || (v.den > 1 && v.num != 1))
        throw input_error(what + ": sigma must be a positive integer or 1/k");
      sigma = v.den == 1 ? v.num : 1;
      copies = v.den;
    } else if (spec.units > 0) {
      // 000 III-E: sigma_U = units / warp size; a fraction 1/k becomes k copies with sigma_U = 1.
      if (spec.units >= sm.warp_size) {
        if (spec.units % sm.warp_size != 0)
          throw input_error(what + ": " + std::to_string(spec.units) + " units do not divide into warps of " +
                            std::to_string(sm.warp_size) + "; give sigma directly (" +
                            param("sigma", std::string(1, unit_letters[u]) + "=N") + ")");
        sigma = spec.units / sm.warp_size;
        copies = 1;
      } else {
        if (sm.warp_size % spec.units != 0)
          throw input_error(what + ": " + std::to_string(spec.units) + " units do not divide the warp size " +
                            std::to_string(sm.warp_size) + "; give sigma directly (" +
                            param("sigma", std::string(1, unit_letters[u]) + "=1/K") + ")");
        sigma = 1;
        copies = sm.warp_size / spec.units;
      }
    } else if (spec.units < 0) {
      throw input_error(what + ": unit count must not be negative");
    }
    if (sigma > max_sigma)
      throw input_error(what + ": sigma " + std::to_string(sigma) + " is more than the " + std::to_string(max_sigma) +
                        " allowed");
    // Multi-cycle latency: each instruction becomes x_U single-cycle instructions.
    if (sigma > 0) copies *= spec.latency;
    if (copies > max_copies)
      throw input_error(what + ": one instruction would become " + std::to_string(copies) +
                        " single-cycle instructions (1/sigma x latency), more than the " + std::to_string(max_copies) +
                        " allowed");
    out.sigma[u] = static_cast<int>(sigma);
    out.copies[u] = static_cast<int>(copies);
  }
  return out;
}

namespace {
sigma_value parse_sigma_value(std::string_view text, char letter_u) {
  const message what = param("sigma", std::string(1, letter_u) + "=" + std::string(text));
  auto parse_int = [&](std::string_view s) {
    long long v = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
    if (ec == std::errc::result_out_of_range) throw input_error(what + ": '" + std::string(s) + "' is far too large");
    if (ec != std::errc() || p != s.data() + s.size() || s.empty())
      throw input_error(what + ": '" + std::string(s) + "' is not a whole number");
    return v;
  };
  const std::string limits =
      " (sigma at most " + std::to_string(max_sigma) + ", 1/k with k at most " + std::to_string(max_copies) + ")";
  if (auto slash = text.find('/'); slash != std::string_view::npos) {
    const long long num = parse_int(text.substr(0, slash));
    const long long den = parse_int(text.substr(slash + 1));
    if (num < 1 || den < 1) throw input_error(what + ": sigma must be positive");
    if (den % num == 0) {
      if (den / num > max_copies) throw input_error(what + ": too small" + limits);
      return {1, static_cast<int>(den / num)};
    }
    if (num % den == 0) {
      if (num / den > max_sigma) throw input_error(what + ": too large" + limits);
      return {static_cast<int>(num / den), 1};
    }
    throw input_error(what + ": sigma must be a whole number or 1/k");
  }
  if (text.find_first_of(".eE") != std::string_view::npos) {
    double v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec == std::errc::result_out_of_range) throw input_error(what + ": out of range" + limits);
    if (ec != std::errc() || p != text.data() + text.size() || !std::isfinite(v))
      throw input_error(what + ": '" + std::string(text) + "' is not a number");
    if (!(v > 0)) throw input_error(what + ": sigma must be positive");
    // Ranges first: only then may the value become an int.
    if (v >= 1) {
      if (v > max_sigma) throw input_error(what + ": too large" + limits);
      if (v == std::floor(v)) return {static_cast<int>(v), 1};
      throw input_error(what + ": sigma must be a whole number or 1/k");
    }
    const double k = 1.0 / v;
    if (!(k <= max_copies + 0.5)) throw input_error(what + ": too small" + limits);
    if (std::fabs(k - std::round(k)) < 1e-9) return {1, static_cast<int>(std::round(k))};
    throw input_error(what + ": sigma must be a whole number or 1/k");
  }
  const long long v = parse_int(text);
  if (v < 1) throw input_error(what + ": sigma must be at least 1 (zero units cannot run the kernel)");
  if (v > max_sigma) throw input_error(what + ": too large" + limits);
  return {static_cast<int>(v), 1};
}
}  // namespace

void apply_sigma_overrides(sm_config& sm, std::string_view text) {
  std::size_t pos = 0;
  if (text.empty()) throw input_error(param("sigma") + ": empty; expected e.g. L=1,C=4");
  std::array<bool, unit_count> seen{};
  while (pos <= text.size()) {
    std::size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    std::string_view item = text.substr(pos, comma - pos);
    const std::size_t eq = item.find('=');
    if (eq != 1 || item.size() < 3)
      throw input_error(param("sigma") + ": '" + std::string(item) + "' is not of the form U=N (U one of L, C, S, D)");
    const auto u = unit_from_letter(item[0]);
    if (!u)
      throw input_error(param("sigma") + ": unknown unit '" + std::string(1, item[0]) + "' (expected L, C, S or D)");
    if (seen[static_cast<int>(*u)])
      throw input_error(param("sigma") + ": " + std::string(1, item[0]) + " is given twice");
    seen[static_cast<int>(*u)] = true;
    sm.units[static_cast<int>(*u)].sigma = parse_sigma_value(item.substr(2), item[0]);
    sm.units[static_cast<int>(*u)].latency = 1;
    pos = comma + 1;
  }
}

std::string describe(const normalized_sm& norm) {
  std::ostringstream os;
  os << "sigma";
  for (int u = 0; u < unit_count; ++u) {
    if (norm.sigma[u] == 0) continue;
    os << ' ' << unit_letters[u] << '=' << norm.sigma[u];
    if (norm.copies[u] > 1) os << " (x" << norm.copies[u] << " cycles)";
  }
  if (norm.schedulers > 0)
    os << ", at most " << norm.schedulers << " warps issue per cycle";
  else
    os << ", no scheduler limit";
  return os.str();
}

}  // namespace warpspan
