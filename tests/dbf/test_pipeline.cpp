// The EDF stream (analyse_sets): with a test pool a chunk's tables and tests run on a worker while
// the next chunk is read; what is reported, in which order, and how errors and Ctrl-C end it must
// not depend on that.
#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <vector>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/dbf/generate.hpp"
#include "warpspan/dbf/pipeline.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

task_generator_options small_sets() {
  task_generator_options o;
  o.vertices = 6;
  o.tasks = 3;
  o.max_wcet = 60;
  o.seed = 5;
  return o;
}

struct verdict {
  std::uint64_t index;
  bool schedulable;
  bool operator==(const verdict&) const = default;
};

/// `count` generated sets through analyse_sets; `throw_at`: next() throws an input_error there;
/// `interrupt_after`: report() asks for an interrupt after that many sets.
std::vector<verdict> stream(const char* backend, std::uint64_t count, bool& finished, std::uint64_t throw_at = ~0ull,
                            std::uint64_t interrupt_after = ~0ull) {
  const dbf_session session(parse_dbf_backend(backend), 2, 256, 8192, edf_method::qpa);
  const task_generator_options o = small_sets();
  std::vector<verdict> got;
  std::uint64_t k = 0;
  double elapsed = 0;
  finished = analyse_sets(
      [&](analysed_set& s) {
        if (k == count) return false;
        if (k == throw_at) throw input_error("set " + std::to_string(k) + " cannot be read");
        s.index = k;
        s.label = "set " + std::to_string(k);
        s.set = generate_task_set(o, k++);
        s.graphs = unroll_all(s.set, session.options());
        return true;
      },
      [&](analysed_set& s) {
        EXPECT_TRUE(s.error.empty()) << s.error.neutral();
        got.push_back({s.index, s.result.schedulable});
        if (got.size() == interrupt_after) request_interrupt();
      },
      session.streaming(), elapsed);
  EXPECT_GE(elapsed, 0.0);
  return got;
}

TEST(DbfPipeline, OverlappedChunksReportInOrderAsTheReference) {
  // 700 sets are three chunks of at most 256: with cpu-parallel two are in flight at a time.
  bool done_ref = false, done = false;
  const std::vector<verdict> ref = stream("cpu", 700, done_ref);
  const std::vector<verdict> got = stream("cpu-parallel", 700, done);
  EXPECT_TRUE(done_ref);
  EXPECT_TRUE(done);
  ASSERT_EQ(ref.size(), 700u);
  for (std::uint64_t k = 0; k < ref.size(); ++k) ASSERT_EQ(ref[k].index, k);
  EXPECT_EQ(got, ref);
  std::uint64_t schedulable = 0;
  for (const auto& v : ref) schedulable += v.schedulable;
  EXPECT_GT(schedulable, 0u);  // both verdicts occur: the comparison means something
  EXPECT_LT(schedulable, ref.size());
}

TEST(DbfPipeline, SetsLeftToTheStreamToUnrollGiveTheSameVerdicts) {
  // next() gives only the set (unroll_in_stream): the stream unrolls each chunk on its threads.
  for (const char* backend : {"cpu", "cpu-parallel"}) {
    const dbf_session session(parse_dbf_backend(backend), 2, 256, 8192, edf_method::qpa);
    bool done_ref = false;
    const std::vector<verdict> ref = stream("cpu", 600, done_ref);
    std::vector<verdict> got;
    std::uint64_t k = 0;
    double elapsed = 0;
    EXPECT_TRUE(analyse_sets(
        [&](analysed_set& s) {
          if (k == 600) return false;
          s.index = k;
          s.set = generate_task_set(small_sets(), k++);
          s.unroll_in_stream = true;
          return true;
        },
        [&](analysed_set& s) {
          EXPECT_FALSE(s.graphs.empty());
          got.push_back({s.index, s.result.schedulable});
        },
        session.streaming(), elapsed));
    EXPECT_EQ(got, ref) << backend;
  }
}

