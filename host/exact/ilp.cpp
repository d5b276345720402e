// The binary ILP of 001 Sec. 5 (Fig. 3) for the worst-case makespan, with the semantics of MODEL.md,
// generalised from L/C to the dense types k < K of the problem (capacity cap_k = min(sigma_k, W))
// and to an optional scheduler limit S (at most S instructions per cycle in all).
//
// Indices: warps w = 1..W, instructions i = 1..I (type ty(i)), cycles t = 1..T, T the horizon (by
// default the pessimistic bound of makespan/bounds.hpp, which every work-conserving schedule fits;
// 001 models T of its Sec. 4 formula, which some schedules exceed, and then misses them).
//
// Variables (all binary):
//   x_w_i_t        warp w issues instruction i in cycle t (the paper's LS/CC: the type is fixed by
//                  i, so one variable per (w, i, t) suffices). Instruction i needs i cycles before
//                  it and I - i after it, so only t in win(i) = [i, T - I + i] is modelled: a
//                  window of D = T - I + 1 cycles (the paper models all T; the others are 0).
//   full_U_t       type U is at capacity in cycle t (the paper's E_t for L, G_t for C), for the
//                  (U, t) that some window of a U instruction covers (n_cov pairs in all).
//   full_sched_t   with a scheduler limit: S instructions issue in cycle t (t = 1..T).
// Objective: maximise sum_t t x_W_I_t, the last cycle of warp W (eq. 13).
//
// Constraints, with Y_w_i = sum_t t x_w_i_t and done(w, i, t) = sum_{t' <= t} x_w_i_t':
//   assign_w_i      sum_t x_w_i_t = 1                                      (17)       W I
//   prec_w_i        Y_w_{i+1} - Y_w_i >= 1, i < I                           (18)       W (I - 1)
//   one_w_t         sum_i x_w_i_t <= 1                                      (16)       W T
//   order_w         Y_w_I - Y_{w+1}_I <= 0, w < W: warps finish in order,   (sym.)     W - 1
//                   so warp W is last (the paper asks Y_w_I <= Y_W_I only)
//   cap_U_t         sum_{w, i of type U} x_w_i_t <= cap_U                   (14, 15)   n_cov
//   fullif_U_t      count_U_t - full_U_t <= cap_U - 1    (full => 1)        (40)       n_cov
//   fullonly_U_t    count_U_t - cap_U full_U_t >= 0      (1 => full)        (41)       n_cov
//   the same three with the scheduler limit for full_sched_t (all types)               3 T
//   work conservation (22, 23): warp w is ready for i in cycle t and idle,
//     ready(w, i, t) = done(w, i-1, t-1) - done(w, i, t)   (1 - done(w, 1, t) for i = 1),
//     only when type ty(i) (or the scheduler) is full:
//   short form      wc_w_i_t: ready(w, i, t) <= full_ty(i)_t [+ full_sched_t]   (34, 37)  W I D
//   long form       wc_w_U_t: sum_{i of type U, t in win(i)} ready(w, i, t)
//                                 <= I (full_U_t [+ full_sched_t])            (33, 36)  W n_cov
//                   (the paper's 1 <= (1/I) sum_i TL_w_i_t + E_t, TL = 1 - ready, and TL = 1 for
//                   the instructions of other types)
// Variables: W I D + n_cov [+ T]. Constraints: W I + W (I - 1) + W T + (W - 1) + 3 n_cov [+ 3 T]
// + (W I D or W n_cov). With one type, n_cov = T.
//
// Barriers (docs/makespan.md, "Barriers"; blocks of bw warps, warps w and v in one block iff
// w / bw == v / bw). A barrier is an instruction of the barrier type, whose capacity is W: full
// only when every warp issues a barrier, so a ready warp at a barrier issues it unless the
// scheduler is full, as the rows above already say. For each barrier instruction b followed by an
// instruction (b + 1 < I), each block and each cycle t of the window of b + 1, one more variable:
//   rel_blk_b_t    every warp of the block has issued b by cycle t - 1 (the barrier is released)
// and rows
//   bar_w_v_b      Y_w_{b+1} - Y_v_b >= 1, for v != w in w's block: past the barrier only after
//                  every warp of the block has issued it                         W (bw - 1) per b
//   relle_w_b_t    rel_blk_b_t - done(w, b, t-1) <= 0, w in the block            W D per b
//   relge_blk_b_t  rel_blk_b_t - sum_{w in block} done(w, b, t-1) >= 1 - bw      (W / bw) D per b
// and ready(w, b+1, t) = rel_blk_b_t - done(w, b+1, t) in the work-conserving rows: a warp waiting
// at a barrier is not ready. The order rows keep warps in order within a block and the blocks in
// order of their last warps (blocks, like the warps of one block, are interchangeable), so warp W
// is still last. With blocks of one warp, or without barriers, the model is the one above.
//
// MODEL.md's work-conserving rule is the paper's: an idle ready warp needs its type full or (new
// here) the scheduler full. ready uses done(i - 1, t - 1): a warp may issue in the cycle after its
// previous instruction. Every schedule that satisfies these constraints is built exactly by its
// issues ordered by cycle, which exact_ilp checks on every solution it returns.
#include "warpspan/exact/ilp.hpp"

#include <poll.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>

#include <algorithm>
#include <chrono>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <limits>
#include <memory>
#include <mutex>
#include <sstream>
#include <stdexcept>

#include "warpspan/detail/core/cbc_lock.hpp"
#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"
#include "warpspan/makespan/bounds.hpp"
#include "warpspan/makespan/chains.hpp"

#ifndef WARPSPAN_HAVE_CBC
#define WARPSPAN_HAVE_CBC 0
#endif
#if WARPSPAN_HAVE_CBC
#include <coin/Cbc_C_Interface.h>
#endif

