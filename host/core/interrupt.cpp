#include "warpspan/core/interrupt.hpp"

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <thread>

namespace warpspan {

namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_signal(int) {
  // The second signal ends the process at once (a phase that never asks interrupted(), or one that
  // takes long to stop): _exit is async-signal-safe, and 130 is what an interrupted run returns.
  if (g_interrupted.exchange(true)) _exit(interrupted_exit_code);
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
void clear_interrupt() noexcept { g_interrupted.store(false); }

void set_interrupt_exchange(interrupt_exchange_fn exchange) noexcept {
  g_exchange_thread = std::this_thread::get_id();
  g_last_exchange = {};
  g_sent = false;
  g_exchange.store(exchange);
}

}  // namespace warpspan