TEST(DbfPipeline, ASetTheStreamCannotUnrollIsItsErrorOrEndsTheStream) {
  // Set 300 has a cycle: with keep_going it is reported with unroll_all's message and the rest go
  // on; without, the sets before it are reported and its error ends the stream.
  task_set cyclic = generate_task_set(small_sets(), 300);
  cyclic.tasks[0].edges.push_back(
      {cyclic.tasks[0].edges.front().to, cyclic.tasks[0].edges.front().from, cyclic.tasks[0].edges.front().separation});
  std::string expected;
  try {
    (void)unroll_all(cyclic, dbf_options{});
  } catch (const input_error& e) {
    expected = e.description().neutral();
  }
  ASSERT_NE(expected.find("cycle"), std::string::npos) << expected;
  for (const char* backend : {"cpu", "cpu-parallel"})
    for (bool keep_going : {true, false}) {
      const dbf_session session(parse_dbf_backend(backend), 2, 256, 8192, edf_method::qpa, keep_going);
      std::vector<std::uint64_t> reported;
      std::string error_of_300;
      std::uint64_t k = 0;
      double elapsed = 0;
      const auto run = [&] {
        return analyse_sets(
            [&](analysed_set& s) {
              if (k == 600) return false;
              s.index = k;
              s.set = k == 300 ? cyclic : generate_task_set(small_sets(), k);
              ++k;
              s.unroll_in_stream = true;
              return true;
            },
            [&](analysed_set& s) {
              reported.push_back(s.index);
              if (s.index == 300) error_of_300 = s.error.neutral();
            },
            session.streaming(), elapsed);
      };
      if (keep_going) {
        EXPECT_TRUE(run());
        EXPECT_EQ(reported.size(), 600u) << backend;
        EXPECT_EQ(error_of_300, expected) << backend;
      } else {
        try {
          run();
          ADD_FAILURE() << backend << ": the stream did not end";
        } catch (const input_error& e) {
          EXPECT_EQ(e.description().neutral(), expected) << backend;
        }
        ASSERT_EQ(reported.size(), 300u) << backend;
        for (std::uint64_t i = 0; i < 300; ++i) ASSERT_EQ(reported[i], i);
      }
    }
}

TEST(DbfPipeline, ASetThatCannotBeReadEndsTheStreamAfterTheSetsBeforeIt) {
  for (const char* backend : {"cpu", "cpu-parallel"}) {
    for (std::uint64_t at : {0ull, 100ull, 256ull, 300ull, 600ull}) {
      std::vector<verdict> reported;
      const dbf_session session(parse_dbf_backend(backend), 2, 256, 8192, edf_method::qpa);
      std::uint64_t k = 0;
      double elapsed = 0;
      EXPECT_THROW(analyse_sets(
                       [&](analysed_set& s) {
                         if (k == at) throw input_error("unreadable");
                         s.index = k;
                         s.set = generate_task_set(small_sets(), k++);
                         s.graphs = unroll_all(s.set, session.options());
                         return true;
                       },
                       [&](analysed_set& s) {
                         reported.push_back({s.index, s.result.schedulable});
                       },
                       session.streaming(), elapsed),
                   input_error);
      ASSERT_EQ(reported.size(), at) << backend << ": every set before the unreadable one is reported";
      for (std::uint64_t i = 0; i < at; ++i) ASSERT_EQ(reported[i].index, i);
    }
  }
}

/// `count` sets left unparsed (their JSON text, as analyse_batch leaves a .jsonl's lines) through
/// the stream on `backend`; set `bad`'s text is malformed. Returns the verdicts reported, in order,
/// with set `bad`'s error text (or the error that ended the stream) in `error`.
std::vector<verdict> unparsed_stream(const char* backend, std::uint64_t count, std::uint64_t bad, bool keep_going,
                                     bool& finished, std::string& error, double& elapsed, double& wall) {
  const dbf_session session(parse_dbf_backend(backend), 2, 256, 8192, edf_method::qpa, keep_going);
  std::vector<verdict> got;
  std::uint64_t k = 0;
  elapsed = 0;
  const auto start = std::chrono::steady_clock::now();
  try {
    finished = analyse_sets(
        [&](analysed_set& s) {
          if (k == count) return false;
          s.index = k;
          s.label = "sets.jsonl:" + std::to_string(k + 1);
          unparsed_set raw;
          raw.label = s.label;
          raw.where = s.label;
          raw.text = k == bad ? std::string("{\"tasks\": [") : task_set_json(generate_task_set(small_sets(), k), true);
          s.unparsed = std::move(raw);
          s.unroll_in_stream = true;
          ++k;
          return true;
        },
        [&](analysed_set& s) {
          EXPECT_FALSE(s.unparsed) << s.index;
          if (!s.error.empty()) error = s.error.neutral();
          got.push_back({s.index, s.result.schedulable});
        },
        session.streaming(), elapsed);
  } catch (const input_error& e) {
    finished = false;
    error = e.description().neutral();
  }
  wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return got;
}

/// What unparsed_stream's set `bad` says, as batch_source::next would have thrown it.
std::string malformed_message(std::uint64_t bad) {
  try {
    (void)parse_task_set("{\"tasks\": [", "sets.jsonl:" + std::to_string(bad + 1));
  } catch (const input_error& e) {
    return e.description().neutral();
  }
  return "";
}

