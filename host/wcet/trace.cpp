// Trace reading, slicing into WSTs and parsing them with the IPG (002 Sec. II-B, V-A).
#include "warpspan/wcet/trace.hpp"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstring>
#include <map>
#include <optional>
#include <set>
#include <sstream>
#include <unordered_map>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"
#include "warpspan/wcet/collect.hpp"

namespace warpspan::wcet {

namespace {

constexpr std::string_view binary_magic = "WSWCET01";
/// Records beyond this are refused (about 4 GiB of memory).
constexpr std::size_t max_records = std::size_t{1} << 27;
/// Times beyond 2^62 are refused, so that differences and sums of a few stay in 64 bits (a raw
/// %clock64 is far below: 2^62 cycles are 70 years at 2 GHz).
constexpr std::int64_t max_time = std::int64_t{1} << 62;

std::string at(const std::string& path, std::uint64_t line) { return path + ":" + std::to_string(line) + ": "; }

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

template <class T>
bool parse_int(std::string_view s, T& out, int base = 10) {
  if (base == 16 && s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) s.remove_prefix(2);
  if (s.empty()) return false;
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out, base);
  return ec == std::errc() && end == s.data() + s.size();
}

std::unordered_map<std::string, ipoint_id> name_index(const ipg& graph) {
  std::unordered_map<std::string, ipoint_id> m;
  for (ipoint_id i = 0; i < graph.names.size(); ++i) m.emplace(graph.names[i], i);
  return m;
}

void push(trace_set& set, const trace_record& r, const std::string& path) {
  if (set.records.size() >= max_records)
    throw input_error(at(path, r.line) + "more than " + std::to_string(max_records) + " trace records");
  set.records.push_back(r);
}

void read_text(const std::string& path, std::string_view content, const ipg& graph, trace_set& set,
               std::uint32_t file) {
  const auto names = name_index(graph);
  std::uint64_t line_no = 0;
  std::size_t pos = 0;
  while (pos < content.size()) {
    std::size_t nl = content.find('\n', pos);
    if (nl == std::string_view::npos) nl = content.size();
    std::string_view line = content.substr(pos, nl - pos);
    pos = nl + 1;
    ++line_no;
    if (const auto hash = line.find('#'); hash != std::string_view::npos) {
      // `# clock: global` (one clock across SMs) or `# clock: sm` (each SM its own)
      const std::string_view note = trim(line.substr(hash + 1));
      if (note.rfind("clock:", 0) == 0) {
        const std::string_view value = trim(note.substr(6));
        if (value != "global" && value != "sm")
          throw input_error(at(path, line_no) + "clock " + quote_text(value) + " is not 'global' or 'sm'");
        set.one_clock[file] = value == "global";
      }
      line = line.substr(0, hash);
    }
    line = trim(line);
    if (line.empty()) continue;
    std::vector<std::string_view> f;
    std::size_t i = 0;
    while (i < line.size()) {
      while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) ++i;
      const std::size_t start = i;
      while (i < line.size() && line[i] != ' ' && line[i] != '\t') ++i;
      if (i > start) f.push_back(line.substr(start, i - start));
    }
    if (f.size() != 6)
      throw input_error(at(path, line_no) + "expected 6 fields 'run sm cta warp ipoint time', found " +
                        std::to_string(f.size()));
    trace_record r;
    r.file = file;
    r.line = line_no;
    const char* what[] = {"run", "sm", "cta", "warp"};
    std::uint64_t* dst[] = {&r.run, &r.sm, &r.cta, &r.warp};
    for (int k = 0; k < 4; ++k)
      if (!parse_int(f[static_cast<std::size_t>(k)], *dst[k]))
        throw input_error(at(path, line_no) + what[k] + " " + quote_text(f[static_cast<std::size_t>(k)]) +
                          " is not a non-negative integer");
    const auto it = names.find(std::string(f[4]));
    if (it == names.end()) throw input_error(at(path, line_no) + "unknown Ipoint " + quote_text(f[4]));
    r.ipoint = it->second;
    if (!parse_int(f[5], r.time) || r.time < 0 || r.time > max_time)
      throw input_error(at(path, line_no) + "time " + quote_text(f[5]) + " is not an integer in 0.." +
                        std::to_string(max_time));
    push(set, r, path);
  }
}

