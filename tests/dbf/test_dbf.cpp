// Algorithm 1 against brute-force path enumeration, dbf by eq. (1), hand-derived examples, and the
// CPU backends against each other.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "dbf/dbf_test_util.hpp"
#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/generate.hpp"
#include "warpspan/detail/dbf/level_plan.hpp"

namespace warpspan {
namespace {

dbf_curve curve_of(const task& t, dbf_table* table_out = nullptr, std::uint32_t* unit_out = nullptr) {
  const unrolled_graph g = unroll(t);
  dbf_table table = dbf_table_cpu(g, true);
  dbf_curve c(table.min_span, g);
  if (table_out) *table_out = std::move(table);
  if (unit_out) *unit_out = g.demand_unit;
  return c;
}

// The task of paper 003 Fig. 2 as far as its text gives it (e(v3) = 6, d(v3) = 10, p(v1, v3) = 10,
// P = 50), completed with values of our own: v1 -> v2 -> v4 and v1 -> v3 -> v4.
//   v1: e 2, d 5    v2: e 3, d 8    v3: e 6, d 10    v4: e 1, d 4
//   p(v1,v2) = 5, p(v1,v3) = 10, p(v2,v4) = 8, p(v3,v4) = 12
task fig2_task() {
  task t;
  t.name = "fig2";
  t.period = 50;
  t.vertices = {{"v1", 2, 5}, {"v2", 3, 8}, {"v3", 6, 10}, {"v4", 1, 4}};
  t.edges = {{0, 1, 5}, {0, 2, 10}, {1, 3, 8}, {2, 3, 12}};
  return t;
}

TEST(Dbf, Fig2TaskByHand) {
  const task t = fig2_task();
  validate_task(t);
  // E: v1 v3 v4 = 2 + 6 + 1.
  EXPECT_EQ(max_path_wcet(t), 9u);
  const dbf_curve c = curve_of(t);
  // Paths of T' (v1' is the second copy's source; span = separations + d of the last vertex):
  //   v4: 1 in 4;  v1: 2 in 5;  v2: 3 in 8;  v4 v1': 1+2 in 4+5 = 9;  v3: 6 in 10;
  //   v2 v4: 4 in 8+4 = 12;  v1 v2: 5 in 5+8 = 13;  v3 v4: 7 in 12+4 = 16;  v1 v3: 8 in 10+10 = 20;
  //   v3 v4 v1': 9 in 12+4+5 = 21; no path of 4 vertices spans under 21 with more than 7.
  EXPECT_EQ(c.small(3), 0u);
  EXPECT_EQ(c.small(4), 1u);
  EXPECT_EQ(c.small(5), 2u);
  EXPECT_EQ(c.small(8), 3u);
  EXPECT_EQ(c.small(9), 3u);
  EXPECT_EQ(c.small(10), 6u);
  EXPECT_EQ(c.small(15), 6u);
  EXPECT_EQ(c.small(16), 7u);
  EXPECT_EQ(c.small(19), 7u);
  EXPECT_EQ(c.small(20), 8u);
  EXPECT_EQ(c.small(21), 9u);
  // dbf(t) = dbf_small(t) below P; at t = 50 + 4, eq. (1) gives at least E + dbf_small(4) = 10.
  EXPECT_EQ(c.at(21), 9u);
  EXPECT_GE(c.at(54), 10u);
}

TEST(Dbf, OneVertexTaskIsASporadicTask) {
  // A single vertex (e, d, P) is a sporadic task: dbf(t) = max(0, floor((t - d) / P) + 1) e.
  for (std::uint64_t e = 1; e <= 3; ++e)
    for (std::uint64_t d = e; d <= 6; ++d)
      for (std::uint64_t P = d; P <= 9; ++P) {
        task t;
        t.name = "s";
        t.period = P;
        t.vertices = {{"v", e, d}};
        const dbf_curve c = curve_of(t);
        for (std::uint64_t x = 0; x <= 5 * P; ++x) {
          const std::uint64_t expect = x < d ? 0 : ((x - d) / P + 1) * e;
          ASSERT_EQ(c.at(x), expect) << "e " << e << " d " << d << " P " << P << " t " << x;
        }
      }
}

TEST(Dbf, TableMatchesBruteForceOnRandomGraphs) {
  std::mt19937_64 rng(2024);
  for (int k = 0; k < 300; ++k) {
    const task t = test::random_small_task(rng, 6, 6, 4);
    validate_task(t);
    const test::brute_paths brute(t);
    dbf_table table;
    std::uint32_t unit = 0;
    const dbf_curve c = curve_of(t, &table, &unit);
    ASSERT_EQ(max_path_wcet(t), test::brute_E(t)) << "case " << k;
    // min_span per exact demand (column e is demand e x unit, the gcd of the wcets: no path
    // demands anything else), then dbf_small and dbf at every t over a few periods.
    const std::uint64_t D = (table.min_span.size() - 1) * unit;
    for (std::uint64_t d = 1; d <= D; ++d)
      ASSERT_EQ(d % unit == 0 ? table.min_span[d / unit] : dbf_inf, brute.min_span(d))
          << "case " << k << " demand " << d;
    for (std::uint64_t d = D + 1; d < D + 3; ++d)
      ASSERT_EQ(brute.min_span(d), dbf_inf) << "case " << k << ": a path demands more than D";
    const std::uint64_t P = t.period;
    for (std::uint64_t x = 0; x <= 4 * P; ++x) {
      ASSERT_EQ(c.small(x), brute.small(x)) << "case " << k << " t " << x;
      ASSERT_EQ(c.at(x), test::brute_dbf(brute, c.E(), P, x)) << "case " << k << " t " << x;
    }
  }
}

TEST(Dbf, DemandsAreCountedInTheGcdOfTheWcets) {
  // Every wcet x 6: the table shrinks to the original's columns and dbf is 6 x the original's.
  std::mt19937_64 rng(77);
  for (int k = 0; k < 100; ++k) {
    const task t = test::random_small_task(rng, 6, 9, 4);
    task big = t;
    for (auto& v : big.vertices) v.wcet *= 6;
    const unrolled_graph g = unroll(t), gb = unroll(big);
    ASSERT_EQ(gb.demand_unit, 6 * g.demand_unit) << k;
    ASSERT_EQ(gb.columns(), g.columns()) << k;
    const dbf_curve c = curve_of(t), cb = curve_of(big);
    for (std::uint64_t x = 0; x <= 4 * t.period; ++x) ASSERT_EQ(cb.at(x), 6 * c.at(x)) << k << " t " << x;
  }
  // A sporadic task of any wcet has 2 columns.
  task s;
  s.name = "ns";
  s.period = 250'000'000;
  s.vertices = {{"v", 50'000'000, 200'000'000}};
  EXPECT_EQ(unroll(s).columns(), 2u);
}

TEST(Dbf, DbfIsConstantBetweenItsPoints) {
  std::mt19937_64 rng(77);
  for (int k = 0; k < 100; ++k) {
    const task t = test::random_small_task(rng, 5, 5, 3);
    const dbf_curve c = curve_of(t);
    for (std::uint64_t x = 1; x <= 4 * t.period; ++x) {
      const std::uint64_t p = c.prev_point(x);
      ASSERT_LE(p, x);
      ASSERT_EQ(c.at(x), c.at(p)) << "case " << k << " t " << x << " point " << p;
      if (c.at(x) != c.at(x - 1)) ASSERT_EQ(p, x) << "dbf steps at " << x << " but it is not a point";
    }
  }
}

TEST(Dbf, ParallelCpuTableEqualsReference) {
  std::mt19937_64 rng(5);
  int wide = 0;
  for (int k = 0; k < 60; ++k) {
    // Wide tables are split among threads; narrow ones run the same by-predecessor loop on one.
    const task t = k % 2 ? test::random_small_task(rng, 12, 3000, 50) : test::random_small_task(rng, 6, 6, 4);
    const unrolled_graph g = unroll(t);
    wide += g.columns() > 8192;
    const dbf_table ref = dbf_table_cpu(g, true);
    const dbf_table par = dbf_table_cpu_parallel(g, 3, true);
    ASSERT_EQ(ref.cells, par.cells) << "case " << k;
    ASSERT_EQ(ref.min_span, par.min_span) << "case " << k;
  }
  EXPECT_GT(wide, 5) << "too few tables wide enough to be split among threads";
}

/// The table of `g` computed as the single-table kernels compute it from `plan` (cuda_dbf_table), on
/// the CPU: level by level, each cell read from its predecessors' slots, kept in its row's slot if
/// it has one, folded into the running minimum. The slots start as garbage, so a read of a slot
/// before its row is written, or after another row took it, shows in the result.
std::vector<std::uint32_t> replay(const unrolled_graph& g, const detail::level_plan& plan,
                                  std::vector<std::uint32_t>* kept = nullptr) {
  const std::size_t columns = g.columns();
  std::vector<std::uint32_t> table(std::size_t{plan.slots} * columns, 0x5A5A5A5Au), mins(columns, dbf_inf);
  for (std::uint32_t v = 0; v < plan.levels(); ++v)
    for (std::uint32_t j = plan.level_begin[v]; j < plan.level_begin[v + 1]; ++j)
      for (std::uint32_t e = 0; e < columns; ++e) {
        const std::uint32_t cell = dbf_cell(e, plan.wcet[j], plan.deadline[j], plan.preds.data() + plan.pred_begin[j],
                                            plan.pred_begin[j + 1] - plan.pred_begin[j], table.data(), columns);
        if (plan.slot[j] != detail::no_slot) table[std::size_t{plan.slot[j]} * columns + e] = cell;
        mins[e] = std::min(mins[e], cell);
      }
  if (kept) *kept = std::move(table);
  return mins;
}

/// No two rows whose lives (from their level to the last level that reads them) meet share a slot,
/// and every tuple names its predecessor's slot.
void expect_slots_disjoint(const unrolled_graph& g, const detail::level_plan& plan) {
  std::vector<std::uint32_t> level(g.rows), position(g.rows), last(g.rows, detail::no_slot);
  for (std::uint32_t v = 0; v < plan.levels(); ++v)
    for (std::uint32_t j = plan.level_begin[v]; j < plan.level_begin[v + 1]; ++j) {
      level[plan.row[j]] = v;
      position[plan.row[j]] = j;
    }
  for (std::uint32_t r = 0; r < g.rows; ++r)
    for (std::uint32_t k = g.pred_begin[r]; k < g.pred_begin[r + 1]; ++k) {
      const std::uint32_t u = g.preds[k].row;
      last[u] = last[u] == detail::no_slot ? level[r] : std::max(last[u], level[r]);
      ASSERT_EQ(plan.preds[plan.pred_begin[position[r]] + (k - g.pred_begin[r])].row, plan.slot[position[u]]);
    }
  for (std::uint32_t a = 0; a < g.rows; ++a) {
    const std::uint32_t sa = plan.slot[position[a]];
    ASSERT_EQ(sa == detail::no_slot, last[a] == detail::no_slot) << "row " << a;
    if (sa == detail::no_slot) continue;
    ASSERT_LT(sa, plan.slots);
    for (std::uint32_t b = a + 1; b < g.rows; ++b)
      if (plan.slot[position[b]] == sa)
        ASSERT_TRUE(last[a] < level[b] || last[b] < level[a]) << "rows " << a << " and " << b << " share slot " << sa;
  }
}

TEST(Dbf, LevelPlanKeepsRowsOnlyWhileALaterLevelReadsThem) {
  std::mt19937_64 rng(17);
  std::vector<unrolled_graph> graphs;
  for (int k = 0; k < 40; ++k) graphs.push_back(unroll(test::random_small_task(rng, 14, 400, 40)));
  task_generator_options o;  // paper 003's Table I task of 50 vertices (the model's single table)
  o.vertices = 50;
  o.tasks = 1;
  o.max_wcet = 10000;
  o.seed = 1;
  graphs.push_back(unroll(generate_task(o, 0, 0)));
  std::uint32_t fewer = 0;
  for (const unrolled_graph& g : graphs) {
    const dbf_table ref = dbf_table_cpu(g, true);
    const detail::level_plan plan = detail::plan_levels(g, false);
    expect_slots_disjoint(g, plan);
    EXPECT_EQ(replay(g, plan), ref.min_span);
    fewer += plan.slots < g.rows;
    // Every row kept (keep_cells): row r in slot r, the whole table as the CPU computes it.
    const detail::level_plan whole = detail::plan_levels(g, true);
    ASSERT_EQ(whole.slots, g.rows);
    for (std::size_t j = 0; j < whole.row.size(); ++j) ASSERT_EQ(whole.slot[j], whole.row[j]);
    std::vector<std::uint32_t> cells;
    EXPECT_EQ(replay(g, whole, &cells), ref.min_span);
    EXPECT_EQ(cells, ref.cells);
  }
  EXPECT_GT(fewer, graphs.size() / 2) << "too few tables kept in fewer slots than rows";
}

TEST(Dbf, BatchOnCpuEqualsOneByOne) {
  std::mt19937_64 rng(9);
  std::vector<unrolled_graph> graphs;
  for (int k = 0; k < 40; ++k) graphs.push_back(unroll(test::random_small_task(rng, 8, 200, 20)));
  std::vector<const unrolled_graph*> ptrs;
  for (const auto& g : graphs) ptrs.push_back(&g);
  dbf_options opt;
  opt.backend = dbf_backend::cpu_parallel;
  opt.threads = 2;
  opt.keep_cells = true;
  const std::vector<dbf_table> batch = dbf_tables(ptrs, opt);
  ASSERT_EQ(batch.size(), graphs.size());
  for (std::size_t k = 0; k < graphs.size(); ++k) {
    const dbf_table one = dbf_table_cpu(graphs[k], true);
    ASSERT_EQ(batch[k].cells, one.cells) << k;
    ASSERT_EQ(batch[k].min_span, one.min_span) << k;
  }
}

TEST(Dbf, UnrolledGraphShape) {
  const unrolled_graph g = unroll(fig2_task());
  ASSERT_EQ(g.rows, 8u);
  EXPECT_EQ(g.wcet[0], 0u);  // the dummy
  EXPECT_EQ(g.deadline[0], 0u);
  EXPECT_EQ(g.wcet[4], 2u);  // the second copy's source keeps its values
  EXPECT_EQ(g.E, 9u);
  // D: v3 v4 v1' v3' v4' = 6 + 1 + 2 + 6 + 1 = 16 (the dummy adds nothing).
  EXPECT_EQ(g.max_demand, 16u);
  for (std::uint32_t r = 0; r < g.rows; ++r)
    for (std::uint32_t k = g.pred_begin[r]; k < g.pred_begin[r + 1]; ++k) EXPECT_LT(g.preds[k].row, r);
}

TEST(Dbf, TablesTooLargeAreRefused) {
  task t;
  t.name = "huge";
  for (int v = 0; v < 40; ++v) t.vertices.push_back({"v" + std::to_string(v), 1'000'000'000, 1'000'000'000});
  for (std::uint32_t v = 0; v + 1 < 40; ++v) t.edges.push_back({v, v + 1, 1'000'000'000});
  t.period = 1'000'000'000;
  // The period is far too short for 39 separations of 1e9: refused before any table.
  EXPECT_THROW(validate_task(t), input_error);
  t.vertices.resize(2);
  t.edges.resize(1);
  t.period = 1ull << 30;
  EXPECT_THROW(validate_task(t), input_error);  // needs 1e9 + 1e9 > 2^30
  // (wcets with gcd 1: a common factor would shrink the table by that factor)
  t.vertices = {{"a", 500'000'001, 1'000'000'000}, {"b", 499'999'999, 1}};
  t.edges = {{0, 1, 1'000'000'000}};
  t.period = 1ull << 30;
  validate_task(t);  // 1e9 + 1 <= 2^30
  // D = b a' b' = 1.5e9 demands over 4 rows: about 22 GiB, over the default 8 GiB.
  const unrolled_graph g = unroll(t);
  dbf_options opt;
  try {
    check_table_size(g, t.name, opt);
    FAIL() << "a table of " << g.cells() << " cells was accepted";
  } catch (const input_error& e) {
    EXPECT_NE(std::string(e.what()).find("task 'huge'"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("MiB"), std::string::npos) << e.what();
  }
}

TEST(Dbf, TableLimitFollowsTheMachinesMemory) {
  // 2^20 rows x 2^31 demands: 8 PiB, far beyond any machine, refused even with no --max-table-mib.
  unrolled_graph g;
  g.rows = 1u << 20;
  g.max_demand = (1u << 31) - 1;
  dbf_options opt;
  opt.max_table_bytes = ~std::uint64_t{0};
  try {
    check_table_size(g, "vast", opt);
    FAIL() << "a table larger than the machine's memory was accepted";
  } catch (const input_error& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("task 'vast'"), std::string::npos) << what;
    // (2^20 x 2^31 + 2^31) x 4 bytes = 2^53 + 2^33 bytes = 2^33 MiB + 8192 MiB.
    EXPECT_NE(what.find("would need " + std::to_string((std::uint64_t{1} << 33) + 8192) + " MiB"), std::string::npos)
        << what;
    EXPECT_NE(what.find("available"), std::string::npos) << what;
  }
}

TEST(Dbf, BatchMemoryCountsEveryRunningMinimumAndTheTablesBeingComputed) {
  const unrolled_graph a = unroll(fig2_task());  // 8 rows x 17 columns
  std::mt19937_64 rng(3);
  const unrolled_graph b = unroll(test::random_small_task(rng, 5, 40, 10));
  const std::uint64_t full_a = (8 * 17 + 17) * 4, full_b = (std::uint64_t{b.rows} * b.columns() + b.columns()) * 4;
  dbf_options opt;
  opt.backend = dbf_backend::cpu;  // one table at a time
  EXPECT_EQ(tables_memory_bytes({&a, &b}, opt), (17 + b.columns()) * 4 + std::max(full_a, full_b));
  opt.backend = dbf_backend::cpu_parallel;
  opt.threads = 2;  // both tables at once
  EXPECT_EQ(tables_memory_bytes({&a, &b}, opt), (17 + b.columns()) * 4 + full_a + full_b);
  opt.max_table_bytes = 100;
  EXPECT_THROW(check_tables_memory({&a, &b}, opt, "batch"), input_error);
}

/// A chain v0 -> v1 -> ... -> v(n-1) with deadlines, separations and wcets 1.
task chain(std::uint32_t n) {
  task t;
  t.name = "chain";
  for (std::uint32_t v = 0; v < n; ++v) t.vertices.push_back({"v" + std::to_string(v), 1, 1});
  for (std::uint32_t v = 0; v + 1 < n; ++v) t.edges.push_back({v, v + 1, 1});
  t.period = n;
  return t;
}

TEST(Dbf, ACycleInALargeGraphIsNamedVertexByVertex) {
  // 120,000 vertices with the back edge v100000 -> v99998: the cycle v99998 v99999 v100000.
  task t = chain(120'000);
  t.edges.push_back({100'000, 99'998, 1});
  std::string what;
  try {
    validate_task(t);
  } catch (const input_error& e) {
    what = e.what();
  }
  ASSERT_NE(what.find("cycle"), std::string::npos) << what;
  EXPECT_NE(what.find("(3 vertices)"), std::string::npos) << what;
  // The named vertices, 'a' -> 'b' -> ... -> 'a', must follow edges of the task and close the cycle.
  std::vector<std::string> named;
  for (std::size_t at = what.find('\''); at != std::string::npos; at = what.find('\'', what.find('\'', at + 1) + 1))
    named.push_back(what.substr(at + 1, what.find('\'', at + 1) - at - 1));
  ASSERT_EQ(named.size(), 5u) << what;  // the task's name, three vertices and the first again
  named.erase(named.begin());
  EXPECT_EQ(named.front(), named.back());
  auto index = [](const std::string& id) { return static_cast<std::uint32_t>(std::stoul(id.substr(1))); };
  for (std::size_t k = 0; k + 1 < named.size(); ++k) {
    const std::uint32_t u = index(named[k]), v = index(named[k + 1]);
    EXPECT_TRUE(
        std::any_of(t.edges.begin(), t.edges.end(), [&](const task_edge& e) { return e.from == u && e.to == v; }))
        << named[k] << " -> " << named[k + 1] << " is not an edge";
  }
}

TEST(Dbf, JsonNumbersOutsideTheModelAreInputErrors) {
  auto set_with = [](const std::string& period, const std::string& wcet) {
    return R"({"tasks": [{"name": "x", "period": )" + period + R"(, "vertices": [{"id": "v", "wcet": )" + wcet +
           R"(, "deadline": 5}]}]})";
  };
  struct bad {
    std::string period, wcet, mention;
  };
  for (const bad& c :
       {bad{"1e400", "1", "period"}, bad{"-1e400", "1", "period"}, bad{"99999999999999999999999", "1", "period"},
        bad{"-5", "1", "period"}, bad{"10", "2.5", "wcet"}, bad{"10", "true", "wcet"}, bad{"10", "\"3\"", "wcet"},
        bad{"18446744073709551615", "1", "period"}, bad{"10", "0", "wcet"}, bad{"10", "1e400", "wcet"}}) {
    try {
      parse_task_set(set_with(c.period, c.wcet), "f.json");
      ADD_FAILURE() << c.period << " " << c.wcet << " was accepted";
    } catch (const input_error& e) {
      EXPECT_NE(std::string(e.what()).find("f.json"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find(c.mention), std::string::npos) << e.what();
    } catch (const std::exception& e) {
      ADD_FAILURE() << c.period << " " << c.wcet << ": not an input_error: " << e.what();
    }
  }
  EXPECT_EQ(parse_task_set(set_with("10", "2"), "f.json").tasks[0].vertices[0].wcet, 2u);
}

TEST(Dbf, BackendWords) {
  EXPECT_EQ(parse_dbf_backend("cpu-parallel"), dbf_backend::cpu_parallel);
  EXPECT_EQ(parse_dbf_backend("cuda-sm"), dbf_backend::cuda_sm);
  EXPECT_THROW(parse_dbf_backend("gpu"), input_error);
  EXPECT_EQ(resolve_dbf_backend(dbf_backend::cpu), dbf_backend::cpu);
  if (cuda_device_count() == 0) {
    EXPECT_EQ(resolve_dbf_backend(dbf_backend::automatic), dbf_backend::cpu_parallel);
    EXPECT_THROW(resolve_dbf_backend(dbf_backend::cuda_sm), input_error);
  }
}

}  // namespace
}  // namespace warpspan
