// The gpu fitness backend's dispatch (include/warpspan/inputs/gpu.hpp): a built-in goes to the CUDA
// backend, a loaded harness to its own GPU entry.
#include "warpspan/inputs/gpu.hpp"

#include <cstring>

#include "warpspan/core/error.hpp"
#include "warpspan/core/quote.hpp"

namespace warpspan::inputs {

std::string no_gpu_entry(const kernel_harness& k) {
  return k.label() +
         " has no GPU entry (compile it with nvcc, which makes WARPSPAN_HARNESS export one, or against an emulation "
         "build's warpspan::cuda_emulation: docs/harness.md)";
}

std::vector<gpu_timing> cuda_time_inputs(const kernel_harness& k, std::uint32_t threads,
                                         const std::vector<std::vector<std::int32_t>>& genomes, int repetitions) {
  check_threads(threads);
  if (repetitions < 1 || repetitions > 1000) throw input_error("the GPU fitness takes 1 to 1000 timed runs");
  const output_range out = k.output(threads);
  if (k.is_builtin()) {
    std::vector<gpu_launch_input> inputs(genomes.size());
    for (std::size_t i = 0; i < genomes.size(); ++i) {
      k.check_length(genomes[i].size(), threads);
      inputs[i].input.resize(genomes[i].size());
      k.decode(genomes[i].data(), threads, inputs[i].input.data());
      inputs[i].scratch.resize(static_cast<std::size_t>(k.scratch_words(threads)));
      k.init_scratch(inputs[i].input.data(), inputs[i].scratch.data(), threads);
    }
    return cuda_time_builtin(k.builtin_index(), threads, inputs, k.flag_index(threads), out, repetitions);
  }
  if (!k.has_gpu_entry()) throw input_error(no_gpu_entry(k));
  std::vector<gpu_timing> timings;
  std::vector<std::int32_t> input;
  for (const auto& g : genomes) {
    k.check_length(g.size(), threads);
    input.resize(g.size());
    k.decode(g.data(), threads, input.data());
    gpu_timing t;
    t.output.resize(out.size);
    char error[WARPSPAN_HARNESS_ERROR_SIZE] = {};
    if (k.descriptor().time_gpu(input.data(), input.size(), threads, static_cast<std::uint32_t>(repetitions),
                                &t.median_ms, &t.launches, t.output.data(), out.size, error) != 0) {
      const std::size_t n = strnlen(error, sizeof error);
      throw input_error(k.label() + ": its GPU entry failed: " +
                        (n ? printable_text(std::string_view(error, n)) : std::string("no message")));
    }
    timings.push_back(std::move(t));
  }
  return timings;
}

}  // namespace warpspan::inputs
