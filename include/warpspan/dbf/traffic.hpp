// The memory traffic of one demand-bound table on the GPU, counted by running the shared dbf_cell
// (and what the level kernel does around it: the store of a cell a later level reads, the running
// minimum folded in) through counting pointers: see makespan/traffic.hpp for why.
#pragma once

#include <cstdint>

#include "warpspan/detail/core/counting_ptr.hpp"
#include "warpspan/dbf/dbf.hpp"

namespace warpspan {

struct dbf_traffic {
  std::uint64_t cells = 0;
  access_tally table;        ///< reads of predecessor cells and the writes of kept cells (global memory)
  access_tally tuples;       ///< predecessor tuples read by the cells (global for GPU, shared for GPU-SM)
  access_tally min_span;     ///< the running minimum (global memory)
  std::uint64_t staged = 0;  ///< GPU-SM: tuple bytes one block stages from global memory, all rows
  double per_cell(const access_tally& t) const { return cells ? static_cast<double>(t.bytes()) / cells : 0; }
};

/// Every cell of the table of `g`, as the level kernels compute them (a level's rows in one group).
dbf_traffic measure_dbf_traffic(const unrolled_graph& g);

}  // namespace warpspan
