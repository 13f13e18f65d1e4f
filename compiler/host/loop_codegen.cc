// compiler/host/loop_codegen.cc — loop stages to LLVM IR.
//
// The nest is emitted in three regions, following the schedule's order:
//   outer:  the loops up to the last spatial loop outside the register tile;
//           reduction loops among them fold in memory (the first of their
//           iterations starts from `init`, the others from the output, and
//           only the last applies the epilogue);
//   inner:  the reduction loops after it, folding into the tile's accumulators;
//   tile:   the unrolled spatial points and the vector lanes, emitted
//           straight-line at each innermost iteration (but for the branches
//           of bounded loads: a plain load where every lane is inside the
//           bounds, and of a masked load the target has no instruction for:
//           maskedLoad).
// The accumulators live in allocas that LLVM's SROA turns into registers.
// Values are float or int32 vectors (loop_ir.h): 8-bit loads widen as they
// are read and narrow as they are stored, so the arithmetic is all 32-bit.
#include "compiler/host/loop_codegen.h"

#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/IntrinsicsX86.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <optional>

#include "compiler/host/ir_ops.h"

namespace accelc::compiler::host {

namespace {

/// One point of the register tile: the constant offset it adds to each axis.
using TilePoint = std::vector<int64_t>;

class StageBuilder {
 public:
  StageBuilder(llvm::Module& m, const LoopKernel& k, const LoopStage& s, const StageSchedule& sc)
      : m_(m), b_(m.getContext()), k_(k), s_(s), sc_(sc) {}

  void build(const std::string& symbol) {
    llvm::LLVMContext& c = m_.getContext();
    llvm::Type* i64 = b_.getInt64Ty();
    llvm::PointerType* bytePtr = b_.getInt8PtrTy();
    // The body takes each buffer as its own noalias pointer of its element
    // type; the exported wrapper unpacks the array and is inlined over it.
    std::vector<llvm::Type*> params;
    for (size_t i = 0; i < k_.buffers.size(); ++i) params.push_back(elemType(static_cast<int>(i))->getPointerTo());
    params.push_back(i64), params.push_back(i64);
    auto* implTy = llvm::FunctionType::get(b_.getVoidTy(), params, false);
    llvm::Function* impl = llvm::Function::Create(implTy, llvm::Function::InternalLinkage, symbol + ".body", m_);
    impl->addFnAttr(llvm::Attribute::AlwaysInline);
    impl->addFnAttr(llvm::Attribute::NoUnwind);
    for (size_t i = 0; i < k_.buffers.size(); ++i) impl->addParamAttr(static_cast<unsigned>(i), llvm::Attribute::NoAlias);
    fn_ = impl;
    entry_ = llvm::BasicBlock::Create(c, "entry", impl);
    b_.SetInsertPoint(entry_);
    for (size_t i = 0; i < k_.buffers.size(); ++i) bufs_.push_back(impl->getArg(static_cast<unsigned>(i)));
    begin_ = impl->getArg(static_cast<unsigned>(k_.buffers.size()));
    end_ = impl->getArg(static_cast<unsigned>(k_.buffers.size() + 1));
    if (sc_.amx) {
      emitTiles();
    } else {
      setup();
      emitOuter(0);
    }
    b_.CreateRetVoid();

    auto* wrapTy = llvm::FunctionType::get(b_.getVoidTy(), {llvm::PointerType::getUnqual(bytePtr), i64, i64}, false);
    llvm::Function* wrap = llvm::Function::Create(wrapTy, llvm::Function::ExternalLinkage, symbol, m_);
    b_.SetInsertPoint(llvm::BasicBlock::Create(c, "entry", wrap));
    std::vector<llvm::Value*> args;
    for (size_t i = 0; i < k_.buffers.size(); ++i)
      args.push_back(b_.CreateBitCast(b_.CreateLoad(bytePtr, b_.CreateConstGEP1_64(bytePtr, wrap->getArg(0), i)),
                                      params[i]));
    args.push_back(wrap->getArg(1)), args.push_back(wrap->getArg(2));
    b_.CreateCall(impl, args);
    b_.CreateRetVoid();
  }

 private:
  const Loop& loop(int id) const { return sc_.loops[static_cast<size_t>(id)]; }

  /// A buffer's element type in memory.
  llvm::Type* elemType(int buffer) {
    const support::DType t = k_.buffers[static_cast<size_t>(buffer)].type;  // validate() admits these five
    if (t == support::DType::kInt8 || t == support::DType::kUint8) return b_.getInt8Ty();
    if (t == support::DType::kInt64) return b_.getInt64Ty();  // passed by, never loaded
    return t == support::DType::kInt32 ? b_.getInt32Ty() : b_.getFloatTy();
  }
  llvm::Align alignOf(int buffer) { return llvm::Align(static_cast<uint64_t>(support::dtypeBytes(k_.buffers[static_cast<size_t>(buffer)].type))); }
  /// `t`, or a vector of `width_` of them.
  llvm::Type* lanesOf(llvm::Type* t) {
    return width_ > 1 ? static_cast<llvm::Type*>(llvm::FixedVectorType::get(t, static_cast<unsigned>(width_))) : t;
  }
  /// A value read from `buffer` as the arithmetic's type: 8-bit integers widened to int32.
  llvm::Value* widen(llvm::Value* v, int buffer) {
    if (!v->getType()->getScalarType()->isIntegerTy(8)) return v;
    llvm::Type* to = v->getType()->getWithNewBitWidth(32);
    return k_.buffers[static_cast<size_t>(buffer)].type == support::DType::kUint8 ? b_.CreateZExt(v, to) : b_.CreateSExt(v, to);
  }
  /// A constant of vector type `t` (float or int32 lanes; ints from `v` as it stands).
  static llvm::Constant* constOf(llvm::Type* t, float v) {
    if (t->isIntOrIntVectorTy()) return llvm::ConstantInt::get(t, static_cast<uint64_t>(static_cast<int64_t>(v)), true);
    return llvm::ConstantFP::get(t, static_cast<double>(v));
  }
  bool isReduce(int id) const { return s_.axes[static_cast<size_t>(loop(id).axis)].reduce; }

  void setup() {
    const size_t n = sc_.order.size();
    tile_ = sc_.tileStart(s_);
    outerEnd_ = 0;
    for (size_t i = 0; i < tile_; ++i)
      if (!isReduce(sc_.order[i])) outerEnd_ = i + 1;
    for (size_t i = 0; i < outerEnd_; ++i)
      if (isReduce(sc_.order[i])) memFold_.push_back(sc_.order[i]);
    width_ = sc_.vector >= 0 ? sc_.vectorWidth : 1;
    vaxis_ = sc_.vector >= 0 ? loop(sc_.vector).axis : -1;
    vt_ = lanesOf(b_.getFloatTy());
    vti_ = lanesOf(b_.getInt32Ty());
    const bool integer = integerStage(k_, s_);
    accT_ = integer ? vti_ : vt_;
    valueInt_ = integerNodes(k_, s_.value, false);
    epilogueInt_ = integerNodes(k_, s_.epilogue, integer);
    var_.assign(sc_.loops.size(), nullptr);
    off_.assign(sc_.loops.size(), nullptr);
    trip_.assign(sc_.loops.size(), nullptr);
    for (const LoopAxis& a : s_.axes) remaining_.push_back(b_.getInt64(a.extent));
    if (width_ > 1) {
      std::vector<llvm::Constant*> l32, l64;
      for (int l = 0; l < width_; ++l) l32.push_back(b_.getInt32(static_cast<uint32_t>(l))), l64.push_back(b_.getInt64(static_cast<uint64_t>(l)));
      lanes32_ = llvm::ConstantVector::get(l32);
      lanes64_ = llvm::ConstantVector::get(l64);
      const int64_t range = loop(sc_.vector).range;
      if (range < width_) laneMask_ = b_.CreateICmpSLT(lanes32_, splat32(static_cast<int32_t>(range)));
    }
    // The tile's points: every combination of its unrolled loops' iterations.
    std::vector<int> unrolled;
    for (size_t i = tile_; i < n; ++i)
      if (sc_.order[i] != sc_.vector) unrolled.push_back(sc_.order[i]);
    points_.push_back(TilePoint(s_.axes.size(), 0));
    for (int id : unrolled) {
      std::vector<TilePoint> next;
      const Loop& l = loop(id);
      for (const TilePoint& p : points_)
        for (int64_t i = 0; i < l.iterations(); ++i) {
          TilePoint q = p;
          q[static_cast<size_t>(l.axis)] += l.range % l.span ? std::min(i * l.span, l.range - l.span) : i * l.span;
          next.push_back(q);
        }
      points_ = std::move(next);
    }
  }

  llvm::Value* splat32(int32_t v) { return b_.CreateVectorSplat(static_cast<unsigned>(width_), b_.getInt32(static_cast<uint32_t>(v))); }

