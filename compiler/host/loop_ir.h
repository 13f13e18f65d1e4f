// compiler/host/loop_ir.h — the loop-level tensor IR of generated host
// kernels, and their schedules as data.
//
// A LoopKernel is a list of stages over flat, typed buffers. Each stage is a
// loop nest over named axes: spatial axes pick an output element, reduction
// axes fold values into it (a sum or a max). Every buffer access is affine in
// the axes, `c + Σ coef·axis` elements from the buffer's start, and a load may
// carry bounds (`lo <= e < hi`, each affine): outside them it reads a pad value
// instead of memory, which is how convolution and pooling padding is written.
// A word load reads 4 consecutive bytes of an 8-bit buffer as one int32, the
// operand of a 4-byte dot product (Dot4) taken straight from a row of bytes.
// After the reduction, an epilogue (an elementwise expression of the folded
// value and more loads: a bias, a scale, a ReLU) gives the stored value, so an
// elementwise consumer fuses into its producer.
//
// The algorithm says nothing about loop order. A StageSchedule does: it splits
// loops (a split of a spatial loop whose factor does not divide shifts the last
// tile inwards, recomputing a few points; a reduction loop's last tile is
// shorter instead), orders them, unrolls the register tile (the innermost
// spatial loops, whose accumulators stay in registers across the reductions),
// vectorizes the innermost spatial loop, and names the loop that a thread pool
// divides. Reduction loops placed outside spatial loops accumulate in the
// output buffer, which is how a schedule blocks a long reduction for the cache.
//
// Values are float32 or int32. A load of a float32 buffer is float; a load of
// an int8, uint8 or int32 buffer is int32 (extended), and a store into an
// 8-bit buffer keeps the low bits (an epilogue clamps first). On int32 values
// Add, Sub and Mul wrap, Min, Max, Relu and Clip compare, and the integer ops'
// arithmetic (AddSat, Mulq, Shrr) is isa/arith.h's; ToFloat, ToInt and Round
// convert. A stage folds in its value's type: an int32 sum wraps, as the
// accelerator's accumulators do.
//
// A kernel runs its stages in order, once per point of its batch dimensions:
// each batch dimension moves every buffer's start by its stride, so a batch of
// images or the groups of a convolution reuse one compiled loop nest.
#ifndef ACCELC_COMPILER_HOST_LOOP_IR_H_
#define ACCELC_COMPILER_HOST_LOOP_IR_H_

#include <cstdint>
#include <string>
#include <vector>

#include "compiler/host/elementwise.h"
#include "runtime/host_code.h"
#include "support/status.h"

