// boards/driver/board_bus.cc — UIO registers and a u-dma-buf pool.
//
// u-dma-buf maps its buffer cached unless opened with O_SYNC; the pool is
// mapped cached, and flush and invalidate use its sync files (sync_offset,
// sync_size, sync_direction, then sync_for_device or sync_for_cpu), so that
// the processor works at cache speed between runs. A coherent port needs
// neither. The UIO node's interrupt ends a wait when the IP raises its own.
#include "boards/driver/board_bus.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "isa/control_regs.h"

namespace accelc::boards {

namespace {

namespace fs = std::filesystem;

/// The first word of a sysfs file ("" when it cannot be read).
std::string readWord(const std::string& path) {
  std::ifstream in(path);
  std::string w;
  in >> w;
  return w;
}

/// A number from sysfs, decimal or 0x-hex; nothing when absent or malformed.
std::optional<uint64_t> readNumber(const std::string& path) {
  const std::string w = readWord(path);
  if (w.empty()) return std::nullopt;
  errno = 0;
  char* end = nullptr;
  const uint64_t v = std::strtoull(w.c_str(), &end, 0);
  if (errno || *end) return std::nullopt;
  return v;
}

bool writeWord(const std::string& path, const std::string& w) {
  std::ofstream out(path);
  out << w;
  out.flush();
  return static_cast<bool>(out);
}

/// The UIO node named "accelc" (e.g. "uio0"), or "".
std::string findUio(const std::string& sysfs) {
  std::error_code ec;  // a folder that cannot be read holds no accelerator
  for (fs::directory_iterator it(sysfs + "/class/uio", ec), end; !ec && it != end; it.increment(ec))
    if (readWord((it->path() / "name").string()) == "accelc") return it->path().filename().string();
  return "";
}

/// A shared mapping of `bytes` of `path` from `offset`.
support::Expected<void*> mapFile(const std::string& path, uint64_t offset, uint64_t bytes, int flags,
                                 const support::Location& at) {
  const int fd = ::open(path.c_str(), O_RDWR | flags);
  if (fd < 0) return support::error(at, "cannot open " + path + ": " + std::strerror(errno));
  void* m = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, fd, static_cast<off_t>(offset));
  const int err = errno;
  ::close(fd);
  if (m == MAP_FAILED) return support::error(at, "cannot map " + path + ": " + std::strerror(err));
  return m;
}

class BoardBus final : public Bus {
 public:
  BoardBus(const BoardBusOptions& o, volatile uint32_t* regs, uint64_t regBytes, uint8_t* pool, uint64_t poolBytes,
           uint64_t physical, std::string syncDir, std::string where, int irq)
      : o_(o), regs_(regs), regBytes_(regBytes), pool_(pool), poolBytes_(poolBytes), physical_(physical),
        sync_(std::move(syncDir)), where_(std::move(where)), irq_(irq) {}
  ~BoardBus() override {
    if (irq_ >= 0) ::close(irq_);
    ::munmap(const_cast<uint32_t*>(regs_), regBytes_);
    ::munmap(pool_, poolBytes_);
  }

  support::Expected<uint32_t> read32(uint32_t offset) override { return regs_[offset / 4]; }
  support::Status write32(uint32_t offset, uint32_t value) override {
    regs_[offset / 4] = value;
    return support::Status::ok();
  }
  uint32_t registerBytes() const override { return isa::regs::kWindowBytes; }
  uint8_t* pool() override { return pool_; }
  uint64_t poolPhysical() const override { return physical_; }
  uint64_t poolBytes() const override { return poolBytes_; }
  support::Status flush(uint64_t offset, uint64_t n) override { return sync(offset, n, 1, "sync_for_device"); }
  support::Status invalidate(uint64_t offset, uint64_t n) override { return sync(offset, n, 2, "sync_for_cpu"); }
  support::Expected<bool> wait(uint64_t ns) override {
    if (irq_ < 0) {
      const timespec t{static_cast<time_t>(ns / 1000000000), static_cast<long>(ns % 1000000000)};
      ::nanosleep(&t, nullptr);
      return false;
    }
    // UIO: writing 1 unmasks the interrupt; a read returns the count once it fired.
    const uint32_t unmask = 1;
    if (::write(irq_, &unmask, sizeof unmask) != sizeof unmask)
      return support::error(support::Location::file(describe()), "cannot unmask the UIO interrupt");
    pollfd p{irq_, POLLIN, 0};
    const int n = ::poll(&p, 1, static_cast<int>(std::clamp<uint64_t>(ns / 1000000, 1, INT_MAX)));
    uint32_t count = 0;
    if (n > 0 && ::read(irq_, &count, sizeof count) == sizeof count) return true;
    return false;
  }
  bool interrupts() const override { return irq_ >= 0; }
  std::string describe() const override { return "board " + o_.board + " (" + where_ + ")"; }

