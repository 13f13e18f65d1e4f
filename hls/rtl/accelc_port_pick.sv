// hls/rtl/accelc_port_pick.sv — the DRAM port's fixed-priority choice
// (docs/microarchitecture.md, "The DRAM port"): of the requesters presenting
// a burst (fetch, compute, load, store, highest priority first), the first,
// as a one-hot `pick`, with its burst's direction, beat size (narrow: one
// output row a beat), beats and address. Both
// ports use it: the contract's (accelc_dram_port) and the AXI master's
// (accelc_axi_port), which decide whether to accept it.
module accelc_port_pick (
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          req_valid,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          req_write,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          req_narrow,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::BEAT_BITS-1:0] req_beats,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::DRAM_ADDR_BITS-1:0] req_addr,
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                          pick,
    output logic [$clog2(accelc_hw_pkg::NUM_REQUESTERS)-1:0]                  pick_req,
    output logic                                                              pick_write,
    output logic                                                              pick_narrow,
    output logic [accelc_hw_pkg::BEAT_BITS-1:0]                               pick_beats,
    output logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0]                          pick_addr
);
  localparam int NR = accelc_hw_pkg::NUM_REQUESTERS;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;
  always_comb begin
    pick = '0;
    for (int r = NR - 1; r >= 0; r--)
      if (req_valid[r]) pick = NR'(1) << r;
  end
  always_comb begin  // the picked request's fields, by constant slices
    pick_req = '0;
    pick_write = 1'b0;
    pick_narrow = 1'b0;
    pick_beats = '0;
    pick_addr = '0;
    for (int r = 0; r < NR; r++)
      if (pick[r]) begin
        pick_req = $clog2(NR)'(r);
        pick_write = req_write[r];
        pick_narrow = req_narrow[r];
        pick_beats = req_beats[r*BB +: BB];
        pick_addr = req_addr[r*AB +: AB];
      end
  end
endmodule
