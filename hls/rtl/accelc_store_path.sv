// hls/rtl/accelc_store_path.sv — the output buffer and the STORE's read-ahead:
// GEMM and ALU rows are written into the buffer (accelc_buffer) as they
// retire; a STORE reads its entries, rows of `xs` from `base`, ahead of its
// write beats into a FIFO of four (the first in the STORE's start cycle), and
// each write beat of the DRAM port takes the next W bytes of the FIFO's head;
// where an entry is narrower than a beat (E < W), each beat takes one entry,
// in its low E bytes (a narrow beat: the port strobes those bytes alone).
module accelc_store_path #(
    parameter int DEPTH = 16,  // output buffer entries
    parameter int E = 16,      // bytes per entry
    parameter int G = 8,       // bytes per buffer word
    parameter int NB = 2,      // buffer banks
    parameter int IW = 4,      // entry index bits
    parameter int FW = 8,      // word index bits
    parameter int W = 8,       // bytes per DRAM beat
    parameter int YB = 16,     // bits of a STORE's row count
    parameter int XB = 16      // bits of its row length
) (
    input  logic            clk,
    input  logic            rst,
    input  logic            out_we,     // a GEMM/ALU row retires into the buffer
    input  logic [IW-1:0]   out_widx,
    input  logic [E*8-1:0]  out_wdata,
    input  logic            start,      // a STORE starts: its entries are read from `base`
    input  logic [IW-1:0]   base,
    input  logic [31:0]     rows,
    input  logic [31:0]     xs,
    input  logic            take,       // a write beat of the STORE
    output logic [W*8-1:0]  mem_wdata   // its bytes
);
  localparam int SF = 4;
  logic          st_re;
  logic [IW-1:0] st_idx;
  logic [E*8-1:0] st_rdata;
  accelc_buffer #(.DEPTH(DEPTH), .EBYTES(E), .G(G), .NB(NB), .READS(1), .IW(IW), .FW(FW)) out_buf (
      .clk, .dw_en(1'b0), .dw_word('0), .dw_n('0), .dw_data('0), .ew_en(out_we), .ew_idx(out_widx),
      .ew_data(out_wdata), .re(st_re), .ridx(st_idx), .rdata(st_rdata));
  logic [E*8-1:0] sf_data[SF];
  logic [2:0]  sf_count;
  logic [1:0]  sf_head, sf_tail;
  logic        sf_pending;  // a read issued last cycle: its entry arrives now
  logic [IW-1:0] st_next;   // the next entry to read
  logic [YB-1:0] st_rows;   // entries left to read: st_rows rows of st_xs after st_cols
  logic [XB-1:0] st_cols, st_xs;
  localparam int BPE = E > W ? E / W : 1;  // beats an entry
  localparam int SBW = BPE > 1 ? $clog2(BPE) : 1;
  logic [SBW-1:0] st_beat;  // beats taken from the head entry
  logic        st_any;      // the STORE moves entries
  assign st_any = rows != '0 && xs != '0;
  assign st_re = start ? st_any : (st_cols != '0 || st_rows != '0) && 32'(sf_count) + 32'(sf_pending) < SF;
  assign st_idx = start ? base : st_next;
  logic st_pop;
  assign st_pop = take && 32'(st_beat) + 1 == BPE;
  if (E < W) begin : narrow
    assign mem_wdata = (W*8)'(sf_data[sf_head]);
  end else begin : wide
    always_comb begin
      mem_wdata = '0;
      for (int k = 0; k < BPE; k++)
        if (32'(st_beat) == k) mem_wdata = sf_data[sf_head][k*W*8 +: W*8];
    end
  end
  always_ff @(posedge clk) begin
    if (rst) begin
      {sf_count, sf_head, sf_tail} <= '0;
      sf_pending <= 1'b0;
      {st_next, st_rows, st_cols, st_beat} <= '0;
    end else begin
      sf_pending <= st_re;
      if (sf_pending) begin
        sf_data[sf_tail] <= st_rdata;
        sf_tail <= sf_tail + 2'd1;  // SF = 4: wraps
      end
      sf_count <= sf_count + 3'(sf_pending) - 3'(st_pop);
      if (take) st_beat <= st_pop ? '0 : st_beat + SBW'(1);
      if (st_pop) sf_head <= sf_head + 2'd1;
      if (start) begin
        st_next <= base + IW'(1);
        st_rows <= st_any ? YB'(rows) - YB'(1) : '0;
        st_cols <= st_any ? XB'(xs) - XB'(1) : '0;
        st_xs <= XB'(xs);
      end else if (st_re) begin
        st_next <= st_next + IW'(1);
        if (st_cols != '0) st_cols <= st_cols - XB'(1);
        else begin
          st_rows <= st_rows - YB'(1);
          st_cols <= st_xs - XB'(1);
        end
      end
    end
  end
endmodule
