// compiler/dse/point.cc — evaluating a sweep's point, and its record.
#include "compiler/dse/point.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "boards/board_fit.h"
#include "compiler/build_identity.h"
#include "compiler/frontend/compile_model.h"
#include "compiler/report/report.h"
#include "compiler/tune/tune_log.h"
#include "compiler/tune/tuner.h"
#include "hls/hls_estimate.h"
#include "hls/synth_gen.h"
#include "runtime/sim_devices/make_device.h"
#include "support/hash.h"
#include "support/yaml.h"

namespace accelc::compiler::dse {

using support::error;
using support::Expected;
using support::Location;

Expected<uint64_t> inputsHash(const ModelInput& m) {
  ACCELC_ASSIGN_OR_RETURN(std::string model, support::readTextFile(m.model));
  uint64_t h = support::fnv1a64(model);
  if (m.tune > 0) h = support::fnv1a64("tune " + std::to_string(m.tune), h);
  if (m.yosys) h = support::fnv1a64("yosys", h);
  if (m.calibrate.empty()) return h;
  std::vector<std::string> files;
  std::error_code ec;
  if (std::filesystem::is_directory(m.calibrate, ec)) {
    for (const auto& e : std::filesystem::directory_iterator(m.calibrate, ec))
      if (e.path().extension() == ".npy") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(m.calibrate);
  }
  for (const std::string& f : files) {
    ACCELC_ASSIGN_OR_RETURN(std::string bytes, support::readTextFile(f));
    h = support::fnv1a64(std::filesystem::path(f).filename().string() + "\n" + bytes, h);
  }
  return h;
}

std::vector<std::string> pointOptions(const ModelInput& m) {
  std::vector<std::string> o;
  if (!m.calibrate.empty()) o.insert(o.end(), {"--calibrate", m.calibrate});
  if (m.tune > 0) o.insert(o.end(), {"--tune", std::to_string(m.tune)});
  if (m.yosys) o.push_back("--yosys");
  return o;
}

namespace {

/// The model compiled for `t`, its layers tuned first when `m` asks.
Expected<runtime::Bundle> compilePoint(const ModelInput& m, const isa::Target& t) {
  CompileOptions o;
  o.calibrate = m.calibrate;
  if (m.tune <= 0) return compileModel(m.model, t, o);
  std::vector<TunableLayer> layers;
  const TuneHooks record{nullptr, &layers};
  o.tune = &record;
  ACCELC_TRY(compileModel(m.model, t, o).status());
  tune::TuneOptions to;
  to.budgetSeconds = 1e9, to.measured = static_cast<size_t>(m.tune);  // a count, not a time: the same on every engine
  ACCELC_ASSIGN_OR_RETURN(std::vector<tune::LayerTuning> tuned, tune::tuneLayers(layers, t, to));
  const TunedSchedules choices = tune::applicable(tune::entriesOf(tuned, t.spec), t.spec, nullptr);
  const TuneHooks apply{&choices, nullptr};
  o.tune = &apply;
  return compileModel(m.model, t, o);
}

/// Synthesizes the point's core with Yosys in a folder of its own, removed afterwards, into `r`.
support::Status synthesizeCore(const isa::Target& t, PointRecord& r) {
  std::string dir = (std::filesystem::temp_directory_path() / "accelc-dse-synth-XXXXXX").string();
  if (!::mkdtemp(dir.data())) return error(Location::file(dir), "cannot make a folder for Yosys");
  const Expected<hls::Resources> res = hls::synthesize(t, hls::FpgaFamily::kXilinx7, "accelc_core", dir, false);
  std::error_code ec;
  std::filesystem::remove_all(dir, ec);
  if (!res) return res.status();
  r.synthLuts = res->luts, r.synthFfs = res->ffs, r.synthDsps = res->dsps, r.synthBrams = res->brams;
  return support::Status::ok();
}

/// Fills the measurements of `r` from compiling and running point `i`; the
/// first error is the point's.
support::Status measure(const Sweep& s, int64_t i, const ModelInput& m, PointRecord& r) {
  ACCELC_ASSIGN_OR_RETURN(hwspec::HwSpec spec, pointHwSpec(s, i));
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, isa::loadTarget(spec));
  ACCELC_ASSIGN_OR_RETURN(runtime::Bundle b, compilePoint(m, t));
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<runtime::Device> device, runtime::makeDevice(runtime::Engine::kCycle, t));
  ACCELC_ASSIGN_OR_RETURN(MeasuredSteps steps, measureSteps(b, *device, m.model));
  ACCELC_ASSIGN_OR_RETURN(BundleReport rep, bundleReport(b, t, &steps));
  r.cycles = rep.accelMeasuredCycles.value_or(0);
  r.rooflineCycles = rep.accelRooflineCycles, r.datapathCycles = rep.accelDatapathBoundCycles;
  r.macs = rep.coverage.accelMacs;
  for (const LayerRow& l : rep.layers) ++(l.where == "accelerator" ? r.accelLayers : r.hostLayers);
  hls::HlsBinding binding = hls::bindOnPart(spec);
  if (!s.board.empty()) {
    ACCELC_ASSIGN_OR_RETURN(boards::BoardSpec board, boards::loadBoard(s.board));
    binding = boards::bindingOn(board, t);
    r.fits = boards::checkFit(board, t).isOk();
  }
  const hls::HlsResources res = hls::estimateHls(t, binding);
  r.dsps = res.dsps, r.bram18 = res.bram18, r.urams = res.urams, r.luts = res.luts, r.ffs = res.ffs;
  return m.yosys ? synthesizeCore(t, r) : support::Status::ok();
}

}  // namespace

