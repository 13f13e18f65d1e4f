// runtime/deploy_device.cc — deploy devices by name.
#include "runtime/deploy_device.h"

#include <filesystem>
#include <fstream>

#include "boards/board_spec.h"
#include "boards/virtual/virtual_bus.h"
#include "runtime/board_device.h"
#include "runtime/fsim_device.h"

namespace accelc::runtime {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

/// The UIO node a board's accelerator shows as (/sys/class/uio/uioN/name reads "accelc"), or "".
std::string acceleratorUio() {
  std::error_code ec;  // never throws: a folder that cannot be read holds no accelerator
  for (std::filesystem::directory_iterator it("/sys/class/uio", ec), end; !ec && it != end; it.increment(ec)) {
    std::ifstream in(it->path() / "name");
    std::string name;
    if (in >> name && name == "accelc") return it->path().filename().string();
  }
  return "";
}

/// virtual:BOARD[:HWSPEC] for `t`, with a window of `window` bytes.
support::Expected<std::unique_ptr<Device>> virtualBoard(const std::string& name, const isa::Target& t,
                                                        uint64_t window, const support::Location& at) {
  const std::string rest = name.substr(8);
  const size_t colon = rest.find(':');
  const std::string boardName = rest.substr(0, colon);
  if (boardName.empty()) return support::error(at, "expected virtual:BOARD[:HWSPEC], a board such as virtual:pynq-z1");
  ACCELC_ASSIGN_OR_RETURN(boards::BoardSpec b, boards::loadBoard(boardName));
  boards::VirtualBoardOptions o;
  o.board = b.name;
  o.hwspec = colon == std::string::npos ? t.spec.name : rest.substr(colon + 1);
  o.clockMhz = b.fabricClockMhz;
  o.poolBytes = static_cast<uint64_t>(b.dmaPoolBytes);
  o.poolPhysical = b.ddrBase + b.ddrBytes - o.poolBytes;
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<boards::Bus> bus, boards::openVirtualBoard(o));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<boards::Driver> driver, boards::Driver::open(std::move(bus), t, window));
  return std::unique_ptr<Device>(std::make_unique<BoardDevice>(t, std::move(driver), "virtual:" + b.name));
}

}  // namespace

bool isDeployDeviceName(const std::string& name) {
  return name == "fsim" || startsWith(name, "board:") || startsWith(name, "virtual:");
}

support::Expected<std::unique_ptr<Device>> makeDeployDevice(const std::string& name, const isa::Target& t,
                                                            const simulator::FsimOptions& o, uint64_t window) {
  const support::Location at = support::Location::file("device '" + name + "'");
  if (name == "fsim") return std::unique_ptr<Device>(std::make_unique<FsimDevice>(t, o));
  if (startsWith(name, "board:")) {
    if (name.size() == 6) return support::error(at, "expected board:NAME, a board such as board:pynq-z1");
    const std::string uio = acceleratorUio();
    if (uio.empty())
      return support::error(at, "no accelerator on this machine: no UIO device named 'accelc' in /sys/class/uio "
                                "(docs/deploy.md says how a board shows it)");
    return support::error(at, "found the accelerator at /dev/" + uio + ", but this runtime has no board driver yet");
  }
  if (startsWith(name, "virtual:"))
    return virtualBoard(name, t, window ? window : static_cast<uint64_t>(t.spec.dramWindowBytes), at);
  return support::error(at, "unknown device: expected fsim, board:NAME or virtual:NAME");
}

}  // namespace accelc::runtime
