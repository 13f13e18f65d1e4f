// simulator/rtl/rtl_sim.cc — the verilated harness's text protocol.
#include "simulator/rtl/rtl_sim.h"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>

namespace accelc::simulator {

namespace {

struct Embedded {
  const char* name;  ///< file name
  const char* text;  ///< its contents
};
const Embedded kHarness[] = {
#include "simulator/rtl/harness_source.inc"
};

/// A fresh file name in the temporary folder.
std::string tempName(const char* what) {
  const char* dir = std::getenv("TMPDIR");
  std::string path = std::string(dir && *dir ? dir : "/tmp") + "/accelc-" + what + "-XXXXXX";
  const int fd = ::mkstemp(path.data());
  if (fd >= 0) ::close(fd);
  return path;
}

}  // namespace

std::string hexOf(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string hex(2 * bytes.size(), '0');
  for (size_t i = 0; i < bytes.size(); ++i) hex[2 * i] = digits[bytes[i] >> 4], hex[2 * i + 1] = digits[bytes[i] & 15];
  return hex;
}

std::string harnessInput(const isa::Target& t, const std::vector<HarnessRun>& runs) {
  std::ostringstream o;
  o << t.insnBytes() / 4 << " " << runs.size() << "\n";
  for (const HarnessRun& r : runs)
    o << r.dram->size() << " " << r.program->text().addr << " " << r.program->insnCount(t) << " " << r.cycleLimit << "\n"
      << hexOf(*r.dram) << "\n";
  return o.str();
}

const std::string& rtlHarnessSource() {
  static const std::string s = kHarness[0].text;
  return s;
}

support::Expected<RtlResult> runOnRtl(const std::string& harness, const isa::Target& t, const isa::Program& p,
                                     std::vector<uint8_t>& dram, const RtlRunOptions& o, const std::string& name) {
  const support::Location at = support::Location::file(name);
  const std::string in = tempName("rtl-in"), out = tempName("rtl-out"), err = tempName("rtl-stats");
  {
    std::ofstream f(in, std::ios::binary);
    f << harnessInput(t, {HarnessRun{&p, &dram, o.cycleLimit}});
    if (!f) return support::error(at, "cannot write the RTL run's input " + in);
  }
  std::string cmd = "'" + harness + "'" + (o.stats ? " --stats" : "") + (o.vcd.empty() ? "" : " --vcd '" + o.vcd + "'") +
                    " < '" + in + "' > '" + out + "'" + (o.stats ? " 2> '" + err + "'" : "");
  const int rc = std::system(cmd.c_str());
  std::ifstream f(out, std::ios::binary);
  std::string first, hex;
  std::getline(f, first);
  std::getline(f, hex);
  RtlResult r;
  // The statistics line: "rtl: N cycles in S s, R cycles/s".
  std::ifstream statsLine(err);
  for (std::string w; statsLine >> w;)
    if (w == "in" && statsLine >> r.seconds) break;
  std::remove(in.c_str());
  std::remove(out.c_str());
  std::remove(err.c_str());
  if (rc != 0) return support::error(at, "the verilated RTL (" + harness + ") failed with status " + std::to_string(rc));
  if (first == "stuck")
    return support::error(at, "the RTL did not reach FINISH within " + std::to_string(o.cycleLimit) + " cycles");
  if (first.rfind("dram ", 0) == 0)
    return support::error(at, "a DMA beat of the RTL left the DRAM window at byte " + first.substr(5));
  if (first.empty() || hex.size() != 2 * dram.size())
    return support::error(at, "the verilated RTL answered '" + first + "' instead of a cycle count and the DRAM window");
  auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (size_t i = 0; i < dram.size(); ++i) dram[i] = static_cast<uint8_t>(digit(hex[2 * i]) << 4 | digit(hex[2 * i + 1]));
  r.cycles = static_cast<uint64_t>(std::stoull(first));
  return r;
}

}  // namespace accelc::simulator
