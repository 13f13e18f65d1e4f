// compiler/dse/point.h — one point of a sweep, evaluated: compiled for its
// hwspec, one inference measured on the cycle model, and its resources
// estimated (hls::estimateHls, on the sweep's board when it names one), as a
// record that every engine writes alike.
//
// A point runs the cycle model, which elaborates once per process: each
// point is evaluated in a process of its own (`accelc dse-point`), so that a
// crash ends only that point.
#ifndef ACCELC_COMPILER_DSE_POINT_H_
#define ACCELC_COMPILER_DSE_POINT_H_

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "compiler/dse/sweep.h"
#include "support/status.h"

namespace accelc::compiler::dse {

/// What a sweep's points are compiled from.
struct ModelInput {
  std::string model;      ///< the ONNX file
  std::string calibrate;  ///< "" or --calibrate's FILE.npy or folder of .npy
  /// --tune N: each point's layers tuned (compiler/tune) with the N best
  /// estimates of each measured on the cycle model, no time limit, so that
  /// every engine gives the same result; 0: the compiler's own schedules.
  int tune = 0;
  /// --yosys: each point's core (accelc_core) also synthesized by Yosys for a
  /// 7-series part (synth_xilinx), its cells recorded beside the estimate.
  bool yosys = false;
};

/// The options of `accelc dse-point` that carry `m` besides the model (--calibrate, --tune, --yosys): what every engine
/// passes to the processes that evaluate points.
std::vector<std::string> pointOptions(const ModelInput& m);

/// What one point gave. Records hold no wall times, so that every engine
/// writes the same bytes for the same point.
struct PointRecord {
  int64_t point = 0;
  std::string key;  ///< 16 hex digits: the point's hardware, the model and its inputs, and the compiler's build ("" for a lost point)
  std::vector<std::pair<std::string, std::string>> values;  ///< per axis: key, value
  bool ok = false;
  std::string error;  ///< when not ok: the first error, as a diagnostic
  uint64_t cycles = 0;          ///< one inference's accelerator cycles on the cycle model
  int64_t rooflineCycles = 0;   ///< the accelerator layers' summed roofline bound
  int64_t datapathCycles = 0;   ///< ... and their datapath bound (roofline or GEMM and ALU cycles, per layer)
  int64_t macs = 0;             ///< the accelerator layers' MACs
  int accelLayers = 0, hostLayers = 0;
  int64_t dsps = 0, bram18 = 0, urams = 0, luts = 0, ffs = 0;  ///< the HLS IP's estimate
  bool fits = true;  ///< on the sweep's board (true without one)
  /// --yosys: what Yosys used for the core (LUTs, flip-flops, DSP48E1s, block RAMs); -1 when not asked.
  int64_t synthLuts = -1, synthFfs = -1, synthDsps = -1, synthBrams = -1;
};

/// A hash of what decides a point besides its hwspec: the model file's and
/// the calibration inputs' bytes (a file, or a folder's .npy files), the
/// tuning and the synthesis asked for.
support::Expected<uint64_t> inputsHash(const ModelInput& m);
/// The key of point `i`: its hwspec (or, when the schema refuses it, its
/// values), the sweep's board file, `inputs` (inputsHash), and the build.
std::string pointKey(const Sweep& s, int64_t i, uint64_t inputs);

/// The record of a point whose evaluation left none: its values and `why`,
/// and no key, so that a later run evaluates it again (a crash, a killed or
/// lost task may not happen twice).
PointRecord lostPoint(const Sweep& s, int64_t i, const std::string& why);

/// Evaluates point `i`. A point that cannot be compiled, run or estimated is
/// a record with its error, not an error; an error here is the sweep's own
/// (a point out of range, a model file that cannot be read).
support::Expected<PointRecord> evaluatePoint(const Sweep& s, int64_t i, const ModelInput& m);

/// A record as one JSON object, and back.
nlohmann::ordered_json recordJson(const PointRecord& r);
support::Expected<PointRecord> parseRecord(const std::string& text, const std::string& where);

}  // namespace accelc::compiler::dse

#endif  // ACCELC_COMPILER_DSE_POINT_H_
