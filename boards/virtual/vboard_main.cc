// boards/virtual/vboard_main.cc — accelc-vboard, the process of a virtual
// board: the verilated Zynq IP of a hwspec (simulator/rtl, accelc_axi; the
// build's for a preset, else one verilated now into the cache) with
// its AXI memory on the shared DMA pool, answering a VirtualBus's requests
// (protocol.h) on a socket until it closes. Started by openVirtualBoard,
// never by hand.
#include <sys/mman.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <cstring>
#include <optional>

#include "boards/virtual/protocol.h"
#include "hls/rtl_gen.h"
#include "hwspec/hwspec.h"
#include "isa/target.h"
#include "simulator/rtl/builtin_models.h"
#include "simulator/rtl/model_cache.h"
#include "support/check.h"

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

/// The IP of `t`: the one the build verilated when `t` is a preset unchanged,
/// else the cache's, verilated now when it lacks it (saying so on stderr).
accelc::support::Expected<std::unique_ptr<accelc::simulator::AxiModel>> ipOf(const accelc::isa::Target& t) {
  namespace hls = accelc::hls;
  if (auto builtin = accelc::simulator::builtinAxiModel(t)) return builtin;
  ACCELC_TRY(hls::axiSupports(t.spec));
  const hls::RtlOptions axi{true};
  // The key covers the generated packages too: the register map comes from isa/control_regs.h, not the hwspec.
  const std::string text = hls::rtlSourceTexts(axi) + hls::hwPackage(t.spec) + hls::isaPackage(t) + hls::targetPackage(t);
  const accelc::simulator::RtlSources src{text, hls::rtlFiles(axi),
                                          [&t, &axi](const std::string& dir) { return hls::writeRtl(t, dir, axi); }};
  return accelc::simulator::cachedAxiModel(t, src, [](const std::string& line) {
    std::fprintf(stderr, "accelc-vboard: %s\n", line.c_str());
  });
}

}  // namespace

int main(int argc, char** argv) {
  // A failed internal check (a bug) says what failed before the abort.
  accelc::support::setCheckHandler([](const char* m) { std::fprintf(stderr, "%s\n", m); });
  CLI::App app("accelc-vboard: the process of a virtual board (started by the runtime, its socket on fd 3 and "
               "the DMA pool on fd 4)");
  const int fd = vboard::kSocketFd, poolFd = vboard::kPoolFd;
  std::string hw, hwYaml, isaYaml;
  uint64_t phys = 0, bytes = 0, seed = 0, errorLo = 0, errorHi = 0;
  auto* hwOption = app.add_option("--hw", hw, "a preset or a hwspec file");
  auto* yamlOption = app.add_option("--hw-yaml", hwYaml, "the hwspec's YAML itself")->excludes(hwOption);
  app.add_option("--isa-yaml", isaYaml, "with --hw-yaml: its ISA's YAML (else a bundled ISA of the name it gives)");
  app.add_option("--phys", phys)->required();
  app.add_option("--bytes", bytes)->required();
  app.add_option("--seed", seed);
  app.add_option("--error-lo", errorLo);
  app.add_option("--error-hi", errorHi);
  CLI11_PARSE(app, argc, argv);
  if (hwOption->count() + yamlOption->count() != 1) {
    send(fd, failure("accelc-vboard needs the hwspec: --hw or --hw-yaml"));
    return 1;
  }

  auto spec = hwYaml.empty() ? accelc::hwspec::loadHwSpec(hw)
                             : accelc::hwspec::parseHwSpec(hwYaml, "the program's hwspec");
  auto target = !spec                              ? accelc::support::Expected<accelc::isa::Target>(spec.diag())
                : hwYaml.empty() || isaYaml.empty() ? accelc::isa::loadTarget(*spec)
                                                    : accelc::isa::makeTarget(*spec, isaYaml, spec->isaFile);
  auto ip = target ? ipOf(*target)
                   : accelc::support::Expected<std::unique_ptr<accelc::simulator::AxiModel>>(target.diag());
  if (!ip) {
    std::fprintf(stderr, "accelc-vboard: %s\n", ip.diag().str().c_str());  // whole: a reply holds its start only
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
