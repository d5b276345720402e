#include "warpspan/makespan/schedule_table.hpp"

#include <algorithm>
#include <sstream>
#include <stdexcept>
#include <string_view>

#include "warpspan/core/error.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/makespan/schedule.hpp"

namespace warpspan {

namespace {
void check_multiset(const problem& prob, std::span<const std::uint16_t> str) {
  if (str.size() != prob.length())
    throw input_error("warp string: has " + std::to_string(str.size()) + " ids, expected " +
                      (prob.per_warp() ? "the warps' instructions, " : "W x I = ") + std::to_string(prob.length()));
  std::vector<std::uint32_t> count(prob.warps, 0);
  for (std::uint16_t w : str) {
    if (w >= prob.warps) throw input_error("warp string: warp id " + std::to_string(w + 1) + " is more than W");
    ++count[w];
  }
  for (std::uint32_t w = 0; w < prob.warps; ++w)
    if (const std::uint32_t length = warp_length(prob.view(), w); count[w] != length)
      throw input_error("warp string: warp " + std::to_string(w + 1) + " appears " + std::to_string(count[w]) +
                        " times, expected " + (prob.per_warp() ? "its kernel's length " : "I = ") +
                        std::to_string(length));
}
}  // namespace

std::uint32_t build_full_host(const problem_view& p, const chain_view& c) {
  reset_schedule(p, c);
  // next[k * slots + t] leads (through a chain of links, shortened as it is walked) to the first
  // cycle >= t where type k still fits: a cycle's link moves on to t + 1 once the cycle is full for
  // k (or, with a scheduler limit, full for all). Cycle horizon + 1 is never reached (see
  // make_problem), it only ends the links.
  const std::size_t slots = static_cast<std::size_t>(p.horizon) + 2;
  std::vector<std::uint32_t> next(slots * p.ntypes);
  for (std::size_t k = 0; k < p.ntypes; ++k)
    for (std::size_t t = 0; t < slots; ++t) next[k * slots + t] = static_cast<std::uint32_t>(t);
  const auto find = [](std::uint32_t* link, std::uint32_t t) {
    while (link[t] != t) {
      link[t] = link[link[t]];
      t = link[t];
    }
    return t;
  };
  std::uint32_t makespan = 0;
  for (std::uint32_t k = 0; k < p.length; ++k) {
    const std::uint32_t w = c.str[k];
    const std::uint32_t j = c.progress[w];
    const std::uint32_t ty = type_at(p, w, j);
    std::uint32_t* link = next.data() + ty * slots;
    std::uint32_t from = c.last[w] + 1;
    if (after_barrier(p, w, j)) {
      const std::uint32_t release = barrier_release(p, c, w, j);
      if (release == no_schedule) return no_schedule;
      from = release + 1;
    }
    const std::uint32_t t = find(link, from);
    std::uint16_t* row = c.usage + static_cast<std::size_t>(t) * p.stride;
    if (++row[ty] >= p.cap[ty]) link[t] = t + 1;
    if (p.limited && ++row[p.ntypes] >= p.cap[p.ntypes])
      for (std::size_t u = 0; u < p.ntypes; ++u) next[u * slots + t] = t + 1;
    c.cycle[warp_begin(p, w) + j] = t;
    c.last[w] = t;
    c.progress[w] = j + 1;
    makespan = std::max(makespan, t);
  }
  return makespan;
}

namespace {
/// Whether warp w's next instruction (its progress[w]-th) waits for a warp of its block to issue
/// the barrier before it.
bool waits(const problem_view& p, const std::vector<std::uint32_t>& progress, std::uint32_t w) {
  const std::uint32_t j = progress[w];
  if (j >= warp_length(p, w) || !after_barrier(p, w, j)) return false;
  const std::uint32_t first = w / p.block * p.block;
  for (std::uint32_t v = first; v < first + p.block; ++v)
    if (progress[v] <= paired_barrier(p, w, j - 1, v)) return true;
  return false;
}
}  // namespace

void keep_barriers(const problem_view& p, std::vector<std::uint16_t>& str) {
  if (p.barrier == no_barrier) return;
  std::vector<std::uint32_t> progress(p.warps, 0), held(p.warps, 0);
  std::vector<std::uint16_t> out;
  out.reserve(str.size());
  for (const std::uint16_t w : str) {
    if (held[w] > 0 || waits(p, progress, w)) {
      ++held[w];
      continue;
    }
    out.push_back(w);
    ++progress[w];
    // w may have been the last of its block at a barrier: its held warps go on, in warp order, as
    // far as they may, until none can.
    const std::uint32_t first = w / p.block * p.block;
    for (bool again = true; again;) {
      again = false;
      for (std::uint32_t v = first; v < first + p.block; ++v)
        while (held[v] > 0 && !waits(p, progress, v)) {
          out.push_back(static_cast<std::uint16_t>(v));
          ++progress[v];
          --held[v];
          again = true;
        }
    }
  }
  // The least advanced held warp of a block never waits (the barrier before it was issued by all,
  // those at or above it), so nothing is held at the end.
  if (out.size() != str.size()) throw std::logic_error("keep_barriers: ids left held");
  str = std::move(out);
}

std::string barrier_breach(const problem& prob, std::span<const std::uint16_t> str) {
  const problem_view p = prob.view();
  if (p.barrier == no_barrier) return {};
  std::vector<std::uint32_t> progress(p.warps, 0);
  for (std::size_t k = 0; k < str.size(); ++k) {
    const std::uint32_t w = str[k];
    if (waits(p, progress, w)) {
      const std::uint32_t j = progress[w], first = w / p.block * p.block;
      std::uint32_t v = first;
      while (progress[v] > paired_barrier(p, w, j - 1, v)) ++v;
      return "warp string: position " + std::to_string(k + 1) + " puts warp " + std::to_string(w + 1) +
             "'s instruction " + std::to_string(j + 1) + " (after the barrier at instruction " + std::to_string(j) +
             ") before warp " + std::to_string(v + 1) + " of its block has issued that barrier: no schedule does that";
    }
    ++progress[w];
  }
  return {};
}

built_schedule build_schedule(const problem& prob, std::span<const std::uint16_t> str) {
  check_multiset(prob, str);
  const problem_view p = prob.view();
  const chain_layout layout = make_chain_layout(p);
  std::vector<unsigned char> block(layout.bytes);
  const chain_view c = chain_view_at(block.data(), layout);
  std::copy(str.begin(), str.end(), c.str);

  built_schedule out;
  out.makespan = build_full_host(p, c);
  if (out.makespan == no_schedule) throw input_error(barrier_breach(prob, str));  // never empty here
  out.cycle.assign(c.cycle, c.cycle + p.length);
  out.warp_cycle.resize(p.length);
  std::vector<std::uint32_t> seen(p.warps, 0);
  for (std::uint32_t k = 0; k < p.length; ++k) {
    const std::uint32_t w = str[k];
    out.warp_cycle[k] = out.cycle[warp_begin(p, w) + seen[w]++];
  }
  return out;
}

std::vector<std::uint16_t> parse_warp_string(const problem& prob, std::string_view text) {
  std::vector<std::uint16_t> out;
  std::size_t i = 0;
  while (i < text.size()) {
    const char ch = text[i];
    if (ch == ' ' || ch == ',' || ch == '\t' || ch == '\n') {
      ++i;
      continue;
    }
    if (ch < '0' || ch > '9')
      throw input_error("warp string: unexpected '" + std::string(1, ch) + "' at position " + std::to_string(i + 1));
    std::uint64_t v = 0;
    while (i < text.size() && text[i] >= '0' && text[i] <= '9') {
      v = v * 10 + static_cast<std::uint64_t>(text[i] - '0');
      if (v > max_warps) throw input_error("warp string: warp id too large at position " + std::to_string(i + 1));
      ++i;
    }
    if (v == 0) throw input_error("warp string: warp ids start at 1");
    out.push_back(static_cast<std::uint16_t>(v - 1));
  }
  check_multiset(prob, out);
  return out;
}

std::string render_table(const problem& prob, const built_schedule& s, std::size_t width) {
  // One character per cycle keeps 160-cycle schedules readable in a terminal.
  std::ostringstream os;
  const std::uint32_t m = s.makespan;
  // The table grows with W x makespan (about W^2 I / sigma): past max_table_chars it is a note.
  const std::uint64_t chars = (std::uint64_t{prob.warps} + 2) * (std::uint64_t{m} + 10);
  if (chars > max_table_chars)
    return "(table of " + std::to_string(prob.warps) + " warps x " + std::to_string(m) + " cycles omitted: over " +
           std::to_string(max_table_chars >> 20) +
           " MiB of text; warp_cycle_string in the JSON result gives every cycle)\n";
  const std::size_t label = std::max<std::size_t>(9, ("warp " + std::to_string(prob.warps)).size() + 1);
  // Blocks of whole tens of cycles that fit the width (at least 20 cycles a block).
  std::size_t block = m;
  if (width > label + 20) block = std::max<std::size_t>(20, (width - label) / 10 * 10);
  // Every warp's row once, then cut into blocks.
  std::vector<std::string> rows(prob.warps, std::string(m, '.'));
  const problem_view p = prob.view();
  for (std::uint32_t w = 0; w < prob.warps; ++w)
    for (std::uint32_t j = 0; j < warp_length(p, w); ++j)
      rows[w][s.cycle[warp_begin(p, w) + j] - 1] = letter(prob.type_unit[type_at(p, w, j)]);
  for (std::size_t a = 1; a <= m; a += block) {
    const std::size_t b = std::min<std::size_t>(m, a + block - 1), n = b - a + 1;
    if (a > 1) os << '\n';
    // Ruler: the number of every tenth cycle ends above its column; a tick line below.
    std::string numbers(n, ' '), ticks(n, ' ');
    for (std::size_t t = a; t <= b; ++t) {
      if (t % 10 == 0) {
        const std::string text = std::to_string(t);
        const std::size_t end = t - a;  // column of cycle t
        if (end + 1 >= text.size()) numbers.replace(end + 1 - text.size(), text.size(), text);
        ticks[t - a] = '|';
      } else if (t % 5 == 0) {
        ticks[t - a] = '\'';
      }
    }
    if (a == 1 && n >= 1) numbers[0] = numbers[0] == ' ' ? '1' : numbers[0];
    os << std::string("cycle").append(label - 5, ' ') << numbers << '\n' << std::string(label, ' ') << ticks << '\n';
    for (std::uint32_t w = 0; w < prob.warps; ++w) {
      std::string name = "warp " + std::to_string(w + 1);
      name.resize(label, ' ');
      os << name << std::string_view(rows[w]).substr(a - 1, n) << '\n';
    }
  }
  return os.str();
}

}  // namespace warpspan
