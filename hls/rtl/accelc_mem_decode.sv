// hls/rtl/accelc_mem_decode.sv — the fields of a LOAD or STORE instruction
// word, at the positions and widths of accelc_isa_pkg (generated from the same
// ISA YAML as the C++ decoder). The load and store units decode with it.
module accelc_mem_decode (
    input  logic [accelc_isa_pkg::INSN_BITS-1:0]           insn,
    output logic [accelc_isa_pkg::OPCODE_BITS-1:0]         opcode,
    output logic                                           pop_prev,
    output logic                                           pop_next,
    output logic                                           push_prev,
    output logic                                           push_next,
    output logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0]     buffer,
    output logic [accelc_isa_pkg::MEM_SRAM_BASE_BITS-1:0]  sram_base,
    output logic [accelc_isa_pkg::MEM_DRAM_BASE_BITS-1:0]  dram_base,
    output logic [accelc_isa_pkg::MEM_Y_SIZE_BITS-1:0]     y_size,
    output logic [accelc_isa_pkg::MEM_X_SIZE_BITS-1:0]     x_size,
    output logic [accelc_isa_pkg::MEM_X_STRIDE_BITS-1:0]   x_stride,
    output logic [accelc_isa_pkg::MEM_Y_PAD_0_BITS-1:0]    y_pad_0,
    output logic [accelc_isa_pkg::MEM_Y_PAD_1_BITS-1:0]    y_pad_1,
    output logic [accelc_isa_pkg::MEM_X_PAD_0_BITS-1:0]    x_pad_0,
    output logic [accelc_isa_pkg::MEM_X_PAD_1_BITS-1:0]    x_pad_1
);
  assign opcode    = insn[0 +: accelc_isa_pkg::OPCODE_BITS];
  assign pop_prev  = insn[accelc_isa_pkg::MEM_POP_PREV_LO];
  assign pop_next  = insn[accelc_isa_pkg::MEM_POP_NEXT_LO];
  assign push_prev = insn[accelc_isa_pkg::MEM_PUSH_PREV_LO];
  assign push_next = insn[accelc_isa_pkg::MEM_PUSH_NEXT_LO];
  assign buffer    = insn[accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS];
  assign sram_base = insn[accelc_isa_pkg::MEM_SRAM_BASE_LO +: accelc_isa_pkg::MEM_SRAM_BASE_BITS];
  assign dram_base = insn[accelc_isa_pkg::MEM_DRAM_BASE_LO +: accelc_isa_pkg::MEM_DRAM_BASE_BITS];
  assign y_size    = insn[accelc_isa_pkg::MEM_Y_SIZE_LO +: accelc_isa_pkg::MEM_Y_SIZE_BITS];
  assign x_size    = insn[accelc_isa_pkg::MEM_X_SIZE_LO +: accelc_isa_pkg::MEM_X_SIZE_BITS];
  assign x_stride  = insn[accelc_isa_pkg::MEM_X_STRIDE_LO +: accelc_isa_pkg::MEM_X_STRIDE_BITS];
  assign y_pad_0   = insn[accelc_isa_pkg::MEM_Y_PAD_0_LO +: accelc_isa_pkg::MEM_Y_PAD_0_BITS];
  assign y_pad_1   = insn[accelc_isa_pkg::MEM_Y_PAD_1_LO +: accelc_isa_pkg::MEM_Y_PAD_1_BITS];
  assign x_pad_0   = insn[accelc_isa_pkg::MEM_X_PAD_0_LO +: accelc_isa_pkg::MEM_X_PAD_0_BITS];
  assign x_pad_1   = insn[accelc_isa_pkg::MEM_X_PAD_1_LO +: accelc_isa_pkg::MEM_X_PAD_1_BITS];
endmodule
