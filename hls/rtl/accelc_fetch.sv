// hls/rtl/accelc_fetch.sv — instruction fetch: it reads the text through the
// DRAM port in bursts of MAX_BURST bytes, two bursts ahead of dispatch (a
// burst is requested once half the two-burst buffer is free), assembles each
// instruction from its beats in the text memory and dispatches one per cycle
// into the command queue of its unit while that queue has room; FINISH ends
// fetching. An instruction of an opcode or (LOAD, STORE) buffer the ISA does
// not have is never dispatched: fetch stops at it and raises `error`, its pc
// in `error_pc`. Which unit runs each instruction comes from accelc_isa_pkg
// (generated from isa/semantics.h).
module accelc_fetch (
    input  logic                                     clk,
    input  logic                                     rst,
    input  logic                                     start,      // a run begins
    input  logic                                     running,
    /* verilator lint_off UNUSEDSIGNAL */  // bits past the DRAM window's
    input  logic [31:0]                              insn_count,
    input  logic [31:0]                              insn_addr,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic                                     room,       // the command queue of `target` has room
    output logic                                     req_valid,  // the DRAM port request of the next burst
    output logic [accelc_hw_pkg::BEAT_BITS-1:0]      req_beats,
    output logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0] req_addr,
    input  logic                                     req_accept,
    input  logic                                     req_done,   // a burst's last beat
    input  logic                                     beat,       // a beat of fetch's: its bytes are on mem_rdata next cycle
    input  logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0] mem_rdata,
    output logic [accelc_isa_pkg::INSN_BITS-1:0]     insn,       // the instruction at pc, once its burst is in
    output logic [1:0]                               target,     // the unit it runs on
    output logic                                     dispatch,   // it goes into that unit's queue now
    output logic                                     error,      // fetch met an unknown opcode or buffer, and stopped
    output logic [31:0]                              error_pc    // ... at this instruction
);
  localparam int IB = accelc_isa_pkg::INSN_BITS / 8;
  localparam int B = accelc_hw_pkg::MAX_BURST;
  localparam int W = accelc_hw_pkg::DRAM_BYTES_PER_CYCLE;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int IW = accelc_isa_pkg::INSN_BITS;
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;  // DRAM byte addresses lie in the window
  localparam int PW = AB + 1;                         // instruction and burst counts, text bytes
  localparam int CP = accelc_isa_pkg::UNIT_COMPUTE;

  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [accelc_isa_pkg::OPCODE_BITS-1:0] opcodeOf(input logic [IW-1:0] w);
    opcodeOf = w[0 +: accelc_isa_pkg::OPCODE_BITS];
  endfunction
  function automatic logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0] bufferOf(input logic [IW-1:0] w);
    bufferOf = w[accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  logic [PW-1:0] pc, req_next, allowed, arrived, n_insn;
  assign n_insn = PW'(insn_count);
  logic        fetching;
  logic [PW-1:0] text_bytes, text_bursts, req_bytes, req_rest;  // the text lies in the DRAM window
  assign text_bytes = n_insn * PW'(IB);
  assign text_bursts = (text_bytes + PW'(B) - PW'(1)) / PW'(B);
  assign req_rest = text_bytes - req_next * PW'(B);
  assign req_bytes = req_rest > PW'(B) ? PW'(B) : req_rest;
  assign req_valid = running && req_next < text_bursts && req_next <= allowed;
  assign req_beats = BB'((req_bytes + PW'(W - 1)) / PW'(W));
  assign req_addr = AB'(insn_addr) + AB'(req_next * PW'(B));

  // The unit an instruction runs on (accelc_isa_pkg's routing, generated
  // from isa/semantics.h: LOADs to uop/acc/acc8 run on compute).
  function automatic int unitOf(input logic [IW-1:0] w);
    case (32'(opcodeOf(w)))
      accelc_isa_pkg::OPCODE_LOAD:
        case (32'(bufferOf(w)))
          accelc_isa_pkg::BUFFER_UOP: unitOf = accelc_isa_pkg::UNIT_OF_LOAD_UOP;
          accelc_isa_pkg::BUFFER_WGT: unitOf = accelc_isa_pkg::UNIT_OF_LOAD_WGT;
          accelc_isa_pkg::BUFFER_INP: unitOf = accelc_isa_pkg::UNIT_OF_LOAD_INP;
          accelc_isa_pkg::BUFFER_ACC: unitOf = accelc_isa_pkg::UNIT_OF_LOAD_ACC;
          accelc_isa_pkg::BUFFER_OUT: unitOf = accelc_isa_pkg::UNIT_OF_LOAD_OUT;
          accelc_isa_pkg::BUFFER_ACC8: unitOf = accelc_isa_pkg::UNIT_OF_LOAD_ACC8;
          default: unitOf = CP;  // an unknown buffer: never dispatched (knownInsn)
        endcase
      accelc_isa_pkg::OPCODE_STORE: unitOf = accelc_isa_pkg::UNIT_OF_STORE;
      accelc_isa_pkg::OPCODE_GEMM: unitOf = accelc_isa_pkg::UNIT_OF_GEMM;
      accelc_isa_pkg::OPCODE_ALU: unitOf = accelc_isa_pkg::UNIT_OF_ALU;
      accelc_isa_pkg::OPCODE_FINISH: unitOf = accelc_isa_pkg::UNIT_OF_FINISH;
      default: unitOf = CP;  // an unknown opcode: never dispatched (knownInsn)
    endcase
  endfunction
  // Whether the ISA has the instruction's opcode and, for LOAD and STORE, its buffer.
  function automatic logic knownInsn(input logic [IW-1:0] w);
    logic known_buffer;
    case (32'(bufferOf(w)))
      accelc_isa_pkg::BUFFER_UOP, accelc_isa_pkg::BUFFER_WGT, accelc_isa_pkg::BUFFER_INP, accelc_isa_pkg::BUFFER_ACC,
      accelc_isa_pkg::BUFFER_OUT, accelc_isa_pkg::BUFFER_ACC8: known_buffer = 1'b1;
      default: known_buffer = 1'b0;
    endcase
    case (32'(opcodeOf(w)))
      accelc_isa_pkg::OPCODE_LOAD, accelc_isa_pkg::OPCODE_STORE: knownInsn = known_buffer;
      accelc_isa_pkg::OPCODE_GEMM, accelc_isa_pkg::OPCODE_ALU, accelc_isa_pkg::OPCODE_FINISH: knownInsn = 1'b1;
      default: knownInsn = 1'b0;
    endcase
  endfunction
  logic [PW-1:0] arrived_now;
  assign arrived_now = arrived + PW'(req_done);
  logic [PW-1:0] insn_burst;
  assign insn_burst = pc * PW'(IB) / PW'(B);
  assign target = 2'(unitOf(insn));
  logic fetch_ready, fetch_known, fetch_bad;
  assign fetch_ready = fetching && pc < n_insn && insn_burst < arrived_now;  // insn holds the instruction at pc
  assign fetch_known = knownInsn(insn);
  assign dispatch = fetch_ready && fetch_known && room;
  assign fetch_bad = fetch_ready && !fetch_known;
  assign error_pc = 32'(pc);
  logic burst_last;
  assign burst_last = pc + PW'(1) == n_insn || (pc + PW'(1)) * PW'(IB) / PW'(B) != insn_burst;

  // The text memory: the instructions of two bursts (fetch's buffer), in
  // order, in one bank per beat of an instruction: a fetch beat's W bytes
  // arrive the cycle after the beat and go straight into their bank at the
  // instruction's entry. Dispatch reads the entry of `pc` one cycle ahead; in
  // the instruction completed in the cycle it is read the last beat comes
  // straight from mem_rdata, and a beat written into the entry read ahead
  // through a bypass register (a memory's read of the word it writes is not
  // defined).
  localparam int TE = 2 * B / IB;  // entries
  localparam int TI = TE > 1 ? $clog2(TE) : 1;
  localparam int BPI = IB / W;     // beats per instruction
  localparam int BI = BPI > 1 ? $clog2(BPI) : 1;
  logic          tb_v;             // a fetch beat's bytes are on mem_rdata
  logic [BI-1:0] tb_k;             // beats of the instruction written so far
  logic          tb_last;          // this beat completes an instruction
  logic [TI-1:0] tw_idx, tr_idx, tr_next;
  logic [IW-1:0] t_rdata;
  logic          tp_hit;           // last cycle's beat went into the entry read then
  logic [BI-1:0] tp_k;             // ... into this bank
  logic [W*8-1:0] tp_data;         // ... these bytes
  assign tb_last = tb_v && (BPI == 1 || 32'(tb_k) == BPI - 1);
  assign tr_next = !dispatch ? tr_idx : tr_idx == TI'(TE - 1) ? '0 : tr_idx + TI'(1);
  for (genvar k = 0; k < BPI; k++) begin : text
    accelc_sram #(.DEPTH(TE), .WIDTH(W * 8), .READS(1), .AW(TI)) ram (
        .clk, .we(tb_v && 32'(tb_k) == k), .waddr(tw_idx), .wdata(mem_rdata), .re(1'b1), .raddr(tr_next),
        .rdata(t_rdata[k*W*8 +: W*8]));
  end
  always_comb begin
    insn = t_rdata;
    for (int k = 0; k < BPI; k++)  // constant slices: no shifter
      if (tp_hit && 32'(tp_k) == k) insn[k*W*8 +: W*8] = tp_data;
    if (tb_last && tw_idx == tr_idx) insn[(BPI-1)*W*8 +: W*8] = mem_rdata;
  end
  always_ff @(posedge clk) begin
    if (rst || (start && !running)) begin
      tb_v <= 1'b0;
      tb_k <= '0;
      tw_idx <= '0;
      tr_idx <= '0;
      tp_hit <= 1'b0;
    end else begin
      tb_v <= beat;
      if (tb_v) tb_k <= tb_last ? '0 : tb_k + BI'(1);
      if (tb_last) tw_idx <= tw_idx == TI'(TE - 1) ? '0 : tw_idx + TI'(1);
      tr_idx <= tr_next;
      tp_hit <= tb_v && tw_idx == tr_next;
    end
    tp_k <= tb_k;
    tp_data <= mem_rdata;
  end


  always_ff @(posedge clk) begin
    if (rst) begin
      error <= 1'b0;
      fetching <= 1'b0;
      pc <= '0;
      req_next <= '0;
      allowed <= '0;
      arrived <= '0;
    end else if (start && !running) begin
      fetching <= 1'b1;
      pc <= '0;
      req_next <= '0;
      allowed <= PW'(1);  // bursts 0 and 1 in cycle 0: a buffer of two bursts
      arrived <= '0;
    end else begin
      if (req_valid && req_accept) req_next <= req_next + PW'(1);
      arrived <= arrived_now;
      if (fetch_bad) begin  // pc stays at the instruction: it moves on dispatch alone
        error <= 1'b1;
        fetching <= 1'b0;
      end
      if (dispatch) begin
        pc <= pc + PW'(1);
        if (burst_last) allowed <= insn_burst + PW'(2);
        if (32'(opcodeOf(insn)) == accelc_isa_pkg::OPCODE_FINISH) fetching <= 1'b0;
      end
    end
  end
endmodule
