// hls/rtl/accelc_buffer.sv — one on-chip buffer (docs/microarchitecture.md,
// "Buffers"): DEPTH entries of EBYTES bytes stored as words of G bytes in NB
// banks of accelc_sram, so that one DRAM beat lands in one cycle. When an
// entry is at least a beat (G = beat bytes, NB = EBYTES / G) bank b holds
// word b of every entry; when it is smaller (G = EBYTES, NB = beat bytes / G)
// the banks hold consecutive entries in turn. Word f (f = entry * EBYTES / G + word in entry)
// lives in bank f mod NB at address f / NB.
//
// Writes: a DMA write of `dw_n` consecutive words from word `dw_word` (at most
// one per bank), or an entry write of a whole entry; never both in one cycle.
// Reads: READS ports of whole entries, registered.
module accelc_buffer #(
    parameter int DEPTH = 16,   // entries
    parameter int EBYTES = 4,   // bytes per entry
    parameter int G = 4,        // bytes per word
    parameter int NB = 1,       // banks
    parameter int READS = 1,
    parameter int IW = DEPTH > 1 ? $clog2(DEPTH) : 1,    // entry index bits
    parameter int FW = $clog2(DEPTH * EBYTES / G) + 1     // word index bits
) (
    input  logic                      clk,
    input  logic                      dw_en,
    input  logic [FW-1:0]             dw_word,
    input  logic [$clog2(NB+1)-1:0]   dw_n,
    input  logic [NB*G*8-1:0]         dw_data,
    input  logic                      ew_en,
    input  logic [IW-1:0]             ew_idx,
    input  logic [EBYTES*8-1:0]       ew_data,
    input  logic [READS-1:0]          re,
    input  logic [READS*IW-1:0]       ridx,
    output logic [READS*EBYTES*8-1:0] rdata
);
  localparam int LANES = EBYTES / G;   // words per entry
  localparam int IL = NB / LANES;      // entries per bank address
  localparam int BD = (DEPTH + IL - 1) / IL;
  localparam int BW = BD > 1 ? $clog2(BD) : 1;
  localparam int WB = G * 8;

  logic [NB-1:0]      we;
  logic [NB*BW-1:0]   waddr;
  logic [NB*WB-1:0]   wdata;
  logic [READS*BW-1:0] raddr;
  logic [READS*WB-1:0] bank_rdata[NB];  // an array, not one wide vector: simulators assemble it cheaply

  // The write port of each bank: the DMA's word for it, or the entry's.
  localparam int JW = NB > 1 ? $clog2(NB) : 1;  // NB is a power of two
  // The DMA's words from dw_word on fill the banks from dw_word mod NB up,
  // at the first word's bank address and, past bank NB - 1, the next one.
  logic [JW-1:0] dw_bank;
  logic [BW-1:0] dw_row, dw_row1;
  assign dw_bank = NB == 1 ? '0 : JW'(dw_word);
  assign dw_row = BW'(dw_word / FW'(NB));
  assign dw_row1 = dw_row + BW'(1);
  always_comb begin
    for (int b = 0; b < NB; b++) begin
      logic [JW-1:0] j;
      j = JW'(b) - dw_bank;  // which word of the DMA write lands in bank b (mod NB)
      we[b] = 1'b0;
      waddr[b*BW +: BW] = '0;
      wdata[b*WB +: WB] = '0;
      if (dw_en && 32'(j) < 32'(dw_n)) begin
        we[b] = 1'b1;
        waddr[b*BW +: BW] = NB > 1 && JW'(b) < dw_bank ? dw_row1 : dw_row;
        wdata[b*WB +: WB] = dw_data[32'(j)*WB +: WB];
      end else if (ew_en && (IL == 1 || 32'(ew_idx) % IL == b)) begin
        we[b] = 1'b1;
        waddr[b*BW +: BW] = BW'(ew_idx / IW'(IL));
        wdata[b*WB +: WB] = ew_data[(IL == 1 ? b : 0)*WB +: WB];  // IL > 1: the entry is one word
      end
    end
  end

  always_comb
    for (int r = 0; r < READS; r++) raddr[r*BW +: BW] = BW'(ridx[r*IW +: IW] / IW'(IL));

  for (genvar b = 0; b < NB; b++) begin : bank
    logic [READS*WB-1:0] rd;
    accelc_sram #(.DEPTH(BD), .WIDTH(WB), .READS(READS), .AW(BW)) ram (
        .clk, .we(we[b]), .waddr(waddr[b*BW +: BW]), .wdata(wdata[b*WB +: WB]), .re, .raddr, .rdata(rd));
    assign bank_rdata[b] = rd;
  end

  // Entries smaller than a bank row: the bank that held the entry, registered with the read.
  if (IL == 1) begin : whole
    always_comb
      for (int r = 0; r < READS; r++)
        for (int b = 0; b < NB; b++) rdata[r*EBYTES*8 + b*WB +: WB] = bank_rdata[b][r*WB +: WB];
  end else begin : part
    logic [READS*IW-1:0] ridx_q;
    always_ff @(posedge clk)
      for (int r = 0; r < READS; r++)
        if (re[r]) ridx_q[r*IW +: IW] <= ridx[r*IW +: IW];
    always_comb
      for (int r = 0; r < READS; r++) begin
        rdata[r*WB +: WB] = '0;
        for (int b = 0; b < NB; b++)
          if (32'(ridx_q[r*IW +: IW]) % IL == b) rdata[r*WB +: WB] = bank_rdata[b][r*WB +: WB];
      end
  end
endmodule
