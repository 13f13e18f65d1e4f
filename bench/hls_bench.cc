// bench/hls_bench.cc — the HLS engine's speed beside fsim's: ResNet-18
// compiled for vta-default, one inference on each engine in the same run
// (the second of two, as the executor then has its constants in DRAM), and
// the time `accelc hls --board pynq-z1` takes to write vta-default's project.
//
// Targets (issue: HLS sources and C-simulation): --engine hls within 10x
// fsim's wall time on ResNet-18; a project written in under 2 s.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "bench/bench_util.h"
#include "boards/zynq/project.h"
#include "runtime/executor.h"
#include "runtime/sim_devices/make_device.h"

namespace accelc {
namespace {

double seconds(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

/// Seconds of the second of two inferences of `c` on `engine`; < 0 on an error.
double inference(const bench::CompiledResNet18& c, runtime::Engine engine, std::vector<uint8_t>& out) {
  auto d = runtime::makeDevice(engine, *c.target);
  if (!d) return std::fprintf(stderr, "%s\n", d.diag().str().c_str()), -1;
  auto e = runtime::Executor::create(c.bundle, **d, "resnet18.acx");
  if (!e) return std::fprintf(stderr, "%s\n", e.diag().str().c_str()), -1;
  double s = 0;
  for (int i = 0; i < 2; ++i) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = (*e)->run({c.input});
    if (!r) return std::fprintf(stderr, "%s\n", r.diag().str().c_str()), -1;
    s = seconds(t0);
    out = (*r)[0].bytes();
  }
  return s;
}

int run() {
  const bench::CompiledResNet18 c = bench::compileResNet18("vta-default");
  if (c.bundle.steps.empty()) return std::fprintf(stderr, "ResNet-18 did not compile\n"), 1;
  std::vector<uint8_t> fsimOut, hlsOut;
  const double fsim = inference(c, runtime::Engine::kFsim, fsimOut);
  const double hls = inference(c, runtime::Engine::kHls, hlsOut);
  if (fsim < 0 || hls < 0) return 1;
  std::printf("ResNet-18 on vta-default, one inference (executor, host steps included):\n");
  std::printf("  fsim %8.3f s\n  hls  %8.3f s   %.2fx fsim (target: at most 10x); outputs %s\n", fsim, hls, hls / fsim,
              fsimOut == hlsOut ? "identical" : "DIFFER");
  const std::string dir = std::string(ACCELC_BUILD_DIR) + "/bench-hls-project";
  auto board = boards::loadBoard("pynq-z1");
  auto vta = hwspec::loadHwSpec("vta-default");
  auto t = vta ? isa::loadTarget(*vta) : support::Expected<isa::Target>(vta.diag());
  if (!board || !t) return std::fprintf(stderr, "no board or target\n"), 1;
  const int n = 10;
  const auto t0 = std::chrono::steady_clock::now();
  for (int i = 0; i < n; ++i)
    if (!boards::writeZynqProject(*board, *t, dir)) return std::fprintf(stderr, "accelc hls failed\n"), 1;
  std::printf("accelc hls --hw vta-default --board pynq-z1 (sources, scripts, test bench): %.4f s per project "
              "(target: under 2 s)\n", seconds(t0) / n);
  return fsimOut == hlsOut ? 0 : 1;
}

}  // namespace
}  // namespace accelc

int main() { return accelc::run(); }
