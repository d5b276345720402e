// CPU backend of the annealing chains: each chain's state is one block of host memory laid out
// like the GPU's, and chains are split over a pool of threads kept for the whole run (a round
// only hands the chains to the waiting workers). Each chain also keeps checkpoints of its schedule
// builder (checkpoints.hpp; unless chain_setup::checkpoints is off), so a move re-places only the
// positions it changes: the trajectory is the shared step's (and the GPU's), in fewer instructions.
#include <algorithm>
#include <atomic>
#include <memory>
#include <thread>

#include "warpspan/core/error.hpp"
#include "warpspan/core/resources.hpp"
#include "warpspan/makespan/chains.hpp"
#include "warpspan/detail/makespan/checkpoints.hpp"
#include "warpspan/makespan/schedule_table.hpp"

namespace warpspan {

namespace {

int pool_size(int threads, std::size_t chains) {
  int t = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  return static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(t), std::max<std::size_t>(chains, 1)));
}

class cpu_runner final : public chain_runner {
 public:
  cpu_runner(const chain_setup& setup, int threads)
      : prob_(*setup.prob),
        params_(setup.params),
        ids_(setup.chain_ids),
        pool_(pool_size(threads, setup.chain_ids.size())) {
    const problem_view p = prob_.view();
    layout_ = make_chain_layout(p);
    std::size_t chains = ids_.size();
    if (!setup.initial_of && setup.initial.size() != chains * p.length)
      throw std::logic_error("cpu_runner: initial strings size");
    // Left uninitialised: each chain clears its own block as it is set up, on the set-up's threads,
    // so chains a stop drops never touch their memory.
    blocks_.reset(new unsigned char[layout_.bytes * chains]);
    states_.resize(chains);
    if (setup.checkpoints) checkpoints_.resize(chains);
    const auto set_up = [&](std::size_t c) {
      unsigned char* block = blocks_.get() + c * layout_.bytes;
      std::fill_n(block, layout_.bytes, static_cast<unsigned char>(0));
      const chain_view v = chain_view_at(block, layout_);
      if (setup.initial_of)
        setup.initial_of(c, v.str);
      else
        std::copy_n(setup.initial.begin() + static_cast<std::ptrdiff_t>(c * p.length), p.length, v.str);
      // anneal_init() with the host builder: the same schedule, without scanning full cycles one
      // by one (which grows with W x n when many warps wait for one unit).
      chain_state& s = states_[c];
      s.iter = 0;
      s.best_iter = 0;
      s.makespan = build_full_host(p, v);
      s.best = s.makespan;
      std::copy_n(v.str, p.length, chain_best_at(block, layout_));
      if (setup.checkpoints) {
        checkpoints_[c] = chain_checkpoints(p);
        checkpoints_[c].capture(p, v);
      }
    };
    // In batches of a few chains a thread, asking setup.stop between them (a million chains take
    // tens of seconds to set up): the first chain always, then as many as it allows.
    if (chains > 0) set_up(0);
    const std::size_t batch = std::size_t{16} * static_cast<std::size_t>(pool_.size());
    std::size_t ready = std::min<std::size_t>(chains, 1);
    while (ready < chains) {
      if (setup.stop && setup.stop()) {
        chains = ready;
        ids_.resize(chains);
        states_.resize(chains);
        if (setup.checkpoints) checkpoints_.resize(chains);
        break;
      }
      const std::size_t n = std::min(batch, chains - ready);
      pool_.run(n, [&](std::size_t k) { set_up(ready + k); });
      ready += n;
    }
  }

  void advance(std::uint64_t iterations) override { advance_until(iterations, {}); }

  bool advance_until(std::uint64_t iterations, const std::function<bool()>& stop) override {
    const problem_view p = prob_.view();
    std::atomic<bool> skipped{false};
    pool_.run(states_.size(), [&](std::size_t c) {
      unsigned char* block = blocks_.get() + c * layout_.bytes;
      const chain_view v = chain_view_at(block, layout_);
      std::uint16_t* best = chain_best_at(block, layout_);
      const auto run = [&](std::uint64_t count) {
        if (checkpoints_.empty())
          anneal_run(p, v, best, states_[c], params_, ids_[c], count);
        else
          anneal_run_by(p, v, best, states_[c], params_, ids_[c], count, checkpoints_[c]);
      };
      if (!stop) {
        run(iterations);
        return;
      }
      // One iteration at a time, asking before each: iterations differ widely in cost (a move near
      // the start of the string rebuilds all of it), so a round sized by cheap ones may meet dear
      // ones. The question costs a clock read, little beside an iteration.
      for (std::uint64_t k = 0; k < iterations && states_[c].iter < params_.iter_max; ++k) {
        if (skipped.load(std::memory_order_relaxed) || stop()) {
          skipped.store(true, std::memory_order_relaxed);
          return;
        }
        run(1);
      }
    });
    return !skipped.load();
  }

  void set_iter_max(std::uint64_t n_max) override { params_.iter_max = n_max; }

  std::vector<chain_summary> summaries() override {
    std::vector<chain_summary> out(states_.size());
    for (std::size_t c = 0; c < states_.size(); ++c)
      out[c] = {ids_[c], states_[c].best, states_[c].makespan, states_[c].iter, states_[c].best_iter};
    return out;
  }

  std::vector<std::uint16_t> best_string(std::size_t index) override {
    const std::uint16_t* best = chain_best_at(blocks_.get() + index * layout_.bytes, layout_);
    return {best, best + prob_.length()};
  }

  std::string name() const override { return "cpu"; }

 private:
  const problem& prob_;
  anneal_params params_;
  std::vector<std::uint32_t> ids_;
  chain_layout layout_;
  std::unique_ptr<unsigned char[]> blocks_;  // layout_.bytes a chain
  std::vector<chain_state> states_;
  std::vector<chain_checkpoints> checkpoints_;  // one per chain, or none
  thread_pool pool_;                            // last: its workers stop before the chains they work on go
};

}  // namespace

std::unique_ptr<chain_runner> make_cpu_runner(const chain_setup& setup, int threads) {
  return std::make_unique<cpu_runner>(setup, threads);
}

}  // namespace warpspan