std::string pointKey(const Sweep& s, int64_t i, uint64_t inputs) {
  Expected<hwspec::HwSpec> spec = pointHwSpec(s, i);
  const std::string hardware = spec ? spec->canonicalYaml() : s.baseYaml + describePoint(s, i);
  // The board by its description (a bundled name reads as itself), not by where it lies.
  Expected<std::string> text = s.board.empty() ? Expected<std::string>(std::string()) : support::readTextFile(s.board);
  const std::string board = text ? *text : s.board;
  return support::hex64(support::fnv1a64(hardware + "\n" + support::hex64(inputs) + "\n" + board + "\n" +
                                         ACCELC_BUILD_IDENTITY));
}

PointRecord lostPoint(const Sweep& s, int64_t i, const std::string& why) {
  PointRecord r;
  r.point = i;
  const std::vector<std::string> v = pointValues(s, i);
  for (size_t a = 0; a < v.size(); ++a) r.values.emplace_back(s.axes[a].key, v[a]);
  r.error = why;
  return r;
}

Expected<PointRecord> evaluatePoint(const Sweep& s, int64_t i, const ModelInput& m) {
  if (i < 0 || i >= s.points())
    return error(Location::file(s.path), "point " + std::to_string(i) + " is not one of the sweep's " +
                                             std::to_string(s.points()));
  ACCELC_ASSIGN_OR_RETURN(uint64_t inputs, inputsHash(m));
  PointRecord r = lostPoint(s, i, "");
  r.key = pointKey(s, i, inputs);
  const support::Status st = measure(s, i, m, r);
  r.ok = st.isOk();
  if (!r.ok) r = PointRecord{r.point, r.key, r.values, false, st.diag().str()};
  return r;
}

nlohmann::ordered_json recordJson(const PointRecord& r) {
  nlohmann::ordered_json values = nlohmann::ordered_json::object();
  for (const auto& [k, v] : r.values) values[k] = v;
  nlohmann::ordered_json j{{"point", r.point}, {"key", r.key}, {"values", values}, {"ok", r.ok}};
  if (!r.ok) {
    j["error"] = r.error;
    return j;
  }
  j["cycles"] = r.cycles;
  j["roofline_cycles"] = r.rooflineCycles;
  j["datapath_cycles"] = r.datapathCycles;
  j["macs"] = r.macs;
  j["accel_layers"] = r.accelLayers;
  j["host_layers"] = r.hostLayers;
  j["resources"] = {{"dsp", r.dsps}, {"bram18", r.bram18}, {"uram", r.urams}, {"lut", r.luts}, {"ff", r.ffs}};
  j["fits"] = r.fits;
  if (r.synthLuts >= 0)
    j["yosys"] = {{"lut", r.synthLuts}, {"ff", r.synthFfs}, {"dsp", r.synthDsps}, {"bram", r.synthBrams}};
  return j;
}

Expected<PointRecord> parseRecord(const std::string& text, const std::string& where) {
  try {
    const nlohmann::ordered_json j = nlohmann::ordered_json::parse(text);
    PointRecord r;
    r.point = j.at("point").get<int64_t>();
    r.key = j.at("key").get<std::string>();
    for (const auto& [k, v] : j.at("values").items()) r.values.emplace_back(k, v.get<std::string>());
    r.ok = j.at("ok").get<bool>();
    if (!r.ok) {
      r.error = j.at("error").get<std::string>();
      return r;
    }
    r.cycles = j.at("cycles").get<uint64_t>();
    r.rooflineCycles = j.at("roofline_cycles").get<int64_t>();
    r.datapathCycles = j.at("datapath_cycles").get<int64_t>();
    r.macs = j.at("macs").get<int64_t>();
    r.accelLayers = j.at("accel_layers").get<int>();
    r.hostLayers = j.at("host_layers").get<int>();
    const nlohmann::ordered_json& res = j.at("resources");
    r.dsps = res.at("dsp").get<int64_t>(), r.bram18 = res.at("bram18").get<int64_t>();
    r.urams = res.at("uram").get<int64_t>(), r.luts = res.at("lut").get<int64_t>(), r.ffs = res.at("ff").get<int64_t>();
    r.fits = j.at("fits").get<bool>();
    if (j.contains("yosys")) {
      const nlohmann::ordered_json& y = j.at("yosys");
      r.synthLuts = y.at("lut").get<int64_t>(), r.synthFfs = y.at("ff").get<int64_t>();
      r.synthDsps = y.at("dsp").get<int64_t>(), r.synthBrams = y.at("bram").get<int64_t>();
    }
    return r;
  } catch (const nlohmann::json::exception& e) {
    return error(Location::file(where), std::string("not a point record: ") + e.what());
  }
}

}  // namespace accelc::compiler::dse
