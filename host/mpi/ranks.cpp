// The MPI layer (WARPSPAN_MPI=ON): rank_group over MPI_COMM_WORLD. Under mpirun every rank runs
// the same command; without a launcher MPI is not started and the run is one process, as in a
// build without MPI.
#include <mpi.h>
#include <pthread.h>

#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <numeric>
#include <thread>

#include "warpspan/core/interrupt.hpp"
#include "warpspan/core/ranks.hpp"

namespace warpspan {

namespace {

class mpi_world final : public rank_group {
 public:
  mpi_world() {
    MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
    MPI_Comm_size(MPI_COMM_WORLD, &size_);
    MPI_Comm node;
    if (MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node) == MPI_SUCCESS) {
      MPI_Comm_size(node, &local_);
      MPI_Comm_free(&node);
    }
  }
  int rank() const override { return rank_; }
  int size() const override { return size_; }
  int local_size() const override { return local_; }

  std::vector<std::string> allgather(const std::string& mine) override {
    ++calls_;
    const int n = static_cast<int>(mine.size());
    std::vector<int> counts(size_), offsets(size_);
    MPI_Allgather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
    std::string all(static_cast<std::size_t>(offsets.back() + counts.back()), '\0');
    MPI_Allgatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, MPI_COMM_WORLD);
    sent_ += (sizeof(int) + mine.size()) * static_cast<std::uint64_t>(size_ - 1);
    return split(all, counts, offsets);
  }

  std::vector<std::string> gather(const std::string& mine) override {
    ++calls_;
    const int n = static_cast<int>(mine.size());
    std::vector<int> counts(size_), offsets(size_);
    MPI_Gather(&n, 1, MPI_INT, counts.data(), 1, MPI_INT, 0, MPI_COMM_WORLD);
    std::string all;
    if (rank_ == 0) {
      std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0);
      all.resize(static_cast<std::size_t>(offsets.back() + counts.back()));
    }
    MPI_Gatherv(mine.data(), n, MPI_BYTE, all.data(), counts.data(), offsets.data(), MPI_BYTE, 0, MPI_COMM_WORLD);
    if (rank_ != 0) sent_ += sizeof(int) + mine.size();
    return rank_ == 0 ? split(all, counts, offsets) : std::vector<std::string>{};
  }

  std::string broadcast(const std::string& data, int root) override {
    ++calls_;
    unsigned long long n = data.size();
    MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, root, MPI_COMM_WORLD);
    std::string out = rank_ == root ? data : std::string(n, '\0');
    MPI_Bcast(out.data(), static_cast<int>(n), MPI_BYTE, root, MPI_COMM_WORLD);
    if (rank_ == root) sent_ += (sizeof(n) + n) * static_cast<std::uint64_t>(size_ - 1);
    return out;
  }

  std::vector<std::string> alltoall(const std::vector<std::string>& out) override {
    ++calls_;
    std::vector<int> send_counts(size_), send_offsets(size_), recv_counts(size_), recv_offsets(size_);
    std::string send;
    for (int r = 0; r < size_; ++r) {
      send_counts[r] = static_cast<int>(out[r].size());
      send_offsets[r] = static_cast<int>(send.size());
      send += out[r];
      if (r != rank_) sent_ += out[r].size() + sizeof(int);
    }
    MPI_Alltoall(send_counts.data(), 1, MPI_INT, recv_counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    std::exclusive_scan(recv_counts.begin(), recv_counts.end(), recv_offsets.begin(), 0);
    std::string recv(static_cast<std::size_t>(recv_offsets.back() + recv_counts.back()), '\0');
    MPI_Alltoallv(send.data(), send_counts.data(), send_offsets.data(), MPI_BYTE, recv.data(), recv_counts.data(),
                  recv_offsets.data(), MPI_BYTE, MPI_COMM_WORLD);
    return split(recv, recv_counts, recv_offsets);
  }

  std::uint64_t bytes_sent() const override { return sent_; }
  std::uint64_t calls() const { return calls_; }

 private:
  static std::vector<std::string> split(const std::string& all, const std::vector<int>& counts,
                                        const std::vector<int>& offsets) {
    std::vector<std::string> parts(counts.size());
    for (std::size_t r = 0; r < counts.size(); ++r)
      parts[r].assign(all, static_cast<std::size_t>(offsets[r]), static_cast<std::size_t>(counts[r]));
    return parts;
  }
  int rank_ = 0, size_ = 1, local_ = 1;
  std::uint64_t sent_ = 0, calls_ = 0;
};

bool started = false;

// Interrupts between the ranks: a signal reaches one rank alone (SIGTERM to one process, a
// scheduler's), and a rank may run long without a collective (dbf --batch analyses its sets
// alone), so the interrupted rank tells every other by a one-byte message on a communicator of its
// own, and the others look for one whenever they ask interrupted() (set_interrupt_exchange).
MPI_Comm g_stop_comm = MPI_COMM_NULL;
constexpr int stop_tag = 41;

