// tools/accelc/cmd_boards.cc — accelc boards: the bundled Zynq boards, one
// board's description, and whether a hwspec's accelerator fits it.
#include <iomanip>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>

#include "boards/board_fit.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

namespace {

struct BoardsArgs {
  std::string board, hw;
  bool json = false;
};

std::string hex(uint64_t v) {
  std::ostringstream s;
  s << "0x" << std::hex << std::uppercase << v;
  return s.str();
}

nlohmann::ordered_json boardJson(const boards::BoardSpec& b) {
  nlohmann::ordered_json ports = nlohmann::json::array();
  for (const boards::AxiPort& p : b.ports) ports.push_back({{"name", p.name}, {"width_bits", p.widthBits}});
  const boards::PartResources& r = b.resources;
  return {{"name", b.name},
          {"description", b.description},
          {"part", b.part},
          {"resources", {{"dsp", r.dsp}, {"bram18", r.bram18}, {"uram", r.uram}, {"lut", r.lut}, {"ff", r.ff}}},
          {"ps", {{"type", boards::psTypeName(b.ps)}, {"ports", ports}, {"control_port", b.controlPort}}},
          {"fabric_clock_mhz", b.fabricClockMhz},
          {"ddr", {{"base", hex(b.ddrBase)}, {"bytes", b.ddrBytes}}},
          {"control_base", hex(b.controlBase)},
          {"dma", {{"allocator", boards::dmaAllocatorName(b.dma)}, {"device", b.dmaDevice}, {"pool_bytes", b.dmaPoolBytes}}}};
}

void printBoard(const boards::BoardSpec& b) {
  const boards::PartResources& r = b.resources;
  std::cout << b.name << ": " << b.description << "\n  part " << b.part << " (" << boards::psTypeName(b.ps) << "): "
            << r.dsp << " DSP, " << r.bram18 << " BRAM18, " << r.uram << " URAM, " << r.lut << " LUT, " << r.ff
            << " FF\n  DRAM master on";
  for (const boards::AxiPort& p : b.ports) std::cout << " " << p.name << " (" << p.widthBits << " bits)";
  std::cout << "; control registers at " << hex(b.controlBase) << " through " << b.controlPort << "\n  fabric clock "
            << b.fabricClockMhz << " MHz; DDR window " << hex(b.ddrBase) << " + " << (b.ddrBytes >> 20)
            << " MiB; DMA buffers from " << boards::dmaAllocatorName(b.dma) << " (" << b.dmaDevice << ", "
            << (b.dmaPoolBytes >> 20) << " MiB)\n";
}

/// The fit table of `t` on `b`, then the verdict.
support::Status printFit(const boards::BoardSpec& b, const isa::Target& t, bool json) {
  const std::vector<boards::ResourceFit> rows = boards::fitOnBoard(b, t);
  const support::Status verdict = boards::checkFit(b, t);
  if (json) {
    nlohmann::ordered_json j = boardJson(b);
    j["hwspec"] = t.spec.name;
    for (const boards::ResourceFit& r : rows)
      j["fit"].push_back({{"resource", r.resource}, {"need", r.need}, {"have", r.have}, {"fits", r.fits()}, {"how", r.note}});
    j["fits"] = verdict.isOk();
    std::cout << j.dump(2) << "\n";
    return verdict;
  }
  printBoard(b);
  std::cout << t.spec.name << " on " << b.name << ":\n";
  for (const boards::ResourceFit& r : rows)
    std::cout << "  " << std::left << std::setw(36) << r.resource << std::right << std::setw(9) << r.need << " of "
              << std::setw(9) << r.have << (r.fits() ? "  ok" : "  over") << "  (" << r.note << ")\n";
  std::cout << (verdict.isOk() ? "fits\n" : "") << std::flush;  // before the error on stderr
  return verdict;
}

support::Status boardsCommand(const BoardsArgs& a) {
  if (a.board.empty()) {
    if (!a.hw.empty()) return support::error(support::Location(), "--hw needs a board: accelc boards NAME --hw F");
    nlohmann::ordered_json list = nlohmann::json::array();
    for (const std::string& n : boards::boardNames()) {
      ACCELC_ASSIGN_OR_RETURN(boards::BoardSpec b, boards::loadBoard(n));
      if (a.json)
        list.push_back(boardJson(b));
      else
        std::cout << std::left << std::setw(12) << b.name << " " << std::setw(22) << b.part << std::right << b.description
                  << "\n";
    }
    if (a.json) std::cout << list.dump(2) << "\n";
    return support::Status::ok();
  }
  ACCELC_ASSIGN_OR_RETURN(boards::BoardSpec b, boards::loadBoard(a.board));
  if (a.hw.empty()) {
    if (a.json)
      std::cout << boardJson(b).dump(2) << "\n";
    else
      printBoard(b);
    return support::Status::ok();
  }
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, targetFor(a.hw));
  return printFit(b, t, a.json);
}

}  // namespace

void registerBoards(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand(
      "boards", "List the Zynq boards, describe one, or check whether a hwspec's accelerator fits it");
  auto a = std::make_shared<BoardsArgs>();
  cmd->add_option("board", a->board, "a bundled board (pynq-z1, ultra96-v2, zcu104, kv260) or a board YAML file");
  cmd->add_option("--hw", a->hw, "hwspec file or preset name: check that its accelerator fits the board");
  cmd->add_flag("--json", a->json, "print JSON");
  cmd->callback([a, &rc] { rc = report(boardsCommand(*a)); });
}

}  // namespace accelc::tools
