// compiler/dse/sweep_run.cc — the local engine and the sweep's result files.
#include "compiler/dse/sweep_run.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
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

/// `args` as posix_spawn takes them (pointing into `args`).
std::vector<char*> argvOf(std::vector<std::string>& args) {
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  return argv;
}

/// Waits for child `pid` to end (through interrupted waits); its status.
int waitFor(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

/// Starts `command` + {"--point", i}, its output into point i's log.
Expected<pid_t> startPoint(const std::vector<std::string>& command, const std::string& dir, int64_t i) {
  std::vector<std::string> args = command;
  args.push_back("--point"), args.push_back(std::to_string(i));
  std::vector<char*> argv = argvOf(args);
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

/// Removes the records of `points` (stale ones: their key changed), so that
/// what an engine finds after it ran is what it ran.
void forget(const std::vector<int64_t>& points, const std::string& dir) {
  for (int64_t i : points) ::unlink(recordPath(dir, i).c_str());
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

/// Records, for each of `points` still without a record, that `why` left it without one.
Status recordMissing(const std::vector<int64_t>& points, const std::string& why, const Sweep& s, const std::string& dir) {
  for (int64_t i : points)
    if (!readRecord(dir, i))
      ACCELC_TRY(writeRecord(dir, lostPoint(s, i, why + " left the point without a record (its log: " + logPath(dir, i) + ")")));
  return Status::ok();
}

/// The children of runLocal: on any early return they are stopped and reaped, never left behind.
class Children {
 public:
  ~Children() {
    for (const auto& c : running) ::kill(c.first, SIGTERM);
    for (const auto& c : running) waitFor(c.first);
  }
  std::vector<std::pair<pid_t, int64_t>> running;  ///< pid, point
};

}  // namespace

Expected<std::vector<int64_t>> pendingPoints(const Sweep& s, const std::string& dir, const ModelInput& m) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t inputs, inputsHash(m));
  std::vector<int64_t> pending;
  for (int64_t i = 0; i < s.points(); ++i) {
    const std::optional<PointRecord> r = readRecord(dir, i);
    if (!r || r->key != pointKey(s, i, inputs)) pending.push_back(i);
  }
  return pending;
}

Status runLocal(const std::vector<int64_t>& points, const std::vector<std::string>& command, int jobs, const Sweep& s,
                const std::string& dir, const std::function<void(const std::string&)>& progress) {
  if (command.empty()) return error(Location(), "no command evaluates a point");
  if (!support::makeDirs(dir + "/logs")) return error(Location::file(dir), "cannot create the folder logs/");
  forget(points, dir);
  Children children;
  auto& running = children.running;
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
      const pid_t w = ::waitpid(running[k].first, &status, WNOHANG);
      if (w == 0 || (w < 0 && errno == EINTR)) continue;
      const int64_t i = running[k].second;
      running.erase(running.begin() + static_cast<long>(k)), --k, reaped = true;
      std::optional<PointRecord> r = readRecord(dir, i);
      if (!r) {
        r = lostPoint(s, i, w < 0 ? "the point's process could not be waited for: " + std::string(std::strerror(errno))
                                  : howItEnded(status, logPath(dir, i)));
        ACCELC_TRY(writeRecord(dir, *r));
      }
      if (progress) progress(progressLine(*r, s, ++done, points.size()));
    }
    if (!reaped) std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return Status::ok();
}

Status runMpi(const std::vector<int64_t>& points, const std::string& worker, const std::string& accelc, int ranks,
              const Sweep& s, const std::string& dir, const ModelInput& m) {
  if (points.empty()) return Status::ok();
  if (!support::makeDirs(dir + "/logs")) return error(Location::file(dir), "cannot create the folder logs/");
  forget(points, dir);
  std::string list;
  for (int64_t i : points) list += std::to_string(i) + "\n";
  const std::string listPath = dir + "/mpi-points.txt";
  ACCELC_TRY(support::writeTextFile(listPath, list));
  std::vector<std::string> args = {"mpirun", "-np", std::to_string(std::max(1, ranks) + 1), "--oversubscribe"};
  if (::geteuid() == 0) args.push_back("--allow-run-as-root");  // CI runs as root
  args.insert(args.end(), {worker, accelc, m.model, s.path, dir, listPath});
  for (const std::string& o : pointOptions(m)) args.push_back(o);
  std::vector<char*> argv = argvOf(args);
  pid_t pid = 0;
  if (const int rc = ::posix_spawnp(&pid, "mpirun", nullptr, nullptr, argv.data(), environ); rc != 0)
    return error(Location(), std::string("cannot start mpirun (Open MPI, the package openmpi-bin): ") + std::strerror(rc));
  const int status = waitFor(pid);
  // A rank that died ends mpirun with an error; the points it held are recorded as lost, and run again next time.
  const bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  const std::string how = WIFEXITED(status) ? "exit code " + std::to_string(WEXITSTATUS(status))
                                            : "signal " + std::to_string(WTERMSIG(status));
  return recordMissing(points, clean ? "the MPI engine" : "the MPI engine (mpirun ended with " + how + ")", s, dir);
}

