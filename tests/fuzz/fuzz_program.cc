// tests/fuzz/fuzz_program.cc — program binaries: read and validate (as
// given, then re-framed with correct checksums), decode, and run on fsim
// within small limits.
#include "fuzz_util.h"
#include "isa/program.h"
#include "simulator/functional/fsim.h"

namespace {

void runProgram(const std::vector<uint8_t>& file) {
  using namespace accelc;
  auto p = isa::readProgram(file, "fuzz.bin");
  if (!p) return;
  auto t = isa::programTarget(*p, "fuzz.bin");
  if (!t || !isa::validateProgram(*p, *t, "fuzz.bin").isOk()) return;
  if (!isa::decodeText(*p, *t, "fuzz.bin").isOk()) return;
  simulator::FunctionalSim sim(*t, simulator::FsimOptions{true, fuzz::smallLimits()});
  if (!sim.loadProgram(*p).isOk()) return;
  (void)sim.run(*p, "fuzz.bin");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  const std::vector<uint8_t> file = fuzz::bytes(data, size);
  runProgram(file);
  runProgram(fuzz::reseal(isa::programContainerKind(), file));
  return 0;
}