  /// A counted loop from lo to hi; `body` emits the iteration for index i.
  void forLoop(llvm::Value* lo, llvm::Value* hi, const std::function<void(llvm::Value*)>& body) {
    llvm::LLVMContext& c = m_.getContext();
    llvm::BasicBlock* pre = b_.GetInsertBlock();
    auto* head = llvm::BasicBlock::Create(c, "loop", fn_);
    auto* bodyBB = llvm::BasicBlock::Create(c, "body", fn_);
    auto* exit = llvm::BasicBlock::Create(c, "exit", fn_);
    b_.CreateBr(head);
    b_.SetInsertPoint(head);
    llvm::PHINode* i = b_.CreatePHI(b_.getInt64Ty(), 2);
    i->addIncoming(lo, pre);
    b_.CreateCondBr(b_.CreateICmpSLT(i, hi), bodyBB, exit);
    b_.SetInsertPoint(bodyBB);
    body(i);
    i->addIncoming(b_.CreateAdd(i, b_.getInt64(1)), b_.GetInsertBlock());
    b_.CreateBr(head);
    b_.SetInsertPoint(exit);
  }

  /// Emits loop `id` around `inner`, binding its index and offset.
  void emitLoop(int id, bool outermost, const std::function<void()>& inner) {
    const Loop& l = loop(id);
    const size_t axis = static_cast<size_t>(l.axis);
    llvm::Value *lo = b_.getInt64(0), *hi;
    if (isReduce(id)) {  // the last tile of a reduction loop is shorter, never shifted
      llvm::Value* rem = remaining_[axis];
      hi = b_.CreateUDiv(b_.CreateAdd(rem, b_.getInt64(l.span - 1)), b_.getInt64(l.span));
    } else {
      hi = b_.getInt64(l.iterations());
      if (outermost) {
        lo = begin_;
        hi = b_.CreateSelect(b_.CreateICmpSLT(end_, hi), end_, hi);
      }
    }
    trip_[static_cast<size_t>(id)] = hi;
    forLoop(lo, hi, [&](llvm::Value* i) {
      var_[static_cast<size_t>(id)] = i;
      llvm::Value* o = b_.CreateMul(i, b_.getInt64(l.span));
      llvm::Value* saved = remaining_[axis];
      if (isReduce(id)) {
        llvm::Value* left = b_.CreateSub(saved, o);
        remaining_[axis] = b_.CreateSelect(b_.CreateICmpSLT(left, b_.getInt64(l.span)), left, b_.getInt64(l.span));
      } else if (l.range % l.span) {  // shift the last tile inwards
        llvm::Value* last = b_.getInt64(l.range - l.span);
        o = b_.CreateSelect(b_.CreateICmpSLT(o, last), o, last);
      }
      off_[static_cast<size_t>(id)] = o;
      inner();
      remaining_[axis] = saved;
      off_[static_cast<size_t>(id)] = nullptr;
    });
  }

  void emitOuter(size_t pos) {
    if (pos == outerEnd_) return emitTile();
    emitLoop(sc_.order[pos], pos == 0, [&] { emitOuter(pos + 1); });
  }

  /// The value of axis `a` at tile point `p` (lane 0 of the vector loop).
  llvm::Value* axisValue(size_t a, const TilePoint& p) {
    llvm::Value* v = b_.getInt64(p[a]);
    for (size_t id = 0; id < sc_.loops.size(); ++id)
      if (static_cast<size_t>(sc_.loops[id].axis) == a && off_[id]) v = b_.CreateAdd(v, off_[id]);
    return v;
  }

  llvm::Value* affine(const Affine& e, const TilePoint& p) {
    llvm::Value* v = b_.getInt64(static_cast<uint64_t>(e.c));
    for (size_t a = 0; a < s_.axes.size(); ++a)
      if (int64_t k = e.coefOf(a)) v = b_.CreateAdd(v, b_.CreateMul(axisValue(a, p), b_.getInt64(static_cast<uint64_t>(k))));
    return v;
  }

  int64_t vectorCoef(const Affine& e) const { return vaxis_ >= 0 ? e.coefOf(static_cast<size_t>(vaxis_)) : 0; }

  static llvm::Value* both(llvm::IRBuilder<>& b, llvm::Value* x, llvm::Value* y) { return x ? b.CreateAnd(x, y) : y; }

  /// The bounds' conditions: scalar ones (no lane dependence) and per-lane ones.
  void conditions(const std::vector<Bound>& bounds, const TilePoint& p, llvm::Value*& scalar, llvm::Value*& lanes) {
    for (const Bound& bd : bounds) {
      llvm::Value* e = affine(bd.e, p);
      if (const int64_t k = vectorCoef(bd.e)) {
        llvm::Value* ev = b_.CreateAdd(b_.CreateVectorSplat(static_cast<unsigned>(width_), b_.CreateTrunc(e, b_.getInt32Ty())),
                                       b_.CreateMul(lanes32_, splat32(static_cast<int32_t>(k))));
        lanes = both(b_, lanes, b_.CreateAnd(b_.CreateICmpSGE(ev, splat32(static_cast<int32_t>(bd.lo))),
                                             b_.CreateICmpSLT(ev, splat32(static_cast<int32_t>(bd.hi)))));
      } else {
        scalar = both(b_, scalar, within(e, bd));
      }
    }
  }

  llvm::Value* padOf(float v) { return llvm::ConstantFP::get(vt_, static_cast<double>(v)); }

  llvm::Value* load(const LoopNode& n, const TilePoint& p) { return widen(loadRaw(n, p), n.buffer); }

  /// The load's lanes in the buffer's element type (`pad` where the bounds fail).
  llvm::Value* loadRaw(const LoopNode& n, const TilePoint& p) {
    if (n.word) return wordLoad(n, p);
    llvm::Type* et = elemType(n.buffer);
    llvm::Type* lt = lanesOf(et);
    const llvm::Align al = alignOf(n.buffer);
    llvm::Value* base = bufs_[static_cast<size_t>(n.buffer)];
    llvm::Value* idx = affine(n.at, p);
    llvm::Value *sc = nullptr, *vc = nullptr;
    conditions(n.bounds, p, sc, vc);
    const int64_t kv = vectorCoef(n.at);
    if (kv == 0) {  // one element for every lane: load it where the scalar bounds hold
      if (sc) idx = b_.CreateSelect(sc, idx, b_.getInt64(0));
      llvm::Value* v = b_.CreateAlignedLoad(et, b_.CreateGEP(et, base, idx), al);
      if (sc) v = b_.CreateSelect(sc, v, constOf(et, n.pad));
      if (width_ == 1) return v;
      v = b_.CreateVectorSplat(static_cast<unsigned>(width_), v);
      return vc ? b_.CreateSelect(vc, v, constOf(lt, n.pad)) : v;
    }
    const bool bounded = vc || sc;
    if (laneMask_) vc = both(b_, vc, laneMask_);
    llvm::Value* mask = vc;
    if (sc) mask = both(b_, mask, b_.CreateVectorSplat(static_cast<unsigned>(width_), sc));
    auto emit = [&](llvm::Value* m) -> llvm::Value* {
      if (kv == 1) {
        if (m) return maskedLoad(lt, n.buffer, idx, al, m, constOf(lt, n.pad));
        return b_.CreateAlignedLoad(lt, b_.CreateBitCast(b_.CreateGEP(et, base, idx), lt->getPointerTo()), al);
      }
      if (kv >= 2 && kv <= 4) return stridedLoad(n.buffer, idx, kv, m, n.pad);
      llvm::Value* lanesIdx = b_.CreateAdd(
          b_.CreateVectorSplat(static_cast<unsigned>(width_), idx),
          b_.CreateMul(lanes64_,
                       b_.CreateVectorSplat(static_cast<unsigned>(width_), b_.getInt64(static_cast<uint64_t>(kv)))));
      llvm::Value* ptrs = b_.CreateGEP(et, base, lanesIdx);
      if (!m) m = llvm::ConstantInt::getTrue(llvm::FixedVectorType::get(b_.getInt1Ty(), static_cast<unsigned>(width_)));
      return b_.CreateMaskedGather(lt, ptrs, al, m, constOf(lt, n.pad));
    };
    // Most vectors of a bounded load lie wholly inside its bounds (the interior of an image): they take the
    // plain load, and only the others the masked one. Each bound is affine in the lanes, so its first and
    // last lanes decide for all of them.
    if (!bounded || laneMask_) return emit(mask);
    return emitChoice(
        b_, allLanesInside(n.bounds, p), [&] { return emit(nullptr); }, [&] { return emit(mask); });
  }

  /// Whether every bound holds in every lane at point `p`: at lanes 0 and W - 1, the ends of each affine bound.
  llvm::Value* allLanesInside(const std::vector<Bound>& bounds, const TilePoint& p) {
    llvm::Value* all = nullptr;
    for (const Bound& bd : bounds) {
      llvm::Value* first = affine(bd.e, p);
      llvm::Value* last = b_.CreateAdd(first, b_.getInt64(static_cast<uint64_t>(vectorCoef(bd.e) * (width_ - 1))));
      all = both(b_, all, b_.CreateAnd(within(first, bd), within(last, bd)));
    }
    return all;
  }

