// tools/accelc/cmd_rtl.cc — accelc rtl and accelc synth: the accelerator's
// SystemVerilog for a hwspec, and its open synthesis with Yosys.
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "hls/ice40_board.h"
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
  // The whole core: the hwspec's own estimate of block RAMs and DSPs beside.
  const bool estimate = a.top == "accelc_core";
  const hls::Resources e = family == hls::FpgaFamily::kIce40 ? hls::estimateIce40(t) : hls::estimateXilinx7(t);
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

struct BitstreamArgs {
  std::string program, out;
  bool json = false;
};

/// Runs `cmd` in `dir`; its output goes to its log.
int runIn(const std::string& dir, const std::string& cmd) { return std::system(("cd '" + dir + "' && " + cmd).c_str()); }

/// The program's UP5K board through Yosys, nextpnr-ice40 and icepack; prints
/// nextpnr's utilization and achieved clock.
support::Status bitstream(const BitstreamArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(isa::Program p, isa::loadProgramFile(a.program));
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, isa::programTarget(p, a.program));
  ACCELC_TRY(isa::validateProgram(p, t, a.program));
  ACCELC_TRY(hls::writeIce40Board(t, p, a.program, a.out));
  if (runIn(a.out, "yosys -q -l yosys_board.log -s synth_board.ys > /dev/null 2>&1") != 0)
    return support::error(support::Location::file(a.out + "/synth_board.ys"), "yosys failed; its log is " + a.out + "/yosys_board.log");
  const std::string log = a.out + "/nextpnr.log";
  const int pnr = runIn(a.out, "nextpnr-ice40 --up5k --package sg48 --json accelc_board.json --pcf accelc_ice40.pcf "
                               "--asc accelc_board.asc --freq " + std::to_string(t.spec.clockMhz) +
                               " --timing-allow-fail -q -l nextpnr.log > /dev/null 2>&1");
  std::ifstream in(log);
  std::stringstream text;
  text << in.rdbuf();
  auto parsed = hls::pnrReportOf(text.str(), log);
  if (!parsed && pnr != 0)  // it stopped before packing: no utilization to show
    return support::error(support::Location::file(log), "nextpnr-ice40 failed before packing; see its log");
  ACCELC_ASSIGN_OR_RETURN(hls::PnrReport r, std::move(parsed));
  if (a.json) {
    nlohmann::ordered_json j{{"hwspec", t.spec.name}, {"program", a.program}, {"fits", r.fits}, {"fmax_mhz", r.fmaxMhz}};
    for (const hls::BelUse& u : r.utilization) j["utilization"][u.bel] = {{"used", u.used}, {"available", u.available}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "accelc_ice40_top for " << t.spec.name << " on an iCE40 UP5K (nextpnr-ice40):\n";
    for (const hls::BelUse& u : r.utilization)
      if (u.used > 0) std::cout << "  " << u.bel << " " << u.used << " of " << u.available << "\n";
  }
  if (!r.fits) {
    std::string over;
    for (const hls::BelUse& u : r.utilization)
      if (u.used > u.available)
        over += (over.empty() ? "" : ", ") + u.bel + " " + std::to_string(u.used) + " of " + std::to_string(u.available);
    return support::error(support::Location::file(log), "the design does not fit the UP5K: " + over);
  }
  if (pnr != 0) return support::error(support::Location::file(log), "nextpnr-ice40 failed");
  if (!a.json)
    std::cout << "achieved clock " << r.fmaxMhz << " MHz (the hwspec's clock_mhz: " << t.spec.clockMhz << ")"
              << (r.fmaxMhz < t.spec.clockMhz ? ": the board must be clocked slower than the hwspec says\n" : "\n");
  if (runIn(a.out, "icepack accelc_board.asc accelc_board.bin > icepack.log 2>&1") != 0)
    return support::error(support::Location::file(a.out + "/icepack.log"), "icepack failed");
  if (!a.json) std::cout << "wrote " << a.out << "/accelc_board.bin\n";
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

namespace accelc::tools {

void registerBitstream(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand(
      "bitstream", "Build an iCE40 UP5K bitstream of the accelerator with a program preloaded (Yosys, nextpnr-ice40, icepack)");
  auto a = std::make_shared<BitstreamArgs>();
  cmd->add_option("program", a->program, "program (.bin) whose DRAM image the bitstream holds; its hwspec is the design")
      ->required();
  cmd->add_option("-o,--out", a->out, "output folder: the RTL, the top level, the logs and accelc_board.bin")->required();
  cmd->add_flag("--json", a->json, "print JSON");
  cmd->callback([a, &rc] { rc = report(bitstream(*a)); });
}

}  // namespace accelc::tools
