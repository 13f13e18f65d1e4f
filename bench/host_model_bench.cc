// bench/host_model_bench.cc — whole models compiled with --target x86 and run
// on generated host code, beside onnxruntime-node in the same run.
//
// Per model: the bundle's compile time, the JIT's time for its kernels, and
// the median of 20 inferences after a warm-up, ours and onnxruntime's (its
// intraOpNumThreads at the same thread count, tools/ort/run_ort.js --time),
// at 1 thread and at 2. Models come from the zoo (bench/zoo_util.h), exported
// on first use; the outputs are compared with onnxruntime's.
//
// On a shared machine one side's median can land in a noisy second that the
// other's missed, so the two are measured in turn for `--rounds N` rounds
// (3 by default): the table gives each side's lowest median, their ratio, and
// every round's ratio.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <string>
#include <vector>

#include "bench/zoo_util.h"
#include "compiler/frontend/compile_model.h"
#include "compiler/host/step_kernels.h"
#include "hwspec/hwspec.h"
#include "runtime/executor.h"
#include "runtime/fsim_device.h"
#include "support/npy.h"

namespace accelc {
namespace {

using Clock = std::chrono::steady_clock;

double msSince(Clock::time_point t0) { return std::chrono::duration<double, std::milli>(Clock::now() - t0).count(); }

/// onnxruntime's median ms over 20 runs at `threads`, and its output in `out`; negative when it did not run.
double ortMedianMs(const std::string& model, const std::string& input, int threads, const std::string& outDir) {
  const std::string cmd = "node " + bench::kSrc + "/tools/ort/run_ort.js --threads " + std::to_string(threads) +
                          " --time 20 " + model + " " + outDir + " input=" + input + " 2>/dev/null";
  FILE* p = ::popen(cmd.c_str(), "r");
  if (!p) return -1;
  double ms = -1;
  char line[512];
  while (std::fgets(line, sizeof line, p))
    if (std::strncmp(line, "median_ms ", 10) == 0) ms = std::atof(line + 10);
  return ::pclose(p) == 0 ? ms : -1;
}

/// The largest |a - b| over the elements.
double maxDiff(const runtime::Tensor& a, const support::NpyArray& b) {
  if (a.bytes().size() != b.data.size()) return INFINITY;
  const float* x = a.data<float>();
  const float* y = reinterpret_cast<const float*>(b.data.data());
  double d = 0;
  for (int64_t i = 0; i < a.numel(); ++i) d = std::max(d, std::fabs(double{x[i]} - y[i]));
  return d;
}

/// The `n` steps that took longest over the runs, with what ran them.
void printSlowest(const runtime::Bundle& b, const runtime::RunStats& st, int n, int inferences) {
  std::vector<size_t> order(b.steps.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t x, size_t y) { return st.stepSeconds[x] > st.stepSeconds[y]; });
  double total = 0;
  for (double s : st.stepSeconds) total += s;
  std::map<std::string, double> byOp;  // the same per op kind and kernel
  for (size_t i = 0; i < order.size(); ++i)
    byOp[std::string(runtime::opInfo(b.steps[i].op).name) + " (" + st.stepKernel[i] + ")"] += st.stepSeconds[i];
  std::vector<std::pair<double, std::string>> ops;
  for (const auto& [k, v] : byOp) ops.push_back({v, k});
  std::sort(ops.rbegin(), ops.rend());
  char head[64];
  std::snprintf(head, sizeof head, "    steps %.2f ms an inference; by op:", 1e3 * total / inferences);
  std::string line = head;
  for (size_t i = 0; i < ops.size() && i < 6; ++i) {
    char buf[128];
    std::snprintf(buf, sizeof buf, " %s %.1f%%", ops[i].second.c_str(), 100.0 * ops[i].first / total);
    line += (i ? "," : "") + std::string(buf);
  }
  std::printf("%s\n", line.c_str());
  for (size_t i = 0; i < order.size() && static_cast<int>(i) < n; ++i) {
    const runtime::Step& s = b.steps[order[i]];
    std::printf("    %5.1f%%  %-12s %-10s %s\n", 100.0 * st.stepSeconds[order[i]] / total,
                runtime::opInfo(s.op).name, st.stepKernel[order[i]].c_str(), s.name.c_str());
  }
}

int slowest = -1;  ///< --slowest N: per model and thread count, the time by op and the N slowest steps
int rounds = 3;    ///< --rounds N: turns of ours and onnxruntime's medians

int benchModel(const std::string& name, const isa::Target& t) {
  const std::string model = bench::zooModel(name), input = bench::kZoo + "/" + name + "_input.npy";
  if (model.empty()) return std::fprintf(stderr, "%s: cannot export the model\n", name.c_str()), 1;
  compiler::CompileOptions o;
  o.hostTarget = "x86";
  auto t0 = Clock::now();
  auto b = compiler::compileModel(model, t, o);
  if (!b) return std::fprintf(stderr, "%s\n", b.diag().str().c_str()), 1;
  const double compileMs = msSince(t0);
  auto in = support::readNpy(input);
  if (!in) return std::fprintf(stderr, "%s\n", in.diag().str().c_str()), 1;
  runtime::Tensor x(in->dtype, in->shape);
  x.bytes() = in->data;
  for (int threads : {1, 2}) {
    auto jit = compiler::host::HostJit::create();
    if (!jit) return std::fprintf(stderr, "%s\n", jit.diag().str().c_str()), 1;
    t0 = Clock::now();
    auto kernels = compiler::host::generatedHostKernels(*b, **jit, name, std::make_shared<support::ThreadPool>(threads));
    if (!kernels) return std::fprintf(stderr, "%s\n", kernels.diag().str().c_str()), 1;
    const double jitMs = msSince(t0);
    size_t generated = 0;  // steps on generated code, the fused ones included
    for (const auto& [step, k] : *kernels) generated += 1 + k.fuses;
    runtime::FsimDevice memory(t);
    auto ex = runtime::Executor::create(*b, memory, name, std::move(*kernels));
    if (!ex) return std::fprintf(stderr, "%s\n", ex.diag().str().c_str()), 1;
    std::vector<runtime::Tensor> out;
    const std::string ortDir = bench::kZoo + "/" + name + "_ort";
    double best = INFINITY, bestOrt = INFINITY;
    std::string ratios;
    for (int round = 0; round < rounds; ++round) {
      std::vector<double> ms;
      for (int r = 0; r < 21; ++r) {
        t0 = Clock::now();
        auto y = (*ex)->run({x});
        if (!y) return std::fprintf(stderr, "%s\n", y.diag().str().c_str()), 1;
        if (r) ms.push_back(msSince(t0));
        out = std::move(*y);
      }
      std::sort(ms.begin(), ms.end());
      const double ours = ms[ms.size() / 2], ort = ortMedianMs(model, input, threads, ortDir);
      best = std::min(best, ours);
      if (ort > 0) bestOrt = std::min(bestOrt, ort);
      char r[32];
      std::snprintf(r, sizeof r, "%s%.2f", ratios.empty() ? "" : " ", ort > 0 ? ours / ort : 0.0);
      ratios += r;
    }
    auto ortOut = support::readNpy(ortDir + "/" + b->tensors[static_cast<size_t>(b->outputs[0])].name + ".npy");
    const double diff = ortOut ? maxDiff(out[0], *ortOut) : INFINITY;
    if (!std::isfinite(bestOrt)) bestOrt = -1;  // onnxruntime did not run
    std::printf("%-22s %7d %10.1f %8.1f %10.2f %10.2f %7.2fx %6zu/%-4zu %10.1e  (%s)\n", name.c_str(), threads,
                compileMs, jitMs, best, bestOrt, bestOrt > 0 ? best / bestOrt : 0.0, generated, b->steps.size(), diff,
                ratios.c_str());
    if (slowest >= 0) printSlowest(*b, (*ex)->stats(), slowest, 21 * rounds);
  }
  return 0;
}

int run(const std::vector<std::string>& models) {
  auto spec = hwspec::loadHwSpec("vta-default");
  if (!spec) return std::fprintf(stderr, "%s\n", spec.diag().str().c_str()), 1;
  auto t = isa::loadTarget(*spec);
  if (!t) return std::fprintf(stderr, "%s\n", t.diag().str().c_str()), 1;
  std::printf(
      "whole models with --target x86 against onnxruntime-node; the lowest of %d rounds' medians of 20 runs "
      "after a warm-up, in ms, and (each round's ratio)\n",
      rounds);
  std::printf("%-22s %7s %10s %8s %10s %10s %8s %11s %10s  %s\n", "model", "threads", "compile", "jit", "accelc",
              "onnxrt", "ratio", "jit steps", "max|diff|", "(rounds)");
  int rc = 0;
  for (const std::string& m : models) rc |= benchModel(m, *t);
  return rc;
}

}  // namespace
}  // namespace accelc

int main(int argc, char** argv) {
  std::vector<std::string> models;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--slowest") == 0 && i + 1 < argc) accelc::slowest = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--rounds") == 0 && i + 1 < argc)
      accelc::rounds = std::max(1, std::atoi(argv[++i]));
    else models.push_back(argv[i]);
  }
  if (models.empty()) models = {"resnet34", "mobilenet_v3_small", "transformer_encoder"};
  return accelc::run(models);
}
