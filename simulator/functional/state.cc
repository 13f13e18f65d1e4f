// simulator/functional/state.cc — SRAM allocation and the packed layouts.
#include "simulator/functional/state.h"

#include <algorithm>

namespace accelc::simulator {

using hwspec::BufferKind;

Srams::Srams(const hwspec::HwSpec& s) : batch(s.batch), blockIn(s.blockIn), blockOut(s.blockOut) {
  // The datapath is written for schema v1's types (int8 data, int32 accumulators);
  // a schema that adds others must extend it here first.
  ACCELC_CHECK(s.inputType == hwspec::ElemType::kInt8 && s.weightType == hwspec::ElemType::kInt8 &&
               s.accType == hwspec::ElemType::kInt32 && s.outputType == hwspec::ElemType::kInt8)
      << "the functional datapath supports int8 data and int32 accumulators";
  for (int b = 0; b < hwspec::kNumBuffers; ++b) depth[b] = s.depth(BufferKind(b));
  uop.resize(depth[static_cast<int>(BufferKind::kUop)]);
  inp.resize(depth[static_cast<int>(BufferKind::kInput)] * batch * blockIn);
  wgt.resize(depth[static_cast<int>(BufferKind::kWeight)] * blockOut * blockIn);
  acc.resize(depth[static_cast<int>(BufferKind::kAcc)] * batch * blockOut);
  out.resize(depth[static_cast<int>(BufferKind::kOutput)] * batch * blockOut);
  const int64_t pairs = (blockIn + 1) / 2;
  inpPairs.resize(depth[static_cast<int>(BufferKind::kInput)] * batch * pairs);
  wgtPairs.resize(depth[static_cast<int>(BufferKind::kWeight)] * pairs * blockOut);
}

void Srams::trackDefined() {
  for (int b = 0; b < hwspec::kNumBuffers; ++b)
    if (defined[b].empty()) defined[b].assign(static_cast<size_t>(std::max<int64_t>(depth[b], 1)), false);
}

static int32_t pack(int8_t lo, int8_t hi) {
  return static_cast<int32_t>(static_cast<uint32_t>(static_cast<uint16_t>(int16_t{lo})) |
                              (static_cast<uint32_t>(static_cast<uint16_t>(int16_t{hi})) << 16));
}

void Srams::packInput(int64_t i) {
  const int64_t pairs = (blockIn + 1) / 2;
  for (int64_t b = 0; b < batch; ++b) {
    const int8_t* row = &inp[(i * batch + b) * blockIn];
    for (int64_t k = 0; k < pairs; ++k)
      inpPairs[(i * batch + b) * pairs + k] = pack(row[2 * k], 2 * k + 1 < blockIn ? row[2 * k + 1] : 0);
  }
}

void Srams::packWeight(int64_t i) {
  const int64_t pairs = (blockIn + 1) / 2;
  const int8_t* w = &wgt[i * blockOut * blockIn];
  for (int64_t k = 0; k < pairs; ++k)
    for (int64_t o = 0; o < blockOut; ++o)
      wgtPairs[(i * pairs + k) * blockOut + o] =
          pack(w[o * blockIn + 2 * k], 2 * k + 1 < blockIn ? w[o * blockIn + 2 * k + 1] : 0);
}

}  // namespace accelc::simulator
