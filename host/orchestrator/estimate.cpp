#include "warpspan/makespan/estimate.hpp"

#include <algorithm>
#include <chrono>
#include <optional>
#include <cmath>
#include <cstring>
#include <functional>
#include <iterator>
#include <memory>
#include <thread>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/exact/beam.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/checkpoints.hpp"

namespace warpspan {

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point start) {
  return std::chrono::duration<double>(clock_type::now() - start).count();
}

/// The first strings of chains by chain_initial_kind: the deterministic kinds made once (and copied
/// to every chain of that kind), `beam_string` for the beam chains (the starved string where it is
/// empty: the beam did not apply), random ones per chain. write() may be called from many threads.
class first_strings {
 public:
  first_strings(const problem& prob, const estimate_options& options, const std::vector<std::uint32_t>& ids,
                const std::vector<std::uint16_t>& beam_string)
      : p_(prob.view()), options_(options), fixed_(static_cast<std::size_t>(initial_kind::beam) + 1) {
    std::size_t seen = 0;  // kinds present; the mix repeats every few ids, so the scan ends early
    for (std::uint32_t id : ids) {
      const initial_kind kind = chain_initial_kind(options, id);
      auto& f = fixed_[static_cast<std::size_t>(kind)];
      if (kind == initial_kind::random || !f.empty()) continue;
      f = kind != initial_kind::beam ? initial_string(p_, kind, options.seed, id)
          : beam_string.empty()      ? starved_string(p_)
                                     : beam_string;
      if (++seen + 1 == fixed_.size()) break;
    }
  }
  /// Chain `id`'s first string (p.length ids) to `out`.
  void write(std::uint32_t id, std::uint16_t* out) const {
    const initial_kind kind = chain_initial_kind(options_, id);
    if (kind == initial_kind::random) {
      const auto s = initial_string(p_, initial_kind::random, options_.seed, id);
      std::copy(s.begin(), s.end(), out);
    } else {
      const auto& f = fixed_[static_cast<std::size_t>(kind)];
      std::copy(f.begin(), f.end(), out);
    }
  }

 private:
  problem_view p_;
  estimate_options options_;
  std::vector<std::vector<std::uint16_t>> fixed_;
};

/// The first strings of chains `ids`, concatenated. `stop` is asked every 1024 chains: where it says
/// stop, `ids` is cut to the chains made (at least one).
std::vector<std::uint16_t> strings_of(const problem& prob, const estimate_options& options,
                                      std::vector<std::uint32_t>& ids, const std::vector<std::uint16_t>& beam_string,
                                      const std::function<bool()>& stop = {}) {
  const first_strings first(prob, options, ids, beam_string);
  const std::size_t n = prob.length();
  std::vector<std::uint16_t> out;
  for (std::size_t c = 0; c < ids.size(); ++c) {
    if (c > 0 && c % 1024 == 0 && stop && stop()) {
      ids.resize(c);
      break;
    }
    out.resize(out.size() + n);
    first.write(ids[c], out.data() + out.size() - n);
  }
  return out;
}

/// The chains `ids` for `backend`: the CPU makes each chain's first string as it sets the chain up
/// (and stops between batches on `stop`), CUDA gets them all made first (`ids` cut where `stop` said).
chain_setup make_setup(const problem& prob, const estimate_options& options, const anneal_params& params,
                       std::vector<std::uint32_t> ids, const std::vector<std::uint16_t>& beam_string,
                       backend_kind backend, const std::function<bool()>& stop = {}) {
  chain_setup setup;
  setup.prob = &prob;
  setup.params = params;
  if (backend == backend_kind::cpu) {
    auto first = std::make_shared<const first_strings>(prob, options, ids, beam_string);
    setup.initial_of = [first, ids](std::size_t index, std::uint16_t* out) { first->write(ids[index], out); };
    setup.stop = stop;
  } else {
    setup.initial = strings_of(prob, options, ids, beam_string, stop);
  }
  setup.chain_ids = std::move(ids);
  return setup;
}