namespace accelc::compiler::host {

/// c + Σ coef[i]·axis_i over a stage's axes (missing coefficients are 0).
struct Affine {
  int64_t c = 0;
  std::vector<int64_t> coef;
  int64_t coefOf(size_t axis) const { return axis < coef.size() ? coef[axis] : 0; }
};

/// lo <= e < hi.
struct Bound {
  Affine e;
  int64_t lo = 0, hi = 0;
};

/// One node of a stage's value or epilogue expression.
struct LoopNode {
  enum class Kind {
    kLoad,      ///< buffer[at], or `pad` where a bound fails
    kInBounds,  ///< 1 where every bound holds, else 0
    kAcc,       ///< epilogue only: the folded value
    kOp,        ///< an elementwise operation (EwOp other than kInput) on earlier nodes
  };
  Kind kind = Kind::kOp;
  EwOp op = EwOp::kConst;      ///< kOp
  int a = -1, b = -1;          ///< kOp operands
  float value = 0.0f;          ///< kOp kConst (float)
  bool integer = false;        ///< kOp kConst: an int32 constant, `ivalue`
  int32_t ivalue = 0;          ///< kOp kConst (int32)
  float lo = 0.0f, hi = 0.0f;  ///< kOp kClip
  int buffer = -1;             ///< kLoad
  Affine at;                   ///< kLoad
  std::vector<Bound> bounds;   ///< kLoad, kInBounds
  float pad = 0.0f;            ///< kLoad
  /// kLoad of an 8-bit buffer: the 4 bytes from `at` on as one int32, byte t
  /// in bits 8t..8t+7 (no bounds: every byte read lies inside the buffer).
  bool word = false;
};

/// An expression: nodes in topological order, the last one its value.
struct LoopExpr {
  std::vector<LoopNode> nodes;
  int add(LoopNode n) {
    nodes.push_back(std::move(n));
    return static_cast<int>(nodes.size()) - 1;
  }
  int load(int buffer, Affine at, std::vector<Bound> bounds = {}, float pad = 0.0f);
  int loadWord(int buffer, Affine at);
  int inBounds(std::vector<Bound> bounds);
  int acc();
  int constant(float v);
  int intConstant(int32_t v);
  int op(EwOp op, int a, int b = -1);
  int clip(int a, float lo, float hi);
};

/// How a stage folds its reduction axes.
enum class Reduce { kNone, kSum, kMax };

struct LoopAxis {
  std::string name;
  int64_t extent = 1;
  bool reduce = false;
};

struct LoopStage {
  std::string name;
  std::vector<LoopAxis> axes;
  int out = -1;          ///< the buffer written
  Affine outAt;          ///< where a spatial point's value goes (no reduction axis in it)
  Reduce reduce = Reduce::kNone;
  float init = 0.0f;     ///< the fold's start (kSum, kMax); an int32 fold starts from it converted
  LoopExpr value;        ///< per iteration; kSum of a product multiplies and adds as one fma
  LoopExpr epilogue;     ///< per spatial point over kAcc; empty: the folded value itself
  /// Its output (a temporary) depends only on inputs that never change, such as
  /// a bundle's constant weights, and is the same at every batch point: it is
  /// computed on the kernel's first run and kept for the runs after.
  bool constant = false;
  /// Where the output's rows wrap (AMX tile products only): the point at value v of axis `axis` is written
  /// as at (v / wrap)·keep + v % wrap, and not at all where v % wrap >= keep or v / wrap >= rows. Columns
  /// that run over a padded image's width, for instance, written as the image's rows without the padding.
  struct Wrap {
    int axis = -1;  ///< -1: none
    int64_t wrap = 1, keep = 1, rows = 1;
  };
  Wrap outWrap;
};

/// A kernel's flat float32 buffers and batch dimensions are the runtime's
/// (runtime/host_code.h), which runs the compiled stages over them.
using LoopBuffer = runtime::KernelBuffer;
using BatchDim = runtime::BatchDim;

struct LoopKernel {
  std::string name;
  std::vector<LoopBuffer> buffers;
  std::vector<LoopStage> stages;
  std::vector<BatchDim> batch;  ///< outermost first
  int addBuffer(std::string name, int64_t elements, LoopBuffer::Role role,
                support::DType type = support::DType::kFloat32);
  /// Ok when every index, operand and extent is in range and every access stays inside its buffer; else why not.
  support::Status validate(const std::string& where) const;
};

/// Per node of `e`, whether its value is int32 (else float32); `accInteger`
/// is the type of the epilogue's folded value.
std::vector<bool> integerNodes(const LoopKernel& k, const LoopExpr& e, bool accInteger);
/// Whether stage `s` folds int32 values (its value expression's last node is int32).
bool integerStage(const LoopKernel& k, const LoopStage& s);
/// The smallest and largest value of `a` over every point of `axes`.
std::pair<int64_t, int64_t> rangeOf(const Affine& a, const std::vector<LoopAxis>& axes);

/// One loop of a scheduled stage: a piece of an axis.
struct Loop {
  int axis = 0;
  int64_t span = 1;     ///< axis values one iteration covers (the product of the splits inside it)
  int64_t range = 1;    ///< axis values the loop covers (its parent's span, or the extent)
  bool unroll = false;  ///< spatial loops only: unrolled into the register tile (innermost, with the vector loop)
  int64_t iterations() const { return (range + span - 1) / span; }
};

/// A software prefetch of one cache line of `buffer` (one the stage loads), at
/// element c + Σ coef[l]·(iteration number of loop l), issued at every
/// iteration of the innermost loop outside the register tile (coefficients
/// name only such loops). A schedule spreads the lines of the block a loop
/// reads next over the iterations of the current one, so that memory streams
/// them while the FMA units work (a plain walk stalls on each block's first
/// pass). An address may lie past the buffer: a prefetch never faults.
struct Prefetch {
  int buffer = -1;
  int64_t c = 0;
  std::vector<int64_t> coef;  ///< per loop id (missing ones are 0)
};

/// A stage's schedule. Loops 0..A-1 are the stage's axes; split() appends a
/// loop and returns its id.
struct StageSchedule {
  std::vector<Loop> loops;
  std::vector<int> order;  ///< loop ids, outermost first; every loop once
  int vector = -1;         ///< the vectorized loop (innermost, spatial; its range is the vector width), -1 none
  int vectorWidth = 1;
  /// 32-bit lanes of one vector register of the target (0: vectorWidth). A
  /// row of bytes may take several registers' worth of lanes (vectorWidth 32
  /// on AVX2): its loads and stores then move whole registers of bytes.
  int registerLanes = 0;
  bool parallel = false;   ///< a thread pool divides order[0]'s iterations (spatial)
  bool vnni = false;       ///< a sum of Dot4 folds with x86's vpdpbusd (the code then needs the CPU to have it)
  bool pmaddwd = false;    ///< a sum of Dot4 folds as two of x86's vpmaddwd (even and odd bytes widened to 16
                           ///< bits), a sum of Dot2 as one
  /// The stage is a TileProduct, computed on x86's AMX tiles (tdpbusd or tdpbssd; the code then needs the CPU
  /// to have AMX-INT8): order[0] splits its rows into blocks of 16 or 32, which a thread pool may divide; the other
  /// loops are not read. No vector loop.
  bool amx = false;
  std::vector<Prefetch> prefetch;  ///< for CPUs' caches: plans add them to x86's panel products only

