// tools/accelc/cmd_model.cc — `accelc import` and `accelc run`: ONNX models on the reference engine.
#include <sys/stat.h>

#include <algorithm>
#include <iostream>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "compiler/graph/graph_text.h"
#include "compiler/passes/passes.h"
#include "runtime/deploy_device.h"
#include "runtime/sim_devices/make_device.h"
#include "support/npy.h"
#include "tools/accelc/commands.h"

namespace accelc::tools {

namespace {

using support::Expected;
using support::Status;

/// Parses `--shape name=1x3x224x224` options.
Expected<compiler::ImportOptions> importOptions(const std::vector<std::string>& shapes) {
  compiler::ImportOptions o;
  for (const std::string& s : shapes) {
    size_t eq = s.find('=');
    auto dims = eq == std::string::npos ? std::nullopt : support::parseShape(s.substr(eq + 1));
    if (!dims) return support::error(support::Location(), "--shape '" + s + "': expected NAME=DIMS such as x=1x3x224x224");
    o.shapes[s.substr(0, eq)] = *dims;
  }
  return o;
}

runtime::Tensor tensorOf(const support::NpyArray& a) {
  runtime::Tensor t(a.dtype, a.shape);
  t.bytes() = a.data;
  return t;
}

struct RunArgs {
  std::string model;                ///< ONNX file
  std::string engine = "ref";       ///< engine
  std::vector<std::string> inputs;  ///< NAME=FILE.npy
  std::vector<std::string> shapes;  ///< --shape bindings
  std::string outDir;               ///< where outputs go
  std::string labels;               ///< int64 labels: print top-1 accuracy of the first output
  std::string trace;                ///< Perfetto trace file (bundles on the cycle engine)
  isa::RunLimits limits;            ///< when a program run stops (bundles)
  bool checkDefined = false;        ///< refuse reads of SRAM entries nothing wrote (bundles)
  std::string hostCode = "bundle";  ///< bundles: host steps on the bundle's code, on code compiled now, or on reference kernels
  int threads = 0;                  ///< bundles: the generated host kernels' threads (0: one per core)
};

/// The input tensors in graph order, read from NAME=FILE.npy options.
Expected<std::vector<runtime::Tensor>> readInputs(const compiler::Graph& g, const RunArgs& a) {
  std::vector<std::optional<runtime::Tensor>> byInput(g.inputs.size());
  for (const std::string& in : a.inputs) {
    size_t eq = in.find('=');
    if (eq == std::string::npos) return support::error(support::Location(), "--input '" + in + "': expected NAME=FILE.npy");
    const std::string name = in.substr(0, eq);
    auto it = std::find_if(g.inputs.begin(), g.inputs.end(), [&](int id) { return g.values[id].name == name; });
    if (it == g.inputs.end()) return support::error(support::Location::file(a.model), "the model has no input '" + name + "'");
    ACCELC_ASSIGN_OR_RETURN(support::NpyArray arr, support::readNpy(in.substr(eq + 1)));
    byInput[it - g.inputs.begin()] = tensorOf(arr);
  }
  std::vector<runtime::Tensor> out;
  for (size_t i = 0; i < byInput.size(); ++i) {
    const compiler::Value& v = g.values[g.inputs[i]];
    if (!byInput[i])
      return support::error(support::Location::node(a.model, v.name), "input '" + v.name + "' (" +
                                                                           support::dtypeName(v.dtype) + " " +
                                                                           support::shapeStr(v.shape) +
                                                                           ") was not given; pass --input " + v.name + "=FILE.npy");
    out.push_back(std::move(*byInput[i]));
  }
  return out;
}

Status runModel(const RunArgs& a) {
  ACCELC_ASSIGN_OR_RETURN(compiler::ImportOptions o, importOptions(a.shapes));
  ACCELC_ASSIGN_OR_RETURN(compiler::Graph g, compiler::importOnnx(a.model, o));
  ACCELC_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> inputs, readInputs(g, a));
  ACCELC_ASSIGN_OR_RETURN(std::vector<runtime::Tensor> outputs, compiler::runReferenceBatched(g, inputs));
  if (!a.outDir.empty()) ::mkdir(a.outDir.c_str(), 0755);
  for (size_t i = 0; i < outputs.size(); ++i) {
    const std::string& name = g.values[g.outputs[i]].name;
    std::cout << "output " << name << " " << support::dtypeName(outputs[i].dtype()) << " "
              << support::shapeStr(outputs[i].shape());
    if (!a.outDir.empty()) {
      std::string file = a.outDir + "/" + support::npyFileName(name);
      ACCELC_TRY(support::writeNpy(file, {outputs[i].dtype(), outputs[i].shape(), outputs[i].bytes()}));
      std::cout << " -> " << file;
    }
    std::cout << "\n";
  }
  return Status::ok();
}

}  // namespace

void registerImport(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("import", "Import an ONNX model and check it (or list the supported ops)");
  auto model = std::make_shared<std::string>();
  auto shapes = std::make_shared<std::vector<std::string>>();
  auto print = std::make_shared<bool>(false);
  auto listOps = std::make_shared<bool>(false);
  cmd->add_option("model", *model, "ONNX model file");
  cmd->add_option("--shape", *shapes, "NAME=DIMS binding a dynamic input shape, e.g. input=1x3x224x224");
  cmd->add_flag("--print", *print, "print the imported graph (constants elided)");
  cmd->add_flag("--list-ops", *listOps, "print the supported ONNX ops and exit");
  cmd->callback([=, &rc] {
    if (*listOps) {
      for (runtime::OpKind k : runtime::allOps())
        if (runtime::opInfo(k).onnx) std::cout << runtime::opInfo(k).name << "\n";
      return;
    }
    if (model->empty()) {
      rc = report(support::error(support::Location(), "import: give a MODEL.onnx or --list-ops"));
      return;
    }
    auto o = importOptions(*shapes);
    auto g = o ? compiler::importOnnx(*model, *o) : Expected<compiler::Graph>(o.diag());
    if (!g) {
      rc = report(g.status());
      return;
    }
    if (*print) {
      std::cout << compiler::printGraph(*g, {true});
      return;
    }
    std::cout << *model << ": " << g->nodes.size() << " nodes, " << g->inputs.size() << " inputs, "
              << g->outputs.size() << " outputs\n";
  });
}

