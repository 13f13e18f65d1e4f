// runtime/executor.h — runs a bundle's steps on a device.
//
// Creating an executor checks the bundle against the device's hwspec and
// writes everything constant once: host constants, packed weights, the
// requantization rows, every program's instructions and micro-ops, and the
// fill of every blocked tensor (its border). A run writes the float inputs,
// executes the steps in order — programs on the device, host operators on the
// reference kernels reading and writing their tensors through the device in
// the layout the DRAM plan records, packs and unpacks between layouts — and
// reads the float outputs back.
#ifndef ACCELC_RUNTIME_EXECUTOR_H_
#define ACCELC_RUNTIME_EXECUTOR_H_

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runtime/bundle.h"
#include "runtime/device.h"
#include "runtime/host_kernels.h"
#include "support/status.h"

namespace accelc::runtime {

/// Time and work per step kind, summed over runs.
struct RunStats {
  std::optional<isa::Counters> accel;                    ///< the device's event counts, on devices that count events
  int64_t accelSteps = 0, hostSteps = 0, packSteps = 0;  ///< steps run
  std::vector<double> stepSeconds;  ///< per bundle step: wall time, summed over inferences
  std::vector<uint64_t> stepCycles; ///< per bundle step: device cycles (timed devices), summed
  std::vector<std::string> stepKernel;  ///< per bundle step: what ran it, for host steps (kReferenceKernel or a HostKernel's kind)
  std::optional<uint64_t> cycles;   ///< device cycles of every accelerator step, on timed devices
};

class Executor {
 public:
  /// Loads `b` (named `name` in errors) onto `d`; host steps with a kernel in
  /// `host` run on it, the others on their reference kernels.
  static support::Expected<std::unique_ptr<Executor>> create(const Bundle& b, Device& d, const std::string& name,
                                                             HostKernels host = {});
  /// One inference: inputs match the model's shapes exactly.
  support::Expected<std::vector<Tensor>> run(const std::vector<Tensor>& inputs);
  /// k inferences when every input's leading dimension is k times the model's;
  /// the outputs are concatenated along axis 0.
  support::Expected<std::vector<Tensor>> runBatched(const std::vector<Tensor>& inputs);
  const RunStats& stats() const { return stats_; }

 private:
  Executor(const Bundle& b, Device& d, std::string name, HostKernels host)
      : b_(b), d_(d), name_(std::move(name)), host_(std::move(host)) {}
  support::Status load();
  /// Slot `id`'s value; a blocked slot is unpacked into `reuse`'s memory when it fits.
  support::Expected<Tensor> readSlot(int id, Tensor reuse = Tensor());
  support::Status writeSlot(int id, Tensor t);
  /// Ok when `t` has slot `id`'s type and element count; else a located error.
  support::Status checkSlot(int id, const Tensor& t) const;
  /// Writes `t` into device slot `id` (packed when blocked) without taking it.
  support::Status writeDeviceSlot(int id, const Tensor& t);
  /// Slot `id` as a tensor: in place when it lives in host memory, else read into `local`.
  support::Expected<const Tensor*> slotTensor(int id, Tensor& local);
  /// Runs step `i`, adding what it measured to the statistics; returns how
  /// many steps that ran (more than one for a fused kernel).
  support::Expected<size_t> step(size_t i);
  /// Runs host step `i` on its kernel `k`, with the steps it fuses.
  support::Status hostKernelStep(size_t i, const HostKernel& k);
  /// Adds one program run's figures to step `i`'s.
  void account(size_t i, const RunResult& r);

  const Bundle& b_;    ///< the bundle (outlives the executor)
  Device& d_;          ///< the device
  std::string name_;   ///< bundle name for errors
  HostKernels host_;   ///< host steps' kernels other than the reference ones
  RunStats stats_;     ///< what ran
  std::vector<std::optional<Tensor>> resident_;  ///< per slot: its tensor when it lives in host memory (else nullopt)
  std::vector<bool> onHost_;                     ///< per slot: it lives in host memory
  std::map<size_t, std::vector<int>> kernelInputs_;  ///< per host kernel's step: the slots it receives (fusedStepInputs)
  std::vector<uint8_t> bytes_;  ///< packed bytes on their way to or from the device, kept from run to run
  /// Per device slot that host kernels write or read: the tensor of the last run, whose memory the next run's
  /// kernel writes into or its read unpacks into (fresh pages cost a fault each, every inference).
  std::vector<Tensor> spare_;
};

}  // namespace accelc::runtime

#endif  // ACCELC_RUNTIME_EXECUTOR_H_
