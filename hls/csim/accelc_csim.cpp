// accelc_csim.cpp — the HLS engine's harness: runs the generated
// accelerator's top level in C-simulation (hls_stream.h, hls_task.h) on a
// DRAM window the caller owns, and hands its register file back as slots
// (csim_abi.h). Compiled with the generated sources into one shared library.
#include <mutex>
#include <vector>

#include "accelc_accel.h"
#include "csim_abi.h"

namespace {

void put_unit(const accelc_unit_regs& r, uint64_t* s) {
  for (int i = 0; i < NUM_OPCODES; ++i) s[ACCELC_CSIM_U_INSNS + i] = r.insns[i];
  s[ACCELC_CSIM_U_DRAM_READ] = r.dram_read_bytes;
  s[ACCELC_CSIM_U_DRAM_WRITE] = r.dram_write_bytes;
  for (int i = 0; i < NUM_SRAMS; ++i) {
    s[ACCELC_CSIM_U_SRAM_READ + i] = r.sram_read_bytes[i];
    s[ACCELC_CSIM_U_SRAM_WRITE + i] = r.sram_write_bytes[i];
  }
  s[ACCELC_CSIM_U_MACS] = r.macs;
  s[ACCELC_CSIM_U_GEMM_UOPS] = r.gemm_uops;
  s[ACCELC_CSIM_U_ALU_UOPS] = r.alu_uops;
  for (int q = 0; q < NUM_TOKEN_QUEUES; ++q) {
    s[ACCELC_CSIM_U_PUSHES + q] = r.pushes[q];
    s[ACCELC_CSIM_U_POPS + q] = r.pops[q];
  }
  s[ACCELC_CSIM_U_HAS_HEAD] = r.has_head;
  s[ACCELC_CSIM_U_HEAD_PC] = r.head_pc;
  s[ACCELC_CSIM_U_WAIT_KIND] = r.wait_kind;
  s[ACCELC_CSIM_U_WAIT_QUEUE] = static_cast<uint64_t>(static_cast<int64_t>(r.wait_queue));
  s[ACCELC_CSIM_U_FAULT] = r.fault;
  s[ACCELC_CSIM_U_FAULT_PC] = r.fault_pc;
}

}  // namespace

extern "C" uint64_t accelc_csim_hash(void) { return ACCELC_HWSPEC_HASH; }
extern "C" uint64_t accelc_csim_beat_bytes(void) { return DRAM_BEAT_BYTES; }

extern "C" int accelc_csim_run(uint8_t* dram, uint64_t dram_bytes, uint32_t insn_addr, uint32_t insn_count,
                               uint64_t window, uint64_t* slots) {
  static std::mutex one_at_a_time;  // the buffers and the simulation are the process's
  std::lock_guard<std::mutex> g(one_at_a_time);
  if (dram_bytes % DRAM_BEAT_BYTES) return 1;
  const uint64_t beats = dram_bytes / DRAM_BEAT_BYTES;
  // A beat type stored as exactly its bytes is the DRAM itself; any other is
  // copied in and out.
  std::vector<dram_beat_t> copy;
  dram_beat_t* mem = reinterpret_cast<dram_beat_t*>(dram);
  if (sizeof(dram_beat_t) != DRAM_BEAT_BYTES) {
    copy.resize(beats);
    for (uint64_t b = 0; b < beats; ++b)
      for (int k = 0; k < DRAM_BEAT_BYTES; ++k) copy[b].range(8 * k + 7, 8 * k) = dram[b * DRAM_BEAT_BYTES + k];
    mem = copy.data();
  }
  accelc_clear_buffers();
  hls::csim::clear();
  accelc_regs regs = {};
  uint32_t status = 0, stop_pc = 0;
  uint64_t hash = 0;
  try {
    accelc_top(mem, insn_addr, insn_count, window, &status, &stop_pc, &hash, &regs);
  } catch (const hls::csim::aborted&) {
    accelc_collect_status(&regs, true);  // every unit blocked: the top level never saw its FINISH
  }
  for (uint64_t b = 0; b < beats && !copy.empty(); ++b)
    for (int k = 0; k < DRAM_BEAT_BYTES; ++k)
      dram[b * DRAM_BEAT_BYTES + k] = static_cast<uint8_t>(copy[b].range(8 * k + 7, 8 * k).to_uint64());
  for (int i = 0; i < ACCELC_CSIM_SLOTS; ++i) slots[i] = 0;
  slots[ACCELC_CSIM_STATUS] = regs.status;
  slots[ACCELC_CSIM_STOP_PC] = regs.stop_pc;
  slots[ACCELC_CSIM_FETCH_PC] = regs.fetch.pc;
  slots[ACCELC_CSIM_FETCH_HOLDING] = regs.fetch.holding;
  slots[ACCELC_CSIM_FETCH_FINISH] = regs.fetch.finish_fetched;
  slots[ACCELC_CSIM_FETCH_BYTES] = regs.fetch.fetch_bytes;
  for (int u = 0; u < 3; ++u) put_unit(regs.unit[u], slots + ACCELC_CSIM_UNIT + u * ACCELC_CSIM_UNIT_SLOTS);
  return 0;
}
