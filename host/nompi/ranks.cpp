// A build without WARPSPAN_MPI: always one process.
#include <iostream>

#include "warpspan/core/ranks.hpp"

namespace warpspan {

bool mpi_compiled() { return false; }
void start_ranks(int&, char**&) {}
void finish_ranks(int) {}

rank_group& world() {
  static single_process one;
  return one;
}

int fail_ranks(int code, const std::string& line) {
  std::cerr << line << '\n';
  return code;
}

}  // namespace warpspan
