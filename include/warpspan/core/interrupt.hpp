// Ctrl-C (SIGINT) and SIGTERM: long analyses poll interrupted() where they already check their time
// limit, stop cleanly and report what they have, marked interrupted; the command exits with 130.
#pragma once

namespace warpspan {

/// Installs handlers for SIGINT and SIGTERM that only set the flag (async-signal-safe). The second
/// signal restores the default action, so a stuck program can still be killed.
void install_interrupt_handlers();
/// True once SIGINT or SIGTERM arrived (or request_interrupt() was called).
bool interrupted() noexcept;
/// Sets or clears the flag by hand (tests, and the Python bindings later).
void request_interrupt() noexcept;
void clear_interrupt() noexcept;

/// Exit code of a command that was interrupted and printed its partial result (128 + SIGINT).
inline constexpr int interrupted_exit_code = 130;

}  // namespace warpspan
