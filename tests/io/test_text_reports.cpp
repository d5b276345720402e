// The text reports of io/dbf_text.hpp, io/estimate_text.hpp and io/exact_text.hpp: what they print does not depend on
// the stream's format as given, and the stream's format comes back as it was.
#include <gtest/gtest.h>

#include <iomanip>
#include <sstream>
#include <string>

#include "warpspan/dbf/pipeline.hpp"
#include "warpspan/dbf/task.hpp"
#include "warpspan/io/dbf_text.hpp"
#include "warpspan/io/estimate_text.hpp"
#include "warpspan/io/exact_text.hpp"
#include "warpspan/io/result_json.hpp"
#include "warpspan/orchestrator/shards.hpp"
#include "test_util.hpp"

namespace warpspan {
namespace {

/// 003's Fig. 2: one task of four vertices, period 50.
constexpr const char* fig2 = R"({"tasks": [{"name": "fig2", "period": 50,
  "vertices": [{"id": "v1", "wcet": 5, "deadline": 10}, {"id": "v2", "wcet": 3, "deadline": 5},
               {"id": "v3", "wcet": 4, "deadline": 12}, {"id": "v4", "wcet": 2, "deadline": 8}],
  "edges": [{"from": "v1", "to": "v2", "separation": 10}, {"from": "v2", "to": "v3", "separation": 15},
            {"from": "v3", "to": "v4", "separation": 12}, {"from": "v1", "to": "v3", "separation": 20}]}]})";

/// `print` into a fresh stream and into one with another format (fixed, precision 9, left, fill
/// '*'): the same text, and the second stream's format kept.
template <class Print>
std::string printed_alike(const Print& print) {
  std::ostringstream plain;
  print(plain);
  std::ostringstream odd;
  odd << std::fixed << std::setprecision(9) << std::left << std::setfill('*');
  print(odd);
  EXPECT_EQ(odd.str(), plain.str());
  EXPECT_EQ(odd.precision(), 9);
  EXPECT_EQ(odd.flags() & std::ios::floatfield, std::ios::fixed);
  EXPECT_EQ(odd.flags() & std::ios::adjustfield, std::ios::left);
  EXPECT_EQ(odd.fill(), '*');
  return plain.str();
}

TEST(DbfText, OneSetWithItsTable) {
  const dbf_session session(dbf_backend::cpu, 1, 256, default_max_table_mib, edf_method::qpa);
  double elapsed_s = 0;
  const analysed_set a = analyse_one(parse_task_set(fig2, "fig2.json"), "fig2.json", session, elapsed_s);
  const std::string text = printed_alike([&](std::ostream& out) {
    print_dbf_set(out, a, {10, 1000000}, 0.5, session);
  });
  EXPECT_EQ(text.rfind("task set         fig2.json (1 task)\n", 0), 0u) << text;
  EXPECT_NE(text.find("verdict          " + edf_verdict_text(a.result) + "\n"), std::string::npos) << text;
  EXPECT_NE(text.find(" (qpa) on cpu, 0.5 s for tables and test\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\n     1 000 000"), std::string::npos) << text;  // t in groups of three
}

TEST(DbfText, BatchAndSweepLinesAndSummaries) {
  analysed_set a;
  a.index = 3;
  a.label = "set.json";
  a.result.schedulable = true;
  a.result.u.value = 0.25;
  a.result.u.vs_one = -1;
  a.result.u.t_max = 40;
  const set_record rec = batch_text_record(a, parameter_face{});
  EXPECT_EQ(rec.verdict, 0);
  EXPECT_EQ(stated_verdict(rec.line, false), 0);
  std::ostringstream line;
  print_batch_record(line, rec, false);
  EXPECT_EQ(line.str(), rec.line + "  set.json\n");

  analysed_set bad = a;
  bad.error = "no tasks";
  const set_record invalid = batch_text_record(bad, parameter_face{});
  EXPECT_EQ(invalid.verdict, 2);
  EXPECT_EQ(stated_verdict(invalid.line, false), 2);

  dbf_batch_tally t;
  t.add(rec);
  t.add(invalid);
  const dbf_run_end end{true, 1.25, -1};
  EXPECT_EQ(printed_alike([&](std::ostream& out) { print_batch_summary(out, t, end, "cpu", true); }),
            "1 of 2 sets schedulable (0 not schedulable, 1 invalid) (cpu, 1.25 s for all tables and tests)\n");
  EXPECT_EQ(
      batch_end_json(t, end).dump(),
      R"({"end":true,"sets":2,"schedulable":1,"not_schedulable":0,"invalid":1,"elapsed_s":1.25,"kernel_s":null})");

  a.factor = 1.5;
  const set_record variant = sweep_text_record(a, "wcet", parameter_face{});
  EXPECT_EQ(variant.line, "wcet x 1.5000  U 0.2500  t_max           40  schedulable by EDF\n");
  dbf_sweep_tally s;
  s.add(variant);
  sweep_spec spec;
  spec.kind = "wcet";
  spec.steps = 1;
  EXPECT_EQ(printed_alike([&](std::ostream& out) { print_sweep_summary(out, s, spec, end, "cpu", 1.2345678, 2, ""); }),
            "1 of 1 variants schedulable (factors 1.5 to 1.5 among them); cpu, 1.25 s for all tables and tests\n"
            "critical factor  1.234568 (the wcet factor where the verdict changes, by bisection; the first of 2 "
            "changes on the grid)\n");
  EXPECT_EQ(sweep_end_json(s, {false, 0, -1}, std::nullopt, 0, "").dump(), R"({"interrupted":true,"variants_done":1})");
}

