// tests/host/host_library_test.cc — host code compiled ahead of time into the
// shared library a bundle carries, and loaded by the runtime without LLVM:
// the same outputs as the in-process JIT's, through a bundle file's round
// trip; refused before dlopen when the library was built for another
// architecture, does not hash to what the bundle records, or needs a CPU
// feature this CPU lacks; a kernel description past the bundle's steps is a
// located error when the bundle is read.
#include "runtime/host_library.h"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <fstream>

#include "compiler/host/library.h"
#include "compiler/host/step_kernels.h"
#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "runtime/ops.h"
#include "support/hash.h"
#include "tests/host/host_rule.h"
#include "tests/host/host_util.h"

namespace accelc::compiler::host {
namespace {

using runtime::OpKind;
using runtime::Tensor;

runtime::Bundle hostBundle(const isa::Target& t) { return testing::convBundle(t, true); }

std::vector<Tensor> inputs(const runtime::Bundle& b) { return testing::randomInputs(b, 7, -1.0f, 1.0f); }

Tensor runWith(const runtime::Bundle& b, const isa::Target& t, runtime::HostKernels k) {
  testing::HostRun r = testing::runOnce(b, t, std::move(k), inputs(b));
  return r.outputs.empty() ? Tensor() : r.outputs[0];
}

TEST(HostLibraryTest, ABundlesLibraryRunsAsTheJitsCode) {
  const isa::Target t = testing::presetTarget("tiny");
  runtime::Bundle b = hostBundle(t);
  auto target = x86Target("native");
  ASSERT_TRUE(target.isOk()) << target.status().str();
  auto code = compileHostCode(b, *target, "host.acx");
  ASSERT_TRUE(code.isOk()) << code.status().str();
  ASSERT_EQ(code->kernels.size(), 2u);  // the convolution with the ReLU and the add fused; the pool
  EXPECT_EQ(code->kernels[0].fuses, 2u);
  EXPECT_FALSE(code->library.empty());
  b.host = *code;
  // Through a file's round trip: the library is a section of the bundle.
  auto read = runtime::readCheckedBundle(runtime::writeBundle(b), "host.acx");
  ASSERT_TRUE(read.isOk()) << read.status().str();
  auto loaded = runtime::loadHostLibrary(read->bundle.host, nullptr, "host.acx");
  ASSERT_TRUE(loaded.isOk()) << loaded.status().str();
  EXPECT_EQ(loaded->at(0).kind.rfind("bundle x86_64", 0), 0u) << loaded->at(0).kind;
  auto jit = HostJit::create();
  ASSERT_TRUE(jit.isOk()) << jit.status().str();
  auto jitted = generatedHostKernels(b, **jit, "host.acx");
  ASSERT_TRUE(jitted.isOk()) << jitted.status().str();
  const Tensor fromLibrary = runWith(read->bundle, t, std::move(*loaded)), fromJit = runWith(b, t, std::move(*jitted));
  EXPECT_EQ(fromLibrary.bytes(), fromJit.bytes());
  const Tensor reference = runWith(b, t, {});
  double worst = 0;
  for (int64_t i = 0; i < reference.numel(); ++i)
    worst = std::max(worst, std::fabs(double{fromLibrary.data<float>()[i]} - reference.data<float>()[i]));
  EXPECT_LT(worst, 1e-4);
}

TEST(HostLibraryTest, CodeThatCannotRunHereIsRefusedBeforeItLoads) {
  const isa::Target t = testing::presetTarget("tiny");
  runtime::Bundle b = hostBundle(t);
  auto target = x86Target("x86-64-v2");  // no AVX: runs on every x86-64 machine this test meets
  ASSERT_TRUE(target.isOk()) << target.status().str();
  EXPECT_EQ(std::count(target->features.begin(), target->features.end(), "avx2"), 0);
  auto code = compileHostCode(b, *target, "host.acx");
  ASSERT_TRUE(code.isOk()) << code.status().str();
  b.host = *code;
  EXPECT_TRUE(runtime::loadHostLibrary(b.host, nullptr, "host.acx").isOk());
  runtime::Bundle arm = b;
  arm.host.triple = "aarch64-unknown-linux-gnu";
  auto e = runtime::loadHostLibrary(arm.host, nullptr, "host.acx");
  ASSERT_FALSE(e.isOk());
  EXPECT_NE(e.status().str().find("built for aarch64-unknown-linux-gnu; this runtime runs x86_64 code"), std::string::npos)
      << e.status().str();
  runtime::Bundle flipped = b;
  flipped.host.library[flipped.host.library.size() / 2] ^= 1;
  e = runtime::loadHostLibrary(flipped.host, nullptr, "host.acx");
  ASSERT_FALSE(e.isOk());
  EXPECT_NE(e.status().str().find("does not hash to what the bundle records"), std::string::npos) << e.status().str();
  EXPECT_EQ(runtime::hostLibraryProblem(b.host, {"sse4_2"}).find("needs CPU features this CPU lacks"), std::string::npos);
  runtime::HostCode wants = b.host;
  wants.features.push_back("avx512_fp16x");
  EXPECT_NE(runtime::hostLibraryProblem(wants, runtime::cpuFeatures()).find("this CPU lacks: avx512_fp16x"),
            std::string::npos);
  runtime::Bundle past = b;
  past.host.kernels[0].step = 3;  // with two steps fused it would run past the last step
  auto bad = runtime::readCheckedBundle(runtime::writeBundle(past), "host.acx");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().str(), "host.acx[host]: error: host kernel of step 3: past the bundle's 4 steps");
  runtime::Bundle shape = b;  // a kernel whose outputs are not its step's
  shape.host.kernels[0].outputs[0].push_back(1);
  bad = runtime::readCheckedBundle(runtime::writeBundle(shape), "host.acx");
  ASSERT_FALSE(bad.isOk());
  EXPECT_EQ(bad.status().str(), "host.acx[host]: error: host kernel of step 0: its outputs are not its step's");
  runtime::Bundle slot = b;  // a step writing a slot that does not exist: refused before the host code is read
  slot.steps.back().outputs[0] = 999;
  bad = runtime::readCheckedBundle(runtime::writeBundle(slot), "host.acx");
  ASSERT_FALSE(bad.isOk());
  EXPECT_NE(bad.status().str().find("writes a tensor slot that does not exist"), std::string::npos) << bad.status().str();
}

TEST(HostLibraryTest, AmxCodeIsBuiltForACpuWithAmxAndNeedsItsFeaturesOnlyWhereItUsesThem) {
  // Compiled on every machine (LLVM knows Sapphire Rapids), run where this CPU has AMX.
  using support::DType;
  const isa::Target t = testing::presetTarget("tiny");
  runtime::QConvAttrs qc;
  qc.pads = {1, 1, 1, 1}, qc.padValue = -3, qc.zeroPoint = 2;
  const std::vector<testing::HostSlot> slots = {{"x", {1, 8, 9, 9}, DType::kInt8}, {"w", {16, 8, 3, 3}, DType::kInt8},
                                                {"bias", {16}, DType::kInt32},     {"mult", {16}, DType::kInt32},
                                                {"shift", {16}, DType::kInt32},    {"y", {1, 16, 9, 9}, DType::kInt8}};
  const runtime::Bundle b = testing::hostOnlyBundle(
      t, slots, {0, 1, 2, 3, 4}, {5}, {testing::hostStep("/qconv", OpKind::kQConv, qc, {0, 1, 2, 3, 4}, {5})});
  auto target = x86Target("sapphirerapids");
  ASSERT_TRUE(target.isOk()) << target.status().str();
  ASSERT_TRUE(target->shape.amx);
  auto code = compileHostCode(b, *target, "amx.acx");
  ASSERT_TRUE(code.isOk()) << code.status().str();
  for (const char* f : {"amx_tile", "amx_int8"})
    EXPECT_EQ(std::count(code->features.begin(), code->features.end(), f), 1) << f;
  // Float code for the same CPU uses no tiles, and asks for none.
  auto floats = compileHostCode(hostBundle(t), *target, "float.acx");
  ASSERT_TRUE(floats.isOk()) << floats.status().str();
  EXPECT_EQ(std::count(floats->features.begin(), floats->features.end(), "amx_tile"), 0);
  const std::vector<std::string> cpu = runtime::cpuFeatures();
  if (!runtime::hostLibraryProblem(*code, cpu).empty()) GTEST_SKIP() << "this CPU cannot run Sapphire Rapids code";
  std::mt19937 g(5);
  std::vector<Tensor> in;
  for (int id : b.inputs) {  // bytes; biases, Q31 multipliers and shifts in their ranges
    const runtime::TensorSlot& s = b.tensors[static_cast<size_t>(id)];
    Tensor x(s.dtype, s.shape);
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (s.dtype == DType::kInt8)
        x.data<int8_t>()[i] = static_cast<int8_t>(g());
      else
        x.data<int32_t>()[i] = s.name == "mult"    ? (1 << 30) + static_cast<int32_t>(g() % 99999)
                               : s.name == "shift" ? static_cast<int32_t>(g() % 12)
                                                   : static_cast<int32_t>(g() % 10001) - 5000;
    }
    in.push_back(std::move(x));
  }
  std::vector<Tensor> want(1);
  ASSERT_TRUE(runtime::runOp(OpKind::kQConv, qc, {&in[0], &in[1], &in[2], &in[3], &in[4]}, want, {}).isOk());
  auto loaded = runtime::loadHostLibrary(*code, nullptr, "amx.acx");
  ASSERT_TRUE(loaded.isOk()) << loaded.status().str();
  const testing::HostRun r = testing::runOnce(b, t, std::move(*loaded), in);
  ASSERT_EQ(r.outputs.size(), 1u);
  EXPECT_EQ(r.outputs[0].bytes(), want[0].bytes());
}

