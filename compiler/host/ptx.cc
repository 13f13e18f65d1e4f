// compiler/host/ptx.cc — loop kernels through LLVM's NVPTX back end.
#include "compiler/host/ptx.h"

#include <llvm/ADT/STLExtras.h>
#include <llvm/IR/IRBuilder.h>
#include <llvm/IR/IntrinsicsNVPTX.h>
#include <llvm/IR/LegacyPassManager.h>
#include <llvm/IRReader/IRReader.h>
#include <llvm/Linker/Linker.h>
#include <llvm/Support/SourceMgr.h>
#include <llvm/Support/raw_ostream.h>
#include <llvm/Target/TargetMachine.h>
#include <sys/stat.h>

#include <cstdlib>

#include "compiler/host/module_impl.h"

namespace accelc::compiler::host {

using support::error;
using support::Location;

namespace {

constexpr const char* kTriple = "nvptx64-nvidia-cuda";

/// Calls of `f` (a float intrinsic, scalar or vector) become per-lane calls of libdevice's `to`.
void scalarizeTo(llvm::Module& m, llvm::Function& f, const char* to) {
  llvm::Type* f32 = llvm::Type::getFloatTy(m.getContext());
  const unsigned arity = f.getFunctionType()->getNumParams();
  llvm::FunctionCallee fn = m.getOrInsertFunction(
      to, llvm::FunctionType::get(f32, std::vector<llvm::Type*>(arity, f32), false));
  for (llvm::User* u : llvm::make_early_inc_range(f.users())) {
    auto* call = llvm::dyn_cast<llvm::CallInst>(u);
    if (!call) continue;
    llvm::IRBuilder<> b(call);
    auto* vt = llvm::dyn_cast<llvm::FixedVectorType>(call->getType());
    llvm::Value* r = vt ? llvm::UndefValue::get(vt) : nullptr;
    for (unsigned l = 0; l < (vt ? vt->getNumElements() : 1); ++l) {
      std::vector<llvm::Value*> args;
      for (unsigned a = 0; a < arity; ++a) {
        llvm::Value* v = call->getArgOperand(a);
        args.push_back(vt ? b.CreateExtractElement(v, l) : v);
      }
      llvm::Value* x = b.CreateCall(fn, args);
      r = vt ? b.CreateInsertElement(r, x, l) : x;
    }
    call->replaceAllUsesWith(r);
    call->eraseFromParent();
  }
}

/// LLVM's pow intrinsic (and the C library's powf) as libdevice's: exp, tanh and erf are polynomials already
/// (ir_math.h).
void useLibdevice(llvm::Module& m) {
  for (llvm::Function& f : llvm::make_early_inc_range(m.functions())) {
    if (f.getIntrinsicID() == llvm::Intrinsic::pow)
      scalarizeTo(m, f, "__nv_powf");
    else if (f.getName() == "powf" && f.isDeclaration())
      f.setName("__nv_powf");
  }
}

/// A kernel entry running iteration `thread` of `stage`'s outer loop.
void addEntry(llvm::Module& m, llvm::Function& stage, const std::string& symbol) {
  llvm::LLVMContext& c = m.getContext();
  llvm::IRBuilder<> b(c);
  llvm::Type* i64 = b.getInt64Ty();
  auto* ty = llvm::FunctionType::get(b.getVoidTy(), {stage.getArg(0)->getType(), i64}, false);
  llvm::Function* k = llvm::Function::Create(ty, llvm::Function::ExternalLinkage, symbol, m);
  auto* entry = llvm::BasicBlock::Create(c, "entry", k);
  auto* run = llvm::BasicBlock::Create(c, "run", k);
  auto* done = llvm::BasicBlock::Create(c, "done", k);
  b.SetInsertPoint(entry);
  auto sreg = [&](llvm::Intrinsic::ID id) { return b.CreateZExt(b.CreateCall(llvm::Intrinsic::getDeclaration(&m, id)), i64); };
  llvm::Value* t = b.CreateAdd(b.CreateMul(sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ctaid_x),
                                           sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_ntid_x)),
                               sreg(llvm::Intrinsic::nvvm_read_ptx_sreg_tid_x));
  b.CreateCondBr(b.CreateICmpSLT(t, k->getArg(1)), run, done);
  b.SetInsertPoint(run);
  b.CreateCall(&stage, {k->getArg(0), t, b.CreateAdd(t, b.getInt64(1))});
  b.CreateBr(done);
  b.SetInsertPoint(done);
  b.CreateRetVoid();
  m.getOrInsertNamedMetadata("nvvm.annotations")
      ->addOperand(llvm::MDNode::get(c, {llvm::ValueAsMetadata::get(k), llvm::MDString::get(c, "kernel"),
                                         llvm::ConstantAsMetadata::get(b.getInt32(1))}));
  stage.setLinkage(llvm::GlobalValue::InternalLinkage);
  stage.addFnAttr(llvm::Attribute::AlwaysInline);
}

}  // namespace

