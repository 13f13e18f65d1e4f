// boards/board_fit.h — whether the HLS IP of a hwspec fits a board's part
// and ports (hls::estimateHls with the part's binding), resource by resource.
#ifndef ACCELC_BOARDS_BOARD_FIT_H_
#define ACCELC_BOARDS_BOARD_FIT_H_

#include <string>
#include <vector>

#include "boards/board_spec.h"
#include "hls/hls_estimate.h"

namespace accelc::boards {

/// One resource of a fit check: what the accelerator needs and what the board has.
struct ResourceFit {
  std::string resource;  ///< "DSP", "BRAM18", "AXI data width (bits)"
  int64_t need = 0, have = 0;
  std::string note;      ///< how `need` was counted
  bool fits() const { return need <= have; }
};

/// How the HLS IP of `t` binds its multipliers and buffers on `b`'s part.
hls::HlsBinding bindingOn(const BoardSpec& b, const isa::Target& t);
/// Whether the HLS IP of `t` fits `b`, resource by resource (hls::estimateHls
/// with bindingOn: DSPs, LUTs and flip-flops, 18 Kb block RAMs, URAMs), and
/// the DRAM bus (`dram.bytes_per_cycle` bytes a beat) on the widest AXI port.
std::vector<ResourceFit> fitOnBoard(const BoardSpec& b, const isa::Target& t);
/// Ok when every row fits; else an error naming the first that does not, what
/// it needs and what the board has.
support::Status checkFit(const BoardSpec& b, const isa::Target& t);

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_BOARD_FIT_H_
