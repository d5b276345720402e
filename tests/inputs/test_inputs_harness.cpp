// Harnesses of one's own kernel (warpspan/harness.hpp): loaded from the test libraries of
// tests/inputs/harness/ with dlopen, checked, costed by hand, searched, and every error reported.
#include <gtest/gtest.h>

#include <fstream>

#include "inputs/harness/fixture_kernel.hpp"
#include "test_util.hpp"
#include "warpspan/inputs/input_file.hpp"
#include "warpspan/inputs/isolated.hpp"
#include "warpspan/inputs/model.hpp"
#include "warpspan/inputs/search.hpp"
#include "warpspan/makespan/problem.hpp"

namespace warpspan::inputs {
namespace {

namespace hx = warpspan::harness;

/// A model without throughput limits: a launch costs its slowest warp.
model_config no_throughput_limits() {
  model_config cfg;
  cfg.sm.sigma = {1000, 1000, 0, 0};
  cfg.sm.copies = {1, 1, 0, 0};
  return cfg;
}

TEST(InputsHarness, LoadsWhatTheLibraryDeclares) {
  const harness_ref k = load_harness(test::harness_fixture("good"));

  EXPECT_EQ(k->name(), "fixture");
  EXPECT_EQ(k->source(), test::harness_fixture("good"));
  EXPECT_FALSE(k->is_builtin());
  EXPECT_FALSE(k->has_gpu_entry());  // built by the host compiler
  EXPECT_EQ(k->block(), 64u);
  EXPECT_EQ(k->branches(), 2u);
  EXPECT_EQ(k->default_threads(), 100u);
  EXPECT_EQ(k->genes_per_thread(), 2u);
  EXPECT_EQ(k->genes_per_block(), 1u);
  ASSERT_EQ(k->fields().size(), 3u);
  EXPECT_TRUE(k->fields()[1].is_float);
  EXPECT_TRUE(k->fields()[2].per_block);
  // 100 threads: 100 records of (n, x), then 2 blocks' records of (mode).
  EXPECT_EQ(k->genes(100), 202u);
  const auto ranges = k->genome_ranges(100);
  EXPECT_EQ(ranges[0].hi, 8);
  EXPECT_EQ(ranges[1].hi, 16);
  EXPECT_EQ(ranges[200].hi, 3);
  EXPECT_EQ(ranges[201].hi, 3);
}

TEST(InputsHarness, ModelCostByHand) {
  // Two lanes of one warp: lane 0 has n = 2, x = -1 (gene 0); lane 1 n = 0, x = 1 (gene 16); the
  // block's mode 0. Entry: the loads of n, x (one sector each: the records are 16 bytes) and of the
  // mode (one word) 3 + work 2 = 5; lane 0 loops twice alone (2 x 3; lane 1 waits at the loop's
  // exit); lane 0 alone stores to shared memory (1); together the atomic on scratch[0] (2 lanes on
  // one address: 2), work 1 and the store of x (one sector) 1: 5 + 6 + 1 + 4 = 16.
  const harness_ref k = load_harness(test::harness_fixture("good"));

  const model_run r = run_model(*k, no_throughput_limits(), {2, 0, 0, 16, 0}, 2);

  EXPECT_EQ(r.cycles, 16u);
  EXPECT_EQ(r.output, (std::vector<std::int32_t>{2, hx::word_of(-1.0f), hx::word_of(1.0f)}));
}

TEST(InputsHarness, BlockFieldSetsTheBankConflict) {
  // 32 lanes, n = 0, x = -1: entry 8 + 8 sectors (n and x at a stride of 8 bytes) + 1 + work 2 =
  // 19; the shared store at word tid << mode: 1, 2, 4, 8-way conflicts; the atomic of 32 lanes on
  // one address 32, work 1, the stores of x to scratch[1..32] (bytes 4..131) 5 sectors: 57 + degree.
  const harness_ref k = load_harness(test::harness_fixture("good"));
  std::vector<std::int32_t> g(2 * 32 + 1, 0);

  for (std::int32_t mode = 0; mode <= 3; ++mode) {
    g.back() = mode;
    EXPECT_EQ(run_model(*k, no_throughput_limits(), g, 32).cycles, 57u + (1u << mode)) << mode;
  }
}

TEST(InputsHarness, FloatFieldsAreOnTheirGrid) {
  // x in [-1, 1] on 16 steps: gene 4 is -0.5, gene 9 is 0.125.
  const harness_ref k = load_harness(test::harness_fixture("good"));

  const model_run r = run_model(*k, no_throughput_limits(), {0, 4, 0, 9, 0}, 2);

  EXPECT_EQ(r.output[1], hx::word_of(-0.5f));
  EXPECT_EQ(r.output[2], hx::word_of(0.125f));
}

TEST(InputsHarness, LoadedEqualsCompiledIn) {
  // The same kernel through dlopen and compiled into this test: the same cycles and outputs.
  const harness_ref loaded = load_harness(test::harness_fixture("good"));
  const harness_ref inside = make_harness(hx::describe<fixture::kernel>(), "test");
  const auto ranges = loaded->genome_ranges(150);

  for (std::uint64_t i = 0; i < 5; ++i) {
    const genome g = random_genome(ranges, 3, 1, i);
    const model_run a = run_model(*loaded, make_model(), g, 150), b = run_model(*inside, make_model(), g, 150);
    EXPECT_EQ(a.cycles, b.cycles) << i;
    EXPECT_EQ(a.output, b.output) << i;
  }
}

TEST(InputsHarness, EveryMethodSearchesIt) {
  // Every block's mode 3 (8-way conflict) and every thread's n = 8 with x < 0 is the worst input;
  // the atoms cover all 4 legs.
  search_options o;
  o.kernel = load_harness(test::harness_fixture("good"));
  o.threads = 100;
  o.model = make_model();
  o.ga.evaluations = 300;
  o.ga.patience = 0;
  o.ga.seed = 2;

  const search_runs all = run_searches(o, {search_method::gdivan, search_method::random_ga, search_method::random});
  const search_runs again = run_searches(o, {search_method::gdivan, search_method::random_ga, search_method::random});

  ASSERT_EQ(all.results.size(), 3u);
  EXPECT_EQ(all.results[0].atoms.coverage(), 1.0);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(all.results[i].trace.evaluations, 300u) << i;
    EXPECT_EQ(all.results[i].trace.best, again.results[i].trace.best) << i;
    EXPECT_EQ(all.results[i].trace.best.size(), 202u);
    EXPECT_EQ(static_cast<double>(run_model(*o.kernel, o.model, all.results[i].trace.best, 100).cycles),
              all.results[i].trace.best_fitness);
  }
}

TEST(InputsHarness, SavedInputReadsBackWithItsBlockRecords) {
  const harness_ref k = load_harness(test::harness_fixture("good"));
  const genome g{1, 2, 3, 4, 5, 6, 3};  // three threads, then one block

  const std::string text = format_input(*k, 3, g);

  EXPECT_NE(text.find("2 integers per thread, then 1 per block"), std::string::npos) << text;
  EXPECT_EQ(parse_input(text, "saved", *k, 3), g);
  EXPECT_NE(test::error_of([&] { parse_input("1 2 3 4 5 6 4", "saved", *k, 3); }).find("outside [0, 3]"),
            std::string::npos);
}

TEST(InputsHarness, ErrorsAreReportedNotCrashes) {
  const std::string text_file = ::testing::TempDir() + "not_a_library.so";
  std::ofstream(text_file) << "not an ELF file\n";
  const harness_ref throws = load_harness(test::harness_fixture("throws"));
  std::vector<std::int32_t> seven{0, 0, 7, 0, 0};  // thread 1 has n = 7

  EXPECT_NE(test::error_of([] { load_harness("/no/such/libkernel.so"); }).find("no such file"), std::string::npos);
  EXPECT_NE(test::error_of([&] { load_harness(text_file); }).find("cannot load it"), std::string::npos);
  EXPECT_NE(test::error_of([] {
              load_harness(test::harness_fixture("no_entry"));
            }).find("no entry point warpspan_harness_entry"),
            std::string::npos);
  EXPECT_NE(test::error_of([] { load_harness(test::harness_fixture("bad_abi")); }).find("harness ABI version 99"),
            std::string::npos);
  EXPECT_NE(test::error_of([] { load_harness(test::harness_fixture("zero_genes")); }).find("zero genes"),
            std::string::npos);
  EXPECT_NE(test::error_of([] { load_harness(test::harness_fixture("bad_range")); }).find("bad range [5, 1]"),
            std::string::npos);
  EXPECT_EQ(test::error_of([&] { run_model(*throws, make_model(), seven, 2); }),
            "harness 'fixture' (" + test::harness_fixture("throws") +
                "): thread 1 (block 0, stage 0) threw: n = 7 is not allowed");
  EXPECT_NE(test::error_of([] {
              run_model(*load_harness(test::harness_fixture("bad_branch")), make_model(), std::vector<std::int32_t>(9),
                        4);
            }).find("thread 3 (block 0, stage 0): branch(2): the id must be below its branches (2)"),
            std::string::npos);
  EXPECT_NE(test::error_of([] {
              run_model(*load_harness(test::harness_fixture("bad_atomic")), make_model(), {0, 0, 0}, 1);
            }).find("atomic_add on an address outside its scratch and shared memory"),
            std::string::npos);
  EXPECT_NE(test::error_of([] {
              run_model(*load_harness(test::harness_fixture("endless")), make_model(), {0, 0, 0}, 1);
            }).find("more than 4194304 times in one launch"),
            std::string::npos);
}

TEST(InputsHarness, AFloatRangeIsSaidInItsShortestForm) {
  // A float range of +-1e300 (no float holds it) was printed by std::to_string: 300 digits each, a
  // 754-byte message. Now the shortest forms that read back: -1e+300 and 1e+300.
  static constexpr warpspan_field huge[] = {hx::thread_float("x", -1e300, 1e300)};
  warpspan_harness_v1 d = *hx::describe<fixture::kernel>();
  d.field_count = 1;
  d.fields = huge;

  const std::string message = test::error_of([&] { make_harness(&d, "test"); });

  EXPECT_NE(message.find("field 0 (x): bad float range [-1e+300, 1e+300]"), std::string::npos) << message;
  EXPECT_LT(message.size(), 200u) << message;
}

TEST(InputsHarness, AnOutputOutsideTheScratchSaysWhatWasAskedAndWhatExists) {
  // output() of 1 word short of 2^64 from word 1: the end (offset + size) wrapped to 0, and the
  // message said "words [1, 0)". It says the words asked for, from where, and the scratch's size
  // (the fixture's scratch is 1 + threads words).
  static warpspan_harness_v1 d = *hx::describe<fixture::kernel>();
  d.output = [](std::uint32_t, std::uint64_t* offset, std::uint64_t* words, char*) {
    *offset = 1;
    *words = UINT64_MAX;
    return 0;
  };

  // Checked when the harness is made, at its default threads (100: a scratch of 101 words).
  const std::string message = test::error_of([&] { make_harness(&d, "test"); });

  EXPECT_NE(message.find("output(100) asks for 18446744073709551615 words from word 1, but its scratch has 101 words"),
            std::string::npos)
      << message;
}

TEST(InputsHarness, ASavedInputForAnotherKernelIsRefused) {
  // The first line names the kernel the input was saved for; another kernel's parse refuses it,
  // naming both, rather than reading its integers as its own.
  const harness_ref k = load_harness(test::harness_fixture("good"));
  const std::string text =
      "# warpspan inputs: kernel bisect, 3 threads, 2 integers per thread, then 1 per block\n"
      "1 2\n3 4\n5 6\n3\n";

  const auto header = read_input_header(text);
  ASSERT_TRUE(header.has_value());
  EXPECT_EQ(header->kernel, "bisect");
  EXPECT_EQ(header->threads, 3u);
  const std::string message = test::error_of([&] { parse_input(text, "saved", *k, 3); });
  EXPECT_NE(message.find("saved:1: an input for kernel 'bisect', not for 'fixture'"), std::string::npos) << message;
  EXPECT_FALSE(read_input_header("1 2 3\n").has_value());
}

TEST(InputsHarness, ASearchReportsTheThrowingThread) {
  search_request r;
  r.harness = test::harness_fixture("throws");
  r.threads = 64;
  r.method = "random";
  r.evaluations = 50;
  const search_options o = make_search_options(r);

  // The search stops with what it had and the input the harness failed on (issue 41, item 14).
  const search_result res = run_search(o);
  EXPECT_NE(res.failure.find("threw: n = 7 is not allowed"), std::string::npos) << res.failure;
  ASSERT_EQ(res.failing_input.size(), o.kernel->genes(64));
  bool has_seven = false;
  for (std::uint32_t t = 0; t < 64; ++t) has_seven = has_seven || res.failing_input[2 * t] == 7;
  EXPECT_TRUE(has_seven);
  // Replayed alone it fails the same way (a harness_failure naming the harness and thread).
  EXPECT_NE(test::error_of([&] { evaluate_input(o, res.failing_input); }).find("threw: n = 7 is not allowed"),
            std::string::npos);
}

TEST(InputsHarness, AnExceptionThroughACThreadFunctionNamesItsThread) {
  // A thread function written against the C descriptor (not the C++ wrapper, which catches): a
  // std::exception was "internal error", exit 1, and `throw 42` ended warpspan (issue 41, item 10).
  // Both are now the harness's error, naming the thread.
  static warpspan_harness_v1 d = *hx::describe<fixture::kernel>();
  d.thread = [](const warpspan_hooks*, const warpspan_thread* t, char*) -> int {
    if (t->tid == 1) throw std::runtime_error("boom");
    if (t->tid == 2) throw 42;
    return 0;
  };
  const harness_ref k = make_harness(&d);
  EXPECT_EQ(test::error_of([&] {
              run_model(*k, make_model(), {0, 0, 0, 0, 0}, 2);
            }),
            "kernel 'fixture': thread 1 (block 0, stage 0) threw: boom");
  EXPECT_EQ(test::error_of([&] { run_model(*k, make_model(), std::vector<std::int32_t>(7, 0), 3); }),
            "kernel 'fixture': thread 1 (block 0, stage 0) threw: boom");
  static warpspan_harness_v1 d42 = *hx::describe<fixture::kernel>();
  d42.thread = [](const warpspan_hooks*, const warpspan_thread*, char*) -> int { throw 42; };
  EXPECT_EQ(test::error_of([&] {
              run_model(*make_harness(&d42), make_model(), {0, 0, 0}, 1);
            }),
            "kernel 'fixture': thread 0 (block 0, stage 0) threw an exception that is not a std::exception");
}

TEST(InputsHarness, TheSlowestBlockBecomesWarpsOfTheMakespanModel) {
  // One thread: n = 2 trips, x = -1 (grid 0 of [-1, 1]), mode 0. Its warp issues, one lane's
  // sectors each: the loads of n, x and mode (3L), work 2 and the loop's 2 x 3 (8C), the shared
  // store of x < 0 and the atomic (2L), work 1 (C), the store of x (L): 3L8C2L1C1L by hand.
  const harness_ref k = load_harness(test::harness_fixture("good"));
  block_warp_kernels w;
  const model_run r = run_model(*k, make_model(), {2, 0, 0}, 1, nullptr, &w);
  EXPECT_EQ(w.spec, "3L8C2LCL:1");
  EXPECT_EQ(w.warps, 1u);
  EXPECT_EQ(w.block, 0u);
  EXPECT_GT(w.cycles, 0u);
  EXPECT_EQ(r.launches, 1u);
  // 100 threads, two blocks of 64: the slowest block's warps, identical ones grouped; the spec
  // parses as --warp-kernels, and its instructions are the block's issue slots.
  std::vector<std::int32_t> input(k->genes(100), 0);
  for (std::uint32_t t = 64; t < 100; ++t) input[2 * t] = 8;  // block 1 loops 8 times a thread
  const block_warp_kernels b = worst_block(
      [&] {
        search_request q;
        q.harness = test::harness_fixture("good");
        q.threads = 100;
        return make_search_options(q);
      }(),
      input);
  EXPECT_EQ(b.block, 1u);
  EXPECT_EQ(b.warps, 2u);  // 36 threads: a warp of 32 and one of 4
  const std::vector<warp_group> groups = parse_warp_kernels(b.spec);
  std::uint32_t warps = 0;
  for (const warp_group& g : groups) warps += g.warps;
  EXPECT_EQ(warps, 2u);
  EXPECT_NE(b.spec.find("26C"), std::string::npos) << b.spec;  // work 2 + 8 trips x 3 (the loop, then the join)
}

TEST(InputsHarness, AWorkerEvaluatesAsTheProcessDoes) {
  // The same loaded harness through worker processes (model_cycles_guarded) and in this process.
  const harness_ref k = load_harness(test::harness_fixture("good"));
  ASSERT_TRUE(runs_isolated(*k));
  const model_config cfg = make_model();
  std::vector<genome> batch;
  const auto ranges = k->genome_ranges(100);
  for (std::uint64_t i = 0; i < 40; ++i) batch.push_back(random_genome(ranges, 9, 1, i));
  thread_pool pool(2);
  EXPECT_EQ(model_cycles_guarded(*k, cfg, batch, 100, pool, 2, 60), model_cycles_batch(*k, cfg, batch, 100, pool));
  EXPECT_EQ(run_model_guarded(*k, cfg, batch[3], 100, 60).cycles, run_model(*k, cfg, batch[3], 100).cycles);
  atom_options ao;
  ao.runs = 50;
  const atom_set here = find_atoms(*k, ao), there = find_atoms_guarded(*k, ao, 60);
  ASSERT_EQ(there.atoms.size(), here.atoms.size());
  for (std::size_t i = 0; i < here.atoms.size(); ++i) {
    EXPECT_EQ(there.atoms[i].input, here.atoms[i].input);
    EXPECT_EQ(there.atoms[i].instructions, here.atoms[i].instructions);
  }
  EXPECT_EQ(there.coverage(), here.coverage());
}

TEST(InputsHarness, KernelOrHarnessNotBoth) {
  search_request both, neither, gpu;
  both.kernel = "bfs";
  both.harness = test::harness_fixture("good");
  gpu.harness = test::harness_fixture("good");
  gpu.fitness = "gpu";

  EXPECT_NE(test::error_of([&] { make_search_options(both); }).find("exclusive"), std::string::npos);
  EXPECT_NE(test::error_of([&] { make_search_options(neither); }).find("is required"), std::string::npos);
  EXPECT_NE(test::error_of([&] { make_search_options(gpu); }).find("has no GPU entry"), std::string::npos);
}

TEST(InputsHarness, BuiltinsAreHarnessesToo) {
  // The built-ins go through the same descriptors: lbm's record is its type and 9 floats.
  const harness_ref lbm = find_kernel("lbm");

  EXPECT_TRUE(lbm->is_builtin());
  EXPECT_EQ(lbm->label(), "kernel 'lbm'");
  EXPECT_EQ(lbm->genes_per_thread(), 10u);
  EXPECT_EQ(lbm->branches(), 13u);
  EXPECT_EQ(find_kernel("bfs")->genome_ranges(5)[1].hi, 4);  // bfs's offsets: range() narrows them to [0, n - 1]
}

}  // namespace
}  // namespace warpspan::inputs
