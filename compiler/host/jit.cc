// compiler/host/jit.cc — elementwise chains to LLVM IR, and the ORC JIT.
#include "compiler/host/jit.h"

#include <llvm/ExecutionEngine/Orc/ExecutionUtils.h>
#include <llvm/ExecutionEngine/Orc/JITTargetMachineBuilder.h>
#include <llvm/ExecutionEngine/Orc/LLJIT.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/Intrinsics.h>
#include <llvm/IR/LLVMContext.h>
#include <llvm/IR/Module.h>
#include <llvm/IR/Verifier.h>
#include <llvm/Passes/PassBuilder.h>
#include <llvm/Support/Host.h>
#include <llvm/Support/TargetSelect.h>
#include <llvm/Support/raw_ostream.h>

#include <functional>
#include <mutex>
#include <vector>

#include "compiler/host/ir_ops.h"
#include "compiler/host/loop_codegen.h"
#include "compiler/host/module_impl.h"
#include "runtime/host_library.h"

namespace accelc::compiler::host {

using support::error;
using support::Location;

struct HostJit::Impl {
  std::unique_ptr<llvm::orc::LLJIT> jit;
  std::string cpu, features;
  bool avx512 = false;  ///< the code uses AVX-512
  bool amx = false;     ///< the code may use AMX tiles
  int functions = 0;    ///< compiled so far: each gets its own symbol
};

namespace {

std::string message(llvm::Error e) { return llvm::toString(std::move(e)); }

/// Builds one chain's function into a module.
class EwBuilder {
 public:
  EwBuilder(llvm::Module& m, const EwKernel& k) : m_(m), b_(m.getContext()), k_(k) {}

  void build(const std::string& symbol, const EwSchedule& s) {
    llvm::LLVMContext& c = m_.getContext();
    llvm::Type* f32 = llvm::Type::getFloatTy(c);
    llvm::Type* i64 = llvm::Type::getInt64Ty(c);
    llvm::PointerType* fp = llvm::PointerType::getUnqual(f32);
    auto* fnTy = llvm::FunctionType::get(llvm::Type::getVoidTy(c), {llvm::PointerType::getUnqual(fp), fp, i64}, false);
    llvm::Function* f = llvm::Function::Create(fnTy, llvm::Function::ExternalLinkage, symbol, m_);
    llvm::Value *ins = f->getArg(0), *out = f->getArg(1), *n = f->getArg(2);
    auto* entry = llvm::BasicBlock::Create(c, "entry", f);
    auto* vhead = llvm::BasicBlock::Create(c, "vector.head", f);
    auto* vbody = llvm::BasicBlock::Create(c, "vector.body", f);
    auto* shead = llvm::BasicBlock::Create(c, "tail.head", f);
    auto* sbody = llvm::BasicBlock::Create(c, "tail.body", f);
    auto* done = llvm::BasicBlock::Create(c, "done", f);
    b_.SetInsertPoint(entry);
    for (int i = 0; i < k_.numInputs; ++i)
      inputs_.push_back(b_.CreateLoad(fp, b_.CreateConstGEP1_64(fp, ins, static_cast<uint64_t>(i))));
    b_.CreateBr(vhead);
    // The vector loop: `vector` elements a step, `unroll` steps an iteration.
    const int64_t step = int64_t{s.vector} * s.unroll;
    b_.SetInsertPoint(vhead);
    llvm::PHINode* i = b_.CreatePHI(i64, 2);
    i->addIncoming(b_.getInt64(0), entry);
    b_.CreateCondBr(b_.CreateICmpSLE(b_.CreateAdd(i, b_.getInt64(step)), n), vbody, shead);
    b_.SetInsertPoint(vbody);
    llvm::Type* vt = s.vector == 1 ? f32 : llvm::FixedVectorType::get(f32, static_cast<unsigned>(s.vector));
    for (int u = 0; u < s.unroll; ++u) {
      llvm::Value* at = b_.CreateAdd(i, b_.getInt64(int64_t{u} * s.vector));
      b_.CreateAlignedStore(eval(vt, at), b_.CreateBitCast(b_.CreateGEP(f32, out, at), vt->getPointerTo()),
                            llvm::Align(4));
    }
    i->addIncoming(b_.CreateAdd(i, b_.getInt64(step)), vbody);
    b_.CreateBr(vhead);
    // The tail, one element a step.
    b_.SetInsertPoint(shead);
    llvm::PHINode* j = b_.CreatePHI(i64, 2);
    j->addIncoming(i, vhead);
    b_.CreateCondBr(b_.CreateICmpSLT(j, n), sbody, done);
    b_.SetInsertPoint(sbody);
    b_.CreateAlignedStore(eval(f32, j), b_.CreateGEP(f32, out, j), llvm::Align(4));
    j->addIncoming(b_.CreateAdd(j, b_.getInt64(1)), sbody);
    b_.CreateBr(shead);
    b_.SetInsertPoint(done);
    b_.CreateRetVoid();
  }

