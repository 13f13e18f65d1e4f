// tests/host/cross/run_host_code.cc — a small program over the runtime's host
// code loader, cross-built for AArch64 and ARMv7 and run under qemu-user by
// tests/host/cross_test.cc.
//
//   run_host_code CODE.bin K OUT IN...
//
// Reads a bundle's host code (the `host` section's bytes, runtime/host_code.h),
// loads its library with runtime::loadHostLibrary (without the CPU check:
// under qemu-user /proc/cpuinfo is the host machine's), runs kernel K on the
// inputs (one file per input the kernel takes, raw little-endian, of the
// type its buffer holds: float32 for a chain) on two threads, and writes its
// output. Exit status 1 with a message on error.
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "runtime/host_library.h"

namespace {

std::vector<uint8_t> readFile(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

int fail(const std::string& why) {
  std::fprintf(stderr, "run_host_code: %s\n", why.c_str());
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  using namespace accelc;
  if (argc < 4) return fail("usage: run_host_code CODE.bin K OUT IN...");
  const std::vector<uint8_t> bytes = readFile(argv[1]);
  support::ByteReader r(bytes, argv[1]);
  runtime::HostCode code;
  if (support::Status st = runtime::readHostCode(r, code); !st) return fail(st.str());
  const size_t k = static_cast<size_t>(std::atoi(argv[2]));
  if (k >= code.kernels.size()) return fail("no kernel " + std::to_string(k));
  auto kernels = runtime::loadHostLibrary(code, std::make_shared<support::ThreadPool>(2), argv[1], false);
  if (!kernels) return fail(kernels.status().str());
  const runtime::KernelCode& kc = code.kernels[k];
  std::vector<runtime::Tensor> in;
  std::vector<const runtime::Tensor*> ptrs;
  int file = 4;
  size_t present = 0;  // a loop kernel's present inputs are its first buffers
  for (int64_t n : kc.sizes) {
    const bool typed = kc.chain.empty() && n >= 0 && present < kc.buffers.size();
    in.emplace_back(typed ? kc.buffers[present++].type : support::DType::kFloat32, runtime::Shape{n < 0 ? 0 : n});
  }
  for (size_t i = 0; i < kc.sizes.size(); ++i) {
    if (kc.sizes[i] < 0) {
      ptrs.push_back(nullptr);
      continue;
    }
    if (file >= argc) return fail("fewer input files than the kernel's inputs");
    const std::vector<uint8_t> data = readFile(argv[file++]);
    if (data.size() != in[i].bytes().size()) return fail(std::string(argv[file - 1]) + " has the wrong size");
    in[i].bytes() = data;
    ptrs.push_back(&in[i]);
  }
  std::vector<runtime::Tensor> out(1);
  if (support::Status st = kernels->at(kc.step).run(ptrs, out); !st) return fail(st.str());
  std::ofstream(argv[3], std::ios::binary)
      .write(reinterpret_cast<const char*>(out[0].bytes().data()), static_cast<std::streamsize>(out[0].bytes().size()));
  return 0;
}
