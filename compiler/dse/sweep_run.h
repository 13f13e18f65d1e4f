// compiler/dse/sweep_run.h — running a sweep's points and gathering what
// they gave, in an output folder:
//   points/N.json   point N's record (written by the process that evaluated it)
//   logs/N.log      what that process printed
//   results.jsonl   every record, one a line, by point number
//   points.csv      the same as a table; front.csv and front.json: the Pareto front
//   front.svg       the front plotted (front.h)
// A record whose key is the point's current key is never recomputed, so a
// sweep stopped halfway and started again runs only the missing points, and
// every engine that evaluates points the same way leaves the same files.
// Engines: runLocal (a process pool here), runMpi (Open MPI's mpirun) and
// runSlurm (Slurm job arrays).
#ifndef ACCELC_COMPILER_DSE_SWEEP_RUN_H_
#define ACCELC_COMPILER_DSE_SWEEP_RUN_H_

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "compiler/dse/point.h"
#include "compiler/dse/sweep.h"
#include "support/status.h"

namespace accelc::compiler::dse {

/// Where point `i`'s record and log go under `dir`.
std::string recordPath(const std::string& dir, int64_t i);
std::string logPath(const std::string& dir, int64_t i);

/// Writes `r` as point `r.point`'s record under `dir`, whole or not at all.
support::Status writeRecord(const std::string& dir, const PointRecord& r);

/// The points of `s` without a record under `dir` that has their current key.
support::Expected<std::vector<int64_t>> pendingPoints(const Sweep& s, const std::string& dir, const ModelInput& m);

/// The local engine: runs `command` + {"--point", N} for each of `points`,
/// `jobs` processes at a time, each with its output in its log. A process
/// that ends without writing its record (a crash, a signal) leaves a lost
/// point's record (lostPoint) that says how it ended; an early return stops
/// the processes still running. `progress` hears one line per finished point.
support::Status runLocal(const std::vector<int64_t>& points, const std::vector<std::string>& command, int jobs,
                         const Sweep& s, const std::string& dir, const std::function<void(const std::string&)>& progress);

/// The MPI engine: `mpirun` starts `worker` (accelc-dse-mpi) on `ranks` + 1
/// ranks, rank 0 handing `points` to the others, which evaluate each as
/// runLocal does (`accelc` is the accelc binary they run per point). A point
/// left without a record (a rank that died, ending mpirun with an error) gets
/// a lost point's record that says so.
support::Status runMpi(const std::vector<int64_t>& points, const std::string& worker, const std::string& accelc, int ranks,
                       const Sweep& s, const std::string& dir, const ModelInput& m);

/// The Slurm engine: job arrays through `sbatch` on the cluster the
/// environment names (SLURM_CONF). `points` are cut into `tasks` chunks (at
/// most one a point), one array task each, which evaluates its points one
/// after the other, each in a process of its own, from this process's working
/// folder; arrays are cut under the cluster's MaxArraySize. Progress comes
/// from the records as they appear, and the arrays are done when `squeue`
/// lists none of their tasks; an early return cancels them. A point left
/// without a record gets a lost point's record.
support::Status runSlurm(const std::vector<int64_t>& points, const std::string& accelc, int tasks, const Sweep& s,
                         const std::string& dir, const ModelInput& m,
                         const std::function<void(const std::string&)>& progress);

/// What the sweep gave, once every point has a record.
struct SweepResults {
  std::vector<PointRecord> records;  ///< by point
  std::vector<size_t> front;         ///< indices into records: the Pareto front
};

/// Reads every point's record and writes results.jsonl, points.csv,
/// front.csv, front.json and front.svg; an error names a point without one.
support::Expected<SweepResults> writeResults(const Sweep& s, const std::string& dir);

}  // namespace accelc::compiler::dse

#endif  // ACCELC_COMPILER_DSE_SWEEP_RUN_H_