 private:
  /// The chain's value at element `at` as type `t` (float or a vector of them).
  llvm::Value* eval(llvm::Type* t, llvm::Value* at) {
    std::vector<llvm::Value*> v(k_.nodes.size());
    for (size_t n = 0; n < k_.nodes.size(); ++n) v[n] = node(k_.nodes[n], t, at, v);
    return v.back();
  }

  llvm::Value* node(const EwNode& e, llvm::Type* t, llvm::Value* at, const std::vector<llvm::Value*>& v) {
    if (e.op == EwOp::kInput) {
      if (e.scalar) {
        llvm::Value* x = b_.CreateAlignedLoad(b_.getFloatTy(), inputs_[static_cast<size_t>(e.input)], llvm::Align(4));
        auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(t);
        return vt ? b_.CreateVectorSplat(vt->getNumElements(), x) : x;
      }
      llvm::Value* p = b_.CreateGEP(b_.getFloatTy(), inputs_[static_cast<size_t>(e.input)], at);
      return b_.CreateAlignedLoad(t, b_.CreateBitCast(p, t->getPointerTo()), llvm::Align(4));
    }
    IrOperands x;
    x.a = e.a >= 0 ? v[static_cast<size_t>(e.a)] : nullptr, x.b = e.b >= 0 ? v[static_cast<size_t>(e.b)] : nullptr;
    x.value = e.value, x.lo = e.lo, x.hi = e.hi;
    return emitEwOp(b_, e.op, t, x);
  }

