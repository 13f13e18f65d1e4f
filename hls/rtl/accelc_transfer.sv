// hls/rtl/accelc_transfer.sv — one unit's LOAD and STORE transfers: the
// transfer its head instruction describes (rows, row bytes, padding, DRAM
// address and pitch, each DRAM element's bytes by buffer), its DMA engine
// (accelc_dma) on the DRAM port, and what the running transfer writes,
// latched at its start: the buffer, the first data entry and the padded
// window's first entry, and the row length for partial beats. Unit U is
// the load (0), compute (1) or store (2) unit; only the store unit writes
// DRAM, and a STORE has no padding.
module accelc_transfer #(
    parameter int U = 0,    // the unit (accelc_isa_pkg::UNIT_*)
    parameter int XW = 16,  // entry index bits (the widest buffer's)
    parameter int RB = 16   // bits of a row's bytes
) (
    input  logic                                     clk,
    input  logic                                     rst,
    /* verilator lint_off UNUSEDSIGNAL */  // the flags and the unused bits past the MEM format; bits past the DRAM window's
    input  logic [accelc_isa_pkg::INSN_BITS-1:0]     insn,       // the unit's head instruction
    input  logic [31:0]                              dram_base,  // DRAM byte address that DMA addresses count from
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic                                     go,         // the unit starts it now
    output logic                                     start,      // a LOAD or STORE starts now
    output logic                                     finish,     // the running one ends now
    output logic                                     req_valid,  // the DMA engine's port request
    output logic                                     req_write,
    output logic                                     req_narrow, // one output row a beat (isa::dramBeatBytes)
    output logic [accelc_hw_pkg::BEAT_BITS-1:0]      req_beats,
    output logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0] req_addr,
    input  logic                                     req_accept,
    input  logic                                     done,       // one of the unit's bursts completed
    input  logic                                     beat,       // a data beat of the unit's goes now
    output logic [XW-1:0]                            data_base,  // ... it carries the row this many window entries on
    output logic [31:0]                              data_off,   // ... from this byte of the row
    output logic                                     pad_valid,  // a padding entry is written now
    output logic [XW-1:0]                            pad_entry,  // ... at this buffer entry
    output logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0] xfer_buf,  // the running transfer's buffer
    output logic [XW-1:0]                            xfer_first, // ... its first data entry
    output logic [RB-1:0]                            row_bytes_q,  // ... its row length
    output logic [31:0]                              rows,       // the head instruction's rows (y_size)
    output logic [31:0]                              xs          // ... and row length in entries (x_size)
);
  localparam int IW = accelc_isa_pkg::INSN_BITS;
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;
  localparam int NP = accelc_hw_pkg::PAD_COUNT_BITS;
  localparam int ST = accelc_isa_pkg::UNIT_STORE;

  // a * b for a factor b no wider than a pad field plus one bit: shifts and
  // adds, no multiplier.
  localparam int PB = accelc_isa_pkg::MEM_Y_PAD_0_BITS + 1;
  // Its operands and product are counts of one transfer's entries: in a legal
  // program they fit the largest buffer (NP bits).
  function automatic logic [NP-1:0] mulPad(input logic [NP-1:0] a, input logic [NP-1:0] b);
    mulPad = '0;
    for (int i = 0; i < PB; i++)
      if (b[i]) mulPad = mulPad + (a << i);
  endfunction

  // The transfer of the head instruction.
  logic [31:0]   row_bytes, yp0, xp0, xp1;
  logic [NP-1:0] pads;
  logic [AB-1:0] addr, pitch;
  logic          narrow;  // the head transfer moves output rows narrower than a beat
  always_comb begin
    logic [31:0] yp1;
    logic [4:0]  le;  // log2 of the DRAM entry bytes
    logic [accelc_isa_pkg::OPCODE_BITS-1:0] op;
    rows = 32'(insn[accelc_isa_pkg::MEM_Y_SIZE_LO +: accelc_isa_pkg::MEM_Y_SIZE_BITS]);
    xs = 32'(insn[accelc_isa_pkg::MEM_X_SIZE_LO +: accelc_isa_pkg::MEM_X_SIZE_BITS]);
    yp0 = 32'(insn[accelc_isa_pkg::MEM_Y_PAD_0_LO +: accelc_isa_pkg::MEM_Y_PAD_0_BITS]);
    yp1 = 32'(insn[accelc_isa_pkg::MEM_Y_PAD_1_LO +: accelc_isa_pkg::MEM_Y_PAD_1_BITS]);
    xp0 = 32'(insn[accelc_isa_pkg::MEM_X_PAD_0_LO +: accelc_isa_pkg::MEM_X_PAD_0_BITS]);
    xp1 = 32'(insn[accelc_isa_pkg::MEM_X_PAD_1_LO +: accelc_isa_pkg::MEM_X_PAD_1_BITS]);
    case (32'(insn[accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS]))
      accelc_isa_pkg::BUFFER_UOP: le = 5'($clog2(accelc_hw_pkg::ENTRY_BYTES_UOP));
      accelc_isa_pkg::BUFFER_WGT: le = 5'($clog2(accelc_hw_pkg::ENTRY_BYTES_WGT));
      accelc_isa_pkg::BUFFER_INP: le = 5'($clog2(accelc_hw_pkg::ENTRY_BYTES_INP));
      accelc_isa_pkg::BUFFER_ACC: le = 5'($clog2(accelc_hw_pkg::ENTRY_BYTES_ACC));
      accelc_isa_pkg::BUFFER_OUT: le = 5'($clog2(accelc_hw_pkg::ENTRY_BYTES_OUT));
      accelc_isa_pkg::BUFFER_ACC8: le = 5'($clog2(accelc_hw_pkg::ENTRY_BYTES_ACC8));
      default: le = '0;  // an unknown buffer: never dispatched (accelc_fetch)
    endcase  // entry sizes are powers of two: shifts
    narrow = accelc_hw_pkg::ROW_BEAT_BYTES < accelc_hw_pkg::DRAM_BYTES_PER_CYCLE &&
             (32'(insn[accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS]) == accelc_isa_pkg::BUFFER_OUT ||
              32'(insn[accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS]) == accelc_isa_pkg::BUFFER_ACC8);
    op = insn[0 +: accelc_isa_pkg::OPCODE_BITS];
    row_bytes = xs << le;
    // the window less the data: (yp0 + yp1) * cols + ys * (xp0 + xp1), by the narrow pad factors
    pads = U != ST ? mulPad(NP'(xp0 + xs + xp1), NP'(yp0 + yp1)) + mulPad(NP'(rows), NP'(xp0 + xp1)) : '0;
    addr = AB'(dram_base) + (AB'(insn[accelc_isa_pkg::MEM_DRAM_BASE_LO +: accelc_isa_pkg::MEM_DRAM_BASE_BITS]) << le);
    pitch = AB'(insn[accelc_isa_pkg::MEM_X_STRIDE_LO +: accelc_isa_pkg::MEM_X_STRIDE_BITS]) << le;
    if (U == ST) {yp0, xp0, xp1} = '0;  // a STORE has no padding
    start = go && (32'(op) == accelc_isa_pkg::OPCODE_LOAD || 32'(op) == accelc_isa_pkg::OPCODE_STORE);
  end

  logic [XW-1:0] pad_idx, xfer_base;
  accelc_dma #(.XW(XW)) engine (
      .clk, .rst, .start, .write(U == ST), .narrow, .rows, .row_bytes, .pads, .addr, .pitch, .y_pad0(yp0), .x_pad0(xp0),
      .x_size(xs), .x_pad1(xp1), .req_addr, .req_valid, .req_write, .req_narrow, .req_beats, .req_accept, .done, .finish, .beat,
      .data_base, .data_off, .pad_valid, .pad_idx);

  // What the running transfer writes, latched at its start.
  always_ff @(posedge clk)
    if (start) begin
      logic [XW-1:0] sb, cols;
      sb = XW'(insn[accelc_isa_pkg::MEM_SRAM_BASE_LO +: accelc_isa_pkg::MEM_SRAM_BASE_BITS]);
      cols = XW'(xp0 + xs + xp1);
      xfer_buf <= insn[accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS];
      xfer_base <= sb;
      xfer_first <= sb + XW'(mulPad(NP'(cols), NP'(yp0))) + XW'(xp0);
      row_bytes_q <= RB'(row_bytes);
    end
  assign pad_entry = xfer_base + pad_idx;  // the padding entry's place in the window
endmodule
