// boards/board_spec.cc — board YAML, the part catalog and the fit check.
#include "boards/board_spec.h"

#include <algorithm>

#include "support/yaml.h"

namespace accelc::boards {

using support::error;
using support::Expected;
using support::Location;
using support::Status;
using support::YamlMap;

namespace {

struct Embedded {
  const char* name;  ///< file name without .yaml
  const char* text;  ///< the YAML text
};
const Embedded kBoards[] = {
#include "boards/zynq_boards.inc"
};

/// The kinds named in board files, and their spellings.
Expected<PsType> psTypeOf(YamlMap& m, const std::string& key) {
  ACCELC_ASSIGN_OR_RETURN(std::string s, m.string(key));
  for (PsType t : {PsType::kZynq7000, PsType::kZynqUltraScalePlus})
    if (s == psTypeName(t)) return t;
  return error(m.valueLoc(key), "key '" + m.dotted(key) + "': expected zynq-7000 or zynq-ultrascale+, found '" +
                                    support::printable(s) + "'");
}

Expected<DmaAllocator> allocatorOf(YamlMap& m, const std::string& key) {
  ACCELC_ASSIGN_OR_RETURN(std::string s, m.string(key));
  for (DmaAllocator a : {DmaAllocator::kCma, DmaAllocator::kUdmabuf})
    if (s == dmaAllocatorName(a)) return a;
  return error(m.valueLoc(key), "key '" + m.dotted(key) + "': expected cma or udmabuf, found '" +
                                    support::printable(s) + "'");
}

/// The part named at `part`, from the catalog.
Status readPart(YamlMap& m, BoardSpec& b) {
  ACCELC_ASSIGN_OR_RETURN(b.part, m.string("part"));
  const std::optional<PartInfo> p = partInfo(b.part);
  if (!p) {
    std::string known;
    for (const PartInfo& i : partCatalog()) known += std::string(known.empty() ? "" : ", ") + i.name;
    return error(m.valueLoc("part"), "key 'part': unknown part '" + support::printable(b.part) + "'; the known parts are " + known);
  }
  b.resources = p->res;
  return Status::ok();
}

/// ps: type, ports (each a name and a width), control_port; the type must be the part's.
Status readPs(YamlMap& root, BoardSpec& b) {
  ACCELC_ASSIGN_OR_RETURN(YamlMap ps, root.map("ps"));
  ACCELC_ASSIGN_OR_RETURN(b.ps, psTypeOf(ps, "type"));
  if (b.ps != partInfo(b.part)->ps)
    return error(ps.valueLoc("type"), "key 'ps.type': part " + b.part + " has a " + psTypeName(partInfo(b.part)->ps) +
                                          " processing system");
  const YAML::Node ports = ps.raw("ports");
  if (!ports.IsSequence() || ports.size() == 0)
    return error(ps.valueLoc("ports"), "key 'ps.ports': expected a list of at least one {name, width_bits}");
  for (size_t i = 0; i < ports.size(); ++i) {
    ACCELC_ASSIGN_OR_RETURN(YamlMap p, YamlMap::of(ports[i], ps.path(), "ps.ports[" + std::to_string(i) + "]"));
    AxiPort port;
    ACCELC_ASSIGN_OR_RETURN(port.name, p.string("name"));
    ACCELC_ASSIGN_OR_RETURN(port.widthBits, p.integer("width_bits", 32, 1024));
    if (port.widthBits & (port.widthBits - 1))
      return error(p.valueLoc("width_bits"), "key '" + p.dotted("width_bits") + "': expected a power of two, found " +
                                                 std::to_string(port.widthBits));
    ACCELC_TRY(p.finish());
    b.ports.push_back(std::move(port));
  }
  ACCELC_ASSIGN_OR_RETURN(b.controlPort, ps.string("control_port"));
  return ps.finish();
}

Status readMemory(YamlMap& root, BoardSpec& b) {
  ACCELC_ASSIGN_OR_RETURN(YamlMap ddr, root.map("ddr"));
  ACCELC_ASSIGN_OR_RETURN(int64_t base, ddr.integer("base", 0, int64_t{1} << 44));
  ACCELC_ASSIGN_OR_RETURN(int64_t bytes, ddr.bytes("bytes"));
  if (bytes <= 0) return error(ddr.valueLoc("bytes"), "key 'ddr.bytes': expected a positive size");
  ACCELC_TRY(ddr.finish());
  b.ddrBase = static_cast<uint64_t>(base), b.ddrBytes = static_cast<uint64_t>(bytes);
  ACCELC_ASSIGN_OR_RETURN(int64_t control, root.integer("control_base", 0, int64_t{1} << 44));
  b.controlBase = static_cast<uint64_t>(control);
  ACCELC_ASSIGN_OR_RETURN(YamlMap dma, root.map("dma"));
  ACCELC_ASSIGN_OR_RETURN(b.dma, allocatorOf(dma, "allocator"));
  ACCELC_ASSIGN_OR_RETURN(b.dmaDevice, dma.string("device"));
  if (b.dmaDevice.rfind("/dev/", 0) != 0)
    return error(dma.valueLoc("device"), "key 'dma.device': expected a device file under /dev/, found '" +
                                             support::printable(b.dmaDevice) + "'");
  ACCELC_ASSIGN_OR_RETURN(b.dmaPoolBytes, dma.bytes("pool_bytes"));
  // The pool's buffers are what the accelerator addresses, inside the DDR window (a size is positive).
  if (static_cast<uint64_t>(b.dmaPoolBytes) > b.ddrBytes)
    return error(dma.valueLoc("pool_bytes"), "key 'dma.pool_bytes': expected at most ddr.bytes (" +
                                                 std::to_string(b.ddrBytes) + "), found " +
                                                 std::to_string(b.dmaPoolBytes));
  return dma.finish();
}

Status readBoard(YamlMap& r, BoardSpec& b) {
  ACCELC_ASSIGN_OR_RETURN(int64_t schema, r.integerOr("schema", kBoardSchemaVersion, 1, 1 << 20));
  if (schema > kBoardSchemaVersion)
    return error(r.valueLoc("schema"), "schema version " + std::to_string(schema) + " is newer than this accelc reads (" +
                                           std::to_string(kBoardSchemaVersion) + ")");
  ACCELC_ASSIGN_OR_RETURN(b.name, r.string("name"));
  if (b.name.empty() || b.name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789-") != std::string::npos)
    return error(r.valueLoc("name"), "key 'name': expected lower-case letters, digits and '-', found '" +
                                         support::printable(b.name) + "'");
  ACCELC_ASSIGN_OR_RETURN(b.description, r.string("description"));
  ACCELC_TRY(readPart(r, b));
  ACCELC_TRY(readPs(r, b));
  ACCELC_ASSIGN_OR_RETURN(b.fabricClockMhz, r.integer("fabric_clock_mhz", 1, 1000));
  ACCELC_TRY(readMemory(r, b));
  return r.finish();
}

}  // namespace

const char* psTypeName(PsType t) {
  switch (t) {
    case PsType::kZynq7000:
      return "zynq-7000";
    case PsType::kZynqUltraScalePlus:
      return "zynq-ultrascale+";
  }
  return "?";
}

const char* dmaAllocatorName(DmaAllocator a) {
  switch (a) {
    case DmaAllocator::kCma:
      return "cma";
    case DmaAllocator::kUdmabuf:
      return "udmabuf";
  }
  return "?";
}

const std::vector<PartInfo>& partCatalog() {
  // DS190 (Zynq-7000) and DS891 (Zynq UltraScale+): DSP slices, 18 Kb block RAMs (2 per 36 Kb), UltraRAMs,
  // LUTs and flip-flops. The K26 SOM's XCK26 holds what an XCZU5EV holds.
  static const std::vector<PartInfo> kParts = {
      {"xc7z020clg400-1", PsType::kZynq7000, {220, 280, 0, 53200, 106400}},
      {"xczu3eg-sbva484-1-i", PsType::kZynqUltraScalePlus, {360, 432, 0, 70560, 141120}},
      {"xczu7ev-ffvc1156-2-e", PsType::kZynqUltraScalePlus, {1728, 624, 96, 230400, 460800}},
      {"xck26-sfvc784-2LV-c", PsType::kZynqUltraScalePlus, {1248, 288, 64, 117120, 234240}},
  };
  return kParts;
}

std::optional<PartInfo> partInfo(const std::string& part) {
  for (const PartInfo& p : partCatalog())
    if (part == p.name) return p;
  return std::nullopt;
}

Expected<BoardSpec> parseBoardSpec(const std::string& text, const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(YAML::Node doc, support::parseYaml(text, path));
  ACCELC_ASSIGN_OR_RETURN(YamlMap root, YamlMap::of(doc, path, ""));
  BoardSpec b;
  b.sourcePath = path;
  ACCELC_TRY(readBoard(root, b));
  return b;
}

std::vector<std::string> boardNames() {
  std::vector<std::string> names;
  for (const Embedded& e : kBoards) names.push_back(e.name);
  std::sort(names.begin(), names.end());
  return names;
}

Expected<BoardSpec> loadBoard(const std::string& nameOrPath) {
  for (const Embedded& e : kBoards)
    if (nameOrPath == e.name) return parseBoardSpec(e.text, std::string("boards/") + e.name + ".yaml");
  if (support::isRegularFile(nameOrPath)) {
    ACCELC_ASSIGN_OR_RETURN(std::string text, support::readTextFile(nameOrPath));
    return parseBoardSpec(text, nameOrPath);
  }
  std::string known;
  for (const std::string& n : boardNames()) known += (known.empty() ? "" : ", ") + n;
  return error(Location::file(nameOrPath), "no such board or board file; the bundled boards are " + known);
}

}  // namespace accelc::boards
