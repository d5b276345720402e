// The processes one run is spread over: the ranks of mpirun in an MPI build (host/mpi/), one
// process otherwise (host/nompi/). The library sees only these byte-string collectives, so no MPI
// header leaves host/mpi/. Every collective must be called by every rank, in the same order.
#pragma once

#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace warpspan {

class rank_group {
 public:
  virtual ~rank_group() = default;
  virtual int rank() const = 0;
  virtual int size() const = 0;
  /// Every rank's `mine`, by rank.
  virtual std::vector<std::string> allgather(const std::string& mine) = 0;
  /// Every rank's `mine` on rank 0 (by rank); empty on the others.
  virtual std::vector<std::string> gather(const std::string& mine) = 0;
  /// `data` of rank `root` on every rank.
  virtual std::string broadcast(const std::string& data, int root) = 0;
  /// out[r] goes to rank r; returns what every rank sent to this one, by rank (MPI_Alltoallv).
  virtual std::vector<std::string> alltoall(const std::vector<std::string>& out) = 0;
  /// Bytes this rank has sent through the collectives so far (the communication volume).
  virtual std::uint64_t bytes_sent() const = 0;
  /// The ranks of this run on this rank's machine, this one included (they share its memory).
  /// Ranks that are not processes of mpirun (threads in tests) count as one machine each.
  virtual int local_size() const { return 1; }
};

/// One process: the collectives return what they are given.
class single_process final : public rank_group {
 public:
  int rank() const override { return 0; }
  int size() const override { return 1; }
  std::vector<std::string> allgather(const std::string& mine) override { return {mine}; }
  std::vector<std::string> gather(const std::string& mine) override { return {mine}; }
  std::string broadcast(const std::string& data, int) override { return data; }
  std::vector<std::string> alltoall(const std::vector<std::string>& out) override { return out; }
  std::uint64_t bytes_sent() const override { return 0; }
};

/// Whether this binary was built with WARPSPAN_MPI.
bool mpi_compiled();
/// Starts MPI when the binary has it (a run without mpirun is one rank); call first in main.
void start_ranks(int& argc, char**& argv);
/// Ends MPI (call before returning from main); `code` is this process's exit code.
void finish_ranks(int code);
/// The ranks of this run (one process when not under mpirun, or without MPI).
rank_group& world();
/// An error on this rank: under mpirun with more than one rank, ends the whole job with `code`
/// (rank 0 prints `line`; another rank prints it only when rank 0 has not failed as well). Without
/// MPI, or with one rank, prints `line` to stderr and returns `code`.
int fail_ranks(int code, const std::string& line);

/// Fixed-size values in and out of the byte strings the collectives carry.
template <class T>
std::string to_bytes(const T& v) {
  return std::string(reinterpret_cast<const char*>(&v), sizeof(T));
}
template <class T>
T from_bytes(const std::string& s) {
  T v{};
  if (s.size() == sizeof(T)) std::memcpy(&v, s.data(), sizeof(T));
  return v;
}

}  // namespace warpspan
