// isa/random_target.cc — see random_target.h. The draw writes YAML text and
// loads it through parseHwSpec and loadTarget, so a random target is valid by
// the same rules as a user's file, not by a second copy of them.
#include "isa/random_target.h"

#include <algorithm>
#include <random>
#include <sstream>
#include <vector>

#include "hwspec/hwspec.h"

namespace accelc::isa {

namespace {

/// 2^k for k uniform in [lo, hi].
int64_t pow2In(std::mt19937_64& g, int lo, int hi) {
  return int64_t{1} << (lo + static_cast<int>(g() % static_cast<uint64_t>(hi - lo + 1)));
}

int64_t in(std::mt19937_64& g, int64_t lo, int64_t hi) { return lo + static_cast<int64_t>(g() % static_cast<uint64_t>(hi - lo + 1)); }

std::string drawYaml(std::mt19937_64& g, const std::string& name) {
  const int64_t batch = g() % 5 == 0 ? 2 : 1, bi = pow2In(g, 1, 4), bo = pow2In(g, 1, 4);
  const int64_t insnBits = g() % 3 == 0 ? 256 : 128, uopBits = g() % 3 == 0 ? 64 : 32;
  // A beat divides an instruction word (the RTL's fetch) and an accumulator row; output rows narrower than a
  // beat move one a beat.
  const int64_t maxBeat = std::min<int64_t>({4 * batch * bo, insnBits / 8, 16});
  int64_t beat = 1;
  while (beat * 2 <= maxBeat && g() % 3 != 0) beat *= 2;
  const int64_t gemmIi = in(g, 1, 2), aluIi = in(g, 1, 3), ii = std::min(gemmIi, aluIi);
  std::vector<std::string> ops = {"min", "max", "add", "mov"};
  for (const char* op : {"mulq", "shr", "shrr", "clip", "mul"})
    if (g() % 5 != 0) ops.push_back(op);
  std::ostringstream y;
  y << "schema: 1\nname: " << name << "\nclock_mhz: " << in(g, 10, 400) << "\n"
    << "gemm: {batch: " << batch << ", block_in: " << bi << ", block_out: " << bo << "}\n"
    << "dtypes: {input: int8, weight: int8, acc: int32, output: int8}\n"
    << "buffers: {uop: " << uopBits / 8 * pow2In(g, 6, 10) << ", input: " << batch * bi * pow2In(g, 4, 10)
    << ", weight: " << bi * bo * pow2In(g, 4, 10) << ", acc: " << batch * bo * 4 * pow2In(g, 4, 10)
    << ", output: " << batch * bo * pow2In(g, 4, 10) << "}\n"
    << "dram: {bytes_per_cycle: " << beat << ", latency_cycles: " << in(g, 1, 80) << ", addr_bits: " << in(g, 20, 32)
    << ", window: " << pow2In(g, 20, 22) << "}\n"
    << "queues: {command_depth: " << in(g, 1, 16) << ", token_depth: " << in(g, 2, 16) << "}\n"
    << "alu: {ops: [";
  for (size_t i = 0; i < ops.size(); ++i) y << (i ? ", " : "") << ops[i];
  y << "]}\n"
    << "timing: {gemm_ii: " << gemmIi << ", alu_ii: " << aluIi << ", pipeline_depth: " << in(g, 3 - ii, 6)
    << ", acc_hazard: " << in(g, (2 + ii - 1) / ii, 5) << ", max_burst: " << insnBits / 8 * pow2In(g, 0, 4)
    << ", outstanding: " << in(g, 1, 8) << "}\n"
    << "isa: {file: " << (g() % 3 == 0 ? "small.isa.yaml" : "vta.isa.yaml") << ", insn_bits: " << insnBits
    << ", uop_bits: " << uopBits << "}\n";
  return y.str();
}

}  // namespace

support::Expected<RandomTarget> randomTarget(uint64_t seed) {
  const std::string name = "random-" + std::to_string(seed);
  std::mt19937_64 g(seed);
  RandomTarget r;
  for (; r.redraws < 1000; ++r.redraws) {
    r.yaml = drawYaml(g, name);
    auto spec = hwspec::parseHwSpec(r.yaml, name + ".yaml");
    if (!spec) continue;
    auto t = loadTarget(*spec);
    if (!t) continue;
    r.target = std::move(*t);
    return r;
  }
  return support::error(support::Location::file(name + ".yaml"), "1000 random hwspec draws in a row were refused");
}

}  // namespace accelc::isa