/// A line of stock GPGPU-Sim's warp-scheduler trace (built with TRACE=1, run with -trace_enabled 1
/// -trace_components WARP_SCHEDULER -trace_sampling_core -1; src/gpgpu-sim/shader_trace.h and
/// shader.cc, 4.0.0 and 4.2.0): "GPGPU-Sim Cycle C: WARP_SCHEDULER - Core K - Scheduler S - Warp
/// (warp_id W, dynamic_warp_id D) REST".
struct scheduler_line {
  std::uint64_t cycle = 0, core = 0, dynamic_warp = 0;
  std::string_view rest;
};

/// A warp-scheduler line about an instruction ("has valid instruction (" or "issued "), whether or
/// not its numbers parse: one that does not parse must not vanish (a loop iteration would).
bool names_an_instruction(std::string_view line) {
  return line.rfind("GPGPU-Sim Cycle ", 0) == 0 && line.find(": WARP_SCHEDULER - ") != std::string_view::npos &&
         (line.find(") has valid instruction (") != std::string_view::npos ||
          line.find(") issued ") != std::string_view::npos);
}

/// What is wrong with a line names_an_instruction() holds that parse_scheduler_line() refuses: the
/// first of its cycle, core and dynamic warp id that is not a non-negative integer.
std::string scheduler_line_fault(std::string_view line) {
  const auto between = [&](std::string_view before, std::string_view after) -> std::optional<std::string_view> {
    const auto from = line.find(before);
    if (from == std::string_view::npos) return std::nullopt;
    const auto start = from + before.size(), end = line.find(after, start);
    return line.substr(start, end == std::string_view::npos ? std::string_view::npos : end - start);
  };
  const std::pair<const char*, std::optional<std::string_view>> fields[] = {
      {"cycle", between("GPGPU-Sim Cycle ", ": WARP_SCHEDULER")},
      {"core", between(": WARP_SCHEDULER - Core ", " - ")},
      {"dynamic_warp_id", between(", dynamic_warp_id ", ")")}};
  std::uint64_t v = 0;
  for (const auto& [name, text] : fields) {
    if (!text) return std::string("no ") + name + " on a warp-scheduler line";
    if (!parse_int(*text, v)) return std::string(name) + " " + quote_text(*text) + " is not a non-negative integer";
  }
  return "not of the form 'GPGPU-Sim Cycle C: WARP_SCHEDULER - Core K - Scheduler S - Warp (warp_id W, dynamic_warp_id "
         "D)'";
}

bool parse_scheduler_line(std::string_view line, scheduler_line& out) {
  constexpr std::string_view head = "GPGPU-Sim Cycle ";
  if (line.rfind(head, 0) != 0) return false;
  line.remove_prefix(head.size());
  const auto colon = line.find(": WARP_SCHEDULER - Core ");
  if (colon == std::string_view::npos || !parse_int(line.substr(0, colon), out.cycle)) return false;
  line.remove_prefix(colon + std::string_view(": WARP_SCHEDULER - Core ").size());
  const auto dash = line.find(" - ");
  if (dash == std::string_view::npos || !parse_int(line.substr(0, dash), out.core)) return false;
  const auto warp = line.find("Warp (warp_id ");
  const auto dyn = line.find(", dynamic_warp_id ");
  const auto close = line.find(") ", dyn == std::string_view::npos ? 0 : dyn);
  if (warp == std::string_view::npos || dyn == std::string_view::npos || close == std::string_view::npos) return false;
  const std::size_t from = dyn + std::string_view(", dynamic_warp_id ").size();
  if (!parse_int(line.substr(from, close - from), out.dynamic_warp)) return false;
  out.rest = line.substr(close + 2);
  return true;
}

