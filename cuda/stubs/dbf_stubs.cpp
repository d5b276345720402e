// The dbf CUDA entry points when CUDA is off: a clear not_compiled error.
#include "warpspan/core/error.hpp"
#include "warpspan/dbf/dbf.hpp"

namespace warpspan {

namespace {
[[noreturn]] void no_cuda() {
  throw not_compiled("the CUDA backend was not compiled into this build (configure with nvcc available)");
}
}  // namespace

struct dbf_workspace::state {};
dbf_workspace::dbf_workspace(unsigned) : state_(std::make_unique<state>()) {}
dbf_workspace::~dbf_workspace() = default;
std::uint64_t dbf_workspace::device_allocations() const { return 0; }
std::size_t dbf_workspace::device_bytes() const { return 0; }
dbf_workspace::totals dbf_workspace::done() const { return {}; }

dbf_table cuda_dbf_table(const unrolled_graph&, bool, unsigned, bool, float*, dbf_workspace*, cuda_table_launch) {
  no_cuda();
}
std::vector<dbf_table> cuda_dbf_tables_batch(const std::vector<const unrolled_graph*>&, bool, unsigned, bool, float*,
                                             dbf_workspace*) {
  no_cuda();
}
std::vector<dbf_table> cuda_dbf_steps_batch(const std::vector<const unrolled_graph*>&, unsigned, unsigned, float*,
                                            std::size_t*, dbf_workspace*) {
  no_cuda();
}
std::size_t onchip_window_bytes(const unrolled_graph&, unsigned) { no_cuda(); }

}  // namespace warpspan