  /// lo <= e < hi for 64-bit scalar `e`.
  llvm::Value* within(llvm::Value* e, const Bound& bd) {
    return b_.CreateAnd(b_.CreateICmpSGE(e, b_.getInt64(static_cast<uint64_t>(bd.lo))),
                        b_.CreateICmpSLT(e, b_.getInt64(static_cast<uint64_t>(bd.hi))));
  }

  /// A masked load of vector type `t` from element `idx` of `buffer`. Where the target has no instruction for it
  /// (lanes narrower than 32 bits below AVX-512's 16 lanes; any lanes on NEON's 4), LLVM turns it into a branch
  /// and a load per lane. So when the whole vector lies inside the buffer, as all but a few at its ends do, one
  /// plain load and a select of the lanes the mask keeps run instead: reading masked-off elements is harmless
  /// there. The narrower shapes stand for those targets: AVX2 has masked loads of 32-bit lanes only, NEON none.
  llvm::Value* maskedLoad(llvm::Type* t, int buffer, llvm::Value* idx, llvm::Align al, llvm::Value* mask,
                          llvm::Value* pass) {
    llvm::Value* ptr = b_.CreateBitCast(b_.CreateGEP(elemType(buffer), bufs_[static_cast<size_t>(buffer)], idx), t->getPointerTo());
    if (nativeMasks(t)) return b_.CreateMaskedLoad(t, ptr, al, mask, pass);
    return insideOrEdge(
        buffer, idx, t, [&] { return b_.CreateSelect(mask, b_.CreateAlignedLoad(t, ptr, al), pass); },
        [&] { return b_.CreateMaskedLoad(t, ptr, al, mask, pass); });
  }

  /// Whether the target masks loads of vector type `t` with an instruction (AVX-512 at 16 lanes: any lanes;
  /// AVX2: 32-bit lanes).
  bool nativeMasks(llvm::Type* t) const {
    const int reg = registerLanes();
    return reg >= 16 || (reg == 8 && t->getScalarSizeInBits() >= 32);
  }
  int registerLanes() const { return sc_.registerLanes ? sc_.registerLanes : width_; }

  /// `plain()` where the elements of vector type `t` from `idx` on all lie inside `buffer`, else `edge()`: the
  /// value of whichever ran. Both build the same type.
  llvm::Value* insideOrEdge(int buffer, llvm::Value* idx, llvm::Type* t, const std::function<llvm::Value*()>& plain,
                            const std::function<llvm::Value*()>& edge) {
    const int64_t elements = k_.buffers[static_cast<size_t>(buffer)].elements;
    llvm::Value* end = b_.CreateAdd(idx, b_.getInt64(llvm::cast<llvm::FixedVectorType>(t)->getNumElements()));
    llvm::Value* inside = b_.CreateAnd(b_.CreateICmpSGE(idx, b_.getInt64(0)),
                                       b_.CreateICmpSLE(end, b_.getInt64(static_cast<uint64_t>(elements))));
    return emitChoice(b_, inside, plain, edge);
  }

  /// Lanes of `wide` (type `wt`, from `idx` of `buffer`) picked by `pick` into the result, whose lanes `mask`
  /// keeps (else `pass`); `spread(narrow)` is the mask of the wide lanes that any kept lane needs. Below
  /// AVX-512, inside the buffer one plain load is picked from and the result's lanes selected, even where the
  /// target masks such loads: no mask is widened there, since a shuffle of i1 lanes compiles to a bit-by-bit
  /// sequence on AVX2. `plain`: every wide load lies inside the buffer, and `mask` drops no lane but those
  /// past the vector loop's end, whose values nothing stores or combines with other lanes' (the vector axis
  /// is spatial; at most a branch looks at every lane, emitMulqShrr's, whose two ways both give each lane's
  /// own bits): one plain load, the dropped lanes left as picked, on AVX-512 too (a masked load there costs
  /// a vector operation more, and the select another).
  llvm::Value* pickedLoad(int buffer, llvm::Value* idx, llvm::Type* wt, llvm::Align al, llvm::Value* mask,
                          llvm::Value* pass, const std::function<llvm::Value*(llvm::Value*)>& pick,
                          const std::function<llvm::Value*(llvm::Value*)>& spread, bool plain = false) {
    llvm::Value* ptr =
        b_.CreateBitCast(b_.CreateGEP(elemType(buffer), bufs_[static_cast<size_t>(buffer)], idx), wt->getPointerTo());
    auto masked = [&] {
      return pick(b_.CreateMaskedLoad(wt, ptr, al, spread(mask), llvm::Constant::getNullValue(wt)));
    };
    auto select = [&](llvm::Value* v) { return b_.CreateSelect(mask, v, pass); };
    if (plain) return pick(b_.CreateAlignedLoad(wt, ptr, al));
    if (registerLanes() >= 16) return select(masked());  // AVX-512 widens its mask registers cheaply
    return insideOrEdge(
        buffer, idx, wt, [&] { return select(pick(b_.CreateAlignedLoad(wt, ptr, al))); },
        [&] { return select(masked()); });
  }

  /// A word load's lanes: lane l the 4 bytes from idx + l·kv on, as int32.
  /// Lanes at most 4 bytes apart come from one masked load of the bytes they
  /// cover and a byte shuffle (vpermb where the CPU has it); lanes further
  /// apart are gathered as unaligned words. Masked lanes read nothing outside
  /// the buffer (pickedLoad): the lane mask is a prefix, so byte j is enabled
  /// when the first lane wanting it is on. Where the bytes lie inside the
  /// buffer at every point of the stage (wideInside), one plain load.
  llvm::Value* wordLoad(const LoopNode& n, const TilePoint& p) {
    llvm::Type *i8 = b_.getInt8Ty(), *i32 = b_.getInt32Ty();
    llvm::Value* base = bufs_[static_cast<size_t>(n.buffer)];
    llvm::Value* idx = affine(n.at, p);
    const int64_t kv = vectorCoef(n.at);
    if (width_ == 1 || kv == 0) {
      llvm::Value* v = b_.CreateAlignedLoad(i32, b_.CreateBitCast(b_.CreateGEP(i8, base, idx), i32->getPointerTo()), llvm::Align(1));
      return width_ == 1 ? v : b_.CreateVectorSplat(static_cast<unsigned>(width_), v);
    }
    const unsigned w = static_cast<unsigned>(width_);
    auto* maskTy = llvm::FixedVectorType::get(b_.getInt1Ty(), w);
    llvm::Value* lanes = laneMask_ ? laneMask_ : llvm::ConstantInt::getTrue(maskTy);
    if (kv < 1 || kv > 4) {
      llvm::Value* at = b_.CreateAdd(b_.CreateVectorSplat(w, idx), b_.CreateMul(lanes64_, b_.CreateVectorSplat(w, b_.getInt64(static_cast<uint64_t>(kv)))));
      llvm::Value* ptrs = b_.CreateBitCast(b_.CreateGEP(i8, base, at), llvm::FixedVectorType::get(i32->getPointerTo(), w));
      return b_.CreateMaskedGather(lanesOf(i32), ptrs, llvm::Align(1), lanes, llvm::Constant::getNullValue(lanesOf(i32)));
    }
    const unsigned span = (w - 1) * static_cast<unsigned>(kv) + 4;
    unsigned bytes = 16;
    while (bytes < span) bytes *= 2;
    std::vector<int> owner(bytes), pick(4 * w);
    for (unsigned j = 0; j < bytes; ++j) {  // the first lane whose word holds byte j (lane w: none, false)
      const unsigned first = j < 4 ? 0 : (j - 3 + static_cast<unsigned>(kv) - 1) / static_cast<unsigned>(kv);
      owner[j] = static_cast<int>(std::min(first, w));
    }
    for (unsigned l = 0; l < w; ++l)
      for (unsigned t = 0; t < 4; ++t) pick[4 * l + t] = static_cast<int>(l * static_cast<unsigned>(kv) + t);
    auto* wideTy = llvm::FixedVectorType::get(i8, bytes);
    return pickedLoad(
        n.buffer, idx, wideTy, llvm::Align(1), lanes, llvm::Constant::getNullValue(lanesOf(i32)),
        [&](llvm::Value* v) { return b_.CreateBitCast(b_.CreateShuffleVector(v, pick), lanesOf(i32)); },
        [&](llvm::Value* m) { return b_.CreateShuffleVector(m, llvm::Constant::getNullValue(maskTy), owner); },
        wideInside(n, bytes));
  }

  /// Whether `bytes` elements from load n's index, at every point of the stage, lie inside its buffer.
  bool wideInside(const LoopNode& n, int64_t bytes) const {
    const auto [lo, hi] = rangeOf(n.at, s_.axes);
    return lo >= 0 && hi + bytes <= k_.buffers[static_cast<size_t>(n.buffer)].elements;
  }

