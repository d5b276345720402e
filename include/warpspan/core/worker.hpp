// Code warpspan does not own (a user's harness library) runs in a worker process, as fuzzers run
// their targets: a crash, abort(), exit(), an exception of any type, an endless loop or a hang there
// ends the worker, not warpspan, and becomes one line saying what it did; Ctrl-C and SIGTERM end the
// worker at once. The worker is a fork of the caller, so it sees the caller's memory as it was (the
// loaded library, the options) and sends back only bytes.
//
// In the worker, items (one evaluation of an input each) are marked started and done, so that the
// caller knows which items were in flight when the worker died; any tick of progress resets the
// stall clock.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace warpspan {

/// How run_in_worker ended.
struct worker_outcome {
  enum class status { done, failed, interrupted };
  status state = status::done;
  std::string bytes;  ///< done: what the work returned; failed: what went wrong (one line)
  /// failed: the item the failure was reported in (worker_fail inside a worker_item), or none.
  std::int64_t item = -1;
  /// Items started and not done when the worker failed (crash, hang), in start order.
  std::vector<std::uint64_t> in_flight;
};

/// Runs `work` in a child process (fork) and returns what it returned. `label` begins every message
/// of a failure ("harness 'x' (./lib.so)"). The child is ended (SIGKILL) when it shows no progress
/// (no item done, no worker_tick) for `stall_seconds`, and at once when interrupted() becomes true
/// in the caller. Its standard output goes to standard error (the caller's stdout stays the
/// caller's). An exception `work` throws is `failed` with its message (prefixed with `label` unless it
/// already begins with it). Throws resource_error when the process cannot be forked.
worker_outcome run_in_worker(const std::string& label, double stall_seconds, const std::function<std::string()>& work);

/// True in a worker process of run_in_worker.
bool in_worker() noexcept;
/// In a worker: progress (resets the stall clock). A no-op elsewhere. Thread-safe.
void worker_tick() noexcept;
/// In a worker: ends it at once, reporting `message` (prefixed with the label as above) and the
/// calling thread's current item. Outside a worker it returns and the caller goes on.
void worker_fail(const std::string& message) noexcept;

/// Marks item `index` started on this thread for its lifetime (done when destroyed without an
/// exception in flight). A no-op outside a worker.
class worker_item {
 public:
  explicit worker_item(std::uint64_t index) noexcept;
  ~worker_item();
  worker_item(const worker_item&) = delete;
  worker_item& operator=(const worker_item&) = delete;

 private:
  std::uint64_t index_;
  std::int64_t previous_;
  int exceptions_;
};

/// What a child's wait status says it did: "crashed (SIGSEGV, a segmentation fault)", "exited
/// with status 3 (it called exit)".
std::string describe_wait_status(int status);

}  // namespace warpspan