/// A cross toolchain and the qemu-user that runs its programs.
struct Cross {
  std::string arch, gxx, qemu, sysroot, loader;
  /// How to run a program: with the target's multiarch C library when it is installed (its loader and C
  /// library come from one package: scripts/bootstrap.sh installs it), else the cross toolchain's (-L).
  std::string run() const {
    struct stat st;
    return ::stat(loader.c_str(), &st) == 0 ? qemu : qemu + " -L " + sysroot;
  }
};

bool onPath(const std::string& tool) { return std::system(("command -v " + tool + " > /dev/null 2>&1").c_str()) == 0; }

/// tests/host/cross/run_host_code.cc built for `c` (cached under the sources' hash); "" when it does not build.
std::string harness(const Cross& c) {
  const std::string src = testing::sourceDir();
  const std::vector<std::string> files = {"tests/host/cross/run_host_code.cc", "runtime/host_code.cc",
                                          "runtime/host_library.cc", "support/thread_pool.cc",
                                          "support/diagnostic.cc", "support/check.cc", "support/dtype.cc"};
  std::string all, list;
  for (const std::string& f : files) all += testing::readFile(src + "/" + f), list += " " + src + "/" + f;
  const std::string bin = testing::tempDir() + "/run_host_code." + c.arch + "." + support::hex64(support::fnv1a64(all));
  struct stat st;
  if (::stat(bin.c_str(), &st) == 0) return bin;
  // Test processes running at once may build the same program: each builds its own file, and the rename is atomic.
  const std::string tmp = bin + "." + std::to_string(::getpid());
  const std::string cmd = c.gxx + " -std=c++17 -O2 -I" + src + list + " -o " + tmp + ".tmp -ldl -lpthread > " + tmp +
                          ".log 2>&1 && mv " + tmp + ".tmp " + bin;
  return std::system(cmd.c_str()) == 0 ? bin : "";
}

