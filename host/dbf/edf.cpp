// The EDF test: utilisation (exact), the interval to check, and the demand check over the points
// where some dbf steps.
//
// Which interval suffices. For t >= P a task's dbf by eq. (1) satisfies dbf(t + P) = dbf(t) + E (both
// terms of the maximum gain E). With H = lcm of the periods, every task gains (H / P_i) E_i over H,
// so for t >= max P the slack s(t) = t - sum dbf(t) satisfies
//     s(t + H) = s(t) + H (1 - U).
// U = 1: the slack repeats with period H from max P on, so every t > H + max P has the slack of some
//   t' in (max P, H + max P]: checking 0 < t <= H + max P decides the set.
// U < 1: the slack only grows from one hyperperiod to the next, so a violation beyond H + max P
//   implies one H earlier; with the classic bound t_max = floor(sum 2E / (1 - U)) the test checks
//   0 < t <= min(t_max, H + max P).
// U > 1: the demand outgrows every interval; not schedulable.
#include "warpspan/dbf/edf.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <queue>

#include "warpspan/core/error.hpp"

namespace warpspan {
namespace {

__extension__ typedef unsigned __int128 u128;

constexpr std::uint64_t t_max_cap = std::uint64_t{1} << 63;
constexpr std::uint64_t hyperperiod_cap = std::uint64_t{1} << 62;

/// A non-negative integer of any size (32-bit limbs, least significant first) with only what the
/// exact utilisation needs: sum E_i / P_i over the lcm of the periods can pass 128 bits.
class big {
 public:
  big() = default;
  explicit big(std::uint64_t v) {
    for (; v != 0; v >>= 32) d_.push_back(static_cast<std::uint32_t>(v));
  }

  big& mul(std::uint64_t m) {
    u128 carry = 0;
    for (auto& x : d_) {
      const u128 p = static_cast<u128>(x) * m + carry;
      x = static_cast<std::uint32_t>(p);
      carry = p >> 32;
    }
    for (; carry != 0; carry >>= 32) d_.push_back(static_cast<std::uint32_t>(carry));
    trim();
    return *this;
  }

  big& add(const big& o) {
    if (d_.size() < o.d_.size()) d_.resize(o.d_.size(), 0);
    std::uint64_t carry = 0;
    for (std::size_t k = 0; k < d_.size(); ++k) {
      const std::uint64_t s = std::uint64_t{d_[k]} + (k < o.d_.size() ? o.d_[k] : 0) + carry;
      d_[k] = static_cast<std::uint32_t>(s);
      carry = s >> 32;
    }
    if (carry != 0) d_.push_back(static_cast<std::uint32_t>(carry));
    return *this;
  }

  /// *this -= o, with *this >= o.
  big& sub(const big& o) {
    std::int64_t borrow = 0;
    for (std::size_t k = 0; k < d_.size(); ++k) {
      std::int64_t s = static_cast<std::int64_t>(d_[k]) - (k < o.d_.size() ? o.d_[k] : 0) - borrow;
      borrow = s < 0 ? 1 : 0;
      if (s < 0) s += std::int64_t{1} << 32;
      d_[k] = static_cast<std::uint32_t>(s);
    }
    trim();
    return *this;
  }

  /// *this /= v (v > 0); returns the remainder.
  std::uint64_t divmod(std::uint64_t v) {
    u128 rem = 0;
    for (std::size_t k = d_.size(); k-- > 0;) {
      const u128 cur = (rem << 32) | d_[k];
      d_[k] = static_cast<std::uint32_t>(cur / v);
      rem = cur % v;
    }
    trim();
    return static_cast<std::uint64_t>(rem);
  }

  std::uint64_t mod(std::uint64_t v) const {
    big copy = *this;
    return copy.divmod(v);
  }

  big shifted(unsigned bits) const {
    big out;
    if (d_.empty()) return out;
    out.d_.assign(bits / 32, 0);
    const unsigned s = bits % 32;
    std::uint32_t carry = 0;
    for (std::uint32_t x : d_) {
      out.d_.push_back(s == 0 ? x : (x << s) | carry);
      carry = s == 0 ? 0 : x >> (32 - s);
    }
    if (carry != 0) out.d_.push_back(carry);
    return out;
  }

