// isa/target.h — a hardware target: a HwSpec plus the ISA layout resolved for it.
//
// Loading a target reads the ISA YAML named by the hwspec (isa.file), checks
// that it describes exactly the compiled-in instruction set (isa/instruction.h),
// resolves every field width — a literal, or a quantity derived from the HwSpec
// such as acc_idx_bits — lays the fields out LSB-first after the opcode, and
// proves that every format fits its word. When one does not, the error names
// the format, the bits it needs against the word, and the hwspec keys (with
// line:col) that drive its widest fields.
#ifndef ACCELC_ISA_TARGET_H_
#define ACCELC_ISA_TARGET_H_

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "hwspec/hwspec.h"
#include "isa/instruction.h"
#include "support/status.h"

namespace accelc::isa {

/// Where one field sits in its word.
struct FieldLayout {
  std::string name;       ///< snake_case name as in the YAML
  int lo = 0;             ///< first bit (LSB = 0)
  int bits = 0;           ///< width
  bool isSigned = false;  ///< two's complement, sign-extended on decode
  int enumIndex = -1;     ///< EnumKind of an enumerated field, else -1
  std::string widthExpr;  ///< the YAML width: a literal or a quantity name
  std::string doc;        ///< one-line description
};

/// The resolved layout of one format.
struct FormatLayout {
  std::string name;                 ///< "mem", "uop", ...
  int wordBits = 0;                 ///< instruction or micro-op word width
  bool hasOpcode = false;           ///< false for the micro-op word
  std::vector<FieldLayout> fields;  ///< indexed like FormatTraits<..>::kMembers
  std::vector<int> order;           ///< field indices in bit order (YAML order)
  int usedBits = 0;                 ///< opcode + fields
  std::string doc;                  ///< description of the format
  std::string diagram;              ///< the YAML's bit diagram (for vta-default)
};

/// The ISA layout for one HwSpec.
struct IsaLayout {
  int version = 1;                                  ///< ISA YAML version
  int opcodeBits = 0;                               ///< width of the opcode field
  std::array<int64_t, kNumOpcodes> opcodeCode{};    ///< encoded value per Opcode
  std::array<std::vector<int64_t>, kNumEnums> enumCodes;  ///< encoded value per enumerator
  std::array<FormatLayout, kNumFormats> formats;    ///< per Format
  std::string yamlText;                             ///< the ISA YAML as read
  std::string path;                                 ///< where it was read from

  const FormatLayout& format(Format f) const { return formats[static_cast<int>(f)]; }
  /// A canonical description of every position and code (hashed into programs).
  std::string canonicalText() const;
};

/// A HwSpec and its resolved ISA: what the assembler, the simulators and the
/// code generators are built for.
struct Target {
  hwspec::HwSpec spec;  ///< the hardware
  IsaLayout isa;        ///< its encoding
  uint64_t hash = 0;    ///< fnv1a64 of canonical hwspec + canonical layout

  int insnBytes() const { return static_cast<int>(spec.insnBits / 8); }
  int uopBytes() const { return static_cast<int>(spec.uopBits / 8); }
};

/// Resolves `spec.isaFile` (next to the hwspec file, else a bundled ISA) and
/// builds the target.
support::Expected<Target> loadTarget(const hwspec::HwSpec& spec);
/// Builds the target from ISA YAML text named `isaPath`.
support::Expected<Target> makeTarget(const hwspec::HwSpec& spec, const std::string& isaText,
                                     const std::string& isaPath);
/// The text of a bundled ISA description ("vta.isa.yaml"), or "".
std::string bundledIsaText(const std::string& name);

/// The value of a named width quantity ("acc_idx_bits") for `spec`; -1 if unknown.
int64_t widthQuantity(const hwspec::HwSpec& spec, const std::string& name);
/// The hwspec key that drives a width quantity ("buffers.acc").
std::string quantityKey(const hwspec::HwSpec& spec, const std::string& name);

}  // namespace accelc::isa

#endif  // ACCELC_ISA_TARGET_H_
