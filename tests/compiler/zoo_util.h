// tests/compiler/zoo_util.h — the model zoo's files (models/zoo/export_zoo.py,
// exported on first use into the build tree), shared by the zoo and coverage tests.
#ifndef ACCELC_TESTS_COMPILER_ZOO_UTIL_H_
#define ACCELC_TESTS_COMPILER_ZOO_UTIL_H_

#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "tests/compiler/peer_util.h"

namespace accelc::compiler::peer {

inline const std::string kZoo = std::string(ACCELC_BUILD_DIR) + "/models/zoo";

/// One exported model: where its files are and what its output is called.
struct ZooModel {
  std::string name;    ///< the NAME of export_zoo.py
  std::string output;  ///< the graph's only output
  std::string model() const { return kZoo + "/" + name + ".onnx"; }
  std::string input() const { return kZoo + "/" + name + "_input.npy"; }
  std::string log() const { return kTmp + "/zoo-" + name + ".log"; }
};

/// Runs `cmd` with its output in `log` (one log per model: tests run in parallel).
inline int shLogged(const std::string& cmd, const std::string& log) {
  return std::system((cmd + " > '" + log + "' 2>&1").c_str());
}

/// Exports the model and its input into the build tree unless both are there.
/// Tests run in parallel: each exports into a folder of its own and renames
/// the files into place, so no test reads a file another is still writing.
inline bool exported(const ZooModel& m) {
  struct stat st;
  if (::stat(m.model().c_str(), &st) == 0 && ::stat(m.input().c_str(), &st) == 0) return true;
  ::mkdir((std::string(ACCELC_BUILD_DIR) + "/models").c_str(), 0755);
  ::mkdir(kZoo.c_str(), 0755);
  const std::string own = kZoo + "/export-" + m.name + "-" + std::to_string(::getpid()),
                    model = own + "/" + m.name + ".onnx", input = own + "/" + m.name + "_input.npy";
  ::mkdir(own.c_str(), 0755);
  const std::string cmd =
      "/usr/bin/python3 " + kSrc + "/models/zoo/export_zoo.py " + m.name + " " + model + " " + input;
  const bool ok = shLogged(cmd, m.log()) == 0 && std::rename(input.c_str(), m.input().c_str()) == 0 &&
                  std::rename(model.c_str(), m.model().c_str()) == 0;
  shLogged("rm -rf '" + own + "'", "/dev/null");  // the folder of a failed export
  return ok;
}

}  // namespace accelc::compiler::peer

#endif  // ACCELC_TESTS_COMPILER_ZOO_UTIL_H_
