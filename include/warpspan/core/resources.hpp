// What this machine can give: threads and memory. Every analysis sizes itself by these instead of
// trusting a number from the command line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "warpspan/core/error.hpp"

namespace warpspan {

/// Most threads any command accepts: 4 per core, at most 256 (more only slows the run down).
int max_threads();
/// `requested` threads: 0 means all cores; more than max_threads() or fewer than 0 is an input_error
/// naming `option` (a parameter, core/error.hpp).
int resolve_threads(long long requested, const message& option = param("threads"));

/// Memory the OS says is available now (MemAvailable, and the cgroup limit when tighter), in bytes;
/// falls back to 8 GiB when neither can be read.
std::uint64_t available_memory_bytes();
/// A budget for one allocation-heavy structure: min(cap, available_memory_bytes() * 3 / 4).
std::uint64_t memory_budget_bytes(std::uint64_t cap);
/// The share of a GPU's free memory one plan may take: 90 % (the runtime, the stream-ordered pool's
/// cache and other processes keep the rest). Every CUDA backend plans with it, and so do the
/// host-side twins of their plans (chains.hpp).
constexpr std::size_t usable_device_bytes(std::size_t free_bytes) { return free_bytes / 10 * 9; }

/// A fixed set of worker threads kept for a whole run. run(n, f) calls f(i) for i in [0, n), item i
/// on thread i % size() (interleaved: items of unequal cost balance), and returns when all are done.
/// If the OS refuses to create some threads the pool keeps those it got (at least the caller's).
/// An exception thrown by f is rethrown by run() after every worker finished its items. run() may
/// be called from several threads (the dbf stream's two chunks in flight): the calls take turns, so
/// f must not call run() on the same pool.
class thread_pool {
 public:
  explicit thread_pool(int threads);
  ~thread_pool();
  thread_pool(const thread_pool&) = delete;
  thread_pool& operator=(const thread_pool&) = delete;

  int size() const noexcept;
  void run(std::size_t n, const std::function<void(std::size_t)>& f);

 private:
  struct impl;
  std::unique_ptr<impl> impl_;
};

}  // namespace warpspan
