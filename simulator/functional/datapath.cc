// simulator/functional/datapath.cc — LOAD, STORE, GEMM and ALU semantics.
#include "simulator/functional/datapath.h"

#include <algorithm>
#include <cstring>

#include "isa/arith.h"
#include "isa/encoding.h"
#include "isa/semantics.h"
#include "simulator/functional/gemm_kernel.h"

namespace accelc::simulator {

using hwspec::BufferKind;
using isa::Buffer;
using support::Status;

namespace {
int64_t depthOf(const Srams& s, BufferKind k) { return s.depth[static_cast<int>(k)]; }
}  // namespace

Datapath::Datapath(const isa::Target& t, isa::DramImage& dram, uint64_t windowBytes, Srams& srams,
                   isa::Counters& counters)
    : t_(t), dram_(dram), window_(std::min(windowBytes, dram.size())), s_(srams), c_(counters) {
  accRows_.assign(depthOf(s_, BufferKind::kAcc), AccRowState{});
}

support::Diagnostic Datapath::err(const std::string& msg) const {
  return support::error(support::Location::pc(name_, pc_), msg);
}

Status Datapath::execute(const isa::Instruction& insn, uint64_t pc, const std::string& name, RaceTracker* races) {
  pc_ = pc;
  name_ = name;
  switch (insn.opcode) {
    case isa::Opcode::kLoad:
      return load(insn.mem(), races);
    case isa::Opcode::kStore:
      return store(insn.mem(), races);
    case isa::Opcode::kGemm:
      return gemm(insn.gemm(), races);
    case isa::Opcode::kAlu:
      return alu(insn.alu(), races);
    case isa::Opcode::kFinish:
      return Status::ok();
  }
  return Status::ok();
}

Status Datapath::checkDram(const isa::MemInsn& m, int64_t elem) {
  if (m.xSize < 1 || m.ySize < 1)
    return err("empty DMA: y_size " + std::to_string(m.ySize) + " and x_size " + std::to_string(m.xSize) +
               " must both be at least 1");
  // Fields are at most 48 bits wide, so the element count cannot overflow; the byte count is checked.
  const uint64_t lastElem = static_cast<uint64_t>(m.dramBase) + static_cast<uint64_t>((m.ySize - 1) * m.xStride + m.xSize);
  const uint64_t e = static_cast<uint64_t>(elem);
  if (lastElem <= window_ / e) return Status::ok();
  const std::string reach = lastElem <= UINT64_MAX / e ? "byte " + std::to_string(lastElem * e)
                                                       : "element " + std::to_string(lastElem);
  return err("out-of-range DRAM access: the transfer reaches " + reach + " but the program's DRAM window holds " +
             std::to_string(window_) + " bytes (dram_base " + std::to_string(m.dramBase) + ", y_size " +
             std::to_string(m.ySize) + ", x_stride " + std::to_string(m.xStride) + ", x_size " +
             std::to_string(m.xSize) + ", " + std::to_string(elem) + "-byte elements)");
}

void Datapath::writeEntry(Buffer b, int64_t i, const uint8_t* src) {
  if (s_.tracksDefined()) s_.setDefined(isa::sramOf(b), i);
  switch (b) {
    case Buffer::kUop: {
      isa::Uop u = src ? isa::decodeUop(t_, src) : isa::Uop{};
      s_.uop[i] = {static_cast<uint32_t>(u.dst), static_cast<uint32_t>(u.src), static_cast<uint32_t>(u.wgt)};
      return;
    }
    case Buffer::kInp: {
      const int64_t n = s_.batch * s_.blockIn;
      src ? std::memcpy(&s_.inp[i * n], src, n) : std::memset(&s_.inp[i * n], 0, n);
      s_.packInput(i);
      return;
    }
    case Buffer::kWgt: {
      const int64_t n = s_.blockOut * s_.blockIn;
      src ? std::memcpy(&s_.wgt[i * n], src, n) : std::memset(&s_.wgt[i * n], 0, n);
      s_.packWeight(i);
      return;
    }
    case Buffer::kAcc: {
      const int64_t n = s_.batch * s_.blockOut;
      for (int64_t k = 0; k < n; ++k) {
        uint32_t v = 0;
        if (src) v = src[4 * k] | (src[4 * k + 1] << 8) | (src[4 * k + 2] << 16) | (uint32_t{src[4 * k + 3]} << 24);
        s_.acc[i * n + k] = static_cast<int32_t>(v);
      }
      return;
    }
    case Buffer::kAcc8: {
      const int64_t n = s_.batch * s_.blockOut;
      for (int64_t k = 0; k < n; ++k) s_.acc[i * n + k] = src ? static_cast<int8_t>(src[k]) : 0;
      return;
    }
    case Buffer::kOut:
      return;
  }
}

Status Datapath::load(const isa::MemInsn& m, RaceTracker* races) {
  Buffer b = Buffer(m.buffer);
  if (b == Buffer::kOut) return err("LOAD cannot write the output buffer; it is filled by GEMM and ALU");
  const BufferKind k = isa::sramOf(b);
  const int64_t elem = isa::dramEntryBytes(t_.spec, b);
  ACCELC_TRY(checkDram(m, elem));
  const int64_t cols = m.xPad0 + m.xSize + m.xPad1, rows = m.yPad0 + m.ySize + m.yPad1;
  if (m.sramBase + rows * cols > depthOf(s_, k))
    return err("LOAD writes " + std::string(isa::bufferName(b)) + " entries [" + std::to_string(m.sramBase) + ", " +
               std::to_string(m.sramBase + rows * cols) + ") but the buffer has " +
               std::to_string(depthOf(s_, k)) + " entries");
  Shared shared = b == Buffer::kInp ? Shared::kInp : Shared::kWgt;
  bool track = races && (b == Buffer::kInp || b == Buffer::kWgt);
  for (int64_t r = 0; r < rows; ++r) {
    for (int64_t c = 0; c < cols; ++c) {
      const int64_t idx = m.sramBase + r * cols + c, y = r - m.yPad0, x = c - m.xPad0;
      const bool pad = y < 0 || y >= m.ySize || x < 0 || x >= m.xSize;
      writeEntry(b, idx, pad ? nullptr : dram_.at((m.dramBase + y * m.xStride + x) * elem));
      if (track) races->write(shared, idx);
    }
  }
  c_.dramReadBytes += m.ySize * m.xSize * elem;
  c_.sramWriteBytes[static_cast<int>(k)] += rows * cols * t_.spec.entryBytes(k);
  return Status::ok();
}

Status Datapath::store(const isa::MemInsn& m, RaceTracker* races) {
  if (Buffer(m.buffer) != Buffer::kOut)
    return err(std::string("STORE reads only the output buffer, not '") + isa::bufferName(Buffer(m.buffer)) + "'");
  if (m.yPad0 || m.yPad1 || m.xPad0 || m.xPad1) return err("STORE cannot pad: every pad field must be 0");
  const int64_t elem = isa::dramEntryBytes(t_.spec, Buffer::kOut);
  ACCELC_TRY(checkDram(m, elem));
  const int64_t depth = depthOf(s_, BufferKind::kOutput);
  if (m.sramBase + m.ySize * m.xSize > depth)
    return err("STORE reads out entries [" + std::to_string(m.sramBase) + ", " +
               std::to_string(m.sramBase + m.ySize * m.xSize) + ") but the buffer has " + std::to_string(depth) +
               " entries");
  if (s_.tracksDefined())
    for (int64_t idx = m.sramBase; idx < m.sramBase + m.ySize * m.xSize; ++idx)
      if (!s_.isDefined(BufferKind::kOutput, idx)) return undefinedRead("STORE", "out", idx);
  for (int64_t y = 0; y < m.ySize; ++y)
    for (int64_t x = 0; x < m.xSize; ++x) {
      const int64_t idx = m.sramBase + y * m.xSize + x;
      std::memcpy(dram_.at((m.dramBase + y * m.xStride + x) * elem), &s_.out[idx * elem], elem);
      if (races) races->read(Shared::kOut, idx);
    }
  c_.dramWriteBytes += m.ySize * m.xSize * elem;
  c_.sramReadBytes[static_cast<int>(BufferKind::kOutput)] += m.ySize * m.xSize * elem;
  return Status::ok();
}

template <typename Insn>
Status Datapath::checkLoops(const Insn& g, bool readsSrc, int64_t srcDepth, const char* srcName, bool readsWgt) {
  const int64_t uopDepth = depthOf(s_, BufferKind::kUop);
  if (g.uopBgn >= g.uopEnd || g.uopEnd > uopDepth)
    return err("micro-op range [" + std::to_string(g.uopBgn) + ", " + std::to_string(g.uopEnd) +
               ") is empty or past the micro-op buffer's " + std::to_string(uopDepth) + " entries");
  if (g.iterOut < 1 || g.iterIn < 1)
    return err("loop extents iter_out " + std::to_string(g.iterOut) + " and iter_in " + std::to_string(g.iterIn) +
               " must both be at least 1");
  uint64_t dst = 0, src = 0, wgt = 0;
  for (int64_t u = g.uopBgn; u < g.uopEnd; ++u) {
    dst = std::max<uint64_t>(dst, s_.uop[u].dst);
    src = std::max<uint64_t>(src, s_.uop[u].src);
    wgt = std::max<uint64_t>(wgt, s_.uop[u].wgt);
  }
  dst += (g.iterOut - 1) * g.dstFactorOut + (g.iterIn - 1) * g.dstFactorIn;
  src += (g.iterOut - 1) * g.srcFactorOut + (g.iterIn - 1) * g.srcFactorIn;
  auto past = [&](const char* what, uint64_t idx, int64_t depth) {
    return err(std::string("reads or writes ") + what + " entry " + std::to_string(idx) + ", past the buffer's " +
               std::to_string(depth) + " entries");
  };
  const int64_t accDepth = std::min(depthOf(s_, BufferKind::kAcc), depthOf(s_, BufferKind::kOutput));
  if (dst >= static_cast<uint64_t>(accDepth)) return past("acc/out", dst, accDepth);
  if (readsSrc && src >= static_cast<uint64_t>(srcDepth)) return past(srcName, src, srcDepth);
  if constexpr (std::is_same_v<Insn, isa::GemmInsn>) {
    wgt += (g.iterOut - 1) * g.wgtFactorOut + (g.iterIn - 1) * g.wgtFactorIn;
    if (readsWgt && wgt >= static_cast<uint64_t>(depthOf(s_, BufferKind::kWeight)))
      return past("wgt", wgt, depthOf(s_, BufferKind::kWeight));
  }
  return Status::ok();
}

void Datapath::noteHazard(int64_t row, uint64_t first, uint64_t second) {
  if (!hazardMsg_.empty()) return;
  hazardMsg_ = "accumulator hazard: micro-op applications " + std::to_string(first) + " and " +
               std::to_string(second) + " of this instruction both touch acc row " + std::to_string(row) +
               ", fewer than timing.acc_hazard = " + std::to_string(t_.spec.timing.accHazard) + " apart";
}

bool Datapath::gemmHazardFree(const isa::GemmInsn& g) const {
  const int64_t h = t_.spec.timing.accHazard, n = g.uopEnd - g.uopBgn;
  if (h <= 1) return true;
  if (n < h) return false;
  const UopEntry* u = &s_.uop[g.uopBgn];
  // Inside one (i0, i1) block every row has the same offset.
  for (int64_t a = 0; a < n; ++a)
    for (int64_t b = a + 1; b < n && b - a < h; ++b)
      if (u[a].dst == u[b].dst) return false;
  // Across a block boundary the offset moves by one of two deltas.
  std::vector<int64_t> deltas;
  if (g.iterIn > 1) deltas.push_back(g.dstFactorIn);
  if (g.iterOut > 1) deltas.push_back(g.dstFactorOut - (g.iterIn - 1) * g.dstFactorIn);
  for (int64_t d : deltas)
    for (int64_t a = n - h + 1; a < n; ++a)
      for (int64_t b = 0; n - a + b < h; ++b)
        if (int64_t{u[a].dst} == int64_t{u[b].dst} + d) return false;
  return true;
}

/// Calls fn(index) for every index `uop[u].*field + i0*out + i1*in` of the
/// instruction's loop. A loop whose factor is 0 repeats the same indices, so it
/// is walked once: the set is exact, without the repeats.
template <typename Insn, typename Fn>
void Datapath::forEachIndex(const Insn& g, uint32_t UopEntry::*field, int64_t out, int64_t in, Fn fn) const {
  const int64_t n0 = out ? g.iterOut : 1, n1 = in ? g.iterIn : 1;
  for (int64_t i0 = 0; i0 < n0; ++i0)
    for (int64_t i1 = 0; i1 < n1; ++i1)
      for (int64_t u = g.uopBgn; u < g.uopEnd; ++u) fn(s_.uop[u].*field + i0 * out + i1 * in);
}

support::Diagnostic Datapath::undefinedRead(const char* op, const char* buffer, int64_t idx) const {
  return err(std::string(op) + " reads " + buffer + " entry " + std::to_string(idx) +
             ", which nothing wrote since the device was reset (--check-defined)");
}

template <typename Insn>
Status Datapath::checkDefinedReads(const Insn& g, const char* op, bool acc, bool src) const {
  if (!s_.tracksDefined()) return Status::ok();
  for (int64_t u = g.uopBgn; u < g.uopEnd; ++u)
    if (!s_.isDefined(BufferKind::kUop, u)) return undefinedRead(op, "uop", u);
  const char* buffer = nullptr;
  int64_t bad = -1;
  auto need = [&](BufferKind k, const char* name) {
    return [&, k, name](int64_t i) {
      if (bad < 0 && !s_.isDefined(k, i)) bad = i, buffer = name;
    };
  };
  if (acc) forEachIndex(g, &UopEntry::dst, g.dstFactorOut, g.dstFactorIn, need(BufferKind::kAcc, "acc"));
  if constexpr (std::is_same_v<Insn, isa::GemmInsn>) {
    if (src) {
      forEachIndex(g, &UopEntry::src, g.srcFactorOut, g.srcFactorIn, need(BufferKind::kInput, "inp"));
      forEachIndex(g, &UopEntry::wgt, g.wgtFactorOut, g.wgtFactorIn, need(BufferKind::kWeight, "wgt"));
    }
  } else if (src) {
    forEachIndex(g, &UopEntry::src, g.srcFactorOut, g.srcFactorIn, need(BufferKind::kAcc, "acc"));
  }
  return bad < 0 ? Status::ok() : Status(undefinedRead(op, buffer, bad));
}

template <typename Insn>
void Datapath::markResults(const Insn& g) {
  if (!s_.tracksDefined()) return;
  forEachIndex(g, &UopEntry::dst, g.dstFactorOut, g.dstFactorIn, [&](int64_t i) {
    s_.setDefined(BufferKind::kAcc, i);
    s_.setDefined(BufferKind::kOutput, i);
  });
}

Status Datapath::gemm(const isa::GemmInsn& g, RaceTracker* races) {
  const bool reset = g.reset != 0;
  ACCELC_TRY(checkLoops(g, !reset, depthOf(s_, BufferKind::kInput), "inp", !reset));
  ACCELC_TRY(checkDefinedReads(g, "GEMM", !reset, !reset));
  ++serial_;
  hazardMsg_.clear();
  const uint64_t apps = static_cast<uint64_t>(g.iterOut * g.iterIn * (g.uopEnd - g.uopBgn));
  if (!gemmHazardFree(g)) {
    uint64_t app = 0;
    for (int64_t i0 = 0; i0 < g.iterOut; ++i0)
      for (int64_t i1 = 0; i1 < g.iterIn; ++i1)
        for (int64_t u = g.uopBgn; u < g.uopEnd; ++u, ++app)
          hazard(s_.uop[u].dst + i0 * g.dstFactorOut + i1 * g.dstFactorIn, app, true);
  }
  if (races) {
    forEachIndex(g, &UopEntry::dst, g.dstFactorOut, g.dstFactorIn, [&](int64_t i) { races->write(Shared::kOut, i); });
    if (!reset) {
      forEachIndex(g, &UopEntry::src, g.srcFactorOut, g.srcFactorIn, [&](int64_t i) { races->read(Shared::kInp, i); });
      forEachIndex(g, &UopEntry::wgt, g.wgtFactorOut, g.wgtFactorIn, [&](int64_t i) { races->read(Shared::kWgt, i); });
    }
  }
  if (!hazardMsg_.empty()) return err(hazardMsg_);
  GemmArgs a;
  a.uops = reinterpret_cast<const uint32_t*>(s_.uop.data());
  a.uopBgn = g.uopBgn, a.uopEnd = g.uopEnd, a.iterOut = g.iterOut, a.iterIn = g.iterIn;
  a.dstOut = g.dstFactorOut, a.dstIn = g.dstFactorIn, a.srcOut = g.srcFactorOut, a.srcIn = g.srcFactorIn;
  a.wgtOut = g.wgtFactorOut, a.wgtIn = g.wgtFactorIn, a.reset = reset;
  a.acc = s_.acc.data(), a.out = s_.out.data(), a.inp = s_.inp.data(), a.wgt = s_.wgt.data();
  a.inpPairs = s_.inpPairs.data(), a.wgtPairs = s_.wgtPairs.data();
  a.batch = s_.batch, a.blockIn = s_.blockIn, a.blockOut = s_.blockOut;
  gemmVnniUsable(a) ? gemmVnni(a) : gemmPortable(a);
  markResults(g);
  const int64_t accRow = s_.batch * s_.blockOut;
  const uint64_t app = apps;
  c_.gemmUops += app;
  if (!reset) {
    c_.macs += app * s_.batch * s_.blockIn * s_.blockOut;
    c_.sramReadBytes[static_cast<int>(BufferKind::kInput)] += app * t_.spec.entryBytes(BufferKind::kInput);
    c_.sramReadBytes[static_cast<int>(BufferKind::kWeight)] += app * t_.spec.entryBytes(BufferKind::kWeight);
    c_.sramReadBytes[static_cast<int>(BufferKind::kAcc)] += app * accRow * 4;
  }
  c_.sramWriteBytes[static_cast<int>(BufferKind::kAcc)] += app * accRow * 4;
  c_.sramWriteBytes[static_cast<int>(BufferKind::kOutput)] += app * accRow;
  return Status::ok();
}

Status Datapath::alu(const isa::AluInsn& a, RaceTracker* races) {
  const isa::AluOp op = isa::AluOp(a.aluOp);
  if (!t_.spec.hasAluOp(isa::aluOpName(op)))
    return err(std::string("illegal instruction: ALU operation '") + isa::aluOpName(op) +
               "' is not in this hardware's alu.ops");
  const bool reset = a.reset != 0, useSrc = !reset && !a.useImm;
  ACCELC_TRY(checkLoops(a, useSrc, depthOf(s_, BufferKind::kAcc), "acc", false));
  // mov replaces the destination: the only operation that does not read it.
  ACCELC_TRY(checkDefinedReads(a, "ALU", !reset && op != isa::AluOp::kMov, useSrc));
  int immBits = 32;
  for (const isa::FieldLayout& f : t_.isa.format(isa::Format::kAlu).fields)
    if (f.name == "imm") immBits = f.bits;
  const int32_t imm = isa::arith::aluImmediate(op, a.imm, immBits);
  ++serial_;
  hazardMsg_.clear();
  if (races)
    forEachIndex(a, &UopEntry::dst, a.dstFactorOut, a.dstFactorIn, [&](int64_t i) { races->write(Shared::kOut, i); });
  const int64_t n = s_.batch * s_.blockOut;
  uint64_t app = 0;
  for (int64_t i0 = 0; i0 < a.iterOut; ++i0)
    for (int64_t i1 = 0; i1 < a.iterIn; ++i1)
      for (int64_t u = a.uopBgn; u < a.uopEnd; ++u, ++app) {
        const int64_t dst = s_.uop[u].dst + i0 * a.dstFactorOut + i1 * a.dstFactorIn;
        const int64_t src = s_.uop[u].src + i0 * a.srcFactorOut + i1 * a.srcFactorIn;
        if (useSrc && hazard(src, app, false)) return err(hazardMsg_);
        if (hazard(dst, app, true)) return err(hazardMsg_);
        int32_t* d = &s_.acc[dst * n];
        const int32_t* s = useSrc ? &s_.acc[src * n] : d;
        for (int64_t k = 0; k < n; ++k)
          d[k] = reset ? 0 : isa::arith::aluApply(op, d[k], useSrc ? s[k] : imm);
        for (int64_t k = 0; k < n; ++k) s_.out[dst * n + k] = isa::arith::saturateInt8(d[k]);
      }
  markResults(a);
  c_.aluUops += app;
  c_.sramReadBytes[static_cast<int>(BufferKind::kAcc)] += app * n * 4 * (useSrc ? 2 : 1);
  c_.sramWriteBytes[static_cast<int>(BufferKind::kAcc)] += app * n * 4;
  c_.sramWriteBytes[static_cast<int>(BufferKind::kOutput)] += app * n;
  return Status::ok();
}

}  // namespace accelc::simulator