namespace warpspan {
namespace {

using clock_type = std::chrono::steady_clock;

enum family : std::uint8_t {
  f_assign,
  f_prec,
  f_one,
  f_order,
  f_cap,
  f_full_if,
  f_full_only,
  f_wc_short,
  f_wc_long,
  f_bar,
  f_rel_le,
  f_rel_ge,
};

/// What a row is, for its name: family and up to three indices (0-based; k is a dense type or K).
struct row_tag {
  family fam;
  std::uint32_t a = 0, b = 0, c = 0;
};

/// The model: columns in the order x (w, i, t) then full (k, t), rows in compressed sparse rows.
class ilp_model {
 public:
  ilp_model(const problem& prob, std::uint32_t horizon, ilp_constraints form) : prob_(prob), form_(form) {
    const problem_view p = prob.view();
    if (prob.per_warp())
      throw input_error("the ILP models one kernel run by all warps, not per-warp kernels (" + param("warp_kernels") +
                        "): use the state-space search (" + param("method", "search") + ")");
    W_ = p.warps;
    I_ = p.instructions;
    K_ = p.ntypes;
    limited_ = p.limited != 0;
    T_ = horizon ? horizon : static_cast<std::uint64_t>(pessimistic_bound(prob));
    if (T_ < I_)
      throw input_error("ILP horizon " + std::to_string(T_) + " is shorter than the kernel (" + std::to_string(I_) +
                        " instructions)");
    if (T_ > std::numeric_limits<std::int32_t>::max() / 4)
      throw input_error("ILP horizon " + std::to_string(T_) + " is too large");
    D_ = T_ - I_ + 1;
    types_.assign(p.types, p.types + I_);
    for (std::uint32_t k = 0; k <= K_; ++k) cap_[k] = p.cap[k];
    // Barriers that hold a warp back: those followed by an instruction, in blocks of two or more.
    bw_ = p.barrier != no_barrier && p.block > 1 ? p.block : 1;
    if (bw_ > 1)
      for (std::uint32_t b = 0; b + 1 < I_; ++b)
        if (types_[b] == p.barrier) {
          bar_index_.resize(I_, -1);
          bar_index_[b] = static_cast<std::int32_t>(bars_.size());
          bars_.push_back(b);
        }

    // Every cycle holds some window, so there are at least W I D + T variables: refuse before
    // allocating anything per cycle.
    nx_ = static_cast<std::uint64_t>(W_) * I_ * D_;
    if (nx_ + T_ > ilp_max_variables) too_large(std::to_string(nx_ + T_) + " or more variables", ilp_max_variables);

    // full_U_t where some window of a U instruction holds t (instruction i, 0-based, has the
    // window i + 1 .. i + D): count windows starting minus windows ending per type and cycle (a
    // window ending at T + 1 lands in slot 0 of the next type's block, never read).
    const std::uint64_t slots = static_cast<std::uint64_t>(K_ + 1) * (T_ + 1);
    std::vector<std::int32_t> diff(slots + 1, 0);
    for (std::uint32_t i = 0; i < I_; ++i) {
      diff[types_[i] * (T_ + 1) + i + 1] += 1;
      diff[types_[i] * (T_ + 1) + i + 1 + D_] -= 1;
    }
    full_col_.assign(slots, -1);
    std::int64_t col = static_cast<std::int64_t>(nx_);
    for (std::uint32_t k = 0; k < K_; ++k) {
      std::int64_t run = 0;
      for (std::uint64_t t = 1; t <= T_; ++t) {
        run += diff[k * (T_ + 1) + t];
        if (run > 0) full_col_[k * (T_ + 1) + t] = col++;
      }
    }
    ncov_ = static_cast<std::uint64_t>(col) - nx_;
    if (limited_)
      for (std::uint64_t t = 1; t <= T_; ++t) full_col_[K_ * (T_ + 1) + t] = col++;
    rel_first_ = static_cast<std::uint64_t>(col);
    const std::uint64_t nbars = bars_.size(), blocks = W_ / bw_;
    col += static_cast<std::int64_t>(blocks * nbars * D_);
    ncols_ = static_cast<std::uint64_t>(col);
    if (ncols_ > ilp_max_variables) too_large(std::to_string(ncols_) + " variables", ilp_max_variables);
    const std::uint64_t nnz = estimated_nonzeros();
    if (nnz > ilp_max_nonzeros) too_large("about " + std::to_string(nnz) + " nonzero coefficients", ilp_max_nonzeros);
    nrows_ = static_cast<std::uint64_t>(W_) * I_ + static_cast<std::uint64_t>(W_) * (I_ - 1) +
             static_cast<std::uint64_t>(W_) * T_ + (W_ - 1) + 3 * ncov_ + (limited_ ? 3 * T_ : 0) +
             (form_ == ilp_constraints::short_form ? nx_ : static_cast<std::uint64_t>(W_) * ncov_) +
             nbars * (static_cast<std::uint64_t>(W_) * (bw_ - 1) + static_cast<std::uint64_t>(W_) * D_ + blocks * D_);
  }

  std::uint64_t columns() const { return ncols_; }
  std::uint64_t rows() const { return nrows_; }

