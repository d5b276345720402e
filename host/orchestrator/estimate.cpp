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
#include "warpspan/detail/makespan/checkpoints.hpp"

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
    if (!any || chain_beats(s.best, s.chain_id, st.best, st.chain)) {
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
    if (chain_beats(r.best, r.chain, out.best, out.chain)) {
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

anneal_params chain_params(const problem_view& p, const estimate_options& options) {
  anneal_params params;
  params.seed = options.seed;
  params.iter_max = options.iterations;
  params.t0 = options.t0;
  // Default reach: four rounds of all warps (docs/performance.md: on the Voronoi case it found 160
  // in about half the iterations a whole-string reach needed, each iteration cheaper).
  params.reach =
      options.reach ? options.reach : static_cast<std::uint32_t>(std::min<std::uint64_t>(4ull * p.warps, p.length));
  params.far = static_cast<std::uint32_t>(std::lround(options.far_moves * far_scale));
  return params;
}

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

namespace {

/// The options run_estimate cannot run with (input_error naming the parameter).
void check_options(const estimate_options& options) {
  if (options.iterations < 1) throw input_error(param("iterations") + " must be at least 1");
  if (options.seconds < 0 || !std::isfinite(options.seconds))
    throw input_error(param("seconds") + " must be 0 or more");
  if (!(options.t0 >= 0) || !std::isfinite(options.t0)) throw input_error(param("t0") + " must be a number >= 0");
  if (!(options.far_moves >= 0 && options.far_moves <= 1))
    throw input_error(param("far_moves") + " must be a share between 0 and 1");
}

/// Who runs which chains, and how: run_estimate's plan, checked before anything runs.
struct chain_plan {
  int threads = 1;
  backend_kind backend = backend_kind::cpu;
  rank_group* ranks = nullptr;  ///< more than one rank, else null
  std::uint32_t slices = 1, slice = 0;
  std::uint32_t chains = 0;                      ///< the whole run's
  std::uint32_t chain_begin = 0, chain_end = 0;  ///< this process's slice
  std::optional<cuda_chain_plan> device;         ///< the device's plan (design, block, residency), once
  bool checkpoints = false;                      ///< the CPU chains keep checkpoints (checkpoints.hpp)
  anneal_params params;

  std::uint32_t local_chains() const { return chain_end - chain_begin; }
  std::vector<std::uint32_t> ids() const {
    std::vector<std::uint32_t> out(local_chains());
    for (std::uint32_t c = 0; c < local_chains(); ++c) out[c] = chain_begin + c;
    return out;
  }
};

/// The default chain count: CUDA as many as the device keeps resident (blocks per SM x SMs x block
/// size, from the occupancy calculator) within the host's memory for their first strings, the CPU 2
/// a thread; with ranks, every rank's default together.
std::uint32_t default_chains(const chain_plan& plan, const problem_view& p) {
  std::uint32_t chains = 0;
  if (plan.backend == backend_kind::cuda) {
    const std::uint64_t host_fit =
        memory_budget_bytes(std::uint64_t{8} << 30) / (sizeof(std::uint16_t) * std::uint64_t{p.length} + 64);
    chains = static_cast<std::uint32_t>(
        std::max<std::uint64_t>(1, std::min<std::uint64_t>(plan.device->device_chains, host_fit)));
  } else {
    chains = static_cast<std::uint32_t>(2 * plan.threads);
  }
  if (!plan.ranks) return chains;
  std::uint64_t sum = 0;
  for (const auto& c : plan.ranks->allgather(to_bytes(chains))) sum += from_bytes<std::uint32_t>(c);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(sum, UINT32_MAX));
}

chain_plan plan_chains(const problem& prob, const estimate_options& options) {
  chain_plan plan;
  plan.threads = resolve_threads(options.threads);
  plan.backend = resolve_backend(options.backend);
  const problem_view p = prob.view();
  plan.ranks = options.ranks != nullptr && options.ranks->size() > 1 ? options.ranks : nullptr;
  plan.slices = plan.ranks ? static_cast<std::uint32_t>(plan.ranks->size()) : options.slices;
  plan.slice = plan.ranks ? static_cast<std::uint32_t>(plan.ranks->rank()) : options.slice;
  if (plan.slices < 1 || plan.slice >= plan.slices)
    throw input_error(param("slices") + ": slice " + std::to_string(plan.slice) + " of " + std::to_string(plan.slices) +
                      " does not exist");
  if (plan.backend == backend_kind::cuda) plan.device = plan_cuda_chains(p);
  plan.chains = options.chains ? options.chains : default_chains(plan, p);
  if (plan.chains < plan.slices)
    throw input_error(param("chains", plan.chains) + " is fewer than the " + std::to_string(plan.slices) +
                      (plan.ranks ? " ranks" : " shards") + "; every one needs a chain");
  plan.chain_begin = static_cast<std::uint32_t>(std::uint64_t{plan.slice} * plan.chains / plan.slices);
  plan.chain_end = static_cast<std::uint32_t>(std::uint64_t{plan.slice + 1} * plan.chains / plan.slices);

  // The chains' blocks plus their first strings, which are held at the same time.
  const std::uint64_t state_bytes =
      (chain_state_bytes(p) + sizeof(std::uint16_t) * std::uint64_t{p.length}) * plan.local_chains();
  const std::uint64_t budget = memory_budget_bytes(std::uint64_t{8} << 30);
  if (plan.backend == backend_kind::cpu && state_bytes > budget)
    throw input_error(param("chains", plan.local_chains()) + " would need " + std::to_string(state_bytes >> 20) +
                      " MiB of chain state (over the " + std::to_string(budget >> 20) +
                      " MiB allowed: 8 GiB or 3/4 of the memory available); use fewer chains");
  // The CPU chains' checkpoints (checkpoints.hpp) only make iterations cheaper: where they would
  // not fit beside the state, the chains run without them (the same trajectories).
  const std::uint64_t checkpoint_total = checkpoint_bytes(p, checkpoint_interval(p)) * plan.local_chains();
  plan.checkpoints = plan.backend == backend_kind::cpu && state_bytes + checkpoint_total <= budget;

  plan.params = chain_params(p, options);
  return plan;
}

/// The beam search and the string the beam chains start from.
struct beam_start {
  estimate_result::beam_summary info;
  std::vector<std::uint16_t> string;
};

/// The beam search, once, when some chain of the whole run starts from it (every shard and rank
/// runs it, so each reports it alike): within a share of the budget when the cooling follows it,
/// else one beam of the fixed width (the same string in every run and shard unless a budget cuts
/// it short).
beam_start run_beam(const problem& prob, const estimate_options& options, const chain_plan& plan,
                    clock_type::time_point t_setup) {
  beam_start out;
  for (std::uint32_t c = 0; c < plan.chains && !out.info.ran; ++c)
    out.info.ran = chain_initial_kind(options, c) == initial_kind::beam;
  if (!out.info.ran) return out;
  if (!(options.beam_share >= 0 && options.beam_share <= 1))
    throw input_error(param("beam_share") + " must be a share between 0 and 1");
  if (options.beam_width < 1) throw input_error(param("beam_width") + " must be at least 1");
  const double share_left = std::max(options.seconds * options.beam_share - seconds_since(t_setup), 1e-3);
  beam_result b;
  if (options.fit_to_seconds && options.seconds > 0) {
    b = budget_beam(prob, share_left, 1u << 20, plan.threads);
  } else {
    beam_options bo;
    bo.width = options.beam_width;
    bo.threads = plan.threads;
    // A budget still holds: the beam narrows to one state per sum at its share (the string is
    // then the time's, as every result of a run the budget cut is).
    if (options.seconds > 0) bo.time_limit_s = share_left;
    b = beam_search(prob, bo);
  }
  out.info.applicable = b.applicable;
  out.info.makespan = b.makespan;
  out.info.width = b.width;
  out.info.expanded = b.expanded;
  out.info.exact = b.exact;
  out.info.seconds = b.elapsed_s;
  out.string = std::move(b.string);
  return out;
}

/// The chains' set-up (first strings, states, checkpoints: tens of seconds for a million chains)
/// stops on interrupted() and, with a budget, at half of what the beam left of it: the chains set
/// up by then run (the first ones of the slice, at least one; chains_run), the rest are dropped.
std::unique_ptr<chain_runner> set_up_chains(const problem& prob, const estimate_options& options,
                                            const chain_plan& plan, const std::vector<std::uint16_t>& beam_string,
                                            clock_type::time_point t_setup) {
  const bool limited = options.seconds > 0;
  const auto setup_deadline =
      clock_type::now() + std::chrono::duration_cast<clock_type::duration>(std::chrono::duration<double>(
                              limited ? std::max(0.5 * (options.seconds * 0.95 - seconds_since(t_setup)), 0.0) : 0.0));
  const std::function<bool()> setup_stop = [&] {
    return interrupted() || (limited && clock_type::now() >= setup_deadline);
  };
  chain_setup setup = make_setup(prob, options, plan.params, plan.ids(), beam_string, plan.backend, setup_stop);
  setup.checkpoints = plan.checkpoints;
  return plan.backend == backend_kind::cuda ? make_cuda_runner(setup) : make_cpu_runner(setup, plan.threads);
}

/// What the result says of the run before its rounds: the backend, the chains (run: all ranks'),
/// the GPU's launch, the bound, the beam, the set-up's time.
void describe_run(estimate_result& result, const problem& prob, const chain_plan& plan, const chain_runner& runner,
                  std::uint32_t local_run, const beam_start& beam, clock_type::time_point t_setup) {
  result.backend = runner.name();
  result.chains = plan.chains;
  if (const auto& device = plan.device) {
    auto& c = result.cuda;
    c.used = true;
    c.design = device->design;
    c.on_chip = device->on_chip;
    c.packing = device->packing;
    c.block = device->block;
    c.blocks = device->design == chain_design::warp ? plan.local_chains()
                                                    : (plan.local_chains() + device->block - 1) / device->block;
    c.sms = device->sms;
    c.resident_threads_per_sm = device->threads_per_sm;
    c.resident_chains = device->device_chains;
    c.chain_bytes = device->chain_bytes;
    c.shared_bytes = device->shared_bytes;
  }
  result.chains_run = local_run;
  if (plan.ranks) {
    std::uint64_t sum = 0;
    for (const auto& c : plan.ranks->allgather(to_bytes(local_run))) sum += from_bytes<std::uint32_t>(c);
    result.chains_run = static_cast<std::uint32_t>(sum);
  }
  result.chain_begin = plan.chain_begin;
  result.chain_end = plan.chain_end;
  result.upper_bound = pessimistic_bound(prob);
  result.beam = beam.info;
  result.setup_s = seconds_since(t_setup);
}

/// What the rounds leave for the rest of run_estimate.
struct rounds_run {
  std::uint64_t done = 0;     ///< iterations every chain did
  std::uint64_t planned = 0;  ///< the cooling schedule's length at the end
  /// The plan of each round with fit_to_seconds, for --validate to replay: (iterations done,
  /// iter_max from then on).
  std::vector<std::pair<std::uint64_t, std::uint64_t>> cooling;
  std::vector<chain_summary> summaries;
  std::uint32_t best = 0;         ///< the envelope's last value
  bool interrupt_agreed = false;  ///< some rank was interrupted (a signal reaches one rank alone)
};

/// The improvements of one round, each placed inside the round by its iteration (chains run at an
/// even pace), in time order: from this process's chains, or with ranks the agreed best alone.
std::vector<envelope_point> improvements(const std::vector<chain_summary>& summaries, const round_state* agreed,
                                         std::uint32_t best, std::uint64_t done, std::uint64_t round, double before,
                                         double after) {
  std::vector<envelope_point> found;
  const auto at = [&](std::uint64_t iter) {
    return before + static_cast<double>(iter - done) / static_cast<double>(round) * (after - before);
  };
  if (agreed) {
    if (agreed->best > best && agreed->best_iter > done) found.push_back({at(agreed->best_iter), agreed->best});
  } else {
    for (const auto& s : summaries)
      if (s.best > best && s.best_iter > done) found.push_back({at(s.best_iter), s.best});
  }
  std::sort(found.begin(), found.end(), [](auto& a, auto& b) { return a.seconds < b.seconds; });
  return found;
}

/// Rounds: chains keep their state between rounds, so round sizes change only how often the
/// envelope is sampled and the budget checked, never the result of a given iteration count. The
/// first round is one iteration (one iteration of a big instance can take long); later ones grow by
/// the time measured, towards target_round_s and never beyond the remaining budget. The budget
/// counts from the call (set-up, rounds, and the rebuild of the best string at the end: a share of
/// at most 10 % kept for it).
///
/// With ranks, every round ends in one agreement (agree()): the best makespan and its chain, the
/// iterations, whether every rank finished the round, whether any wants to stop, and rank 0's
/// clock, from which every rank sizes the next round alike.
///
/// With fit_to_seconds the cooling schedule follows the budget: after every round the iterations
/// per chain (the schedule's length) are planned again from the speed so far, so that the chains
/// are cold about when the budget ends. Every rank plans from the agreed clock, so alike.
rounds_run run_rounds(chain_runner& runner, const estimate_options& options, const chain_plan& plan,
                      clock_type::time_point t_setup, estimate_result& result, const progress_fn& progress) {
  const bool limited = options.seconds > 0;
  const auto deadline = t_setup + std::chrono::duration_cast<clock_type::duration>(
                                      std::chrono::duration<double>(options.seconds * (limited ? 0.95 : 0)));
  const auto should_stop = [&] { return interrupted() || (limited && clock_type::now() >= deadline); };
  rank_group* const ranks = plan.ranks;
  const auto start = clock_type::now();
  rounds_run r;
  r.summaries = runner.summaries();
  round_state st = local_best(r.summaries);
  st.stop = should_stop();
  st.interrupt = interrupted();
  st.since_setup = seconds_since(t_setup);
  agree(ranks, st);
  r.best = st.best;
  bool stop_agreed = st.stop;
  r.interrupt_agreed = st.interrupt;
  result.envelope.push_back({0.0, r.best});
  std::uint64_t round = 1;
  const double target_round_s = 0.05;
  const bool fitting = options.fit_to_seconds && limited;
  r.planned = options.iterations;
  while (r.done < r.planned) {
    double before = seconds_since(start);
    if (ranks ? stop_agreed : should_stop()) break;
    round = std::min(round, r.planned - r.done);
    bool whole = runner.advance_until(round, should_stop);
    double after = seconds_since(start);
    double since_setup = seconds_since(t_setup);
    r.summaries = runner.summaries();
    ++result.rounds;
    if (ranks) {
      st = local_best(r.summaries);
      st.whole = whole;
      st.stop = should_stop();
      st.interrupt = interrupted();
      st.before = before;
      st.after = after;
      st.since_setup = since_setup;
      agree(ranks, st);
      whole = st.whole;
      stop_agreed = st.stop;
      r.interrupt_agreed = r.interrupt_agreed || st.interrupt;
      before = st.before;
      after = st.after;
      since_setup = st.since_setup;
    }
    for (const auto& e : improvements(r.summaries, ranks ? &st : nullptr, r.best, r.done, round, before, after))
      if (e.best > r.best) {
        r.best = e.best;
        result.envelope.push_back(e);
      }
    if (!whole) break;  // stopped within the round: `done` stays what every chain did
    r.done += round;
    if (fitting) {
      const double left = std::max(options.seconds * 0.95 - since_setup, 0.0);
      const double per_second = static_cast<double>(r.done) / std::max(after, 1e-6);
      const double more = std::min(per_second * left, static_cast<double>(options.iterations - r.done));
      r.planned = r.done + static_cast<std::uint64_t>(more);
      runner.set_iter_max(r.planned);
      r.cooling.emplace_back(r.done, r.planned);
    }
    if (progress) progress(after, r.done * result.chains_run, r.planned * result.chains_run, r.best);
    // Aim for rounds of about target_round_s, never beyond the remaining budget.
    const double took = std::max(after - before, 1e-6);
    double want = target_round_s;
    if (limited) want = std::min(want, std::max(options.seconds * 0.95 - since_setup, 1e-3));
    const double scale = std::clamp(want / took, 0.25, 8.0);
    round = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(static_cast<double>(round) * scale));
  }
  result.iterations_planned = r.planned;
  result.elapsed_s = seconds_since(start);
  result.iterations_per_chain = r.done;
  return r;
}

/// The run's best: the highest best makespan, the lowest chain id among equals, agreed by every
/// rank (its owner sends its string to all), rebuilt and checked; the run's totals and how it
/// ended. Returns whether every rank can validate (--validate).
bool take_best(estimate_result& result, const problem& prob, const estimate_options& options, const chain_plan& plan,
               chain_runner& runner, const rounds_run& r) {
  rank_group* const ranks = plan.ranks;
  const auto local_run = static_cast<std::uint32_t>(r.summaries.size());
  std::size_t best_index = 0;
  for (std::size_t c = 1; c < r.summaries.size(); ++c)
    if (chain_beats(r.summaries[c].best, r.summaries[c].chain_id, r.summaries[best_index].best,
                    r.summaries[best_index].chain_id))
      best_index = c;
  const bool validating = options.validate > 0 && plan.backend != backend_kind::cpu && !interrupted() &&
                          !r.interrupt_agreed && local_best(r.summaries).iterations == r.done * local_run;
  round_state st = local_best(r.summaries);
  st.validated = validating ? 1 : 0;  // every rank can validate, or none does
  st.interrupt = interrupted();
  agree(ranks, st);
  // Interrupted when any rank was: every rank, and rank 0's JSON, says so alike.
  result.interrupted = r.interrupt_agreed || st.interrupt;
  result.time_limited = !result.interrupted && r.done < r.planned;
  result.iterations = st.iterations;
  result.best_makespan = st.best;
  result.best_chain = st.chain;
  result.best_chain_init = chain_initial_kind(options, result.best_chain);
  if (ranks) {
    // The owner of chain c is the slice s with s * chains / slices <= c < (s + 1) * chains / slices.
    int own = 0;
    while (own + 1 < static_cast<int>(plan.slices) &&
           std::uint64_t(own + 1) * plan.chains / plan.slices <= result.best_chain)
      ++own;
    std::string mine;
    if (own == ranks->rank()) {
      const auto s = runner.best_string(result.best_chain - plan.chain_begin);
      mine.assign(reinterpret_cast<const char*>(s.data()), s.size() * sizeof(std::uint16_t));
    }
    const std::string got = ranks->broadcast(mine, own);
    result.best_string.resize(got.size() / sizeof(std::uint16_t));
    std::memcpy(result.best_string.data(), got.data(), got.size());
  } else {
    result.best_string = runner.best_string(best_index);
  }
  result.schedule = build_schedule(prob, result.best_string);
  if (result.schedule.makespan != result.best_makespan)
    throw validation_error("the best string rebuilds to " + std::to_string(result.schedule.makespan) +
                           " cycles, not the " + std::to_string(result.best_makespan) + " its chain reported");
  if (envelope_point& last = result.envelope.back(); last.best != r.best)
    result.envelope.push_back({result.elapsed_s, r.best});
  return ranks ? st.validated == static_cast<std::uint32_t>(ranks->size()) : validating;
}

/// --validate: the same chains, the same iterations, on the CPU reference; any difference fails.
/// The chains picked are those of the whole run; each slice validates the ones it holds.
void validate_chains(estimate_result& result, const problem& prob, const estimate_options& options,
                     const chain_plan& plan, chain_runner& runner, const rounds_run& r,
                     const std::vector<std::uint16_t>& beam_string) {
  const std::uint32_t chains = plan.chains, chain_begin = plan.chain_begin;
  const auto local_run = static_cast<std::uint32_t>(r.summaries.size());
  const std::uint32_t sample = std::min(options.validate, chains);
  std::vector<std::uint32_t> pick;
  for (std::uint32_t k = 0; k < sample; ++k) {
    const auto id = sample == 1 ? 0 : static_cast<std::uint32_t>(std::uint64_t{k} * (chains - 1) / (sample - 1));
    if (id >= chain_begin && id < chain_begin + local_run) pick.push_back(id);
  }
  pick.erase(std::unique(pick.begin(), pick.end()), pick.end());
  const chain_setup cpu_setup = make_setup(prob, options, plan.params, pick, beam_string, backend_kind::cpu);
  auto cpu = make_cpu_runner(cpu_setup, plan.threads);
  if (!pick.empty()) {
    // Replay the run's plan: the same cooling schedule at the same iterations.
    std::uint64_t at = 0;
    for (const auto& [from, iter_max] : r.cooling) {
      cpu->advance(from - at);
      cpu->set_iter_max(iter_max);
      at = from;
    }
    cpu->advance(r.done - at);
  }
  const auto cpu_sum = cpu->summaries();
  for (std::size_t k = 0; k < pick.size(); ++k) {
    const auto& g = r.summaries[pick[k] - chain_begin];
    const auto& c = cpu_sum[k];
    if (g.best != c.best || g.current != c.current || g.iter != c.iter ||
        runner.best_string(pick[k] - chain_begin) != cpu->best_string(k))
      throw validation_error(param("validate") + ": chain " + std::to_string(pick[k]) + " differs: " + runner.name() +
                             " best " + std::to_string(g.best) + " current " + std::to_string(g.current) +
                             ", cpu best " + std::to_string(c.best) + " current " + std::to_string(c.current));
  }
  result.validated = static_cast<std::uint32_t>(pick.size());
  if (plan.ranks) {
    std::uint32_t all = 0;
    for (const auto& v : plan.ranks->allgather(to_bytes(result.validated))) all += from_bytes<std::uint32_t>(v);
    result.validated = all;
  }
}

}  // namespace

estimate_result run_estimate(const problem& prob, const estimate_options& options, const progress_fn& progress) {
  const auto t_setup = clock_type::now();
  check_options(options);
  const chain_plan plan = plan_chains(prob, options);
  const beam_start beam = run_beam(prob, options, plan, t_setup);
  const std::unique_ptr<chain_runner> runner = set_up_chains(prob, options, plan, beam.string, t_setup);
  estimate_result result;
  describe_run(result, prob, plan, *runner, static_cast<std::uint32_t>(runner->summaries().size()), beam, t_setup);
  const rounds_run rounds = run_rounds(*runner, options, plan, t_setup, result, progress);
  if (take_best(result, prob, options, plan, *runner, rounds))
    validate_chains(result, prob, options, plan, *runner, rounds, beam.string);
  return result;
}

}  // namespace warpspan
