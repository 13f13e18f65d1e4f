// tests/fuzz/fuzz_board.cc — board YAML: parse and validate; a valid board
// names a part of the catalog, holds that part's resources and a DMA pool
// inside its DDR window, and its fit against the tiny and vta-default presets
// is computed row by row, each row's verdict agreeing with checkFit.
#include "boards/board_fit.h"
#include "boards/board_spec.h"
#include "fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace accelc;
  auto b = boards::parseBoardSpec(fuzz::text(data, size), "fuzz.yaml");
  if (!b) return 0;
  const auto part = boards::partInfo(b->part);
  FUZZ_EXPECT(part.has_value(), "a valid board's part is in the catalog");
  FUZZ_EXPECT(b->resources.dsp == part->res.dsp && b->resources.lut == part->res.lut, "the part's own resources");
  FUZZ_EXPECT(!b->ports.empty(), "a valid board has an AXI port");
  FUZZ_EXPECT(b->dmaPoolBytes > 0 && static_cast<uint64_t>(b->dmaPoolBytes) <= b->ddrBytes, "the pool lies in the DDR");
  for (const char* name : {"tiny", "vta-default"}) {
    const isa::Target& t = fuzz::preset(name);
    bool all = true;
    for (const boards::ResourceFit& r : boards::fitOnBoard(*b, t)) all = all && r.fits();
    FUZZ_EXPECT(all == boards::checkFit(*b, t).isOk(), "checkFit refuses exactly when a row does not fit");
  }
  return 0;
}
