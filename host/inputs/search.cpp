// The three methods of `warpspan inputs` over one fitness backend (include/warpspan/inputs/search.hpp).
#include "warpspan/inputs/search.hpp"

#include <algorithm>
#include <limits>

#include "warpspan/core/backend.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/inputs/gpu.hpp"
#include "warpspan/inputs/isolated.hpp"

namespace warpspan::inputs {

namespace {
constexpr std::uint32_t stream_random = 3;
}  // namespace

search_method parse_method(const std::string& word) {
  if (word == "gdivan") return search_method::gdivan;
  if (word == "random-ga") return search_method::random_ga;
  if (word == "random") return search_method::random;
  throw input_error("unknown method '" + word + "' (methods: gdivan, random-ga, random)");
}

std::string to_string(search_method m) {
  switch (m) {
    case search_method::random_ga: return "random-ga";
    case search_method::random: return "random";
    case search_method::gdivan: break;
  }
  return "gdivan";
}

fitness_kind parse_fitness(const std::string& word) {
  if (word == "model") return fitness_kind::model;
  if (word == "gpu") return fitness_kind::gpu;
  throw input_error("unknown fitness '" + word + "' (fitness: model, gpu)");
}

std::string to_string(fitness_kind f) { return f == fitness_kind::gpu ? "gpu" : "model"; }

batch_fitness make_fitness(const search_options& o, thread_pool& pool) {
  if (o.fitness == fitness_kind::gpu) {
    return [&o](const std::vector<genome>& batch) {
      std::vector<double> out;
      for (const auto& t : cuda_time_inputs(*o.kernel, o.threads, batch, o.gpu_repetitions)) out.push_back(t.median_ms);
      return out;
    };
  }
  return [&o, &pool](const std::vector<genome>& batch) {
    const auto cycles =
        model_cycles_guarded(*o.kernel, o.model, batch, o.threads, pool, o.cpu_threads, o.eval_timeout_s);
    return std::vector<double>(cycles.begin(), cycles.end());
  };
}

search_options make_search_options(const search_request& r) {
  search_options o;
  if (r.kernel.empty() && r.harness.empty()) {
    std::string names;
    for (const auto& k : builtin_kernels()) names += (names.empty() ? "" : ", ") + k->name();
    throw input_error(param("kernel") + " (one of: " + names + ") or " + param("harness") +
                      " (a harness library of your own) is required");
  }
  if (!r.kernel.empty() && !r.harness.empty())
    throw input_error(param("kernel") + " and " + param("harness") + " are exclusive: a built-in or a harness");
  if (!(r.eval_timeout > 0) || r.eval_timeout > 1e6)
    throw input_error(param("eval_timeout") + " must be a number of seconds above 0 (at most 1e6)");
  o.eval_timeout_s = r.eval_timeout;
  o.kernel = r.harness.empty() ? find_kernel(r.kernel) : load_harness_isolated(r.harness, r.eval_timeout);
  const std::int64_t n = r.threads ? *r.threads : o.kernel->default_threads();
  check_threads(n);
  o.threads = static_cast<std::uint32_t>(n);
  o.method = parse_method(r.method);
  o.fitness = parse_fitness(r.fitness);
  if (r.evaluations < 1) throw input_error(param("evaluations") + " must be at least 1");
  if (r.population < 2) throw input_error(param("population") + " must be at least 2");
  if (!(r.tolerance >= 0)) throw input_error(param("tolerance") + " must be >= 0");
  if (r.atom_threads < 2 || r.atom_threads > 64) throw input_error(param("atom_threads") + " must be between 2 and 64");
  if (r.atom_runs < 1) throw input_error(param("atom_runs") + " must be at least 1");
  o.model = make_model(r.sm, r.sms);
  o.ga.evaluations = static_cast<std::uint64_t>(r.evaluations);
  o.ga.population = static_cast<std::uint32_t>(std::min<std::int64_t>(r.population, r.evaluations));
  o.ga.population = std::max<std::uint32_t>(o.ga.population, 2);
  o.ga.patience = static_cast<std::uint32_t>(r.patience);
  o.ga.tolerance = r.tolerance;
  o.ga.seed = r.seed;
  o.atoms.max_threads = static_cast<std::uint32_t>(r.atom_threads);
  o.atoms.runs = static_cast<std::uint64_t>(r.atom_runs);
  o.cpu_threads = static_cast<int>(r.jobs);
  resolve_threads(r.jobs, param("jobs"));
  if (o.fitness == fitness_kind::gpu && !o.kernel->is_builtin()) {
    if (!o.kernel->has_gpu_entry())
      throw input_error(param("fitness", "gpu") + ": " + no_gpu_entry(*o.kernel) + "; use " +
                        param("fitness", "model"));
  } else if (o.fitness == fitness_kind::gpu) {
    if (!cuda_compiled())
      throw input_error(param("fitness", "gpu") + ": this build has no CUDA backend (built without nvcc); use " +
                        param("fitness", "model"));
    require_cuda_device(param("fitness", "gpu"), "; use " + param("fitness", "model"));
  }
  return o;
}

search_result run_search(const search_options& o) {
  check_threads(o.threads);
  if (o.ga.evaluations < 1) throw input_error(param("evaluations") + " must be at least 1");
  if (!o.kernel) throw input_error("no kernel to search");
  const auto started = std::chrono::steady_clock::now();
  thread_pool pool(resolve_threads(o.cpu_threads));
  const batch_fitness evaluate = make_fitness(o, pool);
  search_result result;
  result.fitness_unit = o.fitness == fitness_kind::gpu ? "ms" : "cycles";
  std::uint64_t evaluated = 0;
  double best_so_far = -std::numeric_limits<double>::infinity();
  // A harness that fails in its worker (isolated.hpp) stops the search with what it had: the batch
  // gets no fitness (the GA and the loops below stop on that), the failure is the result's.
  const auto stopped = [&] { return interrupted() || !result.failure.empty(); };
  const batch_fitness raw = [&](const std::vector<genome>& batch) -> std::vector<double> {
    std::vector<double> fitness;
    try {
      fitness = evaluate(batch);
    } catch (const harness_failure& e) {
      result.failure = e.what();
      result.failing_input = e.input;
      return {};
    } catch (const worker_interrupted&) {
      return {};
    }
    evaluated += batch.size();
    for (double f : fitness) best_so_far = std::max(best_so_far, f);
    if (o.on_batch) o.on_batch(evaluated, best_so_far);
    return fitness;
  };
  const auto finish = [&]() -> search_result& {
    result.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    result.interrupted = interrupted();
    result.reached_seconds = result.trace.history.empty() ? 0 : result.trace.history.back().seconds;
    return result;
  };
  result.trace.started = started;
  std::vector<gene_range> ranges;
  try {
    ranges = genome_ranges_guarded(*o.kernel, o.threads, o.eval_timeout_s);
  } catch (const harness_failure& e) {
    result.failure = e.what();
    return finish();
  } catch (const worker_interrupted&) {
    return finish();
  }
  switch (o.method) {
    case search_method::random: {
      const std::uint64_t batch_size = std::max<std::uint32_t>(1, o.ga.population);
      for (std::uint64_t done = 0; done < o.ga.evaluations && !stopped();) {  // Ctrl-C: between batches
        std::vector<genome> batch;
        for (std::uint64_t k = 0; k < batch_size && done < o.ga.evaluations; ++k, ++done)
          batch.push_back(random_genome(ranges, o.ga.seed, stream_random, done));
        const std::vector<double> fitness = raw(batch);
        if (fitness.size() != batch.size()) break;
        result.trace.record(batch, fitness);
      }
      break;
    }
    case search_method::random_ga: {
      std::vector<genome> initial;
      for (std::uint64_t i = 0; i < o.ga.population; ++i)
        initial.push_back(random_genome(ranges, o.ga.seed, stream_random, i));
      result.trace = run_ga(std::move(initial), ranges, raw, o.ga, started);
      break;
    }
    case search_method::gdivan: {
      atom_options ao = o.atoms;
      ao.seed = o.ga.seed;
      try {
        result.atoms = find_atoms_guarded(*o.kernel, ao, o.eval_timeout_s);
      } catch (const harness_failure& e) {
        result.failure = e.what();
        result.failing_input = e.input;
        return finish();
      } catch (const worker_interrupted&) {
        return finish();
      }
      result.atom_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
      const atom_set& atoms = result.atoms;
      std::vector<genome> initial = initial_population(atoms, o.threads, o.ga.population, o.special, o.ga.seed);
      const std::vector<gene_range> atom_ranges(initial.front().size(),
                                                gene_range{0, static_cast<std::int32_t>(atoms.atoms.size() - 1)});
      const batch_fitness decoded = [&](const std::vector<genome>& batch) {
        std::vector<genome> inputs;
        inputs.reserve(batch.size());
        for (const auto& ids : batch) inputs.push_back(scale(atoms, ids, o.threads, *o.kernel));
        return raw(inputs);
      };
      result.trace = run_ga(std::move(initial), atom_ranges, decoded, o.ga, started);
      if (!result.trace.best.empty()) result.trace.best = scale(atoms, result.trace.best, o.threads, *o.kernel);
      break;
    }
  }
  return finish();
}

std::uint64_t search_runs::evaluations() const {
  std::uint64_t n = 0;
  for (const auto& r : results) n += r.trace.evaluations;
  return n;
}

search_runs run_searches(const search_options& options, const std::vector<search_method>& methods,
                         const std::function<void(search_method, std::uint64_t, std::uint64_t, double)>& progress) {
  search_runs out;
  const std::uint64_t total = options.ga.evaluations * methods.size();
  for (search_method m : methods) {
    if (interrupted() || out.failed()) break;  // the methods done so far are the result
    const std::uint64_t before = options.ga.evaluations * out.results.size();
    out.runs.push_back(options);
    out.runs.back().method = m;
    out.runs.back().on_batch = nullptr;
    if (progress)
      out.runs.back().on_batch = [&progress, before, total, m](std::uint64_t done, double best) {
        progress(m, before + done, total, best);
      };
    out.results.push_back(run_search(out.runs.back()));
    out.runs.back().on_batch = nullptr;
  }
  for (std::size_t i = 1; i < out.results.size(); ++i)
    if (out.results[i].trace.best_fitness > out.results[out.best].trace.best_fitness) out.best = i;
  out.interrupted = interrupted();
  return out;
}

std::string gpu_fitness_note(const kernel_harness& k) {
  if (!k.is_builtin())
    return cuda_emulated()
               ? "the harness's own CUDA entry (if built against this emulation build's runtime, run on the CPU: times "
                 "are the CPU's; warm-up, then the median of 10 runs)"
               : "the harness's own CUDA entry (clocks as the driver sets them; warm-up, then the median of 10 runs)";
  return cuda_backend_name() + " " + cuda_device_name() +
         " (clocks as the driver sets them; warm-up, then the median of 10 runs)";
}

block_warp_kernels worst_block(const search_options& options, const std::vector<std::int32_t>& input) {
  block_warp_kernels out;
  run_model_guarded(*options.kernel, options.model, input, options.threads, options.eval_timeout_s, &out);
  return out;
}

input_evaluation evaluate_input(const search_options& options, const std::vector<std::int32_t>& input) {
  input_evaluation e;
  if (options.fitness == fitness_kind::gpu) {
    const auto t = cuda_time_inputs(*options.kernel, options.threads, {input});
    e.value = t.front().median_ms;
    e.launches = t.front().launches;
    e.unit = "ms";
  } else {
    const auto r = run_model_guarded(*options.kernel, options.model, input, options.threads, options.eval_timeout_s);
    e.value = static_cast<double>(r.cycles);
    e.launches = r.launches;
    e.unit = "cycles";
  }
  return e;
}

}  // namespace warpspan::inputs