  /// Builds every row (and the names of the full_* columns).
  void build() {
    full_cols_.assign(static_cast<std::size_t>(rel_first_ - nx_), {0, 0});
    for (std::uint32_t k = 0; k <= K_; ++k)
      for (std::uint64_t t = 1; t <= T_; ++t)
        if (full_col_[k * (T_ + 1) + t] >= 0)
          full_cols_[full_col_[k * (T_ + 1) + t] - nx_] = {k, static_cast<std::uint32_t>(t)};

    row_start_.reserve(nrows_ + 1);
    row_start_.push_back(0);
    tags_.reserve(nrows_);
    sense_.reserve(nrows_);
    rhs_.reserve(nrows_);

    for (std::uint32_t w = 0; w < W_; ++w)  // assign_w_i (17)
      for (std::uint32_t i = 0; i < I_; ++i) {
        for (std::uint64_t t = first(i); t <= last(i); ++t) term(x(w, i, t), 1);
        end_row({f_assign, w, i}, 'E', 1);
      }
    for (std::uint32_t w = 0; w < W_; ++w)  // prec_w_i (18)
      for (std::uint32_t i = 0; i + 1 < I_; ++i) {
        for (std::uint64_t t = first(i + 1); t <= last(i + 1); ++t) term(x(w, i + 1, t), static_cast<std::int32_t>(t));
        for (std::uint64_t t = first(i); t <= last(i); ++t) term(x(w, i, t), -static_cast<std::int32_t>(t));
        end_row({f_prec, w, i}, 'G', 1);
      }
    for (std::uint32_t w = 0; w < W_; ++w)  // one_w_t (16)
      for (std::uint64_t t = 1; t <= T_; ++t) {
        for (std::uint32_t i = i_first(t); i <= i_last(t); ++i) term(x(w, i, t), 1);
        end_row({f_one, w, static_cast<std::uint32_t>(t)}, 'L', 1);
      }
    for (std::uint32_t w = 0; w + 1 < W_; ++w) {  // order_w: warps finish in order, W last
      // Within a block the next warp; from a block's last warp, the next block's last.
      const std::uint32_t v = (w + 1) % bw_ != 0 ? w + 1 : w + bw_;
      for (std::uint64_t t = first(I_ - 1); t <= last(I_ - 1); ++t) {
        term(x(w, I_ - 1, t), static_cast<std::int32_t>(t));
        term(x(v, I_ - 1, t), -static_cast<std::int32_t>(t));
      }
      end_row({f_order, w}, 'L', 0);
    }
    // Capacity (14, 15) and the full variables (40, 41), per type, then for the scheduler.
    for (family fam : {f_cap, f_full_if, f_full_only})
      for (std::uint32_t k = 0; k <= K_; ++k)
        for (std::uint64_t t = 1; t <= T_; ++t) {
          const std::int64_t f = full_col_[k * (T_ + 1) + t];
          if (f < 0) continue;
          for (std::uint32_t w = 0; w < W_; ++w)
            for (std::uint32_t i = i_first(t); i <= i_last(t); ++i)
              if (k == K_ || types_[i] == k) term(x(w, i, t), 1);
          const std::int32_t cap = cap_[k];
          const row_tag tag{fam, k, static_cast<std::uint32_t>(t)};
          if (fam == f_cap) {
            end_row(tag, 'L', cap);
          } else if (fam == f_full_if) {
            term(f, -1);
            end_row(tag, 'L', cap - 1);
          } else {
            term(f, -cap);
            end_row(tag, 'G', 0);
          }
        }
    // Work conservation (22, 23): ready(w, i, t) <= full.
    if (form_ == ilp_constraints::short_form) {
      for (std::uint32_t w = 0; w < W_; ++w)
        for (std::uint32_t i = 0; i < I_; ++i)
          for (std::uint64_t t = first(i); t <= last(i); ++t) {
            // i > 0: done(i-1, t-1) - done(i, t) - full <= 0; i = 0: done(0, t) + full >= 1.
            const std::int32_t sign = i == 0 ? 1 : -1;
            add_ready(w, i, t, -sign);
            term(full_col_[types_[i] * (T_ + 1) + t], sign);
            if (limited_) term(full_col_[K_ * (T_ + 1) + t], sign);
            end_row({f_wc_short, w, i, static_cast<std::uint32_t>(t)}, i == 0 ? 'G' : 'L', i == 0 ? 1 : 0);
          }
    } else {
      for (std::uint32_t w = 0; w < W_; ++w)
        for (std::uint32_t k = 0; k < K_; ++k)
          for (std::uint64_t t = 1; t <= T_; ++t) {
            const std::int64_t f = full_col_[k * (T_ + 1) + t];
            if (f < 0) continue;
            std::int32_t constant = 0;  // the 1 of ready(w, 1, t)
            for (std::uint32_t i = i_first(t); i <= i_last(t); ++i)
              if (types_[i] == k) {
                add_ready(w, i, t, 1);
                constant += i == 0;
              }
            const auto big = static_cast<std::int32_t>(I_);
            term(f, -big);
            if (limited_) term(full_col_[K_ * (T_ + 1) + t], -big);
            end_row({f_wc_long, w, k, static_cast<std::uint32_t>(t)}, 'L', -constant);
          }
    }
    // Barriers: the next instruction after every warp of the block, and the release variables.
    for (std::uint32_t bi = 0; bi < bars_.size(); ++bi) {
      const std::uint32_t b = bars_[bi];
      for (std::uint32_t w = 0; w < W_; ++w)
        for (std::uint32_t v = w / bw_ * bw_; v < (w / bw_ + 1) * bw_; ++v) {
          if (v == w) continue;
          for (std::uint64_t t = first(b + 1); t <= last(b + 1); ++t)
            term(x(w, b + 1, t), static_cast<std::int32_t>(t));
          for (std::uint64_t t = first(b); t <= last(b); ++t) term(x(v, b, t), -static_cast<std::int32_t>(t));
          end_row({f_bar, w, v, b}, 'G', 1);
        }
      for (std::uint32_t w = 0; w < W_; ++w)
        for (std::uint64_t t = first(b + 1); t <= last(b + 1); ++t) {
          term(static_cast<std::int64_t>(rel(w / bw_, bi, t)), 1);
          add_done(w, b, t - 1, -1);
          end_row({f_rel_le, w, b, static_cast<std::uint32_t>(t)}, 'L', 0);
        }
      for (std::uint32_t blk = 0; blk < W_ / bw_; ++blk)
        for (std::uint64_t t = first(b + 1); t <= last(b + 1); ++t) {
          term(static_cast<std::int64_t>(rel(blk, bi, t)), 1);
          for (std::uint32_t w = blk * bw_; w < (blk + 1) * bw_; ++w) add_done(w, b, t - 1, -1);
          end_row({f_rel_ge, blk, b, static_cast<std::uint32_t>(t)}, 'G', 1 - static_cast<std::int32_t>(bw_));
        }
    }
    if (tags_.size() != nrows_)
      throw std::logic_error("ILP: counted " + std::to_string(nrows_) + " rows, built " + std::to_string(tags_.size()));
  }

  std::string col_name(std::uint64_t c) const {
    if (c < nx_) {
      const std::uint64_t wi = c / D_;
      const std::uint64_t i = wi % I_;
      return "x_" + std::to_string(wi / I_ + 1) + "_" + std::to_string(i + 1) + "_" + std::to_string(i + 1 + c % D_);
    }
    if (c >= rel_first_) {  // rel_blk_b_t, 1-based block and instruction
      const std::uint64_t r = c - rel_first_, slot = r / D_;
      const std::uint32_t b = bars_[slot % bars_.size()];
      return "rel_" + std::to_string(slot / bars_.size() + 1) + "_" + std::to_string(b + 1) + "_" +
             std::to_string(first(b + 1) + r % D_);
    }
    const auto [k, t] = full_cols_[c - nx_];
    return "full_" + type_name(k) + "_" + std::to_string(t);
  }

  std::string row_name(std::uint64_t r) const {
    const row_tag& g = tags_[r];
    const auto n = [](std::uint32_t v) { return std::to_string(v + 1); };
    switch (g.fam) {
      case f_assign: return "assign_" + n(g.a) + "_" + n(g.b);
      case f_prec: return "prec_" + n(g.a) + "_" + n(g.b);
      case f_one: return "one_" + n(g.a) + "_" + std::to_string(g.b);
      case f_order: return "order_" + n(g.a);
      case f_cap: return "cap_" + type_name(g.a) + "_" + std::to_string(g.b);
      case f_full_if: return "fullif_" + type_name(g.a) + "_" + std::to_string(g.b);
      case f_full_only: return "fullonly_" + type_name(g.a) + "_" + std::to_string(g.b);
      case f_wc_short: return "wc_" + n(g.a) + "_" + n(g.b) + "_" + std::to_string(g.c);
      case f_wc_long: return "wc_" + n(g.a) + "_" + type_name(g.b) + "_" + std::to_string(g.c);
      case f_bar: return "bar_" + n(g.a) + "_" + n(g.b) + "_" + n(g.c);
      case f_rel_le: return "relle_" + n(g.a) + "_" + n(g.b) + "_" + std::to_string(g.c);
      case f_rel_ge: return "relge_" + n(g.a) + "_" + n(g.b) + "_" + std::to_string(g.c);
    }
    return "?";
  }

