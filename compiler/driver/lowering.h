// compiler/driver/lowering.h — what the back end decides about one integer
// graph, filled in pass by pass (compiler/driver/pipeline.h): where each node
// runs and why, the borders of blocked values, the bundle's tensor slots and
// steps, the DRAM plan, and the lowered programs.
#ifndef ACCELC_COMPILER_DRIVER_LOWERING_H_
#define ACCELC_COMPILER_DRIVER_LOWERING_H_

#include <map>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "compiler/graph/graph.h"
#include "compiler/lower/codegen.h"
#include "compiler/lower/conv.h"
#include "compiler/lower/elementwise.h"
#include "compiler/lower/pool.h"
#include "compiler/schedule/tunable.h"
#include "isa/target.h"
#include "runtime/bundle.h"

namespace accelc::compiler {

/// How a value is stored: plain row-major, blocked for convolutions, blocked as rows of pixels (dense: a
/// dense layer's or a matrix product's rows), or blocked as a matrix product's weights (runtime/layout.h
/// BlockedForm).
enum class Storage { kPlain = 0, kConv = 1, kDense = 2, kWeights = 3 };

/// A node the host runs.
struct HostPlan {};
/// An accelerator QConv, QGemm, or QMatMul of two activations (its right operand packed as weights).
struct ConvPlan {
  lower::ConvSchedule schedule;  ///< its tiling, from the schedule search
  bool clampMoved = false;       ///< its clamp below moved to the MaxPool that alone reads it
};
/// An accelerator MaxPool or QAveragePool.
struct PoolPlan {
  int64_t rows = 0;   ///< output rows per tile
  int64_t lo = -128;  ///< the clamp below it took over from the convolution it reads
};
/// An accelerator QAdd.
struct AddPlan {
  int64_t rows = 0;    ///< output rows per tile
  bool loops = false;  ///< the GEMM form's passes run in the instructions' loops
};
/// An accelerator QConcat along channels: no work of its own (its program
/// only marks the point where its output is complete). Each input is a view
/// of the output (Lowering::views) that its producer writes in place.
struct ConcatPlan {};
/// An accelerator channel Split or Slice: no work of its own (its program only marks the point where its
/// parts are ready). Each part is a view of the input (Lowering::views) that its readers load in place.
struct SlicePlan {};
/// An accelerator QClip, QHardSigmoid, QHardSwish or QMul on the ALU.
struct EltwisePlan {
  int64_t rows = 0;  ///< image rows per tile
};
/// An int8 move (Reshape, Transpose, Slice, ...) that no step computes (move_views.h). With a root, its output
/// stored as `storage` (rows of pixels, or a matrix product's right operand as weights) is a contiguous run of
/// the root's rows storage from byte `offset`, which its readers read in place; without, nothing stores its
/// output: only such views, below it, read it.
struct MovePlan {
  int root = -1;                      ///< the value whose storage it views; -1: folded into the views below it
  uint64_t offset = 0;                ///< bytes into the root's storage
  Storage storage = Storage::kDense;  ///< how its output is stored there: kDense or kWeights
};
using Plan = std::variant<HostPlan, ConvPlan, PoolPlan, AddPlan, ConcatPlan, SlicePlan, EltwisePlan, MovePlan>;

/// Where a value lies inside another's blocked storage: an input of a Concat placed on the accelerator inside
/// its output (its producer writes it in place), or a part of a channel Split or Slice inside its input (its
/// readers read it in place).
struct View {
  int parent = -1;    ///< the Concat's output or the Split's input; -1: the value is stored on its own
  int64_t block = 0;  ///< its first channel block there
};

/// Where one node runs, and why.
struct Placement {
  Plan plan;        ///< what runs it
  std::string why;  ///< "accelerator: ..." or "host: ..."
  int64_t cycles = 0;  ///< on the accelerator: its trial program's estimated cycles (lower/cost.h; when asked)
  bool onAccelerator() const { return !std::holds_alternative<HostPlan>(plan); }
};

/// One accelerator layer lowered, its micro-ops and text placed in DRAM,
/// waiting for the window to be known.
struct PendingProgram {
  size_t node = 0;             ///< graph node
  std::string name;            ///< layer name
  lower::Kernel kernel;        ///< its loop IR
  lower::CodegenPlacement at;  ///< micro-ops and text
};

/// The back end's state for one integer graph on one target.
struct Lowering {
  Lowering(const Graph& graph, const isa::Target& target, bool ser, std::vector<std::string>* notes)
      : g(graph), t(target), hw(target.spec), serialize(ser), log(notes) {}

