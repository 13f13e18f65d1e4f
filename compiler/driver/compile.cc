// compiler/driver/compile.cc — a graph to a bundle through the pipeline, and calibration samples.
#include "compiler/driver/compile.h"

#include <dirent.h>
#include <sys/stat.h>

#include <algorithm>
#include <cstring>

#include "compiler/driver/pipeline.h"
#include "support/npy.h"

namespace accelc::compiler {

using support::error;
using support::Expected;
using support::Location;

Expected<std::vector<std::vector<Tensor>>> calibrationSamples(const std::string& path, const Graph& g) {
  if (g.inputs.size() != 1) return error(Location::file(path), "calibration supports models with one input");
  const Value& in = g.values[g.inputs[0]];
  std::vector<std::string> files;
  struct stat st;
  if (::stat(path.c_str(), &st) == 0 && S_ISDIR(st.st_mode)) {
    if (DIR* d = ::opendir(path.c_str())) {
      while (dirent* e = ::readdir(d)) {
        const std::string n = e->d_name;
        if (n.size() > 4 && n.compare(n.size() - 4, 4, ".npy") == 0) files.push_back(path + "/" + n);
      }
      ::closedir(d);
    }
    std::sort(files.begin(), files.end());
  } else {
    files.push_back(path);
  }
  std::vector<std::vector<Tensor>> samples;
  const int64_t per = support::shapeElements(in.shape) * support::dtypeBytes(in.dtype);
  for (const std::string& f : files) {
    ACCELC_ASSIGN_OR_RETURN(support::NpyArray a, support::readNpy(f));
    if (a.dtype != in.dtype || a.data.empty() || static_cast<int64_t>(a.data.size()) % per)
      return error(Location::file(f), std::string("calibration data must be ") + support::dtypeName(in.dtype) +
                                          " in whole inputs of " + support::shapeStr(in.shape) + ", found " +
                                          support::dtypeName(a.dtype) + " " + support::shapeStr(a.shape));
    for (size_t at = 0; at < a.data.size(); at += static_cast<size_t>(per)) {
      Tensor t(in.dtype, in.shape);
      std::memcpy(t.bytes().data(), a.data.data() + at, static_cast<size_t>(per));
      samples.push_back({std::move(t)});
    }
  }
  if (samples.empty()) return error(Location::file(path), "no calibration samples found (expected .npy files)");
  return samples;
}

std::string hostTargetProblem(const std::string& name) {
  if (name == "x86" || name == "aarch64" || name == "armv7" || name == "cuda") return "";
  return "--target '" + name + "': expected x86, aarch64, armv7 or cuda";
}

Expected<runtime::Bundle> compileGraph(Graph g, const isa::Target& t, const CompileOptions& o,
                                       std::vector<std::string>* log) {
  CompileState s(std::move(g), &t, o, log);
  ACCELC_TRY(runCompilePipeline(s, compilePipeline().front().name));
  return std::move(s.lowering->bundle);
}

Expected<Graph> quantizeGraphOf(Graph g, const CompileOptions& o, std::vector<std::string>* log) {
  CompileState s(std::move(g), nullptr, o, log);
  ACCELC_TRY(runCompilePipeline(s, compilePipeline().front().name, "quantize"));
  return std::move(s.graph);
}

Expected<runtime::Bundle> compileIntegerGraph(const Graph& g, const isa::Target& t, bool serialize,
                                              std::vector<std::string>* log) {
  CompileOptions o;
  o.serialize = serialize;
  CompileState s(g, &t, o, log);
  ACCELC_TRY(runCompilePipeline(s, "im2col"));
  return std::move(s.lowering->bundle);
}

}  // namespace accelc::compiler