/// The instruction of "has valid instruction (...)": " PC=0x040 (file.ptx:12) ld..." from PTX, or
/// "<no instruction at address 0x40>" where the simulator has no PTX (Accel-Sim's trace mode).
/// Gives the address and the source line (0 when none).
bool parse_scheduler_instruction(std::string_view text, std::uint64_t& address, std::uint64_t& source_line) {
  source_line = 0;
  std::size_t at = text.find("PC=0x");
  std::size_t skip = 3;
  if (at == std::string_view::npos) at = text.find("address 0x"), skip = 8;
  if (at == std::string_view::npos) return false;
  std::size_t end = at + skip + 2;  // past "0x"
  while (end < text.size() && std::isxdigit(static_cast<unsigned char>(text[end])) != 0) ++end;
  if (!parse_int(text.substr(at + skip, end - at - skip), address, 16)) return false;
  const auto open = text.find('(', end), colon = text.find(':', open == std::string_view::npos ? end : open),
             shut = text.find(')', colon == std::string_view::npos ? end : colon);
  if (open != std::string_view::npos && colon != std::string_view::npos && shut != std::string_view::npos)
    parse_int(text.substr(colon + 1, shut - colon - 1), source_line);
  return true;
}

/// `Issued: PC = 0x0040, Warp = 3, SM = 1, cycle = 1234` (the paper's patched simulator) or stock
/// GPGPU-Sim's warp-scheduler trace (scheduler_line); other lines are the simulator's own output.
void read_gpgpusim(const std::string& path, std::string_view content, const ipg& graph, trace_set& set,
                   std::uint32_t file, std::uint64_t run) {
  const auto names = name_index(graph);
  std::map<std::uint64_t, ipoint_id> by_line;  // PTX source line of a block's first instruction
  for (ipoint_id i = 0; i < graph.line.size(); ++i)
    if (graph.line[i] > 0) by_line.emplace(static_cast<std::uint64_t>(graph.line[i]), i);
  // Ipoints named by numbers are addresses, in a CFG JSON only: from PTX, numbers are probe ids.
  std::map<std::uint64_t, ipoint_id> by_address;
  for (ipoint_id i = 0; i < graph.names.size() && by_line.empty(); ++i) {
    std::uint64_t a = 0;
    const std::string& n = graph.names[i];
    if (n.rfind("0x", 0) == 0 ? parse_int(std::string_view(n), a, 16) : parse_int(std::string_view(n), a))
      by_address.emplace(a, i);
  }
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::pair<std::uint64_t, ipoint_id>> slot;  // instance, last
  // Stock scheduler trace: the instruction a warp is about to issue, per (core, dynamic warp).
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::string_view> offered;
  // A hardware warp slot runs many warps: one that starts over at s after reaching t is a new warp.
  const auto emit = [&](trace_record r) {
    auto [it, fresh] = slot.try_emplace({r.sm, r.warp}, std::pair<std::uint64_t, ipoint_id>{0, r.ipoint});
    if (!fresh) {
      if (it->second.second == graph.sink && r.ipoint == graph.source) ++it->second.first;
      it->second.second = r.ipoint;
    }
    r.cta = it->second.first;
    push(set, r, path);
  };
  std::uint64_t line_no = 0;
  std::size_t pos = 0;
  while (pos < content.size()) {
    std::size_t nl = content.find('\n', pos);
    if (nl == std::string_view::npos) nl = content.size();
    std::string_view line = trim(content.substr(pos, nl - pos));
    pos = nl + 1;
    ++line_no;
    if (scheduler_line sl; parse_scheduler_line(line, sl)) {
      const std::pair<std::uint64_t, std::uint64_t> key{sl.core, sl.dynamic_warp};
      if (sl.rest.rfind("has valid instruction (", 0) == 0) {
        offered[key] = sl.rest;
        continue;
      }
      if (sl.rest.rfind("issued ", 0) != 0) continue;
      const auto it = offered.find(key);
      if (it == offered.end())
        throw input_error(at(path, line_no) + "core " + std::to_string(sl.core) + " dynamic warp " +
                          std::to_string(sl.dynamic_warp) + " issues without a 'has valid instruction' line before it");
      std::uint64_t address = 0, source_line = 0;
      if (!parse_scheduler_instruction(it->second, address, source_line))
        throw input_error(at(path, line_no) + "no 'PC=0x...' or 'address 0x...' in the instruction " +
                          quote_text(it->second));
      offered.erase(it);
      if (sl.cycle > static_cast<std::uint64_t>(max_time))
        throw input_error(at(path, line_no) + "cycle over " + std::to_string(max_time));
      trace_record r;
      r.file = file;
      r.line = line_no;
      r.run = run;
      r.sm = sl.core;
      r.warp = sl.dynamic_warp;  // unique per core and launch (the slot, warp_id, is reused)
      r.time = static_cast<std::int64_t>(sl.cycle);
      // The block whose first instruction this is, by PTX line (--ptx) or by address (Ipoints named
      // by numbers); any other instruction is no Ipoint.
      if (const auto b = by_line.find(source_line); source_line > 0 && b != by_line.end()) {
        r.ipoint = b->second;
      } else if (const auto a = by_address.find(address); by_line.empty() && a != by_address.end()) {
        r.ipoint = a->second;
      } else {
        ++set.skipped;
        continue;
      }
      emit(r);
      continue;
    }
    if (names_an_instruction(line))
      throw input_error(at(path, line_no) + scheduler_line_fault(line) +
                        " (a warp-scheduler line about an instruction)");
    if (line.rfind("Issued:", 0) != 0) continue;
    line.remove_prefix(7);
    std::map<std::string, std::string_view> kv;
    std::size_t i = 0;
    while (i <= line.size()) {
      std::size_t comma = line.find(',', i);
      if (comma == std::string_view::npos) comma = line.size();
      const std::string_view item = trim(line.substr(i, comma - i));
      const std::size_t eq = item.find('=');
      if (eq == std::string_view::npos)
        throw input_error(at(path, line_no) + "expected 'KEY = VALUE' items, found " + quote_text(item));
      kv[std::string(trim(item.substr(0, eq)))] = trim(item.substr(eq + 1));
      i = comma + 1;
    }
    for (const char* key : {"PC", "Warp", "SM", "cycle"})
      if (!kv.count(key)) throw input_error(at(path, line_no) + "no '" + key + " =' on an Issued line");
    trace_record r;
    r.file = file;
    r.line = line_no;
    r.run = run;
    if (!parse_int(kv["Warp"], r.warp) || !parse_int(kv["SM"], r.sm) || !parse_int(kv["cycle"], r.time) || r.time < 0 ||
        r.time > max_time)
      throw input_error(at(path, line_no) + "Warp, SM and cycle must be non-negative integers (cycle at most " +
                        std::to_string(max_time) + ")");
    const std::string pc(kv["PC"]);
    if (const auto it = names.find(pc); it != names.end()) {
      r.ipoint = it->second;
    } else {
      std::uint64_t a = 0;
      const bool ok =
          pc.rfind("0x", 0) == 0 ? parse_int(std::string_view(pc), a, 16) : parse_int(std::string_view(pc), a);
      if (!ok) throw input_error(at(path, line_no) + "PC " + quote_text(pc) + " is neither an Ipoint nor an address");
      const auto found = by_address.find(a);
      if (found == by_address.end()) {  // the simulator logs every instruction; only Ipoints count
        ++set.skipped;
        continue;
      }
      r.ipoint = found->second;
    }
    emit(r);
  }
}