  /// The column of x_w_i_t, or -1 outside the window of i.
  std::int64_t x_or_none(std::uint32_t w, std::uint32_t i, std::uint64_t t) const {
    return in_window(i, t) ? static_cast<std::int64_t>(x(w, i, t)) : -1;
  }
  /// The column of full_k_t (k = K: the scheduler), or -1.
  std::int64_t full_or_none(std::uint32_t k, std::uint64_t t) const {
    return t >= 1 && t <= T_ ? full_col_[k * (T_ + 1) + t] : -1;
  }
  /// Parses a column name back into its index (for a model CBC read from LP text), or -1.
  std::int64_t parse_col(const std::string& name) const {
    unsigned a = 0, b = 0, c = 0;
    char type[16] = {};
    if (std::sscanf(name.c_str(), "x_%u_%u_%u", &a, &b, &c) == 3 && a >= 1 && a <= W_ && b >= 1 && b <= I_)
      return x_or_none(a - 1, b - 1, c);
    if (std::sscanf(name.c_str(), "full_%15[A-Za-z]_%u", type, &c) == 2)
      for (std::uint32_t k = 0; k <= K_; ++k)
        if (type_name(k) == type) return full_or_none(k, c);
    if (std::sscanf(name.c_str(), "rel_%u_%u_%u", &a, &b, &c) == 3 && a >= 1 && a <= W_ / bw_ && b >= 1 && b <= I_ &&
        !bar_index_.empty() && bar_index_[b - 1] >= 0 && in_window(b, c))
      return static_cast<std::int64_t>(rel(a - 1, static_cast<std::uint32_t>(bar_index_[b - 1]), c));
    return -1;
  }

  /// Column values of a schedule (cycle[w * I + i]) with warps renumbered by completion and the
  /// full variables set from its usage; empty when the schedule does not fit the windows.
  std::vector<double> point(const std::vector<std::uint32_t>& cycle) const {
    // Warps by completion within their block, blocks by the completion of their last warp.
    const auto end = [&](std::uint32_t w) { return cycle[static_cast<std::size_t>(w) * I_ + I_ - 1]; };
    std::vector<std::uint32_t> order(W_), blocks(W_ / bw_);
    for (std::uint32_t w = 0; w < W_; ++w) order[w] = w;
    for (std::uint32_t blk = 0; blk < W_ / bw_; ++blk) {
      const auto from = order.begin() + static_cast<std::ptrdiff_t>(blk * bw_);
      std::stable_sort(from, from + static_cast<std::ptrdiff_t>(bw_),
                       [&](std::uint32_t a, std::uint32_t b) { return end(a) < end(b); });
      blocks[blk] = blk;
    }
    std::stable_sort(blocks.begin(), blocks.end(), [&](std::uint32_t a, std::uint32_t b) {
      return end(order[a * bw_ + bw_ - 1]) < end(order[b * bw_ + bw_ - 1]);
    });
    {
      std::vector<std::uint32_t> by_block(W_);
      for (std::uint32_t blk = 0; blk < W_ / bw_; ++blk)
        for (std::uint32_t j = 0; j < bw_; ++j) by_block[blk * bw_ + j] = order[blocks[blk] * bw_ + j];
      order.swap(by_block);
    }
    std::vector<double> v(ncols_, 0.0);
    std::vector<std::uint32_t> used(static_cast<std::size_t>(K_ + 1) * (T_ + 1), 0);
    for (std::uint32_t w = 0; w < W_; ++w)
      for (std::uint32_t i = 0; i < I_; ++i) {
        const std::uint64_t t = cycle[static_cast<std::size_t>(order[w]) * I_ + i];
        if (!in_window(i, t)) return {};
        v[x(w, i, t)] = 1;
        ++used[types_[i] * (T_ + 1) + t];
        ++used[K_ * (T_ + 1) + t];
      }
    for (std::uint64_t c = nx_; c < rel_first_; ++c) {
      const auto [k, t] = full_cols_[c - nx_];
      v[c] = used[k * (T_ + 1) + t] == static_cast<std::uint32_t>(cap_[k]) ? 1 : 0;
    }
    for (std::uint32_t bi = 0; bi < bars_.size(); ++bi)
      for (std::uint32_t blk = 0; blk < W_ / bw_; ++blk)
        for (std::uint64_t t = first(bars_[bi] + 1); t <= last(bars_[bi] + 1); ++t) {
          bool released = true;
          for (std::uint32_t j = 0; j < bw_; ++j)
            released = released && cycle[static_cast<std::size_t>(order[blk * bw_ + j]) * I_ + bars_[bi]] <= t - 1;
          v[rel(blk, bi, t)] = released ? 1 : 0;
        }
    return v;
  }

  /// The first row a point violates, or -1.
  std::int64_t violated_row(const std::vector<double>& v) const {
    for (std::uint64_t r = 0; r < nrows_; ++r) {
      double lhs = 0;
      for (std::uint64_t e = row_start_[r]; e < row_start_[r + 1]; ++e) lhs += coef_[e] * v[index_[e]];
      const bool ok = sense_[r] == 'L'   ? lhs <= rhs_[r] + 1e-9
                      : sense_[r] == 'G' ? lhs >= rhs_[r] - 1e-9
                                         : std::abs(lhs - rhs_[r]) < 1e-9;
      if (!ok) return static_cast<std::int64_t>(r);
    }
    return -1;
  }

  /// Cycle of every (w, i) from a 0/1 solution over the x columns.
  std::vector<std::uint32_t> cycles_of(const std::vector<double>& v) const {
    std::vector<std::uint32_t> cycle(static_cast<std::size_t>(W_) * I_, 0);
    for (std::uint32_t w = 0; w < W_; ++w)
      for (std::uint32_t i = 0; i < I_; ++i)
        for (std::uint64_t t = first(i); t <= last(i); ++t)
          if (v[x(w, i, t)] > 0.5) {
            if (cycle[static_cast<std::size_t>(w) * I_ + i])
              throw std::logic_error("ILP solution: warp " + std::to_string(w + 1) + " issues instruction " +
                                     std::to_string(i + 1) + " twice");
            cycle[static_cast<std::size_t>(w) * I_ + i] = static_cast<std::uint32_t>(t);
          }
    for (std::size_t k = 0; k < cycle.size(); ++k)
      if (!cycle[k])
        throw std::logic_error("ILP solution: warp " + std::to_string(k / I_ + 1) + " never issues instruction " +
                               std::to_string(k % I_ + 1));
    return cycle;
  }

  std::string lp_text() const {
    std::string s;
    s.reserve(static_cast<std::size_t>(row_start_.back()) * 14 + ncols_ * 16 + nrows_ * 24);
    const problem_view p = prob_.view();
    std::ostringstream head;
    head << "\\ warpspan: worst-case makespan of " << W_ << " warps running " << to_run_length(prob_.kernel)
         << " (I = " << I_ << ") on one SM, the binary ILP of 001 Sec. 5\n\\ capacities per cycle:";
    for (std::uint32_t k = 0; k < K_; ++k) head << ' ' << type_name(k) << '=' << p.cap[k];
    if (limited_) head << " sched=" << p.cap[K_];
    if (!bars_.empty()) head << "; " << bars_.size() << " barrier(s) holding warps back, blocks of " << bw_ << " warps";
    head << "; horizon " << T_ << " cycles; " << (form_ == ilp_constraints::short_form ? "short" : "long")
         << " work-conserving constraints\n\\ " << ncols_ << " binary variables, " << nrows_ << " constraints\n";
    s += head.str();
    s += "Maximize\n makespan:";
    std::uint32_t n = 0;
    for (std::uint64_t t = first(I_ - 1); t <= last(I_ - 1); ++t)
      put_term(s, n++, static_cast<std::int32_t>(t), x(W_ - 1, I_ - 1, t));
    s += "\nSubject To\n";
    for (std::uint64_t r = 0; r < nrows_; ++r) {
      s += ' ';
      s += row_name(r);
      s += ':';
      n = 0;
      for (std::uint64_t e = row_start_[r]; e < row_start_[r + 1]; ++e) put_term(s, n++, coef_[e], index_[e]);
      s += sense_[r] == 'L' ? " <= " : sense_[r] == 'G' ? " >= " : " = ";
      s += std::to_string(rhs_[r]);
      s += '\n';
    }
    s += "Binaries\n";
    for (std::uint64_t c = 0; c < ncols_; ++c) {
      s += ' ';
      s += col_name(c);
      s += '\n';
    }
    s += "End\n";
    return s;
  }

