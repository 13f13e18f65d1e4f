// tools/accelc/cmd_rtl.cc — accelc rtl, hls and synth: the accelerator's
// SystemVerilog and HLS C++ for a hwspec, and its open synthesis with Yosys.
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "boards/board_spec.h"
#include "boards/ice40/flow.h"
#include "boards/zynq/project.h"
#include "hls/hls_gen.h"
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

/// Synthesizes the RTL with Yosys (hls::synthesize) and prints the resources.
support::Status synth(const SynthArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, targetFor(a.hw));
  ACCELC_ASSIGN_OR_RETURN(hls::FpgaFamily family, hls::fpgaFamily(a.target));
  if (a.noShare && family != hls::FpgaFamily::kIce40)
    return support::error(support::Location(), "--no-share is for --target ice40");
  ACCELC_ASSIGN_OR_RETURN(hls::Resources r, hls::synthesize(t, family, a.top, a.out, !a.noShare));
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

/// The program's UP5K board through Yosys, nextpnr-ice40 and icepack
/// (boards/ice40/flow.h); prints nextpnr's utilization and achieved clock.
support::Status bitstream(const BitstreamArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(isa::CheckedProgram checked, isa::loadCheckedProgram(a.program));
  const isa::Program& p = checked.program;
  const isa::Target& t = checked.target;
  ACCELC_ASSIGN_OR_RETURN(boards::PlacedBoard b, boards::placeAndRoute(t, p, a.program, a.out));
  const boards::PnrReport& r = b.report;
  if (a.json) {
    nlohmann::ordered_json j{{"hwspec", t.spec.name}, {"program", a.program}, {"fits", r.fits}, {"fmax_mhz", r.fmaxMhz}};
    for (const boards::BelUse& u : r.utilization) j["utilization"][u.bel] = {{"used", u.used}, {"available", u.available}};
    std::cout << j.dump(2) << "\n";
  } else {
    std::cout << "accelc_ice40_top for " << t.spec.name << " on an iCE40 UP5K (nextpnr-ice40, seed "
              << boards::kNextpnrSeed << "):\n";
    for (const boards::BelUse& u : r.utilization)
      if (u.used > 0) std::cout << "  " << u.bel << " " << u.used << " of " << u.available << "\n";
  }
  ACCELC_TRY(boards::checkPlaced(b));
  if (!a.json)
    std::cout << "achieved clock " << r.fmaxMhz << " MHz (the hwspec's clock_mhz: " << t.spec.clockMhz << ")"
              << (r.fmaxMhz < t.spec.clockMhz ? ": the board must be clocked slower than the hwspec says\n" : "\n");
  ACCELC_TRY(boards::packBitstream(a.out));
  if (!a.json) std::cout << "wrote " << a.out << "/accelc_board.bin\n";
  return support::Status::ok();
}

}  // namespace

void registerRtl(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("rtl", "Write the accelerator's SystemVerilog and its parameter packages for a hwspec");
  auto hw = std::make_shared<std::string>("vta-default");
  auto out = std::make_shared<std::string>();
  auto opts = std::make_shared<hls::RtlOptions>();
  cmd->add_option("--hw", *hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("-o,--out", *out, "output folder")->required();
  cmd->add_flag("--axi", opts->axi,
                "also write the Zynq IP's top, accelc_axi: the control registers on an AXI4-Lite slave and DRAM on an "
                "AXI4 master (docs/microarchitecture.md), and package_ip.tcl, which packages it for Vivado");
  cmd->callback([hw, out, opts, &rc] {
    auto t = targetFor(*hw);
    support::Status st = t ? hls::writeRtl(*t, *out, *opts) : t.status();
    if (st.isOk())
      for (const std::string& f : hls::rtlFiles(*opts)) std::cout << *out << "/" << f << "\n";
    if (st.isOk() && opts->axi) std::cout << *out << "/package_ip.tcl\n";
    rc = report(st);
  });
}

void registerHls(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand(
      "hls", "Write the accelerator's Vitis HLS C++ for a hwspec; with --board, the whole Vitis HLS and Vivado project");
  auto hw = std::make_shared<std::string>("vta-default");
  auto board = std::make_shared<std::string>();
  auto out = std::make_shared<std::string>();
  cmd->add_option("--hw", *hw, "hwspec file or preset name")->capture_default_str();
  cmd->add_option("--board", *board,
                  "a Zynq board (accelc boards) or board file: refuse a hwspec that does not fit it, bind the "
                  "multipliers and buffers for its part, and write the flow scripts, the test bench and a Makefile");
  cmd->add_option("-o,--out", *out, "output folder")->required();
  cmd->callback([hw, board, out, &rc] {
    auto files = [&]() -> support::Expected<std::vector<std::string>> {
      ACCELC_ASSIGN_OR_RETURN(isa::Target t, targetFor(*hw));
      if (board->empty()) {
        ACCELC_TRY(hls::writeHls(t, *out));
        return hls::hlsFiles();
      }
      ACCELC_ASSIGN_OR_RETURN(boards::BoardSpec b, boards::loadBoard(*board));
      return boards::writeZynqProject(b, t, *out);
    }();
    if (files)
      for (const std::string& f : *files) std::cout << *out << "/" << f << "\n";
    rc = report(files.status());
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