template <class T>
T get(std::string_view data, std::size_t& pos, const std::string& path) {
  if (data.size() - pos < sizeof(T))
    throw input_error(path + ": binary trace ends early (byte " + std::to_string(pos) + ")");
  T v;
  std::memcpy(&v, data.data() + pos, sizeof(T));
  pos += sizeof(T);
  return v;
}

void read_binary(const std::string& path, std::string_view data, const ipg& graph, trace_set& set, std::uint32_t file) {
  if (data.substr(0, binary_magic.size()) != binary_magic)
    throw input_error(path + ": not a warpspan binary trace (no WSWCET01 header)");
  std::size_t pos = binary_magic.size();
  const auto cost = get<std::int64_t>(data, pos, path);
  if (cost < -1 || cost > max_header_probe_cost)
    throw input_error(path + ": malformed binary trace header: empty-probe cost " + std::to_string(cost) +
                      " is not in 0.." + std::to_string(max_header_probe_cost) + " cycles (or -1: not measured)");
  set.probe_cost = std::max(set.probe_cost, cost);
  const auto count = get<std::uint32_t>(data, pos, path);
  // Every name takes its 4-byte length at least, and the record count (8 bytes) follows them: a
  // header claiming more names than the bytes left can hold is refused before anything is allocated.
  const std::size_t left = data.size() - pos;
  if (left < 8 || count > (left - 8) / 4)
    throw input_error(path + ": malformed binary trace header: " + std::to_string(count) + " Ipoint names, but " +
                      std::to_string(left) + " bytes follow (a name takes 4 at least)");
  const auto names = name_index(graph);
  std::vector<std::int64_t> map(count, -1);
  std::vector<std::string_view> file_names(count);  // views into data: no copy per name
  for (std::uint32_t i = 0; i < count; ++i) {
    const auto len = get<std::uint32_t>(data, pos, path);
    if (len > data.size() - pos) throw input_error(path + ": binary trace ends inside an Ipoint name");
    file_names[i] = data.substr(pos, len);
    pos += len;
    if (const auto it = names.find(std::string(file_names[i])); it != names.end()) map[i] = it->second;
  }
  const auto records = get<std::uint64_t>(data, pos, path);
  if (records > (data.size() - pos) / 32) throw input_error(path + ": binary trace holds fewer records than it says");
  for (std::uint64_t k = 0; k < records; ++k) {
    trace_record r;
    r.file = file;
    r.line = k + 1;
    r.run = get<std::uint32_t>(data, pos, path);
    r.sm = get<std::uint32_t>(data, pos, path);
    r.cta = get<std::uint32_t>(data, pos, path);
    r.warp = get<std::uint32_t>(data, pos, path);
    const auto ip = get<std::uint32_t>(data, pos, path);
    (void)get<std::uint32_t>(data, pos, path);
    r.time = get<std::int64_t>(data, pos, path);
    if (ip >= count) throw input_error(at(path, r.line) + "Ipoint index " + std::to_string(ip) + " out of range");
    if (map[ip] < 0) throw input_error(at(path, r.line) + "unknown Ipoint " + quote_text(file_names[ip]));
    if (r.time < 0 || r.time > max_time)
      throw input_error(at(path, r.line) + "time out of 0.." + std::to_string(max_time));
    r.ipoint = static_cast<ipoint_id>(map[ip]);
    push(set, r, path);
  }
}

