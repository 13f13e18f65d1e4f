// boards/virtual/virtual_bus.cc — the driver's side of a virtual board.
//
// The IP runs in a child process so that the driver code, the shared pool
// and the register traffic are what a board has: nothing of the simulator
// is linked into the program that drives it.
#include "boards/virtual/virtual_bus.h"

#include <fcntl.h>
#include <spawn.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "boards/virtual/protocol.h"
#include "isa/control_regs.h"

extern char** environ;

namespace accelc::boards {

namespace {

using vboard::Reply;
using vboard::Request;

/// Where accelc-vboard is: ACCELC_VBOARD, else where this build put it.
std::string serverPath() {
  if (const char* env = std::getenv("ACCELC_VBOARD")) return env;
#ifdef ACCELC_VBOARD_PATH
  return ACCELC_VBOARD_PATH;
#else
  return "";
#endif
}

class VirtualBus final : public Bus {
 public:
  VirtualBus(const VirtualBoardOptions& o, uint8_t* pool, int sock, pid_t child)
      : o_(o), pool_(pool), sock_(sock), child_(child) {}
  ~VirtualBus() override {
    Request q;
    q.op = vboard::kQuit;
    vboard::sendAll(sock_, &q, sizeof q);  // fails quietly when the server has already gone
    ::close(sock_);
    int st = 0;
    ::waitpid(child_, &st, 0);
    ::munmap(pool_, o_.poolBytes);
  }

  support::Expected<uint32_t> read32(uint32_t offset) override {
    ACCELC_ASSIGN_OR_RETURN(Reply r, call({vboard::kRead32, offset, 0}));
    return r.value;
  }
  support::Status write32(uint32_t offset, uint32_t value) override {
    return call({vboard::kWrite32, offset, value}).status();
  }
  uint32_t registerBytes() const override { return isa::regs::kWindowBytes; }
  uint8_t* pool() override { return pool_; }
  uint64_t poolPhysical() const override { return o_.poolPhysical; }
  uint64_t poolBytes() const override { return o_.poolBytes; }
  // The pool is memory both processes map: coherent, nothing to maintain.
  support::Status flush(uint64_t, uint64_t) override { return support::Status::ok(); }
  support::Status invalidate(uint64_t, uint64_t) override { return support::Status::ok(); }
  support::Expected<bool> wait(uint64_t ns) override {
    const uint64_t cycles = std::max<uint64_t>(1, ns * static_cast<uint64_t>(o_.clockMhz) / 1000);
    ACCELC_ASSIGN_OR_RETURN(Reply r, call({vboard::kRun, 1, cycles}));
    return r.value == 1;
  }
  bool interrupts() const override { return true; }
  std::string describe() const override { return "virtual board " + o_.board; }

  /// One request and its reply.
  support::Expected<Reply> call(const Request& q) {
    Reply r;
    if (!vboard::sendAll(sock_, &q, sizeof q) || !vboard::readAll(sock_, &r, sizeof r))
      return support::error(support::Location::file(describe()), "the virtual board's process has gone");
    if (!r.ok) return support::error(support::Location::file(describe()), r.message);
    return r;
  }

 private:
  VirtualBoardOptions o_;
  uint8_t* pool_;
  int sock_;
  pid_t child_;
};

}  // namespace

support::Expected<std::unique_ptr<Bus>> openVirtualBoard(const VirtualBoardOptions& o) {
  const support::Location at = support::Location::file("virtual board " + o.board);
  const std::string server = serverPath();
  if (server.empty() || ::access(server.c_str(), X_OK) != 0)
    return support::error(at, "no virtual board server: this runtime was built without accelc-vboard "
                              "(set ACCELC_VBOARD to one)");
  // Every descriptor is close-on-exec; the server gets its two as fds 3
  // and 4 through dup2 in the spawn, and no other program inherits them.
  const int pool = ::memfd_create("accelc-dma-pool", MFD_CLOEXEC);
  if (pool < 0) return support::error(at, std::string("cannot make the DMA pool: ") + std::strerror(errno));
  if (::ftruncate(pool, static_cast<off_t>(o.poolBytes)) != 0) {
    const int err = errno;
    ::close(pool);
    return support::error(at, std::string("cannot size the DMA pool: ") + std::strerror(err));
  }
  void* mem = ::mmap(nullptr, o.poolBytes, PROT_READ | PROT_WRITE, MAP_SHARED, pool, 0);
  if (mem == MAP_FAILED) {
    ::close(pool);
    return support::error(at, std::string("cannot map the DMA pool: ") + std::strerror(errno));
  }
  int fds[2];
  if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, fds) != 0) {
    ::munmap(mem, o.poolBytes), ::close(pool);
    return support::error(at, std::string("cannot open the virtual board's socket: ") + std::strerror(errno));
  }
  std::vector<std::string> args = {server,
                                   o.hwspecYaml.empty() ? "--hw=" + o.hwspec : "--hw-yaml=" + o.hwspecYaml,
                                   "--phys=" + std::to_string(o.poolPhysical),
                                   "--bytes=" + std::to_string(o.poolBytes),
                                   "--seed=" + std::to_string(o.randomSeed),
                                   "--error-lo=" + std::to_string(o.errorLo),
                                   "--error-hi=" + std::to_string(o.errorHi)};
  if (!o.isaYaml.empty()) args.push_back("--isa-yaml=" + o.isaYaml);
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  // The two are moved above the server's numbers first, so that neither
  // dup2 overwrites the other's source.
  const int sockHigh = ::fcntl(fds[1], F_DUPFD_CLOEXEC, 10), poolHigh = ::fcntl(pool, F_DUPFD_CLOEXEC, 10);
  posix_spawn_file_actions_t moves;
  ::posix_spawn_file_actions_init(&moves);
  ::posix_spawn_file_actions_adddup2(&moves, sockHigh, vboard::kSocketFd);
  ::posix_spawn_file_actions_adddup2(&moves, poolHigh, vboard::kPoolFd);
  pid_t child = 0;
  const int rc = ::posix_spawn(&child, server.c_str(), &moves, nullptr, argv.data(), environ);
  ::posix_spawn_file_actions_destroy(&moves);
  ::close(fds[1]), ::close(pool), ::close(sockHigh), ::close(poolHigh);
  if (rc != 0) {
    ::close(fds[0]), ::munmap(mem, o.poolBytes);
    return support::error(at, "cannot start " + server + ": " + std::strerror(rc));
  }
  // The server answers once it holds the IP: a hello, or why it cannot.
  auto bus = std::make_unique<VirtualBus>(o, static_cast<uint8_t*>(mem), fds[0], child);
  Reply hello;
  if (!vboard::readAll(fds[0], &hello, sizeof hello))
    return support::error(at, "the virtual board's process ended before it started");
  if (!hello.ok) return support::error(at, hello.message);
  return std::unique_ptr<Bus>(std::move(bus));
}

}  // namespace accelc::boards