 private:
  /// u-dma-buf's cache maintenance of [offset, offset + n): direction 1 to
  /// the device, 2 from it.
  support::Status sync(uint64_t offset, uint64_t n, int direction, const char* trigger) {
    if (o_.coherent) return support::Status::ok();
    if (!writeWord(sync_ + "/sync_offset", std::to_string(offset)) ||
        !writeWord(sync_ + "/sync_size", std::to_string(n)) ||
        !writeWord(sync_ + "/sync_direction", std::to_string(direction)) || !writeWord(sync_ + "/" + trigger, "1"))
      return support::error(support::Location::file(describe()),
                            std::string("cannot sync the DMA pool's caches through ") + sync_ + "/" + trigger);
    return support::Status::ok();
  }

  BoardBusOptions o_;
  volatile uint32_t* regs_;
  uint64_t regBytes_;
  uint8_t* pool_;
  uint64_t poolBytes_, physical_;
  std::string sync_;   ///< the u-dma-buf's sysfs folder
  std::string where_;  ///< the register window's node, for messages
  int irq_;            ///< the UIO node, open for its interrupt; -1 without one
};

}  // namespace

support::Expected<std::unique_ptr<Bus>> openBoardBus(const BoardBusOptions& o) {
  const support::Location at = support::Location::file("device 'board:" + o.board + "'");
  // The registers: the UIO node, or /dev/mem at the control base on a board's cores.
  std::string regsPath;
  uint64_t regOffset = 0, regBytes = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::string uio = findUio(o.sysfs);
  if (!uio.empty()) {
    regsPath = o.dev + "/" + uio;
    regBytes = readNumber(o.sysfs + "/class/uio/" + uio + "/maps/map0/size").value_or(regBytes);
  } else {
#if defined(__aarch64__) || defined(__arm__)
    regsPath = o.dev + "/mem", regOffset = o.controlBase;
    if (::access(regsPath.c_str(), R_OK | W_OK) != 0)
#endif
      return support::error(at, "no accelerator on this machine: no UIO device named 'accelc' in " + o.sysfs +
                                    "/class/uio (docs/deploy.md says how a board shows it)");
  }
  if (regBytes < isa::regs::kWindowBytes)
    return support::error(at, regsPath + " maps " + std::to_string(regBytes) + " bytes, fewer than the " +
                                  std::to_string(isa::regs::kWindowBytes) + " of the register window");
  // The pool: u-dma-buf's buffer, its size and physical address from sysfs.
  if (!o.udmabuf)
    return support::error(at, "the board file's DMA allocator is the CMA heap, which gives user space no physical "
                              "address: add a u-dma-buf node to the device tree and set dma.allocator: udmabuf");
  const std::string name = fs::path(o.dmaDevice).filename().string();
  const std::string sys = o.sysfs + "/class/u-dma-buf/" + name;
  const auto size = readNumber(sys + "/size"), physical = readNumber(sys + "/phys_addr");
  if (!size || !physical)
    return support::error(at, "no DMA pool: " + sys + " has no size and phys_addr (is the u-dma-buf module loaded?)");
  ACCELC_ASSIGN_OR_RETURN(void* regs, mapFile(regsPath, regOffset, regBytes, O_SYNC, at));
  auto pool = mapFile(o.dev + "/" + name, 0, *size, 0, at);
  if (!pool) {
    ::munmap(regs, regBytes);
    return pool.status();
  }
  // The UIO node's interrupt, when the node is a UIO node (a regular file
  // standing in for one has none to wait on).
  int irq = -1;
  if (!uio.empty()) {
    struct stat st {};
    if (::stat(regsPath.c_str(), &st) == 0 && S_ISCHR(st.st_mode)) irq = ::open(regsPath.c_str(), O_RDWR | O_CLOEXEC);
  }
  return std::unique_ptr<Bus>(std::make_unique<BoardBus>(o, static_cast<volatile uint32_t*>(regs), regBytes,
                                                         static_cast<uint8_t*>(*pool), *size, *physical, sys,
                                                         regsPath, irq));
}

}  // namespace accelc::boards