  std::uint64_t nx() const { return nx_; }
  std::uint64_t horizon() const { return T_; }
  std::uint32_t warps() const { return W_; }
  std::uint32_t instructions() const { return I_; }
  /// The objective is sum_t t x_W_I_t over these cycles.
  std::uint64_t objective_first() const { return first(I_ - 1); }
  std::uint64_t objective_last() const { return last(I_ - 1); }
  std::int64_t objective_column(std::uint64_t t) const { return x_or_none(W_ - 1, I_ - 1, t); }
  const std::vector<std::uint64_t>& row_start() const { return row_start_; }
  const std::vector<std::uint32_t>& index() const { return index_; }
  const std::vector<std::int32_t>& coef() const { return coef_; }
  const std::vector<char>& sense() const { return sense_; }
  const std::vector<std::int32_t>& rhs() const { return rhs_; }

 private:
  std::uint64_t first(std::uint32_t i) const { return i + 1; }
  std::uint64_t last(std::uint32_t i) const { return i + D_; }
  bool in_window(std::uint32_t i, std::uint64_t t) const { return t >= first(i) && t <= last(i); }
  /// The instructions whose window holds cycle t (1 <= t <= T): i + 1 <= t <= i + D.
  std::uint32_t i_first(std::uint64_t t) const { return t > D_ ? static_cast<std::uint32_t>(t - D_) : 0; }
  std::uint32_t i_last(std::uint64_t t) const {
    return static_cast<std::uint32_t>(std::min<std::uint64_t>(t - 1, I_ - 1));
  }
  std::uint64_t x(std::uint32_t w, std::uint32_t i, std::uint64_t t) const {
    return (static_cast<std::uint64_t>(w) * I_ + i) * D_ + (t - i - 1);
  }
  std::string type_name(std::uint32_t k) const {
    return k == K_ ? std::string("sched") : std::string(1, letter(prob_.type_unit[k]));
  }

  /// Adds sign * (done(w, i-1, t-1) - done(w, i, t)) without its constant (the 1 for i = 0); right
  /// after a barrier that holds warps back, rel (every warp of the block past it) for done(w, i-1, t-1).
  void add_ready(std::uint32_t w, std::uint32_t i, std::uint64_t t, std::int32_t sign) {
    if (i > 0 && !bar_index_.empty() && bar_index_[i - 1] >= 0)
      term(static_cast<std::int64_t>(rel(w / bw_, static_cast<std::uint32_t>(bar_index_[i - 1]), t)), sign);
    else if (i > 0)
      add_done(w, i - 1, t - 1, sign);
    add_done(w, i, t, -sign);
  }

  /// Adds sign * done(w, i, t) = sign * sum_{u <= t} x_w_i_u.
  void add_done(std::uint32_t w, std::uint32_t i, std::uint64_t t, std::int32_t sign) {
    for (std::uint64_t u = first(i); u <= std::min(t, last(i)); ++u) term(x(w, i, u), sign);
  }

  /// The column of rel_blk_b_t: block blk, the bi-th barrier that holds warps back (bars_), t in
  /// the window of the instruction after it.
  std::uint64_t rel(std::uint32_t blk, std::uint32_t bi, std::uint64_t t) const {
    return rel_first_ + (static_cast<std::uint64_t>(blk) * bars_.size() + bi) * D_ + (t - first(bars_[bi] + 1));
  }

  [[noreturn]] void too_large(const std::string& what, std::uint64_t limit) const {
    throw input_error("the ILP for W = " + std::to_string(W_) + ", I = " + std::to_string(I_) + " and horizon " +
                      std::to_string(T_) + " would have " + what + ", more than the " + std::to_string(limit) +
                      " this build accepts (use fewer warps)");
  }

  std::uint64_t estimated_nonzeros() const {
    // Every x sits in assign, one and three capacity rows (six with the scheduler), in at most two
    // prec rows (once as t, once as -t) and twice in order; work conservation adds per warp and
    // instruction sum_{k=1..D} 2k terms (k for i = 1) and the full variables.
    const std::uint64_t per_x = 4 + 2 + 3 + (limited_ ? 3 : 0);
    const std::uint64_t wc =
        static_cast<std::uint64_t>(W_) * (2 * I_ - 1) * (D_ * (D_ + 1) / 2) + nx_ * (limited_ ? 2 : 1);
    // Barriers: per barrier 2 (bw - 1) W D terms of bar rows, and about 2 W D^2 of rel rows.
    const std::uint64_t barriers = bars_.size() * static_cast<std::uint64_t>(W_) * D_ * (2 * (bw_ - 1) + 2 * D_ + 2);
    return nx_ * per_x + wc + 2 * (ncols_ - nx_) + barriers;
  }

  void term(std::int64_t col, std::int32_t coef) {
    if (col < 0) throw std::logic_error("ILP: a term refers to a variable outside the model");
    pending_.emplace_back(static_cast<std::uint32_t>(col), coef);
  }

  void end_row(row_tag tag, char sense, std::int32_t rhs) {
    // Merge repeated variables (the long form sums overlapping ready terms) and drop zeros.
    std::sort(pending_.begin(), pending_.end());
    for (std::size_t k = 0; k < pending_.size();) {
      std::size_t e = k;
      std::int32_t sum = 0;
      while (e < pending_.size() && pending_[e].first == pending_[k].first) sum += pending_[e++].second;
      if (sum != 0) {
        index_.push_back(pending_[k].first);
        coef_.push_back(sum);
      }
      k = e;
    }
    pending_.clear();
    if (index_.size() == row_start_.back())
      throw std::logic_error("ILP: row " + std::to_string(tags_.size()) + " came out empty");
    row_start_.push_back(index_.size());
    tags_.push_back(tag);
    sense_.push_back(sense);
    rhs_.push_back(rhs);
  }

  void put_term(std::string& s, std::uint32_t n, std::int32_t coef, std::uint64_t col) const {
    if (n > 0 && n % 8 == 0) s += "\n  ";  // keep lines short for LP readers with a line limit
    s += coef < 0 ? " - " : (n == 0 ? " " : " + ");
    const std::int32_t a = coef < 0 ? -coef : coef;
    if (a != 1) {
      s += std::to_string(a);
      s += ' ';
    }
    s += col_name(col);
  }

