// hls/rtl/accelc_sram.sv — the memory template every on-chip buffer is built
// from: DEPTH words of WIDTH bits, one write port and READS registered read
// ports (data the cycle after the address), each port its own always_ff so
// that Yosys infers block RAM (a second read port duplicates the RAM). A read
// of the word written in the same cycle returns the old word in simulation and
// is undefined in the synthesized memory.
module accelc_sram #(
    parameter int DEPTH = 16,
    parameter int WIDTH = 8,
    parameter int READS = 1,
    parameter int AW = DEPTH > 1 ? $clog2(DEPTH) : 1
) (
    input  logic                   clk,
    input  logic                   we,
    input  logic [AW-1:0]          waddr,
    input  logic [WIDTH-1:0]       wdata,
    input  logic [READS-1:0]       re,
    input  logic [READS*AW-1:0]    raddr,
    output logic [READS*WIDTH-1:0] rdata
);
  // A read and a write of one word in one cycle is left to the memory
  // (no_rw_check: Yosys adds no logic for it): every user either never does
  // it or bypasses the read (docs/microarchitecture.md, "Buffers").
  (* no_rw_check *) logic [WIDTH-1:0] mem[DEPTH];

  always_ff @(posedge clk)
    if (we) mem[waddr] <= wdata;

  for (genvar r = 0; r < READS; r++) begin : rd
    always_ff @(posedge clk)
      if (re[r]) rdata[r*WIDTH +: WIDTH] <= mem[raddr[r*AW +: AW]];
  end
endmodule