template <class T>
void put(std::string& out, T v) {
  out.append(reinterpret_cast<const char*>(&v), sizeof v);
}

}  // namespace

trace_format parse_trace_format(std::string_view word) {
  if (word == "auto") return trace_format::automatic;
  if (word == "text") return trace_format::text;
  if (word == "gpgpusim") return trace_format::gpgpusim;
  if (word == "binary") return trace_format::binary;
  throw input_error(param("trace_format") + ": '" + std::string(word) + "' is not one of auto, text, gpgpusim, binary");
}

void read_trace(const std::string& path, std::string_view content, trace_format format, const ipg& graph,
                trace_set& set) {
  const auto file = static_cast<std::uint32_t>(set.files.size());
  set.files.push_back(path);
  set.one_clock.push_back(format == trace_format::gpgpusim);  // text: until a `# clock:` line says
  if (format == trace_format::automatic)
    format = content.substr(0, binary_magic.size()) == binary_magic ? trace_format::binary : trace_format::text;
  if (format != trace_format::binary && content.find('\0') != std::string_view::npos)
    throw input_error(path + ": binary data in a text trace");
  switch (format) {
    case trace_format::text: read_text(path, content, graph, set, file); break;
    case trace_format::gpgpusim: read_gpgpusim(path, content, graph, set, file, file); break;
    default: read_binary(path, content, graph, set, file); break;
  }
}

std::string binary_trace(const std::vector<std::string>& names, const std::vector<trace_record>& records,
                         std::int64_t probe_cost) {
  std::string out(binary_magic);
  put<std::int64_t>(out, probe_cost);
  put<std::uint32_t>(out, static_cast<std::uint32_t>(names.size()));
  for (const auto& n : names) {
    put<std::uint32_t>(out, static_cast<std::uint32_t>(n.size()));
    out += n;
  }
  put<std::uint64_t>(out, records.size());
  for (const auto& r : records) {
    for (std::uint64_t v : {r.run, r.sm, r.cta, r.warp}) put<std::uint32_t>(out, static_cast<std::uint32_t>(v));
    put<std::uint32_t>(out, r.ipoint);
    put<std::uint32_t>(out, 0);
    put<std::int64_t>(out, r.time);
  }
  return out;
}

std::optional<bool> parse_trace_clock(std::string_view word) {
  if (word == "auto") return std::nullopt;
  if (word == "global") return true;
  if (word == "sm") return false;
  throw input_error(param("clock") + ": '" + std::string(word) + "' is not one of auto, sm, global");
}

