// CPU backend of the annealing chains: each chain's state is one block of host memory laid out
// like the GPU's, and chains are split statically over threads for each round.
#include <algorithm>
#include <thread>

#include "warpspan/core/error.hpp"
#include "warpspan/makespan/chains.hpp"

namespace warpspan {

namespace {

class cpu_runner final : public chain_runner {
 public:
  cpu_runner(const chain_setup& setup, int threads)
      : prob_(*setup.prob), params_(setup.params), ids_(setup.chain_ids) {
    const problem_view p = prob_.view();
    layout_ = make_chain_layout(p);
    const std::size_t chains = ids_.size();
    if (setup.initial.size() != chains * p.length) throw std::logic_error("cpu_runner: initial strings size");
    blocks_.assign(layout_.bytes * chains, 0);
    states_.resize(chains);
    threads_ = threads > 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    threads_ = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(threads_), std::max<std::size_t>(chains, 1)));
    for_each_chain([&](std::size_t c) {
      unsigned char* block = blocks_.data() + c * layout_.bytes;
      const chain_view v = chain_view_at(block, layout_);
      std::copy_n(setup.initial.begin() + static_cast<std::ptrdiff_t>(c * p.length), p.length, v.str);
      anneal_init(p, v, chain_best_at(block, layout_), states_[c]);
    });
  }

  void advance(std::uint64_t iterations) override {
    const problem_view p = prob_.view();
    for_each_chain([&](std::size_t c) {
      unsigned char* block = blocks_.data() + c * layout_.bytes;
      anneal_run(p, chain_view_at(block, layout_), chain_best_at(block, layout_), states_[c], params_, ids_[c],
                 iterations);
    });
  }

  std::vector<chain_summary> summaries() override {
    std::vector<chain_summary> out(states_.size());
    for (std::size_t c = 0; c < states_.size(); ++c)
      out[c] = {ids_[c], states_[c].best, states_[c].makespan, states_[c].iter, states_[c].best_iter};
    return out;
  }

  std::vector<std::uint16_t> best_string(std::size_t index) override {
    const std::uint16_t* best = chain_best_at(blocks_.data() + index * layout_.bytes, layout_);
    return {best, best + prob_.length()};
  }

  std::string name() const override { return "cpu"; }

 private:
  template <class F>
  void for_each_chain(F&& f) {
    const std::size_t chains = states_.size();
    if (threads_ <= 1) {
      for (std::size_t c = 0; c < chains; ++c) f(c);
      return;
    }
    // Chains are independent; interleaved assignment balances chains of unequal cost.
    std::vector<std::thread> pool;
    pool.reserve(static_cast<std::size_t>(threads_));
    for (int t = 0; t < threads_; ++t)
      pool.emplace_back([&, t] {
        for (std::size_t c = static_cast<std::size_t>(t); c < chains; c += static_cast<std::size_t>(threads_)) f(c);
      });
    for (auto& th : pool) th.join();
  }

  const problem& prob_;
  anneal_params params_;
  std::vector<std::uint32_t> ids_;
  chain_layout layout_;
  std::vector<unsigned char> blocks_;
  std::vector<chain_state> states_;
  int threads_ = 1;
};

}  // namespace

std::unique_ptr<chain_runner> make_cpu_runner(const chain_setup& setup, int threads) {
  return std::make_unique<cpu_runner>(setup, threads);
}

}  // namespace warpspan
