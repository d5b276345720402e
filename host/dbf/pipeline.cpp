#include "warpspan/dbf/pipeline.hpp"

#include <chrono>

#include "warpspan/core/error.hpp"
#include "warpspan/core/interrupt.hpp"

namespace warpspan {

std::uint64_t dbf_chunk_max_cells(const dbf_options& options) {
  const bool cuda = options.backend == dbf_backend::cuda || options.backend == dbf_backend::cuda_sm;
  return std::uint64_t{1} << (cuda ? 28 : 24);
}

std::vector<unrolled_graph> unroll_all(const task_set& set, const dbf_options& options) {
  std::vector<unrolled_graph> graphs;
  graphs.reserve(set.tasks.size());
  for (const task& t : set.tasks) {
    graphs.push_back(unroll(t));
    check_table_size(graphs.back(), t.name, options);
  }
  return graphs;
}

namespace {

std::uint64_t cells_of(const std::vector<unrolled_graph>& graphs) {
  std::uint64_t cells = 0;
  for (const auto& g : graphs) cells += g.cells();
  return cells;
}

/// The curves of every set of a chunk (already unrolled), all tables in one dbf_tables call after
/// checking that what they hold at once fits the memory budget; with shared tables none is computed.
void compute_curves(std::vector<analysed_set>& chunk, const stream_options& options) {
  std::vector<const unrolled_graph*> all;
  for (auto& s : chunk)
    for (const auto& g : s.graphs) all.push_back(&g);
  if (all.empty()) return;
  const auto* shared = options.shared_tables;
  std::vector<dbf_table> tables;
  if (!shared) {
    check_tables_memory(all, options.dbf,
                        chunk.size() == 1 ? chunk.front().label : chunk.front().label + " .. " + chunk.back().label);
    tables = dbf_tables(all, options.dbf);
  }
  std::size_t next = 0;
  for (auto& s : chunk) {
    for (std::size_t k = 0; k < s.graphs.size(); ++k, ++next) {
      s.curves.emplace_back(shared ? (*shared)[k] : tables[next].min_span, s.graphs[k]);
      if (!shared) tables[next] = dbf_table{};  // a curve keeps only the steps; a batch's tables add up
    }
  }
}

}  // namespace

void analyse_set(analysed_set& set, const stream_options& options) {
  std::vector<analysed_set> one(1);
  one[0] = std::move(set);
  compute_curves(one, options);
  set = std::move(one[0]);
  try {
    set.result = edf_test(set.curves, options.method);
  } catch (const input_error& e) {
    throw input_error(set.label + ": " + e.what());
  }
}

bool analyse_sets(const std::function<bool(analysed_set&)>& next, const std::function<void(analysed_set&)>& report,
                  const stream_options& options, double& elapsed_s) {
  std::vector<analysed_set> chunk;
  std::uint64_t cells = 0;
  auto flush = [&]() -> bool {
    const auto start = std::chrono::steady_clock::now();
    compute_curves(chunk, options);
    bool done = true;
    for (auto& s : chunk) {
      if (interrupted()) {
        done = false;
        break;
      }
      if (s.error.empty()) {
        try {
          s.result = edf_test(s.curves, options.method);
        } catch (const input_error& e) {
          if (!options.keep_going) throw input_error(s.label + ": " + e.what());  // an undecided set names itself
          s.error = s.label + ": " + e.what();
        }
      }
      report(s);
    }
    elapsed_s += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    chunk.clear();
    cells = 0;
    return done;
  };
  for (;;) {
    if (interrupted()) return false;
    analysed_set s;
    try {
      if (!next(s)) break;
    } catch (const input_error&) {
      // A set that cannot be read ends the stream: the sets before it are analysed and reported
      // first, then its error.
      if (!chunk.empty()) flush();
      throw;
    }
    cells += cells_of(s.graphs);
    chunk.push_back(std::move(s));
    if ((chunk.size() >= dbf_chunk_max_sets || cells >= dbf_chunk_max_cells(options.dbf)) && !flush()) return false;
  }
  if (!chunk.empty() && !flush()) return false;
  return !interrupted();
}

}  // namespace warpspan
