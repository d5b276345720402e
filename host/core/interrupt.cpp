#include "warpspan/core/interrupt.hpp"

#include <time.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

namespace warpspan {

namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

/// When the first signal came (CLOCK_MONOTONIC, ns; 0: none yet).
std::atomic<long long> g_first_signal_ns{0};
static_assert(std::atomic<long long>::is_always_lock_free, "the signal handler needs a lock-free clock");

long long monotonic_ns() noexcept {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);  // async-signal-safe
  return static_cast<long long>(ts.tv_sec) * 1'000'000'000LL + ts.tv_nsec;
}

/// A second signal within this long of the first is the same request delivered twice: `timeout`
/// signals the command and then its whole process group, so the command gets two at once.
constexpr long long same_request_ns = 250'000'000LL;

extern "C" void on_signal(int) {
  // The second signal ends the process at once (a phase that never asks interrupted(), or one that
  // takes long to stop): _exit is async-signal-safe, and 130 is what an interrupted run returns.
  const long long now = monotonic_ns();
  long long first = 0;
  if (g_first_signal_ns.compare_exchange_strong(first, now)) {
    g_interrupted.store(true);
    return;
  }
  if (now - first >= same_request_ns) _exit(interrupted_exit_code);
  g_interrupted.store(true);
}

// The exchange with other processes (set_interrupt_exchange), called from interrupted() on the
// thread that set it, at most every 20 ms.
std::atomic<interrupt_exchange_fn> g_exchange{nullptr};
std::thread::id g_exchange_thread;
std::chrono::steady_clock::time_point g_last_exchange;
bool g_sent = false;

void exchange_now() {
  const interrupt_exchange_fn f = g_exchange.load(std::memory_order_acquire);
  if (f == nullptr || std::this_thread::get_id() != g_exchange_thread) return;
  const auto now = std::chrono::steady_clock::now();
  const bool mine = g_interrupted.load(std::memory_order_relaxed);
  if (mine && g_sent) return;
  if (!mine && now - g_last_exchange < std::chrono::milliseconds(20)) return;
  g_last_exchange = now;
  if (f(mine && !g_sent)) g_interrupted.store(true);
  g_sent = g_sent || mine;
}
}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

bool interrupted() noexcept {
  if (g_exchange.load(std::memory_order_relaxed) != nullptr) exchange_now();
  return g_interrupted.load(std::memory_order_relaxed);
}
void request_interrupt() noexcept { g_interrupted.store(true); }
void clear_interrupt() noexcept {
  g_interrupted.store(false);
  g_first_signal_ns.store(0);
}

void set_interrupt_exchange(interrupt_exchange_fn exchange) noexcept {
  g_exchange_thread = std::this_thread::get_id();
  g_last_exchange = {};
  g_sent = false;
  g_exchange.store(exchange);
}

}  // namespace warpspan
