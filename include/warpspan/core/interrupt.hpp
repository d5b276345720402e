// Ctrl-C (SIGINT) and SIGTERM: long analyses poll interrupted() where they already check their time
// limit, stop cleanly and report what they have, marked interrupted; the command exits with 130.
#pragma once

namespace warpspan {

/// Installs handlers for SIGINT and SIGTERM that only set the flag (async-signal-safe). The second
/// signal ends the process at once with exit code 130 (interrupted_exit_code), so a phase that does
/// not ask, or is slow to stop, never needs a third.
void install_interrupt_handlers();
/// True once SIGINT or SIGTERM arrived (or request_interrupt() was called).
bool interrupted() noexcept;
/// Sets or clears the flag by hand (tests, and the Python bindings later).
void request_interrupt() noexcept;
void clear_interrupt() noexcept;

/// Tells other processes of the run (the ranks of mpirun) about an interrupt and asks about theirs:
/// called with true once when this process was interrupted; returns true when another was. Must
/// not throw.
using interrupt_exchange_fn = bool (*)(bool interrupted_here);
/// From now on interrupted(), when called on this thread, runs `exchange` (at most every 20 ms, and
/// once more when this process is interrupted) and counts another process's interrupt as its own:
/// a signal to one rank stops them all. nullptr ends it. Set by the MPI layer (host/mpi/ranks.cpp).
void set_interrupt_exchange(interrupt_exchange_fn exchange) noexcept;

/// Exit code of a command that was interrupted and printed its partial result (128 + SIGINT).
inline constexpr int interrupted_exit_code = 130;

}  // namespace warpspan
