// tests/simulator/rtl_tb/tb_dma_alone.sv — one DMA engine (hls/rtl/accelc_dma.sv) as
// the load unit's requester on the DRAM port, the port otherwise idle: the
// harness times single LOADs and STOREs against the contract's formula.
module tb_dma_alone (
    input  logic        clk,
    input  logic        rst,
    input  logic        start,
    input  logic        write,
    input  logic [31:0] rows,
    input  logic [31:0] row_bytes,
    /* verilator lint_off UNUSEDSIGNAL */  // a narrow window uses the low bits of addr and pitch
    input  logic [31:0] addr,   // DRAM byte address of row 0, inside the window
    input  logic [31:0] pitch,  // DRAM bytes from row to row
    input  logic [31:0] pads,  // at most a buffer's entries
    /* verilator lint_on UNUSEDSIGNAL */
    output logic        finish
);
  localparam int NR = accelc_hw_pkg::NUM_REQUESTERS;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int LOAD = 2;  // the load unit's place in the port's priority order
  logic [NR-1:0] valid, wr, accept, done;
  logic [NR*BB-1:0] beats;
  logic dma_valid, dma_write;
  logic [BB-1:0] dma_beats;
  always_comb begin
    valid = '0;
    wr = '0;
    beats = '0;
    valid[LOAD] = dma_valid;
    wr[LOAD] = dma_write;
    beats[LOAD*BB +: BB] = dma_beats;
  end
  // Data places are not timed here; addresses cut bursts (SPLIT_4K).
  /* verilator lint_off UNUSEDSIGNAL */
  logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0] req_addr, beat_addr;
  logic [15:0] data_base, pad_idx;
  logic [31:0] data_off;
  logic pad_valid, beat_valid, beat_write, beat_narrow, dma_narrow;
  logic [1:0] beat_req;
  /* verilator lint_on UNUSEDSIGNAL */
  accelc_dma dma (
      .clk, .rst, .start, .write, .narrow(1'b0), .rows, .row_bytes, .pads(accelc_hw_pkg::PAD_COUNT_BITS'(pads)), .addr(accelc_hw_pkg::DRAM_ADDR_BITS'(addr)),
      .pitch(accelc_hw_pkg::DRAM_ADDR_BITS'(pitch)), .y_pad0('0), .x_pad0('0),
      .x_size('0), .x_pad1('0), .req_addr, .req_valid(dma_valid), .req_write(dma_write), .req_narrow(dma_narrow), .req_beats(dma_beats),
      .req_accept(accept[LOAD]), .done(done[LOAD]), .finish, .beat(beat_valid && beat_req == 2'(LOAD)), .data_base,
      .data_off, .pad_valid, .pad_idx);
  accelc_dram_port port (
      .clk, .rst, .req_valid(valid), .req_write(wr), .req_narrow('0), .req_beats(beats), .req_addr({NR{req_addr}}),
      .req_accept(accept), .done, .beat_valid, .beat_write, .beat_narrow, .beat_req, .beat_addr);
endmodule
