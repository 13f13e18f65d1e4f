// tools/accelc-run/main.cc — `accelc-run`: runs a bundle on a deploy device
// through the runtime's C API (runtime/include/accelc_runtime.hpp). It links
// the runtime alone: no compiler, ONNX, SystemC, Verilator or LLVM, so it is
// what a board's Linux image carries.
//
//   accelc-run model.acx --device fsim --input input=x.npy --output out/ [--timings]
#include <CLI/CLI.hpp>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "runtime/include/accelc_runtime.hpp"
#include "support/check.h"
#include "support/npy.h"

namespace {

using accelc::deploy::Result;

struct Args {
  std::string bundle, device = "fsim", output;
  std::vector<std::string> inputs;
  int threads = 0;
  bool timings = false;
};

int failed(const Result& r) {
  std::cerr << r.message << "\n";
  return 1;
}

std::string shapeText(const accelc_tensor_info& t) {
  std::string s;
  for (int d = 0; d < t.rank; ++d) s += (d ? "x" : "") + std::to_string(t.dims[d]);
  return s.empty() ? "scalar" : s;
}

/// The .npy element type of `t` (the C API numbers types as the bundle format does).
accelc::support::DType npyType(accelc_dtype t) { return static_cast<accelc::support::DType>(t); }

/// Reads NAME=FILE.npy into input NAME of `b` on `s`: the input's type and shape.
Result setInput(const accelc::deploy::Bundle& b, accelc::deploy::Session& s, const std::string& arg) {
  const size_t eq = arg.find('=');
  if (eq == std::string::npos) return {ACCELC_ERROR_ARGUMENT, "--input '" + arg + "': expected NAME=FILE.npy"};
  const std::string name = arg.substr(0, eq), path = arg.substr(eq + 1);
  const int i = b.inputIndex(name);
  accelc_tensor_info t;
  if (i < 0) return {ACCELC_ERROR_ARGUMENT, "--input '" + arg + "': the bundle has no input '" + name + "'"};
  if (Result r = b.input(i, t); !r) return r;
  auto a = accelc::support::readNpy(path);
  if (!a) return {ACCELC_ERROR_ARGUMENT, a.diag().str()};
  if (a->dtype != npyType(t.dtype))
    return {ACCELC_ERROR_ARGUMENT, path + ": error: input '" + name + "' takes " +
                                       accelc::support::dtypeName(npyType(t.dtype)) + ", the file holds " +
                                       accelc::support::dtypeName(a->dtype)};
  return s.setInput(i, a->data.data(), a->data.size());
}

int run(const Args& a) {
  accelc::deploy::Bundle b;
  if (Result r = b.open(a.bundle); !r) return failed(r);
  accelc::deploy::Session s;
  if (Result r = s.create(b, a.device, a.threads); !r) return failed(r);
  for (const std::string& in : a.inputs)
    if (Result r = setInput(b, s, in); !r) return failed(r);
  if (Result r = s.run(); !r) return failed(r);
  for (int i = 0; i < b.outputs(); ++i) {
    accelc_tensor_info t;
    accelc::support::NpyArray npy;
    if (Result r = b.output(i, t); !r) return failed(r);
    if (Result r = s.output(i, npy.data); !r) return failed(r);
    npy.dtype = npyType(t.dtype), npy.shape.assign(t.dims, t.dims + t.rank);
    std::cout << "output " << t.name << " " << accelc::support::dtypeName(npy.dtype) << " " << shapeText(t) << "\n";
    if (a.output.empty()) continue;
    if (auto st = accelc::support::writeNpy(a.output + "/" + accelc::support::npyFileName(t.name), npy); !st) {
      std::cerr << st.str() << "\n";
      return 1;
    }
  }
  if (a.timings)
    for (const accelc::deploy::Session::Step& st : s.steps())
      std::printf("%-12s %-40s %10.3f ms %12llu cycles  %s\n", st.kind.c_str(), st.name.c_str(), st.seconds * 1e3,
                  static_cast<unsigned long long>(st.cycles), st.runner.c_str());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  // A failed internal check (a bug) says what failed before the abort.
  accelc::support::setCheckHandler([](const char* m) { std::fprintf(stderr, "%s\n", m); });
  CLI::App app{"Run a compiled model (a bundle, .acx) on a device with the deploy runtime"};
  Args a;
  app.add_option("bundle", a.bundle, "bundle (.acx)")->required();
  app.add_option("--device", a.device, "fsim, board:NAME (a board's accelerator) or virtual:NAME")->capture_default_str();
  app.add_option("--input", a.inputs, "NAME=FILE.npy of the input's type, one per model input");
  app.add_option("--output", a.output, "write each output to DIR/NAME.npy (the folder must exist)");
  app.add_option("--threads", a.threads, "host kernels' threads (default: one per core)");
  app.add_flag("--timings", a.timings, "print each step's wall time and device cycles");
  CLI11_PARSE(app, argc, argv);
  return run(a);
}