namespace {

/// What a command gave: its exit code, its standard output and its standard error.
struct Captured {
  int code = 0;
  std::string out, err;
};

/// Runs `args` (found on PATH) to its end; `errFile` holds its standard error meanwhile.
Expected<Captured> capture(std::vector<std::string> args, const std::string& errFile) {
  int fds[2];
  if (::pipe(fds) != 0) return error(Location(), std::string("cannot make a pipe: ") + std::strerror(errno));
  std::vector<char*> argv = argvOf(args);
  posix_spawn_file_actions_t io;
  ::posix_spawn_file_actions_init(&io);
  ::posix_spawn_file_actions_adddup2(&io, fds[1], 1);
  ::posix_spawn_file_actions_addopen(&io, 2, errFile.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  ::posix_spawn_file_actions_addclose(&io, fds[0]);
  pid_t pid = 0;
  const int rc = ::posix_spawnp(&pid, argv[0], &io, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&io);
  ::close(fds[1]);
  if (rc != 0) {
    ::close(fds[0]);
    return error(Location(), "cannot run " + args[0] + ": " + std::strerror(rc));
  }
  Captured c;
  char buf[4096];
  for (ssize_t n; (n = ::read(fds[0], buf, sizeof buf)) != 0;)
    if (n > 0) c.out.append(buf, static_cast<size_t>(n));
    else if (errno != EINTR) break;
  ::close(fds[0]);
  const int status = waitFor(pid);
  c.code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  Expected<std::string> err = support::readTextFile(errFile);
  c.err = err ? *err : "";
  return c;
}

/// `s` in single quotes for sh.
std::string quoted(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

/// The cluster's MaxArraySize (scontrol show config), the most tasks an array may have.
Expected<int64_t> maxArraySize(const std::string& errFile) {
  ACCELC_ASSIGN_OR_RETURN(Captured c, capture({"scontrol", "show", "config"}, errFile));
  if (c.code != 0) return error(Location(), "scontrol show config failed: " + c.err);
  const size_t at = c.out.find("MaxArraySize");
  const size_t eq = at == std::string::npos ? at : c.out.find('=', at);
  if (eq == std::string::npos) return error(Location(), "scontrol show config names no MaxArraySize");
  return std::max<int64_t>(1, std::atoll(c.out.c_str() + eq + 1));
}

/// The script each array task runs: its line of `tasks`, each point in its own process.
std::string jobScript(const std::string& accelc, const Sweep& s, const std::string& dir, const ModelInput& m,
                      const std::string& tasks) {
  std::string point = quoted(accelc) + " dse-point " + quoted(m.model) + " --sweep " + quoted(s.path) + " -o " + quoted(dir);
  for (const std::string& o : pointOptions(m)) point += " " + quoted(o);
  return "#!/bin/sh\n"
         "# accelc dse: one Slurm array task evaluates its line of tasks.txt, each point in a process of its own.\n"
         "cd " + quoted(std::filesystem::current_path().string()) + " || exit 1\n"
         "line=$(sed -n \"$((SLURM_ARRAY_TASK_ID + ACCELC_TASK_OFFSET + 1))p\" " + quoted(tasks) + ")\n"
         "for p in $line; do\n"
         "  " + point + " --point \"$p\" > " + quoted(dir) + "/logs/\"$p\".log 2>&1\n"
         "done\n"
         "exit 0\n";
}

/// The submitted arrays: cancelled on any early return, so that none runs on unwatched.
class Arrays {
 public:
  explicit Arrays(std::string errFile) : errFile_(std::move(errFile)) {}
  ~Arrays() {
    if (!watched && !ids.empty()) (void)capture({"scancel", ids}, errFile_);
  }
  std::string ids;       ///< job ids, comma-separated
  bool watched = false;  ///< they ran to their end
 private:
  std::string errFile_;
};

}  // namespace

Status runSlurm(const std::vector<int64_t>& points, const std::string& accelc, int tasks, const Sweep& s,
                const std::string& dir, const ModelInput& m, const std::function<void(const std::string&)>& progress) {
  if (points.empty()) return Status::ok();
  if (!support::makeDirs(dir + "/logs") || !support::makeDirs(dir + "/slurm"))
    return error(Location::file(dir), "cannot create the folders logs/ and slurm/");
  const std::string errFile = dir + "/slurm/stderr.txt";
  ACCELC_ASSIGN_OR_RETURN(int64_t maxArray, maxArraySize(errFile));
  forget(points, dir);
  const int64_t n = static_cast<int64_t>(points.size());
  const int64_t count = tasks > 0 ? std::min<int64_t>(tasks, n) : n, chunk = (n + count - 1) / count;
  std::string lines;
  for (int64_t t = 0; t * chunk < n; ++t) {
    for (int64_t k = t * chunk; k < std::min(n, (t + 1) * chunk); ++k) lines += std::to_string(points[static_cast<size_t>(k)]) + " ";
    lines += "\n";
  }
  const int64_t used = (n + chunk - 1) / chunk;
  const std::string taskFile = dir + "/slurm/tasks.txt", script = dir + "/slurm/job.sh";
  ACCELC_TRY(support::writeTextFile(taskFile, lines));
  ACCELC_TRY(support::writeTextFile(script, jobScript(accelc, s, dir, m, taskFile)));
  Arrays arrays(errFile);
  for (int64_t offset = 0; offset < used; offset += maxArray) {  // arrays of at most MaxArraySize tasks
    const int64_t size = std::min(maxArray, used - offset);
    ACCELC_ASSIGN_OR_RETURN(Captured c, capture({"sbatch", "--parsable", "--job-name=accelc-dse",
                                                 "--array=0-" + std::to_string(size - 1),
                                                 "--export=ALL,ACCELC_TASK_OFFSET=" + std::to_string(offset),
                                                 "--output=" + dir + "/logs/slurm-%A_%a.out", script},
                                                errFile));
    if (c.code != 0) return error(Location::file(script), "sbatch refused the job array: " + c.err);
    arrays.ids += (arrays.ids.empty() ? "" : ",") + c.out.substr(0, c.out.find_first_of(";\n"));
  }
  std::vector<bool> reported(points.size(), false);
  size_t done = 0;
  for (bool running = true; running;) {
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
    ACCELC_ASSIGN_OR_RETURN(Captured q, capture({"squeue", "-h", "-r", "-j", arrays.ids, "-o", "%i"}, errFile));
    if (q.code != 0) return error(Location(), "squeue failed on jobs " + arrays.ids + ": " + q.err);
    running = q.out.find_first_not_of(" \n") != std::string::npos;
    for (size_t k = 0; k < points.size(); ++k) {
      if (reported[k]) continue;
      const std::optional<PointRecord> r = readRecord(dir, points[k]);
      if (!r) continue;
      reported[k] = true;
      if (progress) progress(progressLine(*r, s, ++done, points.size()));
    }
  }
  arrays.watched = true;
  return recordMissing(points, "the Slurm engine", s, dir);
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
  std::vector<size_t> all(out.records.size());
  for (size_t k = 0; k < all.size(); ++k) all[k] = k;
  const std::string title = s.path + ": " + std::to_string(out.records.size()) + " points, " +
                            std::to_string(out.front.size()) + " on the Pareto front";
  ACCELC_TRY(support::writeTextFile(dir + "/results.jsonl", lines));
  ACCELC_TRY(support::writeTextFile(dir + "/points.csv", recordsCsv(out.records, all)));
  ACCELC_TRY(support::writeTextFile(dir + "/front.csv", recordsCsv(out.records, byCycles(out.records, out.front))));
  ACCELC_TRY(support::writeTextFile(dir + "/front.json", frontJson(out.records, out.front).dump(2) + "\n"));
  ACCELC_TRY(support::writeTextFile(dir + "/front.svg", frontSvg(out.records, out.front, title)));
  return out;
}

}  // namespace accelc::compiler::dse
