#include "warpspan/core/resources.hpp"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <fstream>
#include <mutex>
#include <sstream>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "warpspan/core/error.hpp"

namespace warpspan {

namespace {
int cores() { return static_cast<int>(std::max(1u, std::thread::hardware_concurrency())); }

std::uint64_t read_meminfo_available() {
  std::ifstream in("/proc/meminfo");
  std::string key;
  std::uint64_t kib = 0;
  std::string unit;
  while (in >> key >> kib) {
    std::getline(in, unit);
    if (key == "MemAvailable:") return kib * 1024;
  }
  return 0;
}

std::uint64_t read_cgroup_limit() {
  for (const char* path : {"/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"}) {
    std::ifstream in(path);
    std::string word;
    if (in >> word && !word.empty() && word != "max" && word.find_first_not_of("0123456789") == std::string::npos) {
      try {
        return std::stoull(word);
      } catch (...) {
      }
    }
  }
  return 0;
}
}  // namespace

int max_threads() { return std::min(256, 4 * cores()); }

int resolve_threads(long long requested, const message& option) {
  if (requested < 0)
    throw input_error(option + ": " + std::to_string(requested) + " threads is negative (0 means all cores)");
  if (requested == 0) return cores();
  if (requested > max_threads())
    throw input_error(option + ": " + std::to_string(requested) +
                      " threads is more than this machine can use well (at most " + std::to_string(max_threads()) +
                      ": 4 per core; 0 means all " + std::to_string(cores()) + " cores)");
  return static_cast<int>(requested);
}

std::uint64_t available_memory_bytes() {
  // Read at most every 100 ms: the files cost about 20 us a read, and a batch checks every table
  // (three reads a task set were most of the host's time a set, issue 43). Memory a tenth of a
  // second old is as good a guess for a safety limit.
  static std::atomic<std::uint64_t> cached{0};
  static std::atomic<long long> read_at_ns{0};
  const long long now =
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now().time_since_epoch()).count();
  const std::uint64_t last = cached.load(std::memory_order_relaxed);
  if (last != 0 && now - read_at_ns.load(std::memory_order_relaxed) < 100'000'000LL) return last;
  std::uint64_t avail = read_meminfo_available();
  const std::uint64_t limit = read_cgroup_limit();
  if (limit > 0 && (avail == 0 || limit < avail)) avail = limit;
  avail = avail > 0 ? avail : (std::uint64_t{8} << 30);
  cached.store(avail, std::memory_order_relaxed);
  read_at_ns.store(now, std::memory_order_relaxed);
  return avail;
}

std::uint64_t memory_budget_bytes(std::uint64_t cap) { return std::min(cap, available_memory_bytes() / 4 * 3); }

struct thread_pool::impl {
  std::vector<std::thread> workers;
  std::mutex turn;  // held over a run(): callers on several threads take turns
  std::mutex m;
  std::condition_variable start_cv, done_cv;
  std::uint64_t generation = 0;
  int running = 0;
  int started = 0;  // workers that reached their first wait
  bool stop = false;
  std::size_t n = 0;
  const std::function<void(std::size_t)>* f = nullptr;
  std::exception_ptr error;

  int size() const { return static_cast<int>(workers.size()) + 1; }

  void work(int t) {
    const auto stride = static_cast<std::size_t>(size());
    for (std::size_t i = static_cast<std::size_t>(t); i < n; i += stride) {
      try {
        (*f)(i);
      } catch (...) {
        std::lock_guard<std::mutex> lock(m);
        if (!error) error = std::current_exception();
        return;
      }
    }
  }

  void loop(int t) {
    std::uint64_t seen = 0;
    {
      std::lock_guard<std::mutex> lock(m);
      ++started;
      done_cv.notify_one();  // only the constructor waits on it now
    }
    for (;;) {
      {
        std::unique_lock<std::mutex> lock(m);
        start_cv.wait(lock, [&] { return stop || generation != seen; });
        if (stop) return;
        seen = generation;
      }
      work(t);
      std::lock_guard<std::mutex> lock(m);
      if (--running == 0) done_cv.notify_one();
    }
  }
};

thread_pool::thread_pool(int threads) : impl_(std::make_unique<impl>()) {
  const int want = std::max(1, threads);
  impl_->workers.reserve(static_cast<std::size_t>(want - 1));
  for (int t = 1; t < want; ++t) {
    try {
      impl_->workers.emplace_back([this, t] { impl_->loop(t); });
    } catch (const std::system_error&) {
      break;  // the OS gave fewer threads: work with those
    }
  }
  // The pool is ready when constructed: every thread has started. A thread still starting holds
  // locks of the C runtime (a sanitizer's allocator takes some in its thread set-up), and a worker
  // process forked in that moment inherits them held and hangs at its first allocation.
  std::unique_lock<std::mutex> lock(impl_->m);
  impl_->done_cv.wait(lock, [&] { return impl_->started == static_cast<int>(impl_->workers.size()); });
}

thread_pool::~thread_pool() {
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->stop = true;
  }
  impl_->start_cv.notify_all();
  for (auto& th : impl_->workers) th.join();
}

int thread_pool::size() const noexcept { return impl_->size(); }

void thread_pool::run(std::size_t n, const std::function<void(std::size_t)>& f) {
  if (impl_->workers.empty() || n <= 1) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
  const std::lock_guard<std::mutex> turn(impl_->turn);
  {
    std::lock_guard<std::mutex> lock(impl_->m);
    impl_->n = n;
    impl_->f = &f;
    impl_->error = nullptr;
    impl_->running = static_cast<int>(impl_->workers.size());
    ++impl_->generation;
  }
  impl_->start_cv.notify_all();
  impl_->work(0);
  std::unique_lock<std::mutex> lock(impl_->m);
  impl_->done_cv.wait(lock, [&] { return impl_->running == 0; });
  impl_->f = nullptr;
  if (impl_->error) std::rethrow_exception(std::exchange(impl_->error, nullptr));
}

}  // namespace warpspan
