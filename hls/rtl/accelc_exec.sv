// hls/rtl/accelc_exec.sv — the compute unit's GEMM core and ALU
// (docs/microarchitecture.md, "GEMM and ALU"): one micro-op application
// issued every GEMM_II or ALU_II cycles from the cycle after `start`, in the
// order iter_out, iter_in, micro-op, through a three-stage pipeline:
//   stage 0 reads the micro-op;
//   stage 1 adds the loop offsets to its indices and reads the input, weight
//           and accumulator entries (the ALU's two operands on two ports);
//   stage 2 computes and writes the accumulator row and its narrowed output row.
// The arithmetic is isa/arith.h's. Stages carry their instruction's operation,
// so the next instruction may issue while the last one drains. Programs are
// legal: loops are not empty and rows respect the accumulator hazard rule.
module accelc_exec #(
    parameter int UW = 16,  // micro-op buffer index bits
    parameter int NW = 16,  // input buffer index bits
    parameter int GW = 16,  // weight buffer index bits
    parameter int AW = 16   // accumulator/output buffer index bits
) (
    input  logic                                                clk,
    input  logic                                                rst,
    input  logic                                                start,  // a GEMM or ALU starts this cycle
    input  logic [accelc_isa_pkg::INSN_BITS-1:0]                insn,
    output logic                                                last_issue,  // the instruction's last application issues
    output logic                                                uop_re,
    output logic [UW-1:0]                                       uop_idx,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [accelc_isa_pkg::UOP_BITS-1:0]                 uop_data,  // bits past the fields are unused
    /* verilator lint_on UNUSEDSIGNAL */
    output logic                                                inp_re,
    output logic [NW-1:0]                                       inp_idx,
    input  logic [accelc_hw_pkg::ENTRY_BYTES_INP*8-1:0]         inp_data,
    output logic                                                wgt_re,
    output logic [GW-1:0]                                       wgt_idx,
    input  logic [accelc_hw_pkg::ENTRY_BYTES_WGT*8-1:0]         wgt_data,
    output logic [1:0]                                          acc_re,    // port 0: the row written, 1: the ALU's source
    output logic [2*AW-1:0]                                     acc_ridx,
    input  logic [2*accelc_hw_pkg::ENTRY_BYTES_ACC*8-1:0]       acc_rdata,
    output logic                                                acc_we,    // also writes the output row
    output logic [AW-1:0]                                       acc_widx,
    output logic [accelc_hw_pkg::ENTRY_BYTES_ACC*8-1:0]         acc_wdata,
    output logic [accelc_hw_pkg::ENTRY_BYTES_OUT*8-1:0]         out_wdata
);
  localparam int IW = accelc_isa_pkg::INSN_BITS;
  localparam int BA = accelc_hw_pkg::BATCH, BI = accelc_hw_pkg::BLOCK_IN, BO = accelc_hw_pkg::BLOCK_OUT;
  localparam int EA = accelc_hw_pkg::ENTRY_BYTES_ACC * 8;
  localparam int IMMB = accelc_isa_pkg::ALU_IMM_BITS;
  localparam int OPB = accelc_isa_pkg::ALU_ALU_OP_BITS;
  // Register widths: the loop fields', and the buffer indexes' for the offsets
  // (an index is taken modulo its buffer's size, so its offset may wrap).
  localparam int UB = accelc_isa_pkg::GEMM_UOP_END_BITS > accelc_isa_pkg::ALU_UOP_END_BITS
                          ? accelc_isa_pkg::GEMM_UOP_END_BITS : accelc_isa_pkg::ALU_UOP_END_BITS;
  localparam int LB = accelc_isa_pkg::GEMM_ITER_OUT_BITS > accelc_isa_pkg::GEMM_ITER_IN_BITS
                          ? accelc_isa_pkg::GEMM_ITER_OUT_BITS : accelc_isa_pkg::GEMM_ITER_IN_BITS;
  localparam int LBA = accelc_isa_pkg::ALU_ITER_OUT_BITS > accelc_isa_pkg::ALU_ITER_IN_BITS
                           ? accelc_isa_pkg::ALU_ITER_OUT_BITS : accelc_isa_pkg::ALU_ITER_IN_BITS;
  localparam int IB = LB > LBA ? LB : LBA;
  localparam int SW = NW > AW ? NW : AW;  // source offsets index the input (GEMM) or accumulator (ALU) buffer

  // What a pipeline stage carries of its instruction.
  typedef struct packed {
    logic        gemm;
    logic        reset;
    logic [OPB-1:0] op;    // ALU operation (isa alu_op code)
    logic        use_imm;
    logic [IMMB-1:0] imm;  // the immediate field, widened where it is used (immOperand)
  } op_t;

  // The operand an immediate stands for: mulq's is the multiplier's top bits, the others are sign-extended.
  function automatic logic [31:0] immOperand(input logic [OPB-1:0] op, input logic [IMMB-1:0] raw);
    if (32'(op) == accelc_isa_pkg::ALU_OP_MULQ && accelc_hw_pkg::ALU_HAS_MULQ) immOperand = {raw, {(32 - IMMB){1'b0}}};
    else immOperand = 32'($signed(raw));
  endfunction

  // ---- stage 0: the loop nest of the running instruction ----
  op_t         op0;
  logic        active;
  logic [6:0]    ii_left;                   // cycles to the next issue
  logic [UB-1:0] bgn, fin, u;
  logic [IB-1:0] iter_out, iter_in, i0, i1;
  logic [AW-1:0] fdo, fdi, odo, odi;        // loop factors and offsets (i0 * f*o, then plus i1 * f*i): dst,
  logic [SW-1:0] fso, fsi, oso, osi;        // src
  logic [GW-1:0] fwo, fwi, owo, owi;        // and wgt
  logic        issue;
  assign issue = active && ii_left == '0;
  assign last_issue = issue && u + UB'(1) == fin && i1 + IB'(1) == iter_in && i0 + IB'(1) == iter_out;
  assign uop_re = issue;
  assign uop_idx = UW'(u);

  // The fields of a starting instruction (GEMM or ALU).
  op_t         op_in;
  logic [UB-1:0] bgn_in, fin_in;
  logic [IB-1:0] io_in, ii_in;
  logic [AW-1:0] fdo_in, fdi_in;
  logic [SW-1:0] fso_in, fsi_in;
  logic [GW-1:0] fwo_in, fwi_in;
  always_comb begin
    op_in = '0;
    fwo_in = '0;
    fwi_in = '0;
    if (32'(insn[0 +: accelc_isa_pkg::OPCODE_BITS]) == accelc_isa_pkg::OPCODE_GEMM) begin
      op_in.gemm = 1'b1;
      op_in.reset = insn[accelc_isa_pkg::GEMM_RESET_LO];
      bgn_in = UB'(insn[accelc_isa_pkg::GEMM_UOP_BGN_LO +: accelc_isa_pkg::GEMM_UOP_BGN_BITS]);
      fin_in = UB'(insn[accelc_isa_pkg::GEMM_UOP_END_LO +: accelc_isa_pkg::GEMM_UOP_END_BITS]);
      io_in = IB'(insn[accelc_isa_pkg::GEMM_ITER_OUT_LO +: accelc_isa_pkg::GEMM_ITER_OUT_BITS]);
      ii_in = IB'(insn[accelc_isa_pkg::GEMM_ITER_IN_LO +: accelc_isa_pkg::GEMM_ITER_IN_BITS]);
      fdo_in = AW'(insn[accelc_isa_pkg::GEMM_DST_FACTOR_OUT_LO +: accelc_isa_pkg::GEMM_DST_FACTOR_OUT_BITS]);
      fdi_in = AW'(insn[accelc_isa_pkg::GEMM_DST_FACTOR_IN_LO +: accelc_isa_pkg::GEMM_DST_FACTOR_IN_BITS]);
      fso_in = SW'(insn[accelc_isa_pkg::GEMM_SRC_FACTOR_OUT_LO +: accelc_isa_pkg::GEMM_SRC_FACTOR_OUT_BITS]);
      fsi_in = SW'(insn[accelc_isa_pkg::GEMM_SRC_FACTOR_IN_LO +: accelc_isa_pkg::GEMM_SRC_FACTOR_IN_BITS]);
      fwo_in = GW'(insn[accelc_isa_pkg::GEMM_WGT_FACTOR_OUT_LO +: accelc_isa_pkg::GEMM_WGT_FACTOR_OUT_BITS]);
      fwi_in = GW'(insn[accelc_isa_pkg::GEMM_WGT_FACTOR_IN_LO +: accelc_isa_pkg::GEMM_WGT_FACTOR_IN_BITS]);
    end else begin
      op_in.reset = insn[accelc_isa_pkg::ALU_RESET_LO];
      op_in.op = insn[accelc_isa_pkg::ALU_ALU_OP_LO +: OPB];
      op_in.use_imm = insn[accelc_isa_pkg::ALU_USE_IMM_LO];
      op_in.imm = insn[accelc_isa_pkg::ALU_IMM_LO +: IMMB];
      bgn_in = UB'(insn[accelc_isa_pkg::ALU_UOP_BGN_LO +: accelc_isa_pkg::ALU_UOP_BGN_BITS]);
      fin_in = UB'(insn[accelc_isa_pkg::ALU_UOP_END_LO +: accelc_isa_pkg::ALU_UOP_END_BITS]);
      io_in = IB'(insn[accelc_isa_pkg::ALU_ITER_OUT_LO +: accelc_isa_pkg::ALU_ITER_OUT_BITS]);
      ii_in = IB'(insn[accelc_isa_pkg::ALU_ITER_IN_LO +: accelc_isa_pkg::ALU_ITER_IN_BITS]);
      fdo_in = AW'(insn[accelc_isa_pkg::ALU_DST_FACTOR_OUT_LO +: accelc_isa_pkg::ALU_DST_FACTOR_OUT_BITS]);
      fdi_in = AW'(insn[accelc_isa_pkg::ALU_DST_FACTOR_IN_LO +: accelc_isa_pkg::ALU_DST_FACTOR_IN_BITS]);
      fso_in = SW'(insn[accelc_isa_pkg::ALU_SRC_FACTOR_OUT_LO +: accelc_isa_pkg::ALU_SRC_FACTOR_OUT_BITS]);
      fsi_in = SW'(insn[accelc_isa_pkg::ALU_SRC_FACTOR_IN_LO +: accelc_isa_pkg::ALU_SRC_FACTOR_IN_BITS]);
    end
  end

  // ---- stage 1: indices and operand reads ----
  logic        v1;
  op_t         op1;
  logic [AW-1:0] od1, dst1;  // the loop offsets of the application, and its indexes
  logic [SW-1:0] os1, src1;
  logic [GW-1:0] ow1, wgt1;
  assign dst1 = AW'(uop_data[accelc_isa_pkg::UOP_DST_LO +: accelc_isa_pkg::UOP_DST_BITS]) + od1;
  assign src1 = SW'(uop_data[accelc_isa_pkg::UOP_SRC_LO +: accelc_isa_pkg::UOP_SRC_BITS]) + os1;
  assign wgt1 = GW'(uop_data[accelc_isa_pkg::UOP_WGT_LO +: accelc_isa_pkg::UOP_WGT_BITS]) + ow1;
  assign inp_re = v1 && op1.gemm;
  assign inp_idx = NW'(src1);
  assign wgt_re = v1 && op1.gemm;
  assign wgt_idx = GW'(wgt1);
  assign acc_re = {v1 && !op1.gemm, v1};
  assign acc_ridx = {AW'(src1), AW'(dst1)};

  // ---- stage 2: compute and write ----
  logic        v2;
  op_t         op2;
  logic [AW-1:0] dst2;
  assign acc_we = v2;
  assign acc_widx = dst2;

  // One ALU lane (isa/arith.h), in the widths each operation needs; an
  // operation the hwspec leaves out (accelc_hw_pkg::ALU_HAS_*) is not built.
  function automatic logic [31:0] sat32(input logic signed [32:0] v);  // saturate a 33-bit value
    sat32 = v[32] == v[31] ? v[31:0] : v[32] ? 32'h80000000 : 32'h7fffffff;  // out of range: bits 32 and 31 differ
  endfunction
  function automatic logic [31:0] aluLane(input logic [OPB-1:0] op, input logic [31:0] a, input logic [31:0] b);
    logic signed [32:0] sa, sb, v, half;
    logic signed [63:0] p;
    logic [31:0] l;
    logic [4:0] n;
    sa = 33'($signed(a));
    sb = 33'($signed(b));
    aluLane = a;
    case (32'(op))
      accelc_isa_pkg::ALU_OP_MIN: if (accelc_hw_pkg::ALU_HAS_MIN) aluLane = sa < sb ? a : b;
      accelc_isa_pkg::ALU_OP_MAX: if (accelc_hw_pkg::ALU_HAS_MAX) aluLane = sa > sb ? a : b;
      accelc_isa_pkg::ALU_OP_ADD: if (accelc_hw_pkg::ALU_HAS_ADD) aluLane = sat32(sa + sb);
      accelc_isa_pkg::ALU_OP_MULQ:
        if (accelc_hw_pkg::ALU_HAS_MULQ) begin
          if (a == 32'h80000000 && b == 32'h80000000) aluLane = 32'h7fffffff;
          else begin
            p = $signed(a) * $signed(b);
            p = p + (p >= 0 ? 64'sd1073741824 : 64'sd1 - 64'sd1073741824);
            p = p < 0 ? -((-p) >>> 31) : p >>> 31;  // divide by 2^31, toward zero
            aluLane = p[31:0];
          end
        end
      accelc_isa_pkg::ALU_OP_SHR:
        if (accelc_hw_pkg::ALU_HAS_SHR) begin
          if (!b[31]) begin
            n = b[30:5] != '0 ? 5'd31 : b[4:0];
            aluLane = 32'($signed(a) >>> n);
          end else begin  // a left shift, saturated: it overflows when shifting back does not return a
            n = b[30:5] != '1 || b[4:0] == 5'd0 ? 5'd31 : 5'(-b[4:0]);
            l = a << n;
            aluLane = 32'($signed(l) >>> n) == a ? l : a[31] ? 32'h80000000 : 32'h7fffffff;
          end
        end
      accelc_isa_pkg::ALU_OP_SHRR:
        if (accelc_hw_pkg::ALU_HAS_SHRR) begin
          n = b[31] ? 5'd0 : b[30:5] != '0 ? 5'd31 : b[4:0];
          if (n != 5'd0) begin
            half = 33'sd1 <<< (n - 5'd1);
            v = sa >= 0 ? (sa + half) >>> n : -((-sa + half) >>> n);
            aluLane = v[31:0];
          end
        end
      accelc_isa_pkg::ALU_OP_CLIP:
        if (accelc_hw_pkg::ALU_HAS_CLIP) begin
          v = sa < -sb ? -sb : sa;
          aluLane = v > sb ? b : v[31:0];
        end
      accelc_isa_pkg::ALU_OP_MOV: if (accelc_hw_pkg::ALU_HAS_MOV) aluLane = b;
      // A 32x32 multiplier of which only the low 32 bits are kept: wrapping, and
      // the same for signed and unsigned operands.
      accelc_isa_pkg::ALU_OP_MUL: if (accelc_hw_pkg::ALU_HAS_MUL) aluLane = a * b;
      default: aluLane = a;
    endcase
  endfunction

  // Only the operation in stage 2 is evaluated (a simulation's speed depends on it).
  // A row's BI products (each within +-2^14) are summed exactly at DW bits, then added to the accumulator.
  localparam int DW = 16 + $clog2(BI) + 1;
  logic [EA-1:0] acc_new;
  always_comb begin
    logic signed [DW-1:0] dot;
    logic signed [15:0] p;
    logic [31:0] imm2;  // the immediate's operand, once for every lane
    acc_new = '0;
    dot = '0;
    p = '0;
    imm2 = '0;
    if (v2 && !op2.reset && op2.gemm) begin
      for (int b = 0; b < BA; b++)
        for (int o = 0; o < BO; o++) begin
          dot = '0;
          for (int k = 0; k < BI; k++) begin
            p = $signed(inp_data[8*(b*BI + k) +: 8]) * $signed(wgt_data[8*(o*BI + k) +: 8]);
            dot = dot + DW'(p);
          end
          acc_new[32*(b*BO + o) +: 32] = acc_rdata[32*(b*BO + o) +: 32] + 32'(dot);
        end
    end else if (v2 && !op2.reset) begin
      imm2 = immOperand(op2.op, op2.imm);
      for (int i = 0; i < BA * BO; i++)
        acc_new[32*i +: 32] = aluLane(op2.op, acc_rdata[32*i +: 32], op2.use_imm ? imm2 : acc_rdata[EA + 32*i +: 32]);
    end
  end
  assign acc_wdata = acc_new;
  always_comb
    for (int i = 0; i < BA * BO; i++) begin
      logic signed [31:0] v;
      v = $signed(acc_new[32*i +: 32]);  // int8 range: bits 31..7 all equal the sign
      out_wdata[8*i +: 8] = v[31:7] == {25{v[31]}} ? v[7:0] : v[31] ? 8'h80 : 8'h7f;
    end

  always_ff @(posedge clk) begin
    if (rst) begin
      active <= 1'b0;
      v1 <= 1'b0;
      v2 <= 1'b0;
    end else begin
      v1 <= issue;
      v2 <= v1;
      op1 <= op0;
      op2 <= op1;
      dst2 <= dst1;
      if (issue) begin
        od1 <= odi;
        os1 <= osi;
        ow1 <= owi;
      end
      if (start) begin
        active <= 1'b1;
        op0 <= op_in;
        ii_left <= '0;
        bgn <= bgn_in;
        fin <= fin_in;
        u <= bgn_in;
        iter_out <= io_in;
        iter_in <= ii_in;
        {i0, i1} <= '0;
        {fdo, fdi, fso, fsi, fwo, fwi} <= {fdo_in, fdi_in, fso_in, fsi_in, fwo_in, fwi_in};
        {odo, odi, oso, osi, owo, owi} <= '0;
      end else if (active) begin
        ii_left <= issue ? 7'(op0.gemm ? accelc_hw_pkg::GEMM_II : accelc_hw_pkg::ALU_II) - 7'd1 : ii_left - 7'd1;
        if (issue) begin
          if (u + UB'(1) != fin) begin
            u <= u + UB'(1);
          end else begin
            u <= bgn;
            if (i1 + IB'(1) != iter_in) begin
              i1 <= i1 + IB'(1);
              odi <= odi + fdi;
              osi <= osi + fsi;
              owi <= owi + fwi;
            end else begin
              i1 <= '0;
              if (i0 + IB'(1) != iter_out) begin
                i0 <= i0 + IB'(1);
                odo <= odo + fdo;
                oso <= oso + fso;
                owo <= owo + fwo;
                odi <= odo + fdo;
                osi <= oso + fso;
                owi <= owo + fwo;
              end else begin
                active <= 1'b0;
              end
            end
          end
        end
      end
    end
  end
endmodule
