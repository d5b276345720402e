#include "warpspan/core/interrupt.hpp"

#include <atomic>
#include <csignal>

namespace warpspan {

namespace {
std::atomic<bool> g_interrupted{false};
static_assert(std::atomic<bool>::is_always_lock_free, "the signal handler needs a lock-free flag");

extern "C" void on_signal(int sig) {
  if (g_interrupted.exchange(true)) std::signal(sig, SIG_DFL);  // second signal: default action next time
}
}  // namespace

void install_interrupt_handlers() {
  std::signal(SIGINT, on_signal);
  std::signal(SIGTERM, on_signal);
}

bool interrupted() noexcept { return g_interrupted.load(std::memory_order_relaxed); }
void request_interrupt() noexcept { g_interrupted.store(true); }
void clear_interrupt() noexcept { g_interrupted.store(false); }

}  // namespace warpspan