/// A tensor's bytes, raw, as the harness reads an input.
void writeRaw(const std::string& path, const Tensor& t) {
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(t.bytes().data()), static_cast<std::streamsize>(t.bytes().size()));
}

/// The cross toolchains with the qemu-user that runs their programs, as present on this machine.
std::vector<Cross> crossToolchains() {
  std::vector<Cross> found;
  for (const Cross& c : {Cross{"aarch64", "aarch64-linux-gnu-g++", "qemu-aarch64", "/usr/aarch64-linux-gnu",
                               "/lib/ld-linux-aarch64.so.1"},
                         Cross{"armv7", "arm-linux-gnueabihf-g++", "qemu-arm", "/usr/arm-linux-gnueabihf",
                               "/lib/ld-linux-armhf.so.3"}}) {
    if (onPath(c.gxx) && onPath(c.qemu)) found.push_back(c);
    else std::printf("%s: %s or %s is missing (scripts/bootstrap.sh installs them); not run\n", c.arch.c_str(), c.gxx.c_str(), c.qemu.c_str());
  }
  return found;
}

/// `code` as the harness reads it, in a file of its own.
std::string writeCode(const runtime::HostCode& code, const std::string& path) {
  support::ByteWriter w;
  runtime::writeHostCode(w, code);
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(w.data().data()), static_cast<std::streamsize>(w.data().size()));
  return path;
}

