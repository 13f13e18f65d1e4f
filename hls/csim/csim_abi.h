// hls/csim/csim_abi.h — what the HLS engine's compiled model hands back: the
// register file of one run as 64-bit slots (the harness accelc_csim.cpp fills
// them from the generated C++'s accelc_regs; runtime/sim_devices/hls_device
// reads them). Plain C, so that the two sides share nothing else.
#ifndef ACCELC_CSIM_ABI_H_
#define ACCELC_CSIM_ABI_H_

#include <stdint.h>

/// Slots of one unit's registers, from its base (ACCELC_CSIM_UNIT + unit * ACCELC_CSIM_UNIT_SLOTS).
enum {
  ACCELC_CSIM_U_INSNS = 0,                         /* 5: per opcode, isa order */
  ACCELC_CSIM_U_DRAM_READ = 5,
  ACCELC_CSIM_U_DRAM_WRITE = 6,
  ACCELC_CSIM_U_SRAM_READ = 7,                     /* 5: per buffer kind */
  ACCELC_CSIM_U_SRAM_WRITE = 12,                   /* 5 */
  ACCELC_CSIM_U_MACS = 17,
  ACCELC_CSIM_U_GEMM_UOPS = 18,
  ACCELC_CSIM_U_ALU_UOPS = 19,
  ACCELC_CSIM_U_PUSHES = 20,                       /* 4: per token queue, isa order */
  ACCELC_CSIM_U_POPS = 24,                         /* 4 */
  ACCELC_CSIM_U_HAS_HEAD = 28,
  ACCELC_CSIM_U_HEAD_PC = 29,
  ACCELC_CSIM_U_WAIT_KIND = 30,
  ACCELC_CSIM_U_WAIT_QUEUE = 31,                   /* -1 as int64 when none */
  ACCELC_CSIM_U_FAULT = 32,
  ACCELC_CSIM_U_FAULT_PC = 33,
  ACCELC_CSIM_UNIT_SLOTS = 34
};

/// The slots of a run.
enum {
  ACCELC_CSIM_STATUS = 0,       /* STATUS bits */
  ACCELC_CSIM_STOP_PC = 1,      /* STOP_PC */
  ACCELC_CSIM_FETCH_PC = 2,     /* the next instruction fetch would take */
  ACCELC_CSIM_FETCH_HOLDING = 3,
  ACCELC_CSIM_FETCH_FINISH = 4,
  ACCELC_CSIM_FETCH_BYTES = 5,
  ACCELC_CSIM_UNIT = 8,         /* three units' slots: load, compute, store */
  ACCELC_CSIM_SLOTS = ACCELC_CSIM_UNIT + 3 * ACCELC_CSIM_UNIT_SLOTS
};

/// Runs the `insn_count` instructions at byte `insn_addr` of `dram`
/// (`dram_bytes`, a whole number of DRAM beats; `window` of them the
/// program may touch), and fills `slots` (ACCELC_CSIM_SLOTS of them).
/// Returns 0, or 1 when `dram_bytes` is not a whole number of beats.
typedef int (*accelc_csim_run_fn)(uint8_t* dram, uint64_t dram_bytes, uint32_t insn_addr, uint32_t insn_count,
                                  uint64_t window, uint64_t* slots);
/// The target hash the model was generated for.
typedef uint64_t (*accelc_csim_hash_fn)(void);
/// Bytes of one DRAM beat.
typedef uint64_t (*accelc_csim_beat_fn)(void);

#define ACCELC_CSIM_RUN "accelc_csim_run"
#define ACCELC_CSIM_HASH "accelc_csim_hash"
#define ACCELC_CSIM_BEAT "accelc_csim_beat_bytes"

#endif /* ACCELC_CSIM_ABI_H_ */
