// boards/board_spec.h — the Zynq boards an accelerator can be built for,
// each described by one YAML file (boards/*.yaml, docs/boards.md).
//
// A BoardSpec is a plain value built only by parseBoardSpec()/loadBoard(),
// which check every key with located errors (file:line:col and the dotted
// key): an unknown or missing key, a wrong type, an unknown part. The part's
// resources come from the part catalog (partInfo), so that a board file names
// its part and cannot misstate what the part holds.
#ifndef ACCELC_BOARDS_BOARD_SPEC_H_
#define ACCELC_BOARDS_BOARD_SPEC_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/target.h"
#include "support/status.h"

namespace accelc::boards {

/// The newest board schema this build reads.
inline constexpr int kBoardSchemaVersion = 1;

/// The processing system of a Zynq part.
enum class PsType { kZynq7000, kZynqUltraScalePlus };
const char* psTypeName(PsType t);

/// What a part holds (Xilinx data sheets DS190 and DS891).
struct PartResources {
  int64_t dsp = 0;     ///< DSP48E1 (7-series) or DSP48E2 (UltraScale+) slices
  int64_t bram18 = 0;  ///< 18 Kb block RAMs (two per RAMB36)
  int64_t uram = 0;    ///< 288 Kb UltraRAMs
  int64_t lut = 0;     ///< 6-input LUTs
  int64_t ff = 0;      ///< flip-flops
};

/// One part of the catalog.
struct PartInfo {
  const char* name;     ///< the full part name, e.g. "xc7z020clg400-1"
  PsType ps;            ///< its processing system
  PartResources res;
};

/// The catalog entry of `part`, or nothing.
std::optional<PartInfo> partInfo(const std::string& part);
/// Every part of the catalog.
const std::vector<PartInfo>& partCatalog();

/// An AXI slave port of the PS that the accelerator's DRAM master uses.
struct AxiPort {
  std::string name;       ///< e.g. "S_AXI_HP0"
  int64_t widthBits = 0;  ///< its data width
};

/// How the board's Linux image allocates DMA buffers.
enum class DmaAllocator { kCma, kUdmabuf };
const char* dmaAllocatorName(DmaAllocator a);

/// A validated board.
struct BoardSpec {
  std::string name, description;
  std::string part;
  PartResources resources;      ///< the part's, from the catalog
  PsType ps = PsType::kZynq7000;
  std::vector<AxiPort> ports;   ///< at least one
  std::string controlPort;      ///< the PS master that reaches the control registers
  int64_t fabricClockMhz = 0;
  uint64_t ddrBase = 0, ddrBytes = 0;  ///< the DDR window the accelerator may address
  uint64_t controlBase = 0;            ///< the control registers' base address
  DmaAllocator dma = DmaAllocator::kCma;
  std::string dmaDevice;               ///< e.g. /dev/udmabuf0
  int64_t dmaPoolBytes = 0;
  std::string sourcePath;              ///< the file it was read from
};

/// Parses board YAML `text`; `path` names it in diagnostics.
support::Expected<BoardSpec> parseBoardSpec(const std::string& text, const std::string& path);
/// A bundled board by name ("pynq-z1") or a board YAML file by path.
support::Expected<BoardSpec> loadBoard(const std::string& nameOrPath);
/// The bundled boards' names, sorted.
std::vector<std::string> boardNames();

}  // namespace accelc::boards

#endif  // ACCELC_BOARDS_BOARD_SPEC_H_