/// What the ranks agree on after every round (one allgather of this, reduced alike on every rank).
struct round_state {
  std::uint32_t best = 0;        ///< the best makespan (max over ranks)
  std::uint32_t chain = 0;       ///< its chain (the lowest id among equals)
  std::uint64_t best_iter = 0;   ///< the iteration that chain found it
  std::uint64_t iterations = 0;  ///< done, summed over ranks
  std::uint32_t validated = 0;   ///< summed over ranks
  std::uint8_t whole = 1;        ///< every rank finished the round (and)
  std::uint8_t stop = 0;         ///< some rank wants to stop (or)
  std::uint8_t interrupt = 0;    ///< some rank was interrupted (or)
  double before = 0, after = 0;  ///< rank 0's clock: the round's start and end
  double since_setup = 0;        ///< rank 0's clock since the call
};

/// The local best of `summaries` (highest best, lowest chain id among equals).
round_state local_best(const std::vector<chain_summary>& summaries) {
  round_state st;
  bool any = false;
  for (const auto& s : summaries) {
    st.iterations += s.iter;
    if (!any || s.best > st.best || (s.best == st.best && s.chain_id < st.chain)) {
      st.best = s.best;
      st.chain = s.chain_id;
      st.best_iter = s.best_iter;
      any = true;
    }
  }
  return st;
}

/// The agreement of every rank on `st` (a no-op for one process).
void agree(rank_group* ranks, round_state& st) {
  if (ranks == nullptr || ranks->size() == 1) return;
  const auto all = ranks->allgather(to_bytes(st));
  round_state out = from_bytes<round_state>(all[0]);  // rank 0's clock
  out.iterations = 0;
  out.validated = 0;
  for (const auto& bytes : all) {
    const auto r = from_bytes<round_state>(bytes);
    if (r.best > out.best || (r.best == out.best && r.chain < out.chain)) {
      out.best = r.best;
      out.chain = r.chain;
      out.best_iter = r.best_iter;
    }
    out.iterations += r.iterations;
    out.validated += r.validated;
    out.whole = out.whole && r.whole;
    out.stop = out.stop || r.stop;
    out.interrupt = out.interrupt || r.interrupt;
  }
  st = out;
}

}  // namespace

initial_kind chain_initial_kind(const estimate_options& options, std::uint32_t index) {
  if (options.init) return *options.init;
  // The paper's three constructed starts and random ones (000 VIII), with the beam search's string
  // and the starved one before mpwf and random: on the corpus each reached T(W) where the others
  // did not, and the default 4 chains (2 CPU threads) start from rr, fp, beam and starve
  // (docs/makespan.md, issue 26).
  static constexpr initial_kind order[] = {initial_kind::round_robin,  initial_kind::fixed_priority,
                                           initial_kind::beam,         initial_kind::starve,
                                           initial_kind::most_pending, initial_kind::random};
  return order[index % std::size(order)];
}

std::vector<std::uint16_t> chain_initial_strings(const problem& prob, const estimate_options& options,
                                                 const std::vector<std::uint32_t>& ids) {
  std::vector<std::uint16_t> beam_string;
  for (std::uint32_t id : ids)
    if (chain_initial_kind(options, id) == initial_kind::beam) {
      beam_options bo;
      bo.width = options.beam_width;
      beam_string = beam_search(prob, bo).string;
      break;
    }
  std::vector<std::uint32_t> all = ids;
  return strings_of(prob, options, all, beam_string);
}