TEST(EstimateText, BarrierNote) {
  EXPECT_EQ(barrier_note(test::make("LC", 4, 1, 4)), "");
  EXPECT_EQ(barrier_note(test::make("LBC", 4, 1, 4)), ", 1 barrier (one block of all 4 warps)");
  EXPECT_EQ(barrier_note(test::make_blocks("LBCB", 8, 1, 4, 0, 4)), ", 2 barriers (blocks of 4 warps)");
}

/// exact's request checked and run by the library (as both faces run it), then its text: Voronoi's
/// first pass at 4 warps is T(4) = 45 (001's Fig. 11 example; tests/exact/test_search.cpp), and an
/// at_most of 40 is answered "does not hold" with the witness of 45.
TEST(ExactText, TheSearchsAnswerAndTheQuestion) {
  exact_request request;
  request.threads = 1;
  request.warm_start = 0;
  request.at_most = 40;
  const exact_plan plan = check_exact_request(request);
  const problem prob = test::make("5L9C2L9C", 4, 1, 4);
  const exact_report report = run_exact_plan(prob, plan);
  ASSERT_TRUE(report.search.complete);
  exact_text_options options;
  options.table = false;
  const std::string text =
      printed_alike([&](std::ostream& out) { print_exact_text(out, prob, plan, report, options); });
  EXPECT_EQ(text.find("kernel      "), 0u) << text;
  EXPECT_NE(text.find("\nexact       45 cycles (" + report.algorithm + " search on cpu, "), std::string::npos) << text;
  EXPECT_NE(text.find("\nat most     40 cycles does not hold: the witness takes 45\n"), std::string::npos) << text;
  EXPECT_NE(text.find("\nwitness     "), std::string::npos) << text;
  EXPECT_EQ(text.find("interrupted"), std::string::npos) << text;
  EXPECT_EQ(exact_json(prob, plan, report)["makespan"], 45);
}

/// A request out of range is refused by the library, with the face's words.
TEST(ExactText, RequestsAreChecked) {
  const auto refused = [](auto change) {
    exact_request r;
    change(r);
    return test::error_of([&] { check_exact_request(r); });
  };
  EXPECT_NE(refused([](exact_request& r) { r.method = "guess"; }).find("is not a method"), std::string::npos);
  EXPECT_NE(refused([](exact_request& r) { r.constraints = "tight"; }).find("is not a form"), std::string::npos);
  EXPECT_NE(refused([](exact_request& r) { r.time_limit_s = -1; }).find("must be 0 or more"), std::string::npos);
  EXPECT_NE(refused([](exact_request& r) { r.max_states = -1; }).find("must be 0 (no limit) or more"),
            std::string::npos);
  EXPECT_NE(refused([](exact_request& r) { r.warm_start = -1; }).find("must be 0 (none) or more"), std::string::npos);
  EXPECT_NE(refused([](exact_request& r) {
              r.at_most = 50;
              r.prune = false;
            }).find("pruning off"),
            std::string::npos);
  exact_request unpruned;
  unpruned.prune = false;
  EXPECT_EQ(check_exact_request(unpruned).warm_start, 0u);  // no warm start without pruning
}

}  // namespace
}  // namespace warpspan