  const problem& prob_;
  ilp_constraints form_;
  std::uint32_t W_ = 0, I_ = 0, K_ = 0;
  bool limited_ = false;
  std::uint64_t T_ = 0, D_ = 0;
  std::vector<std::uint8_t> types_;
  std::int32_t cap_[max_types + 1] = {};
  std::uint32_t bw_ = 1;                 ///< warps a block where barriers hold warps back, else 1
  std::vector<std::uint32_t> bars_;      ///< the barrier instructions followed by one (with bw_ > 1)
  std::vector<std::int32_t> bar_index_;  ///< per instruction: its index in bars_, or -1 (empty: none)
  std::uint64_t nx_ = 0, ncov_ = 0, ncols_ = 0, nrows_ = 0, rel_first_ = 0;
  std::vector<std::int64_t> full_col_;                              ///< [k * (T + 1) + t] -> column or -1
  std::vector<std::pair<std::uint32_t, std::uint32_t>> full_cols_;  ///< column - nx -> (k, t)
  std::vector<std::uint64_t> row_start_;
  std::vector<std::uint32_t> index_;
  std::vector<std::int32_t> coef_;
  std::vector<char> sense_;
  std::vector<std::int32_t> rhs_;
  std::vector<row_tag> tags_;
  std::vector<std::pair<std::uint32_t, std::int32_t>> pending_;
};

}  // namespace

std::pair<std::uint64_t, std::uint64_t> ilp_size(const problem& prob, std::uint32_t horizon,
                                                 ilp_constraints constraints) {
  const ilp_model m(prob, horizon, constraints);
  return {m.columns(), m.rows()};
}

std::string ilp_lp_text(const problem& prob, std::uint32_t horizon, ilp_constraints constraints) {
  ilp_model m(prob, horizon, constraints);
  m.build();
  return m.lp_text();
}

std::string ilp_violated_constraint(const problem& prob, std::uint32_t horizon, ilp_constraints constraints,
                                    const std::vector<std::uint32_t>& cycle) {
  if (cycle.size() != prob.length()) throw input_error("ilp_violated_constraint: need W x I cycles");
  ilp_model m(prob, horizon, constraints);
  m.build();
  const std::vector<double> v = m.point(cycle);
  if (v.empty()) return "horizon";
  const std::int64_t r = m.violated_row(v);
  return r < 0 ? std::string() : m.row_name(static_cast<std::uint64_t>(r));
}

#if WARPSPAN_HAVE_CBC

bool ilp_compiled() { return true; }

namespace {

/// Issues ordered by cycle (then warp): the pseudo-precedence string that builds this schedule
/// when it is work-conserving (MODEL.md).
std::vector<std::uint16_t> string_of(std::uint32_t warps, std::uint32_t instructions,
                                     const std::vector<std::uint32_t>& cycle) {
  std::vector<std::pair<std::uint32_t, std::uint16_t>> issues;
  issues.reserve(cycle.size());
  for (std::uint32_t w = 0; w < warps; ++w)
    for (std::uint32_t i = 0; i < instructions; ++i)
      issues.emplace_back(cycle[static_cast<std::size_t>(w) * instructions + i], static_cast<std::uint16_t>(w));
  std::stable_sort(issues.begin(), issues.end());
  std::vector<std::uint16_t> s;
  s.reserve(issues.size());
  for (const auto& [t, w] : issues) s.push_back(w);
  return s;
}

struct cbc_deleter {
  void operator()(Cbc_Model* m) const { Cbc_deleteModel(m); }
};
using cbc_ptr = std::unique_ptr<Cbc_Model, cbc_deleter>;

/// A temporary file removed when this goes out of scope.
struct temp_file {
  std::string path;
  explicit temp_file(const std::string& text) {
    const char* dir = std::getenv("TMPDIR");
    std::string templ = std::string(dir && *dir ? dir : "/tmp") + "/warpspan_ilp_XXXXXX.lp";
    const int fd = mkstemps(templ.data(), 3);
    if (fd < 0) throw std::runtime_error("ILP: cannot create a temporary file in " + templ);
    ::close(fd);
    path = templ;
    std::ofstream out(path, std::ios::binary);
    out << text;
    if (!out) throw std::runtime_error("ILP: cannot write " + path);
  }
  ~temp_file() { std::remove(path.c_str()); }
};

/// Loads the in-memory model into CBC (columns, integrality, maximisation).
void load_model(Cbc_Model* cbc, const ilp_model& m) {
  const std::uint64_t ncols = m.columns();
  const std::uint64_t nrows = m.rows();
  const auto& rs = m.row_start();
  const std::uint64_t nnz = rs.back();
  if (nnz > static_cast<std::uint64_t>(std::numeric_limits<CoinBigIndex>::max()))
    throw input_error("the ILP has " + std::to_string(nnz) + " nonzero coefficients, more than CBC takes");
  // Rows to columns.
  std::vector<CoinBigIndex> start(ncols + 1, 0);
  for (std::uint32_t c : m.index()) ++start[c + 1];
  for (std::uint64_t c = 0; c < ncols; ++c) start[c + 1] += start[c];
  std::vector<CoinBigIndex> fill(start.begin(), start.end() - 1);
  std::vector<int> index(nnz);
  std::vector<double> value(nnz);
  for (std::uint64_t r = 0; r < nrows; ++r)
    for (std::uint64_t e = rs[r]; e < rs[r + 1]; ++e) {
      const CoinBigIndex at = fill[m.index()[e]]++;
      index[at] = static_cast<int>(r);
      value[at] = m.coef()[e];
    }
  constexpr double inf = std::numeric_limits<double>::max();
  std::vector<double> collb(ncols, 0.0), colub(ncols, 1.0), obj(ncols, 0.0), rowlb(nrows), rowub(nrows);
  for (std::uint64_t t = m.objective_first(); t <= m.objective_last(); ++t)
    obj[m.objective_column(t)] = static_cast<double>(t);
  for (std::uint64_t r = 0; r < nrows; ++r) {
    const double b = m.rhs()[r];
    rowlb[r] = m.sense()[r] == 'L' ? -inf : b;
    rowub[r] = m.sense()[r] == 'G' ? inf : b;
  }
  Cbc_loadProblem(cbc, static_cast<int>(ncols), static_cast<int>(nrows), start.data(), index.data(), value.data(),
                  collb.data(), colub.data(), obj.data(), rowlb.data(), rowub.data());
  for (std::uint64_t c = 0; c < ncols; ++c) Cbc_setInteger(cbc, static_cast<int>(c));
  Cbc_setObjSense(cbc, -1);
}

/// What a CBC run left: status, objective and bound as CBC reports them, the best solution.
struct cbc_outcome {
  bool optimal = false;
  bool infeasible = false;
  bool time_limited = false;
  bool interrupted = false;  ///< Ctrl-C or SIGTERM stopped the solve
  double objective = 0;
  double bound = 0;
  std::vector<double> solution;  ///< empty: no feasible solution found
  std::string why;               ///< CBC's status codes when it stopped otherwise
};

/// The caller holds cbc_mutex() (detail/core/cbc_lock.hpp): CBC is not thread-safe.
cbc_outcome solve_held(Cbc_Model* cbc) {
  Cbc_setParameter(cbc, "log", "0");
  Cbc_solve(cbc);
  cbc_outcome o;
  o.optimal = Cbc_isProvenOptimal(cbc) != 0;
  o.infeasible = Cbc_isProvenInfeasible(cbc) != 0;
  o.time_limited = Cbc_isSecondsLimitReached(cbc) != 0;
  o.bound = Cbc_getBestPossibleObjValue(cbc);
  if (const double* sol = Cbc_bestSolution(cbc)) {
    o.solution.assign(sol, sol + Cbc_getNumCols(cbc));
    o.objective = Cbc_getObjValue(cbc);
  }
  o.why =
      "status " + std::to_string(Cbc_status(cbc)) + ", secondary status " + std::to_string(Cbc_secondaryStatus(cbc));
  return o;
}

bool write_all(int fd, const void* data, std::size_t bytes) {
  const char* p = static_cast<const char*>(data);
  while (bytes > 0) {
    const ssize_t n = ::write(fd, p, bytes);
    if (n <= 0) return false;
    p += n;
    bytes -= static_cast<std::size_t>(n);
  }
  return true;
}

/// CBC 2.10.8 misbehaves when the time limit expires while it preprocesses the model: it may crash
/// (SIGSEGV in CglPreProcess::postProcess) or call a feasible model infeasible. So a time-limited
/// solve runs in a child process that sends back its outcome; if the child dies, or calls a model
/// infeasible that has a known feasible point, the rest of the time goes to a solve without
/// preprocessing, which takes neither path.
///
/// CBC reads its time limit only between some of its steps (its root cuts and preprocessing ran
/// 49 s under a 5 s limit on W = 8): the parent waits for the child until the deadline (with
/// `seconds` 0, none) and no longer, and kills it there or on Ctrl-C or SIGTERM, keeping what it
/// knows without it.
cbc_outcome solve_time_limited(Cbc_Model* cbc, double seconds, bool known_feasible) {
  const auto start = clock_type::now();
  const auto elapsed = [&] { return std::chrono::duration<double>(clock_type::now() - start).count(); };
  // Held over the fork too: the child's copy of CBC is then no other thread's half-done solve.
  const std::lock_guard<std::mutex> lock(cbc_mutex());
  if (seconds > 0) Cbc_setMaximumSeconds(cbc, seconds);
  std::fflush(nullptr);
  int fds[2];
  if (::pipe(fds) == 0) {
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      const cbc_outcome o = solve_held(cbc);
      const double head[5] = {double(o.optimal), double(o.infeasible), double(o.time_limited), o.objective, o.bound};
      const std::uint64_t n = o.solution.size();
      const bool ok = write_all(fds[1], head, sizeof head) && write_all(fds[1], &n, sizeof n) &&
                      write_all(fds[1], o.solution.data(), n * sizeof(double)) &&
                      write_all(fds[1], o.why.data(), o.why.size());
      ::_exit(ok ? 0 : 1);
    }
    ::close(fds[1]);
    if (pid > 0) {
      std::string buf;
      char chunk[1 << 16];
      bool killed = false, stopped_by_user = false;
      for (;;) {
        pollfd pfd{fds[0], POLLIN, 0};
        const int ready = ::poll(&pfd, 1, 100);  // a tenth of a second between looks at the clock
        if (ready < 0 && errno != EINTR) break;
        if (ready > 0) {
          const ssize_t n = ::read(fds[0], chunk, sizeof chunk);
          if (n == 0) break;
          if (n < 0) {
            if (errno == EINTR) continue;
            break;
          }
          buf.append(chunk, static_cast<std::size_t>(n));
          continue;
        }
        stopped_by_user = interrupted();
        if (stopped_by_user || (seconds > 0 && elapsed() >= seconds)) {
          ::kill(pid, SIGKILL);
          killed = true;
          break;
        }
      }
      ::close(fds[0]);
      int status = 0;
      while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
      }
      if (killed) {  // what CBC had found stays in the child: the caller keeps what it knew before
        cbc_outcome o;
        o.time_limited = !stopped_by_user;
        o.interrupted = stopped_by_user;
        o.bound = std::numeric_limits<double>::infinity();
        return o;
      }
      double head[5];
      std::uint64_t n = 0;
      if (WIFEXITED(status) && WEXITSTATUS(status) == 0 && buf.size() >= sizeof head + sizeof n) {
        std::memcpy(head, buf.data(), sizeof head);
        std::memcpy(&n, buf.data() + sizeof head, sizeof n);
        const std::size_t at = sizeof head + sizeof n;
        if (buf.size() >= at + n * sizeof(double)) {
          cbc_outcome o;
          o.optimal = head[0] != 0;
          o.infeasible = head[1] != 0;
          o.time_limited = head[2] != 0;
          o.objective = head[3];
          o.bound = head[4];
          o.solution.resize(n);
          if (n > 0) std::memcpy(o.solution.data(), buf.data() + at, n * sizeof(double));
          o.why = buf.substr(at + n * sizeof(double));
          if (!(o.infeasible && known_feasible)) return o;
        }
      }
    } else {
      ::close(fds[0]);
    }
  }
  // The child crashed, misreported or could not be started: no preprocessing for the time left.
  const double left = seconds > 0 ? seconds - elapsed() : std::numeric_limits<double>::infinity();
  if (left < 0.01) {
    cbc_outcome o;
    o.time_limited = true;
    o.bound = std::numeric_limits<double>::infinity();
    return o;
  }
  Cbc_setParameter(cbc, "preprocess", "off");
  if (seconds > 0) Cbc_setMaximumSeconds(cbc, left);
  return solve_held(cbc);
}

}  // namespace

