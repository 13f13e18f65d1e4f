// tests/deploy/deploy_test.cc — the deploy runtime: its C API in-process, a C
// program over the public header alone, and accelc-run, each against
// `accelc run` on the same bundle bit for bit; errors as codes with their
// messages, the session usable after them; and what accelc-run links.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "runtime/include/accelc_runtime.h"
#include "support/npy.h"
#include "tests/deploy/deploy_util.h"
#include "tests/test_util.h"

namespace {

using namespace accelc::testing::deploy;

const std::string kRun = ACCELC_RUN_BINARY, kCProgram = ACCELC_C_PROGRAM;

TEST(DeployTest, TheCApiRunsDigitsOnFsimBitForBitAsAccelcRun) {
  const Digits& d = digits();
  accelc_bundle* b = nullptr;
  ASSERT_EQ(accelc_bundle_open(d.bundle.c_str(), &b), ACCELC_OK) << accelc_last_error();
  ASSERT_EQ(accelc_bundle_input_count(b), 1);
  ASSERT_EQ(accelc_bundle_output_count(b), 1);
  accelc_tensor_info in, out;
  ASSERT_EQ(accelc_bundle_input(b, 0, &in), ACCELC_OK);
  ASSERT_EQ(accelc_bundle_output(b, 0, &out), ACCELC_OK);
  EXPECT_STREQ(in.name, "input");
  EXPECT_STREQ(out.name, "logits");
  EXPECT_EQ(out.rank, 2);
  EXPECT_EQ(out.bytes, 40u);
  EXPECT_EQ(accelc_bundle_output_index(b, "logits"), 0);
  EXPECT_EQ(accelc_bundle_input_index(b, "nope"), -1);
  accelc_session* s = nullptr;
  ASSERT_EQ(accelc_session_create(b, "fsim", nullptr, &s), ACCELC_OK) << accelc_last_error();
  const std::vector<float> x = inputFloats();
  ASSERT_EQ(x.size() * sizeof(float), in.bytes);
  ASSERT_EQ(accelc_session_set_input(s, 0, x.data(), in.bytes), ACCELC_OK) << accelc_last_error();
  for (int run = 0; run < 2; ++run) {  // a second run on the same inputs gives the same bits
    ASSERT_EQ(accelc_session_run(s), ACCELC_OK) << accelc_last_error();
    std::vector<uint8_t> y(out.bytes);
    ASSERT_EQ(accelc_session_get_output(s, 0, y.data(), y.size()), ACCELC_OK) << accelc_last_error();
    EXPECT_EQ(y, d.logits) << "run " << run;
  }
  // The zero-copy binding: the input written where the session keeps it, the output read where it lies.
  void* bound = nullptr;
  const void* view = nullptr;
  size_t bytes = 0;
  ASSERT_EQ(accelc_session_input_buffer(s, 0, &bound, &bytes), ACCELC_OK) << accelc_last_error();
  ASSERT_EQ(bytes, in.bytes);
  std::memset(bound, 0, bytes);  // another input: the run must read this storage, not a copy made before
  ASSERT_EQ(accelc_session_run(s), ACCELC_OK) << accelc_last_error();
  ASSERT_EQ(accelc_session_output_buffer(s, 0, &view, &bytes), ACCELC_OK) << accelc_last_error();
  ASSERT_EQ(bytes, out.bytes);
  EXPECT_NE(std::vector<uint8_t>(static_cast<const uint8_t*>(view), static_cast<const uint8_t*>(view) + bytes), d.logits);
  std::memcpy(bound, x.data(), in.bytes);
  ASSERT_EQ(accelc_session_run(s), ACCELC_OK) << accelc_last_error();
  ASSERT_EQ(accelc_session_output_buffer(s, 0, &view, &bytes), ACCELC_OK);
  EXPECT_EQ(std::vector<uint8_t>(static_cast<const uint8_t*>(view), static_cast<const uint8_t*>(view) + bytes), d.logits);
  EXPECT_EQ(accelc_session_output_buffer(s, 1, &view, &bytes), ACCELC_ERROR_ARGUMENT);
  // Per step: its kind, and wall time for every step that ran.
  ASSERT_EQ(accelc_session_step_count(s), 12);
  int accel = 0;
  for (int i = 0; i < accelc_session_step_count(s); ++i) {
    accelc_step_timing t;
    ASSERT_EQ(accelc_session_step(s, i, &t), ACCELC_OK);
    accel += std::string(t.kind) == "accelerator";
    EXPECT_GT(t.seconds, 0.0) << t.name;
  }
  EXPECT_EQ(accel, 4);
  accelc_session_destroy(s);
  accelc_bundle_close(b);
}

TEST(DeployTest, TheCApiRunsDigitsOnAVirtualBoardAsOnFsimAndRefusesAnotherHwspecsIp) {
  // The verilated Zynq IP in its own process behind the board driver, with
  // on-chip buffers random at power-on, as on a board.
  const Digits& d = digits();
  accelc_bundle* b = nullptr;
  ASSERT_EQ(accelc_bundle_open(d.bundle.c_str(), &b), ACCELC_OK) << accelc_last_error();
  accelc_session* s = nullptr;
  ASSERT_EQ(accelc_session_create(b, "virtual:pynq-z1", nullptr, &s), ACCELC_OK) << accelc_last_error();
  const std::vector<float> x = inputFloats();
  ASSERT_EQ(accelc_session_set_input(s, 0, x.data(), x.size() * sizeof(float)), ACCELC_OK) << accelc_last_error();
  for (int run = 0; run < 2; ++run) {
    ASSERT_EQ(accelc_session_run(s), ACCELC_OK) << accelc_last_error();
    std::vector<uint8_t> y(d.logits.size());
    ASSERT_EQ(accelc_session_get_output(s, 0, y.data(), y.size()), ACCELC_OK) << accelc_last_error();
    EXPECT_EQ(y, d.logits) << "run " << run;
  }
  accelc_session_destroy(s);
  EXPECT_EQ(accelc_session_create(b, "virtual:pynq-z1:tiny", nullptr, &s), ACCELC_ERROR_DEVICE);
  EXPECT_NE(std::string(accelc_last_error()).find("virtual board pynq-z1: error: the accelerator was built for target "),
            std::string::npos)
      << accelc_last_error();
  accelc_bundle_close(b);
}

TEST(DeployTest, ErrorsComeBackAsCodesWithTheirMessagesAndTheSessionStaysUsable) {
  const Digits& d = digits();
  accelc_bundle* b = nullptr;
  EXPECT_EQ(accelc_bundle_open(nullptr, &b), ACCELC_ERROR_ARGUMENT);
  EXPECT_STREQ(accelc_last_error(), "accelc_bundle_open: a null argument");
  const std::string missing = kTmp + "/no_such.acx";
  EXPECT_EQ(accelc_bundle_open(missing.c_str(), &b), ACCELC_ERROR_BUNDLE);
  EXPECT_EQ(std::string(accelc_last_error()), missing + ": error: cannot open file for reading");
  const std::string corrupt = own("corrupt.acx");
  {
    std::ifstream in(d.bundle, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    bytes[bytes.size() / 2] ^= 0x55;
    std::ofstream(corrupt, std::ios::binary) << bytes;
  }
  EXPECT_EQ(accelc_bundle_open(corrupt.c_str(), &b), ACCELC_ERROR_BUNDLE);
  EXPECT_NE(std::string(accelc_last_error()).find(corrupt + ": error: "), std::string::npos) << accelc_last_error();
  ASSERT_EQ(accelc_bundle_open(d.bundle.c_str(), &b), ACCELC_OK);
  accelc_session* s = nullptr;
  EXPECT_EQ(accelc_session_create(b, "board:pynq-z1", nullptr, &s), ACCELC_ERROR_DEVICE);
  EXPECT_STREQ(accelc_last_error(),
               "device 'board:pynq-z1': error: no accelerator on this machine: no UIO device named 'accelc' in "
               "/sys/class/uio (docs/deploy.md says how a board shows it)");
  EXPECT_EQ(accelc_session_create(b, "gpu", nullptr, &s), ACCELC_ERROR_DEVICE);
  EXPECT_STREQ(accelc_last_error(), "device 'gpu': error: unknown device: expected fsim, board:NAME or virtual:NAME");
  ASSERT_EQ(accelc_session_create(b, "fsim", nullptr, &s), ACCELC_OK);
  float logits[10];
  EXPECT_EQ(accelc_session_get_output(s, 0, logits, sizeof logits), ACCELC_ERROR_STATE);
  EXPECT_EQ(std::string(accelc_last_error()), d.bundle + ": error: no run has finished: there are no outputs to read");
  EXPECT_EQ(accelc_session_run(s), ACCELC_ERROR_STATE);
  EXPECT_EQ(std::string(accelc_last_error()), d.bundle + ": error: input 'input' is not set");
  const std::vector<float> x = inputFloats();
  EXPECT_EQ(accelc_session_set_input(s, 0, x.data(), 12), ACCELC_ERROR_ARGUMENT);
  EXPECT_EQ(std::string(accelc_last_error()),
            d.bundle + ": error: input 'input' takes " + std::to_string(x.size() * 4) + " bytes (float32), not 12");
  EXPECT_EQ(accelc_session_set_input(s, 1, x.data(), x.size() * 4), ACCELC_ERROR_ARGUMENT);
  EXPECT_EQ(std::string(accelc_last_error()), d.bundle + ": error: no input 1 (the bundle has 1)");
  accelc_step_timing t;
  EXPECT_EQ(accelc_session_step(s, 99, &t), ACCELC_ERROR_ARGUMENT);
  EXPECT_EQ(std::string(accelc_last_error()), d.bundle + ": error: no step 99 (the bundle has 12)");
  // After all that, the session runs.
  ASSERT_EQ(accelc_session_set_input(s, 0, x.data(), x.size() * 4), ACCELC_OK);
  ASSERT_EQ(accelc_session_run(s), ACCELC_OK) << accelc_last_error();
  EXPECT_STREQ(accelc_last_error(), "");
  EXPECT_EQ(accelc_session_get_output(s, 0, logits, 8), ACCELC_ERROR_ARGUMENT);
  ASSERT_EQ(accelc_session_get_output(s, 0, logits, sizeof logits), ACCELC_OK);
  EXPECT_EQ(std::memcmp(logits, d.logits.data(), sizeof logits), 0);
  accelc_session_destroy(s);
  accelc_bundle_close(b);
  EXPECT_EQ(accelc_api_version(), ACCELC_RUNTIME_API_VERSION);
}

TEST(DeployTest, AFreshCProgramOverThePublicHeaderPrintsAccelcRunsOutputs) {
  const Digits& d = digits();
  const std::vector<float> x = inputFloats();
  const std::string raw = own("input.f32");
  std::ofstream(raw, std::ios::binary).write(reinterpret_cast<const char*>(x.data()), x.size() * sizeof(float));
  Out r = sh(kCProgram + " " + d.bundle + " fsim " + raw);
  ASSERT_EQ(r.rc, 0) << r.text;
  std::istringstream lines(r.text);
  std::string line;
  std::getline(lines, line);
  EXPECT_EQ(line, "output logits rank 2: 1 10");
  std::vector<float> got;
  while (std::getline(lines, line) && line.rfind("steps ", 0) != 0) got.push_back(std::strtof(line.c_str(), nullptr));
  EXPECT_EQ(line, "steps 12");
  ASSERT_EQ(got.size() * sizeof(float), d.logits.size());
  EXPECT_EQ(std::memcmp(got.data(), d.logits.data(), d.logits.size()), 0) << r.text;
  // Bound in place (the zero-copy binding): the same lines.
  Out inPlace = sh(kCProgram + " " + d.bundle + " fsim " + raw + " in-place");
  ASSERT_EQ(inPlace.rc, 0) << inPlace.text;
  EXPECT_EQ(inPlace.text, r.text);
  Out bad = sh(kCProgram + " " + d.bundle + " board:kv260 " + raw);
  EXPECT_EQ(bad.rc, 2);
  EXPECT_NE(bad.text.find("status 3: device 'board:kv260': error: no accelerator on this machine"), std::string::npos)
      << bad.text;
}

TEST(DeployTest, AccelcRunWritesAccelcRunsBitsAndLinksNoCompilerOrSimulatorBeyondFsim) {
  const Digits& d = digits();
  const std::string dir = own("out");
  std::system(("mkdir -p " + dir).c_str());
  Out r = sh(kRun + " " + d.bundle + " --device fsim --input input=" + kInput + " --output " + dir + " --timings");
  ASSERT_EQ(r.rc, 0) << r.text;
  EXPECT_NE(r.text.find("output logits float32 1x10\n"), std::string::npos) << r.text;
  EXPECT_NE(r.text.find("accelerator  /c1/Conv "), std::string::npos) << r.text;
  auto y = accelc::support::readNpy(dir + "/logits.npy");
  ASSERT_TRUE(y.isOk()) << y.diag().str();
  EXPECT_EQ(y->data, d.logits);
  Out board = sh(kRun + " " + d.bundle + " --device board:pynq-z1 --input input=" + kInput);
  EXPECT_EQ(board.rc, 1);
  EXPECT_NE(board.text.find("device 'board:pynq-z1': error: no accelerator on this machine"), std::string::npos);
  Out noInput = sh(kRun + " " + d.bundle + " --input nope=" + kInput);
  EXPECT_EQ(noInput.rc, 1);
  EXPECT_NE(noInput.text.find("--input 'nope=" + kInput + "': the bundle has no input 'nope'"), std::string::npos)
      << noInput.text;
  // What it links: the runtime and fsim, none of the compiler, LLVM, SystemC, ONNX or the RTL and HLS devices
  // (the verilated model comes with the RTL device). The CLI, which links them all, shows the check sees them.
  const std::vector<std::string> forbidden = {"accelc::compiler::",         "llvm::", "sc_core::", "onnx::",
                                              "google::protobuf",           "accelc::runtime::RtlDevice",
                                              "accelc::runtime::HlsDevice"};
  for (const auto& [binary, linked] : {std::pair<std::string, bool>{kRun, false}, {kAccelc, true}}) {
    for (const std::string& f : forbidden) {
      Out n = sh("nm -C " + binary + " | grep -c '" + f + "'");
      EXPECT_EQ(std::atoi(n.text.c_str()) > 0, linked) << binary << ": symbols of " << f;
    }
  }
  Out ldd = sh("ldd " + kRun);
  for (const char* lib : {"libLLVM", "libsystemc", "libprotobuf", "libonnx"})
    EXPECT_EQ(ldd.text.find(lib), std::string::npos) << ldd.text;
}

/// The deploy runtime cross-built for a board's core (scripts/test.sh builds it into the build tree's
/// deploy-aarch64 and deploy-armv7 with cmake/toolchain-*.cmake), and how it runs here.
struct CrossRun {
  std::string name, qemu, runner, bin;  ///< runner: what --timings names the bundle's code
};

/// The cross builds of this build tree; `missing` gets " NAME" for each it lacks.
std::vector<CrossRun> crossBuilds(std::string& missing) {
  std::vector<CrossRun> found;
  for (CrossRun a : {CrossRun{"aarch64", "qemu-aarch64", "bundle aarch64 cortex-a53", ""},
                     CrossRun{"armv7", "qemu-arm", "bundle armv7 cortex-a9", ""}}) {
    a.bin = std::string(ACCELC_BUILD_DIR) + "/deploy-" + a.name + "/tools/accelc-run/accelc-run";
    if (std::ifstream(a.bin))
      found.push_back(a);
    else
      missing += " " + a.name;
  }
  return found;
}

/// Whether neither cross build is there (the test then skips); fails the test where only one is.
bool noCrossBuild(const std::string& missing) {
  if (missing == " aarch64 armv7") return true;
  EXPECT_EQ(missing, "") << "cross-built for one architecture only (scripts/build_deploy.sh builds both)";
  return false;
}

/// How many lines of --timings' output say `runner`.
int stepsOn(const std::string& timings, const std::string& runner) {
  int n = 0;
  for (size_t at = timings.find(runner); at != std::string::npos; at = timings.find(runner, at + 1)) ++n;
  return n;
}

// The cross-built deploy runtime runs digits under qemu-user: the accelerator steps on fsim, the host steps on
// the bundle's generated ARM code, x86-64's bits.
TEST(DeployTest, TheCrossBuiltAccelcRunGivesX86sBitsUnderQemu) {
  const Digits& d = digits();
  std::string missing;
  for (const CrossRun& a : crossBuilds(missing)) {
    const std::string bundle = own(a.name + ".acx"), dir = own("out_" + a.name);
    Out c = sh(kAccelc + " compile " + kSrc + "/models/digits/digits_int8.onnx --hw vta-default --host " + a.name +
               " -o " + bundle);
    ASSERT_EQ(c.rc, 0) << c.text;
    std::system(("mkdir -p " + dir).c_str());
    Out r = sh(a.qemu + " " + a.bin + " " + bundle + " --device fsim --threads 2 --timings --input input=" + kInput +
               " --output " + dir);
    ASSERT_EQ(r.rc, 0) << a.name << ": " << r.text;
    auto y = accelc::support::readNpy(dir + "/logits.npy");
    ASSERT_TRUE(y.isOk()) << y.diag().str();
    EXPECT_EQ(y->data, d.logits) << a.name;
    // The four host steps (quantize, im2col, flatten, dequantize) on the bundle's ARM code.
    EXPECT_EQ(stepsOn(r.text, a.runner), 4) << r.text;
  }
  if (noCrossBuild(missing)) GTEST_SKIP() << "no cross-built deploy runtime (scripts/build_deploy.sh builds it)";
}

// Float host steps on ARM: the transformer encoder's accelerator bundle runs its LayerNorms, Softmaxes and GELUs
// and the quantizations around them on the bundle's ARM code under qemu-user. Its output follows x86-64's run
// within 1e-4 (relative above 1, absolute below), as the host code's float steps may differ (NEON flushes
// subnormals); the test prints how many elements differ at all.
TEST(DeployTest, FloatHostStepsOnArmFollowX86sUnderQemu) {
  std::string missing;
  const std::vector<CrossRun> cross = crossBuilds(missing);
  if (noCrossBuild(missing)) GTEST_SKIP() << "no cross-built deploy runtime (scripts/build_deploy.sh builds it)";
  // Exported here rather than through tests/compiler/zoo_util.h, which brings the compiler's headers into a
  // test of the deploy runtime.
  const std::string model = own("encoder.onnx"), input = own("encoder_input.npy");
  Out e = sh("/usr/bin/python3 " + kSrc + "/models/zoo/export_zoo.py transformer_encoder " + model + " " + input);
  ASSERT_EQ(e.rc, 0) << e.text;
  auto run = [&](const std::string& host, const std::string& how) -> std::vector<float> {
    const std::string bundle = own("encoder_" + host + ".acx"), dir = own("encoder_out_" + host);
    Out c = sh(kAccelc + " compile " + model + " --calibrate " + input + " --host " + host + " -o " + bundle);
    EXPECT_EQ(c.rc, 0) << c.text;
    std::system(("mkdir -p " + dir).c_str());
    Out r = sh(how + " " + bundle + " --input input=" + input + " --output " + dir);
    EXPECT_EQ(r.rc, 0) << host << ": " << r.text;
    const std::string runner = host == "x86" ? "" : host == "aarch64" ? "bundle aarch64" : "bundle armv7";
    if (!runner.empty()) {
      // Every host step: the bundle's 30 host kernels, two of which carry a fused step each.
      EXPECT_EQ(stepsOn(r.text, runner), 32) << r.text;
    }
    auto y = accelc::support::readNpy(dir + "/out.npy");
    if (!y) return {};
    std::vector<float> v(y->data.size() / sizeof(float));
    std::memcpy(v.data(), y->data.data(), y->data.size());
    return v;
  };
  const std::vector<float> want = run("x86", kAccelc + " run --engine fsim");
  ASSERT_EQ(want.size(), 32u * 128u);
  for (const CrossRun& a : cross) {
    const std::vector<float> got = run(a.name, a.qemu + " " + a.bin + " --device fsim --threads 2 --timings");
    ASSERT_EQ(got.size(), want.size()) << a.name;
    int differ = 0;
    for (size_t i = 0; i < got.size(); ++i) {
      differ += got[i] != want[i];
      EXPECT_LE(std::fabs(got[i] - want[i]), 1e-4f * std::max(1.0f, std::fabs(want[i]))) << a.name << " at " << i;
    }
    std::printf("%s: %d of %zu outputs differ from x86-64's\n", a.name.c_str(), differ, got.size());
  }
}

}  // namespace
