// hls/rtl/accelc_cmd_queue.sv — one unit's command queue: a registered FIFO
// of DEPTH instructions (a push is visible the next cycle) whose head is
// there in the cycle it is visible. With RAM the instructions live in a
// memory (accelc_sram) read one cycle ahead, at the entry that is the head
// in the next cycle (one on when the unit pops now); an instruction written
// this cycle into that entry comes through a bypass register instead (the
// memory returns the old word on a read of the word it writes). Shallower
// queues are registers read directly: block RAM would not pay.
module accelc_cmd_queue #(
    parameter int DEPTH = 2,
    parameter int WIDTH = 128,
    parameter bit RAM = 1'b0,
    parameter int QI = DEPTH > 1 ? $clog2(DEPTH) : 1,  // entry index bits
    parameter int CW = $clog2(DEPTH + 1) + 1           // count bits
) (
    input  logic             clk,
    input  logic             rst,
    input  logic             push,   // fetch dispatches `wdata` to this unit
    input  logic [WIDTH-1:0] wdata,
    input  logic             pop,    // the unit starts its head instruction
    output logic [WIDTH-1:0] head,   // the head instruction (valid while count != 0)
    output logic [CW-1:0]    count
);
  logic [QI-1:0] head_idx, tail_idx;
  always_ff @(posedge clk)
    if (rst) begin
      head_idx <= '0;
      tail_idx <= '0;
      count <= '0;
    end else begin
      if (push) tail_idx <= tail_idx == QI'(DEPTH - 1) ? '0 : tail_idx + QI'(1);
      if (pop) head_idx <= head_idx == QI'(DEPTH - 1) ? '0 : head_idx + QI'(1);
      count <= count + CW'(push) - CW'(pop);
    end

  if (RAM) begin : bram
    logic [QI-1:0] next_head;
    logic [WIDTH-1:0] rdata, bypass;
    logic use_bypass;
    assign next_head = pop ? (head_idx == QI'(DEPTH - 1) ? '0 : head_idx + QI'(1)) : head_idx;
    accelc_sram #(.DEPTH(DEPTH), .WIDTH(WIDTH), .READS(1), .AW(QI)) ram (
        .clk, .we(push), .waddr(tail_idx), .wdata, .re(1'b1), .raddr(next_head), .rdata);
    always_ff @(posedge clk) begin
      use_bypass <= !rst && push && tail_idx == next_head;
      bypass <= wdata;
    end
    assign head = use_bypass ? bypass : rdata;
  end else begin : regs
    logic [WIDTH-1:0] q[DEPTH];
    always_ff @(posedge clk)
      if (push) q[tail_idx] <= wdata;
    assign head = q[head_idx];
  end
endmodule
