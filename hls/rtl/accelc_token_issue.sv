// hls/rtl/accelc_token_issue.sv — the four dependency-token queues (counts
// of TD at most) and which units start this cycle: a unit whose head could
// start (`ready`) starts when each token it pops is visible and each queue it
// pushes has room, a slot popped in this cycle counting as room; iterating
// over the units that start reaches the same answer as letting each wait for
// the others' pops. A unit pushes its running instruction's tokens in the
// cycle it ends; a token pushed in cycle t is visible in t + 1.
module accelc_token_issue #(
    parameter int TD = 4,                  // tokens per queue
    parameter int TW = $clog2(TD + 1) + 1  // count bits
) (
    input  logic        clk,
    input  logic        rst,
    input  logic [2:0]  ready,        // per unit: its head instruction is there and the unit is free
    input  logic [11:0] head_pops,    // per unit u, bits [4u +: 4]: the queues its head pops
    input  logic [11:0] head_pushes,  // ... and pushes
    input  logic [2:0]  end_now,      // per unit: its running instruction ends this cycle
    input  logic [11:0] run_pushes,   // ... and pushes these queues then
    output logic [2:0]  go            // per unit: it starts its head instruction now
);
  logic [TW-1:0] tok[4];

  // Tokens pushed this cycle (by units ending an instruction).
  logic [3:0] push_now;
  always_comb begin
    push_now = '0;
    for (int u = 0; u < 3; u++)
      if (end_now[u]) push_now = push_now | run_pushes[4*u +: 4];
  end

  // Each queue's room is worked out once, with and without a pop this cycle,
  // so that the iterations are a few gates deep.
  logic [3:0] room, room_if_pop;
  always_comb
    for (int q = 0; q < 4; q++) begin
      room[q] = (TW + 1)'(tok[q]) + (TW + 1)'(push_now[q]) < (TW + 1)'(TD);
      room_if_pop[q] = (TW + 1)'(tok[q]) + (TW + 1)'(push_now[q]) <= (TW + 1)'(TD);
    end
  logic [3:0] pop_now;
  always_comb begin
    logic [2:0] can;
    logic [3:0] popped;
    popped = '0;
    can = '0;
    for (int it = 0; it < 3; it++) begin
      for (int u = 0; u < 3; u++) begin
        can[u] = ready[u];
        for (int q = 0; q < 4; q++) begin
          if (head_pops[4*u + q] && tok[q] == '0) can[u] = 1'b0;
          if (head_pushes[4*u + q] && !(room[q] || (popped[q] && room_if_pop[q]))) can[u] = 1'b0;
        end
      end
      popped = '0;
      for (int u = 0; u < 3; u++)
        if (can[u]) popped = popped | head_pops[4*u +: 4];
    end
    go = can;
    pop_now = popped;
  end

  always_ff @(posedge clk)
    for (int q = 0; q < 4; q++) tok[q] <= rst ? '0 : tok[q] + TW'(push_now[q]) - TW'(pop_now[q]);
endmodule
