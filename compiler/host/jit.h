// compiler/host/jit.h — host kernels compiled in-process with LLVM's ORC JIT
// (x86-64), with explicit vector code.
//
// The chain's loop is built with LLVM's IRBuilder on <vector x float> values
// of the schedule's width, unrolled, with a one-element tail; LLVM's O2
// pipeline then runs over it, and the JIT compiles it for this CPU's features
// (AVX2, AVX-512 where present; `avx512 = false` turns AVX-512 off, which the
// tests use to cover both paths). No fast-math: every operation rounds as the
// reference kernel's does, and exp, pow, tanh and erf call the C library, so
// the kernels give the reference's bits. This folder is the only one that
// links LLVM.
#ifndef ACCELC_COMPILER_HOST_JIT_H_
#define ACCELC_COMPILER_HOST_JIT_H_

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "compiler/host/elementwise.h"
#include "compiler/host/loop_ir.h"
#include "runtime/host_code.h"
#include "support/status.h"

namespace accelc::compiler::host {

/// Host code under construction: chains and loop kernels added under symbols
/// of their own, then compiled together, by the JIT (HostJit::add) or into a
/// shared library for a target (library.h). Each kernel is checked as it is
/// added.
class HostModule {
 public:
  HostModule();
  ~HostModule();
  HostModule(HostModule&&) noexcept;
  HostModule& operator=(HostModule&&) noexcept;

  /// Adds chain `k` under `s` as `symbol` (a runtime::ChainFn); `name` locates errors.
  support::Status addChain(const EwKernel& k, const EwSchedule& s, const std::string& symbol, const std::string& name);
  /// Adds every stage of `k` under `s`, stage i as symbols[i] (a runtime::StageFn).
  support::Status addLoops(const LoopKernel& k, const KernelSchedule& s, const std::vector<std::string>& symbols,
                           const std::string& name);
  /// Whether a stage added runs on AMX tiles (StageSchedule::amx): the code then needs the CPU's AMX.
  bool usesAmx() const { return amx_; }

  struct Impl;  ///< the LLVM module (compiler/host/module_impl.h)
  Impl& impl() { return *impl_; }

 private:
  std::unique_ptr<Impl> impl_;
  bool amx_ = false;
};

class HostJit {
 public:
  struct Options {
    bool avx512 = true;  ///< false: compile without AVX-512 even where the CPU has it
    bool amx = true;     ///< false: compile without AMX even where the CPU has it (and AVX-512)
  };
  /// A JIT for this machine's CPU.
  static support::Expected<std::unique_ptr<HostJit>> create(Options o);
  static support::Expected<std::unique_ptr<HostJit>> create() { return create(Options{}); }
  ~HostJit();
  HostJit(const HostJit&) = delete;
  HostJit& operator=(const HostJit&) = delete;

  /// A compiled chain: out[i] = chain(inputs[0][i], ...) for i in [0, n).
  using EwFn = void (*)(const float* const* inputs, float* out, int64_t n);
  /// Compiles `k` under `s`; `name` locates errors. The function lives as long as the JIT.
  support::Expected<EwFn> compile(const EwKernel& k, const EwSchedule& s, const std::string& name);

  /// A compiled loop stage: runs iterations [begin, end) of the stage's outer
  /// loop (loop_codegen.h) over one pointer per kernel buffer.
  using StageFn = runtime::StageFn;
  /// Compiles every stage of `k` under `s` (both validated first); `name` locates errors.
  support::Expected<std::vector<StageFn>> compile(const LoopKernel& k, const KernelSchedule& s, const std::string& name);

  /// Optimizes and compiles `m`; its symbols then resolve with lookup.
  support::Status add(HostModule m, const std::string& name);
  /// The address of a symbol of a module added, or null.
  void* lookup(const std::string& symbol);

  /// The CPU and the features the JIT compiles for.
  const std::string& cpu() const;
  const std::string& features() const;
  /// Whether the code uses AVX-512.
  bool usesAvx512() const;
  /// Whether the code may use AMX tiles: the CPU has AMX-INT8, and Linux granted this process the tile state.
  bool usesAmx() const;

 private:
  struct Impl;
  explicit HostJit(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace accelc::compiler::host

#endif  // ACCELC_COMPILER_HOST_JIT_H_