bool exchange_interrupts(bool interrupted_here) {
  int size = 1, rank = 0;
  MPI_Comm_size(g_stop_comm, &size);
  MPI_Comm_rank(g_stop_comm, &rank);
  if (interrupted_here) {
    static char byte = 1;
    for (int r = 0; r < size; ++r) {
      if (r == rank) continue;
      MPI_Request request;
      MPI_Isend(&byte, 1, MPI_CHAR, r, stop_tag, g_stop_comm, &request);
      MPI_Request_free(&request);  // completes on its own
    }
    return false;
  }
  int flag = 0;
  MPI_Status status;
  MPI_Iprobe(MPI_ANY_SOURCE, stop_tag, g_stop_comm, &flag, &status);
  if (!flag) return false;
  char got = 0;
  MPI_Recv(&got, 1, MPI_CHAR, status.MPI_SOURCE, stop_tag, g_stop_comm, MPI_STATUS_IGNORE);
  return true;
}

mpi_world& the_world() {
  static mpi_world w;
  return w;
}

}  // namespace

bool mpi_compiled() { return true; }

void start_ranks(int& argc, char**& argv) {
  // Without a launcher (mpirun, mpiexec, srun) this is one process, as in a build without MPI:
  // no MPI_Init, so nothing of MPI's start-up or its warnings.
  const bool launched = std::getenv("OMPI_COMM_WORLD_SIZE") || std::getenv("PMIX_RANK") || std::getenv("PMI_RANK") ||
                        std::getenv("PMI_SIZE");
  if (!launched) return;
  // A signal to one rank during the start-up (a job cancelled at once, or a scheduler's SIGTERM on
  // a loaded machine) waits until MPI is up and is then taken as one later is (interrupted()):
  // with the default action the rank died inside MPI_Init and the others could wait there for it,
  // and a handler there would break MPI's own system calls. The threads MPI starts inherit the
  // blocked mask, so the signal comes to this thread once it is unblocked.
  sigset_t stop_signals, before;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGINT);
  sigaddset(&stop_signals, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop_signals, &before);
  install_interrupt_handlers();
  int ok = 0;
  MPI_Initialized(&ok);
  if (!ok) MPI_Init(&argc, &argv);
  started = true;
  if (the_world().size() > 1 && MPI_Comm_dup(MPI_COMM_WORLD, &g_stop_comm) == MPI_SUCCESS)
    set_interrupt_exchange(&exchange_interrupts);
  pthread_sigmask(SIG_SETMASK, &before, nullptr);
}

void finish_ranks(int) {
  int done = 0;
  MPI_Finalized(&done);
  if (!started || done) return;
  // WARPSPAN_MPI_STATS=1: every rank's communication volume on stderr (bench/mpi_scaling.py).
  if (const char* stats = std::getenv("WARPSPAN_MPI_STATS"); stats && *stats && *stats != '0') {
    const mpi_world& w = the_world();
    std::fprintf(stderr, "warpspan-mpi: rank %d of %d sent %llu bytes in %llu collectives\n", w.rank(), w.size(),
                 static_cast<unsigned long long>(w.bytes_sent()), static_cast<unsigned long long>(w.calls()));
  }
  if (g_stop_comm != MPI_COMM_NULL) {
    set_interrupt_exchange(nullptr);
    // Messages no rank asked for any more (every rank stopped by then) are received, not left over.
    for (int flag = 1; flag;) {
      MPI_Status status;
      MPI_Iprobe(MPI_ANY_SOURCE, stop_tag, g_stop_comm, &flag, &status);
      char got = 0;
      if (flag) MPI_Recv(&got, 1, MPI_CHAR, status.MPI_SOURCE, stop_tag, g_stop_comm, MPI_STATUS_IGNORE);
    }
    MPI_Comm_free(&g_stop_comm);
  }
  MPI_Finalize();
}

rank_group& world() {
  if (!started) {
    static single_process one;  // the library used without start_ranks (tests, the Python module)
    return one;
  }
  return the_world();
}

int fail_ranks(int code, const std::string& line) {
  rank_group& g = world();
  if (g.size() <= 1) {
    std::cerr << line << '\n';
    return code;
  }
  // An error every rank meets (bad input) is printed once, by rank 0, which ends the job; an
  // error of one rank alone (a file only it cannot read) is printed by that rank after a grace
  // period in which rank 0 would have ended the job had it failed too. 5 s: with 1.5 s, three
  // oversubscribed ranks beside a loaded test suite printed the line three times (rank 0 came to
  // the error more than 1.5 s after the others); only the rare error of one rank waits this long.
  if (g.rank() != 0) std::this_thread::sleep_for(std::chrono::seconds(5));
  std::cerr << line << std::endl;
  MPI_Abort(MPI_COMM_WORLD, code);
  return code;
}

}  // namespace warpspan
