// COIN-OR CBC is not thread-safe: Cbc_solve runs CbcMain, which keeps its parameters and its command
// reader in globals, so two solves at once may fail (CBC reports no optimum, status -1) or print
// CBC's interactive prompt on standard output. Every solve in the library holds this one mutex of
// the process (threads of the Python module, the CLI's own threads).
#pragma once

#include <mutex>

namespace warpspan {

/// The process-wide lock around every Cbc_solve.
inline std::mutex& cbc_mutex() {
  static std::mutex m;
  return m;
}

}  // namespace warpspan
