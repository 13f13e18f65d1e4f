// hwspec/hwspec.h — the accelerator described by one YAML file, validated.
//
// HwSpec is a plain value: pass it explicitly, keep as many as you like. It is
// built only by loadHwSpec(), which checks every key (docs/hwspec.md) and
// keeps the YAML location of each so that later layers (the ISA loader, the
// compiler) can point at the key that causes a problem. Everything else in
// accelc — field widths, buffer depths, timing, RTL parameters — derives
// from it; nothing hard-codes a size.
#ifndef ACCELC_HWSPEC_HWSPEC_H_
#define ACCELC_HWSPEC_HWSPEC_H_

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "support/status.h"

namespace accelc::hwspec {

/// The newest schema version this build reads; older versions still load.
inline constexpr int kSchemaVersion = 1;

/// Element types of the datapath (v1 accepts exactly int8/int8/int32/int8).
enum class ElemType { kInt8, kInt32 };

/// The on-chip buffers, in ISA order of their names.
#define ACCELC_BUFFERS(X) X(kUop, "uop") X(kInput, "input") X(kWeight, "weight") X(kAcc, "acc") X(kOutput, "output")
enum class BufferKind {
#define ACCELC_BUFFER_ENUM(e, n) e,
  ACCELC_BUFFERS(ACCELC_BUFFER_ENUM)
#undef ACCELC_BUFFER_ENUM
};
inline constexpr int kNumBuffers = 5;
const char* bufferKindName(BufferKind b);

/// The micro-architectural timing parameters (docs/microarchitecture.md).
struct Timing {
  int64_t gemmIi = 1;          ///< cycles between GEMM micro-ops
  int64_t aluIi = 2;           ///< cycles between ALU micro-ops
  int64_t pipelineDepth = 4;   ///< compute pipeline stages
  int64_t accHazard = 4;       ///< min micro-op distance between writes/reads of one acc row
  int64_t maxBurst = 256;      ///< bytes per DRAM burst
  int64_t outstanding = 8;     ///< DRAM requests in flight per port
};

/// A validated hardware description. Construct with loadHwSpec().
struct HwSpec {
  int schema = kSchemaVersion;   ///< schema version the file was written for
  std::string name;              ///< e.g. "vta-default"
  int64_t clockMhz = 0;          ///< target clock
  int64_t batch = 0;             ///< GEMM core rows
  int64_t blockIn = 0;           ///< GEMM reduction width
  int64_t blockOut = 0;          ///< GEMM output columns
  ElemType inputType = ElemType::kInt8;
  ElemType weightType = ElemType::kInt8;
  ElemType accType = ElemType::kInt32;
  ElemType outputType = ElemType::kInt8;
  int64_t bufferBytes[kNumBuffers] = {};  ///< capacity per BufferKind
  int64_t dramBytesPerCycle = 0;  ///< DRAM bus width
  int64_t dramLatency = 0;        ///< cycles from request to first beat
  int64_t dramAddrBits = 0;       ///< width of DRAM addresses in instructions
  int64_t dramWindowBytes = 0;    ///< size of the device DRAM window
  bool dramSplit4k = false;       ///< no DRAM burst crosses a 4 KiB boundary (AXI): bursts are also cut there
  int64_t commandDepth = 0;       ///< entries per command queue
  int64_t tokenDepth = 0;         ///< entries per dependency-token queue
  std::vector<std::string> aluOps;  ///< ALU operations the hardware implements
  Timing timing;                  ///< timing parameters
  std::string isaFile;            ///< ISA description, e.g. "vta.isa.yaml"
  int64_t insnBits = 0;           ///< instruction word width (128 or 256)
  int64_t uopBits = 0;            ///< micro-op word width (32 or 64)

  std::string sourcePath;         ///< file it was read from (for locations)
  std::string sourceDir;          ///< directory of that file ("" for presets)
  std::map<std::string, support::Location> keyLocs;  ///< dotted key -> where written

  // ---- derived quantities ----
  /// Bits of one element of each datapath type.
  static int elemBits(ElemType t) { return t == ElemType::kInt8 ? 8 : 32; }
  /// Bytes of one entry (one row) of buffer `b`.
  int64_t entryBytes(BufferKind b) const;
  /// Entries in buffer `b` (a power of two).
  int64_t depth(BufferKind b) const { return bufferBytes[static_cast<int>(b)] / entryBytes(b); }
  /// log2(depth(b)): bits of an index into buffer `b`.
  int64_t indexBits(BufferKind b) const;
  /// MACs the GEMM core completes per cycle at its initiation interval.
  int64_t peakMacsPerCycle() const { return batch * blockIn * blockOut / timing.gemmIi; }
  /// Location of a dotted key, or the file when unknown.
  support::Location locOf(const std::string& key) const;
  /// The canonical YAML form: every key (dram.split_4k only when true), fixed order, no comments.
  std::string canonicalYaml() const;
  /// Whether the ALU implements `op`.
  bool hasAluOp(const std::string& op) const;
};

/// Reads and validates a hwspec from YAML text; `path` names it in errors.
support::Expected<HwSpec> parseHwSpec(const std::string& text, const std::string& path);
/// Reads and validates `pathOrPreset`: a file, or the name of a bundled preset.
support::Expected<HwSpec> loadHwSpec(const std::string& pathOrPreset);
/// Names of the bundled presets.
std::vector<std::string> presetNames();
/// The YAML text of a bundled preset, or "" when there is none by that name.
std::string presetText(const std::string& name);

}  // namespace accelc::hwspec

#endif  // ACCELC_HWSPEC_HWSPEC_H_
