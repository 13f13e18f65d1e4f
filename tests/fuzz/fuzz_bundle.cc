// tests/fuzz/fuzz_bundle.cc — bundles: load and validate (as given, then
// re-framed with correct checksums), and run one inference on fsim with
// zero inputs within small limits.
#include "fuzz_util.h"
#include "runtime/bundle.h"
#include "runtime/executor.h"
#include "runtime/fsim_device.h"

namespace {

void runBundle(const std::vector<uint8_t>& file) {
  using namespace accelc;
  auto b = runtime::readCheckedBundle(file, "fuzz.acx");
  if (!b) return;
  std::vector<runtime::Tensor> inputs;
  for (int id : b->bundle.inputs) {
    const runtime::TensorSlot& s = b->bundle.tensors[static_cast<size_t>(id)];
    if (s.bytes() > (uint64_t{1} << 24)) return;  // keeps each run small
    inputs.emplace_back(s.dtype, s.shape);
  }
  runtime::FsimDevice device(b->target, simulator::FsimOptions{true, fuzz::smallLimits()});
  auto ex = runtime::Executor::create(b->bundle, device, "fuzz.acx");
  if (!ex) return;
  (void)(*ex)->run(inputs);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  const std::vector<uint8_t> file = fuzz::bytes(data, size);
  runBundle(file);
  runBundle(fuzz::reseal(runtime::bundleContainerKind(), file));
  return 0;
}
