// compiler/dse/sweep_run.cc — the local engine and the sweep's result files.
#include "compiler/dse/sweep_run.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <optional>
#include <thread>

#include "compiler/dse/front.h"
#include "support/yaml.h"

extern char** environ;

namespace accelc::compiler::dse {

using support::error;
using support::Expected;
using support::Location;
using support::Status;

std::string recordPath(const std::string& dir, int64_t i) { return dir + "/points/" + std::to_string(i) + ".json"; }
std::string logPath(const std::string& dir, int64_t i) { return dir + "/logs/" + std::to_string(i) + ".log"; }

Status writeRecord(const std::string& dir, const PointRecord& r) {
  if (!support::makeDirs(dir + "/points")) return error(Location::file(dir), "cannot create the folder points/");
  const std::string path = recordPath(dir, r.point), work = path + ".part." + std::to_string(::getpid());
  ACCELC_TRY(support::writeTextFile(work, recordJson(r).dump() + "\n"));
  if (::rename(work.c_str(), path.c_str()) != 0) return error(Location::file(path), "cannot write the record");
  return Status::ok();
}

namespace {

/// Point `i`'s record under `dir` when it has one that parses.
std::optional<PointRecord> readRecord(const std::string& dir, int64_t i) {
  Expected<std::string> text = support::readTextFile(recordPath(dir, i));
  if (!text) return std::nullopt;
  Expected<PointRecord> r = parseRecord(*text, recordPath(dir, i));
  if (!r || r->point != i) return std::nullopt;
  return *r;
}

/// Starts `command` + {"--point", i}, its output into point i's log.
Expected<pid_t> startPoint(const std::vector<std::string>& command, const std::string& dir, int64_t i) {
  std::vector<std::string> args = command;
  args.push_back("--point"), args.push_back(std::to_string(i));
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string log = logPath(dir, i);
  posix_spawn_file_actions_t io;
  ::posix_spawn_file_actions_init(&io);
  ::posix_spawn_file_actions_addopen(&io, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ::posix_spawn_file_actions_adddup2(&io, 1, 2);
  pid_t pid = 0;
  const int rc = ::posix_spawn(&pid, argv[0], &io, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&io);
  if (rc != 0) return error(Location::file(args[0]), std::string("cannot start a point's process: ") + std::strerror(rc));
  return pid;
}

/// How a point's process ended, when it left no record.
std::string howItEnded(int status, const std::string& log) {
  const std::string where = " (its output: " + log + ")";
  if (WIFSIGNALED(status)) return "the point's process was killed by signal " + std::to_string(WTERMSIG(status)) + where;
  return "the point's process ended with exit code " + std::to_string(WEXITSTATUS(status)) + " and no record" + where;
}

/// One line on a finished point.
std::string progressLine(const PointRecord& r, const Sweep& s, size_t done, size_t total) {
  std::string line = "[" + std::to_string(done) + "/" + std::to_string(total) + "] point " + std::to_string(r.point) + " (" +
                     describePoint(s, r.point) + "): ";
  if (!r.ok) return line + "failed: " + r.error.substr(0, r.error.find('\n'));
  return line + std::to_string(r.cycles) + " cycles, " + std::to_string(r.luts) + " LUTs, " + std::to_string(r.dsps) +
         " DSPs, " + std::to_string(r.bram18) + " BRAM18";
}

}  // namespace

Expected<std::vector<int64_t>> pendingPoints(const Sweep& s, const std::string& dir, const ModelInput& m) {
  std::vector<int64_t> pending;
  for (int64_t i = 0; i < s.points(); ++i) {
    ACCELC_ASSIGN_OR_RETURN(std::string key, pointKey(s, i, m));
    const std::optional<PointRecord> r = readRecord(dir, i);
    if (!r || r->key != key) pending.push_back(i);
  }
  return pending;
}

Status runLocal(const std::vector<int64_t>& points, const std::vector<std::string>& command, int jobs, const Sweep& s,
                const std::string& dir, const ModelInput& m, const std::function<void(const std::string&)>& progress) {
  if (command.empty()) return error(Location(), "no command evaluates a point");
  if (!support::makeDirs(dir + "/logs")) return error(Location::file(dir), "cannot create the folder logs/");
  std::vector<std::pair<pid_t, int64_t>> running;
  size_t next = 0, done = 0;
  while (next < points.size() || !running.empty()) {
    while (next < points.size() && static_cast<int>(running.size()) < std::max(1, jobs)) {
      ACCELC_ASSIGN_OR_RETURN(pid_t pid, startPoint(command, dir, points[next]));
      running.emplace_back(pid, points[next++]);
    }
    // Only our own children are waited for, each by its pid.
    bool reaped = false;
    for (size_t k = 0; k < running.size(); ++k) {
      int status = 0;
      if (::waitpid(running[k].first, &status, WNOHANG) != running[k].first) continue;
      const int64_t i = running[k].second;
      running.erase(running.begin() + static_cast<long>(k)), --k, reaped = true;
      std::optional<PointRecord> r = readRecord(dir, i);
      if (!r) {
        PointRecord failed;
        failed.point = i;
        ACCELC_ASSIGN_OR_RETURN(failed.key, pointKey(s, i, m));
        const std::vector<std::string> v = pointValues(s, i);
        for (size_t a = 0; a < v.size(); ++a) failed.values.emplace_back(s.axes[a].key, v[a]);
        failed.error = howItEnded(status, logPath(dir, i));
        ACCELC_TRY(writeRecord(dir, failed));
        r = failed;
      }
      if (progress) progress(progressLine(*r, s, ++done, points.size()));
    }
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return Status::ok();
}

namespace {

/// Records, for each of `points` still without a record, that `engine` left it without one.
Status recordMissing(const std::vector<int64_t>& points, const std::string& engine, const Sweep& s, const std::string& dir,
                     const ModelInput& m) {
  for (int64_t i : points) {
    if (readRecord(dir, i)) continue;
    PointRecord failed;
    failed.point = i;
    ACCELC_ASSIGN_OR_RETURN(failed.key, pointKey(s, i, m));
    const std::vector<std::string> v = pointValues(s, i);
    for (size_t a = 0; a < v.size(); ++a) failed.values.emplace_back(s.axes[a].key, v[a]);
    failed.error = engine + " left the point without a record (its log: " + logPath(dir, i) + ")";
    ACCELC_TRY(writeRecord(dir, failed));
  }
  return Status::ok();
}

}  // namespace

Status runMpi(const std::vector<int64_t>& points, const std::string& worker, const std::string& accelc, int ranks,
              const Sweep& s, const std::string& dir, const ModelInput& m) {
  if (points.empty()) return Status::ok();
  if (!support::makeDirs(dir + "/logs")) return error(Location::file(dir), "cannot create the folder logs/");
  std::string list;
  for (int64_t i : points) list += std::to_string(i) + "\n";
  const std::string listPath = dir + "/mpi-points.txt";
  ACCELC_TRY(support::writeTextFile(listPath, list));
  std::vector<std::string> args = {"mpirun", "-np", std::to_string(std::max(1, ranks) + 1), "--oversubscribe"};
  if (::geteuid() == 0) args.push_back("--allow-run-as-root");  // CI runs as root
  args.insert(args.end(), {worker, accelc, m.model, s.path, dir, listPath});
  if (!m.calibrate.empty()) args.push_back(m.calibrate);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (const int rc = ::posix_spawnp(&pid, "mpirun", nullptr, nullptr, argv.data(), environ); rc != 0)
    return error(Location(), std::string("cannot start mpirun (Open MPI, the package openmpi-bin): ") + std::strerror(rc));
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return error(Location(), "mpirun ended with " + (WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                                                        : "signal " + std::to_string(WTERMSIG(status))));
  return recordMissing(points, "the MPI engine", s, dir, m);
}

Expected<SweepResults> writeResults(const Sweep& s, const std::string& dir) {
  SweepResults out;
  for (int64_t i = 0; i < s.points(); ++i) {
    std::optional<PointRecord> r = readRecord(dir, i);
    if (!r) return error(Location::file(recordPath(dir, i)), "point " + std::to_string(i) + " has no record: run the sweep again");
    out.records.push_back(std::move(*r));
  }
  out.front = paretoFront(out.records);
  std::string lines;
  for (const PointRecord& r : out.records) lines += recordJson(r).dump() + "\n";
  std::vector<size_t> all(out.records.size()), byCycles = out.front;
  for (size_t k = 0; k < all.size(); ++k) all[k] = k;
  std::stable_sort(byCycles.begin(), byCycles.end(),
                   [&](size_t a, size_t b) { return out.records[a].cycles < out.records[b].cycles; });
  const std::string title = s.path + ": " + std::to_string(out.records.size()) + " points, " +
                            std::to_string(out.front.size()) + " on the Pareto front";
  ACCELC_TRY(support::writeTextFile(dir + "/results.jsonl", lines));
  ACCELC_TRY(support::writeTextFile(dir + "/points.csv", recordsCsv(out.records, all)));
  ACCELC_TRY(support::writeTextFile(dir + "/front.csv", recordsCsv(out.records, byCycles)));
  ACCELC_TRY(support::writeTextFile(dir + "/front.json", frontJson(out.records, out.front).dump(2) + "\n"));
  ACCELC_TRY(support::writeTextFile(dir + "/front.svg", frontSvg(out.records, out.front, title)));
  return out;
}

}  // namespace accelc::compiler::dse
