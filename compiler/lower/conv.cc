// compiler/lower/conv.cc — tiling, lowering and packing of accelerator convolutions.
#include "compiler/lower/conv.h"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>

#include "compiler/lower/row_tiles.h"
#include "isa/semantics.h"
#include "simulator/timing/dram_port.h"

namespace accelc::compiler::lower {

using hwspec::BufferKind;
using isa::Buffer;
using isa::Opcode;
using support::Status;

namespace {

/// Every size the lowering derives from a layer, schedule and hardware. Tiles
/// come in up to four kinds: full or last (shorter) in rows, times full or last
/// in columns; each kind has its own micro-op sets.
struct Plan {
  int64_t cb = 1, mb = 1, cbT = 1, chunks = 1;  ///< input/output blocks, chunk size, chunks per tile
  int64_t units = 1, cbU = 1, mbU = 1;           ///< GroupForm: units, input and output blocks per unit
  int64_t mbT = 1, groups = 1;                   ///< output blocks per tile, tiles across a unit's output blocks
  int64_t th = 1, thLast = 0, rowTiles = 1, fullRows = 1;  ///< rows per tile, rows of the last (0: none)
  int64_t tw = 1, twLast = 0, colTiles = 1, fullCols = 1;  ///< columns likewise
  int64_t inpHalf = 0, wgtHalf = 0, accHalf = 0;  ///< entries per buffer half
  int64_t hazard = 1;                             ///< accumulator hazard distance
  int64_t gemmOff[4] = {}, aluOff[4] = {}, uops = 0;  ///< micro-op sets per tile kind
  bool aluLoops = false;                              ///< ALU passes: one micro-op per block, the pixels in loops
  /// A chunk's input rows in one DMA: its rows lie at one stride in DRAM and one after another in the buffer
  /// when it has one block (the schedule may ask for a DMA per row: ConvSchedule::rowLoads).
  bool oneDma = false;
  /// Micro-ops per output block in an ALU set of tile kind `kind`.
  int64_t aluPixels(int kind) const { return aluLoops ? 1 : rows(kind) * cols(kind); }
  int64_t rows(int kind) const { return kind & 1 ? thLast : th; }
  int64_t cols(int kind) const { return kind & 2 ? twLast : tw; }
  bool exists(int kind) const { return rows(kind) > 0 && cols(kind) > 0; }
  int64_t tiles() const { return rowTiles * colTiles; }
  /// Tiles across every output block: more than one means the parameter rows change between tiles.
  int64_t outTiles() const { return units * groups; }
};

int64_t padded(int64_t pixels, int64_t hazard) { return std::max(pixels, hazard); }

/// Plan of a layer whose GroupForm `f` is known (checkSchedule checks it first).
Plan planOf(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw, const GroupForm& f) {
  Plan p;
  p.cb = l.x.blocks();
  p.mb = (l.m + hw.blockOut - 1) / hw.blockOut;
  p.units = f.units, p.cbU = f.inBlocks, p.mbU = f.outBlocks;
  p.cbT = s.chunkBlocks;
  p.oneDma = p.cbT == 1 && !s.rowLoads;
  p.chunks = p.cbU / std::max<int64_t>(p.cbT, 1);
  p.mbT = s.outBlocks;
  p.groups = p.mbU / std::max<int64_t>(p.mbT, 1);
  p.th = std::min(s.tileRows, l.oh);
  p.fullRows = l.oh / p.th, p.thLast = l.oh - p.fullRows * p.th, p.rowTiles = p.fullRows + (p.thLast > 0);
  p.tw = s.tileCols > 0 ? std::min(s.tileCols, l.ow) : l.ow;
  p.fullCols = l.ow / p.tw, p.twLast = l.ow - p.fullCols * p.tw, p.colTiles = p.fullCols + (p.twLast > 0);
  p.hazard = hw.timing.accHazard;
  const int64_t win = (p.tw - 1) * l.sw + l.kw;
  p.inpHalf = ((p.th - 1) * l.sh + l.kh) * p.cbT * win;
  p.wgtHalf = p.mbT * l.kh * p.cbT * l.kw;
  // Per output block of the tile its rows, then per block its bias, multiplier and shift rows.
  p.accHalf = p.mbT * (padded(p.th * p.tw, p.hazard) + 3);
  for (int k = 0; k < 4; ++k) {  // GEMM sets: 4 per kind (load half x acc half)
    p.gemmOff[k] = p.uops;
    if (p.exists(k)) p.uops += 4 * p.mbT * padded(p.rows(k) * p.cols(k), p.hazard);
  }
  p.aluLoops = s.aluLoops;
  for (int k = 0; k < 4; ++k) {  // ALU sets: 6 per kind (acc half x mulq/shrr/bias)
    p.aluOff[k] = p.uops;
    if (p.exists(k)) p.uops += 6 * p.mbT * p.aluPixels(k);
  }
  return p;
}

/// The accumulator row of output block `j`'s pixel `q` in a tile with `u` rows per block.
int64_t accRow(int64_t j, int64_t u, int64_t q) { return j * u + q; }
/// The first parameter row (bias, then multiplier, then shift) of output block `j`.
int64_t paramRow(const Plan& p, int64_t j) { return p.accHalf - 3 * (p.mbT - j); }

std::vector<isa::Uop> uopTable(const Plan& p, const ConvLayer& l) {
  std::vector<isa::Uop> u(static_cast<size_t>(p.uops));
  for (int kind = 0; kind < 4; ++kind) {
    if (!p.exists(kind)) continue;
    const int64_t rows = p.rows(kind), cols = p.cols(kind), pix = rows * cols, n = padded(pix, p.hazard);
    const int64_t win = (cols - 1) * l.sw + l.kw, wgtBlock = l.kh * p.cbT * l.kw;
    for (int ls = 0; ls < 2; ++ls)
      for (int as = 0; as < 2; ++as) {
        const int64_t at = p.gemmOff[kind] + (ls * 2 + as) * p.mbT * n, acc = as * p.accHalf;
        for (int64_t j = 0; j < p.mbT; ++j)
          for (int64_t q = 0; q < n; ++q) {  // pixels, then hazard padding rows
            const int64_t r = q / cols, c = q % cols;
            const int64_t src = q < pix ? (r * l.sh) * p.cbT * win + c * l.sw : 0;
            u[at + j * n + q] = {acc + accRow(j, n, q), ls * p.inpHalf + src, ls * p.wgtHalf + j * wgtBlock};
          }
      }
    const int64_t per = p.aluPixels(kind);
    for (int as = 0; as < 2; ++as)
      for (int op = 0; op < 3; ++op) {  // sources: the multiplier, shift and bias rows
        const int64_t at = p.aluOff[kind] + (as * 3 + op) * p.mbT * per, acc = as * p.accHalf;
        for (int64_t j = 0; j < p.mbT; ++j) {
          const int64_t src = acc + paramRow(p, j) + (op == 2 ? 0 : 1 + op);
          for (int64_t q = 0; q < per; ++q) u[at + j * per + q] = {acc + accRow(j, n, q), src, 0};
        }
      }
  }
  return u;
}

/// Cycles of one DMA of `rows` rows of `bytes` bytes alone on the DRAM port (docs/microarchitecture.md).
int64_t dmaCycles(const hwspec::HwSpec& hw, int64_t rows, int64_t bytes, bool write = false) {
  return simulator::DramPort::aloneCycles(hw, {rows, bytes, write});
}

/// Whether some output channel's requantization shifts (shrr is skipped when none does).
bool shifts(const ConvLayer& l) {
  return std::any_of(l.shift.begin(), l.shift.end(), [](int32_t s) { return s != 0; });
}

/// Whether the requantization multiplies. mulq by 2^31 - 1 returns every
/// value below 2^30 in magnitude unchanged (isa/arith.h rounds half away from
/// zero), so it is left out when every channel's multiplier is 2^31 - 1 and
/// the accumulators provably stay below 2^30: an ALU without mulq (ice40) can
/// then run the layer.
bool multiplies(const ConvLayer& l) {
  if (!std::all_of(l.mult.begin(), l.mult.end(), [](int32_t m) { return m == INT32_MAX; })) return true;
  int64_t bias = 0;
  for (int32_t v : l.bias) bias = std::max<int64_t>(bias, std::abs(static_cast<int64_t>(v)));
  return l.x.c / l.group * l.kh * l.kw > ((int64_t{1} << 30) - bias) / (128 * 128);  // products of at most 2^14
}

/// The requantization's ALU passes by name: mulq unless left out, shrr when
/// shifting, the zero point and the clamps it needs; when none is needed, the
/// clamp above alone (an identity before the output's saturation) ends the tile.
std::vector<const char*> requantOps(const ConvLayer& l) {
  std::vector<const char*> ops;
  if (multiplies(l)) ops.push_back("mulq");
  if (shifts(l)) ops.push_back("shrr");
  if (l.zeroPoint != 0) ops.push_back("zero");
  if (l.lo > -128) ops.push_back("max");
  if (l.hi < 127 || ops.empty()) ops.push_back("min");
  return ops;
}

int64_t requantPasses(const ConvLayer& l) { return static_cast<int64_t>(requantOps(l).size()); }

/// The ALU passes of a tile: the bias and the requantization.
int64_t aluPasses(const ConvLayer& l) { return 1 + requantPasses(l); }

int64_t estimate(const ConvLayer& l, const Plan& p, const hwspec::HwSpec& hw) {
  const int64_t bi = hw.entryBytes(BufferKind::kInput), bw = hw.entryBytes(BufferKind::kWeight);
  int64_t load = 0, compute = 0, store = 0;
  for (int kind = 0; kind < 4; ++kind) {
    if (!p.exists(kind)) continue;
    const int64_t rows = p.rows(kind), cols = p.cols(kind);
    const int64_t count = l.x.n * p.outTiles() * (kind & 1 ? 1 : p.fullRows) * (kind & 2 ? 1 : p.fullCols);
    const int64_t inRows = (rows - 1) * l.sh + l.kh, win = (cols - 1) * l.sw + l.kw;
    const int64_t apps = p.mbT * padded(rows * cols, p.hazard);
    const int64_t rowsLoad = p.oneDma ? dmaCycles(hw, inRows, win * bi) : inRows * dmaCycles(hw, p.cbT, win * bi);
    const int64_t chunkLoad = rowsLoad + (!l.imageWeights ? dmaCycles(hw, p.mbT * l.kh, p.cbT * l.kw * bw)
                                          : p.cbT == 1   ? dmaCycles(hw, 1, p.mbT * bw)
                                                         : p.mbT * dmaCycles(hw, p.cbT, bw));
    const int64_t gemm = hw.timing.pipelineDepth + apps * l.kh * p.cbT * l.kw * hw.timing.gemmIi;
    const int64_t alu = aluPasses(l) * (hw.timing.pipelineDepth + p.mbT * rows * cols * hw.timing.aluIi);
    load += count * p.chunks * chunkLoad;
    compute += count * (p.chunks * gemm + alu +
                        (p.outTiles() > 1 ? dmaCycles(hw, 1, 3 * p.mbT * hw.entryBytes(BufferKind::kAcc)) : 0));
    store += count * p.mbT * dmaCycles(hw, rows, cols * hw.entryBytes(BufferKind::kOutput), true);
  }
  const int64_t steps = std::max<int64_t>(1, l.x.n * p.outTiles() * p.tiles() * p.chunks);
  return std::max({load, compute, store}) + (load + store) / steps;  // plus filling and draining the pipeline
}

}  // namespace

std::string requantForm(const ConvLayer& l) {
  std::string form = "bias";
  for (const char* op : requantOps(l)) form += std::string(" ") + op;
  return form;
}

int64_t convMacs(const ConvLayer& l) { return l.x.n * l.m * l.oh * l.ow * (l.x.c / l.group) * l.kh * l.kw; }

support::Expected<GroupForm> groupForm(const ConvLayer& l, const hwspec::HwSpec& hw) {
  const int64_t bi = hw.blockIn, bo = hw.blockOut, cb = l.x.blocks(), mb = (l.m + bo - 1) / bo;
  if (l.group < 1 || l.x.c % l.group || l.m % l.group)
    return support::error(support::Location::node(l.name, l.name),
                          std::to_string(l.group) + " groups do not divide " + std::to_string(l.x.c) +
                              " input and " + std::to_string(l.m) + " output channels");
  if (l.group == 1) return GroupForm{1, cb, mb};
  const int64_t cg = l.x.c / l.group, mg = l.m / l.group;
  if (cg % bi == 0 && mg % bo == 0) return GroupForm{l.group, cg / bi, mg / bo};
  if (bi % cg == 0 && bo % mg == 0 && bi / cg == bo / mg) return GroupForm{cb, 1, 1};  // block diagonal
  return support::error(support::Location::node(l.name, l.name),
                        "groups of " + std::to_string(cg) + " input and " + std::to_string(mg) +
                            " output channels neither fill nor evenly divide blocks of " + std::to_string(bi) + " and " +
                            std::to_string(bo));
}

ConvLayer denseOf(const ConvLayer& l) {
  ConvLayer d = l;
  d.group = 1;
  const int64_t cg = l.x.c / l.group, mg = l.m / l.group, k = l.kh * l.kw;
  d.weight = runtime::Tensor(support::DType::kInt8, {l.m, l.x.c, l.kh, l.kw});
  const int8_t* w = l.weight.data<int8_t>();
  int8_t* dw = d.weight.data<int8_t>();
  for (int64_t m = 0; m < l.m; ++m)
    for (int64_t c = 0; c < cg; ++c)
      std::copy(w + (m * cg + c) * k, w + (m * cg + c + 1) * k, dw + (m * l.x.c + m / mg * cg + c) * k);
  return d;
}

Status checkSchedule(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw) {
  auto fail = [&](const std::string& buffer, int64_t need, int64_t have) {
    return support::error(support::Location::node(l.name, l.name),
                          "no legal tiling: the " + buffer + " buffer needs " + std::to_string(need) +
                              " entries for this layer (double-buffered) but has " + std::to_string(have));
  };
  // One pixel per input and accumulator entry: a core of several rows would
  // need the pixels of a tile spread across them, which this lowering does not do.
  if (hw.batch != 1)
    return support::error(support::Location::node(l.name, l.name),
                          "the convolution lowering needs gemm.batch = 1 (one pixel per buffer entry); this core has " +
                              std::to_string(hw.batch));
  ACCELC_ASSIGN_OR_RETURN(const GroupForm f, groupForm(l, hw));
  if (s.tileRows < 1 || s.chunkBlocks < 1 || s.tileCols < 0 || s.outBlocks < 1 || f.inBlocks % s.chunkBlocks ||
      f.outBlocks % s.outBlocks)
    return support::error(support::Location::node(l.name, l.name),
                          "schedule: tile rows, chunk blocks and output blocks must be positive, chunks must divide the "
                          "input blocks and output blocks the output's (of one group unit)");
  const Plan p = planOf(l, s, hw, f);
  if (2 * p.inpHalf > hw.depth(BufferKind::kInput)) return fail("input", 2 * p.inpHalf, hw.depth(BufferKind::kInput));
  if (2 * p.wgtHalf > hw.depth(BufferKind::kWeight)) return fail("weight", 2 * p.wgtHalf, hw.depth(BufferKind::kWeight));
  const int64_t accDepth = std::min(hw.depth(BufferKind::kAcc), hw.depth(BufferKind::kOutput));
  if (2 * p.accHalf > accDepth) return fail("accumulator", 2 * p.accHalf, accDepth);
  if (p.uops > hw.depth(BufferKind::kUop)) return fail("micro-op", p.uops, hw.depth(BufferKind::kUop));
  return Status::ok();
}

support::Expected<std::vector<ConvSchedule>> rankSchedules(const ConvLayer& l, const hwspec::HwSpec& hw) {
  std::vector<ConvSchedule> legal;
  Status firstError;
  ACCELC_ASSIGN_OR_RETURN(const GroupForm f, groupForm(l, hw));
  const int64_t cb = f.inBlocks, mb = f.outBlocks;
  std::vector<int64_t> widths;  // whole rows, then halves, thirds, ... of a row
  for (int64_t parts = 1; parts <= l.ow; ++parts) {
    const int64_t w = (l.ow + parts - 1) / parts;
    if (widths.empty() || widths.back() != w) widths.push_back(w);
  }
  for (int64_t mbT = 1; mbT <= mb; ++mbT)
  for (int64_t cbT = cb; cbT >= 1; --cbT) {
    if (cb % cbT || mb % mbT) continue;
    for (int64_t cols : widths)
    for (int64_t rows = l.oh; rows >= 1; --rows) {
      ConvSchedule s{rows, cbT, cols == l.ow ? 0 : cols, 0, "", mbT};
      Status st = checkSchedule(l, s, hw);
      if (!st) {
        if (firstError.isOk()) firstError = st;
        continue;
      }
      s.cycles = estimate(l, planOf(l, s, hw, f), hw);
      legal.push_back(s);
    }
  }
  if (legal.empty()) {  // report the smallest tiling's problem: the one no schedule can avoid
    Status smallest = checkSchedule(l, ConvSchedule{1, 1, 1, 0, ""}, hw);
    return smallest ? firstError.diag() : smallest.diag();
  }
  std::stable_sort(legal.begin(), legal.end(), [](const ConvSchedule& a, const ConvSchedule& b) { return a.cycles < b.cycles; });
  return legal;
}

std::string describe(const ConvSchedule& s) {  // (the ALU and DMA forms are the caller's to say)
  return std::to_string(s.tileRows) + " rows x " + (s.tileCols ? std::to_string(s.tileCols) : std::string("all")) +
         " columns x " + std::to_string(s.outBlocks) + " output blocks x " + std::to_string(s.chunkBlocks) +
         " input blocks per chunk";
}

support::Expected<ConvSchedule> chooseSchedule(const ConvLayer& l, const hwspec::HwSpec& hw) {
  ACCELC_ASSIGN_OR_RETURN(std::vector<ConvSchedule> ranked, rankSchedules(l, hw));
  ConvSchedule best = ranked.front();
  best.why = std::to_string(ranked.size()) + " legal tilings; chose " + describe(best) + ", the lowest estimate (" +
             std::to_string(best.cycles) + " cycles)";
  return best;
}

ConvLayer matmulLayer(const std::string& name, const runtime::Shape& a, const runtime::Shape& b,
                      const runtime::QMulAttrs& q, const hwspec::HwSpec& hw) {
  ConvLayer l;
  l.name = name;
  const runtime::Shape x = *runtime::blockedShape(a, runtime::BlockedForm::kRows, hw.blockIn);
  l.m = b.back(), l.oh = 1, l.ow = x[3];
  l.x = {x[0], x[1], 1, x[3], hw.blockIn, 0, 0, 0, 0, 0};
  l.y = {x[0], l.m, 1, x[3], hw.blockOut, 0, 0, 0, 0, static_cast<int8_t>(q.zeroPoint)};
  l.zeroPoint = q.zeroPoint, l.lo = std::max<int64_t>(q.lo, -128), l.hi = std::min<int64_t>(q.hi, 127);
  l.bias.assign(static_cast<size_t>(l.m), 0);
  l.mult.assign(static_cast<size_t>(l.m), static_cast<int32_t>(q.mult));
  l.shift.assign(static_cast<size_t>(l.m), static_cast<int32_t>(q.shift));
  l.imageWeights = true;
  return l;
}

std::vector<uint8_t> packConvWeights(const ConvLayer& l, const hwspec::HwSpec& hw) {
  const GroupForm f = groupForm(l, hw).value();  // the layer's schedule was checked
  const int64_t bi = hw.blockIn, bo = hw.blockOut, cb = f.inBlocks, mb = (l.m + bo - 1) / bo;
  const int64_t cg = l.x.c / l.group, mg = l.m / l.group;
  std::vector<uint8_t> out(static_cast<size_t>(mb * l.kh * cb * l.kw * bo * bi), 0);
  const int8_t* w = l.weight.data<int8_t>();
  for (int64_t m = 0; m < l.m; ++m)
    for (int64_t ci = 0; ci < cg; ++ci) {
      // The input channel of the whole tensor, and its block within its unit's blocks.
      const int64_t c = m / mg * cg + ci, block = c / bi - m / bo / f.outBlocks * f.inBlocks;
      for (int64_t y = 0; y < l.kh; ++y)
        for (int64_t x = 0; x < l.kw; ++x) {
          const int64_t entry = ((m / bo * l.kh + y) * cb + block) * l.kw + x;
          out[(entry * bo + m % bo) * bi + c % bi] = static_cast<uint8_t>(w[((m * cg + ci) * l.kh + y) * l.kw + x]);
        }
    }
  return out;
}

std::vector<uint8_t> packConvParams(const ConvLayer& l, const hwspec::HwSpec& hw) {
  const int64_t bo = hw.blockOut, mb = (l.m + bo - 1) / bo;
  std::vector<int32_t> rows(static_cast<size_t>(mb * 3 * bo), 0);
  for (int64_t m = 0; m < l.m; ++m) {
    rows[(m / bo * 3 + 0) * bo + m % bo] = l.bias[m];
    rows[(m / bo * 3 + 1) * bo + m % bo] = l.mult[m];
    rows[(m / bo * 3 + 2) * bo + m % bo] = l.shift[m];
  }
  std::vector<uint8_t> out(rows.size() * 4);
  std::memcpy(out.data(), rows.data(), out.size());  // little-endian int32, as LOAD acc reads them
  return out;
}

namespace {

/// LOAD of the bias, multiplier and shift rows of the output blocks at
/// `blocks` (a row offset into the parameters) into the parameter rows of the
/// accumulator half at `accBase`.
Stmt paramsLoad(const Plan& p, const hwspec::HwSpec& hw, const ConvAddrs& a, const Expr& accBase, const Expr& blocks,
                const char* what) {
  return Stmt::intrinsic(Opcode::kLoad, what)
      .set("buffer", static_cast<int64_t>(Buffer::kAcc))
      .set("sram_base", accBase + Expr(paramRow(p, 0)))
      .set("dram_base", Expr(static_cast<int64_t>(a.params / hw.entryBytes(BufferKind::kAcc))) + blocks)
      .set("y_size", 1)
      .set("x_size", 3 * p.mbT)
      .set("x_stride", 3 * p.mbT);
}

/// The loop variables around the tiles: image, group unit (-1 when there is one) and output block tile.
struct TileVars {
  int n = -1, unit = -1, mb = -1;
  /// unit · `per` (nothing when there is one unit).
  Expr unitTerm(int64_t per) const { return unit < 0 ? Expr(0) : Expr::var(unit, per); }
};

/// Weight entries of one image: every unit's output blocks by its kernel and input blocks.
int64_t weightEntries(const ConvLayer& l, const Plan& p) { return p.units * p.mbU * l.kh * p.cbU * l.kw; }

/// Emits the loads of a chunk's per-image weights (a matrix product's right operand, runtime::BlockedForm::
/// kWeights), whose blocks lie channel block first: output block j's blocks of the chunk are mbU entries apart
/// in DRAM, where the weight buffer wants each output block's chunk in a row. One DMA when the chunk is one
/// channel block (the tile's output blocks lie side by side) or the tile one output block; else one DMA per
/// output block, the last telling the compute unit.
void emitImageWeightLoads(Kernel& k, std::vector<Stmt>& body, const Plan& p, const Expr& image, const Expr& sram,
                          int vmb, int vc, const std::string& suffix) {
  ACCELC_CHECK(p.units == 1) << "per-image weights are one group's (ConvLayer::imageWeights)";
  auto load = [&](const Expr& j, bool last) {
    const Expr dram = image + Expr::var(vc, p.cbT * p.mbU) + Expr::var(vmb, p.mbT) + j;
    Stmt s = Stmt::intrinsic(Opcode::kLoad, "weights of the chunk").set("buffer", static_cast<int64_t>(Buffer::kWgt));
    if (p.cbT == 1)
      s.set("sram_base", sram).set("dram_base", dram).set("y_size", 1).set("x_size", p.mbT).set("x_stride", p.mbT);
    else
      s.set("sram_base", sram + j * p.cbT).set("dram_base", dram).set("y_size", p.cbT).set("x_size", 1)
          .set("x_stride", p.mbU);
    if (last) s.flag("push_next");
    return s;
  };
  if (p.cbT > 1 && p.mbT > 1) {
    const int vj = k.newVar("wj" + suffix);
    Stmt each = Stmt::loop(vj, p.mbT - 1);
    each.body.push_back(load(Expr::var(vj), false));
    body.push_back(each);
  }
  body.push_back(load(Expr(p.cbT > 1 ? p.mbT - 1 : 0), true));
}

/// Emits one tile of `kind` at tile row `tr` and tile column `tc`: bias and
/// parameter rows, the chunks' loads and GEMMs, the requantization, the store.
void emitTile(Kernel& k, std::vector<Stmt>& body, const ConvLayer& l, const Plan& p, const hwspec::HwSpec& hw,
              const ConvAddrs& a, int kind, Expr tr, Expr tc, const TileVars& v) {
  const int vn = v.n, vmb = v.mb;
  const int64_t rows = p.rows(kind), cols = p.cols(kind), pix = rows * cols, u = padded(pix, p.hazard);
  const int64_t inRows = (rows - 1) * l.sh + l.kh, win = (cols - 1) * l.sw + l.kw;
  const int64_t inpE = hw.entryBytes(BufferKind::kInput);
  const int64_t wgtE = hw.entryBytes(BufferKind::kWeight), outE = hw.entryBytes(BufferKind::kOutput);
  const int64_t totalTiles = l.x.n * p.outTiles() * p.tiles(), totalChunks = totalTiles * p.chunks;
  const std::string suffix = kind ? "_" + std::to_string(kind) : "";
  // The linear tile counter (((n·U + u)·G + mb)·RT + tr)·CT + tc over U units of G groups of output blocks,
  // as one affine term (so it can be taken mod 2).
  Term tt{0, {{vn, p.outTiles() * p.tiles()}, {vmb, p.tiles()}}, 0, 1};
  if (v.unit >= 0) tt.coeffs.push_back({v.unit, p.groups * p.tiles()});
  for (const auto& [e, scale] : {std::make_pair(tr, p.colTiles), std::make_pair(tc, int64_t{1})})
    for (const Term& x : e.terms) {
      tt.constant += x.constant * scale;
      for (const auto& [id, co] : x.coeffs) tt.coeffs.push_back({id, co * scale});
    }
  Expr tileE;
  tileE.terms = {tt};
  const Expr accBase = tileE.mod(2, p.accHalf);
  // A tile's first compute instruction waits for the store unit to free its accumulator half.
  if (p.outTiles() > 1)
    body.push_back(paramsLoad(p, hw, a, accBase, Expr::var(vmb, 3 * p.mbT) + v.unitTerm(3 * p.mbU),
                              "bias, multiplier and shift rows")
                       .flag("pop_next", tileE, 2));
  const int64_t set = p.mbT * p.aluPixels(kind);  // ALU micro-ops per pass
  const Expr alu0 = Expr(p.aluOff[kind]) + tileE.mod(2, 3 * set);
  auto alu = [&](isa::AluOp op, Expr at, const char* what) {
    Stmt s = Stmt::intrinsic(Opcode::kAlu, what);
    s.set("uop_bgn", at).set("uop_end", at + Expr(set));
    if (p.aluLoops)  // per block's micro-op: its rows, then its columns; the source row stays
      s.set("iter_out", rows).set("iter_in", cols).set("dst_factor_out", cols).set("dst_factor_in", 1);
    else
      s.set("iter_out", 1).set("iter_in", 1);
    return s.set("alu_op", static_cast<int64_t>(op));
  };
  body.push_back(alu(isa::AluOp::kMov, alu0 + Expr(2 * set), "bias into the tile's accumulator rows"));
  if (p.outTiles() == 1) body.back().flag("pop_next", tileE, 2);
  const int vc = k.newVar("c" + suffix);
  Stmt chunks = Stmt::loop(vc, p.chunks);
  Term gt = tt;  // chunk counter g = tile · chunks + c
  for (auto& [id, co] : gt.coeffs) co *= p.chunks;
  gt.constant *= p.chunks;
  gt.coeffs.push_back({vc, 1});
  Expr g;
  g.terms = {gt};
  const Expr rowStart = Expr(l.x.top - l.pt) + tr * (p.th * l.sh);
  const Expr colStart = Expr(l.x.left - l.pl) + tc * (p.tw * l.sw);
  // One DMA moves all the chunk's rows and pays the DRAM latency once (Plan::oneDma); otherwise one a row.
  const bool oneDma = p.oneDma;
  auto inpLoad = [&](Expr r, bool first) {
    // DRAM entry of (image n, row rowStart + r, block c·cbT, column colStart).
    Expr dram = Expr(static_cast<int64_t>(a.x / inpE)) + colStart + Expr::var(vn, l.x.rows() * l.x.rowBlocks() * l.x.cols()) +
                (rowStart + r) * (l.x.rowBlocks() * l.x.cols()) + v.unitTerm(p.cbU * l.x.cols()) + Expr::var(vc, p.cbT * l.x.cols());
    Stmt s = Stmt::intrinsic(Opcode::kLoad, first ? "input rows of the chunk" : "");
    s.set("buffer", static_cast<int64_t>(Buffer::kInp))
        .set("sram_base", g.mod(2, p.inpHalf) + r * (p.cbT * win))
        .set("dram_base", dram)
        .set("y_size", oneDma ? inRows : p.cbT)
        .set("x_size", win)
        .set("x_stride", oneDma ? l.x.rowBlocks() * l.x.cols() : l.x.cols());
    if (first) s.flag("pop_next", g, 2);
    return s;
  };
  chunks.body.push_back(inpLoad(Expr(0), true));
  if (!oneDma && inRows > 1) {
    const int vr = k.newVar("r" + suffix);
    Stmt rowsLoop = Stmt::loop(vr, inRows - 1);
    rowsLoop.body.push_back(inpLoad(Expr::var(vr) + Expr(1), false));
    chunks.body.push_back(rowsLoop);
  }
  if (l.imageWeights) {
    const Expr image = Expr(static_cast<int64_t>(a.weights / wgtE)) + Expr::var(vn, weightEntries(l, p));
    emitImageWeightLoads(k, chunks.body, p, image, g.mod(2, p.wgtHalf), vmb, vc, suffix);
  } else {
    chunks.body.push_back(Stmt::intrinsic(Opcode::kLoad, "weights of the chunk")
                              .set("buffer", static_cast<int64_t>(Buffer::kWgt))
                              .set("sram_base", g.mod(2, p.wgtHalf))
                              .set("dram_base", Expr(static_cast<int64_t>(a.weights / wgtE)) +
                                                    Expr::var(vmb, p.mbT * l.kh * p.cbU * l.kw) +
                                                    v.unitTerm(p.mbU * l.kh * p.cbU * l.kw) +
                                                    Expr::var(vc, p.cbT * l.kw))
                              .set("y_size", p.mbT * l.kh)
                              .set("x_size", p.cbT * l.kw)
                              .set("x_stride", p.cbU * l.kw)
                              .flag("push_next"));
  }
  const Expr gset = Expr(p.gemmOff[kind]) + g.mod(2, 2 * p.mbT * u) + tileE.mod(2, p.mbT * u);
  chunks.body.push_back(Stmt::intrinsic(Opcode::kGemm, "reduce the chunk into the tile")
                            .set("uop_bgn", gset)
                            .set("uop_end", gset + Expr(p.mbT * u))
                            .set("iter_out", l.kh * p.cbT)
                            .set("iter_in", l.kw)
                            .set("src_factor_out", win)
                            .set("src_factor_in", 1)
                            .set("wgt_factor_out", l.kw)
                            .set("wgt_factor_in", 1)
                            .flag("pop_prev")
                            .flag("push_prev", g, INT64_MIN, totalChunks - 2));
  body.push_back(chunks);
  // Requantize: mulq (unless left out), shrr (unless no channel shifts), add the zero point, clamp.
  std::vector<Stmt> alus;
  if (multiplies(l)) alus.push_back(alu(isa::AluOp::kMulq, alu0, "per-channel multiplier"));
  if (shifts(l)) alus.push_back(alu(isa::AluOp::kShrr, alu0 + Expr(set), "shift right, rounding"));
  auto imm = [&](isa::AluOp op, int64_t v, const char* what) {
    alus.push_back(alu(op, alu0, what));
    alus.back().set("use_imm", 1).set("imm", v);
  };
  if (l.zeroPoint) imm(isa::AluOp::kAdd, l.zeroPoint, "output zero point");
  if (l.lo > -128) imm(isa::AluOp::kMax, l.lo, "clamp below (ReLU)");
  if (l.hi < 127 || alus.empty()) imm(isa::AluOp::kMin, l.hi, "clamp above");
  alus.back().flag("push_next");
  body.insert(body.end(), alus.begin(), alus.end());
  // One STORE per output block: the first waits for the requantization, the last frees the tile.
  auto store = [&](const Expr& j) {
    const Expr ydram = Expr(static_cast<int64_t>(a.y / outE) + l.y.left) + tc * p.tw +
                       Expr::var(vn, l.y.rows() * l.y.rowBlocks() * l.y.cols()) +
                       (Expr(l.y.top) + tr * p.th) * (l.y.rowBlocks() * l.y.cols()) +
                       Expr::var(vmb, p.mbT * l.y.cols()) + v.unitTerm(p.mbU * l.y.cols()) + j * l.y.cols();
    return Stmt::intrinsic(Opcode::kStore, "the tile's output rows")
        .set("buffer", static_cast<int64_t>(Buffer::kOut))
        .set("sram_base", accBase + j * u)
        .set("dram_base", ydram)
        .set("y_size", rows)
        .set("x_size", cols)
        .set("x_stride", l.y.rowBlocks() * l.y.cols());
  };
  body.push_back(store(Expr(0)).flag("pop_prev"));
  if (p.mbT > 2) {
    const int vj = k.newVar("wj" + suffix);
    Stmt blocks = Stmt::loop(vj, p.mbT - 2);
    blocks.body.push_back(store(Expr::var(vj) + Expr(1)));
    body.push_back(blocks);
  }
  if (p.mbT > 1) body.push_back(store(Expr(p.mbT - 1)));
  body.back().flag("push_prev", tileE, INT64_MIN, totalTiles - 2);
}

/// The tiles of one row kind: full columns in a loop, then the last column tile.
void emitRow(Kernel& k, std::vector<Stmt>& body, const ConvLayer& l, const Plan& p, const hwspec::HwSpec& hw,
             const ConvAddrs& a, int rowKind, Expr tr, const TileVars& v) {
  if (p.fullCols > 1) {
    const int vt = k.newVar("tc" + std::string(rowKind ? "_1" : ""));
    Stmt cols = Stmt::loop(vt, p.fullCols);
    emitTile(k, cols.body, l, p, hw, a, rowKind, tr, Expr::var(vt), v);
    body.push_back(cols);
  } else if (p.fullCols == 1) {
    emitTile(k, body, l, p, hw, a, rowKind, tr, Expr(0), v);
  }
  if (p.twLast) emitTile(k, body, l, p, hw, a, rowKind | 2, tr, Expr(p.fullCols), v);
}

}  // namespace

Kernel lowerConv(const ConvLayer& l, const ConvSchedule& s, const hwspec::HwSpec& hw, const ConvAddrs& a) {
  const Plan p = planOf(l, s, hw, groupForm(l, hw).value());  // checked with the schedule
  Kernel k;
  k.name = l.name;
  k.uops = uopTable(p, l);
  k.body.push_back(uopTableLoad(p.uops));
  // One group of output blocks: its parameter rows stay in both halves, which the tiles never write.
  for (int64_t as = 0; p.outTiles() == 1 && as < 2; ++as)
    k.body.push_back(paramsLoad(p, hw, a, Expr(as * p.accHalf), Expr(0),
                                as ? "" : "bias, multiplier and shift rows, into both halves"));
  TileVars v;
  v.n = k.newVar("n");
  if (p.units > 1) v.unit = k.newVar("u");
  v.mb = k.newVar("mb");
  Stmt images = Stmt::loop(v.n, l.x.n), blocks = Stmt::loop(v.mb, p.groups);
  if (p.fullRows > 0) {
    const int vt = k.newVar("t");
    Stmt rows = Stmt::loop(vt, p.fullRows);
    emitRow(k, rows.body, l, p, hw, a, 0, Expr::var(vt), v);
    blocks.body.push_back(rows);
  }
  if (p.thLast) emitRow(k, blocks.body, l, p, hw, a, 1, Expr(p.fullRows), v);
  if (p.units > 1) {
    Stmt units = Stmt::loop(v.unit, p.units);
    units.body.push_back(blocks);
    images.body.push_back(units);
  } else {
    images.body.push_back(blocks);
  }
  k.body.push_back(images);
  k.body.push_back(Stmt::intrinsic(Opcode::kFinish, ""));
  return k;
}

}  // namespace accelc::compiler::lower