estimate_result run_estimate(const problem& prob, const estimate_options& options, const progress_fn& progress) {
  const auto t_setup = clock_type::now();
  if (options.iterations < 1) throw input_error(param("iterations") + " must be at least 1");
  if (options.seconds < 0 || !std::isfinite(options.seconds))
    throw input_error(param("seconds") + " must be 0 or more");
  if (!(options.t0 >= 0) || !std::isfinite(options.t0)) throw input_error(param("t0") + " must be a number >= 0");
  if (!(options.far_moves >= 0 && options.far_moves <= 1))
    throw input_error(param("far_moves") + " must be a share between 0 and 1");
  const int threads = resolve_threads(options.threads);

  const backend_kind backend = resolve_backend(options.backend);
  const problem_view p = prob.view();
  rank_group* ranks = options.ranks != nullptr && options.ranks->size() > 1 ? options.ranks : nullptr;
  const std::uint32_t slices = ranks ? static_cast<std::uint32_t>(ranks->size()) : options.slices;
  const std::uint32_t slice = ranks ? static_cast<std::uint32_t>(ranks->rank()) : options.slice;
  if (slices < 1 || slice >= slices)
    throw input_error(param("slices") + ": slice " + std::to_string(slice) + " of " + std::to_string(slices) +
                      " does not exist");
  std::uint32_t chains = options.chains;
  // The device's plan (design, block, residency), once: for the default chain count and the result.
  std::optional<cuda_chain_plan> device_plan;
  if (backend == backend_kind::cuda) device_plan = plan_cuda_chains(p);
  if (chains == 0) {
    // CUDA: as many chains as the device keeps resident (blocks per SM x SMs x block size, from
    // the occupancy calculator), within the host's memory for their first strings.
    if (backend == backend_kind::cuda) {
      const std::uint64_t host_fit =
          memory_budget_bytes(std::uint64_t{8} << 30) / (sizeof(std::uint16_t) * std::uint64_t{p.length} + 64);
      chains = static_cast<std::uint32_t>(
          std::max<std::uint64_t>(1, std::min<std::uint64_t>(device_plan->device_chains, host_fit)));
    } else {
      chains = static_cast<std::uint32_t>(2 * threads);
    }
    // Ranks: the default is every rank's default together (each its GPU's resident chains).
    if (ranks) {
      std::uint64_t sum = 0;
      for (const auto& c : ranks->allgather(to_bytes(chains))) sum += from_bytes<std::uint32_t>(c);
      chains = static_cast<std::uint32_t>(std::min<std::uint64_t>(sum, UINT32_MAX));
    }
  }
  if (chains < slices)
    throw input_error(param("chains", chains) + " is fewer than the " + std::to_string(slices) +
                      (ranks ? " ranks" : " shards") + "; every one needs a chain");
  const std::uint32_t chain_begin = static_cast<std::uint32_t>(std::uint64_t{slice} * chains / slices);
  const std::uint32_t chain_end = static_cast<std::uint32_t>(std::uint64_t{slice + 1} * chains / slices);
  const std::uint32_t local_chains = chain_end - chain_begin;

  // The chains' blocks plus their first strings, which are held at the same time.
  const std::uint64_t state_bytes =
      (chain_state_bytes(p) + sizeof(std::uint16_t) * std::uint64_t{p.length}) * local_chains;
  const std::uint64_t budget = memory_budget_bytes(std::uint64_t{8} << 30);
  if (backend == backend_kind::cpu && state_bytes > budget)
    throw input_error(param("chains", local_chains) + " would need " + std::to_string(state_bytes >> 20) +
                      " MiB of chain state (over the " + std::to_string(budget >> 20) +
                      " MiB allowed: 8 GiB or 3/4 of the memory available); use fewer chains");
  // The CPU chains' checkpoints (checkpoints.hpp) only make iterations cheaper: where they would
  // not fit beside the state, the chains run without them (the same trajectories).
  const std::uint64_t checkpoint_total = checkpoint_bytes(p, checkpoint_interval(p)) * local_chains;
  const bool checkpoints = backend == backend_kind::cpu && state_bytes + checkpoint_total <= budget;

  anneal_params params;
  params.seed = options.seed;
  params.iter_max = options.iterations;
  params.t0 = options.t0;
  // Default reach: four rounds of all warps (docs/performance.md: on the Voronoi case it found 160
  // in about half the iterations a whole-string reach needed, each iteration cheaper).
  params.reach =
      options.reach ? options.reach : static_cast<std::uint32_t>(std::min<std::uint64_t>(4ull * p.warps, p.length));
  params.far = static_cast<std::uint32_t>(std::lround(options.far_moves * far_scale));

  std::vector<std::uint32_t> ids(local_chains);
  for (std::uint32_t c = 0; c < local_chains; ++c) ids[c] = chain_begin + c;
  // The beam search, once, when some chain of the whole run starts from it (every shard and rank
  // runs it, so each reports it alike): within a share of the budget when the cooling follows it,
  // else one beam of the fixed width (the same string in every run and shard unless a budget
  // cuts it short).
  estimate_result::beam_summary beam_info;
  std::vector<std::uint16_t> beam_string;
  for (std::uint32_t c = 0; c < chains && !beam_info.ran; ++c)
    beam_info.ran = chain_initial_kind(options, c) == initial_kind::beam;
  if (beam_info.ran) {
    if (!(options.beam_share >= 0 && options.beam_share <= 1))
      throw input_error(param("beam_share") + " must be a share between 0 and 1");
    if (options.beam_width < 1) throw input_error(param("beam_width") + " must be at least 1");
    beam_result b;
    if (options.fit_to_seconds && options.seconds > 0) {
      b = budget_beam(prob, std::max(options.seconds * options.beam_share - seconds_since(t_setup), 1e-3), 1u << 20,
                      threads);
    } else {
      beam_options bo;
      bo.width = options.beam_width;
      bo.threads = threads;
      // A budget still holds: the beam narrows to one state per sum at its share (the string is
      // then the time's, as every result of a run the budget cut is).
      if (options.seconds > 0)
        bo.time_limit_s = std::max(options.seconds * options.beam_share - seconds_since(t_setup), 1e-3);
      b = beam_search(prob, bo);
    }
    beam_info.applicable = b.applicable;
    beam_info.makespan = b.makespan;
    beam_info.width = b.width;
    beam_info.expanded = b.expanded;
    beam_info.exact = b.exact;
    beam_info.seconds = b.elapsed_s;
    beam_string = std::move(b.string);
  }
  // The chains' set-up (first strings, states, checkpoints: tens of seconds for a million chains)
  // stops on interrupted() and, with a budget, at half of what the beam left of it: the chains set
  // up by then run (the first ones of the slice, at least one; chains_run), the rest are dropped.
  const bool limited = options.seconds > 0;
  const auto setup_deadline =
      clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(
                              limited ? std::max(0.5 * (options.seconds * 0.95 - seconds_since(t_setup)), 0.0) : 0.0));
  const std::function<bool()> setup_stop = [&] {
    return interrupted() || (limited && clock_type::now() >= setup_deadline);
  };
  std::unique_ptr<chain_runner> runner;
  {
    chain_setup setup = make_setup(prob, options, params, ids, beam_string, backend, setup_stop);
    setup.checkpoints = checkpoints;
    runner = backend == backend_kind::cuda ? make_cuda_runner(setup) : make_cpu_runner(setup, threads);
  }
  const auto local_run = static_cast<std::uint32_t>(runner->summaries().size());

  estimate_result result;
  result.backend = runner->name();
  result.chains = chains;
  if (const auto& plan = device_plan) {
    auto& c = result.cuda;
    c.used = true;
    c.design = plan->design;
    c.on_chip = plan->on_chip;
    c.packing = plan->packing;
    c.block = plan->block;
    c.blocks = plan->design == chain_design::warp ? local_chains : (local_chains + plan->block - 1) / plan->block;
    c.sms = plan->sms;
    c.resident_threads_per_sm = plan->threads_per_sm;
    c.resident_chains = plan->device_chains;
    c.chain_bytes = plan->chain_bytes;
    c.shared_bytes = plan->shared_bytes;
  }
  result.chains_run = local_run;
  if (ranks) {
    std::uint64_t sum = 0;
    for (const auto& c : ranks->allgather(to_bytes(local_run))) sum += from_bytes<std::uint32_t>(c);
    result.chains_run = static_cast<std::uint32_t>(sum);
  }
  result.chain_begin = chain_begin;
  result.chain_end = chain_end;
  result.upper_bound = pessimistic_bound(prob);
  result.beam = beam_info;
  result.setup_s = seconds_since(t_setup);

  // The budget counts from the call: set-up, rounds, and the rebuild of the best string at the end
  // (a small share kept for it, at most 10 % of the budget).
  const auto deadline = t_setup + std::chrono::duration_cast<clock_type::duration>(
                                      std::chrono::duration<double>(options.seconds * (limited ? 0.95 : 0)));
  const auto past_deadline = [&] { return limited && clock_type::now() >= deadline; };
  const auto should_stop = [&] { return interrupted() || past_deadline(); };

  // Rounds: chains keep their state between rounds, so round sizes change only how often the
  // envelope is sampled and the budget checked, never the result of a given iteration count.
  // The first round is one iteration (one iteration of a big instance can take long); later ones
  // grow by the time measured, towards target_round_s and never beyond the remaining budget.
  //
  // With ranks, every round ends in one agreement (agree()): the best makespan and its chain, the
  // iterations, whether every rank finished the round, whether any wants to stop, and rank 0's
  // clock, from which every rank sizes the next round alike.
  const auto start = clock_type::now();
  std::uint32_t best = 0;
  auto summaries = runner->summaries();
  round_state st = local_best(summaries);
  st.stop = should_stop();
  st.interrupt = interrupted();
  st.since_setup = seconds_since(t_setup);
  agree(ranks, st);
  best = st.best;
  bool stop_agreed = st.stop;
  bool interrupt_agreed = st.interrupt;  // some rank was interrupted (a signal reaches one rank alone)
  result.envelope.push_back({0.0, best});
  std::uint64_t done = 0;
  std::uint64_t round = 1;
  const double target_round_s = 0.05;
  // With fit_to_seconds the cooling schedule follows the budget: after every round the iterations
  // per chain (the schedule's length) are planned again from the speed so far, so that the chains
  // are cold about when the budget ends. Every rank plans from the agreed clock, so alike; the plan
  // of each round is kept for --validate to replay.
  const bool fitting = options.fit_to_seconds && limited;
  std::uint64_t planned = options.iterations;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> plan;  // (iterations done, iter_max from then on)
  while (done < planned) {
    double before = seconds_since(start);
    if (ranks ? stop_agreed : should_stop()) break;
    round = std::min(round, planned - done);
    bool whole = runner->advance_until(round, should_stop);
    double after = seconds_since(start);
    double since_setup = seconds_since(t_setup);
    summaries = runner->summaries();
    ++result.rounds;
    // Place each improvement inside the round by its iteration (chains run at an even pace).
    std::vector<envelope_point> found;
    if (ranks) {
      st = local_best(summaries);
      st.whole = whole;
      st.stop = should_stop();
      st.interrupt = interrupted();
      st.before = before;
      st.after = after;
      st.since_setup = since_setup;
      agree(ranks, st);
      whole = st.whole;
      stop_agreed = st.stop;
      interrupt_agreed = interrupt_agreed || st.interrupt;
      before = st.before;
      after = st.after;
      since_setup = st.since_setup;
      if (st.best > best && st.best_iter > done)
        found.push_back(
            {before + static_cast<double>(st.best_iter - done) / static_cast<double>(round) * (after - before),
             st.best});
    } else {
      for (const auto& s : summaries) {
        if (s.best <= best || s.best_iter <= done) continue;
        const double frac = static_cast<double>(s.best_iter - done) / static_cast<double>(round);
        found.push_back({before + frac * (after - before), s.best});
      }
    }
    std::sort(found.begin(), found.end(), [](auto& a, auto& b) { return a.seconds < b.seconds; });
    for (const auto& e : found)
      if (e.best > best) {
        best = e.best;
        result.envelope.push_back(e);
      }
    if (!whole) break;  // stopped within the round: `done` stays what every chain did
    done += round;
    if (fitting) {
      const double left = std::max(options.seconds * 0.95 - since_setup, 0.0);
      const double per_second = static_cast<double>(done) / std::max(after, 1e-6);
      const double more = std::min(per_second * left, static_cast<double>(options.iterations - done));
      planned = done + static_cast<std::uint64_t>(more);
      runner->set_iter_max(planned);
      plan.emplace_back(done, planned);
    }
    if (progress) progress(after, done * result.chains_run, planned * result.chains_run, best);
    // Aim for rounds of about target_round_s, never beyond the remaining budget.
    const double took = std::max(after - before, 1e-6);
    double want = target_round_s;
    if (limited) want = std::min(want, std::max(options.seconds * 0.95 - since_setup, 1e-3));
    const double scale = std::clamp(want / took, 0.25, 8.0);
    round = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(round) * scale));
  }
  result.iterations_planned = planned;
  result.elapsed_s = seconds_since(start);
  result.iterations_per_chain = done;

  // The best chain: the highest best makespan, the lowest chain id among equals; with ranks, its
  // owner sends its string to every rank.
  std::size_t best_index = 0;
  for (std::size_t c = 1; c < summaries.size(); ++c)
    if (summaries[c].best > summaries[best_index].best) best_index = c;
  const bool validating = options.validate > 0 && backend != backend_kind::cpu && !interrupted() && !interrupt_agreed &&
                          local_best(summaries).iterations == done * local_run;
  st = local_best(summaries);
  st.validated = validating ? 1 : 0;  // every rank can validate, or none does
  st.interrupt = interrupted();
  agree(ranks, st);
  // Interrupted when any rank was: every rank, and rank 0's JSON, says so alike.
  result.interrupted = interrupt_agreed || st.interrupt;
  result.time_limited = !result.interrupted && done < planned;
  const bool validate_all = ranks ? st.validated == static_cast<std::uint32_t>(ranks->size()) : validating;
  result.iterations = st.iterations;
  result.best_makespan = st.best;
  result.best_chain = st.chain;
  result.best_chain_init = chain_initial_kind(options, result.best_chain);
  if (ranks) {
    // The owner of chain c is the slice s with s * chains / slices <= c < (s + 1) * chains / slices.
    int own = 0;
    while (own + 1 < static_cast<int>(slices) && std::uint64_t(own + 1) * chains / slices <= result.best_chain) ++own;
    std::string mine;
    if (own == ranks->rank()) {
      const auto s = runner->best_string(result.best_chain - chain_begin);
      mine.assign(reinterpret_cast<const char*>(s.data()), s.size() * sizeof(std::uint16_t));
    }
    const std::string got = ranks->broadcast(mine, own);
    result.best_string.resize(got.size() / sizeof(std::uint16_t));
    std::memcpy(result.best_string.data(), got.data(), got.size());
  } else {
    result.best_string = runner->best_string(best_index);
  }
  result.schedule = build_schedule(prob, result.best_string);
  if (result.schedule.makespan != result.best_makespan)
    throw validation_error("the best string rebuilds to " + std::to_string(result.schedule.makespan) +
                           " cycles, not the " + std::to_string(result.best_makespan) + " its chain reported");
  if (envelope_point& last = result.envelope.back(); last.best != best)
    result.envelope.push_back({result.elapsed_s, best});

  // --validate: the same chains, the same iterations, on the CPU reference; any difference fails.
  // The chains picked are those of the whole run; each slice validates the ones it holds.
  if (validate_all) {
    const std::uint32_t sample = std::min(options.validate, chains);
    std::vector<std::uint32_t> pick;
    for (std::uint32_t k = 0; k < sample; ++k) {
      const auto id = sample == 1 ? 0 : static_cast<std::uint32_t>(std::uint64_t{k} * (chains - 1) / (sample - 1));
      if (id >= chain_begin && id < chain_begin + local_run) pick.push_back(id);
    }
    pick.erase(std::unique(pick.begin(), pick.end()), pick.end());
    const chain_setup cpu_setup = make_setup(prob, options, params, pick, beam_string, backend_kind::cpu);
    auto cpu = make_cpu_runner(cpu_setup, threads);
    if (!pick.empty()) {
      // Replay the run's plan: the same cooling schedule at the same iterations.
      std::uint64_t at = 0;
      for (const auto& [from, iter_max] : plan) {
        cpu->advance(from - at);
        cpu->set_iter_max(iter_max);
        at = from;
      }
      cpu->advance(done - at);
    }
    const auto cpu_sum = cpu->summaries();
    for (std::size_t k = 0; k < pick.size(); ++k) {
      const auto& g = summaries[pick[k] - chain_begin];
      const auto& c = cpu_sum[k];
      if (g.best != c.best || g.current != c.current || g.iter != c.iter ||
          runner->best_string(pick[k] - chain_begin) != cpu->best_string(k))
        throw validation_error(param("validate") + ": chain " + std::to_string(pick[k]) +
                               " differs: " + runner->name() + " best " + std::to_string(g.best) + " current " +
                               std::to_string(g.current) + ", cpu best " + std::to_string(c.best) + " current " +
                               std::to_string(c.current));
    }
    result.validated = static_cast<std::uint32_t>(pick.size());
    if (ranks) {
      std::uint32_t all = 0;
      for (const auto& v : ranks->allgather(to_bytes(result.validated))) all += from_bytes<std::uint32_t>(v);
      result.validated = all;
    }
  }
  return result;
}

}  // namespace warpspan