void registerRun(CLI::App& app, int& rc) {
  auto* cmd = app.add_subcommand("run", "Run an ONNX model on an engine and write its outputs as .npy");
  auto a = std::make_shared<RunArgs>();
  cmd->add_option("model", a->model, "ONNX model (.onnx) or compiled bundle (.acx)")->required();
  cmd->add_option("--engine", a->engine,
                  "engine: ref (reference), or fsim, cycle, rtl (verilated), hls (HLS C-simulation), board:NAME or "
                  "virtual:NAME (the deploy runtime's devices, as accelc-run names them) for a bundle; a bundle "
                  "compiled with --target runs on the host without it")
      ->check([](const std::string& v) {
        const bool ok = v == "ref" || runtime::parseEngine(v).isOk() || runtime::isDeployDeviceName(v);
        return ok ? std::string() : "expected ref, fsim, cycle, rtl, hls, board:NAME or virtual:NAME";
      });
  cmd->add_option("--threads", a->threads, "a bundle's generated host kernels run on N threads (default: one per core)")
      ->check(CLI::Range(1, 1024));
  cmd->add_option("--input", a->inputs, "NAME=FILE.npy, one per model input");
  cmd->add_option("--shape", a->shapes, "NAME=DIMS binding a dynamic input shape");
  cmd->add_option("--output", a->outDir, "directory for one NAME.npy per model output");
  cmd->add_option("--trace", a->trace, "write a Chrome/Perfetto trace (a bundle on --engine cycle)");
  cmd->add_option("--labels", a->labels, "int64 labels (.npy): print the top-1 accuracy of a bundle's first output");
  addLimitOptions(cmd, a->limits);
  cmd->add_option("--host-code", a->hostCode,
                  "a bundle's host steps: bundle (the generated code it carries; compiled now when it carries none), "
                  "jit (generated with LLVM now), or reference (all on reference kernels)")
      ->check(CLI::IsMember({"bundle", "jit", "reference"}))
      ->capture_default_str();
  cmd->add_flag("--check-defined", a->checkDefined,
                "fsim, cycle: reading an SRAM entry that nothing wrote since reset is an error");
  cmd->callback([a, cmd, &rc] {
    const bool bundle = a->model.size() > 4 && a->model.compare(a->model.size() - 4, 4, ".acx") == 0;
    if (bundle) {
      BundleRunOptions o;
      o.engine = cmd->count("--engine") ? a->engine : "";
      o.inputs = a->inputs, o.outDir = a->outDir, o.labels = a->labels, o.trace = a->trace;
      o.limits = a->limits, o.checkDefined = a->checkDefined, o.hostCode = a->hostCode, o.threads = a->threads;
      rc = report(runBundle(a->model, o));
      return;
    }
    if (a->engine != "ref") {
      rc = report(support::error(support::Location::file(a->model),
                                 "--engine " + a->engine + " runs a compiled bundle: `accelc compile` the model first"));
      return;
    }
    rc = report(runModel(*a));
  });
}

void registerOpt(CLI::App& app, int& rc) {
  std::string passHelp = "comma-separated passes (default: the standard pipeline):";
  for (const compiler::PassInfo& p : compiler::allPasses()) passHelp += std::string("\n  ") + p.name + ": " + p.summary;
  auto* cmd = app.add_subcommand("opt", "Import an ONNX model, run graph passes and print the graph");
  auto model = std::make_shared<std::string>();
  auto passes = std::make_shared<std::string>();
  auto dumpAfter = std::make_shared<std::string>();
  auto shapes = std::make_shared<std::vector<std::string>>();
  auto full = std::make_shared<bool>(false);
  cmd->add_option("model", *model, "ONNX model file")->required();
  cmd->add_option("--passes", *passes, passHelp);
  cmd->add_option("--dump-after", *dumpAfter, "print the graph after this pass (each time it runs)");
  cmd->add_option("--shape", *shapes, "NAME=DIMS binding a dynamic input shape");
  cmd->add_flag("--full", *full, "print constant data too (the text then parses back)");
  cmd->callback([=, &rc] {
    std::vector<std::string> names;
    for (size_t at = 0; !passes->empty() && at != std::string::npos;) {
      size_t comma = passes->find(',', at);
      names.push_back(passes->substr(at, comma == std::string::npos ? std::string::npos : comma - at));
      at = comma == std::string::npos ? comma : comma + 1;
    }
    if (names.empty()) names = compiler::defaultPipeline();
    auto o = importOptions(*shapes);
    auto g = o ? compiler::importOnnx(*model, *o) : Expected<compiler::Graph>(o.diag());
    if (!g) {
      rc = report(g.status());
      return;
    }
    const compiler::PrintOptions print{!*full};
    Status st = compiler::runPipeline(*g, names, [&](const std::string& name, const compiler::Graph& graph) {
      if (name == *dumpAfter) std::cout << "# after " << name << "\n" << compiler::printGraph(graph, print);
    });
    if (!st) {
      rc = report(st);
      return;
    }
    if (dumpAfter->empty()) std::cout << compiler::printGraph(*g, print);
  });
}

}  // namespace accelc::tools
