// isa/program.h — the program container: a DRAM image plus metadata.
//
// A program is what every engine runs. Its instructions and micro-ops live in
// DRAM like its data (fetch reads the text segment; micro-ops reach their
// buffer only through LOAD). Every address is a byte offset from the device's
// DRAM base register, inside a window of `window` bytes. The container also
// carries the symbol table (name -> address, dtype, shape, role), the label
// table (instruction range -> name, e.g. a layer), and the canonical HwSpec and
// ISA it was built for with their hash, so that it can be checked and run
// without any other file. The binary form (sections with checksums) is
// described in docs/formats.md.
#ifndef ACCELC_ISA_PROGRAM_H_
#define ACCELC_ISA_PROGRAM_H_

#include <cstdint>
#include <string>
#include <vector>

#include "isa/instruction.h"
#include "isa/target.h"
#include "support/container.h"
#include "support/dtype.h"
#include "support/status.h"

namespace accelc::isa {

/// Current version of the binary program format.
inline constexpr uint32_t kProgramFormatVersion = 3;

enum class SegmentRole : uint8_t { kText = 0, kUops = 1, kData = 2 };
enum class SymbolRole : uint8_t { kInput = 0, kOutput = 1, kConst = 2, kScratch = 3 };
const char* segmentRoleName(SegmentRole r);
const char* symbolRoleName(SymbolRole r);

/// A contiguous range of DRAM with initial contents.
struct Segment {
  std::string name;            ///< "text", a micro-op table or a constant's name
  SegmentRole role = SegmentRole::kData;  ///< what the bytes are
  uint64_t addr = 0;           ///< byte offset in the window
  std::vector<uint8_t> bytes;  ///< initial contents
  bool operator==(const Segment& o) const {
    return name == o.name && role == o.role && addr == o.addr && bytes == o.bytes;
  }
};

/// A named tensor in DRAM.
struct Symbol {
  std::string name;                     ///< unique
  SymbolRole role = SymbolRole::kInput;  ///< input, output, constant, scratch
  uint64_t addr = 0;                    ///< byte offset in the window
  support::DType dtype = support::DType::kInt8;  ///< element type
  std::vector<int64_t> shape;           ///< dimensions (row-major bytes)
  uint64_t bytes() const { return support::shapeElements(shape) * support::dtypeBytes(dtype); }
  bool operator==(const Symbol& o) const {
    return name == o.name && role == o.role && addr == o.addr && dtype == o.dtype && shape == o.shape;
  }
};

/// A named range of instructions [begin, end).
struct Label {
  uint64_t begin = 0;  ///< first instruction index
  uint64_t end = 0;    ///< one past the last
  std::string name;    ///< e.g. a layer name
  bool operator==(const Label& o) const { return begin == o.begin && end == o.end && name == o.name; }
};

/// A complete program.
struct Program {
  std::string hwspecYaml;        ///< canonical HwSpec (HwSpec::canonicalYaml)
  std::string isaYaml;           ///< the ISA description text
  uint64_t hash = 0;             ///< Target::hash of the two
  uint64_t window = 0;           ///< DRAM bytes the program needs
  std::vector<Segment> segments; ///< exactly one kText segment
  std::vector<Symbol> symbols;   ///< tensors in DRAM
  std::vector<Label> labels;     ///< sorted, non-overlapping

  const Segment& text() const;   ///< the instruction segment
  /// Number of instructions, given the target's instruction width.
  uint64_t insnCount(const Target& t) const { return text().bytes.size() / t.insnBytes(); }
  const Symbol* findSymbol(const std::string& name) const;
  const Segment* findSegment(const std::string& name) const;
  bool operator==(const Program& o) const;
};

/// The container (support/container.h) a program file is: its magic,
/// version and sections.
const support::ContainerKind& programContainerKind();
/// Serializes a program to its binary form.
std::vector<uint8_t> writeProgram(const Program& p);
/// Parses the binary form; `name` (e.g. the file name) locates errors.
/// Checks the magic, the version, every section's checksum and every length;
/// programTarget then checks the hash against the embedded hwspec and ISA.
support::Expected<Program> readProgram(const std::vector<uint8_t>& bytes, const std::string& name);
/// Reads a program file.
support::Expected<Program> loadProgramFile(const std::string& path);
/// Writes a program file.
support::Status saveProgramFile(const std::string& path, const Program& p);

/// Rebuilds the target a program was built for from its embedded texts.
support::Expected<Target> programTarget(const Program& p, const std::string& name);
/// Checks that `p` was built for `t` (the `--hw` check).
support::Status checkProgramTarget(const Program& p, const Target& t, const std::string& name);
/// Checks the layout: a text segment, segments and symbols inside the window
/// and not overlapping, labels inside the text, window within the hwspec's;
/// with dram.split_4k, the text starting on a timing.max_burst boundary
/// (textStart), so that fetch's bursts never cross 4 KiB either.
support::Status validateProgram(const Program& p, const Target& t, const std::string& name);

/// The first address at or after `at` where a text segment may start: the
/// next multiple of timing.max_burst (which divides 4096 with dram.split_4k).
uint64_t textStart(const Target& t, uint64_t at);

/// A program file with the target it was built for, read and validated:
/// what every command that reads a program (disasm, sim, bitstream) loads
/// it with, so that they agree on what is valid.
struct CheckedProgram {
  Program program;
  Target target;
};
support::Expected<CheckedProgram> loadCheckedProgram(const std::string& path);
/// Decodes the instructions of the text segment.
support::Expected<std::vector<Instruction>> decodeText(const Program& p, const Target& t, const std::string& name);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_PROGRAM_H_