  /// Lanes idx, idx + kv, ... as one masked load of kv·W contiguous elements
  /// and a shuffle that keeps every kv-th: far cheaper than a gather. Only
  /// the kept lanes are enabled (where `mask` allows), so nothing outside the
  /// buffer is read (pickedLoad reads the others only inside it).
  llvm::Value* stridedLoad(int buffer, llvm::Value* idx, int64_t kv, llvm::Value* mask, float pad) {
    const unsigned w = static_cast<unsigned>(width_), wide = static_cast<unsigned>(kv) * w;
    llvm::Type* wt = llvm::FixedVectorType::get(elemType(buffer), wide);
    std::vector<int> spread(wide), keep(w);
    for (unsigned j = 0; j < wide; ++j) spread[j] = j % kv ? static_cast<int>(w) : static_cast<int>(j / kv);
    for (unsigned l = 0; l < w; ++l) keep[l] = static_cast<int>(l * kv);
    auto* maskTy = llvm::FixedVectorType::get(b_.getInt1Ty(), w);
    if (!mask) mask = llvm::ConstantInt::getTrue(maskTy);
    // Wide lane j takes narrow lane j / kv when kv divides j, else lane w of the all-false second operand.
    return pickedLoad(
        buffer, idx, wt, alignOf(buffer), mask, constOf(lanesOf(elemType(buffer)), pad),
        [&](llvm::Value* v) { return b_.CreateShuffleVector(v, keep); },
        [&](llvm::Value* m) { return b_.CreateShuffleVector(m, llvm::Constant::getNullValue(maskTy), spread); });
  }

  llvm::Value* inBounds(const LoopNode& n, const TilePoint& p) {
    llvm::Value *sc = nullptr, *vc = nullptr;
    conditions(n.bounds, p, sc, vc);
    llvm::Value *one = padOf(1.0f), *zero = padOf(0.0f);
    if (sc && width_ > 1) sc = b_.CreateVectorSplat(static_cast<unsigned>(width_), sc);
    llvm::Value* cond = sc && vc ? b_.CreateAnd(sc, vc) : sc ? sc : vc;
    return cond ? b_.CreateSelect(cond, one, zero) : one;
  }

  /// The nodes of `e` (their types `integer`) at point `p`, up to (not including) node `upto`.
  std::vector<llvm::Value*> eval(const LoopExpr& e, const std::vector<bool>& integer, const TilePoint& p, size_t upto,
                                 llvm::Value* acc) {
    return evalNodes(e, integer, upto, acc, vti_, vt_,
                     [&](const LoopNode& n) { return n.kind == LoopNode::Kind::kLoad ? load(n, p) : inBounds(n, p); });
  }

  /// The nodes of `e` up to node `upto`: loads and in-bounds nodes from `leaf`, the folded value `acc`, and
  /// operations on int32 lanes `vi` or float lanes `vf` (as `integer` says).
  std::vector<llvm::Value*> evalNodes(const LoopExpr& e, const std::vector<bool>& integer, size_t upto,
                                      llvm::Value* acc, llvm::Type* vi, llvm::Type* vf,
                                      const std::function<llvm::Value*(const LoopNode&)>& leaf,
                                      const std::function<std::optional<MulqShrrConstants>(size_t)>& known = nullptr) {
    std::vector<llvm::Value*> v(upto);
    const std::vector<bool> fused = fusedMulq(e, integer, upto), divided = fusedDivision(e, integer, upto);
    for (size_t i = 0; i < upto; ++i) {
      const LoopNode& n = e.nodes[i];
      if (fused[i] || divided[i]) continue;  // its Shrr, Round or ToInt computes it
      if (n.kind == LoopNode::Kind::kOp && (n.op == EwOp::kRound || n.op == EwOp::kToInt) && n.a >= 0 &&
          divided[static_cast<size_t>(n.a)]) {
        const bool converts = n.op == EwOp::kToInt;
        const LoopNode& clip = e.nodes[static_cast<size_t>(converts ? e.nodes[static_cast<size_t>(n.a)].a : n.a)];
        const LoopNode& div = e.nodes[static_cast<size_t>(clip.a)];
        v[i] = emitRoundDiv(b_, v[static_cast<size_t>(div.a)], v[static_cast<size_t>(div.b)], clip.lo, clip.hi,
                            converts ? vi : nullptr);
        continue;
      }
      if (fusedShrr(e, fused, i)) {
        const LoopNode& q = e.nodes[static_cast<size_t>(n.a)];
        const std::optional<MulqShrrConstants> k = known ? known(i) : std::nullopt;
        v[i] = emitMulqShrr(b_, v[static_cast<size_t>(q.a)], v[static_cast<size_t>(q.b)], v[static_cast<size_t>(n.b)],
                            k ? &*k : nullptr);
        continue;
      }
      switch (n.kind) {
        case LoopNode::Kind::kLoad:
        case LoopNode::Kind::kInBounds:
          v[i] = leaf(n);
          break;
        case LoopNode::Kind::kAcc:
          v[i] = acc;
          break;
        case LoopNode::Kind::kOp: {
          IrOperands x;
          x.a = n.a >= 0 ? v[static_cast<size_t>(n.a)] : nullptr, x.b = n.b >= 0 ? v[static_cast<size_t>(n.b)] : nullptr;
          x.value = n.value, x.ivalue = n.ivalue, x.lo = n.lo, x.hi = n.hi;
          v[i] = emitEwOp(b_, n.op, integer[i] ? vi : vf, x);
          break;
        }
      }
    }
    return v;
  }

  /// Per node below `upto`: a Mulq whose one use in the whole expression is an int32 Shrr of its result
  /// below `upto` (a requantization's two steps), which emitMulqShrr computes together.
  static std::vector<bool> fusedMulq(const LoopExpr& e, const std::vector<bool>& integer, size_t upto) {
    const std::vector<int> uses = operandUses(e);
    std::vector<bool> fused(upto, false);
    for (size_t i = 0; i < upto; ++i) {
      const LoopNode& n = e.nodes[i];
      if (n.kind != LoopNode::Kind::kOp || n.op != EwOp::kShrr || n.a < 0 || !integer[i]) continue;
      const LoopNode& q = e.nodes[static_cast<size_t>(n.a)];
      if (q.kind == LoopNode::Kind::kOp && q.op == EwOp::kMulq && uses[static_cast<size_t>(n.a)] == 1)
        fused[static_cast<size_t>(n.a)] = true;
    }
    return fused;
  }

  /// Per node of `e`: how many operations take it as an operand.
  static std::vector<int> operandUses(const LoopExpr& e) {
    std::vector<int> uses(e.nodes.size(), 0);
    for (const LoopNode& n : e.nodes)
      for (int o : {n.a, n.b})
        if (o >= 0 && n.kind == LoopNode::Kind::kOp) ++uses[static_cast<size_t>(o)];
    return uses;
  }

  /// Per node below `upto`: a float Div whose one use is a Clip whose one use is a Round below `upto` (a
  /// quantization's steps), or that Clip: the Round computes both (emitRoundDiv); and that Round too where
  /// its one use is a ToInt below `upto` and the Clip's bounds lie below 2^30 in size (so that the rounded
  /// value converts to int32 as it is), which then computes all three.
  static std::vector<bool> fusedDivision(const LoopExpr& e, const std::vector<bool>& integer, size_t upto) {
    const std::vector<int> uses = operandUses(e);
    auto is = [&](int i, EwOp op) {
      if (i < 0) return false;
      const LoopNode& n = e.nodes[static_cast<size_t>(i)];
      return n.kind == LoopNode::Kind::kOp && n.op == op && !integer[static_cast<size_t>(i)] &&
             uses[static_cast<size_t>(i)] == 1;
    };
    std::vector<bool> fused(upto, false);
    for (size_t i = 0; i < upto; ++i) {
      const LoopNode& n = e.nodes[i];
      if (n.kind != LoopNode::Kind::kOp || n.op != EwOp::kRound || integer[i] || !is(n.a, EwOp::kClip)) continue;
      const LoopNode& clip = e.nodes[static_cast<size_t>(n.a)];
      if (!is(clip.a, EwOp::kDiv)) continue;
      fused[static_cast<size_t>(n.a)] = fused[static_cast<size_t>(clip.a)] = true;
      const bool bounded = std::fabs(clip.lo) < 0x1p30f && std::fabs(clip.hi) < 0x1p30f;
      for (size_t j = i + 1; j < upto && bounded && uses[i] == 1; ++j)
        if (e.nodes[j].kind == LoopNode::Kind::kOp && e.nodes[j].op == EwOp::kToInt &&
            e.nodes[j].a == static_cast<int>(i))
          fused[i] = true;
    }
    return fused;
  }

  /// Whether node i of `e` is a Shrr of a Mulq that `fused` (fusedMulq's) marks.
  static bool fusedShrr(const LoopExpr& e, const std::vector<bool>& fused, size_t i) {
    const LoopNode& n = e.nodes[i];
    return n.kind == LoopNode::Kind::kOp && n.op == EwOp::kShrr && n.a >= 0 && fused[static_cast<size_t>(n.a)];
  }