TEST(HostLibraryTest, ArmIntegerKernelsGiveTheReferencesBitsUnderQemu) {
  using runtime::OpKind;
  using support::DType;
  const isa::Target t = testing::presetTarget("tiny");
  runtime::QConvAttrs qc;
  qc.pads = {1, 1, 1, 1}, qc.padValue = -3, qc.zeroPoint = 2;
  runtime::QAddAttrs qa;
  qa.zeroA = 2, qa.multA = 1518500250, qa.zeroB = -1, qa.multB = 1073741824, qa.shift = 9, qa.lo = 0;
  const std::vector<testing::HostSlot> slots = {
      {"x", {1, 8, 9, 9}, DType::kInt8},  {"w", {16, 8, 3, 3}, DType::kInt8}, {"bias", {16}, DType::kInt32},
      {"mult", {16}, DType::kInt32},      {"shift", {16}, DType::kInt32},     {"skip", {1, 16, 9, 9}, DType::kInt8},
      {"y", {1, 16, 9, 9}, DType::kInt8}, {"z", {1, 16, 9, 9}, DType::kInt8}};
  const runtime::Bundle b = testing::hostOnlyBundle(
      t, slots, {0, 1, 2, 3, 4, 5}, {7},
      {testing::hostStep("/qconv", OpKind::kQConv, qc, {0, 1, 2, 3, 4}, {6}),
       testing::hostStep("/qadd", OpKind::kQAdd, qa, {6, 5}, {7})});
  std::mt19937 g(3);
  std::vector<Tensor> in;
  for (int id : b.inputs) {
    const runtime::TensorSlot& s = b.tensors[static_cast<size_t>(id)];
    Tensor x(s.dtype, s.shape);
    for (int64_t i = 0; i < x.numel(); ++i) {
      if (s.dtype == DType::kInt8) x.data<int8_t>()[i] = static_cast<int8_t>(g());
      else x.data<int32_t>()[i] = s.name == "mult" ? (1 << 30) + static_cast<int32_t>(g() % 99999)
                                  : s.name == "shift" ? static_cast<int32_t>(g() % 12)
                                                      : static_cast<int32_t>(g() % 20001) - 10000;
    }
    in.push_back(std::move(x));
  }
  std::vector<Tensor> y(1), z(1);
  ASSERT_TRUE(runtime::runOp(OpKind::kQConv, qc, {&in[0], &in[1], &in[2], &in[3], &in[4]}, y, {}).isOk());
  ASSERT_TRUE(runtime::runOp(OpKind::kQAdd, qa, {&y[0], &in[5]}, z, {}).isOk());
  const std::string dir = testing::tempDir();
  for (size_t i = 0; i < in.size(); ++i) writeRaw(dir + "/cross_int" + std::to_string(i), in[i]);
  writeRaw(dir + "/cross_int_y", y[0]);
  const std::vector<Cross> crosses = crossToolchains();
  for (const Cross& c : crosses) {
    const std::string bin = harness(c);
    ASSERT_FALSE(bin.empty()) << c.arch << ": the test program does not build";
    auto code = compileHostCode(b, *libraryTarget(c.arch, ""), "host.acx");
    ASSERT_TRUE(code.isOk()) << code.status().str();
    ASSERT_EQ(code->kernels.size(), 2u) << c.arch << ": the QConv and the QAdd each get a kernel";
    const std::string run = c.run() + " " + bin + " " + writeCode(*code, dir + "/cross_int_code." + c.arch);
    const std::string out = dir + "/cross_int_out." + c.arch;
    std::string args;
    for (size_t i = 0; i < 5; ++i) args += " " + dir + "/cross_int" + std::to_string(i);
    ASSERT_EQ(std::system((run + " 0 " + out + "0" + args).c_str()), 0) << c.arch;
    ASSERT_EQ(std::system((run + " 1 " + out + "1 " + dir + "/cross_int_y " + dir + "/cross_int5").c_str()), 0) << c.arch;
    EXPECT_EQ(testing::readFile(out + "0"), std::string(y[0].bytes().begin(), y[0].bytes().end())) << c.arch << ": QConv";
    EXPECT_EQ(testing::readFile(out + "1"), std::string(z[0].bytes().begin(), z[0].bytes().end())) << c.arch << ": QAdd";
  }
  if (crosses.empty()) GTEST_SKIP() << "no cross toolchain with qemu-user on this machine";
}

