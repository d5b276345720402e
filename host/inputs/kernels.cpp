// The built-in kernels as harnesses: their descriptors come from warpspan/harness.hpp's describe<K>(),
// as a loaded harness's come from its WARPSPAN_HARNESS macro, and everything runs them through it.
#include "warpspan/inputs/kernels.hpp"

#include "warpspan/core/error.hpp"
#include "warpspan/inputs/harness.hpp"

namespace warpspan::inputs {

const std::vector<harness_ref>& builtin_kernels() {
  static const std::vector<harness_ref> all = [] {
    std::vector<harness_ref> out;
    for (int i = 0; i < builtin_count; ++i)
      out.push_back(with_builtin(i, [i](auto k) {
        return std::make_shared<const kernel_harness>(warpspan::harness::describe<decltype(k)>(), "built-in", nullptr,
                                                      i);
      }));
    return out;
  }();
  return all;
}

harness_ref find_kernel(const std::string& name) {
  std::string names;
  for (const auto& k : builtin_kernels()) {
    if (k->name() == name) return k;
    names += (names.empty() ? "" : ", ") + k->name();
  }
  throw input_error("unknown kernel '" + name + "' (kernels: " + names +
                    "; or a harness of your own: " + param("harness") + ")");
}

}  // namespace warpspan::inputs