  /// acc + Dot4(a, b) as two vpmaddwd, exactly: a's unsigned bytes and b's signed ones widened to 16 bits, the
  /// even bytes (0 and 2 of each word) in one pair of operands and the odd bytes in the other. Each 16-bit product
  /// is at most 255·128 in size and each pair's sum fits its 32-bit lane, so nothing saturates or rounds.
  llvm::Value* dot4Pmaddwd(llvm::Value* acc, llvm::Value* a, llvm::Value* b) {
    auto* halves = llvm::FixedVectorType::get(b_.getInt16Ty(), 2 * static_cast<unsigned>(width_));
    auto* words = llvm::cast<llvm::VectorType>(a->getType());
    llvm::Value* low = llvm::ConstantInt::get(words, 0x00FF00FF);
    llvm::Value* eight = llvm::ConstantInt::get(halves, 8);
    llvm::Value* aEven = b_.CreateBitCast(b_.CreateAnd(a, low), halves);
    llvm::Value* aOdd = b_.CreateBitCast(b_.CreateAnd(b_.CreateLShr(a, llvm::ConstantInt::get(words, 8)), low), halves);
    llvm::Value* b16 = b_.CreateBitCast(b, halves);
    llvm::Value* bEven = b_.CreateAShr(b_.CreateShl(b16, eight), eight);
    llvm::Value* bOdd = b_.CreateAShr(b16, eight);
    return b_.CreateAdd(acc, b_.CreateAdd(pmaddwd(aEven, bEven), pmaddwd(aOdd, bOdd)));
  }

  /// vpmaddwd of words `a` and `b` (int32 lanes, or their 16-bit halves): Σ_t a.half_t · b.half_t per lane.
  llvm::Value* pmaddwd(llvm::Value* a, llvm::Value* b) {
    auto* halves = llvm::FixedVectorType::get(b_.getInt16Ty(), 2 * static_cast<unsigned>(width_));
    const llvm::Intrinsic::ID id = width_ == 16 ? llvm::Intrinsic::x86_avx512_pmaddw_d_512
                                   : width_ == 8 ? llvm::Intrinsic::x86_avx2_pmadd_wd
                                                 : llvm::Intrinsic::x86_sse2_pmadd_wd;
    return b_.CreateIntrinsic(id, {}, {b_.CreateBitCast(a, halves), b_.CreateBitCast(b, halves)});
  }

  /// acc folded with the stage's value at point p.
  llvm::Value* fold(llvm::Value* acc, const TilePoint& p) {
    const LoopExpr& e = s_.value;
    const LoopNode& root = e.nodes.back();
    const bool product = root.kind == LoopNode::Kind::kOp && root.op == EwOp::kMul;
    const bool integer = accT_ == vti_;
    if (s_.reduce == Reduce::kSum && integer && (sc_.vnni || sc_.pmaddwd) && root.kind == LoopNode::Kind::kOp &&
        root.op == EwOp::kDot4) {
      std::vector<llvm::Value*> v = eval(e, valueInt_, p, e.nodes.size() - 1, nullptr);
      llvm::Value *a = v[static_cast<size_t>(root.a)], *b = v[static_cast<size_t>(root.b)];
      if (sc_.pmaddwd) return dot4Pmaddwd(acc, a, b);
      const llvm::Intrinsic::ID id = width_ == 16 ? llvm::Intrinsic::x86_avx512_vpdpbusd_512 : llvm::Intrinsic::x86_avx512_vpdpbusd_256;
      return b_.CreateIntrinsic(id, {}, {acc, a, b});
    }
    if (s_.reduce == Reduce::kSum && integer && sc_.pmaddwd && root.kind == LoopNode::Kind::kOp &&
        root.op == EwOp::kDot2) {
      std::vector<llvm::Value*> v = eval(e, valueInt_, p, e.nodes.size() - 1, nullptr);
      return b_.CreateAdd(acc, pmaddwd(v[static_cast<size_t>(root.a)], v[static_cast<size_t>(root.b)]));
    }
    if (s_.reduce == Reduce::kSum && product && !integer) {
      std::vector<llvm::Value*> v = eval(e, valueInt_, p, e.nodes.size() - 1, nullptr);
      return b_.CreateIntrinsic(llvm::Intrinsic::fma, {vt_}, {v[static_cast<size_t>(root.a)], v[static_cast<size_t>(root.b)], acc});
    }
    llvm::Value* x = eval(e, valueInt_, p, e.nodes.size(), nullptr).back();
    switch (s_.reduce) {
      case Reduce::kNone:
        return x;
      case Reduce::kSum:  // an int32 sum wraps
        return integer ? b_.CreateAdd(acc, x) : b_.CreateFAdd(acc, x);
      case Reduce::kMax:
        return b_.CreateSelect(integer ? b_.CreateICmpSGT(x, acc) : b_.CreateFCmpOGT(x, acc), x, acc);
    }
    return x;
  }

  void emitInner(size_t pos, std::vector<llvm::AllocaInst*>& acc) {
    if (pos == tile_) {
      for (const Prefetch& f : sc_.prefetch) emitPrefetch(f);
      for (size_t t = 0; t < points_.size(); ++t)
        b_.CreateStore(fold(b_.CreateLoad(accT_, acc[t]), points_[t]), acc[t]);
      return;
    }
    emitLoop(sc_.order[pos], false, [&] { emitInner(pos + 1, acc); });
  }

  /// llvm.prefetch of f's line for reading, into every cache level (prefetcht0 on x86). The loops of the
  /// register tile have no iteration variable and count as 0 (plans name only loops outside it).
  void emitPrefetch(const Prefetch& f) {
    llvm::Value* at = b_.getInt64(static_cast<uint64_t>(f.c));
    for (size_t id = 0; id < f.coef.size(); ++id)
      if (f.coef[id] && var_[id])
        at = b_.CreateAdd(at, b_.CreateMul(var_[id], b_.getInt64(static_cast<uint64_t>(f.coef[id]))));
    llvm::Value* ptr = b_.CreateGEP(elemType(f.buffer), bufs_[static_cast<size_t>(f.buffer)], at);
    b_.CreateIntrinsic(llvm::Intrinsic::prefetch, {ptr->getType()},
                       {ptr, b_.getInt32(0), b_.getInt32(3), b_.getInt32(1)});
  }

  /// All the memory-folding loops at their first (or last) iteration; null when there are none.
  llvm::Value* atEdge(bool last) {
    llvm::Value* c = nullptr;
    for (int id : memFold_) {
      llvm::Value* i = var_[static_cast<size_t>(id)];
      llvm::Value* edge = last ? b_.CreateSub(trip_[static_cast<size_t>(id)], b_.getInt64(1)) : b_.getInt64(0);
      c = both(b_, c, b_.CreateICmpEQ(i, edge));
    }
    return c;
  }

  llvm::Value* outPtr(const TilePoint& p) {
    llvm::Type* et = elemType(s_.out);
    llvm::Value* at = b_.CreateGEP(et, bufs_[static_cast<size_t>(s_.out)], affine(s_.outAt, p));
    return b_.CreateBitCast(at, lanesOf(et)->getPointerTo());
  }

  /// A folded value so far, read back from the output (a reduction folding in memory).
  llvm::Value* loadOut(const TilePoint& p) {
    llvm::Type* lt = lanesOf(elemType(s_.out));
    if (laneMask_) return widen(b_.CreateMaskedLoad(lt, outPtr(p), alignOf(s_.out), laneMask_, constOf(lt, 0.0f)), s_.out);
    return widen(b_.CreateAlignedLoad(lt, outPtr(p), alignOf(s_.out)), s_.out);
  }

  void emitTile() {
    std::vector<llvm::AllocaInst*> acc;
    {
      llvm::IRBuilder<> entry(entry_, entry_->begin());
      for (size_t t = 0; t < points_.size(); ++t) acc.push_back(entry.CreateAlloca(accT_));
    }
    llvm::Value* first = atEdge(false);
    for (size_t t = 0; t < points_.size(); ++t) {
      llvm::Value* init = constOf(accT_, s_.init);
      if (first) init = b_.CreateSelect(first, init, loadOut(points_[t]));
      b_.CreateStore(init, acc[t]);
    }
    emitInner(outerEnd_, acc);
    llvm::Value* last = atEdge(true);
    for (size_t t = 0; t < points_.size(); ++t) {
      llvm::Value* v = b_.CreateLoad(accT_, acc[t]);
      if (!s_.epilogue.nodes.empty()) {
        llvm::Value* done = eval(s_.epilogue, epilogueInt_, points_[t], s_.epilogue.nodes.size(), v).back();
        v = last ? b_.CreateSelect(last, done, v) : done;
      }
      llvm::Type* lt = lanesOf(elemType(s_.out));
      if (v->getType() != lt) v = b_.CreateTrunc(v, lt);  // an 8-bit output keeps the low bits
      if (laneMask_) b_.CreateMaskedStore(v, outPtr(points_[t]), alignOf(s_.out), laneMask_);
      else b_.CreateAlignedStore(v, outPtr(points_[t]), alignOf(s_.out));
    }
  }

  /// The scratch of a tile product's epilogue: a block of sums (`rows` rows of `width` int32), and the
  /// pending block's first row and column and how many of its rows are done; the epilogue's node types.
  struct TileScratch {
    llvm::Value *block = nullptr, *row0 = nullptr, *col0 = nullptr, *done = nullptr;
    int64_t width = 0, rows = 0;
    std::vector<bool> integer;
  };

