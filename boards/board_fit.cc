// boards/board_fit.cc — whether an accelerator's HLS IP fits a board.
#include "boards/board_fit.h"

#include <algorithm>

namespace accelc::boards {

using support::error;
using support::Location;
using support::Status;

hls::HlsBinding bindingOn(const BoardSpec& b, const isa::Target& t) {
  return hls::bindOnPart(t.spec, b.resources.dsp, b.resources.uram);
}

std::vector<ResourceFit> fitOnBoard(const BoardSpec& b, const isa::Target& t) {
  const hls::HlsResources est = hls::estimateHls(t, bindingOn(b, t));
  std::vector<ResourceFit> rows;
  rows.push_back({"DSP", est.dsps, b.resources.dsp, est.dspNote + "; the rest in LUTs"});
  rows.push_back({"LUT", est.luts, b.resources.lut, est.lutNote});
  rows.push_back({"FF", est.ffs, b.resources.ff, est.ffNote});
  rows.push_back({"BRAM18", est.bram18, b.resources.bram18, est.bramNote});
  rows.push_back({"URAM", est.urams, b.resources.uram, "buffers of 64 KiB or more, largest first, while URAMs last"});
  int64_t widest = 0;
  for (const AxiPort& p : b.ports) widest = std::max(widest, p.widthBits);
  rows.push_back({"AXI data width (bits)", 8 * t.spec.dramBytesPerCycle, widest, "dram.bytes_per_cycle a beat"});
  return rows;
}

Status checkFit(const BoardSpec& b, const isa::Target& t) {
  for (const ResourceFit& r : fitOnBoard(b, t)) {
    if (r.fits()) continue;
    return error(Location::file(b.sourcePath), "the accelerator of '" + t.spec.name + "' does not fit " + b.name +
                                                   ": " + r.resource + " needs " + std::to_string(r.need) +
                                                   ", the board has " + std::to_string(r.have) + " (" + r.note + ")");
  }
  return Status::ok();
}

}  // namespace accelc::boards