TEST(HostLibraryTest, ArmLibrariesRunUnderQemuAsTheX86OnesDo) {
  const isa::Target t = testing::presetTarget("tiny");
  const runtime::Bundle b = hostBundle(t);
  const std::vector<Tensor> in = inputs(b);
  // x86-64 first: the kernels' outputs the ARM ones are held to.
  auto x86 = compileHostCode(b, *libraryTarget("x86", "native"), "host.acx");
  ASSERT_TRUE(x86.isOk()) << x86.status().str();
  auto x86k = runtime::loadHostLibrary(*x86, nullptr, "host.acx");
  ASSERT_TRUE(x86k.isOk()) << x86k.status().str();
  std::vector<Tensor> conv(1), pooled(1);
  ASSERT_TRUE(x86k->at(0).run({&in[0], &in[1], &in[2], nullptr, nullptr, &in[3]}, conv).isOk());
  ASSERT_TRUE(x86k->at(3).run({&conv[0]}, pooled).isOk());
  // Σ|terms| of the fused convolution, ReLU and add: the convolution of the magnitudes, plus |skip|.
  std::vector<Tensor> abs(4);
  for (size_t i = 0; i < 4; ++i) {
    abs[i] = in[i];
    for (int64_t k = 0; k < abs[i].numel(); ++k) abs[i].data<float>()[k] = std::fabs(abs[i].data<float>()[k]);
  }
  std::vector<Tensor> terms(1);
  ASSERT_TRUE(runtime::runOp(OpKind::kConv, b.steps[0].attrs, {&abs[0], &abs[1], &abs[2]}, terms, {}).isOk());
  const std::string dir = testing::tempDir();
  for (size_t i = 0; i < 4; ++i) writeRaw(dir + "/cross_in" + std::to_string(i) + ".f32", in[i]);
  writeRaw(dir + "/cross_conv.f32", conv[0]);
  const std::vector<Cross> crosses = crossToolchains();
  for (const Cross& c : crosses) {
    const std::string bin = harness(c);
    ASSERT_FALSE(bin.empty()) << c.arch << ": the test program does not build";
    auto target = libraryTarget(c.arch, "");
    ASSERT_TRUE(target.isOk()) << target.status().str();
    auto code = compileHostCode(b, *target, "host.acx");
    ASSERT_TRUE(code.isOk()) << code.status().str();
    // This x86-64 runtime refuses it, naming the architecture.
    auto here = runtime::loadHostLibrary(*code, nullptr, "host.acx");
    ASSERT_FALSE(here.isOk());
    EXPECT_NE(here.status().str().find("built for " + target->triple), std::string::npos) << here.status().str();
    const std::string run = c.run() + " " + bin + " " + writeCode(*code, dir + "/cross_code." + c.arch);
    const std::string out = dir + "/cross_out." + c.arch;
    ASSERT_EQ(std::system((run + " 0 " + out + "0 " + dir + "/cross_in0.f32 " + dir + "/cross_in1.f32 " + dir +
                           "/cross_in2.f32 " + dir + "/cross_in3.f32").c_str()),
              0)
        << c.arch;
    ASSERT_EQ(std::system((run + " 1 " + out + "1 " + dir + "/cross_conv.f32").c_str()), 0) << c.arch;
    const std::string got = testing::readFile(out + "0"), pool = testing::readFile(out + "1");
    ASSERT_EQ(got.size(), conv[0].bytes().size()) << c.arch;
    const float* a = reinterpret_cast<const float*>(got.data());
    int bad = 0;
    for (int64_t i = 0; i < conv[0].numel(); ++i) {
      bad += !testing::withinHostRule(a[i], conv[0].data<float>()[i],
                                      terms[0].data<float>()[i] + std::fabs(in[3].data<float>()[i]));
    }
    EXPECT_EQ(bad, 0) << c.arch << ": outputs outside the float tolerance of x86-64's";
    // A max pool rounds nothing: the same bits.
    EXPECT_EQ(pool, std::string(pooled[0].bytes().begin(), pooled[0].bytes().end())) << c.arch;
  }
  if (crosses.empty()) GTEST_SKIP() << "no cross toolchain with qemu-user on this machine";
}

}  // namespace
}  // namespace accelc::compiler::host
