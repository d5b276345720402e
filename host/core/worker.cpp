// Worker processes for code warpspan does not own (include/warpspan/core/worker.hpp).
//
// The child writes frames on a pipe: 't' (a tick), 's' + u64 and 'd' + u64 (an item started, done),
// 'R' + u64 length + bytes (the result), 'E' + i64 item + u64 length + bytes (a failure). Small
// frames are one write() each (atomic on a pipe); all writes hold one mutex, so frames of different
// threads never interleave.
#include "warpspan/core/worker.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <exception>
#include <mutex>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"

namespace warpspan {

namespace {

int g_fd = -1;             // the pipe to the caller, in a worker
std::string g_label;       // begins the worker's failure messages
std::mutex g_write_mutex;  // frames whole
thread_local std::int64_t t_item = -1;

bool write_all(const char* p, std::size_t n) noexcept {
  while (n > 0) {
    const ssize_t w = ::write(g_fd, p, n);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) return false;
    p += w;
    n -= static_cast<std::size_t>(w);
  }
  return true;
}

template <class T>
void append(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

void send(const std::string& frame) noexcept {
  std::lock_guard<std::mutex> lock(g_write_mutex);
  if (!write_all(frame.data(), frame.size())) _exit(120);  // the caller is gone
}

std::string labelled(const std::string& message) {
  if (g_label.empty() || message.compare(0, g_label.size(), g_label) == 0) return message;
  return g_label + ": " + message;
}

[[noreturn]] void send_failure_and_exit(const std::string& message, std::int64_t item) noexcept {
  try {
    std::string frame(1, 'E');
    append(frame, item);
    const std::string text = labelled(message);
    append(frame, static_cast<std::uint64_t>(text.size()));
    frame += text;
    send(frame);
  } catch (...) {
  }
  _exit(3);
}

std::string signal_text(int sig) {
  switch (sig) {
    case SIGSEGV: return "crashed with SIGSEGV (a segmentation fault: a bad memory access)";
    case SIGBUS: return "crashed with SIGBUS (a bus error: a bad memory access)";
    case SIGFPE: return "crashed with SIGFPE (an arithmetic error such as an integer division by zero)";
    case SIGILL: return "crashed with SIGILL (an illegal instruction)";
    case SIGABRT: return "aborted (SIGABRT: abort(), a failed assert, or an exception nothing caught)";
    case SIGKILL: return "was killed (SIGKILL, perhaps by the system for want of memory)";
    default: break;
  }
  const char* name = strsignal(sig);
  return "was ended by signal " + std::to_string(sig) + (name ? " (" + std::string(name) + ")" : "");
}

using clock_type = std::chrono::steady_clock;

/// Parses whole frames at the front of `buf`; false when one is malformed.
struct frame_reader {
  std::string buf;
  bool have_result = false, have_failure = false;
  std::string bytes;
  std::int64_t item = -1;
  std::vector<std::uint64_t> in_flight;

  template <class T>
  bool take(std::size_t& at, T& v) const {
    if (buf.size() - at < sizeof v) return false;
    std::memcpy(&v, buf.data() + at, sizeof v);
    at += sizeof v;
    return true;
  }
  /// Consumes what is whole; returns whether any frame was read.
  bool parse() {
    std::size_t at = 0;
    bool any = false;
    while (at < buf.size()) {
      std::size_t p = at + 1;
      const char kind = buf[at];
      if (kind == 't') {
      } else if (kind == 's' || kind == 'd') {
        std::uint64_t index = 0;
        if (!take(p, index)) break;
        if (kind == 's') {
          in_flight.push_back(index);
        } else {
          for (auto it = in_flight.begin(); it != in_flight.end(); ++it)
            if (*it == index) {
              in_flight.erase(it);
              break;
            }
        }
      } else if (kind == 'R' || kind == 'E') {
        std::int64_t failed_item = -1;
        if (kind == 'E' && !take(p, failed_item)) break;
        std::uint64_t n = 0;
        if (!take(p, n) || buf.size() - p < n) break;
        bytes.assign(buf, p, n);
        p += n;
        (kind == 'R' ? have_result : have_failure) = true;
        item = failed_item;
      } else {
        have_failure = true;
        bytes = "its worker process sent something warpspan cannot read (the harness wrote to its pipe?)";
        buf.clear();
        return true;
      }
      at = p;
      any = true;
    }
    buf.erase(0, at);
    return any;
  }
};

void kill_and_reap(pid_t pid) {
  kill(pid, SIGKILL);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
}

}  // namespace

std::string describe_wait_status(int status) {
  if (WIFSIGNALED(status)) return signal_text(WTERMSIG(status));
  if (WIFEXITED(status)) return "exited with status " + std::to_string(WEXITSTATUS(status)) + " (it called exit())";
  return "stopped in an unknown way (wait status " + std::to_string(status) + ")";
}

bool in_worker() noexcept { return g_fd >= 0; }

void worker_tick() noexcept {
  if (g_fd < 0) return;
  send(std::string(1, 't'));
}

void worker_fail(const std::string& message) noexcept {
  if (g_fd < 0) return;
  send_failure_and_exit(message, t_item);
}

worker_item::worker_item(std::uint64_t index) noexcept
    : index_(index), previous_(t_item), exceptions_(std::uncaught_exceptions()) {
  if (g_fd < 0) return;
  t_item = static_cast<std::int64_t>(index);
  std::string frame(1, 's');
  append(frame, index);
  send(frame);
}

worker_item::~worker_item() {
  if (g_fd < 0) return;
  if (std::uncaught_exceptions() == exceptions_) {
    std::string frame(1, 'd');
    append(frame, index_);
    send(frame);
  }
  t_item = previous_;
}

worker_outcome run_in_worker(const std::string& label, double stall_seconds, const std::function<std::string()>& work) {
  worker_outcome out;
  if (in_worker()) {  // already isolated: run here
    try {
      out.bytes = work();
    } catch (const std::exception& e) {
      out.state = worker_outcome::status::failed;
      out.bytes = e.what();
    }
    return out;
  }
  if (interrupted()) {
    out.state = worker_outcome::status::interrupted;
    return out;
  }
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0)
    throw input_error("cannot start a worker process for " + label + ": pipe: " + std::strerror(errno));
  const pid_t parent = getpid();
  std::fflush(nullptr);  // nothing buffered is written twice
  const pid_t pid = fork();
  if (pid < 0) {
    const int e = errno;
    close(fds[0]);
    close(fds[1]);
    throw input_error("cannot start a worker process for " + label + ": fork: " + std::strerror(e));
  }
  if (pid == 0) {
    // The worker: ends with its parent, leaves signals to it (it is killed when the caller is
    // interrupted), and prints to standard error.
    close(fds[0]);
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (getppid() != parent) _exit(121);
    signal(SIGINT, SIG_IGN);
    signal(SIGTERM, SIG_IGN);
    signal(SIGPIPE, SIG_IGN);
    // A crash is the worker's end, told by its signal: no handler of the caller's (a sanitizer's
    // report, Python's faulthandler) runs in between.
    for (int sig : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) signal(sig, SIG_DFL);
    set_interrupt_exchange(nullptr);
    clear_interrupt();
    dup2(STDERR_FILENO, STDOUT_FILENO);
    g_fd = fds[1];
    g_label = label;
    std::string result;
    try {
      result = work();
    } catch (const std::exception& e) {
      send_failure_and_exit(e.what(), -1);
    } catch (...) {
      send_failure_and_exit("threw an exception that is not a std::exception", -1);
    }
    std::string frame(1, 'R');
    append(frame, static_cast<std::uint64_t>(result.size()));
    frame += result;
    send(frame);
    _exit(0);
  }
  close(fds[1]);
  frame_reader r;
  auto last = clock_type::now();
  const auto stall = std::chrono::duration<double>(stall_seconds);
  char chunk[1 << 16];
  bool open = true;
  bool stalled = false, stopped = false;
  while (open) {
    pollfd p{fds[0], POLLIN, 0};
    const int ready = poll(&p, 1, 100);
    if (interrupted()) {
      stopped = true;
      break;
    }
    if (ready > 0) {
      const ssize_t n = read(fds[0], chunk, sizeof chunk);
      if (n > 0) {
        r.buf.append(chunk, static_cast<std::size_t>(n));
        if (r.parse()) last = clock_type::now();
        if (r.have_result || r.have_failure) break;
      } else if (n == 0 || (errno != EINTR && errno != EAGAIN)) {
        open = false;
      }
    } else if (ready < 0 && errno != EINTR) {
      open = false;
    }
    if (stall_seconds > 0 && clock_type::now() - last > stall) {
      stalled = true;
      break;
    }
  }
  close(fds[0]);
  out.in_flight = r.in_flight;
  if (stopped) {
    kill_and_reap(pid);
    out.state = worker_outcome::status::interrupted;
    return out;
  }
  if (stalled) {
    kill_and_reap(pid);
    out.state = worker_outcome::status::failed;
    char seconds[32];
    std::snprintf(seconds, sizeof seconds, "%g", stall_seconds);
    out.bytes = label + ": made no progress for " + seconds + " s (an endless loop or a hang?) and was stopped";
    return out;
  }
  // The result or failure came (the worker exits right after), or the pipe closed: the exit status.
  int status = 0;
  const auto waited = clock_type::now();
  for (;;) {
    const pid_t w = waitpid(pid, &status, WNOHANG);
    if (w == pid) break;
    if (w < 0 && errno != EINTR) break;
    if (interrupted() || clock_type::now() - waited > std::chrono::seconds(5)) {
      kill_and_reap(pid);
      status = 0;
      break;
    }
    usleep(2000);
  }
  if (r.have_result) {
    out.bytes = std::move(r.bytes);
    return out;
  }
  out.state = worker_outcome::status::failed;
  if (r.have_failure) {
    out.bytes = std::move(r.bytes);
    out.item = r.item;
    return out;
  }
  if (interrupted()) {
    out.state = worker_outcome::status::interrupted;
    return out;
  }
  out.bytes = label + ": " + describe_wait_status(status);
  return out;
}

}  // namespace warpspan
