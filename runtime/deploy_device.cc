// runtime/deploy_device.cc — deploy devices by name.
#include "runtime/deploy_device.h"

#include <algorithm>

#include "boards/board_spec.h"
#include "boards/driver/board_bus.h"
#include "boards/virtual/virtual_bus.h"
#include "runtime/board_device.h"
#include "runtime/fsim_device.h"

namespace accelc::runtime {

namespace {

bool startsWith(const std::string& s, const std::string& prefix) { return s.rfind(prefix, 0) == 0; }

/// The driver's timeout: --max-cycles at the board's fabric clock, so that a
/// board and a virtual board (whose time is simulated) stop a run alike.
boards::DriverOptions driverOptions(const boards::BoardSpec& b, const isa::RunLimits& limits) {
  boards::DriverOptions o;
  const uint64_t mhz = static_cast<uint64_t>(std::max<int64_t>(1, b.fabricClockMhz));
  o.timeoutNs = std::clamp<uint64_t>(limits.maxCycles / mhz * 1000, o.pollNs, uint64_t{1} << 50);
  return o;
}

/// board:NAME for `t`, with a window of `window` bytes.
support::Expected<std::unique_ptr<Device>> board(const std::string& name, const isa::Target& t, uint64_t window,
                                                 const isa::RunLimits& limits, const support::Location& at) {
  if (name.size() == 6) return support::error(at, "expected board:NAME, a board such as board:pynq-z1");
  ACCELC_ASSIGN_OR_RETURN(boards::BoardSpec b, boards::loadBoard(name.substr(6)));
  boards::BoardBusOptions o;
  o.board = b.name, o.controlBase = b.controlBase, o.dmaDevice = b.dmaDevice;
  o.udmabuf = b.dma == boards::DmaAllocator::kUdmabuf;
  // The IP's master drives no AxCACHE, so no port snoops for it (not even
  // an MPSoC HPC port): the driver always maintains the caches.
  o.coherent = false;
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<boards::Bus> bus, boards::openBoardBus(o));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<boards::Driver> driver,
                          boards::Driver::open(std::move(bus), t, window, driverOptions(b, limits)));
  return std::unique_ptr<Device>(std::make_unique<BoardDevice>(t, std::move(driver), "board:" + b.name));
}

/// virtual:BOARD[:HWSPEC] for `t`, with a window of `window` bytes.
support::Expected<std::unique_ptr<Device>> virtualBoard(const std::string& name, const isa::Target& t,
                                                        uint64_t window, const isa::RunLimits& limits,
                                                        const support::Location& at) {
  const std::string rest = name.substr(8);
  const size_t colon = rest.find(':');
  const std::string boardName = rest.substr(0, colon);
  if (boardName.empty()) return support::error(at, "expected virtual:BOARD[:HWSPEC], a board such as virtual:pynq-z1");
  ACCELC_ASSIGN_OR_RETURN(boards::BoardSpec b, boards::loadBoard(boardName));
  boards::VirtualBoardOptions o;
  o.board = b.name;
  // Without a hwspec named, the board holds the IP of the program's own: its YAML travels whole, so that a hwspec
  // that is no preset (a file of the user's, a sweep's point) gets an IP too.
  if (colon == std::string::npos) o.hwspecYaml = t.spec.canonicalYaml(), o.isaYaml = t.isa.yamlText;
  else o.hwspec = rest.substr(colon + 1);
  o.clockMhz = b.fabricClockMhz;
  o.poolBytes = static_cast<uint64_t>(b.dmaPoolBytes);
  o.poolPhysical = b.ddrBase + b.ddrBytes - o.poolBytes;
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<boards::Bus> bus, boards::openVirtualBoard(o));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<boards::Driver> driver,
                          boards::Driver::open(std::move(bus), t, window, driverOptions(b, limits)));
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
  if (window == 0) window = static_cast<uint64_t>(t.spec.dramWindowBytes);
  if (startsWith(name, "board:")) return board(name, t, window, o.limits, at);
  if (startsWith(name, "virtual:")) return virtualBoard(name, t, window, o.limits, at);
  return support::error(at, "unknown device: expected fsim, board:NAME or virtual:NAME");
}

}  // namespace accelc::runtime