  /// The block of accumulator tiles a tile product is at: bi x bj tiles from row0 and col0, with the
  /// epilogue's scratch and the rows of it each step does.
  struct TileBlock {
    int64_t bi = 1, bj = 1, share = 0;
    llvm::Value *row0 = nullptr, *col0 = nullptr;
    TileScratch scratch;
  };

  /// The tiles a step loads a's bi tiles and b's bj tiles into.
  struct TileSet {
    std::vector<int64_t> a, b;
  };

  /// A TileProduct on AMX: per block of 16·bi rows (the range [begin, end) of them), per block of 16·bj
  /// columns, bi·bj accumulator tiles (tmm0-3) summed over the taps and the depth's blocks of 16 words from
  /// bi tiles of a and bj tiles of b (tileSets), then stored to the output. Every tile is 16 rows of
  /// 64 bytes (TileProduct::kSide), set once per call: the configuration is the calling thread's.
  /// With an epilogue, a block's tiles go to a scratch block in L1, and the vector units run the epilogue
  /// over it a share of rows at each step of the next block's sum, while the tile unit multiplies: the two
  /// then overlap instead of taking turns (an int8 requantization costs about as much as the product).
  void emitTiles() {
    const TileProduct t = *tileProduct(k_, s_, sc_, s_.name);  // addLoops checked it
    constexpr int64_t side = TileProduct::kSide;
    TileBlock blk;
    blk.bi = loop(sc_.order[0]).span / side, blk.bj = t.cols % (2 * side) == 0 ? 2 : 1;
    configureTiles();
    const int64_t blocks = t.rows / (side * blk.bi);
    llvm::Value* hi = b_.CreateSelect(b_.CreateICmpSLT(end_, b_.getInt64(blocks)), end_, b_.getInt64(blocks));
    if (t.epilogue) {
      blk.scratch = tileScratch(blk.bi, blk.bj);
      llvm::Value* span = b_.getInt64(static_cast<uint64_t>(side * blk.bi));
      tabulateEstimates(t, blk.scratch.integer, b_.CreateMul(begin_, span), b_.CreateMul(hi, span));
    }
    // The rows of the pending block's epilogue each step of a sum does: all of them within one sum.
    int64_t steps = t.depth / side;
    for (const TileProduct::Tap& tap : t.taps) steps *= tap.extent;
    blk.share = (blk.scratch.rows + steps - 1) / steps;
    const std::vector<TileSet> sets = tileSets(blk.bi, blk.bj);
    // With two sets, consecutive steps load into different tiles, so that a step's loads need not wait for
    // the last step's products to have read their tiles.
    const int64_t pairs = sets.size() == 2 ? steps / 2 : 0;
    forLoop(begin_, hi, [&](llvm::Value* ib) {
      blk.row0 = b_.CreateMul(ib, b_.getInt64(static_cast<uint64_t>(side * blk.bi)));
      forLoop(b_.getInt64(0), b_.getInt64(t.cols / (side * blk.bj)), [&](llvm::Value* jb) {
        blk.col0 = b_.CreateMul(jb, b_.getInt64(static_cast<uint64_t>(side * blk.bj)));
        for (int64_t c = 0; c < blk.bi * blk.bj; ++c)
          b_.CreateIntrinsic(llvm::Intrinsic::x86_tilezero, {}, {b_.getInt8(static_cast<uint8_t>(c))});
        if (pairs)
          forLoop(b_.getInt64(0), b_.getInt64(static_cast<uint64_t>(pairs)), [&](llvm::Value* p) {
            llvm::Value* s = b_.CreateMul(p, b_.getInt64(2));
            tileStep(t, blk, s, sets[0]);
            tileStep(t, blk, b_.CreateAdd(s, b_.getInt64(1)), sets[1]);
          });
        forLoop(b_.getInt64(static_cast<uint64_t>(2 * pairs)), b_.getInt64(static_cast<uint64_t>(steps)),
                [&](llvm::Value* s) { tileStep(t, blk, s, sets[0]); });
        if (t.epilogue) return storeTiles(t, blk.scratch, blk.row0, blk.col0, blk.bi, blk.bj);
        for (int64_t r = 0; r < blk.bi; ++r)
          for (int64_t c = 0; c < blk.bj; ++c) {
            llvm::Value* at =
                b_.CreateAdd(b_.CreateMul(b_.CreateAdd(blk.row0, b_.getInt64(static_cast<uint64_t>(side * r))),
                                          b_.getInt64(static_cast<uint64_t>(t.outRow))),
                             b_.CreateAdd(blk.col0, b_.getInt64(static_cast<uint64_t>(t.o0 + side * c))));
            b_.CreateIntrinsic(llvm::Intrinsic::x86_tilestored64, {},
                               {b_.getInt8(static_cast<uint8_t>(r * blk.bj + c)), wordBytes(s_.out, at),
                                b_.getInt64(static_cast<uint64_t>(4 * t.outRow))});
          }
      });
    });
    if (t.epilogue) pendingEpilogue(t, blk.scratch, blk.scratch.rows);  // the last block's
    b_.CreateIntrinsic(llvm::Intrinsic::x86_tilerelease, {}, {});
  }

  /// The constants of a requantization's float estimate (emitMulqShrr) for every row, or every column, of
  /// a tile product, where its multiplier and shift move with the rows alone (a convolution's output
  /// channels) or the columns alone (a QGemm's): per output vector two loads, where computing them took
  /// about 14 instructions (each of a convolution's vectors is another channel).
  struct EstimateTable {
    size_t shrr = 0;  ///< the Shrr node of the epilogue
    bool alongRows = true;
    llvm::Value *scales = nullptr, *limits = nullptr;  ///< float[rows or cols], on the stack
  };

  /// How a node of the tile epilogue varies: 0 not at all (a constant, or a load that moves with neither
  /// axis), 1 with the rows alone, 2 with the columns alone, -1 otherwise.
  static int tileVariation(const TileProduct& t, const LoopNode& n) {
    if (n.kind == LoopNode::Kind::kOp) return n.op == EwOp::kConst && n.integer ? 0 : -1;
    if (n.kind != LoopNode::Kind::kLoad) return -1;
    const bool rows = n.at.coefOf(static_cast<size_t>(t.i)) != 0, cols = n.at.coefOf(static_cast<size_t>(t.j)) != 0;
    return rows && cols ? -1 : rows ? 1 : cols ? 2 : 0;
  }

  /// Node `n` (tileVariation 0, 1 or 2) as a scalar int32 at row or column `r`.
  llvm::Value* tileScalar(const TileProduct& t, const LoopNode& n, llvm::Value* r) {
    if (n.kind == LoopNode::Kind::kOp) return b_.getInt32(static_cast<uint32_t>(n.ivalue));
    const int64_t step = n.at.coefOf(static_cast<size_t>(t.i)) + n.at.coefOf(static_cast<size_t>(t.j));
    llvm::Value* at = b_.CreateAdd(b_.CreateMul(r, b_.getInt64(static_cast<uint64_t>(step))),
                                   b_.getInt64(static_cast<uint64_t>(n.at.c)));
    llvm::Type* et = elemType(n.buffer);
    llvm::Value* v = b_.CreateLoad(et, b_.CreateGEP(et, bufs_[static_cast<size_t>(n.buffer)], at));
    return widen(v, n.buffer);
  }

  /// Fills estimates_ for the tile epilogue's requantizations that have a table (at most 4096 entries): a
  /// table along the rows for this call's rows [from, to), one along the columns whole. `integer`: the
  /// epilogue's node types.
  void tabulateEstimates(const TileProduct& t, const std::vector<bool>& integer, llvm::Value* from, llvm::Value* to) {
    const LoopExpr& e = s_.epilogue;
    const std::vector<bool> fused = fusedMulq(e, integer, e.nodes.size());
    for (size_t i = 0; i < e.nodes.size(); ++i) {
      const LoopNode& n = e.nodes[i];
      if (!fusedShrr(e, fused, i)) continue;
      const LoopNode &m = e.nodes[static_cast<size_t>(e.nodes[static_cast<size_t>(n.a)].b)],
                     &sh = e.nodes[static_cast<size_t>(n.b)];
      const int vm = tileVariation(t, m), vn = tileVariation(t, sh), along = std::max(vm, vn);
      if (vm < 0 || vn < 0 || along == 0 || (vm && vn && vm != vn)) continue;
      const int64_t extent = along == 1 ? t.rows : t.cols;
      if (extent > 4096) continue;
      EstimateTable tab;
      tab.shrr = i;
      tab.alongRows = along == 1;
      {
        llvm::IRBuilder<> entry(entry_, entry_->begin());
        auto* ty = llvm::ArrayType::get(b_.getFloatTy(), static_cast<uint64_t>(extent));
        tab.scales = entry.CreateBitCast(entry.CreateAlloca(ty), b_.getFloatTy()->getPointerTo());
        tab.limits = entry.CreateBitCast(entry.CreateAlloca(ty), b_.getFloatTy()->getPointerTo());
      }
      llvm::Value* lo = tab.alongRows ? from : b_.getInt64(0);
      llvm::Value* end = tab.alongRows ? to : b_.getInt64(static_cast<uint64_t>(extent));
      forLoop(lo, end, [&](llvm::Value* r) {
        const MulqShrrConstants k = mulqShrrConstants(b_, tileScalar(t, m, r), tileScalar(t, sh, r), b_.getFloatTy());
        b_.CreateStore(k.scale, b_.CreateGEP(b_.getFloatTy(), tab.scales, r));
        b_.CreateStore(k.limit, b_.CreateGEP(b_.getFloatTy(), tab.limits, r));
      });
      estimates_.push_back(tab);
    }
  }

