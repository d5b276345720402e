// The source-level CFGs of the instrumented kernels of cuda/wcet/sdk_kernels.cu. Ipoint i of a
// kernel is ipoints[i] (the kernels' WARPSPAN_IPOINT ids); blocks without an Ipoint are the loop
// tests and joins a warp passes between them. Branches inside a block that no Ipoint tells apart
// (a swap, a bounds check around one store) are folded into the block: the IPG is the same.
#include <nlohmann/json.hpp>

#include "warpspan/core/error.hpp"
#include "warpspan/wcet/collect.hpp"

namespace warpspan::wcet {

namespace {

struct shape {
  const char* name;
  const char* description;
  unsigned default_size;
  std::vector<std::string> ipoints;  // in id order; each names its block
  std::vector<std::string> plain;    // blocks without an Ipoint
  std::vector<std::pair<std::string, std::string>> edges;
};

instrumented_kernel make(const shape& s) {
  nlohmann::json blocks = nlohmann::json::array(), edges = nlohmann::json::array(), ip = nlohmann::json::object();
  for (const auto& b : s.ipoints) blocks.push_back(b), ip[b] = b;
  for (const auto& b : s.plain) blocks.push_back(b);
  for (const auto& [a, b] : s.edges) edges.push_back({a, b});
  const nlohmann::json cfg = {{"name", s.name},           {"entry", s.ipoints.front()},
                              {"exit", s.ipoints.back()}, {"blocks", blocks},
                              {"edges", edges},           {"ipoints", ip}};
  return instrumented_kernel{s.name, s.description, cfg.dump(1) + "\n", s.ipoints, s.default_size};
}

// The two reductions share their shape: a tree of halving steps, a store by thread 0.
const std::vector<std::pair<std::string, std::string>> reduction_edges{
    {"start", "test"}, {"test", "step"}, {"test", "after"},  {"step", "add"},  {"step", "sync"},
    {"add", "sync"},   {"sync", "test"}, {"after", "store"}, {"after", "end"}, {"store", "end"}};

std::vector<instrumented_kernel> build() {
  std::vector<instrumented_kernel> out;
  out.push_back(make({"vector_add",
                      "c[i] = a[i] + b[i], one thread per element, a bounds check",
                      10000,
                      {"start", "add", "end"},
                      {},
                      {{"start", "add"}, {"start", "end"}, {"add", "end"}}}));
  out.push_back(make({"reduce_interleaved",
                      "block sums, interleaved addressing (tid % 2s == 0: divergent warps)",
                      8192,
                      {"start", "step", "add", "sync", "after", "store", "end"},
                      {"test"},
                      reduction_edges}));
  out.push_back(make({"reduce_sequential",
                      "block sums, sequential addressing (tid < s: whole warps idle)",
                      8192,
                      {"start", "step", "add", "sync", "after", "store", "end"},
                      {"test"},
                      reduction_edges}));
  out.push_back(make({"transpose_naive",
                      "matrix transpose, 32x32 tiles of 32x8 threads, strided writes",
                      100,
                      {"start", "row", "copy", "end"},
                      {"test", "next"},
                      {{"start", "test"},
                       {"test", "row"},
                       {"test", "end"},
                       {"row", "copy"},
                       {"row", "next"},
                       {"copy", "next"},
                       {"next", "test"}}}));
  out.push_back(make({"transpose_shared",
                      "matrix transpose through a padded shared tile, coalesced both ways",
                      100,
                      {"start", "load", "copy_in", "synced", "store", "copy_out", "end"},
                      {"test1", "next1", "test2", "next2"},
                      {{"start", "test1"},
                       {"test1", "load"},
                       {"test1", "synced"},
                       {"load", "copy_in"},
                       {"load", "next1"},
                       {"copy_in", "next1"},
                       {"next1", "test1"},
                       {"synced", "test2"},
                       {"test2", "store"},
                       {"test2", "end"},
                       {"store", "copy_out"},
                       {"store", "next2"},
                       {"copy_out", "next2"},
                       {"next2", "test2"}}}));
  out.push_back(make({"scan",
                      "inclusive prefix sums within each block (Hillis-Steele, double barrier)",
                      2000,
                      {"start", "step", "add", "after", "store", "end"},
                      {"test", "join"},
                      {{"start", "test"},
                       {"test", "step"},
                       {"test", "after"},
                       {"step", "add"},
                       {"step", "join"},
                       {"add", "join"},
                       {"join", "test"},
                       {"after", "store"},
                       {"after", "end"},
                       {"store", "end"}}}));
  out.push_back(make({"histogram",
                      "64-bin histogram, shared-memory atomics, grid-stride loop",
                      20000,
                      {"start", "count", "merged", "merge", "end"},
                      {"ctest", "clear", "ltest"},
                      {{"start", "ctest"},
                       {"ctest", "clear"},
                       {"clear", "ctest"},
                       {"ctest", "ltest"},
                       {"ltest", "count"},
                       {"count", "ltest"},
                       {"ltest", "merged"},
                       {"merged", "merge"},
                       {"merged", "end"},
                       {"merge", "end"}}}));
  out.push_back(make({"bitonic_sort",
                      "bitonic sort of each block's 128 keys in shared memory",
                      1024,
                      {"start", "stage", "pass", "compare", "up", "down", "end"},
                      {"ktest", "jtest", "jnext"},
                      {{"start", "ktest"},
                       {"ktest", "stage"},
                       {"ktest", "end"},
                       {"stage", "jtest"},
                       {"jtest", "pass"},
                       {"jtest", "ktest"},
                       {"pass", "compare"},
                       {"pass", "jnext"},
                       {"compare", "up"},
                       {"compare", "down"},
                       {"up", "jnext"},
                       {"down", "jnext"},
                       {"jnext", "jtest"}}}));
  return out;
}

}  // namespace

const std::vector<instrumented_kernel>& instrumented_kernels() {
  static const std::vector<instrumented_kernel> kernels = build();
  return kernels;
}

const instrumented_kernel& find_instrumented_kernel(const std::string& name) {
  std::string names;
  for (const auto& k : instrumented_kernels()) {
    if (k.name == name) return k;
    names += (names.empty() ? "" : ", ") + k.name;
  }
  throw input_error("unknown kernel '" + name + "' (kernels: " + names + ")");
}

}  // namespace warpspan::wcet