  /// The identity schedule of `s`: its axes in order, nothing split.
  static StageSchedule identity(const LoopStage& s);
  /// Splits loop `id` into itself (outer) and a new inner loop of `factor` axis
  /// values; returns the inner loop's id. Factors above the range are clamped to it.
  int split(int id, int64_t factor);
  /// Where the register tile starts in `order`: the innermost loops that are
  /// spatial and unrolled or vectorized.
  size_t tileStart(const LoopStage& s) const;
  /// How many ranges a caller may split the stage into: the iterations of
  /// order[0] when it is a spatial loop outside the tile, else 1.
  int64_t outerIterations(const LoopStage& s) const;
  /// Ok when the schedule is legal for `s`; else why not, naming the stage.
  support::Status validate(const LoopStage& s, const std::string& where) const;
};

/// A stage that AMX tiles compute: over int32 buffers of 4-byte words,
/// out[o0 + i·outRow + j] = Σ_taps Σ_k Dot4(a[a0 + i·aRow + k + tap's a offset],
/// b[b0 + k·bRow + j + tap's b offset]) for i < rows, j < cols, k < depth,
/// every extent a multiple of 16. The depth is the stage's last reduction
/// axis; any other reduction axis is a tap, which moves a and b by its
/// coefficients (a convolution's kernel rows and columns over an image read in
/// place). With Dot4 a's bytes are unsigned (tdpbusd), with Dot4S signed
/// (tdpbssd); b's are signed. a's rows are tiles' rows of 16 words, b's rows
/// hold a word of 4 consecutive k per column (AMX's layout of B). With an
/// epilogue, each output is the epilogue of its sum, computed from the
/// tiles while they are in L1 (and the next block's tiles are multiplied):
/// its loads move with the rows (a scalar per row) or along the columns (one
/// value a column), and the output may have any type; without, the output
/// is the int32 sums.
struct TileProduct {
  static constexpr int64_t kSide = 16;  ///< an AMX tile's rows, and its 4-byte words per row (64 bytes)
  struct Tap {
    int axis = -1;
    int64_t extent = 1, aStep = 0, bStep = 0;
  };
  int i = -1, j = -1, k = -1;  ///< the stage's axes: out's rows, its columns, the depth
  std::vector<Tap> taps;       ///< the other reduction axes, outermost first
  int a = -1, b = -1;          ///< the buffers
  bool signedA = false;        ///< Dot4S: a's bytes signed
  bool epilogue = false;       ///< the stage's epilogue gives the outputs
  int64_t a0 = 0, aRow = 0, b0 = 0, bRow = 0, o0 = 0, outRow = 0;
  int64_t rows = 0, cols = 0, depth = 0;
  LoopStage::Wrap wrap;  ///< the output's columns wrap (LoopStage::outWrap along j), with an epilogue only
};
/// Stage `s` of `k` as a TileProduct under `sc` (whose order[0] must be a
/// split of axis i by 16 or 32 that divides it); else why it is not one.
support::Expected<TileProduct> tileProduct(const LoopKernel& k, const LoopStage& s, const StageSchedule& sc,
                                           const std::string& where);

struct KernelSchedule {
  std::vector<StageSchedule> stages;  ///< one per stage
};

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_LOOP_IR_H_
