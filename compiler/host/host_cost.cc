// compiler/host/host_cost.cc — the hosts' rates.
//
// x86-64: from measurements on the development machine (AVX-512 with VNNI,
// one thread). bench/host_int_kernels_bench's best kernels run faster than
// whole models do: ResNet-18's 3x3 QConvs at 260-350 G MACs/s generated
// (1.5-1.7 on the reference kernels), Im2col and QuantizeLinear at 23-50
// GB/s. Whole models, with their small and depthwise layers, average less,
// so the rates here are set where `accelc report --measure` on quantized
// ResNet-18, MobileNet-v2 and MobileNet-v3-small (every layer on the host)
// falls within about 2x of the estimate (0.5x to 2.1x): 120 G MACs/s, 10 GB/s, a reference's 0.4
// GB/s (QHardSwish's reference kernel ran at 0.4 GB/s), 5 us a step. Packing
// to the blocked layout: ~2 GB/s (SqueezeNet's 1.75 MB Im2col output in 0.95
// ms; 0.73 ms since the packer's tiles stay in registers, still set at 2). The ARM cores are not measured here (qemu
// says nothing of speed): their figures are nominal, from each core's NEON width and clock (Cortex-A53 at 1.2 GHz on
// MPSoC boards, Cortex-A9 at 650 MHz on PYNQ-Z1, int8 products in their int32 form) and their boards' memory.
#include "compiler/host/host_cost.h"

#include <algorithm>

#include "compiler/host/step_kernels.h"

namespace accelc::compiler::host {

support::Expected<HostSpeed> hostSpeed(const std::string& arch) {
  if (arch == "x86") return HostSpeed{"x86-64", 120e9, 10e9, 1.6e9, 0.4e9, 2e9, 5e-6};
  if (arch == "aarch64") return HostSpeed{"AArch64 Cortex-A53", 1.5e9, 1e9, 0.15e9, 0.1e9, 0.3e9, 20e-6};
  if (arch == "armv7") return HostSpeed{"ARMv7 Cortex-A9", 0.4e9, 0.3e9, 0.04e9, 0.03e9, 0.1e9, 40e-6};
  return support::error(support::Location(), "no host '" + arch + "': expected x86, aarch64 or armv7");
}

double hostSeconds(const HostSpeed& h, runtime::OpKind k, int64_t macs, int64_t bytes, bool generated) {
  const bool fast = generated && generatesKernel(k);
  const double products = static_cast<double>(macs) / (fast ? h.macs : h.referenceMacs);
  const double moves = static_cast<double>(bytes) / (fast ? h.bytes : h.referenceBytes);
  return h.step + std::max(products, moves);
}

}  // namespace accelc::compiler::host
