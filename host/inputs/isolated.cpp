// A loaded harness's code in worker processes (include/warpspan/inputs/isolated.hpp).
#include "warpspan/inputs/isolated.hpp"

#include <cstring>
#include <type_traits>

#include "warpspan/core/quote.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/core/worker.hpp"

namespace warpspan::inputs {

namespace {

/// Plain values and vectors of them into bytes and back (the worker and its caller are one binary).
struct bytes_out {
  std::string s;
  template <class T>
  void put(const T& v) {
    static_assert(std::is_trivially_copyable_v<T>);
    s.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  template <class T>
  void put_vector(const std::vector<T>& v) {
    put(static_cast<std::uint64_t>(v.size()));
    if (!v.empty()) s.append(reinterpret_cast<const char*>(v.data()), v.size() * sizeof(T));
  }
};

struct bytes_in {
  const std::string& s;
  std::size_t at = 0;
  void need(std::size_t n) const {
    if (s.size() - at < n) throw input_error("a worker process answered with too few bytes");
  }
  template <class T>
  T get() {
    T v;
    need(sizeof v);
    std::memcpy(&v, s.data() + at, sizeof v);
    at += sizeof v;
    return v;
  }
  template <class T>
  std::vector<T> get_vector() {
    const auto n = get<std::uint64_t>();
    if (n > (s.size() - at) / sizeof(T)) throw input_error("a worker process answered with too few bytes");
    std::vector<T> v(static_cast<std::size_t>(n));
    if (!v.empty()) std::memcpy(v.data(), s.data() + at, v.size() * sizeof(T));
    at += v.size() * sizeof(T);
    return v;
  }
};

/// Runs `work` in a worker for `k`: its bytes, or harness_failure / worker_interrupted.
std::string in_worker_for(const kernel_harness& k, double stall_seconds, const std::function<std::string()>& work,
                          worker_outcome* failed = nullptr) {
  worker_outcome o = run_in_worker(k.label(), stall_seconds, work);
  if (o.state == worker_outcome::status::interrupted) throw worker_interrupted{};
  if (o.state == worker_outcome::status::failed) {
    if (failed) {
      *failed = std::move(o);
      return {};
    }
    throw harness_failure(o.bytes);
  }
  return std::move(o.bytes);
}

std::vector<std::uint64_t> batch_in_worker(const kernel_harness& k, const model_config& cfg,
                                           const std::vector<std::vector<std::int32_t>>& genomes, std::uint32_t threads,
                                           int jobs, double stall_seconds, worker_outcome* failed) {
  const std::string bytes = in_worker_for(
      k, stall_seconds,
      [&] {
        thread_pool pool(resolve_threads(jobs));
        std::vector<std::uint64_t> out(genomes.size());
        pool.run(genomes.size(), [&](std::size_t i) {
          worker_item item(i);
          try {
            out[i] = run_model(k, cfg, genomes[i], threads).cycles;
          } catch (const std::exception& e) {
            worker_fail(e.what());
          } catch (...) {
            worker_fail("threw an exception that is not a std::exception");
          }
        });
        bytes_out b;
        b.put_vector(out);
        return b.s;
      },
      failed);
  if (failed && failed->state == worker_outcome::status::failed) return {};
  bytes_in in{bytes};
  return in.get_vector<std::uint64_t>();
}

}  // namespace

bool runs_isolated(const kernel_harness& k) { return !k.is_builtin() && k.source() != "built-in"; }

harness_ref load_harness_isolated(const std::string& path, double stall_seconds) {
  // The checks' refusals come back as the worker's answer ('!' and the message); a crash or a hang
  // is the worker's failure.
  const worker_outcome o = run_in_worker("harness " + quote_text(path), stall_seconds, [&] {
    try {
      load_harness(path);
    } catch (const input_error& e) {
      return "!" + std::string(e.what());
    }
    return std::string();
  });
  if (o.state == worker_outcome::status::interrupted) throw worker_interrupted{};
  if (o.state == worker_outcome::status::failed) throw harness_failure(o.bytes + " while loading");
  if (!o.bytes.empty()) throw input_error(o.bytes.substr(1));
  return load_harness(path);
}

std::vector<std::uint64_t> model_cycles_guarded(const kernel_harness& k, const model_config& cfg,
                                                const std::vector<std::vector<std::int32_t>>& genomes,
                                                std::uint32_t threads, thread_pool& pool, int jobs,
                                                double stall_seconds) {
  if (!runs_isolated(k)) return model_cycles_batch(k, cfg, genomes, threads, pool);
  worker_outcome failed;
  std::vector<std::uint64_t> out = batch_in_worker(k, cfg, genomes, threads, jobs, stall_seconds, &failed);
  if (failed.state != worker_outcome::status::failed) return out;
  if (failed.item >= 0 && static_cast<std::size_t>(failed.item) < genomes.size())
    throw harness_failure(failed.bytes, genomes[static_cast<std::size_t>(failed.item)]);
  if (failed.in_flight.size() == 1 && failed.in_flight.front() < genomes.size())
    throw harness_failure(failed.bytes, genomes[failed.in_flight.front()]);
  // Several evaluations were in flight when the worker died: each alone, in a fresh worker, until
  // one fails (its own message then says what it did).
  for (std::uint64_t i : failed.in_flight) {
    if (i >= genomes.size()) continue;
    worker_outcome alone;
    batch_in_worker(k, cfg, {genomes[i]}, threads, 1, stall_seconds, &alone);
    if (alone.state == worker_outcome::status::failed) throw harness_failure(alone.bytes, genomes[i]);
  }
  throw harness_failure(failed.bytes);
}

atom_set find_atoms_guarded(const kernel_harness& k, const atom_options& options, double stall_seconds) {
  if (!runs_isolated(k)) return find_atoms(k, options);
  const std::string bytes = in_worker_for(k, stall_seconds, [&] {
    const atom_set a = find_atoms(k, options);
    bytes_out b;
    b.put(a.threads);
    b.put(static_cast<std::uint64_t>(a.atoms.size()));
    for (const atom& x : a.atoms) {
      b.put_vector(x.input);
      b.put(x.instructions);
      b.put(x.divergence);
      b.put(x.extreme);
    }
    b.put(static_cast<std::uint64_t>(a.levels.size()));
    for (const coverage_level& l : a.levels) b.put(l);
    return b.s;
  });
  bytes_in in{bytes};
  atom_set a;
  a.threads = in.get<std::uint32_t>();
  const auto atoms = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < atoms; ++i) {
    atom x;
    x.input = in.get_vector<std::int32_t>();
    x.instructions = in.get<std::uint64_t>();
    x.divergence = in.get<double>();
    x.extreme = in.get<bool>();
    a.atoms.push_back(std::move(x));
  }
  const auto levels = in.get<std::uint64_t>();
  for (std::uint64_t i = 0; i < levels; ++i) a.levels.push_back(in.get<coverage_level>());
  return a;
}

std::vector<gene_range> genome_ranges_guarded(const kernel_harness& k, std::uint32_t threads, double stall_seconds) {
  if (!runs_isolated(k)) return k.genome_ranges(threads);
  const std::string bytes = in_worker_for(k, stall_seconds, [&] {
    bytes_out b;
    b.put_vector(k.genome_ranges(threads));
    return b.s;
  });
  bytes_in in{bytes};
  return in.get_vector<gene_range>();
}

model_run run_model_guarded(const kernel_harness& k, const model_config& cfg, const std::vector<std::int32_t>& genome,
                            std::uint32_t threads, double stall_seconds, block_warp_kernels* slowest) {
  if (!runs_isolated(k)) return run_model(k, cfg, genome, threads, nullptr, slowest);
  worker_outcome failed;
  const std::string bytes = in_worker_for(
      k, stall_seconds,
      [&] {
        block_warp_kernels s;
        const model_run r = run_model(k, cfg, genome, threads, nullptr, slowest ? &s : nullptr);
        bytes_out b;
        b.put(r.cycles);
        b.put(r.launches);
        b.put_vector(r.output);
        b.put_vector(std::vector<char>(s.spec.begin(), s.spec.end()));
        b.put(s.block);
        b.put(s.stage);
        b.put(s.launch);
        b.put(s.warps);
        b.put(s.cycles);
        return b.s;
      },
      &failed);
  if (failed.state == worker_outcome::status::failed) throw harness_failure(failed.bytes, genome);
  bytes_in in{bytes};
  model_run r;
  r.cycles = in.get<std::uint64_t>();
  r.launches = in.get<std::uint32_t>();
  r.output = in.get_vector<std::int32_t>();
  const std::vector<char> spec = in.get_vector<char>();
  if (slowest) {
    slowest->spec.assign(spec.begin(), spec.end());
    slowest->block = in.get<std::uint32_t>();
    slowest->stage = in.get<std::uint32_t>();
    slowest->launch = in.get<std::uint32_t>();
    slowest->warps = in.get<std::uint32_t>();
    slowest->cycles = in.get<std::uint64_t>();
  }
  return r;
}

}  // namespace warpspan::inputs