  /// Word `at` of buffer `buf` as a byte pointer (AMX's tile loads and stores take bytes).
  llvm::Value* wordBytes(int buf, llvm::Value* at) {
    return b_.CreateBitCast(b_.CreateGEP(b_.getInt32Ty(), bufs_[static_cast<size_t>(buf)], at), b_.getInt8PtrTy());
  }

  /// Step s of a block's sum (the taps' loops, outermost first, then the depth's blocks of 16 words) on tile
  /// set `set`: its tiles of a and b loaded, multiplied into the accumulators, and a share of the pending
  /// block's epilogue.
  void tileStep(const TileProduct& t, const TileBlock& blk, llvm::Value* s, const TileSet& set) {
    constexpr int64_t side = TileProduct::kSide;
    auto k = [&](int64_t v) { return b_.getInt64(static_cast<uint64_t>(v)); };
    llvm::Value *aOff = k(0), *bOff = k(0);
    llvm::Value* rest = b_.CreateUDiv(s, k(t.depth / side));
    llvm::Value* k0 = b_.CreateMul(b_.CreateURem(s, k(t.depth / side)), k(side));
    for (size_t n = t.taps.size(); n-- > 0;) {
      const TileProduct::Tap& tap = t.taps[n];
      llvm::Value* v = n ? b_.CreateURem(rest, k(tap.extent)) : rest;
      if (n) rest = b_.CreateUDiv(rest, k(tap.extent));
      aOff = b_.CreateAdd(aOff, b_.CreateMul(v, k(tap.aStep))),
      bOff = b_.CreateAdd(bOff, b_.CreateMul(v, k(tap.bStep)));
    }
    auto tile = [&](int64_t r) { return b_.getInt8(static_cast<uint8_t>(r)); };
    for (int64_t r = 0; r < blk.bi; ++r) {
      llvm::Value* row = b_.CreateMul(b_.CreateAdd(blk.row0, k(side * r)), k(t.aRow));
      llvm::Value* at = b_.CreateAdd(b_.CreateAdd(b_.CreateAdd(row, k(t.a0)), k0), aOff);
      b_.CreateIntrinsic(llvm::Intrinsic::x86_tileloadd64, {},
                         {tile(set.a[static_cast<size_t>(r)]), wordBytes(t.a, at), k(4 * t.aRow)});
    }
    for (int64_t c = 0; c < blk.bj; ++c) {
      llvm::Value* at = b_.CreateAdd(b_.CreateAdd(b_.CreateMul(k0, k(t.bRow)), k(t.b0)),
                                     b_.CreateAdd(b_.CreateAdd(blk.col0, k(side * c)), bOff));
      b_.CreateIntrinsic(llvm::Intrinsic::x86_tileloadd64, {},
                         {tile(set.b[static_cast<size_t>(c)]), wordBytes(t.b, at), k(4 * t.bRow)});
    }
    const llvm::Intrinsic::ID dot = t.signedA ? llvm::Intrinsic::x86_tdpbssd : llvm::Intrinsic::x86_tdpbusd;
    for (int64_t r = 0; r < blk.bi; ++r)
      for (int64_t c = 0; c < blk.bj; ++c)
        b_.CreateIntrinsic(
            dot, {}, {tile(r * blk.bj + c), tile(set.a[static_cast<size_t>(r)]), tile(set.b[static_cast<size_t>(c)])});
    if (t.epilogue) pendingEpilogue(t, blk.scratch, blk.share);
  }

  /// The accumulators take tiles 0 to bi·bj - 1; a step's operands tmm4-5 (a) and tmm6-7 (b), and where
  /// the eight tiles leave room for them twice (bi·bj at most 2), a second set from the others.
  static std::vector<TileSet> tileSets(int64_t bi, int64_t bj) {
    std::vector<TileSet> sets(1);
    for (int64_t r = 0; r < bi; ++r) sets[0].a.push_back(4 + r);
    for (int64_t c = 0; c < bj; ++c) sets[0].b.push_back(6 + c);
    std::vector<int64_t> free;
    for (int64_t tmm = bi * bj; tmm < 8; ++tmm)
      if (std::find(sets[0].a.begin(), sets[0].a.end(), tmm) == sets[0].a.end() &&
          std::find(sets[0].b.begin(), sets[0].b.end(), tmm) == sets[0].b.end())
        free.push_back(tmm);
    if (static_cast<int64_t>(free.size()) < bi + bj) return sets;
    TileSet second;
    second.a.assign(free.begin(), free.begin() + bi), second.b.assign(free.begin() + bi, free.begin() + bi + bj);
    sets.push_back(second);
    return sets;
  }

  /// ldtilecfg of eight tiles of 16 rows of 64 bytes (palette 1), from a configuration on the stack.
  void configureTiles() {
    llvm::Type* i8 = b_.getInt8Ty();
    llvm::Value* cfg;
    {
      llvm::IRBuilder<> entry(entry_, entry_->begin());
      auto* slot = entry.CreateAlloca(llvm::ArrayType::get(i8, 64));
      slot->setAlignment(llvm::Align(64));
      cfg = entry.CreateBitCast(slot, b_.getInt8PtrTy());
    }
    constexpr int64_t side = TileProduct::kSide;
    b_.CreateMemSet(cfg, b_.getInt8(0), 64, llvm::MaybeAlign(64));
    b_.CreateStore(b_.getInt8(1), cfg);  // palette 1; per tile r, its bytes a row at 16 + 2r and its rows at 48 + r
    for (int r = 0; r < 8; ++r) {
      b_.CreateStore(b_.getInt16(static_cast<uint16_t>(4 * side)),
                     b_.CreateBitCast(b_.CreateConstGEP1_64(i8, cfg, 16 + 2 * r), b_.getInt16Ty()->getPointerTo()));
      b_.CreateStore(b_.getInt8(static_cast<uint8_t>(side)), b_.CreateConstGEP1_64(i8, cfg, 48 + r));
    }
    b_.CreateIntrinsic(llvm::Intrinsic::x86_ldtilecfg, {}, {cfg});
  }

  /// The scratch of a product in blocks of bi x bj tiles, with nothing pending.
  TileScratch tileScratch(int64_t bi, int64_t bj) {
    constexpr int64_t side = TileProduct::kSide;
    TileScratch sc;
    sc.width = bj * side, sc.rows = bi * side;
    sc.integer = integerNodes(k_, s_.epilogue, true);
    llvm::Type* i64 = b_.getInt64Ty();
    {
      llvm::IRBuilder<> entry(entry_, entry_->begin());
      auto* words =
          entry.CreateAlloca(llvm::ArrayType::get(b_.getInt32Ty(), static_cast<uint64_t>(sc.rows * sc.width)));
      words->setAlignment(llvm::Align(64));
      sc.block = entry.CreateBitCast(words, b_.getInt32Ty()->getPointerTo());
      sc.row0 = entry.CreateAlloca(i64), sc.col0 = entry.CreateAlloca(i64), sc.done = entry.CreateAlloca(i64);
    }
    b_.CreateStore(b_.getInt64(static_cast<uint64_t>(sc.rows)), sc.done);
    b_.CreateStore(b_.getInt64(0), sc.row0), b_.CreateStore(b_.getInt64(0), sc.col0);
    return sc;
  }

  /// The next `share` rows of the pending block's epilogue, if any are left, a row at a time.
  void pendingEpilogue(const TileProduct& t, const TileScratch& sc, int64_t share) {
    constexpr int64_t side = TileProduct::kSide;
    llvm::Type* i64 = b_.getInt64Ty();
    llvm::Value* from = b_.CreateLoad(i64, sc.done);
    llvm::Value* to = b_.CreateAdd(from, b_.getInt64(static_cast<uint64_t>(share)));
    llvm::Value* all = b_.getInt64(static_cast<uint64_t>(sc.rows));
    to = b_.CreateSelect(b_.CreateICmpSLT(to, all), to, all);
    b_.CreateStore(to, sc.done);
    llvm::Value* row0 = b_.CreateLoad(i64, sc.row0);
    llvm::Value* col0 = b_.CreateLoad(i64, sc.col0);
    auto* lanes = llvm::FixedVectorType::get(b_.getInt32Ty(), static_cast<unsigned>(side));
    llvm::Type* et = elemType(s_.out);
    auto* outLanes = llvm::FixedVectorType::get(et, static_cast<unsigned>(side));
    forLoop(from, to, [&](llvm::Value* r) {
      llvm::Value* row = b_.CreateAdd(row0, r);
      llvm::Value* first =
          b_.CreateGEP(b_.getInt32Ty(), sc.block, b_.CreateMul(r, b_.getInt64(static_cast<uint64_t>(sc.width))));
      for (int64_t c = 0; c < sc.width; c += side) {
        llvm::Value* src = b_.CreateConstGEP1_64(b_.getInt32Ty(), first, static_cast<uint64_t>(c));
        llvm::Value* sums = b_.CreateAlignedLoad(lanes, b_.CreateBitCast(src, lanes->getPointerTo()), llvm::Align(64));
        llvm::Value* col = b_.CreateAdd(col0, b_.getInt64(static_cast<uint64_t>(c)));
        llvm::Value* v = tileEpilogue(t, sc, row, col, sums);
        if (v->getType() != outLanes) v = b_.CreateTrunc(v, outLanes);  // an 8-bit output keeps the low bits
        storeOut(t, row, col, v);
      }
    });
  }