std::string libdevicePath() {
  std::vector<std::string> roots;
  if (const char* home = std::getenv("CUDA_HOME")) roots.push_back(home);
  roots.push_back("/usr/local/cuda");
  roots.push_back("/usr/lib/nvidia-cuda-toolkit");
  for (const std::string& r : roots)
    for (const char* sub : {"/nvvm/libdevice/libdevice.10.bc", "/libdevice/libdevice.10.bc"}) {
      struct stat st;
      if (::stat((r + sub).c_str(), &st) == 0) return r + sub;
    }
  return "";
}

support::Expected<std::string> modulePtx(HostModule hm, const std::vector<std::string>& stages, const std::string& sm,
                                         const std::string& name) {
  llvm::Module& m = *hm.impl().module;
  for (const std::string& sym : stages) addEntry(m, *m.getFunction(sym), sym + "_gpu");
  useLibdevice(m);
  ACCELC_ASSIGN_OR_RETURN(std::unique_ptr<llvm::TargetMachine> tm, machineFor(kTriple, sm, "", name));
  m.setDataLayout(tm->createDataLayout());
  m.setTargetTriple(kTriple);
  const std::string libdevice = libdevicePath();
  if (!libdevice.empty()) {
    llvm::SMDiagnostic diag;
    std::unique_ptr<llvm::Module> lib = llvm::parseIRFile(libdevice, diag, m.getContext());
    if (!lib) return error(Location::file(libdevice), "cannot read libdevice: " + diag.getMessage().str());
    lib->setDataLayout(m.getDataLayout());
    lib->setTargetTriple(kTriple);
    if (llvm::Linker::linkModules(m, std::move(lib), llvm::Linker::LinkOnlyNeeded))
      return error(Location::file(name), "cannot link libdevice into the kernels");
  }
  ACCELC_TRY(verifyAndOptimize(m, name, tm.get()));
  llvm::SmallVector<char, 0> ptx;
  llvm::raw_svector_ostream os(ptx);
  llvm::legacy::PassManager pm;
  if (tm->addPassesToEmitFile(pm, os, nullptr, llvm::CGFT_AssemblyFile))
    return error(Location::file(name), "LLVM cannot emit PTX");
  pm.run(m);
  return std::string(ptx.begin(), ptx.end());
}

support::Expected<std::string> loopKernelPtx(const LoopKernel& k, const KernelSchedule& s, const std::string& prefix,
                                             const std::string& sm, const std::string& name) {
  HostModule hm;
  std::vector<std::string> symbols;
  for (size_t i = 0; i < k.stages.size(); ++i) symbols.push_back(prefix + "_s" + std::to_string(i));
  ACCELC_TRY(hm.addLoops(k, s, symbols, name));
  return modulePtx(std::move(hm), symbols, sm, name);
}

}  // namespace accelc::compiler::host