  friend big times(const big& a, const big& b) {
    big out;
    out.d_.assign(a.d_.size() + b.d_.size(), 0);
    for (std::size_t i = 0; i < a.d_.size(); ++i) {
      std::uint64_t carry = 0;
      for (std::size_t j = 0; j < b.d_.size(); ++j) {
        const std::uint64_t cur = std::uint64_t{a.d_[i]} * b.d_[j] + out.d_[i + j] + carry;
        out.d_[i + j] = static_cast<std::uint32_t>(cur);
        carry = cur >> 32;
      }
      for (std::size_t k = i + b.d_.size(); carry != 0; ++k) {
        const std::uint64_t cur = std::uint64_t{out.d_[k]} + carry;
        out.d_[k] = static_cast<std::uint32_t>(cur);
        carry = cur >> 32;
      }
    }
    out.trim();
    return out;
  }

  friend int compare(const big& a, const big& b) {
    if (a.d_.size() != b.d_.size()) return a.d_.size() < b.d_.size() ? -1 : 1;
    for (std::size_t k = a.d_.size(); k-- > 0;)
      if (a.d_[k] != b.d_[k]) return a.d_[k] < b.d_[k] ? -1 : 1;
    return 0;
  }

  std::optional<std::uint64_t> to_u64() const {
    if (d_.size() > 2) return std::nullopt;
    std::uint64_t v = 0;
    for (std::size_t k = d_.size(); k-- > 0;) v = (v << 32) | d_[k];
    return v;
  }

