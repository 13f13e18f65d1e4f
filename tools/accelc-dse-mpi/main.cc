// tools/accelc-dse-mpi/main.cc — the MPI engine's program (docs/dse.md), which
// `accelc dse --engine mpi` starts under mpirun (srun works too). Rank 0 hands
// the listed points out one at a time to the other ranks as they ask; each
// of those evaluates its point in a child process (`accelc dse-point`), so
// that a point that crashes ends only itself, and its record lands in the
// sweep's folder as the local engine's would.
//
//   accelc-dse-mpi ACCELC MODEL SWEEP DIR POINTS_FILE [POINT OPTIONS...]
//
// POINTS_FILE holds the point numbers, one a line; the point options
// (--calibrate FILE, --tune N: compiler/dse/point.h pointOptions) go to every
// accelc dse-point.
#include <mpi.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include "compiler/dse/sweep_run.h"
#include "support/check.h"

#if defined(__SANITIZE_ADDRESS__)
// Open MPI's plugins keep allocations until the process ends and are unloaded
// before LeakSanitizer looks, so no suppression can name their frames. The
// points run in processes of their own, which keep the leak check; this one
// only hands out numbers.
extern "C" int __lsan_is_turned_off() { return 1; }
#endif

namespace {

constexpr int kAsk = 1, kAssign = 2;  // message tags: a worker asks for a point; rank 0 answers (-1: stop)

int coordinate(const std::vector<int64_t>& points, int ranks) {
  size_t next = 0;
  for (int stopped = 0; stopped < ranks - 1;) {
    int64_t finished = 0;
    MPI_Status st;
    MPI_Recv(&finished, 1, MPI_INT64_T, MPI_ANY_SOURCE, kAsk, MPI_COMM_WORLD, &st);
    const int64_t point = next < points.size() ? points[next++] : -1;
    stopped += point < 0;
    MPI_Send(&point, 1, MPI_INT64_T, st.MPI_SOURCE, kAssign, MPI_COMM_WORLD);
  }
  return 0;
}

int work(const std::vector<std::string>& args, int rank) {
  using namespace accelc::compiler::dse;
  const std::string &accelc = args[0], &model = args[1], &sweepPath = args[2], &dir = args[3];
  // A worker that cannot read the sweep still takes its points, so that rank 0
  // hands every point out and the run ends; the engine records them as lost.
  accelc::support::Expected<Sweep> s = loadSweep(sweepPath);
  if (!s) std::cerr << s.diag().str() << "\n";
  std::vector<std::string> command = {accelc, "dse-point", model, "--sweep", sweepPath, "-o", dir};
  command.insert(command.end(), args.begin() + 5, args.end());  // the point options (pointOptions)
  int64_t point = -1;
  for (;;) {
    MPI_Send(&point, 1, MPI_INT64_T, 0, kAsk, MPI_COMM_WORLD);
    MPI_Recv(&point, 1, MPI_INT64_T, 0, kAssign, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    if (point < 0) return s ? 0 : 1;
    if (!s) continue;
    const accelc::support::Status st =
        runLocal({point}, command, 1, *s, dir, [rank](const std::string& line) {
          std::cout << "rank " << rank << ": " << line.substr(line.find("] ") + 2) << "\n" << std::flush;
        });
    if (!st) std::cerr << st.diag().str() << "\n";
  }
}

}  // namespace

int main(int argc, char** argv) {
  // A failed internal check (a bug) says what failed before the abort.
  accelc::support::setCheckHandler([](const char* m) { std::fprintf(stderr, "%s\n", m); });
  MPI_Init(&argc, &argv);
  int rank = 0, ranks = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &ranks);
  const std::vector<std::string> args(argv + 1, argv + argc);
  int rc = 0;
  if (args.size() < 5 || ranks < 2) {
    if (rank == 0) std::cerr << "usage: mpirun -np N (N >= 2) accelc-dse-mpi ACCELC MODEL SWEEP DIR POINTS_FILE [POINT OPTIONS...]\n";
    rc = 2;
  } else if (rank == 0) {
    std::vector<int64_t> points;
    std::ifstream in(args[4]);
    for (int64_t p; in >> p;) points.push_back(p);
    rc = coordinate(points, ranks);
  } else {
    rc = work(args, rank);
  }
  MPI_Finalize();
  return rc;
}