/// unparsed_stream on `backend` against the one-thread reference given the parsed sets: the same
/// verdicts in order; set `bad` reported with the parser's message, or ending the stream after the
/// sets before it; the run's seconds never more than its wall time (chunks in flight together are
/// counted once).
void check_unparsed_stream(const char* backend, std::uint64_t count, std::uint64_t bad) {
  bool done_ref = false;
  std::vector<verdict> ref = stream("cpu", count, done_ref);
  ref[bad].schedulable = false;  // set `bad` is an error: no verdict
  const std::string expected = malformed_message(bad);
  ASSERT_NE(expected.find("sets.jsonl:" + std::to_string(bad + 1) + ": malformed JSON"), std::string::npos) << expected;
  for (bool keep_going : {true, false}) {
    bool finished = false;
    std::string error;
    double elapsed = 0, wall = 0;
    const std::vector<verdict> got = unparsed_stream(backend, count, bad, keep_going, finished, error, elapsed, wall);
    EXPECT_EQ(error, expected) << backend;
    EXPECT_GE(elapsed, 0.0);
    EXPECT_LE(elapsed, wall) << backend;
    if (keep_going) {
      EXPECT_TRUE(finished) << backend;
      EXPECT_EQ(got, ref) << backend;
    } else {
      EXPECT_FALSE(finished) << backend;
      EXPECT_EQ(got, std::vector<verdict>(ref.begin(), ref.begin() + static_cast<std::ptrdiff_t>(bad))) << backend;
    }
  }
}

TEST(DbfPipeline, SetsLeftUnparsedGiveTheSameVerdictsAndMessages) {
  // The stream's threads parse what analyse_batch leaves unparsed; a set that does not parse is
  // its error with keep_going, and otherwise ends the stream after the sets before it.
  for (const char* backend : {"cpu", "cpu-parallel"}) check_unparsed_stream(backend, 600, 300);
}

TEST(DbfPipeline, TwoChunksInFlightOnTheDeviceMatchesCpu) {
  // With a GPU two chunks are in flight: one's sets parsed, unrolled and tested on the pool while
  // the other's tables are on the device. The same verdicts, order and errors as one thread. (The
  // first chunk is handed on at 8 sets, the worker idle; the rest fill the second while it runs.)
  WARPSPAN_REQUIRE_GPU();
  const std::uint64_t count = static_cast<std::uint64_t>(test::gpu_test_size(600, 40));
  check_unparsed_stream("cuda-sm", count, count / 2);
}

TEST(DbfPipeline, AnInterruptStopsTheReportsAndReturnsFalse) {
  for (const char* backend : {"cpu", "cpu-parallel"}) {
    bool done = true;
    const std::vector<verdict> got = stream(backend, 700, done, ~0ull, 10);
    clear_interrupt();
    EXPECT_FALSE(done) << backend;
    EXPECT_EQ(got.size(), 10u) << backend << ": no set is reported after the interrupt";
  }
}

TEST(DbfPipeline, ATableOverTheLimitEndsTheStream) {
  // Refused while the set is unrolled, on the reading thread, with a chunk on the worker.
  const dbf_session session(dbf_backend::cpu_parallel, 2, 256, 1, edf_method::qpa);  // 1 MiB a table at most
  task_generator_options big = small_sets();
  big.vertices = 40;
  big.max_wcet = 100000;
  std::uint64_t k = 0, reported = 0;
  double elapsed = 0;
  EXPECT_THROW(analyse_sets(
                   [&](analysed_set& s) {
                     if (k == 300)
                       s.set = generate_task_set(big, k);
                     else
                       s.set = generate_task_set(small_sets(), k);
                     s.index = k++;
                     s.graphs = unroll_all(s.set, session.options());
                     return true;
                   },
                   [&](analysed_set&) { ++reported; }, session.streaming(), elapsed),
               input_error);
  EXPECT_EQ(reported, 300u);
}

TEST(DbfPipeline, WhatTheWorkerThrowsReachesTheCaller) {
  // Without a device the cuda backend's tables fail on the worker thread (a chunk in flight); the
  // error must come out of analyse_sets, not end the process.
  if (cuda_device_count() > 0) GTEST_SKIP() << "a CUDA device (or the emulation) computes the tables";
  thread_pool pool(2);
  stream_options options;
  options.dbf.backend = dbf_backend::cuda;  // as a session would refuse it: the stream is not told
  options.test_pool = &pool;
  std::uint64_t k = 0;
  double elapsed = 0;
  EXPECT_ANY_THROW(analyse_sets(
      [&](analysed_set& s) {
        if (k == 600) return false;
        s.set = generate_task_set(small_sets(), k++);
        s.graphs = unroll_all(s.set, options.dbf);
        return true;
      },
      [](analysed_set&) {}, options, elapsed));
}

}  // namespace
}  // namespace warpspan
