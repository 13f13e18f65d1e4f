// hls/rtl/accelc_core.sv — the accelerator with the contract's DRAM port
// (docs/microarchitecture.md, "The DRAM port"): accelc_engine's requesters on
// accelc_dram_port, whose timing stands for the memory. Each data beat shows
// on mem_* in its cycle (a read's W bytes come back on mem_rdata the next
// cycle), the text's beats included; the port serves one beat per cycle.
// This is the core the simulators' harness, the iCE40 board and Yosys take;
// accelc_axi puts the engine on an AXI4 master instead.
module accelc_core (
    input  logic                                 clk,
    input  logic                                 rst,
    input  logic                                 start,       // a run begins: the next cycle is its cycle 0
    input  logic [31:0]                          insn_count,  // instructions in the text
    input  logic [31:0]                          insn_addr,   // DRAM byte address of the text
    input  logic [31:0]                          dram_base,   // DRAM byte address that DMA addresses count from
    output logic                                 running,
    output logic                                 done,        // the cycle after FINISH retires: the run's count
    output logic [63:0]                          cycles,      // cycles since the run started
    output logic                                 error,       // fetch met an unknown opcode or buffer, and stopped
    output logic [31:0]                          error_pc,    // ... at this instruction
    output logic                                 mem_rd,      // a read beat: mem_rdata has the bytes at mem_addr next cycle
    output logic                                 mem_wr,      // a write beat: mem_wdata goes to mem_addr
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE-1:0] mem_strb,  // ... those of its bytes whose strobe is set
    output logic [31:0]                          mem_addr,
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0] mem_wdata,
    input  logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0] mem_rdata
);
  localparam int NR = accelc_hw_pkg::NUM_REQUESTERS;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;
  logic [NR-1:0]    rq_valid, rq_write, rq_narrow, rq_accept, rq_done;
  logic [NR*BB-1:0] rq_beats;
  logic [NR*AB-1:0] rq_addr;
  logic             beat_valid, beat_write, beat_narrow;
  logic [$clog2(NR)-1:0] beat_req;
  logic [AB-1:0]    beat_addr;
  accelc_dram_port port (
      .clk, .rst, .req_valid(rq_valid), .req_write(rq_write), .req_narrow(rq_narrow), .req_beats(rq_beats),
      .req_addr(rq_addr), .req_accept(rq_accept), .done(rq_done), .beat_valid, .beat_write, .beat_narrow, .beat_req,
      .beat_addr);
  accelc_engine engine (
      .clk, .rst, .start, .insn_count, .insn_addr, .dram_base, .running, .done, .cycles, .error, .error_pc,
      .rq_valid, .rq_write, .rq_narrow, .rq_beats, .rq_addr, .rq_accept, .rq_done, .rbeat_valid(beat_valid && !beat_write),
      .rbeat_req(beat_req), .wbeat_valid(beat_valid && beat_write), .mem_wdata, .mem_rdata);
  assign mem_rd = beat_valid && !beat_write;
  assign mem_wr = beat_valid && beat_write;
  assign mem_addr = 32'(beat_addr);
  // A narrow beat writes one output row, from byte 0 of mem_wdata (a write strobe per byte).
  localparam int W = accelc_hw_pkg::DRAM_BYTES_PER_CYCLE, E8 = accelc_hw_pkg::ROW_BEAT_BYTES;
  assign mem_strb = beat_narrow && E8 < W ? W'((64'(1) << E8) - 64'(1)) : '1;
endmodule
