// compiler/tune/measure.cc — the forked pool of cycle-model workers.
#include "compiler/tune/measure.h"

#include <poll.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <sstream>

#include "simulator/cycle/cycle_sim.h"

namespace accelc::compiler::tune {

namespace {

/// The next program to measure, shared by the workers: they all live in one
/// anonymous shared mapping, made before the fork.
struct SharedCounter {
  std::atomic<int64_t> next{0};
};
static_assert(std::atomic<int64_t>::is_always_lock_free, "the workers share the counter through memory alone");

/// Writes all of `s` to `fd` (a pipe: short writes are retried).
void writeAll(int fd, const std::string& s) {
  for (size_t at = 0; at < s.size();) {
    const ssize_t n = ::write(fd, s.data() + at, s.size() - at);
    if (n <= 0) return;
    at += static_cast<size_t>(n);
  }
}

/// One line per program: "INDEX CYCLES" or "INDEX -1 ERROR" (the error on one line).
std::string resultLine(int64_t i, const support::Expected<simulator::CycleStats>& r) {
  std::ostringstream o;
  if (r) {
    o << i << " " << r->cycles << "\n";
  } else {
    std::string why = r.diag().str();
    std::replace(why.begin(), why.end(), '\n', ' ');
    o << i << " -1 " << why << "\n";
  }
  return o.str();
}

/// A worker's life: its own cycle model, then programs from the counter until none is left or time is up.
[[noreturn]] void worker(const std::vector<isa::Program>& programs, int64_t always, const isa::Target& t,
                         SharedCounter* shared, std::chrono::steady_clock::time_point deadline, int out) {
  auto sim = simulator::CycleSim::create(t);
  for (;;) {
    const int64_t i = shared->next.fetch_add(1);
    if (i >= static_cast<int64_t>(programs.size()) || (i >= always && std::chrono::steady_clock::now() >= deadline))
      break;
    const isa::Program& p = programs[static_cast<size_t>(i)];
    writeAll(out, std::to_string(i) + " start\n");  // so that a crash is put down to this program
    if (!sim) {
      writeAll(out, resultLine(i, sim.diag()));
      continue;
    }
    const support::Status loaded = (*sim)->loadProgram(p);
    writeAll(out, resultLine(i, loaded ? (*sim)->run(p, "candidate " + std::to_string(i)) : support::Expected<simulator::CycleStats>(loaded.diag())));
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

/// Takes one line of `w`'s: a program started, or its result into `results`; true for a result.
bool takeLine(Worker& w, const std::string& line, std::vector<Measurement>& results) {
  std::istringstream in(line);
  int64_t i = -1;
  std::string what;
  if (!(in >> i >> what) || i < 0 || i >= static_cast<int64_t>(results.size())) return false;
  if (what == "start") {
    w.current = i;
    return false;
  }
  Measurement& m = results[static_cast<size_t>(i)];
  m.cycles = std::strtoll(what.c_str(), nullptr, 10);
  if (m.cycles < 0) {
    std::getline(in >> std::ws, m.error);
    if (m.error.empty()) m.error = "the cycle model gave no count";
  }
  w.current = -1;
  return true;
}

}  // namespace

support::Expected<std::vector<Measurement>> measurePrograms(const std::vector<isa::Program>& programs, size_t always,
                                                            const isa::Target& t, int jobs,
                                                            std::chrono::steady_clock::time_point deadline,
                                                            const std::function<void(size_t)>& progress) {
  std::vector<Measurement> results(programs.size());
  if (programs.empty()) return results;
  void* mem = ::mmap(nullptr, sizeof(SharedCounter), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0);
  if (mem == MAP_FAILED)
    return support::error(support::Location{}, std::string("cannot share memory with the workers: ") + std::strerror(errno));
  auto* shared = new (mem) SharedCounter();
  std::vector<Worker> workers;
  const int n = std::max(1, std::min<int>(jobs, static_cast<int>(programs.size())));
  for (int w = 0; w < n; ++w) {
    int fds[2];
    if (::pipe(fds) != 0) break;
    const pid_t pid = ::fork();
    if (pid == 0) {
      ::close(fds[0]);
      for (const Worker& other : workers) ::close(other.fd);
      worker(programs, static_cast<int64_t>(always), t, shared, deadline, fds[1]);
    }
    ::close(fds[1]);
    if (pid < 0) {
      ::close(fds[0]);
      break;
    }
    workers.push_back({pid, fds[0], -1, ""});
  }
  if (workers.empty()) {
    ::munmap(mem, sizeof(SharedCounter));
    return support::error(support::Location{}, "cannot start a process to measure programs on the cycle model");
  }
  size_t done = 0;
  for (size_t open = workers.size(); open > 0;) {
    std::vector<pollfd> fds;
    for (const Worker& w : workers)
      if (w.fd >= 0) fds.push_back({w.fd, POLLIN, 0});
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      break;
    }
    for (Worker& w : workers) {
      const auto it = std::find_if(fds.begin(), fds.end(), [&](const pollfd& p) { return p.fd == w.fd; });
      if (w.fd < 0 || it == fds.end() || !it->revents) continue;
      char buf[4096];
      const ssize_t got = ::read(w.fd, buf, sizeof buf);
      if (got <= 0) {
        ::close(w.fd), w.fd = -1, --open;
        continue;
      }
      w.partial.append(buf, static_cast<size_t>(got));
      for (size_t nl; (nl = w.partial.find('\n')) != std::string::npos; w.partial.erase(0, nl + 1))
        if (takeLine(w, w.partial.substr(0, nl), results) && progress) progress(++done);
    }
  }
  for (const Worker& w : workers) {
    int status = 0;
    while (::waitpid(w.pid, &status, 0) < 0 && errno == EINTR) {
    }
    if (w.current >= 0 && (WIFSIGNALED(status) || WEXITSTATUS(status) != 0))
      results[static_cast<size_t>(w.current)].error =
          WIFSIGNALED(status) ? "the measuring process ended with signal " + std::to_string(WTERMSIG(status))
                              : "the measuring process exited with status " + std::to_string(WEXITSTATUS(status));
  }
  ::munmap(mem, sizeof(SharedCounter));
  return results;
}

}  // namespace accelc::compiler::tune
