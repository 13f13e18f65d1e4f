// boards/virtual/vboard_main.cc — accelc-vboard, the process of a virtual
// board: the verilated Zynq IP of a preset (simulator/rtl, accelc_axi) with
// its AXI memory on the shared DMA pool, answering a VirtualBus's requests
// (protocol.h) on a socket until it closes. Started by openVirtualBoard,
// never by hand.
#include <sys/mman.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstring>
#include <optional>

#include "boards/virtual/protocol.h"
#include "hwspec/hwspec.h"
#include "isa/target.h"
#include "simulator/rtl/builtin_models.h"

namespace {

using accelc::boards::vboard::Reply;
using accelc::boards::vboard::Request;
namespace vboard = accelc::boards::vboard;

void send(int fd, const Reply& r) { vboard::sendAll(fd, &r, sizeof r); }

Reply failure(const std::string& why) {
  Reply r;
  std::strncpy(r.message, why.c_str(), sizeof r.message - 1);
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app("accelc-vboard: the process of a virtual board (started by the runtime, its socket on fd 3 and "
               "the DMA pool on fd 4)");
  const int fd = vboard::kSocketFd, poolFd = vboard::kPoolFd;
  std::string hw;
  uint64_t phys = 0, bytes = 0, seed = 0, errorLo = 0, errorHi = 0;
  app.add_option("--hw", hw)->required();
  app.add_option("--phys", phys)->required();
  app.add_option("--bytes", bytes)->required();
  app.add_option("--seed", seed);
  app.add_option("--error-lo", errorLo);
  app.add_option("--error-hi", errorHi);
  CLI11_PARSE(app, argc, argv);

  auto spec = accelc::hwspec::loadHwSpec(hw);
  auto target = spec ? accelc::isa::loadTarget(*spec) : accelc::support::Expected<accelc::isa::Target>(spec.diag());
  auto ip = target ? accelc::simulator::builtinAxiModel(*target)
                   : accelc::support::Expected<std::unique_ptr<accelc::simulator::AxiModel>>(target.diag());
  if (!ip) {
    send(fd, failure(ip.diag().str()));
    return 1;
  }
  void* pool = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_SHARED, poolFd, 0);
  if (pool == MAP_FAILED) {
    send(fd, failure(std::string("cannot map the DMA pool: ") + std::strerror(errno)));
    return 1;
  }
  accelc::simulator::AxiMemoryOptions memory;
  memory.latency = static_cast<uint64_t>(target->spec.dramLatency);
  memory.errorLo = errorLo, memory.errorHi = errorHi;
  (*ip)->powerOn(static_cast<uint8_t*>(pool), phys, bytes, memory, {seed});
  Reply hello;
  hello.ok = 1;
  send(fd, hello);

  for (Request q; vboard::readAll(fd, &q, sizeof q);) {
    Reply r;
    r.ok = 1;
    switch (q.op) {
      case vboard::kRead32: {
        const std::optional<uint32_t> v = (*ip)->read(q.offset);
        if (v) r.value = *v;
        else r = failure("the IP did not answer an AXI4-Lite read of register " + std::to_string(q.offset));
        break;
      }
      case vboard::kWrite32:
        if (!(*ip)->write(q.offset, static_cast<uint32_t>(q.value)))
          r = failure("the IP did not answer an AXI4-Lite write of register " + std::to_string(q.offset));
        break;
      case vboard::kRun:
        r.value = (*ip)->run(q.value, q.offset == 1) < q.value ? 1 : 0;
        break;
      case vboard::kQuit:
        return 0;
      default:
        r = failure("unknown request " + std::to_string(q.op));  // the op is a number off the socket
        break;
    }
    r.now = (*ip)->now();
    send(fd, r);
  }
  return 0;
}