ilp_result exact_ilp(const problem& prob, const ilp_options& options) {
  const auto start = clock_type::now();
  if (options.time_limit_s < 0 || !std::isfinite(options.time_limit_s))
    throw input_error("ILP time limit must be 0 or more");
  const std::uint64_t pessimistic = pessimistic_bound(prob);
  ilp_model m(prob, options.horizon, options.constraints);
  m.build();
  const std::uint64_t T = m.horizon();
  const std::uint32_t W = prob.warps;
  const std::uint32_t I = prob.instructions();

  ilp_result r;
  r.variables = m.columns();
  r.constraints = m.rows();

  // A feasible start and a proven lower bound: the best of the standard initial strings.
  const problem_view p = prob.view();
  std::vector<std::uint16_t> start_string;
  std::uint32_t start_makespan = 0;
  std::vector<std::uint32_t> start_cycles;
  for (initial_kind kind : {initial_kind::round_robin, initial_kind::fixed_priority, initial_kind::most_pending}) {
    std::vector<std::uint16_t> str = initial_string(p, kind, 0, 0);
    built_schedule b = build_schedule(prob, str);
    if (b.makespan > start_makespan && b.makespan <= T) {
      start_makespan = b.makespan;
      start_string = std::move(str);
      start_cycles = std::move(b.cycle);
    }
  }

  cbc_ptr cbc(Cbc_newModel());
  Cbc_setLogLevel(cbc.get(), 0);
  std::vector<std::int64_t> to_model;  // CBC column -> model column
  std::unique_ptr<temp_file> lp_file;
  if (options.through_lp_text) {
    lp_file = std::make_unique<temp_file>(m.lp_text());
    if (Cbc_readLp(cbc.get(), lp_file->path.c_str()) != 0)
      throw std::logic_error("ILP: CBC could not read the LP text it was given (" + lp_file->path + ")");
    const int n = Cbc_getNumCols(cbc.get());
    if (static_cast<std::uint64_t>(n) != m.columns() ||
        static_cast<std::uint64_t>(Cbc_getNumRows(cbc.get())) != m.rows())
      throw std::logic_error("ILP: CBC read " + std::to_string(n) + " columns and " +
                             std::to_string(Cbc_getNumRows(cbc.get())) + " rows from the LP text, the model has " +
                             std::to_string(m.columns()) + " and " + std::to_string(m.rows()));
    to_model.resize(n);
    std::vector<char> name(256);
    for (int c = 0; c < n; ++c) {
      Cbc_getColName(cbc.get(), c, name.data(), name.size());
      to_model[c] = m.parse_col(name.data());
      if (to_model[c] < 0) throw std::logic_error(std::string("ILP: unknown column in the LP text: ") + name.data());
    }
  } else {
    load_model(cbc.get(), m);
    to_model.resize(m.columns());
    for (std::uint64_t c = 0; c < m.columns(); ++c) to_model[c] = static_cast<std::int64_t>(c);
  }
  const int ncols = Cbc_getNumCols(cbc.get());
  // CBC reports values of the objective as loaded: sum t x (sense +1, to be maximised), or its
  // negation (-1, to be minimised) if the LP reader turned the maximisation around.
  double sense = 0;
  {
    const double* obj = Cbc_getObjCoefficients(cbc.get());
    const std::int64_t probe = m.objective_column(m.objective_last());
    for (int c = 0; c < ncols; ++c)
      if (to_model[c] == probe && obj[c] != 0) sense = obj[c] > 0 ? 1 : -1;
    if (sense == 0) throw std::logic_error("ILP: the model CBC holds has no objective");
    Cbc_setObjSense(cbc.get(), -sense);
  }
  // The best initial string's schedule must be a feasible point: a cheap check that the model
  // admits every work-conserving schedule (else it could report less than the worst case).
  if (!start_cycles.empty()) {
    const std::vector<double> v = m.point(start_cycles);
    const std::int64_t bad = v.empty() ? -2 : m.violated_row(v);
    if (bad != -1)
      throw std::logic_error("ILP: the schedule of a pseudo-precedence string violates " +
                             (bad == -2 ? std::string("the horizon") : "constraint " + m.row_name(bad)) +
                             ": the formulation excludes a work-conserving schedule");
  }

  const bool known_feasible = !start_cycles.empty();
  // The limit covers the whole call: what building the model took comes off the solve's time.
  double left = 0;
  if (options.time_limit_s > 0)
    left = std::max(options.time_limit_s - std::chrono::duration<double>(clock_type::now() - start).count(), 0.01);
  const cbc_outcome out = solve_time_limited(cbc.get(), left, known_feasible);
  const bool optimal = out.optimal;
  const double* sol = out.solution.empty() ? nullptr : out.solution.data();
  if (out.infeasible && !sol && !(known_feasible && out.time_limited)) {
    if (T >= pessimistic || known_feasible)
      throw std::logic_error("ILP: CBC found the model infeasible with horizon " + std::to_string(T) +
                             ", which a work-conserving schedule fits: a bug in the formulation or in CBC");
    throw input_error("no work-conserving schedule ends by cycle " + std::to_string(T) +
                      " (the ILP horizon); give a larger horizon or 0 for the pessimistic bound");
  }

  std::uint32_t found = 0;
  if (sol) {
    std::vector<double> v(m.columns(), 0.0);
    for (int c = 0; c < ncols; ++c) v[to_model[c]] = sol[c];
    const std::vector<std::uint32_t> cycle = m.cycles_of(v);
    found = cycle[static_cast<std::size_t>(W - 1) * I + I - 1];
    const double objective = out.objective * sense;
    if (std::abs(objective - found) > 0.5)
      throw std::logic_error("ILP: CBC reports objective " + std::to_string(objective) +
                             " but its solution ends warp " + std::to_string(W) + " in cycle " + std::to_string(found));
    std::vector<std::uint16_t> str = string_of(W, I, cycle);
    const built_schedule b = build_schedule(prob, str);
    if (b.makespan != found || b.cycle != cycle) {
      std::size_t k = 0;
      while (k < cycle.size() && b.cycle[k] == cycle[k]) ++k;
      std::ostringstream os;
      os << "ILP: the solution (objective " << found << ") is not the schedule its string builds (makespan "
         << b.makespan << ")";
      if (k < cycle.size())
        os << ": warp " << k / I + 1 << " instruction " << k % I + 1 << " is in cycle " << cycle[k] << " in the ILP, "
           << b.cycle[k] << " when built";
      os << "; a bug in the formulation (" << to_run_length(prob.kernel) << ", W = " << W << ")";
      throw std::logic_error(os.str());
    }
    if (found >= start_makespan) {
      start_makespan = found;
      start_string = std::move(str);
    }
  }
  r.lower = start_makespan;
  r.best_string = std::move(start_string);

  if (optimal && sol) {
    if (T >= pessimistic) {
      r.complete = true;
      r.makespan = r.upper = r.lower;
      r.status = "optimal";
    } else {
      r.upper = static_cast<std::uint32_t>(pessimistic);
      r.status = "optimal among schedules ending by the horizon " + std::to_string(T) +
                 ", which is below the pessimistic bound";
    }
  } else {
    const double bound = out.bound * sense;
    std::uint64_t upper = T;
    if (std::isfinite(bound) && bound < static_cast<double>(T))
      upper = static_cast<std::uint64_t>(std::floor(bound + 1e-6));
    if (T < pessimistic) upper = pessimistic;
    r.upper = static_cast<std::uint32_t>(std::max<std::uint64_t>(upper, r.lower));
    r.status = out.interrupted    ? "interrupted (Ctrl-C or SIGTERM)"
               : out.time_limited ? "stopped by the time limit"
                                  : "CBC stopped: " + out.why;
    r.interrupted = out.interrupted;
  }
  r.elapsed_s = std::chrono::duration<double>(clock_type::now() - start).count();
  return r;
}

#else

bool ilp_compiled() { return false; }

ilp_result exact_ilp(const problem&, const ilp_options&) {
  throw not_compiled(
      "the exact ILP needs COIN-OR CBC, and this warpspan was built without COIN-OR CBC; run "
      "scripts/setup.sh and rebuild (ilp_lp_text, " +
      param("lp") + ", still writes the model for another solver)");
}

#endif

}  // namespace warpspan
