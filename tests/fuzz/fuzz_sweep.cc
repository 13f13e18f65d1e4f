// tests/fuzz/fuzz_sweep.cc — sweep YAML: parse and validate; a valid sweep's
// points read back as hwspecs (or as an error naming the point), with no
// compile.
#include "compiler/dse/sweep.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  auto s = compiler::dse::parseSweep(fuzz::text(data, size), "fuzz.yaml");
  if (!s) return 0;
  FUZZ_EXPECT(s->points() >= 1 && s->points() <= compiler::dse::kMaxPoints, "a valid sweep has 1 to kMaxPoints points");
  for (int64_t i : {int64_t{0}, s->points() / 2, s->points() - 1}) {
    FUZZ_EXPECT(compiler::dse::pointValues(*s, i).size() == s->axes.size(), "a point has a value per axis");
    (void)compiler::dse::pointHwSpec(*s, i);
  }
  return 0;
}