  llvm::Module& m_;
  llvm::IRBuilder<> b_;
  const EwKernel& k_;
  std::vector<llvm::Value*> inputs_;  ///< the input pointers, loaded in the entry block
};

/// LLVM's O2 pipeline over `m`, `tm`'s passes included when given.
void optimize(llvm::Module& m, llvm::TargetMachine* tm) {
  llvm::LoopAnalysisManager lam;
  llvm::FunctionAnalysisManager fam;
  llvm::CGSCCAnalysisManager cgam;
  llvm::ModuleAnalysisManager mam;
  llvm::PassBuilder pb(tm);
  pb.registerModuleAnalyses(mam);
  pb.registerCGSCCAnalyses(cgam);
  pb.registerFunctionAnalyses(fam);
  pb.registerLoopAnalyses(lam);
  pb.crossRegisterProxies(lam, fam, cgam, mam);
  pb.buildPerModuleDefaultPipeline(llvm::OptimizationLevel::O2).run(m, mam);
}

}  // namespace

HostJit::HostJit(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
HostJit::~HostJit() = default;

support::Expected<std::unique_ptr<HostJit>> HostJit::create(Options o) {
  static std::once_flag init;
  std::call_once(init, [] {
    llvm::InitializeNativeTarget();
    llvm::InitializeNativeTargetAsmPrinter();
  });
  auto jtmb = llvm::orc::JITTargetMachineBuilder::detectHost();
  if (!jtmb) return error(Location(), "the JIT cannot target this machine: " + message(jtmb.takeError()));
  jtmb->setCPU(llvm::sys::getHostCPUName().str());  // detectHost leaves "generic": tune for this CPU
  auto impl = std::make_unique<Impl>();
  const bool hostAvx512 = jtmb->getFeatures().getString().find("+avx512f") != std::string::npos;
  if (!o.avx512)
    for (const char* f : {"avx512f", "avx512cd", "avx512bw", "avx512dq", "avx512vl", "avx512vnni", "avx512bf16",
                          "avx512vbmi", "avx512vbmi2", "avx512ifma", "avx512bitalg", "avx512vpopcntdq", "avx512fp16"})
      jtmb->getFeatures().AddFeature(f, false);
  // AMX with AVX-512 only (every CPU with the one has the other), and only once Linux grants the tile state.
  const std::string host = jtmb->getFeatures().getString();
  const bool hostAmx = host.find("+amx-tile") != std::string::npos && host.find("+amx-int8") != std::string::npos;
  impl->amx = o.amx && o.avx512 && hostAmx && runtime::requestAmxTiles().empty();
  if (!impl->amx)
    for (const char* f : {"amx-tile", "amx-int8", "amx-bf16"}) jtmb->getFeatures().AddFeature(f, false);
  jtmb->setCodeGenOptLevel(llvm::CodeGenOpt::Aggressive);
  impl->avx512 = o.avx512 && hostAvx512;
  impl->cpu = jtmb->getCPU();
  impl->features = jtmb->getFeatures().getString();
  auto jit = llvm::orc::LLJITBuilder().setJITTargetMachineBuilder(std::move(*jtmb)).create();
  if (!jit) return error(Location(), "cannot start the JIT: " + message(jit.takeError()));
  impl->jit = std::move(*jit);
  // The kernels call the C library (powf; exp, tanh and erf are polynomials): resolve it in this process.
  auto libc = llvm::orc::DynamicLibrarySearchGenerator::GetForCurrentProcess(impl->jit->getDataLayout().getGlobalPrefix());
  if (!libc) return error(Location(), "cannot search this process's symbols: " + message(libc.takeError()));
  impl->jit->getMainJITDylib().addGenerator(std::move(*libc));
  return std::unique_ptr<HostJit>(new HostJit(std::move(impl)));
}

const std::string& HostJit::cpu() const { return impl_->cpu; }
const std::string& HostJit::features() const { return impl_->features; }
bool HostJit::usesAvx512() const { return impl_->avx512; }
bool HostJit::usesAmx() const { return impl_->amx; }

support::Status verifyAndOptimize(llvm::Module& m, const std::string& name, llvm::TargetMachine* tm) {
  std::string broken;
  llvm::raw_string_ostream os(broken);
  if (llvm::verifyModule(m, &os)) return error(Location::node(name, name), "invalid IR: " + os.str());
  optimize(m, tm);
  return support::Status::ok();
}

HostModule::HostModule() : impl_(std::make_unique<Impl>()) {}
HostModule::~HostModule() = default;
HostModule::HostModule(HostModule&&) noexcept = default;
HostModule& HostModule::operator=(HostModule&&) noexcept = default;

support::Status HostModule::addChain(const EwKernel& k, const EwSchedule& s, const std::string& symbol,
                                     const std::string& name) {
  ACCELC_TRY(k.validate(name));
  ACCELC_TRY(s.validate(name));
  EwBuilder(*impl_->module, k).build(symbol, s);
  return support::Status::ok();
}

support::Status HostModule::addLoops(const LoopKernel& k, const KernelSchedule& s, const std::vector<std::string>& symbols,
                                     const std::string& name) {
  ACCELC_TRY(k.validate(name));
  if (s.stages.size() != k.stages.size() || symbols.size() != k.stages.size())
    return error(Location::node(name, k.name), "the schedule has " + std::to_string(s.stages.size()) +
                                                   " stages; the kernel has " + std::to_string(k.stages.size()));
  for (size_t i = 0; i < k.stages.size(); ++i) {
    ACCELC_TRY(s.stages[i].validate(k.stages[i], name));
    if (s.stages[i].amx) ACCELC_TRY(tileProduct(k, k.stages[i], s.stages[i], name).status());
    amx_ = amx_ || s.stages[i].amx;
  }
  for (size_t i = 0; i < k.stages.size(); ++i) buildStage(*impl_->module, k, i, s.stages[i], symbols[i]);
  return support::Status::ok();
}

support::Status HostJit::add(HostModule m, const std::string& name) {
  if (m.usesAmx() && !impl_->amx)
    return error(Location::node(name, name), "the kernel runs on AMX tiles, which this JIT does not use");
  HostModule::Impl& h = m.impl();
  h.module->setDataLayout(impl_->jit->getDataLayout());
  h.module->setTargetTriple(impl_->jit->getTargetTriple().str());
  ACCELC_TRY(verifyAndOptimize(*h.module, name));
  if (llvm::Error e = impl_->jit->addIRModule(llvm::orc::ThreadSafeModule(std::move(h.module), std::move(h.context))))
    return error(Location::node(name, name), "the JIT refused the kernel: " + message(std::move(e)));
  return support::Status::ok();
}

void* HostJit::lookup(const std::string& symbol) {
  auto sym = impl_->jit->lookup(symbol);
  if (!sym) {
    llvm::consumeError(sym.takeError());
    return nullptr;
  }
  return llvm::jitTargetAddressToPointer<void*>(sym->getAddress());
}

support::Expected<HostJit::EwFn> HostJit::compile(const EwKernel& k, const EwSchedule& s, const std::string& name) {
  HostModule m;
  const std::string symbol = "accelc_ew_" + std::to_string(impl_->functions++);
  ACCELC_TRY(m.addChain(k, s, symbol, name));
  ACCELC_TRY(add(std::move(m), name));
  void* fn = lookup(symbol);
  if (!fn) return error(Location::node(name, name), "the JIT lost the kernel");
  return reinterpret_cast<EwFn>(fn);
}

support::Expected<std::vector<HostJit::StageFn>> HostJit::compile(const LoopKernel& k, const KernelSchedule& s,
                                                                  const std::string& name) {
  HostModule m;
  std::vector<std::string> symbols;
  for (size_t i = 0; i < k.stages.size(); ++i) symbols.push_back("accelc_loop_" + std::to_string(impl_->functions++));
  ACCELC_TRY(m.addLoops(k, s, symbols, name));
  ACCELC_TRY(add(std::move(m), name));
  std::vector<StageFn> fns;
  for (const std::string& sym : symbols) {
    void* fn = lookup(sym);
    if (!fn) return error(Location::node(name, k.name), "the JIT lost the kernel");
    fns.push_back(reinterpret_cast<StageFn>(fn));
  }
  return fns;
}

}  // namespace accelc::compiler::host
