// boards/zynq/project.cc — fit, sources, scripts and the test bench's data.
#include "boards/zynq/project.h"

#include <fstream>

#include "hls/hls_gen.h"
#include "hls/rtl_gen.h"
#include "isa/random_program.h"
#include "simulator/functional/fsim.h"
#include "support/yaml.h"

namespace accelc::boards {

namespace {

support::Status writeBytes(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream f(path, std::ios::binary);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) return support::error(support::Location::file(path), "cannot write the file");
  return support::Status::ok();
}

/// tb/: a random program's DRAM window before and after fsim runs it, and where its text is.
support::Status writeTestBenchData(const isa::Target& t, const std::string& dir) {
  ACCELC_ASSIGN_OR_RETURN(isa::Program p, isa::randomProgram(t, 1));
  simulator::FunctionalSim sim(t);
  ACCELC_TRY(sim.loadProgram(p));
  std::vector<uint8_t> before(p.window), after(p.window);
  ACCELC_TRY(sim.read(0, before.data(), before.size()));
  ACCELC_TRY(sim.run(p, "tb").status());
  ACCELC_TRY(sim.read(0, after.data(), after.size()));
  ACCELC_TRY(writeBytes(dir + "/tb/dram.bin", before));
  ACCELC_TRY(writeBytes(dir + "/tb/expected.bin", after));
  return support::writeTextFile(dir + "/tb/run.txt", std::to_string(p.text().addr) + " " +
                                                         std::to_string(p.insnCount(t)) + " " + std::to_string(p.window) +
                                                         "\n");
}

}  // namespace

hls::FlowBoard flowBoard(const BoardSpec& b, const isa::Target& t) {
  hls::FlowBoard f;
  f.name = b.name, f.part = b.part, f.mpsoc = b.ps == PsType::kZynqUltraScalePlus;
  f.controlPort = b.controlPort, f.fabricClockMhz = b.fabricClockMhz, f.controlBase = b.controlBase;
  for (const AxiPort& p : b.ports)
    if (f.dramPort.empty() && p.widthBits >= 8 * t.spec.dramBytesPerCycle) f.dramPort = p.name, f.dramPortBits = p.widthBits;
  return f;
}

support::Expected<std::vector<std::string>> writeZynqProject(const BoardSpec& b, const isa::Target& t,
                                                             const std::string& dir) {
  ACCELC_TRY(checkFit(b, t));
  ACCELC_TRY(hls::writeHls(t, dir, bindingOn(b, t)));
  // The RTL's IP goes beside the HLS one when the AXI wrapper implements the
  // hwspec; the HLS flow does not depend on it.
  hls::FlowBoard flow = flowBoard(b, t);
  const hls::RtlOptions axi{true};
  flow.rtlIp = hls::axiSupports(t.spec).isOk();
  if (flow.rtlIp) ACCELC_TRY(hls::writeRtl(t, dir + "/rtl", axi));
  ACCELC_TRY(hls::writeFlow(t, flow, dir));
  ACCELC_TRY(writeTestBenchData(t, dir));
  std::vector<std::string> files = hls::hlsFiles();
  for (const std::string& f : hls::flowFiles()) files.push_back(f);
  if (flow.rtlIp) {
    for (const std::string& f : hls::rtlFiles(axi)) files.push_back("rtl/" + f);
    files.push_back("rtl/package_ip.tcl");
  }
  return files;
}

}  // namespace accelc::boards
