// tools/accelc/cmd_rtl.cc — accelc rtl and accelc synth: the accelerator's
// SystemVerilog for a hwspec, and its open synthesis with Yosys.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "hls/rtl_gen.h"
#include "hls/synth_gen.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

namespace {

struct SynthArgs {
  std::string hw = "vta-default", target = "ice40", top = "accelc_dram_port", out;
  bool json = false;
  bool noShare = false;  ///< skip Yosys's SAT-based resource sharing
};

/// Writes the RTL and a Yosys script into `a.out`, runs Yosys, prints the resources.
support::Status synth(const SynthArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, targetFor(a.hw));
  ACCELC_ASSIGN_OR_RETURN(hls::FpgaFamily family, hls::fpgaFamily(a.target));
  ACCELC_TRY(hls::writeRtl(t, a.out));
  const std::string script = a.out + "/synth_" + a.target + ".ys", stat = a.out + "/stat_" + a.target + ".txt";
  const std::string log = a.out + "/yosys_" + a.target + ".log";
  if (a.noShare && family != hls::FpgaFamily::kIce40)
    return support::error(support::Location(), "--no-share is for --target ice40");
  std::ofstream(script) << hls::yosysScript(hls::rtlFiles(), a.top, family, "stat_" + a.target + ".txt", !a.noShare);
  const std::string cmd = "cd '" + a.out + "' && yosys -q -l 'yosys_" + a.target + ".log' -s 'synth_" + a.target +
                          ".ys' > /dev/null 2>&1";
  if (std::system(cmd.c_str()) != 0)
    return support::error(support::Location::file(script), "yosys failed; its log is " + log);
  std::ifstream in(stat);
  std::stringstream text;
  text << in.rdbuf();
  ACCELC_ASSIGN_OR_RETURN(hls::Resources r, hls::resourcesOf(text.str(), family, stat));
  const std::pair<const char*, int64_t> rows[] = {{"luts", r.luts},       {"ffs", r.ffs},         {"dsps", r.dsps},
                                                  {"brams", r.brams},     {"lutrams", r.lutrams}, {"carries", r.carries},
                                                  {"cells", r.cells}};
  // The whole core on iCE40: the hwspec's own estimate of block RAMs and DSPs beside.
  const bool estimate = a.top == "accelc_core" && family == hls::FpgaFamily::kIce40;
  const hls::Resources e = hls::estimateIce40(t);
  if (a.json) {
    nlohmann::ordered_json j{{"hwspec", t.spec.name}, {"target", a.target}, {"top", a.top}};
    for (const auto& [k, v] : rows) j[k] = v;
    if (estimate) j["estimate"] = {{"dsps", e.dsps}, {"brams", e.brams}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << a.top << " for " << t.spec.name << " on " << a.target << ":\n";
    for (const auto& [k, v] : rows) std::cout << "  " << k << " " << v << "\n";
    if (estimate) std::cout << "estimate from the hwspec: " << e.dsps << " dsps, " << e.brams << " brams\n";
  }
  return support::Status::ok();
}

}  // namespace

void registerRtl(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("rtl", "Write the accelerator's SystemVerilog and its parameter packages for a hwspec");
  auto hw = std::make_shared<std::string>("vta-default");
  auto out = std::make_shared<std::string>();
  cmd->add_option("--hw", *hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("-o,--out", *out, "output folder")->required();
  cmd->callback([hw, out, &rc] {
    auto t = targetFor(*hw);
    support::Status st = t ? hls::writeRtl(*t, *out) : t.status();
    if (st.isOk())
      for (const std::string& f : hls::rtlFiles()) std::cout << *out << "/" << f << "\n";
    rc = report(st);
  });
}

void registerSynth(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("synth", "Synthesize the RTL with Yosys and report LUTs, flip-flops, DSPs and block RAMs");
  auto a = std::make_shared<SynthArgs>();
  cmd->add_option("--hw", a->hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("--target", a->target, "ice40 (synth_ice40) or xilinx (synth_xilinx, 7 series)")
      ->check(CLI::IsMember({"ice40", "xilinx"}))
      ->capture_default_str();
  cmd->add_option("--top", a->top, "top module")->capture_default_str();
  cmd->add_option("-o,--out", a->out, "output folder: the RTL, the Yosys script, its log and report")->required();
  cmd->add_flag("--json", a->json, "print JSON");
  cmd->add_flag("--no-share", a->noShare,
                "ice40: skip Yosys's resource sharing (slow on large ALUs; the counts are an upper bound)");
  cmd->callback([a, &rc] { rc = report(synth(*a)); });
}

}  // namespace accelc::tools