  /// Row `row`'s 16 outputs from column `col` on, at o0 + row·outRow + col; where the columns wrap
  /// (TileProduct::wrap), each at its wrapped column instead, as one masked store per output row that the
  /// 16 columns reach (a contiguous range of lanes each; what they compute depends on `col` alone, so LLVM
  /// computes it once for a block's rows).
  void storeOut(const TileProduct& t, llvm::Value* row, llvm::Value* col, llvm::Value* v) {
    constexpr int64_t side = TileProduct::kSide;
    auto k = [&](int64_t x) { return b_.getInt64(static_cast<uint64_t>(x)); };
    llvm::Value* out = bufs_[static_cast<size_t>(s_.out)];
    llvm::Type* et = elemType(s_.out);
    llvm::Value* rowAt = b_.CreateAdd(b_.CreateMul(row, k(t.outRow)), k(t.o0));
    if (t.wrap.axis < 0) {
      llvm::Value* dst = b_.CreateGEP(et, out, b_.CreateAdd(rowAt, col));
      b_.CreateAlignedStore(v, b_.CreateBitCast(dst, v->getType()->getPointerTo()), alignOf(s_.out));
      return;
    }
    const int64_t w = t.wrap.wrap, keep = t.wrap.keep;
    llvm::Value* first = b_.CreateUDiv(col, k(w));
    auto clamp = [&](llvm::Value* x) {
      x = b_.CreateSelect(b_.CreateICmpSLT(x, k(0)), k(0), x);
      return b_.CreateSelect(b_.CreateICmpSGT(x, k(side)), k(side), x);
    };
    for (int64_t seg = 0; seg < (side - 2) / w + 2; ++seg) {  // the most rows 16 consecutive columns reach
      llvm::Value* rr = b_.CreateAdd(first, k(seg));
      llvm::Value* start = b_.CreateSub(b_.CreateMul(rr, k(w)), col);  // the lane of the row's first column
      llvm::Value* lo = clamp(start);
      llvm::Value* hi = clamp(b_.CreateAdd(start, k(keep)));
      llvm::Value* bits = b_.CreateSub(b_.CreateShl(k(1), hi), b_.CreateShl(k(1), lo));
      bits = b_.CreateSelect(b_.CreateICmpSLT(rr, k(t.wrap.rows)), bits, k(0));
      llvm::Value* mask = b_.CreateBitCast(b_.CreateTrunc(bits, b_.getInt16Ty()),
                                           llvm::FixedVectorType::get(b_.getInt1Ty(), static_cast<unsigned>(side)));
      llvm::Value* at = b_.CreateSub(b_.CreateAdd(rowAt, col), b_.CreateMul(rr, k(w - keep)));
      llvm::Value* dst = b_.CreateGEP(et, out, at);
      b_.CreateMaskedStore(v, b_.CreateBitCast(dst, v->getType()->getPointerTo()), llvm::Align(1), mask);
    }
  }

  /// The block's accumulator tiles (tmm0-3) into the scratch block, which becomes the pending one. The sum's
  /// steps did the last pending block's rows (the share is that many), before the tiles overwrite them.
  void storeTiles(const TileProduct& t, const TileScratch& sc, llvm::Value* row0, llvm::Value* col0, int64_t bi,
                  int64_t bj) {
    constexpr int64_t side = TileProduct::kSide;
    pendingEpilogue(t, sc, sc.rows);  // none left: a safeguard
    for (int64_t r = 0; r < bi; ++r)
      for (int64_t c = 0; c < bj; ++c) {
        llvm::Value* at =
            b_.CreateConstGEP1_64(b_.getInt32Ty(), sc.block, static_cast<uint64_t>(r * side * sc.width + c * side));
        b_.CreateIntrinsic(llvm::Intrinsic::x86_tilestored64, {},
                           {b_.getInt8(static_cast<uint8_t>(r * bj + c)), b_.CreateBitCast(at, b_.getInt8PtrTy()),
                            b_.getInt64(static_cast<uint64_t>(4 * sc.width))});
      }
    b_.CreateStore(row0, sc.row0), b_.CreateStore(col0, sc.col0), b_.CreateStore(b_.getInt64(0), sc.done);
  }

  /// The epilogue at `row` over the sums of the 16 columns from `col`. tileProduct checked its loads: a
  /// scalar per row, splat across the lanes (LLVM computes what depends on it once for a row's columns), or
  /// 16 consecutive values along the columns; it has no in-bounds node.
  llvm::Value* tileEpilogue(const TileProduct& t, const TileScratch& sc, llvm::Value* row, llvm::Value* col,
                            llvm::Value* sums) {
    constexpr unsigned side = TileProduct::kSide;
    auto leaf = [&](const LoopNode& n) -> llvm::Value* {
      llvm::Type* et = elemType(n.buffer);
      const int64_t perRow = n.at.coefOf(static_cast<size_t>(t.i));
      llvm::Value* at = b_.CreateAdd(b_.CreateMul(row, b_.getInt64(static_cast<uint64_t>(perRow))),
                                     b_.getInt64(static_cast<uint64_t>(n.at.c)));
      llvm::Value* ptr = b_.CreateGEP(et, bufs_[static_cast<size_t>(n.buffer)], at);
      if (n.at.coefOf(static_cast<size_t>(t.j)) == 0)
        return widen(b_.CreateVectorSplat(side, b_.CreateAlignedLoad(et, ptr, alignOf(n.buffer))), n.buffer);
      auto* vt = llvm::FixedVectorType::get(et, side);
      return widen(
          b_.CreateAlignedLoad(vt, b_.CreateBitCast(b_.CreateGEP(et, ptr, col), vt->getPointerTo()), alignOf(n.buffer)),
          n.buffer);
    };
    auto known = [&](size_t shrr) -> std::optional<MulqShrrConstants> {
      for (const EstimateTable& tab : estimates_) {
        if (tab.shrr != shrr) continue;
        auto* ft = llvm::FixedVectorType::get(b_.getFloatTy(), side);
        auto at = [&](llvm::Value* table) -> llvm::Value* {
          if (tab.alongRows)
            return b_.CreateVectorSplat(side,
                                        b_.CreateLoad(b_.getFloatTy(), b_.CreateGEP(b_.getFloatTy(), table, row)));
          llvm::Value* p = b_.CreateBitCast(b_.CreateGEP(b_.getFloatTy(), table, col), ft->getPointerTo());
          return b_.CreateAlignedLoad(ft, p, llvm::Align(4));
        };
        return MulqShrrConstants{at(tab.scales), at(tab.limits)};
      }
      return std::nullopt;
    };
    return evalNodes(s_.epilogue, sc.integer, s_.epilogue.nodes.size(), sums,
                     llvm::FixedVectorType::get(b_.getInt32Ty(), side),
                     llvm::FixedVectorType::get(b_.getFloatTy(), side), leaf, known)
        .back();
  }

  llvm::Module& m_;
  llvm::IRBuilder<> b_;
  const LoopKernel& k_;
  const LoopStage& s_;
  const StageSchedule& sc_;
  llvm::Function* fn_ = nullptr;
  llvm::BasicBlock* entry_ = nullptr;
  std::vector<llvm::Value*> bufs_;
  llvm::Value *begin_ = nullptr, *end_ = nullptr;
  size_t tile_ = 0, outerEnd_ = 0;  ///< order positions: the tile's first loop, the end of the outer region
  std::vector<int> memFold_;        ///< reduction loops of the outer region
  int width_ = 1, vaxis_ = -1;
  llvm::Type *vt_ = nullptr, *vti_ = nullptr, *accT_ = nullptr;  ///< float lanes, int32 lanes, the fold's
  std::vector<bool> valueInt_, epilogueInt_;                     ///< per node: int32
  llvm::Value *lanes32_ = nullptr, *lanes64_ = nullptr, *laneMask_ = nullptr;
  std::vector<llvm::Value*> var_, off_, trip_;  ///< per loop, while inside it: index, axis offset, trip count
  std::vector<llvm::Value*> remaining_;        ///< per axis: values the current reduction tile covers
  std::vector<TilePoint> points_;
  std::vector<EstimateTable> estimates_;  ///< a tile product's per-row or per-column requantization constants
};

}  // namespace

void buildStage(llvm::Module& m, const LoopKernel& k, size_t stage, const StageSchedule& s, const std::string& symbol) {
  StageBuilder(m, k, k.stages[stage], s).build(symbol);
}

}  // namespace accelc::compiler::host
