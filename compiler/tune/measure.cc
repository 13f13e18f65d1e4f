// compiler/tune/measure.cc — the forked pool of cycle-model workers.
//
// Workers and the parent talk over one pipe per worker, in lines: "I start"
// before program I, then "I CYCLES" or "I -1 ERROR". The "start" line lets the
// parent put a worker's death down to the program it was measuring.
#include "compiler/tune/measure.h"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <new>
#include <sstream>

#include "simulator/cycle/cycle_sim.h"

namespace accelc::compiler::tune {

namespace {

using Clock = std::chrono::steady_clock;

/// The next program to measure, shared by the workers: they all live in one
/// anonymous shared mapping, made before the first fork.
struct SharedCounter {
  std::atomic<int64_t> next{0};
};
static_assert(std::atomic<int64_t>::is_always_lock_free, "the workers share the counter through memory alone");

/// Writes all of `s` to `fd` (a pipe: short and interrupted writes are retried).
void writeAll(int fd, const std::string& s) {
  for (size_t at = 0; at < s.size();) {
    const ssize_t n = ::write(fd, s.data() + at, s.size() - at);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

std::string resultLine(int64_t i, const support::Expected<simulator::CycleStats>& r) {
  if (r) return std::to_string(i) + " " + std::to_string(r->cycles) + "\n";
  std::string why = r.diag().str();
  std::replace(why.begin(), why.end(), '\n', ' ');
  return std::to_string(i) + " -1 " + why + "\n";
}

/// What every worker shares.
struct Work {
  const std::vector<MeasureJob>* jobs;
  int64_t always;
  const isa::Target* t;
  SharedCounter* shared;
  Clock::time_point deadline;
};

/// A worker's life: its own cycle model, then programs from the counter until none is left or time is up. It
/// never returns: an exception (SystemC reports errors by throwing) ends the process, not just the function.
[[noreturn]] void worker(const Work& w, int out) noexcept {
  try {
    auto sim = simulator::CycleSim::create(*w.t);
    for (;;) {
      const int64_t i = w.shared->next.fetch_add(1);
      if (i >= static_cast<int64_t>(w.jobs->size()) || (i >= w.always && Clock::now() >= w.deadline)) break;
      const MeasureJob& job = (*w.jobs)[static_cast<size_t>(i)];
      writeAll(out, std::to_string(i) + " start\n");
      if (!sim) {
        writeAll(out, resultLine(i, sim.diag()));
        continue;
      }
      isa::RunLimits limits;
      if (job.maxCycles) limits.maxCycles = job.maxCycles;
      (*sim)->limits(limits);
      const support::Status loaded = (*sim)->loadProgram(job.program);
      writeAll(out, resultLine(i, loaded ? (*sim)->run(job.program, "candidate " + std::to_string(i))
                                         : support::Expected<simulator::CycleStats>(loaded.diag())));
    }
  } catch (...) {
    ::_exit(2);
  }
  ::_exit(0);  // no exit handlers: they are the parent's
}

/// A worker process, the program it measures now, and what it has sent that is not yet a whole line.
struct Worker {
  pid_t pid = -1;
  int fd = -1;
  int64_t current = -1;
  std::string partial;
};

/// Parses a whole decimal integer; false when `s` is anything else.
bool integer(const std::string& s, int64_t& v) {
  const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  return ec == std::errc() && end == s.data() + s.size() && !s.empty();
}

/// Takes one line of `w`'s: a program started, or its result into `results`; true for a result. A line that
/// does not parse is a failed measurement of the program `w` measures, never a count.
bool takeLine(Worker& w, const std::string& line, std::vector<Measurement>& results) {
  std::istringstream in(line);
  std::string first, second;
  in >> first >> second;
  int64_t i = -1, cycles = -1;
  const bool ok = integer(first, i) && i >= 0 && i < static_cast<int64_t>(results.size());
  if (ok && second == "start") {
    w.current = i;
    return false;
  }
  const int64_t at = ok ? i : w.current;
  if (at < 0) return false;
  Measurement& m = results[static_cast<size_t>(at)];
  if (ok && integer(second, cycles) && cycles >= -1) {
    m.cycles = cycles;
    if (cycles < 0) std::getline(in >> std::ws, m.error);
    if (cycles < 0 && m.error.empty()) m.error = "the cycle model gave no count";
  } else {
    m.cycles = -1, m.error = "the measuring process sent a line that does not parse";
  }
  w.current = -1;
  return true;
}

/// Forks a worker; false when no process or pipe could be made.
bool spawn(const Work& work, std::vector<Worker>& workers) {
  int fds[2];
  if (::pipe(fds) != 0) return false;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::close(fds[0]);
    for (const Worker& other : workers)
      if (other.fd >= 0) ::close(other.fd);
    worker(work, fds[1]);
  }
  ::close(fds[1]);
  if (pid < 0) {
    ::close(fds[0]);
    return false;
  }
  workers.push_back({pid, fds[0], -1, ""});
  return true;
}

/// Waits for `w`'s process and puts an abnormal end down to the program it was measuring.
void reap(Worker& w, std::vector<Measurement>& results) {
  int status = 0;
  while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
  }
  w.pid = -1;
  const bool died = WIFSIGNALED(status) || (WIFEXITED(status) && WEXITSTATUS(status) != 0);
  if (!died || w.current < 0) return;
  results[static_cast<size_t>(w.current)].error =
      WIFSIGNALED(status) ? "the measuring process ended with signal " + std::to_string(WTERMSIG(status))
                          : "the measuring process exited with status " + std::to_string(WEXITSTATUS(status));
}

/// Reads what `w` sent; at its end closes and reaps it. Returns the results it completed.
size_t pump(Worker& w, std::vector<Measurement>& results) {
  char buf[4096];
  const ssize_t got = ::read(w.fd, buf, sizeof buf);
  if (got < 0 && errno == EINTR) return 0;
  if (got <= 0) {
    ::close(w.fd), w.fd = -1;
    reap(w, results);
    return 0;
  }
  size_t done = 0;
  w.partial.append(buf, static_cast<size_t>(got));
  for (size_t nl; (nl = w.partial.find('\n')) != std::string::npos; w.partial.erase(0, nl + 1))
    done += takeLine(w, w.partial.substr(0, nl), results);
  return done;
}

/// Whether programs are left that a new worker may start.
bool workLeft(const Work& w) {
  const int64_t next = w.shared->next.load();
  return next < static_cast<int64_t>(w.jobs->size()) && (next < w.always || Clock::now() < w.deadline);
}

}  // namespace

support::Expected<std::vector<Measurement>> measurePrograms(const std::vector<MeasureJob>& jobs, size_t always,
                                                            const isa::Target& t, int processes,
                                                            std::chrono::steady_clock::time_point deadline,
                                                            const std::function<void(size_t)>& progress) {
  std::vector<Measurement> results(jobs.size());
  if (jobs.empty()) return results;
  void* mem = ::mmap(nullptr, sizeof(SharedCounter), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED)
    return support::error(support::Location{}, std::string("cannot share memory with the workers: ") + std::strerror(errno));
  const Work work{&jobs, static_cast<int64_t>(always), &t, new (mem) SharedCounter(), deadline};
  std::vector<Worker> workers;
  const int n = std::max(1, std::min<int>(processes, static_cast<int>(jobs.size())));
  for (int i = 0; i < n && spawn(work, workers); ++i) {
  }
  if (workers.empty()) {
    ::munmap(mem, sizeof(SharedCounter));
    return support::error(support::Location{}, "cannot start a process to measure programs on the cycle model");
  }
  // A worker that dies takes its program with it; a new one takes the rest (at most one a program, so a
  // worker that dies at its start cannot loop).
  size_t done = 0, replacements = 0;
  for (;;) {
    std::vector<pollfd> fds;
    for (const Worker& w : workers)
      if (w.fd >= 0) fds.push_back({w.fd, POLLIN, 0});
    if (fds.empty()) break;
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      for (Worker& w : workers)  // nothing more can be read: stop the workers rather than wait on a full pipe
        if (w.fd >= 0) ::kill(w.pid, SIGKILL), ::close(w.fd), w.fd = -1, reap(w, results);
      break;
    }
    const size_t before = workers.size();
    for (size_t i = 0; i < before; ++i) {
      Worker& w = workers[i];
      const auto it = std::find_if(fds.begin(), fds.end(), [&](const pollfd& p) { return p.fd == w.fd; });
      if (w.fd < 0 || it == fds.end() || !it->revents) continue;
      const size_t got = pump(w, results);
      done += got;
      if (got && progress) progress(done);
      if (w.fd < 0 && workLeft(work) && replacements < jobs.size() && spawn(work, workers)) ++replacements;
    }
  }
  ::munmap(mem, sizeof(SharedCounter));
  return results;
}

}  // namespace accelc::compiler::tune
