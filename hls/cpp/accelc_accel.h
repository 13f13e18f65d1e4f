// accelc_accel.h — the accelerator in Vitis HLS C++: types, the register
// file the top level reports through, and the top-level function.
//
// Every number comes from accelc_params.h, which accelc generates from the
// hwspec and the ISA YAML (with the instruction decoders); the arithmetic is
// accelc_arith_ops.h, the same file the simulators compute with. The units
// (fetch, load, compute, store) are free-running hls::tasks joined by
// command and token streams of the hwspec's depths (accelc_accel.cpp).
#ifndef ACCELC_ACCEL_H_
#define ACCELC_ACCEL_H_

#include <stdint.h>

#include "ap_int.h"
#include "hls_stream.h"
#include "hls_task.h"
#include "accelc_params.h"

/// One beat of the DRAM port.
typedef ap_uint<DRAM_BEAT_BYTES * 8> dram_beat_t;

/// STATUS bits (docs/microarchitecture.md, the control registers).
enum {
  STATUS_ILLEGAL = 1,     ///< an instruction the hardware cannot run
  STATUS_DMA_WINDOW = 2,  ///< a transfer or a fetch outside the DRAM window
  STATUS_DEADLOCK = 4,    ///< token deadlock
  STATUS_AXI_ERROR = 8    ///< SLVERR/DECERR on the DRAM port
};

/// What keeps a unit's instruction from finishing (isa/tokens.h's TokenWait kinds).
enum { WAIT_READY = 0, WAIT_EMPTY = 1, WAIT_FULL = 3 };

/// One unit's registers: its events, the instruction it holds and what that
/// waits on, and its fault. Written by that unit only.
struct accelc_unit_regs {
  uint64_t insns[NUM_OPCODES];            ///< retired, per opcode (isa order: LOAD, STORE, GEMM, ALU, FINISH)
  uint64_t dram_read_bytes, dram_write_bytes;
  uint64_t sram_read_bytes[NUM_SRAMS], sram_write_bytes[NUM_SRAMS];  ///< per buffer kind
  uint64_t macs, gemm_uops, alu_uops;
  uint64_t pushes[NUM_TOKEN_QUEUES], pops[NUM_TOKEN_QUEUES];  ///< tokens per queue
  uint32_t has_head;    ///< holds an instruction it took from its command queue
  uint32_t head_pc;     ///< that instruction
  uint32_t wait_kind;   ///< WAIT_*: what it waits on, when it waits
  int32_t wait_queue;   ///< the token queue waited on
  uint32_t fault;       ///< STATUS bits of its fault, 0 when none
  uint32_t fault_pc;    ///< the instruction of the fault
};

/// Fetch's registers.
struct accelc_fetch_regs {
  uint64_t fetch_bytes;     ///< instruction bytes read
  uint32_t pc;              ///< the next instruction to fetch
  uint32_t holding;         ///< it holds a fetched instruction its unit's queue has no room for
  uint32_t finish_fetched;  ///< FINISH was dispatched
  uint32_t fault, fault_pc;
};

/// The register file of one run: STATUS, STOP_PC and the units'.
struct accelc_regs {
  uint32_t status;   ///< STATUS_* bits; 0 after a run that reached FINISH
  uint32_t stop_pc;  ///< the FINISH, or the instruction STATUS names
  accelc_fetch_regs fetch;
  accelc_unit_regs unit[3];  ///< load, compute, store
};

/// Runs the `insn_count` instructions at byte `insn_addr` of the DRAM window
/// (`window` bytes at `dram`) to their FINISH or to a fault; sets STATUS,
/// STOP_PC and HWSPEC_HASH, and the units' registers in `regs`. The
/// arguments are the control registers of docs/microarchitecture.md.
void accelc_top(dram_beat_t* dram, uint32_t insn_addr, uint32_t insn_count, uint64_t window, uint32_t* status,
                uint32_t* stop_pc, uint64_t* hwspec_hash, accelc_regs* regs);

/// Sets STATUS and STOP_PC from the units' faults (the lowest pc wins), or,
/// with `deadlock` and no fault, to a token deadlock at the lowest pc a unit
/// holds; else STOP_PC is the FINISH.
void accelc_collect_status(accelc_regs* regs, bool deadlock);

#ifndef __SYNTHESIS__
/// C-simulation only: every on-chip buffer back to zero, as after reset.
void accelc_clear_buffers();
#endif

#endif  // ACCELC_ACCEL_H_
