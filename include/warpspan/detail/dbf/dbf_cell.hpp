// The cell of the dynamic program of paper 003 Algorithm 1 (lines 8-9), written once for the CPU
// backends and the CUDA kernels.
//
// Row v of the table holds, for each demand e = 0..D, the shortest span of a path of T' that ends
// at v and has demand exactly e (dbf_inf: no such path). A path may start at any vertex; its span
// is the sum of separations along it plus d of its last vertex, so extending a path ending at u by
// the edge (u, v) adds p(u, v) - d(u) + d(v). With e(v) = e the path can also start at v.
#pragma once

#include <cstddef>
#include <cstdint>

#include "warpspan/core/macros.hpp"

namespace warpspan {

inline constexpr std::uint32_t dbf_inf = 0xFFFFFFFFu;

/// A predecessor u of a row's vertex v: its row and gap = p(u, v) - d(u) (>= 0 under frame
/// separation). These tuples are what GPU-SM stages in shared memory (003 Fig. 4).
struct dbf_pred {
  std::uint32_t row;
  std::uint32_t gap;
};

/// The span of a path ending at u extended by (u, v): `before` + gap + d(v) (`add`), or dbf_inf
/// when there is no path to extend. Real spans stay far below dbf_inf (values <= 2^30).
WARPSPAN_HD_INLINE std::uint32_t dbf_extend(std::uint32_t before, std::uint32_t add) {
  return before == dbf_inf ? dbf_inf : before + add;
}

/// Shortest span of a path ending at the row's vertex (wcet ev, deadline dv) with demand exactly e.
/// `table` is row-major with `stride` cells per row; predecessor rows come before this row. The
/// pointers are template parameters so that a counting view (detail/core/counting_ptr.hpp) can measure the
/// memory traffic of exactly this code; each tuple is read once, as a whole.
template <class Preds, class Table>
WARPSPAN_HD_INLINE std::uint32_t dbf_cell(std::uint32_t e, std::uint32_t ev, std::uint32_t dv, const Preds& preds,
                                          std::uint32_t npreds, const Table& table, std::size_t stride) {
  if (e < ev) return dbf_inf;
  std::uint32_t best = (e == ev) ? dv : dbf_inf;
  const std::uint32_t rest = e - ev;
  for (std::uint32_t k = 0; k < npreds; ++k) {
    const dbf_pred pred = preds[k];
    const std::uint32_t span = dbf_extend(table[static_cast<std::size_t>(pred.row) * stride + rest], pred.gap + dv);
    best = span < best ? span : best;
  }
  return best;
}

}  // namespace warpspan
