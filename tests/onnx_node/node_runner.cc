// tests/onnx_node/node_runner.cc — runs the ONNX backend node tests on the reference engine.
//
//   node_runner CASES_DIR ORT_RESULT.json BASELINE.json [--write-baseline]
//
// CASES_DIR is what gen_node_tests.py wrote (node/test_*/ with case.json and
// .npy data); ORT_RESULT.json what ort_node_tests.js wrote. A case is
// unsupported only when one of its ops is outside accelc's op table or one of
// its tensors has a dtype accelc does not have; every other case passes or
// fails. Prints `N passed, N failed, N unsupported` and exits 1 when the passed
// count drops below the baseline, the unsupported count grows, or a case that
// onnxruntime passes and whose ops accelc has fails here.
#include <dirent.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "support/check.h"
#include "support/npy.h"

namespace {

using accelc::runtime::Tensor;
using nlohmann::json;

json readJson(const std::string& path) {
  std::ifstream in(path);
  if (!in) return json();
  try {
    return json::parse(in);
  } catch (...) {
    return json();
  }
}

std::vector<std::string> caseNames(const std::string& dir) {
  std::vector<std::string> names;
  if (DIR* d = ::opendir(dir.c_str())) {
    while (dirent* e = ::readdir(d))
      if (std::string(e->d_name).rfind("test_", 0) == 0) names.push_back(e->d_name);
    ::closedir(d);
  }
  std::sort(names.begin(), names.end());
  return names;
}

/// "" when `got` matches `want` (float: |a-b| <= 1e-4 + 1e-3|b|, float16 1e-3 + 4e-3|b|, NaN == NaN; else exact).
std::string compare(const Tensor& got, const Tensor& want) {
  if (got.dtype() != want.dtype())
    return std::string("dtype ") + accelc::support::dtypeName(got.dtype()) + ", expected " +
           accelc::support::dtypeName(want.dtype());
  if (got.shape() != want.shape())
    return "shape " + accelc::support::shapeStr(got.shape()) + ", expected " + accelc::support::shapeStr(want.shape());
  for (int64_t i = 0; i < got.numel(); ++i) {
    const double a = got.at(i), b = want.at(i);
    if (std::isnan(a) && std::isnan(b)) continue;
    // Float tolerances as ort_node_tests.js's: float16 allows a few of its ulps.
    const bool half = want.dtype() == accelc::support::DType::kFloat16;
    const double atol = half ? 1e-3 : 1e-4, rtol = half ? 4e-3 : 1e-3;
    const bool ok = accelc::support::isFloatDType(want.dtype()) ? a == b || std::abs(a - b) <= atol + rtol * std::abs(b)
                                                                : a == b;
    if (!ok) return "element " + std::to_string(i) + " is " + std::to_string(a) + ", expected " + std::to_string(b);
  }
  return "";
}

accelc::support::Expected<Tensor> load(const std::string& path) {
  ACCELC_ASSIGN_OR_RETURN(accelc::support::NpyArray a, accelc::support::readNpy(path));
  Tensor t(a.dtype, a.shape);
  t.bytes() = a.data;
  return t;
}

/// "pass", "unsupported", or the reason the case failed.
std::string runCase(const std::string& dir, const json& c) {
  for (const auto& op : c.value("ops", json::array()))
    if (auto k = accelc::runtime::findOp(op.get<std::string>()); !k || !accelc::runtime::opInfo(*k).onnx) return "unsupported";
  if (!c.value("plain", false)) return "unsupported";
  accelc::compiler::ImportOptions bind;  // the test data fixes any dynamic input dimension
  for (const auto& in : c["inputs"]) bind.shapes[in["name"].get<std::string>()] = in["shape"].get<std::vector<int64_t>>();
  auto g = accelc::compiler::importOnnx(dir + "/model.onnx", bind);
  if (!g) return g.diag().str();
  std::vector<Tensor> inputs;
  for (const auto& in : c["inputs"]) {
    auto t = load(dir + "/test_data_set_0/" + in["npy"].get<std::string>());
    if (!t) return t.diag().str();
    inputs.push_back(std::move(*t));
  }
  auto out = accelc::compiler::runReference(*g, inputs);
  if (!out) return out.diag().str();
  size_t k = 0;
  for (const auto& o : c["outputs"]) {
    auto want = load(dir + "/test_data_set_0/" + o["npy"].get<std::string>());
    if (!want) return want.diag().str();
    if (k >= out->size()) return "missing output " + o["name"].get<std::string>();
    std::string why = compare((*out)[k++], *want);
    if (!why.empty()) return "output " + o["name"].get<std::string>() + ": " + why;
  }
  return "pass";
}

}  // namespace

int main(int argc, char** argv) {
  // A failed internal check (a bug) says what failed before the abort.
  accelc::support::setCheckHandler([](const char* m) { std::fprintf(stderr, "%s\n", m); });
  if (argc < 4) {
    std::cerr << "usage: node_runner CASES_DIR ORT_RESULT.json BASELINE.json [--write-baseline]\n";
    return 2;
  }
  const std::string root = std::string(argv[1]) + "/node";
  const json ort = readJson(argv[2]);
  int passed = 0, failed = 0, unsupported = 0, regressions = 0;
  for (const std::string& name : caseNames(root)) {
    const json c = readJson(root + "/" + name + "/case.json");
    const std::string r = runCase(root + "/" + name, c);
    if (r == "pass") {
      ++passed;
    } else if (r == "unsupported") {
      ++unsupported;
    } else {
      ++failed;
      const bool ortPasses = ort.is_object() && ort.value(name, "") == "pass";
      regressions += ortPasses;
      std::cout << (ortPasses ? "FAIL " : "fail ") << name << ": " << r.substr(0, 300) << "\n";
    }
  }
  std::cout << passed << " passed, " << failed << " failed, " << unsupported << " unsupported\n";
  if (argc > 4 && std::string(argv[4]) == "--write-baseline") {
    std::ofstream(argv[3]) << json{{"passed", passed}, {"unsupported", unsupported}}.dump(1) << "\n";
    return 0;
  }
  json base = readJson(argv[3]);
  if (!base.is_object()) base = json::object();
  int rc = 0;
  if (passed < base.value("passed", 0)) std::cout << "passed dropped below the baseline " << base.value("passed", 0) << "\n", rc = 1;
  if (unsupported > base.value("unsupported", 1 << 30))
    std::cout << "unsupported grew past the baseline " << base.value("unsupported", 0) << "\n", rc = 1;
  if (regressions) std::cout << regressions << " case(s) that onnxruntime passes fail here (FAIL above)\n", rc = 1;
  return rc;
}
