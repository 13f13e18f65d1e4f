// boards/ice40/flow.cc — Yosys, nextpnr-ice40 and icepack on the board's folder.
#include "boards/ice40/flow.h"

#include <cstdlib>
#include <fstream>
#include <sstream>

namespace accelc::boards {

namespace {

/// Runs `cmd` in `dir`; its output goes to its log.
int runIn(const std::string& dir, const std::string& cmd) { return std::system(("cd '" + dir + "' && " + cmd).c_str()); }

std::string readText(const std::string& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace

support::Expected<PlacedBoard> placeAndRoute(const isa::Target& t, const isa::Program& p, const std::string& name,
                                             const std::string& dir) {
  ACCELC_TRY(writeIce40Board(t, p, name, dir));
  if (runIn(dir, "yosys -q -l yosys_board.log -s synth_board.ys > /dev/null 2>&1") != 0)
    return support::error(support::Location::file(dir + "/synth_board.ys"),
                          "yosys failed; its log is " + dir + "/yosys_board.log");
  PlacedBoard b;
  b.log = dir + "/nextpnr.log";
  const int pnr = runIn(dir, "nextpnr-ice40 --up5k --package sg48 --json accelc_board.json --pcf accelc_ice40.pcf "
                             "--asc accelc_board.asc --freq " + std::to_string(t.spec.clockMhz) +
                             " --seed " + std::to_string(kNextpnrSeed) +
                             " --timing-allow-fail -q -l nextpnr.log > /dev/null 2>&1");
  auto parsed = pnrReportOf(readText(b.log), b.log);
  if (!parsed && pnr != 0)  // it stopped before packing: no utilization to show
    return support::error(support::Location::file(b.log), "nextpnr-ice40 failed before packing; see its log");
  ACCELC_ASSIGN_OR_RETURN(b.report, std::move(parsed));
  b.routed = pnr == 0;
  return b;
}

support::Status checkPlaced(const PlacedBoard& b) {
  if (!b.report.fits) {
    std::string over;
    for (const BelUse& u : b.report.utilization)
      if (u.used > u.available)
        over += (over.empty() ? "" : ", ") + u.bel + " " + std::to_string(u.used) + " of " + std::to_string(u.available);
    return support::error(support::Location::file(b.log), "the design does not fit the UP5K: " + over);
  }
  if (!b.routed) return support::error(support::Location::file(b.log), "nextpnr-ice40 failed");
  return support::Status::ok();
}

support::Status packBitstream(const std::string& dir) {
  if (runIn(dir, "icepack accelc_board.asc accelc_board.bin > icepack.log 2>&1") != 0)
    return support::error(support::Location::file(dir + "/icepack.log"), "icepack failed");
  return support::Status::ok();
}

}  // namespace accelc::boards
