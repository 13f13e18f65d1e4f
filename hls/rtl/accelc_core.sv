// hls/rtl/accelc_core.sv — the accelerator's control: fetch, the command and
// token queues, the load, compute and store units with their DMA engines, the
// DRAM port and FINISH, cycle for cycle as docs/microarchitecture.md says.
// The datapath (buffers, GEMM core, ALU) is not in this version: instructions
// take their contract cycles and move no data. Instruction words come from
// `fetch_insn`, the word at `fetch_pc`, once the text burst that holds it has
// arrived through the port.
//
// Runs are separated by `rst`: a run's fetch bursts may still be in flight
// when FINISH retires. Programs are assumed legal (the simulators diagnose
// illegal ones): FINISH's own token pushes, tokens left at FINISH, flags a
// unit has no queue for and GEMM/ALU loops of no cycles are not reported.
module accelc_core (
    input  logic                                 clk,
    input  logic                                 rst,
    input  logic                                 start,       // a run begins: the next cycle is its cycle 0
    input  logic [31:0]                          insn_count,  // instructions in the text
    output logic [31:0]                          fetch_pc,
    input  logic [accelc_isa_pkg::INSN_BITS-1:0] fetch_insn,
    output logic                                 running,
    output logic                                 done         // the cycle after FINISH retires: the run's count
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
  // Units (load, compute, store), DRAM requesters, token queues.
  localparam int LD = 0, CP = 1, ST = 2;
  localparam int RQ_FETCH = 0, RQ_COMPUTE = 1, RQ_LOAD = 2, RQ_STORE = 3;
  localparam int L2C = 0, C2L = 1, C2S = 2, S2C = 3;

  // ---- instruction fields ----
  /* verilator lint_off UNUSEDSIGNAL */
  function automatic logic [accelc_isa_pkg::OPCODE_BITS-1:0] opcodeOf(input logic [IW-1:0] w);
    opcodeOf = w[0 +: accelc_isa_pkg::OPCODE_BITS];
  endfunction
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- the DRAM port and the DMA engines ----
  logic [NR-1:0]    rq_valid, rq_write, rq_accept, rq_done;
  logic [NR*BB-1:0] rq_beats;
  accelc_dram_port port (
      .clk, .rst, .req_valid(rq_valid), .req_write(rq_write), .req_beats(rq_beats), .req_accept(rq_accept),
      .done(rq_done));

  logic [2:0]      dma_start, dma_finish, dma_valid, dma_wr;
  logic [BB-1:0]   dma_beats[3];
  logic [31:0]     dma_rows[3], dma_row_bytes[3], dma_pads[3];
  logic            dma_write[3];
  // The port requester of each unit.
  function automatic int rqOf(input int u);
    rqOf = u == LD ? RQ_LOAD : u == CP ? RQ_COMPUTE : RQ_STORE;
  endfunction
  for (genvar u = 0; u < 3; u++) begin : dma
    accelc_dma engine (
        .clk, .rst, .start(dma_start[u]), .write(dma_write[u]), .rows(dma_rows[u]), .row_bytes(dma_row_bytes[u]),
        .pads(dma_pads[u]), .req_valid(dma_valid[u]), .req_write(dma_wr[u]), .req_beats(dma_beats[u]),
        .req_accept(rq_accept[rqOf(u)]), .done(rq_done[rqOf(u)]), .finish(dma_finish[u]));
  end

  // ---- fetch ----
  logic [31:0] pc, req_next, allowed, arrived;
  logic        fetching;
  logic [63:0] text_bytes;
  logic [31:0] text_bursts, req_bytes;
  assign text_bytes = 64'(insn_count) * 64'(IB);
  assign text_bursts = 32'((text_bytes + 64'(B) - 64'd1) / 64'(B));
  assign req_bytes = 32'(text_bytes - 64'(req_next) * 64'(B) > 64'(B) ? 64'(B) : text_bytes - 64'(req_next) * 64'(B));
  logic fetch_req;
  assign fetch_req = running && req_next < text_bursts && req_next <= allowed;
  assign fetch_pc = pc;

  // The unit an instruction runs on (LOADs to uop/acc/acc8 run on compute).
  function automatic int unitOf(input logic [IW-1:0] w);
    logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0] buf_;
    buf_ = w[accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS];
    if (32'(opcodeOf(w)) == accelc_isa_pkg::OPCODE_STORE) unitOf = ST;
    else if (32'(opcodeOf(w)) == accelc_isa_pkg::OPCODE_LOAD &&
             (32'(buf_) == accelc_isa_pkg::BUFFER_INP || 32'(buf_) == accelc_isa_pkg::BUFFER_WGT)) unitOf = LD;
    else unitOf = CP;
  endfunction

  // ---- command queues (registered FIFOs: a push is visible the next cycle) ----
  logic [IW-1:0] cq[3][CD];
  logic [QI-1:0] cq_head[3], cq_tail[3];
  logic [CW-1:0] cq_count[3];

  logic [31:0] arrived_now;
  assign arrived_now = arrived + 32'(rq_done[RQ_FETCH]);
  logic [31:0] insn_burst;
  assign insn_burst = 32'((64'(pc) * 64'(IB)) / 64'(B));
  int target;
  assign target = unitOf(fetch_insn);
  logic dispatch;
  assign dispatch = fetching && pc < insn_count && insn_burst < arrived_now && cq_count[target] < CW'(CD);
  logic burst_last;
  assign burst_last = pc + 32'd1 == insn_count || 32'(((64'(pc) + 64'd1) * 64'(IB)) / 64'(B)) != insn_burst;

  // ---- units ----
  logic [TW-1:0] tok[4];
  logic [2:0]    busy, is_dma;
  logic [63:0]   count[3];  // GEMM/ALU cycles left: the product of three loop fields fits 64 bits
  logic [3:0]    pushes[3];  // the running instruction's pushes, by queue
  logic          finishing;  // compute waits at FINISH
  logic [2:0]    end_now, free, idle;
  for (genvar u = 0; u < 3; u++) begin : ends
    assign end_now[u] = busy[u] && (is_dma[u] ? dma_finish[u] : count[u] == 64'd1);
    assign free[u] = !busy[u] || end_now[u];
    assign idle[u] = free[u] && cq_count[u] == '0;
  end

  // The head instruction of each unit: its token pops and pushes, by queue.
  logic [IW-1:0] head[3];
  logic [3:0]    pops_of[3], pushes_of[3];
  always_comb begin
    for (int u = 0; u < 3; u++) begin
      logic pp, pn, sp, sn;
      head[u] = cq[u][cq_head[u]];
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
        default: begin
          pp = head[u][accelc_isa_pkg::MEM_POP_PREV_LO];
          pn = head[u][accelc_isa_pkg::MEM_POP_NEXT_LO];
          sp = head[u][accelc_isa_pkg::MEM_PUSH_PREV_LO];
          sn = head[u][accelc_isa_pkg::MEM_PUSH_NEXT_LO];
        end
      endcase
      pops_of[u] = '0;
      pushes_of[u] = '0;
      case (u)
        LD: begin
          pops_of[u][C2L] = pn;
          pushes_of[u][L2C] = sn;
        end
        CP: begin
          pops_of[u][L2C] = pp;
          pops_of[u][S2C] = pn;
          pushes_of[u][C2L] = sp;
          pushes_of[u][C2S] = sn;
        end
        default: begin
          pops_of[u][C2S] = pp;
          pushes_of[u][S2C] = sp;
        end
      endcase
    end
  end

  // Tokens pushed this cycle (by units ending an instruction).
  logic [3:0] push_now;
  always_comb begin
    push_now = '0;
    for (int u = 0; u < 3; u++)
      if (end_now[u]) push_now = push_now | pushes[u];
  end

  // Which units start this cycle: a unit may start when its command is there,
  // each token it pops is visible and each queue it pushes has room, a slot
  // popped in this cycle counting as room; iterating over the units that
  // start reaches the same answer as letting each wait for the others' pops.
  logic [2:0] go;
  logic [3:0] pop_now;
  always_comb begin
    logic [2:0] can;
    logic [3:0] popped;
    popped = '0;
    can = '0;
    for (int it = 0; it < 3; it++) begin
      for (int u = 0; u < 3; u++) begin
        can[u] = free[u] && cq_count[u] != '0 && !(u == CP && finishing);
        for (int q = 0; q < 4; q++) begin
          if (pops_of[u][q] && tok[q] == '0) can[u] = 1'b0;
          if (pushes_of[u][q] && (TW + 1)'(tok[q]) + (TW + 1)'(push_now[q]) - (TW + 1)'(popped[q]) >= (TW + 1)'(TD))
            can[u] = 1'b0;
        end
      end
      popped = '0;
      for (int u = 0; u < 3; u++)
        if (can[u]) popped = popped | pops_of[u];
    end
    go = can;
    pop_now = popped;
  end

  // The DMA engines' transfers, from the head instructions.
  always_comb begin
    for (int u = 0; u < 3; u++) begin
      logic [31:0] ys, xs, yp0, yp1, xp0, xp1, entry;
      logic [accelc_isa_pkg::MEM_BUFFER_BITS-1:0] b;
      logic load;
      ys = 32'(head[u][accelc_isa_pkg::MEM_Y_SIZE_LO +: accelc_isa_pkg::MEM_Y_SIZE_BITS]);
      xs = 32'(head[u][accelc_isa_pkg::MEM_X_SIZE_LO +: accelc_isa_pkg::MEM_X_SIZE_BITS]);
      yp0 = 32'(head[u][accelc_isa_pkg::MEM_Y_PAD_0_LO +: accelc_isa_pkg::MEM_Y_PAD_0_BITS]);
      yp1 = 32'(head[u][accelc_isa_pkg::MEM_Y_PAD_1_LO +: accelc_isa_pkg::MEM_Y_PAD_1_BITS]);
      xp0 = 32'(head[u][accelc_isa_pkg::MEM_X_PAD_0_LO +: accelc_isa_pkg::MEM_X_PAD_0_BITS]);
      xp1 = 32'(head[u][accelc_isa_pkg::MEM_X_PAD_1_LO +: accelc_isa_pkg::MEM_X_PAD_1_BITS]);
      b = head[u][accelc_isa_pkg::MEM_BUFFER_LO +: accelc_isa_pkg::MEM_BUFFER_BITS];
      case (32'(b))
        accelc_isa_pkg::BUFFER_UOP: entry = 32'(accelc_hw_pkg::ENTRY_BYTES_UOP);
        accelc_isa_pkg::BUFFER_WGT: entry = 32'(accelc_hw_pkg::ENTRY_BYTES_WGT);
        accelc_isa_pkg::BUFFER_INP: entry = 32'(accelc_hw_pkg::ENTRY_BYTES_INP);
        accelc_isa_pkg::BUFFER_ACC: entry = 32'(accelc_hw_pkg::ENTRY_BYTES_ACC);
        accelc_isa_pkg::BUFFER_OUT: entry = 32'(accelc_hw_pkg::ENTRY_BYTES_OUT);
        default: entry = 32'(accelc_hw_pkg::ENTRY_BYTES_ACC8);
      endcase
      load = 32'(opcodeOf(head[u])) == accelc_isa_pkg::OPCODE_LOAD;
      dma_write[u] = !load;
      dma_rows[u] = ys;
      dma_row_bytes[u] = xs * entry;
      dma_pads[u] = load ? (yp0 + ys + yp1) * (xp0 + xs + xp1) - ys * xs : 32'd0;
      dma_start[u] = go[u] && (load || 32'(opcodeOf(head[u])) == accelc_isa_pkg::OPCODE_STORE);
    end
  end

  // GEMM and ALU: the pipeline depth plus one initiation interval per micro-op application.
  function automatic logic [63:0] computeCycles(input logic [IW-1:0] w);
    logic [63:0] iter_out, iter_in, bgn, fin, ii;
    if (32'(opcodeOf(w)) == accelc_isa_pkg::OPCODE_GEMM) begin
      iter_out = 64'(w[accelc_isa_pkg::GEMM_ITER_OUT_LO +: accelc_isa_pkg::GEMM_ITER_OUT_BITS]);
      iter_in = 64'(w[accelc_isa_pkg::GEMM_ITER_IN_LO +: accelc_isa_pkg::GEMM_ITER_IN_BITS]);
      bgn = 64'(w[accelc_isa_pkg::GEMM_UOP_BGN_LO +: accelc_isa_pkg::GEMM_UOP_BGN_BITS]);
      fin = 64'(w[accelc_isa_pkg::GEMM_UOP_END_LO +: accelc_isa_pkg::GEMM_UOP_END_BITS]);
      ii = 64'(accelc_hw_pkg::GEMM_II);
    end else begin
      iter_out = 64'(w[accelc_isa_pkg::ALU_ITER_OUT_LO +: accelc_isa_pkg::ALU_ITER_OUT_BITS]);
      iter_in = 64'(w[accelc_isa_pkg::ALU_ITER_IN_LO +: accelc_isa_pkg::ALU_ITER_IN_BITS]);
      bgn = 64'(w[accelc_isa_pkg::ALU_UOP_BGN_LO +: accelc_isa_pkg::ALU_UOP_BGN_BITS]);
      fin = 64'(w[accelc_isa_pkg::ALU_UOP_END_LO +: accelc_isa_pkg::ALU_UOP_END_BITS]);
      ii = 64'(accelc_hw_pkg::ALU_II);
    end
    computeCycles = 64'(accelc_hw_pkg::PIPELINE_DEPTH) + iter_out * iter_in * (fin - bgn) * ii;
  endfunction

  // ---- the port's requesters ----
  always_comb begin
    rq_valid = '0;
    rq_write = '0;
    rq_beats = '0;
    rq_valid[RQ_FETCH] = fetch_req;
    rq_beats[RQ_FETCH*BB +: BB] = BB'((req_bytes + 32'(W - 1)) / 32'(W));
    for (int u = 0; u < 3; u++) begin
      rq_valid[rqOf(u)] = dma_valid[u];
      rq_write[rqOf(u)] = dma_wr[u];
      rq_beats[rqOf(u)*BB +: BB] = dma_beats[u];
    end
  end

  logic finish_now;  // FINISH retires this cycle: the load and store units are idle
  assign finish_now = running && idle[LD] && idle[ST] &&
                      (finishing || (go[CP] && 32'(opcodeOf(head[CP])) == accelc_isa_pkg::OPCODE_FINISH));

  always_ff @(posedge clk) begin
    if (rst) begin
      running <= 1'b0;
      done <= 1'b0;
      fetching <= 1'b0;
      pc <= '0;
      req_next <= '0;
      allowed <= '0;
      arrived <= '0;
      finishing <= 1'b0;
      busy <= '0;
      is_dma <= '0;
      for (int u = 0; u < 3; u++) begin
        cq_head[u] <= '0;
        cq_tail[u] <= '0;
        cq_count[u] <= '0;
        count[u] <= '0;
        pushes[u] <= '0;
      end
      for (int q = 0; q < 4; q++) tok[q] <= '0;
    end else begin
      done <= finish_now;
      if (start && !running) begin
        running <= 1'b1;
        fetching <= 1'b1;
        pc <= '0;
        req_next <= '0;
        allowed <= 32'd1;  // bursts 0 and 1 in cycle 0: a buffer of two bursts
        arrived <= '0;
      end else begin
        if (finish_now) begin
          running <= 1'b0;
          finishing <= 1'b0;
        end
        if (fetch_req && rq_accept[RQ_FETCH]) req_next <= req_next + 32'd1;
        arrived <= arrived_now;
        if (dispatch) begin
          cq[target][cq_tail[target]] <= fetch_insn;
          cq_tail[target] <= cq_tail[target] == QI'(CD - 1) ? '0 : cq_tail[target] + QI'(1);
          pc <= pc + 32'd1;
          if (burst_last) allowed <= insn_burst + 32'd2;
          if (32'(opcodeOf(fetch_insn)) == accelc_isa_pkg::OPCODE_FINISH) fetching <= 1'b0;
        end
        for (int u = 0; u < 3; u++) begin
          cq_count[u] <= cq_count[u] + CW'(dispatch && target == u) - CW'(go[u]);
          if (go[u]) begin
            cq_head[u] <= cq_head[u] == QI'(CD - 1) ? '0 : cq_head[u] + QI'(1);
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
              count[u] <= computeCycles(head[u]);
            end
          end else begin
            if (end_now[u]) busy[u] <= 1'b0;
            if (busy[u] && !is_dma[u]) count[u] <= count[u] - 64'd1;
          end
        end
        for (int q = 0; q < 4; q++) tok[q] <= tok[q] + TW'(push_now[q]) - TW'(pop_now[q]);
      end
    end
  end
endmodule
