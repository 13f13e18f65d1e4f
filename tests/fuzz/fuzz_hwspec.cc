// tests/fuzz/fuzz_hwspec.cc — hwspec YAML: parse, build the target; a valid
// hwspec's canonical form parses back to the same hwspec.
#include "fuzz_util.h"
#include "hwspec/hwspec.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  auto spec = hwspec::parseHwSpec(fuzz::text(data, size), "fuzz.yaml");
  if (!spec) return 0;
  auto again = hwspec::parseHwSpec(spec->canonicalYaml(), "canonical.yaml");
  FUZZ_EXPECT(again.isOk(), "the canonical form of a valid hwspec parses");
  FUZZ_EXPECT(again->canonicalYaml() == spec->canonicalYaml(), "the canonical form is a fixed point");
  const std::string isa = isa::bundledIsaText(spec->isaFile);
  if (!isa.empty()) (void)isa::makeTarget(*spec, isa, spec->isaFile);
  return 0;
}