std::string text_trace(const std::vector<std::string>& names, const std::vector<trace_record>& records,
                       const std::string& comment, bool one_clock) {
  std::ostringstream out;
  std::istringstream lines(comment);
  for (std::string l; std::getline(lines, l);) out << "# " << l << '\n';
  out << "# clock: " << (one_clock ? "global" : "sm") << '\n';
  out << "# run sm cta warp ipoint time\n";
  for (const auto& r : records)
    out << r.run << ' ' << r.sm << ' ' << r.cta << ' ' << r.warp << ' ' << names.at(r.ipoint) << ' ' << r.time << '\n';
  return out.str();
}

namespace {
/// The probe's records as trace records, with the names their Ipoints get (see probe_text_trace).
std::pair<std::vector<std::string>, std::vector<trace_record>> probe_records(
    const std::vector<collected_record>& records, const std::vector<std::string>& names) {
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::int64_t> origin;  // (run, sm): first clock
  for (const auto& r : records) {
    const auto [it, fresh] = origin.try_emplace({r.run, r.sm}, r.clock);
    if (!fresh) it->second = std::min(it->second, r.clock);
  }
  std::vector<std::string> table = names;
  std::map<std::uint32_t, std::uint32_t> index;  // id -> row of the table, when named by ids
  if (names.empty()) {
    for (const auto& r : records) index.emplace(r.ipoint, 0);
    for (auto& [id, row] : index) {
      row = static_cast<std::uint32_t>(table.size());
      table.push_back(std::to_string(id));
    }
  }
  std::vector<trace_record> out;
  out.reserve(records.size());
  for (const auto& r : records) {
    if (!names.empty() && r.ipoint >= names.size())
      throw input_error("the probe recorded Ipoint " + std::to_string(r.ipoint) +
                        ", and the Ipoint names given stop at " + std::to_string(names.size() - 1));
    trace_record t;
    t.run = r.run;
    t.sm = r.sm;
    t.cta = r.cta;
    t.warp = r.warp;
    t.ipoint = names.empty() ? index.at(r.ipoint) : r.ipoint;
    t.time = r.clock - origin.at({r.run, r.sm});
    out.push_back(t);
  }
  return {std::move(table), std::move(out)};
}
}  // namespace

std::string probe_text_trace(const std::vector<collected_record>& records, const std::string& comment,
                             const std::vector<std::string>& names) {
  const auto [table, converted] = probe_records(records, names);
  return text_trace(table, converted, comment, false);
}

std::string probe_binary_trace(const std::vector<collected_record>& records, std::int64_t probe_cost,
                               const std::vector<std::string>& names) {
  const auto [table, converted] = probe_records(records, names);
  return binary_trace(table, converted, probe_cost);
}

std::vector<wst> slice_traces(const trace_set& set) {
  std::vector<wst> out;
  std::map<warp_key, std::size_t> index;
  for (std::size_t i = 0; i < set.records.size(); ++i) {
    const auto& r = set.records[i];
    const warp_key key{r.run, r.sm, r.cta, r.warp};
    const auto [it, fresh] = index.try_emplace(key, out.size());
    if (fresh) out.push_back(wst{key, {}, {}, {}});
    wst& w = out[it->second];
    if (!w.time.empty() && r.time < w.time.back())
      throw input_error(at(set.files[r.file], r.line) + "time " + std::to_string(r.time) + " of warp (run " +
                        std::to_string(r.run) + ", sm " + std::to_string(r.sm) + ", cta " + std::to_string(r.cta) +
                        ", warp " + std::to_string(r.warp) + ") is before its previous record's " +
                        std::to_string(w.time.back()));
    w.ipoints.push_back(r.ipoint);
    w.time.push_back(r.time);
    w.index.push_back(i);
  }
  return out;
}

