// isa/counters.cc — adding and listing counters.
#include "isa/counters.h"

namespace accelc::isa {

Counters& Counters::operator+=(const Counters& o) {
  for (size_t i = 0; i < insns.size(); ++i) insns[i] += o.insns[i];
  for (size_t i = 0; i < sramReadBytes.size(); ++i) sramReadBytes[i] += o.sramReadBytes[i];
  for (size_t i = 0; i < sramWriteBytes.size(); ++i) sramWriteBytes[i] += o.sramWriteBytes[i];
  dramReadBytes += o.dramReadBytes;
  dramWriteBytes += o.dramWriteBytes;
  fetchBytes += o.fetchBytes;
  macs += o.macs;
  gemmUops += o.gemmUops;
  aluUops += o.aluUops;
  tokens += o.tokens;
  return *this;
}

bool Counters::operator==(const Counters& o) const { return rows() == o.rows(); }

std::vector<std::pair<std::string, uint64_t>> Counters::rows() const {
  std::vector<std::pair<std::string, uint64_t>> r;
  for (int i = 0; i < kNumOpcodes; ++i) r.emplace_back(std::string("insn.") + isa::opcodeName(Opcode(i)), insns[i]);
  r.emplace_back("macs", macs);
  r.emplace_back("gemm_uops", gemmUops);
  r.emplace_back("alu_uops", aluUops);
  r.emplace_back("tokens", tokens);
  r.emplace_back("dram.read_bytes", dramReadBytes);
  r.emplace_back("dram.write_bytes", dramWriteBytes);
  r.emplace_back("dram.fetch_bytes", fetchBytes);
  for (int b = 0; b < hwspec::kNumBuffers; ++b) {
    std::string n = hwspec::bufferKindName(hwspec::BufferKind(b));
    r.emplace_back("sram." + n + ".read_bytes", sramReadBytes[b]);
    r.emplace_back("sram." + n + ".write_bytes", sramWriteBytes[b]);
  }
  return r;
}

}  // namespace accelc::isa
