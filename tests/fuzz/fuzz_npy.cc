// tests/fuzz/fuzz_npy.cc — .npy files: parse; a parsed array's data is
// exactly what its dtype and shape describe.
#include "fuzz_util.h"
#include "support/npy.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  auto a = support::parseNpy(fuzz::bytes(data, size), "fuzz.npy");
  if (!a) return 0;
  FUZZ_EXPECT(static_cast<int64_t>(a->data.size()) == support::shapeElements(a->shape) * support::dtypeBytes(a->dtype),
              "the data length is the header's");
  return 0;
}
