// runtime/host_code.h — generated host code as the runtime runs it, without
// LLVM: what each kernel's compiled functions are called and how to call them.
//
// compiler/host generates the code (LLVM) and describes every kernel here. The
// description travels two ways: with functions the in-process JIT compiled, or
// in a bundle beside a shared library built for a target (the runtime loads
// it with dlopen after checking its target, hash and CPU features,
// host_library.h). Either way hostKernelsOf turns it into the executor's
// HostKernels.
//
// Two kinds of kernel:
// - a chain: `void f(const float* const* inputs, float* out, int64_t n)` over
//   the output's n elements, inputs of n elements or one;
// - a loop kernel: stages `void f(void* const* buffers, int64_t begin, int64_t
//   end)` run in order over the kernel's buffers (the step's present inputs,
//   its outputs, then temporaries the runner allocates), once per point of its
//   batch dimensions; a parallel stage's [0, iterations) is divided among a
//   thread pool. Each buffer has an element type: float32, or int8, uint8 or
//   int32 for the integer ops, Quantize/DequantizeLinear and copies (int64
//   for inputs handed over but never read).
#ifndef ACCELC_RUNTIME_HOST_CODE_H_
#define ACCELC_RUNTIME_HOST_CODE_H_

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/host_kernels.h"
#include "runtime/tensor.h"
#include "support/bytes.h"
#include "support/status.h"
#include "support/thread_pool.h"

namespace accelc::runtime {

/// One flat buffer of a loop kernel.
struct KernelBuffer {
  enum class Role : uint8_t { kInput = 0, kOutput = 1, kTemp = 2 };
  std::string name;
  int64_t elements = 0;  ///< per batch point
  Role role = Role::kInput;
  support::DType type = support::DType::kFloat32;  ///< float32, int8, uint8 or int32; int64 unread (kernelBufferType)
};

/// Whether a loop kernel's buffer may hold `t`: float32, int8, uint8, int32,
/// or int64 for an input the kernel never reads (a Reshape's shape, a Slice's
/// starts and ends, which the compiler read already).
bool kernelBufferType(support::DType t);

/// A batch dimension: the stages run `count` times, buffer b's start moving by stride[b] elements each time.
struct BatchDim {
  int64_t count = 1;
  std::vector<int64_t> stride;
};

/// One compiled stage of a loop kernel.
struct StageCode {
  std::string symbol;
  int64_t iterations = 1;  ///< of its outer loop: run as [0, iterations)
  bool parallel = false;   ///< divided among the thread pool
  bool once = false;       ///< run on the kernel's first run, at its first batch point, only (a temporary from constants)
};

/// One host kernel: the step it runs and the steps fused into it.
struct KernelCode {
  uint32_t step = 0;             ///< the bundle step it runs
  uint32_t fuses = 0;            ///< following steps it computes too (HostKernel::fuses)
  std::vector<Shape> outputs;    ///< the last step's output shapes (their types: the output buffers'; a chain: one float32)
  std::vector<int64_t> sizes;    ///< per input the executor hands it: its element count, -1 for none
  std::string chain;             ///< a chain's symbol; empty for a loop kernel
  std::vector<KernelBuffer> buffers;  ///< a loop kernel's
  std::vector<BatchDim> batch;
  std::vector<StageCode> stages;
};

/// The type of a kernel's output `i`: its i-th output buffer's (float32 for a chain).
support::DType kernelOutputType(const KernelCode& k, size_t i = 0);

/// The generated code of a bundle's host steps.
struct HostCode {
  std::string triple;                 ///< what it was compiled for ("x86_64-pc-linux-gnu")
  std::string cpu;                    ///< the CPU it was tuned for
  std::vector<std::string> features;  ///< CPU features the code needs ("avx512f", ...)
  std::vector<uint8_t> library;       ///< a shared library of every symbol (empty: compiled in-process)
  uint64_t libraryHash = 0;           ///< its fnv1a-64 hash (host_library.h), checked before it is loaded
  std::vector<KernelCode> kernels;
};

/// An x86-64 ISA extension generated code may use: LLVM's name for it, and
/// the flag /proc/cpuinfo shows when the CPU has it.
struct CpuFeature {
  const char* llvm;
  const char* cpuinfo;
};
/// The extensions a bundle records and the runtime checks before loading its code.
const std::vector<CpuFeature>& x86Features();

/// A loop kernel's stage function.
using StageFn = void (*)(void* const* buffers, int64_t begin, int64_t end);
/// A chain's function.
using ChainFn = void (*)(const float* const* inputs, float* out, int64_t n);

/// The temporaries of a loop kernel, kept from one run to the next so that a
/// run neither allocates nor touches fresh pages (a run holds it alone).
class KernelScratch {
 public:
  /// Memory for temporary `i` of `bytes` bytes, 64-byte aligned, its contents left as they were.
  void* at(size_t i, int64_t bytes);
  std::mutex& mutex() { return mutex_; }
  /// Whether a run has finished with it: the temporaries of `once` stages hold their values.
  bool primed = false;

 private:
  struct Block {
    std::unique_ptr<uint8_t[]> data;
    int64_t bytes = 0;
  };
  std::vector<Block> blocks_;
  std::mutex mutex_;
};

/// Runs a loop kernel: one pointer per buffer in `io` (null for temporaries,
/// taken from `scratch`); parallel stages divide their loop over `pool` when given.
void runLoopKernel(const KernelCode& k, const std::vector<StageFn>& fns, const std::vector<void*>& io,
                   support::ThreadPool* pool, KernelScratch& scratch);

/// The executor's kernels for `code`, each symbol's address from `resolve`
/// (null: a located error); loop kernels share `pool` (may be null). `kind`
/// names what runs them in reports ("jit x86-64 avx512").
support::Expected<HostKernels> hostKernelsOf(const HostCode& code,
                                             const std::function<void*(const std::string&)>& resolve,
                                             const std::string& kind, std::shared_ptr<support::ThreadPool> pool,
                                             const std::string& name);

/// The bundle section of `code` (docs/formats.md), and back.
void writeHostCode(support::ByteWriter& w, const HostCode& code);
support::Status readHostCode(support::ByteReader& r, HostCode& code);

/// Problems of `code` against a bundle's steps, given as the shapes of each
/// step's outputs (fused runs past the end, outputs that are not the last
/// fused step's, buffers that do not match); "" when it fits.
std::string hostCodeProblem(const HostCode& code, const std::vector<std::vector<Shape>>& stepOutputs);

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_HOST_CODE_H_