trace_observations observe(const std::vector<wst>& wsts, const ipg& graph, const trace_set& set,
                           std::int64_t probe_cost) {
  trace_observations obs;
  obs.edges.assign(graph.edges.size(), {});
  obs.loop_bound.assign(graph.loops.size(), 0);
  obs.loop_entries.assign(graph.loops.size(), 0);
  std::set<std::uint64_t> runs;
  const auto where = [&](const wst& w, std::size_t k) {
    const auto& r = set.records[w.index[k]];
    return at(set.files[r.file], r.line);
  };
  const auto who = [](const wst& w) {
    return "warp (run " + std::to_string(w.key.run) + ", sm " + std::to_string(w.key.sm) + ", cta " +
           std::to_string(w.key.cta) + ", warp " + std::to_string(w.key.warp) + ")";
  };
  std::vector<std::uint64_t> count(graph.edges.size());
  std::vector<std::uint64_t> iterations(graph.loops.size());
  // Visits per pass (ipet_visit_bound): an Ipoint's count restarts with each edge entering or
  // iterating its innermost loop.
  const auto scope = innermost_loops(graph);
  std::vector<std::vector<ipoint_id>> scoped(graph.loops.size());
  for (ipoint_id v = 0; v < graph.names.size(); ++v)
    if (scope[v] >= 0) scoped[static_cast<std::size_t>(scope[v])].push_back(v);
  obs.visits_per_pass.assign(graph.names.size(), 0);
  obs.visits_unbounded.assign(graph.names.size(), false);
  std::vector<std::uint64_t> visits(graph.names.size());
  std::vector<bool> passing(graph.loops.size());  // a pass of the loop has started in this warp
  const auto visit = [&](ipoint_id v) {
    obs.visits_per_pass[v] = std::max(obs.visits_per_pass[v], ++visits[v]);
    if (scope[v] >= 0 && !passing[static_cast<std::size_t>(scope[v])]) obs.visits_unbounded[v] = true;
  };
  for (const auto& w : wsts) {
    runs.insert(w.key.run);
    if (w.ipoints.front() != graph.source)
      throw input_error(where(w, 0) + who(w) + " starts at Ipoint '" + graph.names[w.ipoints.front()] +
                        "', not at the entry's '" + graph.names[graph.source] + "'");
    std::fill(count.begin(), count.end(), 0);
    std::fill(iterations.begin(), iterations.end(), 0);
    std::int64_t length = 0;
    std::fill(visits.begin(), visits.end(), 0);
    for (std::size_t l = 0; l < graph.loops.size(); ++l) passing[l] = graph.loops[l].entered_at_start;
    visit(w.ipoints.front());
    for (std::size_t k = 1; k < w.ipoints.size(); ++k) {
      const int e = graph.edge_index(w.ipoints[k - 1], w.ipoints[k]);
      if (e < 0)
        throw input_error(where(w, k) + who(w) + " goes from Ipoint '" + graph.names[w.ipoints[k - 1]] + "' to '" +
                          graph.names[w.ipoints[k]] + "', which no path of the program (with divergent edges) does");
      const auto& edge = graph.edges[static_cast<std::size_t>(e)];
      auto& o = obs.edges[static_cast<std::size_t>(e)];
      o.seen = true;
      const std::int64_t gap = w.time[k] - w.time[k - 1], net = std::max<std::int64_t>(0, gap - probe_cost);
      if (obs.shortest_transition < 0 || gap < obs.shortest_transition)
        obs.shortest_transition = gap, obs.shortest_record = w.index[k];
      o.wcet = std::max(o.wcet, net);
      length += net;
      ++o.total;
      o.max_count = std::max(o.max_count, ++count[static_cast<std::size_t>(e)]);
      for (std::uint32_t l : edge.enters) {
        iterations[l] = 0;
        ++obs.loop_entries[l];
      }
      for (std::uint32_t l : edge.iterates) obs.loop_bound[l] = std::max(obs.loop_bound[l], ++iterations[l]);
      for (const auto* loops : {&edge.enters, &edge.iterates})
        for (std::uint32_t l : *loops) {
          passing[l] = true;
          for (ipoint_id v : scoped[l]) visits[v] = 0;
        }
      visit(w.ipoints[k]);
    }
    if (w.ipoints.back() != graph.sink)
      throw input_error(where(w, w.ipoints.size() - 1) + who(w) + " ends at Ipoint '" + graph.names[w.ipoints.back()] +
                        "', not at the exit's '" + graph.names[graph.sink] + "' (a trace cut short?)");
    obs.longest_wst = std::max(obs.longest_wst, w.time.back() - w.time.front());
    obs.longest_wst_net = std::max(obs.longest_wst_net, length);
  }
  obs.runs = runs.size();
  obs.warps = wsts.size();
  return obs;
}

}  // namespace warpspan::wcet
