// Shared utilities: bounded file reading, thread resolution, the persistent pool, the interrupt flag.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpspan/core/error.hpp"
#include "warpspan/core/file.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"

namespace warpspan {
namespace {

TEST(CoreFile, ReadsARegularFile) {
  const auto path = std::filesystem::temp_directory_path() / "warpspan_core_file.txt";
  std::ofstream(path) << "hello\n";
  EXPECT_EQ(read_text_file(path.string(), "test file"), "hello\n");
}

TEST(CoreFile, RefusesMissingEmptyPathAndDirectory) {
  EXPECT_THROW(read_text_file("/nonexistent/warpspan.json", "task set"), input_error);
  EXPECT_THROW(read_text_file("", "task set"), input_error);
  try {
    read_text_file(std::filesystem::temp_directory_path().string(), "PTX file");
    FAIL() << "a directory was read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("is a directory"), std::string::npos) << e.what();
  }
}

TEST(CoreFile, ReadsDevicesOnlyUpToTheLimit) {
  try {
    read_text_file("/dev/zero", "PTX file", 1 << 20);
    FAIL() << "/dev/zero was read without bound";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("larger than"), std::string::npos) << e.what();
  }
}

/// Every line of `path` as line_reader returns it, with its numbers and byte counts checked.
std::vector<std::string> lines_of(const std::filesystem::path& path, std::size_t max_line) {
  line_reader in(path.string(), "test lines", max_line);
  std::vector<std::string> out;
  std::uint64_t bytes = 0;
  for (std::string line; in.next(line);) {
    out.push_back(line);
    EXPECT_EQ(in.line_number(), out.size());
    EXPECT_GT(in.bytes(), bytes);
    bytes = in.bytes();
  }
  EXPECT_EQ(bytes, std::filesystem::file_size(path));
  return out;
}

TEST(CoreFile, LineReaderSplitsLinesAcrossItsBlocks) {
  // Lines shorter and longer than the reader's 64 KiB block, a line end on a block's last byte,
  // CRLF, blank lines, and no line end at the end of the file.
  const auto path = std::filesystem::temp_directory_path() / "warpspan_core_lines.txt";
  const std::string long_line(200000, 'x'), to_block_end((1 << 16) - 1, 'y');
  {
    std::ofstream out(path, std::ios::binary);
    out << to_block_end << '\n' << "a\r\n" << '\n' << long_line << "\nlast";
  }
  const std::vector<std::string> want{to_block_end, "a", "", long_line, "last"};
  EXPECT_EQ(lines_of(path, std::size_t{1} << 20), want);
  {
    std::ofstream out(path, std::ios::binary);
    out << "one\n";
  }
  EXPECT_EQ(lines_of(path, 8), std::vector<std::string>{"one"});
  std::ofstream(path, std::ios::binary | std::ios::trunc).flush();
  EXPECT_TRUE(lines_of(path, 8).empty());
  std::filesystem::remove(path);
}

TEST(CoreFile, LineReaderRefusesALineOverTheLimitOnly) {
  const auto path = std::filesystem::temp_directory_path() / "warpspan_core_long_line.txt";
  {
    std::ofstream out(path, std::ios::binary);
    out << std::string(100000, 'z') << "\n" << std::string(100001, 'z') << "\n";
  }
  line_reader in(path.string(), "task sets", 100000);
  std::string line;
  ASSERT_TRUE(in.next(line));  // exactly the limit: read
  EXPECT_EQ(line.size(), 100000u);
  try {
    in.next(line);
    FAIL() << "a line over the limit was read";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("warpspan_core_long_line.txt:2: the line is longer than"), std::string::npos)
        << e.what();
  }
  std::filesystem::remove(path);
  try {
    line_reader zeros("/dev/zero", "task sets", 1 << 20);
    zeros.next(line);
    FAIL() << "/dev/zero was read as a line";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("longer than 1 MiB"), std::string::npos) << e.what();
  }
}

TEST(CoreThreads, ResolvesAndRefuses) {
  EXPECT_GE(resolve_threads(0), 1);
  EXPECT_EQ(resolve_threads(1), 1);
  EXPECT_EQ(resolve_threads(max_threads()), max_threads());
  EXPECT_THROW(resolve_threads(-1), input_error);
  EXPECT_THROW(resolve_threads(max_threads() + 1), input_error);
  EXPECT_THROW(resolve_threads(100000), input_error);
  EXPECT_LE(max_threads(), 256);
}

TEST(CoreThreads, PoolRunsEveryItemOnceAcrossManyRounds) {
  thread_pool pool(3);
  EXPECT_EQ(pool.size(), 3);
  for (std::size_t round = 0; round < 200; ++round) {
    const std::size_t n = round % 17;
    std::vector<std::atomic<int>> hits(n);
    pool.run(n, [&](std::size_t i) { hits[i].fetch_add(1); });
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(hits[i].load(), 1) << "round " << round << " item " << i;
  }
}

TEST(CoreThreads, PoolRethrowsAndStaysUsable) {
  thread_pool pool(2);
  EXPECT_THROW(pool.run(10,
                        [](std::size_t i) {
                          if (i == 7) throw std::runtime_error("item 7");
                        }),
               std::runtime_error);
  std::atomic<int> sum{0};
  pool.run(10, [&](std::size_t i) { sum += static_cast<int>(i); });
  EXPECT_EQ(sum.load(), 45);
}

TEST(CoreMemory, AvailableIsPositiveAndBudgetCapped) {
  EXPECT_GT(available_memory_bytes(), 0u);
  EXPECT_LE(memory_budget_bytes(1000), 1000u);
}

TEST(CoreInterrupt, FlagSetsAndClears) {
  clear_interrupt();
  EXPECT_FALSE(interrupted());
  request_interrupt();
  EXPECT_TRUE(interrupted());
  clear_interrupt();
  EXPECT_FALSE(interrupted());
}

TEST(CoreInterrupt, TheSecondSignalEndsTheProcessWith130) {
  // In a child: the first SIGINT only sets the flag (the process goes on); the same signal again
  // at once (as `timeout` delivers it: to the command, then to its process group) is the same
  // request; a second one later ends the process at once with exit code 130, never needing a
  // third. A child that outlived them would exit 0.
  const pid_t pid = fork();
  ASSERT_GE(pid, 0);
  if (pid == 0) {
    install_interrupt_handlers();
    raise(SIGINT);
    if (!interrupted()) _exit(3);  // the first signal must be caught, not end the process
    raise(SIGINT);                 // delivered twice: still running
    usleep(400'000);
    raise(SIGTERM);
    sleep(10);
    _exit(0);
  }
  int status = 0;
  ASSERT_EQ(waitpid(pid, &status, 0), pid);
  ASSERT_TRUE(WIFEXITED(status)) << "killed by signal " << (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
  EXPECT_EQ(WEXITSTATUS(status), interrupted_exit_code);
}

}  // namespace
}  // namespace warpspan
