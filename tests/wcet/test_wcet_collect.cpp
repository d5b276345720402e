// The instrumented kernels: their CFGs (every build) and, on a GPU or in the CUDA emulation build,
// the probe's buffer handling and the traces it writes, parsed by the analysis.
#include <gtest/gtest.h>

#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "cli/cli_util.hpp"
#include "test_util.hpp"
#include "warpspan/core/backend.hpp"
#include "warpspan/wcet/collect.hpp"
#include "wcet_test_util.hpp"

namespace warpspan::wcet {
namespace {

TEST(WcetKernels, EveryCfgIsReducibleWithIpointIdsInOrder) {
  for (const auto& k : instrumented_kernels()) {
    const auto p = prepare_program(parse_cfg_json(k.cfg_json, k.name), k.name);

    EXPECT_EQ(p.ipoints.names, k.ipoints) << k.name;
    EXPECT_EQ(p.ipoints.names[p.ipoints.source], "start") << k.name;
    EXPECT_EQ(p.ipoints.names[p.ipoints.sink], "end") << k.name;
  }
  EXPECT_EQ(instrumented_kernels().size(), 8u);
}

TEST(WcetKernels, UnknownKernelIsAnInputError) {
  EXPECT_THROW(find_instrumented_kernel("matrix_inverse"), input_error);
}

class WcetGpu : public ::testing::Test {
 protected:
  void SetUp() override { WARPSPAN_REQUIRE_GPU(); }
};

/// Collects `runs` runs and analyses them with the kernel's CFG.
std::pair<collect_result, wcet_report> collect_and_analyse(const std::string& name, unsigned runs, unsigned size) {
  const auto& k = find_instrumented_kernel(name);
  collect_request request;
  request.kernel = name;
  request.runs = runs;
  request.seed = 7;
  request.size = size;
  const auto c = collect_wcet_traces(request);
  const auto p = prepare_program(parse_cfg_json(k.cfg_json, name), name);
  std::vector<trace_record> records;
  for (const auto& r : c.records)
    records.push_back({r.run, r.sm, r.cta, r.warp, r.ipoint, r.clock, 0, records.size() + 1});
  trace_set set;
  read_trace(name + ".bin", binary_trace(k.ipoints, records, c.probe_cost), trace_format::automatic, p.ipoints, set);
  return {c, analyse_wcet(p, set, {})};
}

TEST_F(WcetGpu, VectorAddRecordsEveryWarpOnce) {
  // 10000 elements in blocks of 256: 320 warps, of which ceil(10000 / 32) = 313 have a lane in range
  // and record start, add, end; the other 7 record start, end.
  const auto [c, r] = collect_and_analyse("vector_add", 2, 10000);

  EXPECT_TRUE(c.verified);
  EXPECT_EQ(c.lost, 0u);
  EXPECT_EQ(c.grid, 40u);
  EXPECT_EQ(c.records.size(), 2u * (313 * 3 + 7 * 2));
  EXPECT_EQ(r.observed.warps, 2u * 320);
  EXPECT_EQ(r.observed.runs, 2u);
  EXPECT_GE(r.z_warp, r.observed.longest_wst);
  EXPECT_GE(r.z_dynamic, r.concurrency.hwmt);
}

TEST_F(WcetGpu, SequentialReductionRecordsTheStepsEachWarpTakes) {
  // Per block of 256 (8 warps): start, 8 x (step, sync), after, end per warp = 8 x 19; the add of
  // step s in warp w iff 32 w < s: 4 + 2 + 1 + 5 = 12; the store in warp 0: 1. 32 blocks.
  const auto [c, r] = collect_and_analyse("reduce_sequential", 1, 8192);

  EXPECT_TRUE(c.verified);
  EXPECT_EQ(c.records.size(), 32u * (8 * 19 + 12 + 1));
  EXPECT_EQ(r.observed.warps, 32u * 8);
  ASSERT_EQ(r.problem.loops.size(), 1u);
  EXPECT_EQ(r.problem.loops[0].bound, 8u);  // log2(256) steps, measured
  EXPECT_GE(r.z_warp, r.observed.longest_wst);
}

TEST_F(WcetGpu, DivergentSidesRecordTheirOwnIpoints) {
  // Bitonic sort, blocks of 128 (4 warps): in pass j of stage k, lane tid compares when bit j of tid
  // is clear, and goes up (Ipoint 4) when bit k is clear too, down (5) otherwise. A warp records an
  // Ipoint once per pass in which some lane of it gets there (its first active lane records), so
  // the down side records in every warp although lane 0 never goes down while k < 32.
  const auto c = collect_wcet_traces([] {
    collect_request request;
    request.kernel = "bitonic_sort";
    request.runs = 1;
    request.size = 256;
    return request;
  }());
  ASSERT_TRUE(c.verified);
  ASSERT_EQ(c.lost, 0u);
  std::map<std::pair<std::uint32_t, std::uint32_t>, std::map<std::uint32_t, unsigned>> got, want;
  for (const auto& r : c.records) ++got[{r.cta, r.warp}][r.ipoint];
  for (std::uint32_t cta = 0; cta < 2; ++cta)
    for (std::uint32_t warp = 0; warp < 4; ++warp) {
      auto& w = want[{cta, warp}];
      w[0] = w[6] = 1;
      for (unsigned k = 2; k <= 128; k <<= 1) {
        ++w[1];
        for (unsigned j = k >> 1; j > 0; j >>= 1) {
          ++w[2];
          bool compare = false, up = false, down = false;
          for (unsigned tid = 32 * warp; tid < 32 * warp + 32; ++tid) {
            if ((tid ^ j) <= tid) continue;
            compare = true;
            ((tid & k) == 0 ? up : down) = true;
          }
          w[3] += compare, w[4] += up, w[5] += down;
        }
      }
    }
  EXPECT_EQ(got, want);
  const auto& first_warp = want[{0, 0}];
  EXPECT_GT(first_warp.at(5), 0u);  // lane 0 never goes down while k < 32, yet the warp records it
}

TEST_F(WcetGpu, FullSlicesKeepTheFirstRecordsAndCountTheRest) {
  collect_request request;
  request.kernel = "reduce_sequential";
  request.runs = 1;
  request.size = 512;
  request.slice = 10;

  const auto c = collect_wcet_traces(request);

  // Records per warp of a block (see above): warp 0 28, warp 1 21, warps 2 and 3 20, warps 4-7 19;
  // beyond 10: 18 + 11 + 10 + 10 + 4 x 9 = 85 per block, two blocks. Kept: 10 per warp.
  EXPECT_EQ(c.lost, 2u * 85);
  EXPECT_EQ(c.records.size(), 2u * 8 * 10);
  for (std::size_t i = 0; i < c.records.size(); i += 10)
    EXPECT_EQ(c.records[i].ipoint, 0u);  // each slice starts at start
}

TEST_F(WcetGpu, CliRefusesTracesCutShort) {
  const auto r = warpspan::test::run_warpspan("wcet-collect reduce_sequential --runs 1 --size 512 --slice 10 --out " +
                                              warpspan::test::scratch(".bin"));

  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("170 records did not fit"), std::string::npos) << r.err;
}

TEST_F(WcetGpu, EveryKernelsTracesParseWithItsCfg) {
  const bool device = warpspan::test::gpu_test_size(1, 0) == 1;  // the emulation runs smaller sizes
  const std::map<std::string, unsigned> sizes{{"vector_add", 3000},        {"reduce_interleaved", 1000},
                                              {"reduce_sequential", 1000}, {"transpose_naive", 45},
                                              {"transpose_shared", 45},    {"scan", 700},
                                              {"histogram", 5000},         {"bitonic_sort", 384}};
  for (const auto& k : instrumented_kernels()) {
    const unsigned size = device ? k.default_size : sizes.at(k.name);

    const auto [c, r] = collect_and_analyse(k.name, 2, size);

    EXPECT_TRUE(c.verified) << k.name;
    EXPECT_EQ(c.lost, 0u) << k.name;
    EXPECT_EQ(r.observed.warps, 2u * c.grid * ((c.block + 31) / 32)) << k.name;
    EXPECT_GE(r.z_warp, r.observed.longest_wst) << k.name;
    EXPECT_GE(r.z_dynamic, r.concurrency.hwmt) << k.name;
    EXPECT_GE(c.probe_cost, 0) << k.name;
    std::set<std::uint32_t> sms;
    for (const auto& rec : c.records) sms.insert(rec.sm);
    EXPECT_LT(*sms.rbegin(), 1024u) << k.name;
  }
}

TEST_F(WcetGpu, CliCollectsThenAnalyses) {
  const std::string bin = warpspan::test::scratch(".bin"), cfg = warpspan::test::scratch(".json");

  const auto collect =
      warpspan::test::run_warpspan("wcet-collect bitonic_sort --runs 2 --size 256 --out " + bin + " --cfg-out " + cfg);
  const auto analyse =
      warpspan::test::run_warpspan("wcet --cfg " + cfg + " --trace " + bin + " --probe-cost auto --json");

  ASSERT_EQ(collect.code, 0) << collect.err;
  ASSERT_EQ(analyse.code, 0) << analyse.err;
  const auto j = nlohmann::json::parse(analyse.out);
  EXPECT_EQ(j["warps"], 2 * 2 * 4);  // 2 runs x 2 blocks x 4 warps
  EXPECT_EQ(j["runs"], 2);
  // Bitonic sort of 128 keys: 7 stages, and passes 1 + 2 + ... + 7 = 28 in all, at most 7 per stage.
  std::map<std::string, std::uint64_t> bound;
  for (const auto& l : j["loops"]) bound[l["header"]] = l["bound"];
  EXPECT_EQ(bound["ktest"], 7u);
  EXPECT_EQ(bound["jtest"], 7u);
  EXPECT_GE(j["z_warp"].get<std::int64_t>(), j["longest_wst"].get<std::int64_t>());
}

}  // namespace
}  // namespace warpspan::wcet
