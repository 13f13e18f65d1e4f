// runtime/bundle.h — the compiled model (.acx): what the executor runs.
//
// A bundle holds the hardware it was built for (canonical hwspec and ISA with
// their hash), the DRAM plan (every tensor's region and layout), the constants
// written once at load (packed weights, requantization rows, host constants,
// the fill of blocked borders), the accelerator programs, and the ordered
// steps: run a program, run a host operator on the reference kernels, or
// pack/unpack a tensor between the plain and the blocked layout. The model's
// inputs and outputs are float32 tensors at the boundary; quantization is a
// step inside. The integer graph's text form rides along for `--engine ref`,
// and a layer table for reports. The binary form is a support/container.h
// container whose sections (hwspec, plan, weights, programs, steps, layers,
// graph, host) each carry a checksum; docs/formats.md describes them. The host
// section holds the generated code of host steps for one target, a shared
// library with the description of its kernels (runtime/host_code.h).
#ifndef ACCELC_RUNTIME_BUNDLE_H_
#define ACCELC_RUNTIME_BUNDLE_H_

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "isa/program.h"
#include "runtime/attrs.h"
#include "runtime/host_code.h"
#include "runtime/layout.h"
#include "runtime/ops.h"
#include "support/container.h"
#include "support/status.h"

namespace accelc::runtime {

inline constexpr uint32_t kBundleVersion = 10;

/// A tensor's place in DRAM.
struct TensorSlot {
  std::string name;                       ///< the graph value
  uint64_t addr = 0;                      ///< byte address
  support::DType dtype = support::DType::kFloat32;  ///< element type
  Shape shape;                            ///< logical shape
  std::optional<BlockedLayout> blocked;   ///< set: stored blocked (int8); else plain row-major
  BlockedForm form = BlockedForm::kImage; ///< blocked: how its shape maps onto the layout's [N, C, H, W]
  uint64_t bytes() const {
    return blocked ? static_cast<uint64_t>(blocked->bytes())
                   : static_cast<uint64_t>(support::shapeElements(shape) * support::dtypeBytes(dtype));
  }
};

/// Bytes written to DRAM once, when the bundle is loaded.
struct ConstantData {
  std::string name;             ///< what it is
  uint64_t addr = 0;            ///< byte address
  std::vector<uint8_t> bytes;   ///< contents
};

/// One step of a run.
struct Step {
  enum class Kind : uint8_t { kAccel = 0, kHost = 1, kPack = 2, kUnpack = 3 };
  Kind kind = Kind::kHost;
  std::string name;              ///< layer name (labels, reports)
  int program = -1;              ///< kAccel: index into programs
  OpKind op = OpKind::kIdentity; ///< kHost: the operator
  Attrs attrs;                   ///< kHost: its attributes
  std::vector<int> inputs;       ///< tensor slots read (-1: omitted optional input)
  std::vector<int> outputs;      ///< tensor slots written
};

/// A layer as the report shows it.
struct LayerInfo {
  std::string name;          ///< layer
  std::string where;         ///< "accelerator" or "host"
  std::string why;           ///< the partitioner's or scheduler's reason
  int64_t macs = 0;          ///< multiply-accumulates
  int64_t cycles = 0;        ///< estimated cycles (accelerator layers)
  int64_t dramBytes = 0;     ///< bytes the layer moves (estimate)
  int64_t compulsoryBytes = 0;  ///< inputs + weights + outputs, each once
  int64_t step = -1;            ///< the step that computes it; -1: none (a move its readers read in place)
};

/// The layer's roofline bound on `hw`: max(MACs / peak MACs per cycle,
/// compulsory bytes / DRAM bytes per cycle).
int64_t rooflineCycles(const LayerInfo& l, const hwspec::HwSpec& hw);

/// A compiled model.
struct Bundle {
  std::string hwspecYaml, isaYaml;  ///< the target, canonical
  uint64_t hash = 0;                ///< its hash
  uint64_t window = 0;              ///< DRAM bytes needed
  std::vector<TensorSlot> tensors;  ///< the DRAM plan
  std::vector<ConstantData> constants;  ///< written once at load
  std::vector<int> inputs, outputs; ///< model inputs/outputs (float32 slots)
  std::vector<isa::Program> programs;  ///< accelerator programs
  std::vector<Step> steps;          ///< in execution order
  std::vector<LayerInfo> layers;    ///< for reports
  std::string graphText;            ///< the integer graph, for --engine ref
  HostCode host;                    ///< generated code of host steps (none: no kernels)
};

/// The step of each layer of `b` (LayerInfo::step), b.steps.size() for a
/// layer that no step computes (a move its readers read in place).
std::vector<size_t> layerSteps(const Bundle& b);

/// The slots a host kernel that computes steps [first, last] of `b` receives
/// (runtime/host_kernels.h): every step's inputs in order, -1 for an omitted
/// one and for a value one of those steps computes.
std::vector<int> fusedStepInputs(const Bundle& b, size_t first, size_t last);

/// The container (support/container.h) a bundle file is: its magic,
/// version and sections.
const support::ContainerKind& bundleContainerKind();

std::vector<uint8_t> writeBundle(const Bundle& b);
/// A bundle read and validated, with the target it was built for: what
/// every command that reads a bundle (run, report, disasm) loads it with, so
/// that they agree on what is valid.
struct CheckedBundle {
  Bundle bundle;
  isa::Target target;
};
/// Parses the container (support/container.h: magic, version, checksums),
/// rebuilds the target, and runs validateBundle.
support::Expected<CheckedBundle> readCheckedBundle(const std::vector<uint8_t>& bytes, const std::string& name);
support::Expected<CheckedBundle> loadCheckedBundle(const std::string& path);
/// readCheckedBundle without the target.
support::Expected<Bundle> readBundle(const std::vector<uint8_t>& bytes, const std::string& name);
support::Status saveBundleFile(const std::string& path, const Bundle& b);
/// Rebuilds the target from the embedded hwspec and ISA; their hash must be
/// the recorded one.
support::Expected<isa::Target> bundleTarget(const Bundle& b, const std::string& name);
/// Checks slots, constants and programs against the window, step references
/// against the slots, and each program against `t` (its hash, and
/// isa::validateProgram's layout rules).
support::Status validateBundle(const Bundle& b, const isa::Target& t, const std::string& name);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_BUNDLE_H_
