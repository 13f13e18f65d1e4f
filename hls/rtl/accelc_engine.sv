// hls/rtl/accelc_engine.sv — the accelerator without its memory port: fetch,
// the command and token queues, the load, compute and store units with their
// DMA engines, and FINISH, cycle for cycle as docs/microarchitecture.md says,
// and the datapath: the on-chip buffers (accelc_buffer), the GEMM core and
// ALU (accelc_exec), the DMA data into the buffers and out of the output
// buffer. Its requesters (fetch, compute, load, store) present bursts on rq_*
// to a port outside: accelc_core puts the contract's DRAM port there, and
// accelc_axi an AXI4 master. The port shows each read beat on rbeat_* (its
// W bytes come on mem_rdata the next cycle) and each write beat of the store
// on wbeat_valid (it takes mem_wdata in that cycle); a read and a write beat
// may share a cycle. Fetch assembles instructions from its read beats into a
// text memory of two bursts.
//
// Runs are separated by `rst`: a run's fetch bursts may still be in flight
// when FINISH retires. An instruction of an opcode or (LOAD, STORE) buffer
// the ISA does not have stops fetch before dispatch and raises `error`, with
// its pc in `error_pc`, as fsim's illegal-instruction diagnostic stops a run.
// Otherwise programs are assumed legal (the simulators diagnose illegal
// ones): FINISH's own token pushes, tokens left at FINISH, flags a unit has
// no queue for and GEMM/ALU loops of no cycles are not reported.
module accelc_engine (
    input  logic                                 clk,
    input  logic                                 rst,
    input  logic                                 start,       // a run begins: the next cycle is its cycle 0
    /* verilator lint_off UNUSEDSIGNAL */  // bits past the DRAM window's
    input  logic [31:0]                          insn_count,  // instructions in the text
    input  logic [31:0]                          insn_addr,   // DRAM byte address of the text
    input  logic [31:0]                          dram_base,   // DRAM byte address that DMA addresses count from
    /* verilator lint_on UNUSEDSIGNAL */
    output logic                                 running,
    output logic                                 done,        // the cycle after FINISH retires: the run's count
    output logic [63:0]                          cycles,      // cycles since the run started
    output logic                                 error,       // fetch met an unknown opcode or buffer, and stopped
    output logic [31:0]                          error_pc,    // ... at this instruction (fetch's pc while it runs)
    // The requesters' bursts, in the port's requester order (fetch, compute, load, store).
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          rq_valid,
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          rq_write,
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          rq_narrow,  // one output row a beat
    output logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::BEAT_BITS-1:0] rq_beats,
    output logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::DRAM_ADDR_BITS-1:0] rq_addr,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          rq_accept,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          rq_done,
    input  logic                                 rbeat_valid, // a read beat of requester rbeat_req
    input  logic [$clog2(accelc_hw_pkg::NUM_REQUESTERS)-1:0] rbeat_req,
    input  logic                                 wbeat_valid, // a write beat of the store unit
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0] mem_wdata,
    input  logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0] mem_rdata
);
  localparam int IB = accelc_isa_pkg::INSN_BITS / 8;
  localparam int B = accelc_hw_pkg::MAX_BURST;
  localparam int W = accelc_hw_pkg::DRAM_BYTES_PER_CYCLE;
  localparam int CD = accelc_hw_pkg::COMMAND_DEPTH;
  localparam int TD = accelc_hw_pkg::TOKEN_DEPTH;
  localparam int NR = accelc_hw_pkg::NUM_REQUESTERS;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int IW = accelc_isa_pkg::INSN_BITS;
  localparam int CW = $clog2(CD + 1) + 1;
  localparam int TW = $clog2(TD + 1) + 1;
  localparam int QI = CD > 1 ? $clog2(CD) : 1;
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;  // DRAM byte addresses lie in the window
  localparam int PW = AB + 1;                         // instruction and burst counts, text bytes
  localparam int NP = accelc_hw_pkg::PAD_COUNT_BITS;
  // Units (load, compute, store) and token queues, as isa/ numbers them; DRAM requesters.
  localparam int LD = accelc_isa_pkg::UNIT_LOAD, CP = accelc_isa_pkg::UNIT_COMPUTE, ST = accelc_isa_pkg::UNIT_STORE;
  localparam int RQ_FETCH = 0, RQ_COMPUTE = 1, RQ_LOAD = 2, RQ_STORE = 3;

  // ---- instruction fields ----
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [accelc_isa_pkg::OPCODE_BITS-1:0] opcodeOf(input logic [IW-1:0] w);
    opcodeOf = w[0 +: accelc_isa_pkg::OPCODE_BITS];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- the buffers' shapes ----
  // Buffers: entries of E bytes in words of G = min(E, W) bytes, NB = max(E, W) / G banks.
  localparam int E_UOP = accelc_hw_pkg::ENTRY_BYTES_UOP, E_INP = accelc_hw_pkg::ENTRY_BYTES_INP;
  localparam int E_WGT = accelc_hw_pkg::ENTRY_BYTES_WGT, E_ACC = accelc_hw_pkg::ENTRY_BYTES_ACC;
  localparam int E_OUT = accelc_hw_pkg::ENTRY_BYTES_OUT, E_ACC8 = accelc_hw_pkg::ENTRY_BYTES_ACC8;
  // An acc8 beat: the bus's, or one row (E_ACC8 bytes) where a row is narrower (isa::dramBeatBytes).
  localparam int ACC8_BEAT = accelc_hw_pkg::ROW_BEAT_BYTES;
  localparam int G_UOP = E_UOP < W ? E_UOP : W, G_INP = E_INP < W ? E_INP : W, G_WGT = E_WGT < W ? E_WGT : W;
  localparam int G_ACC = E_ACC < W ? E_ACC : W, G_OUT = E_OUT < W ? E_OUT : W;
  localparam int NB_UOP = (E_UOP < W ? W : E_UOP) / G_UOP, NB_INP = (E_INP < W ? W : E_INP) / G_INP;
  localparam int NB_WGT = (E_WGT < W ? W : E_WGT) / G_WGT, NB_ACC = (E_ACC < W ? W : E_ACC) / G_ACC;
  localparam int NB_OUT = (E_OUT < W ? W : E_OUT) / G_OUT;
  localparam int D_UOP = accelc_hw_pkg::UOP_DEPTH, D_INP = accelc_hw_pkg::INP_DEPTH;
  localparam int D_WGT = accelc_hw_pkg::WGT_DEPTH, D_ACC = accelc_hw_pkg::ACC_DEPTH;
  localparam int D_OUT = accelc_hw_pkg::OUT_DEPTH;
  localparam int UIW = D_UOP > 1 ? $clog2(D_UOP) : 1, NIW = D_INP > 1 ? $clog2(D_INP) : 1;
  localparam int GIW = D_WGT > 1 ? $clog2(D_WGT) : 1, AIW = D_ACC > 1 ? $clog2(D_ACC) : 1;
  localparam int OIW = D_OUT > 1 ? $clog2(D_OUT) : 1;
  // Entry indexes are kept modulo 2^XW, XW the widest buffer index: a
  // buffer takes its index's low bits, and in a legal program the window lies
  // inside the buffer.
  localparam int XW = UIW > NIW ? (UIW > GIW ? (UIW > AIW ? UIW : AIW) : (GIW > AIW ? GIW : AIW))
                                : (NIW > GIW ? (NIW > AIW ? NIW : AIW) : (GIW > AIW ? GIW : AIW));
  // Word indexes: an entry's index times its words per entry, and a bit for
  // the row past the last (accelc_buffer). Words per entry reach E / W: 256
  // for a 256-byte weight entry on a one-byte bus. At least 6 bits of words
  // (64), the width of every preset's core.
  localparam int WPE_A = E_UOP / G_UOP > E_INP / G_INP ? E_UOP / G_UOP : E_INP / G_INP;
  localparam int WPE_B = E_WGT / G_WGT > E_ACC / G_ACC ? E_WGT / G_WGT : E_ACC / G_ACC;
  localparam int WPE_C = WPE_A > WPE_B ? WPE_A : WPE_B;
  localparam int WPE = WPE_C > E_OUT / G_OUT ? WPE_C : E_OUT / G_OUT;
  localparam int FW = XW + (WPE > 64 ? $clog2(WPE) : 6) + 1;

  // ---- the DMA engines ----
  // Each unit's transfers (accelc_transfer, below).
  logic [2:0]      dma_start, dma_finish, dma_valid, dma_wr, dma_narrow;
  logic [BB-1:0]   dma_beats[3];
  logic [AB-1:0]   dma_req_addr[3];
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0]     dma_rows[3], dma_xs[3];  // the store path alone reads its unit's
  logic [31:0]     data_off[3];  // below a row's bytes
  /* verilator lint_on UNUSEDSIGNAL */
  logic [XW-1:0]   data_base[3], pad_entry[3];
  logic [2:0]      pad_valid;
  // The port requester of each unit.
  function automatic int rqOf(input int u);
    rqOf = u == LD ? RQ_LOAD : u == CP ? RQ_COMPUTE : RQ_STORE;
  endfunction

  // The token queue each flag of unit `u` uses (accelc_isa_pkg's, from isa/tokens.h); -1: none.
  function automatic int popPrevQ(input int u);
    popPrevQ = u == LD ? accelc_isa_pkg::LOAD_POP_PREV_Q : u == CP ? accelc_isa_pkg::COMPUTE_POP_PREV_Q
                                                                   : accelc_isa_pkg::STORE_POP_PREV_Q;
  endfunction
  function automatic int popNextQ(input int u);
    popNextQ = u == LD ? accelc_isa_pkg::LOAD_POP_NEXT_Q : u == CP ? accelc_isa_pkg::COMPUTE_POP_NEXT_Q
                                                                   : accelc_isa_pkg::STORE_POP_NEXT_Q;
  endfunction
  function automatic int pushPrevQ(input int u);
    pushPrevQ = u == LD ? accelc_isa_pkg::LOAD_PUSH_PREV_Q : u == CP ? accelc_isa_pkg::COMPUTE_PUSH_PREV_Q
                                                                     : accelc_isa_pkg::STORE_PUSH_PREV_Q;
  endfunction
  function automatic int pushNextQ(input int u);
    pushNextQ = u == LD ? accelc_isa_pkg::LOAD_PUSH_NEXT_Q : u == CP ? accelc_isa_pkg::COMPUTE_PUSH_NEXT_Q
                                                                     : accelc_isa_pkg::STORE_PUSH_NEXT_Q;
  endfunction

  // ---- command queues (accelc_cmd_queue, below) ----
  logic [CW-1:0] cq_count[3];
  logic [IW-1:0] head[3];  // the head instruction of each unit

  // ---- fetch (accelc_fetch) ----
  logic [IW-1:0] fetch_insn;  // the instruction fetch dispatches
  logic [1:0]    target;      // ... to this unit
  logic          dispatch;
  logic          cq_room;     // the target's command queue has room
  assign cq_room = cq_count[target] < CW'(CD);
  logic            fetch_req;
  logic [BB-1:0]   fetch_beats;
  logic [AB-1:0]   fetch_addr;
  accelc_fetch fetch (
      .clk, .rst, .start, .running, .insn_count, .insn_addr, .room(cq_room), .req_valid(fetch_req),
      .req_beats(fetch_beats), .req_addr(fetch_addr), .req_accept(rq_accept[RQ_FETCH]), .req_done(rq_done[RQ_FETCH]),
      .beat(rbeat_valid && 32'(rbeat_req) == RQ_FETCH), .mem_rdata, .insn(fetch_insn), .target,
      .dispatch, .error, .error_pc);

  // ---- units ----
  logic [2:0]    busy, is_dma;
  // A GEMM/ALU ends PIPELINE_DEPTH + II - 1 cycles after its last application
  // issues (the contract's depth + N * II after its start): a down counter.
  localparam int DRAIN_GEMM = accelc_hw_pkg::PIPELINE_DEPTH + accelc_hw_pkg::GEMM_II - 1;
  localparam int DRAIN_ALU = accelc_hw_pkg::PIPELINE_DEPTH + accelc_hw_pkg::ALU_II - 1;
  logic [7:0]    drain;      // cycles left after the last issue; 0: not draining
  logic          cp_gemm;    // the compute unit runs a GEMM (else an ALU)
  logic          ex_last;    // the running GEMM/ALU issues its last application now
  logic [3:0]    pushes[3];  // the running instruction's pushes, by queue
  logic          finishing;  // compute waits at FINISH
  logic [2:0]    end_now, free, idle;
  for (genvar u = 0; u < 3; u++) begin : ends
    assign end_now[u] = busy[u] && (is_dma[u] ? dma_finish[u] : u == CP && drain == 8'd1);
    assign free[u] = !busy[u] || end_now[u];
    assign idle[u] = free[u] && cq_count[u] == '0;
  end

  // The token pops and pushes of each unit's head instruction, by queue.
  logic [3:0]    pops_of[3], pushes_of[3];
  always_comb begin
    for (int u = 0; u < 3; u++) begin
      logic pp, pn, sp, sn;
      case (32'(opcodeOf(head[u])))  // each format places its token flags where the ISA says
        accelc_isa_pkg::OPCODE_GEMM: begin
          pp = head[u][accelc_isa_pkg::GEMM_POP_PREV_LO];
          pn = head[u][accelc_isa_pkg::GEMM_POP_NEXT_LO];
          sp = head[u][accelc_isa_pkg::GEMM_PUSH_PREV_LO];
          sn = head[u][accelc_isa_pkg::GEMM_PUSH_NEXT_LO];
        end
        accelc_isa_pkg::OPCODE_ALU: begin
          pp = head[u][accelc_isa_pkg::ALU_POP_PREV_LO];
          pn = head[u][accelc_isa_pkg::ALU_POP_NEXT_LO];
          sp = head[u][accelc_isa_pkg::ALU_PUSH_PREV_LO];
          sn = head[u][accelc_isa_pkg::ALU_PUSH_NEXT_LO];
        end
        accelc_isa_pkg::OPCODE_FINISH: begin
          pp = head[u][accelc_isa_pkg::FINISH_POP_PREV_LO];
          pn = head[u][accelc_isa_pkg::FINISH_POP_NEXT_LO];
          sp = head[u][accelc_isa_pkg::FINISH_PUSH_PREV_LO];
          sn = head[u][accelc_isa_pkg::FINISH_PUSH_NEXT_LO];
        end
        accelc_isa_pkg::OPCODE_LOAD, accelc_isa_pkg::OPCODE_STORE: begin
          pp = head[u][accelc_isa_pkg::MEM_POP_PREV_LO];
          pn = head[u][accelc_isa_pkg::MEM_POP_NEXT_LO];
          sp = head[u][accelc_isa_pkg::MEM_PUSH_PREV_LO];
          sn = head[u][accelc_isa_pkg::MEM_PUSH_NEXT_LO];
        end
        default: {pp, pn, sp, sn} = '0;  // an unknown opcode: never dispatched (knownInsn)
      endcase
      for (int q = 0; q < 4; q++) begin
        pops_of[u][q] = (popPrevQ(u) == q && pp) || (popNextQ(u) == q && pn);
        pushes_of[u][q] = (pushPrevQ(u) == q && sp) || (pushNextQ(u) == q && sn);
      end
    end
  end

  // Which units start this cycle, and the token queues (accelc_token_issue).
  logic [2:0] go, ready;
  for (genvar u = 0; u < 3; u++) begin : readiness
    assign ready[u] = free[u] && cq_count[u] != '0 && !(u == CP && finishing);
  end
  accelc_token_issue #(.TD(TD), .TW(TW)) tokens (
      .clk, .rst, .ready, .head_pops({pops_of[2], pops_of[1], pops_of[0]}),
      .head_pushes({pushes_of[2], pushes_of[1], pushes_of[0]}), .end_now,
      .run_pushes({pushes[2], pushes[1], pushes[0]}), .go);

  for (genvar u = 0; u < 3; u++) begin : cqs
    accelc_cmd_queue #(.DEPTH(CD), .WIDTH(IW), .RAM(CD >= accelc_hw_pkg::QUEUE_RAM_MIN_DEPTH), .QI(QI), .CW(CW)) queue (
        .clk, .rst, .push(dispatch && 32'(target) == u), .wdata(fetch_insn), .pop(go[u]), .head(head[u]),
        .count(cq_count[u]));
  end

  // Each unit's LOADs and STOREs: the transfer of its head instruction, its
  // DMA engine, and what the running transfer writes.
  localparam int EMAX = E_WGT > E_ACC ? E_WGT : E_ACC;
  localparam int RB = accelc_isa_pkg::MEM_X_SIZE_BITS + $clog2(EMAX) + 1;  // a row's bytes: x_size entries of the largest
  logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0] xfer_buf[3];
  logic [XW-1:0] xfer_first[3];
  logic [RB-1:0] dma_row_bytes_q[3];
  for (genvar u = 0; u < 3; u++) begin : xfer
    accelc_transfer #(.U(u), .XW(XW), .RB(RB)) unit (
        .clk, .rst, .insn(head[u]), .go(go[u]), .dram_base, .start(dma_start[u]), .finish(dma_finish[u]),
        .req_valid(dma_valid[u]), .req_write(dma_wr[u]), .req_narrow(dma_narrow[u]), .req_beats(dma_beats[u]), .req_addr(dma_req_addr[u]),
        .req_accept(rq_accept[rqOf(u)]), .done(rq_done[rqOf(u)]), .beat(u == ST ? wbeat_valid : rbeat_valid && 32'(rbeat_req) == rqOf(u)),
        .data_base(data_base[u]), .data_off(data_off[u]), .pad_valid(pad_valid[u]), .pad_entry(pad_entry[u]),
        .xfer_buf(xfer_buf[u]), .xfer_first(xfer_first[u]), .row_bytes_q(dma_row_bytes_q[u]), .rows(dma_rows[u]),
        .xs(dma_xs[u]));
  end

  // ---- the port's requesters ----
  always_comb begin
    rq_valid = '0;
    rq_write = '0;
    rq_narrow = '0;
    rq_beats = '0;
    rq_valid[RQ_FETCH] = fetch_req;
    rq_beats[RQ_FETCH*BB +: BB] = fetch_beats;
    rq_addr = '0;
    rq_addr[RQ_FETCH*AB +: AB] = fetch_addr;
    for (int u = 0; u < 3; u++) begin
      rq_addr[rqOf(u)*AB +: AB] = dma_req_addr[u];
      rq_valid[rqOf(u)] = dma_valid[u];
      rq_write[rqOf(u)] = dma_wr[u];
      rq_narrow[rqOf(u)] = dma_narrow[u];
      rq_beats[rqOf(u)*BB +: BB] = dma_beats[u];
    end
  end

  // ---- the datapath ----

  // A read beat's destination, from its unit's data cursor: the buffer, the
  // first word, the number of words. The data comes the next cycle.
  logic        rd_v;
  logic [1:0]  rd_unit;
  logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0] rd_buf;
  logic [FW-1:0] rd_word;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [31:0] rd_words;  // at most a bank count
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk) begin
    if (rst) rd_v <= 1'b0;
    else begin
      rd_v <= rbeat_valid && 32'(rbeat_req) != RQ_FETCH;
      rd_unit <= 2'(32'(rbeat_req) == RQ_LOAD ? LD : CP);
      if (rbeat_valid && 32'(rbeat_req) != RQ_FETCH) begin
        logic [1:0] u;
        logic [4:0] led, les, lg;  // log2 of the DRAM entry bytes, the buffer's entry bytes, the word bytes
        logic [XW-1:0] ent;
        logic [31:0] entry, byte_in;
        logic [RB-1:0] off, rest, bytes;
        u = 2'(32'(rbeat_req) == RQ_LOAD ? LD : CP);
        case (32'(xfer_buf[u]))  // every size is a power of two: shifts, no division
          accelc_isa_pkg::BUFFER_UOP: {led, les, lg} = {5'($clog2(E_UOP)), 5'($clog2(E_UOP)), 5'($clog2(G_UOP))};
          accelc_isa_pkg::BUFFER_INP: {led, les, lg} = {5'($clog2(E_INP)), 5'($clog2(E_INP)), 5'($clog2(G_INP))};
          accelc_isa_pkg::BUFFER_WGT: {led, les, lg} = {5'($clog2(E_WGT)), 5'($clog2(E_WGT)), 5'($clog2(G_WGT))};
          accelc_isa_pkg::BUFFER_ACC: {led, les, lg} = {5'($clog2(E_ACC)), 5'($clog2(E_ACC)), 5'($clog2(G_ACC))};
          accelc_isa_pkg::BUFFER_ACC8: {led, les, lg} = {5'($clog2(E_ACC8)), 5'($clog2(E_ACC)), 5'($clog2(G_ACC))};  // each byte widens to 4
          default: {led, les, lg} = '0;  // out, or an unknown buffer: never a LOAD's (the simulators refuse it)
        endcase
        ent = xfer_first[u] + data_base[u] + XW'(data_off[u] >> led);
        entry = 32'(ent);
        byte_in = (data_off[u] & ((32'd1 << led) - 32'd1)) << (les - led);
        off = RB'(data_off[u]);
        rest = dma_row_bytes_q[u] - off;
        // a narrow acc8 beat carries one row (E_ACC8 bytes)
        bytes = 32'(xfer_buf[u]) == accelc_isa_pkg::BUFFER_ACC8 && ACC8_BEAT < W ? (rest > RB'(ACC8_BEAT) ? RB'(ACC8_BEAT) : rest)
                                                                           : (rest > RB'(W) ? RB'(W) : rest);
        rd_buf <= xfer_buf[u];
        rd_word <= FW'((entry << (les - lg)) + (byte_in >> lg));
        rd_words <= (32'(bytes) << (les - led)) >> lg;
      end
    end
  end

  // GEMM and ALU.
  logic          ex_start;
  assign ex_start = go[CP] && (32'(opcodeOf(head[CP])) == accelc_isa_pkg::OPCODE_GEMM ||
                               32'(opcodeOf(head[CP])) == accelc_isa_pkg::OPCODE_ALU);
  logic          uop_re, inp_re, wgt_re, acc_we;
  logic [1:0]    acc_re;
  logic [UIW-1:0] uop_idx;
  logic [NIW-1:0] inp_idx;
  logic [GIW-1:0] wgt_idx;
  logic [2*AIW-1:0] acc_ridx;
  logic [AIW-1:0] acc_widx;
  logic [accelc_isa_pkg::UOP_BITS-1:0] uop_data;
  logic [E_INP*8-1:0] inp_data;
  logic [E_WGT*8-1:0] wgt_data;
  logic [2*E_ACC*8-1:0] acc_rdata;
  logic [E_ACC*8-1:0] acc_wdata;
  logic [E_OUT*8-1:0] out_wdata;
  accelc_exec #(.UW(UIW), .NW(NIW), .GW(GIW), .AW(AIW)) exec (
      .clk, .rst, .start(ex_start), .insn(head[CP]), .last_issue(ex_last), .uop_re, .uop_idx, .uop_data, .inp_re, .inp_idx, .inp_data,
      .wgt_re, .wgt_idx, .wgt_data, .acc_re, .acc_ridx, .acc_rdata, .acc_we, .acc_widx, .acc_wdata, .out_wdata);

  // The buffers' DMA writes (data beats) and entry writes (padding, GEMM/ALU rows).
  logic rd_uop, rd_inp, rd_wgt, rd_acc, rd_acc8;
  assign rd_uop = rd_v && rd_unit == 2'(CP) && 32'(rd_buf) == accelc_isa_pkg::BUFFER_UOP;
  assign rd_inp = rd_v && rd_unit == 2'(LD) && 32'(rd_buf) == accelc_isa_pkg::BUFFER_INP;
  assign rd_wgt = rd_v && rd_unit == 2'(LD) && 32'(rd_buf) == accelc_isa_pkg::BUFFER_WGT;
  assign rd_acc8 = rd_v && rd_unit == 2'(CP) && 32'(rd_buf) == accelc_isa_pkg::BUFFER_ACC8;
  assign rd_acc = rd_v && rd_unit == 2'(CP) && (32'(rd_buf) == accelc_isa_pkg::BUFFER_ACC || rd_acc8);
  function automatic logic padsInto(input logic v, input logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0] b, input int k);
    padsInto = v && (32'(b) == k || (k == accelc_isa_pkg::BUFFER_ACC && 32'(b) == accelc_isa_pkg::BUFFER_ACC8));
  endfunction

  accelc_buffer #(.DEPTH(D_UOP), .EBYTES(E_UOP), .G(G_UOP), .NB(NB_UOP), .READS(1), .IW(UIW), .FW(FW)) uop_buf (
      .clk, .dw_en(rd_uop), .dw_word(rd_word), .dw_n($clog2(NB_UOP + 1)'(rd_words)),
      .dw_data((NB_UOP*G_UOP*8)'(mem_rdata)),
      .ew_en(padsInto(pad_valid[CP], xfer_buf[CP], accelc_isa_pkg::BUFFER_UOP)), .ew_idx(UIW'(pad_entry[CP])),
      .ew_data('0), .re(uop_re), .ridx(uop_idx), .rdata(uop_data));
  accelc_buffer #(.DEPTH(D_INP), .EBYTES(E_INP), .G(G_INP), .NB(NB_INP), .READS(1), .IW(NIW), .FW(FW)) inp_buf (
      .clk, .dw_en(rd_inp), .dw_word(rd_word), .dw_n($clog2(NB_INP + 1)'(rd_words)),
      .dw_data((NB_INP*G_INP*8)'(mem_rdata)),
      .ew_en(padsInto(pad_valid[LD], xfer_buf[LD], accelc_isa_pkg::BUFFER_INP)), .ew_idx(NIW'(pad_entry[LD])),
      .ew_data('0), .re(inp_re), .ridx(inp_idx), .rdata(inp_data));
  accelc_buffer #(.DEPTH(D_WGT), .EBYTES(E_WGT), .G(G_WGT), .NB(NB_WGT), .READS(1), .IW(GIW), .FW(FW)) wgt_buf (
      .clk, .dw_en(rd_wgt), .dw_word(rd_word), .dw_n($clog2(NB_WGT + 1)'(rd_words)),
      .dw_data((NB_WGT*G_WGT*8)'(mem_rdata)),
      .ew_en(padsInto(pad_valid[LD], xfer_buf[LD], accelc_isa_pkg::BUFFER_WGT)), .ew_idx(GIW'(pad_entry[LD])),
      .ew_data('0), .re(wgt_re), .ridx(wgt_idx), .rdata(wgt_data));
  // The beat's data as the accumulator's words: acc8 bytes sign-extended to int32.
  logic [NB_ACC*G_ACC*8-1:0] rd_acc_data;
  always_comb begin
    rd_acc_data = '0;
    if (rd_acc8)
      for (int i = 0; i < ACC8_BEAT; i++) rd_acc_data[32*i +: 32] = 32'($signed(mem_rdata[8*i +: 8]));
    else rd_acc_data[W*8-1:0] = mem_rdata;
  end

  logic acc_pad;
  assign acc_pad = padsInto(pad_valid[CP], xfer_buf[CP], accelc_isa_pkg::BUFFER_ACC);
  accelc_buffer #(.DEPTH(D_ACC), .EBYTES(E_ACC), .G(G_ACC), .NB(NB_ACC), .READS(2), .IW(AIW), .FW(FW)) acc_buf (
      .clk, .dw_en(rd_acc), .dw_word(rd_word), .dw_n($clog2(NB_ACC + 1)'(rd_words)),
      .dw_data(rd_acc_data),
      .ew_en(acc_we || acc_pad), .ew_idx(acc_we ? acc_widx : AIW'(pad_entry[CP])), .ew_data(acc_we ? acc_wdata : '0),
      .re(acc_re), .ridx(acc_ridx), .rdata(acc_rdata));

  // The output buffer and the STORE's read-ahead (accelc_store_path).
  logic st_take;
  assign st_take = wbeat_valid;
  accelc_store_path #(.DEPTH(D_OUT), .E(E_OUT), .G(G_OUT), .NB(NB_OUT), .IW(OIW), .FW(FW), .W(W),
                      .YB(accelc_isa_pkg::MEM_Y_SIZE_BITS), .XB(accelc_isa_pkg::MEM_X_SIZE_BITS)) store_path (
      .clk, .rst, .out_we(acc_we), .out_widx(OIW'(acc_widx)), .out_wdata, .start(dma_start[ST]),
      .base(OIW'(head[ST][accelc_isa_pkg::MEM_SRAM_BASE_LO +: accelc_isa_pkg::MEM_SRAM_BASE_BITS])),
      .rows(dma_rows[ST]), .xs(dma_xs[ST]), .take(st_take), .mem_wdata);

  logic finish_now;  // FINISH retires this cycle: the load and store units are idle
  assign finish_now = running && idle[LD] && idle[ST] &&
                      (finishing || (go[CP] && 32'(opcodeOf(head[CP])) == accelc_isa_pkg::OPCODE_FINISH));

  always_ff @(posedge clk) begin
    if (rst) begin
      running <= 1'b0;
      done <= 1'b0;
      cycles <= '0;
      finishing <= 1'b0;
      busy <= '0;
      is_dma <= '0;
      drain <= '0;
      cp_gemm <= 1'b0;
      for (int u = 0; u < 3; u++) pushes[u] <= '0;
    end else begin
      done <= finish_now;
      if (running) cycles <= cycles + 64'd1;
      if (start && !running) begin
        cycles <= '0;
        running <= 1'b1;
      end else begin
        if (finish_now) begin
          running <= 1'b0;
          finishing <= 1'b0;
        end
        for (int u = 0; u < 3; u++) begin
          if (go[u]) begin
            pushes[u] <= pushes_of[u];
            if (32'(opcodeOf(head[u])) == accelc_isa_pkg::OPCODE_FINISH) begin
              busy[u] <= 1'b0;
              finishing <= !finish_now;
            end else if (dma_start[u]) begin
              busy[u] <= 1'b1;
              is_dma[u] <= 1'b1;
            end else begin
              busy[u] <= 1'b1;
              is_dma[u] <= 1'b0;
            end
          end else if (end_now[u]) begin
            busy[u] <= 1'b0;
          end
        end
        if (ex_start) cp_gemm <= 32'(opcodeOf(head[CP])) == accelc_isa_pkg::OPCODE_GEMM;
        if (ex_last) drain <= 8'(cp_gemm ? DRAIN_GEMM : DRAIN_ALU);
        else if (drain != '0) drain <= drain - 8'd1;
      end
    end
  end
endmodule
