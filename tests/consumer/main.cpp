// Calls the installed library as another project would; prints what it checked, exits 1 on a
// wrong value. argv[1]: the installed data/ (share/warpspan/data).
#include <cstdint>
#include <iostream>
#include <string>

#include "warpspan/dbf/dbf.hpp"
#include "warpspan/dbf/task.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/problem.hpp"
#include "warpspan/sm/kernel_string.hpp"
#include "warpspan/sm/presets.hpp"
#include "warpspan/sm/sm_config.hpp"

namespace {

int failures = 0;

void expect(const char* what, std::uint64_t got, std::uint64_t want) {
  std::cout << what << " = " << got << (got == want ? "" : " (expected " + std::to_string(want) + ")") << '\n';
  if (got != want) ++failures;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::cerr << "usage: consumer DATA_DIR\n";
    return 2;
  }
  // As `warpspan bound --kernel 5L9C2L9C --warps 16 --sigma L=1,C=4`: I + floor(sum_U (W - 1) I_U / sigma_U)
  // = 25 + 15 (5 + 2) + floor(15 (9 + 9) / 4) = 197.
  const warpspan::normalized_sm sm = warpspan::normalize(warpspan::sm_from_options(std::nullopt, "L=1,C=4"));
  const warpspan::problem prob =
      warpspan::make_problem(warpspan::normalize_kernel(warpspan::parse_kernel_string("5L9C2L9C"), sm), sm, 16);
  expect("pessimistic bound", warpspan::pessimistic_bound(prob), 197);

  // The task of fig. 2 (data/tasks/fig2_example.json): dbf(10) is v3 alone, dbf(50) is v3 v4 v1' v3',
  // dbf(100) = E + dbf(50).
  const warpspan::task_set set = warpspan::load_task_set(std::string(argv[1]) + "/tasks/fig2_example.json");
  const warpspan::unrolled_graph g = warpspan::unroll(set.tasks.at(0));
  const warpspan::dbf_curve dbf(warpspan::dbf_table_cpu(g).min_span, g);
  expect("dbf(10)", dbf.at(10), 6);
  expect("dbf(50)", dbf.at(50), 18);
  expect("dbf(100)", dbf.at(100), 30);
  return failures == 0 ? 0 : 1;
}
