// Release jitter, waves and the HWMT (002 Sec. V-B).
#include "warpspan/wcet/concurrency.hpp"

#include <algorithm>
#include <map>
#include <tuple>

namespace warpspan::wcet {

wave_stats find_waves(const std::vector<wave_event>& events) {
  wave_stats w;
  w.sets.emplace_back();
  std::int64_t previous_start = 0;
  for (const auto& e : events) {
    if (e.start) {
      // Delta compares consecutive starts of the same wave only (not s3, s4 in Fig. 6).
      if (!w.sets.back().empty()) w.delta = std::max(w.delta, e.time - previous_start);
      w.sets.back().push_back(e.warp);
      previous_start = e.time;
    } else if (!w.sets.back().empty()) {
      w.sets.emplace_back();  // an exit breaks the stream of starts: the next start opens a wave
    }
  }
  if (w.sets.back().empty()) w.sets.pop_back();
  w.waves = w.sets.size();
  for (const auto& s : w.sets) w.warps_per_wave = std::max<std::uint64_t>(w.warps_per_wave, s.size());
  return w;
}

concurrency_stats analyse_concurrency(const std::vector<wst>& wsts, bool one_clock, std::int64_t probe_cost) {
  concurrency_stats c;
  std::map<std::uint64_t, std::pair<std::int64_t, std::int64_t>> launch;  // run -> first, last on any SM
  std::map<std::pair<std::uint64_t, std::uint64_t>, std::vector<std::size_t>> groups;
  for (std::size_t i = 0; i < wsts.size(); ++i) groups[{wsts[i].key.run, wsts[i].key.sm}].push_back(i);
  for (auto& [key, members] : groups) {
    sm_run r;
    r.run = key.first;
    r.sm = key.second;
    // Events in time order, ties in trace order (a start and an exit at one cycle keep the
    // order the trace gives them).
    std::vector<std::tuple<std::int64_t, std::uint64_t, bool, std::size_t>> ev;
    for (std::size_t i : members) {
      const auto& w = wsts[i];
      ev.emplace_back(w.time.front(), w.index.front(), true, i);
      ev.emplace_back(w.time.back(), w.index.back(), false, i);
    }
    std::sort(ev.begin(), ev.end());
    std::vector<wave_event> events;
    for (const auto& [t, seq, start, i] : ev) {
      events.push_back({t, start, i});
      if (start) r.warps.push_back(i);
    }
    r.first = std::get<0>(ev.front());
    r.last = r.first;
    for (const auto& e : ev) r.last = std::max(r.last, std::get<0>(e));
    r.jitter = wsts[r.warps.back()].time.front() - wsts[r.warps.front()].time.front();
    r.waves = find_waves(events);
    c.jitter = std::max(c.jitter, r.jitter);
    c.hwmt = std::max(c.hwmt, r.last - r.first);
    for (std::size_t i : members) {
      const auto& w = wsts[i];
      const auto transitions = static_cast<std::int64_t>(w.time.size()) - 1;
      const std::int64_t span = std::max<std::int64_t>(0, w.time.back() - w.time.front() - probe_cost * transitions);
      c.hwmt_net = std::max(c.hwmt_net, w.time.front() - r.first + span);
    }
    c.waves = std::max(c.waves, r.waves.waves);
    c.warps_per_wave = std::max(c.warps_per_wave, r.waves.warps_per_wave);
    c.delta = std::max(c.delta, r.waves.delta);
    const auto [it, fresh] = launch.try_emplace(r.run, r.first, r.last);
    if (!fresh) it->second = {std::min(it->second.first, r.first), std::max(it->second.second, r.last)};
    c.sm_runs.push_back(std::move(r));
  }
  if (one_clock) {
    c.hwmt_launch = 0;
    for (const auto& [run, span] : launch) c.hwmt_launch = std::max(*c.hwmt_launch, span.second - span.first);
  }
  return c;
}

}  // namespace warpspan::wcet