  const Graph& g;                            ///< the integer graph
  const isa::Target& t;                      ///< the accelerator
  const hwspec::HwSpec& hw;                  ///< its hwspec
  bool serialize;                            ///< programs without overlap between the units
  int64_t windowLimit = 0;                   ///< CompileOptions::window (0: none besides dram.window)
  std::vector<std::string>* log;             ///< decisions worth reporting; may be null
  bool estimateCycles = false;               ///< partition: estimate each trial program's cycles (placement by cost)
  const TuneHooks* tune = nullptr;           ///< partition: a tuning log's choices, and where tunable layers go
  std::vector<Placement> placements;         ///< per node (partition)
  std::vector<Shape> borders;                ///< per value: conv border (top, left, bottom, right)
  std::vector<View> views;                   ///< per value: its place in a Concat's output (partition)
  std::map<int, std::pair<int, uint64_t>> slotViews;  ///< view slot -> (its parent's slot, byte offset there)
  runtime::Bundle bundle;                    ///< what is built
  std::map<std::pair<int, int>, int> slots;  ///< (value, storage) -> tensor slot
  std::vector<int> stepNode;                 ///< per step: its node (-1 for pack/unpack)
  std::vector<PendingProgram> pending;       ///< lowered layers, in step order
  uint64_t cursor = 0, align = 64;           ///< DRAM allocation

  void say(const std::string& s) const {
    if (log) log->push_back(s);
  }
  /// `bytes` of DRAM at the cursor, which moves past them to the next alignment.
  uint64_t alloc(uint64_t bytes);
  /// Value `v`'s int8 zero point.
  int8_t zeroPoint(int v) const;
  /// What the borders and padding channels of value `v` hold: its zero point, which padding stands for in a
  /// convolution; or the int8 minimum when only max pools read its borders (padding stands for -infinity
  /// there, and no window lies wholly in the padding). A view holds what its Concat's output holds.
  int8_t bareFill(int v) const;
  /// The blocked layout of value `v` with the borders it has now (a view's: inside its Concat's output).
  runtime::BlockedLayout trialLayout(int v) const;
  /// The blocked layout of value `v` (rank at least 2) stored as rows of pixels (runtime::BlockedForm::kRows).
  runtime::BlockedLayout rowsLayout(int v) const;
  /// Channel blocks per stored row of value `v`: its own, or its Concat's output's when it is a view.
  int64_t rowBlocks(int v) const;
  /// Gives every view the borders of its Concat's output, and the output every border a view needs.
  void shareViewBorders();
  /// The plan of the move whose output `v` is when that output views another value's rows storage, or null.
  const MovePlan* moveView(int v) const;
  /// Whether value `v` never lies below its zero point (its producer clamps there, as a fused ReLU does, or
  /// it is a max pool or a concatenation of such values).
  bool atLeastZeroPoint(int v) const;
};

/// Multiply-accumulates of a convolution or matrix product, float or integer; 0 for any other node.
int64_t nodeMacs(const Graph& g, const Node& n);
/// Pads of a convolution: (top, left, bottom, right).
Shape padsOf(const runtime::QConvAttrs& a);
/// The accelerator convolution of QConv or QGemm `n`, its input with borders `bx`.
support::Expected<lower::ConvLayer> convLayerOf(const Lowering& s, const Node& n, const Shape& bx);
/// The accelerator MaxPool or QAveragePool of `n`, or why it stays on the host.
support::Expected<lower::PoolLayer> poolLayerOf(const Lowering& s, const Node& n);
/// QMatMul `n` of two activations as an accelerator GEMM with per-image weights (lower::ConvLayer::imageWeights):
/// each matrix of its left operand a row of pixels, each matrix of its right operand packed as weights by the
/// host step that makes that operand's weights slot; or why it stays on the host (zero points other than 0,
/// which would need per-row or per-column corrections; batch dimensions that broadcast).
support::Expected<lower::ConvLayer> matmulLayerOf(const Lowering& s, const Node& n);
/// Whether `n` is an elementwise integer op the ALU may run (QClip, QHardSigmoid, QHardSwish, QMul).
bool isEltwise(const Node& n);
/// Whether elementwise node `n` works on rows of pixels [..., M, K] (dense storage, as QGemm's) rather than 4-D.
bool eltwiseOnRows(const Lowering& s, const Node& n);
/// Whether accelerator node `n` reads and writes rows of pixels (dense storage) rather than 4-D blocked
/// tensors: QGemm, QMatMul (its right operand as weights), and QAdd and elementwise ops on tensors not 4-D.
bool onRows(const Lowering& s, const Node& n);
/// The values an elementwise node reads from DRAM, in its layer's order: x, then QMul's activation b (the
/// operand of the full shape first; a constant b is a parameter, not an operand).
std::vector<int> eltwiseOperands(const Lowering& s, const Node& n);
/// The accelerator layer of elementwise node `n` with trial layouts, or why it stays on the host.
support::Expected<lower::EltwiseLayer> eltwiseLayerOf(const Lowering& s, const Node& n);

}  // namespace accelc::compiler

#endif  // ACCELC_COMPILER_DRIVER_LOWERING_H_