  std::string str() const {
    if (d_.empty()) return "0";
    big rest = *this;
    std::string out;
    while (!rest.d_.empty()) {
      std::uint64_t chunk = rest.divmod(1'000'000'000u);
      for (int k = 0; k < 9 && (!rest.d_.empty() || chunk != 0); ++k, chunk /= 10)
        out.push_back(static_cast<char>('0' + chunk % 10));
    }
    std::reverse(out.begin(), out.end());
    return out;
  }

 private:
  void trim() {
    while (!d_.empty() && d_.back() == 0) d_.pop_back();
  }
  std::vector<std::uint32_t> d_;
};

/// floor(n / d) when below 2^63, else 2^63 (d > 0), by binary long division.
std::uint64_t quotient_capped(const big& n, const big& d) {
  if (compare(n, d.shifted(63)) >= 0) return t_max_cap;
  big rem = n;
  std::uint64_t q = 0;
  for (int b = 62; b >= 0; --b) {
    const big s = d.shifted(static_cast<unsigned>(b));
    if (compare(rem, s) >= 0) {
      rem.sub(s);
      q |= std::uint64_t{1} << b;
    }
  }
  return q;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) {
  return a > std::numeric_limits<std::uint64_t>::max() - b ? std::numeric_limits<std::uint64_t>::max() : a + b;
}

/// The largest point <= t at which some dbf steps (0 at the latest).
std::uint64_t prev_point_all(const std::vector<dbf_curve>& curves, std::uint64_t t) {
  std::uint64_t best = 0;
  for (const auto& c : curves) best = std::max(best, c.prev_point(t));
  return best;
}

std::string undecided(const utilization_info& u) {
  return "undecided: U = " + (u.exact.size() <= 80 ? u.exact : std::to_string(u.value)) + "; ";
}

/// Every point in (0, limit] where some dbf steps, in increasing order, until the demand exceeds
/// the interval; returns that point. `points` counts the demand evaluations.
std::optional<std::uint64_t> scan(const std::vector<dbf_curve>& curves, std::uint64_t limit, std::uint64_t& points,
                                  std::uint64_t max_points, const utilization_info& u) {
  // Refuse at once when one task alone has more points than allowed.
  for (const auto& c : curves) {
    const u128 own = (static_cast<u128>(limit / c.period())) * c.residues().size();
    if (own > max_points)
      throw input_error(undecided(u) + "the EDF scan would check more than " + std::to_string(max_points) +
                        " points up to t = " + std::to_string(limit) + " (try " + param("edf", "qpa") + ")");
  }
  struct cursor {
    std::uint64_t t;
    std::size_t task;
    std::uint64_t q;
    std::size_t j;
  };
  auto later = [](const cursor& a, const cursor& b) { return a.t > b.t; };
  std::priority_queue<cursor, std::vector<cursor>, decltype(later)> heap(later);
  for (std::size_t k = 0; k < curves.size(); ++k) heap.push({0, k, 0, 0});
  std::uint64_t last = 0;
  while (!heap.empty()) {
    cursor c = heap.top();
    heap.pop();
    if (c.t > limit) continue;  // this task has no more points in range
    if (c.t > last) {
      last = c.t;
      if (++points > max_points)
        throw input_error(undecided(u) + "the EDF scan would check more than " + std::to_string(max_points) +
                          " points up to t = " + std::to_string(limit) + " (try " + param("edf", "qpa") + ")");
      if (total_demand(curves, c.t) > c.t) return c.t;
    }
    const auto& res = curves[c.task].residues();
    if (++c.j == res.size()) {
      c.j = 0;
      ++c.q;
    }
    const u128 next = static_cast<u128>(c.q) * curves[c.task].period() + res[c.j];
    if (next <= limit) heap.push({static_cast<std::uint64_t>(next), c.task, c.q, c.j});
  }
  return std::nullopt;
}

}  // namespace

std::uint64_t total_demand(const std::vector<dbf_curve>& curves, std::uint64_t t) {
  std::uint64_t sum = 0;
  for (const auto& c : curves) sum = saturating_add(sum, c.at(t));
  return sum;
}

std::uint64_t total_demand_checked(const std::vector<dbf_curve>& curves, std::uint64_t t) {
  u128 sum = 0;
  for (const auto& c : curves) sum += c.at_checked(t);
  if (sum > std::numeric_limits<std::uint64_t>::max())
    throw input_error("sum of dbf at t = " + std::to_string(t) + " does not fit 64 bits");
  return static_cast<std::uint64_t>(sum);
}

utilization_info utilization(const std::vector<dbf_curve>& curves) {
  utilization_info u;
  long double value = 0;
  // U = num / H exactly, H the lcm of the periods.
  big num, H(1), sum_e;
  for (const auto& c : curves) {
    value += static_cast<long double>(c.E()) / static_cast<long double>(c.period());
    sum_e.add(big(c.E()));
    u.max_period = std::max(u.max_period, c.period());
    const std::uint64_t P = c.period();
    const std::uint64_t g = std::gcd(H.mod(P), P);  // gcd(H, P)
    const std::uint64_t f = P / g;
    // num / H + E / P = (num f + E H / g) / (H f)
    big part = H;
    part.divmod(g);
    part.mul(c.E());
    num.mul(f).add(part);
    H.mul(f);
  }
  u.value = static_cast<double>(value);
  u.vs_one = compare(num, H);
  u.at_least_one = u.vs_one >= 0;
  u.exact = num.str() + "/" + H.str();
  const auto h = H.to_u64();
  if (h && *h <= hyperperiod_cap) u.hyperperiod = *h;
  if (u.vs_one < 0) {
    big slack = H;
    slack.sub(num);
    big product = times(sum_e, H);
    product.mul(2);
    u.t_max = quotient_capped(product, slack);
  }
  return u;
}

std::optional<std::uint64_t> edf_limit(const utilization_info& u) {
  if (u.vs_one > 0) return std::nullopt;
  std::optional<std::uint64_t> periodic;
  if (u.hyperperiod) periodic = saturating_add(*u.hyperperiod, u.max_period);
  if (u.vs_one == 0) return periodic;
  return periodic ? std::min(*u.t_max, *periodic) : *u.t_max;
}

edf_method parse_edf_method(std::string_view word) {
  if (word == "scan") return edf_method::scan;
  if (word == "qpa") return edf_method::qpa;
  throw input_error("unknown EDF method '" + std::string(word) + "' (expected qpa or scan)");
}

std::string to_string(edf_method method) { return method == edf_method::scan ? "scan" : "qpa"; }

edf_result edf_test(const std::vector<dbf_curve>& curves, edf_method method, std::uint64_t max_points) {
  edf_result r;
  r.u = utilization(curves);
  if (r.u.vs_one > 0) return r;  // U > 1: not schedulable
  r.limit = edf_limit(r.u);
  if (!r.limit)
    throw input_error(undecided(r.u) +
                      "with U = 1 exactly the test must check every point up to H + max P, and the "
                      "hyperperiod H = lcm of the periods is over 2^62");
  const std::uint64_t limit = *r.limit;
  if (method == edf_method::scan) {
    r.first_violation = scan(curves, limit, r.points, max_points, r.u);
  } else {
    std::uint64_t t = prev_point_all(curves, limit);
    while (t > 0) {
      if (++r.points > max_points)
        throw input_error(undecided(r.u) + "QPA took more than " + std::to_string(max_points) +
                          " steps below t = " + std::to_string(limit));
      const std::uint64_t h = total_demand(curves, t);
      if (h > t) {  // some violation at or below t: the scan finds the first
        r.first_violation = scan(curves, t, r.points, max_points, r.u);
        break;
      }
      if (h == 0) break;
      // Every t' in [h, t] has demand <= h <= t'.
      t = prev_point_all(curves, h - 1);
    }
  }
  r.schedulable = !r.first_violation.has_value();
  return r;
}

}  // namespace warpspan
