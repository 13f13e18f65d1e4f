// runtime/deploy_device.cc — deploy devices by name.
#include "runtime/deploy_device.h"

#include <filesystem>
#include <fstream>

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

}  // namespace

bool isDeployDeviceName(const std::string& name) {
  return name == "fsim" || startsWith(name, "board:") || startsWith(name, "virtual:");
}

support::Expected<std::unique_ptr<Device>> makeDeployDevice(const std::string& name, const isa::Target& t,
                                                            const simulator::FsimOptions& o) {
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
    return support::error(at, "this runtime has no virtual board yet; the devices it has: fsim");
  return support::error(at, "unknown device: expected fsim, board:NAME or virtual:NAME");
}

}  // namespace accelc::runtime
