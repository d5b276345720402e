// The progress line of a long command: on a terminal only (stderr), at most five updates a second,
// overwritten in place and cleared when the work ends, so piped or redirected output never sees it.
#pragma once

#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <optional>
#include <string>
#include <utility>

namespace warpspan::cli {

/// The time left of a count, from the rate measured since the first observation: time spent before
/// the counted work began (a set-up, a beam search before the first round) never counts, so the
/// first estimate comes with the second observation that shows progress.
class time_left {
 public:
  /// Seconds left at `s` seconds (any clock) with `done` of `total` done; nullopt until measured.
  std::optional<double> at(double s, std::uint64_t done, std::uint64_t total) {
    if (!base_) {
      base_ = {s, done};
      return std::nullopt;
    }
    if (done <= base_->second || s <= base_->first) return std::nullopt;
    const double rate = static_cast<double>(done - base_->second) / (s - base_->first);
    return static_cast<double>(total > done ? total - done : 0) / rate;
  }

 private:
  std::optional<std::pair<double, std::uint64_t>> base_;
};

class progress_line {
 public:
  /// Shown when `enabled` (not --quiet) and stderr is a terminal.
  progress_line(bool enabled, std::string what)
      : shown_(enabled && isatty(STDERR_FILENO)), what_(std::move(what)), start_(clock::now()) {}
  progress_line(const progress_line&) = delete;
  progress_line& operator=(const progress_line&) = delete;
  ~progress_line() { clear(); }

  /// `done` of `total` (0: total unknown) finished so far; `note` (e.g. the best so far) follows.
  void update(std::uint64_t done, std::uint64_t total = 0, const std::string& note = {}) {
    if (!shown_) return;
    const auto now = clock::now();
    if (drawn_ && now - last_ < std::chrono::milliseconds(200) && done != total) return;
    last_ = now;
    drawn_ = true;
    const double s = std::chrono::duration<double>(now - start_).count();
    if (total > 0) {
      const std::optional<double> left = left_.at(s, done, total);
      char eta[64] = "time left not known yet";
      if (left) std::snprintf(eta, sizeof eta, "about %.0f s left", *left);
      std::fprintf(stderr, "\r[%s %llu/%llu, %.0f%%] %.1f s, %s%s%s   ", what_.c_str(),
                   static_cast<unsigned long long>(done), static_cast<unsigned long long>(total),
                   100.0 * static_cast<double>(done) / static_cast<double>(total), s, eta, note.empty() ? "" : ", ",
                   note.c_str());
    } else {
      std::fprintf(stderr, "\r[%s %llu] %.1f s%s%s   ", what_.c_str(), static_cast<unsigned long long>(done), s,
                   note.empty() ? "" : ", ", note.c_str());
    }
    std::fflush(stderr);
  }

  /// A line of text in place of the counts (a step without a count, e.g. "proving an interval").
  void message(const std::string& text) {
    if (!shown_) return;
    std::fprintf(stderr, "\r%100s\r%s", "", text.c_str());
    std::fflush(stderr);
    drawn_ = true;
  }

  /// Whether the line is drawn at all (a terminal, not --quiet).
  bool shown() const { return shown_; }

  /// Removes the line (before printing a result line on a terminal that shares stdout).
  void clear() {
    if (!drawn_) return;
    std::fprintf(stderr, "\r%100s\r", "");
    std::fflush(stderr);
    drawn_ = false;
  }

 private:
  using clock = std::chrono::steady_clock;
  bool shown_;
  bool drawn_ = false;
  std::string what_;
  clock::time_point start_, last_;
  time_left left_;
};

}  // namespace warpspan::cli
