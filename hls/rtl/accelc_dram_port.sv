// hls/rtl/accelc_dram_port.sv — the DRAM port's arbitration and timing
// (docs/microarchitecture.md, "The DRAM port"), parameters from accelc_hw_pkg.
//
// Requesters, highest priority first: 0 fetch, 1 compute, 2 load, 3 store.
// A requester holds req_valid with its burst's direction and beat count until
// req_accept; the port accepts at most one burst per cycle while fewer than
// OUTSTANDING are in flight (a slot freed in a cycle is usable in it). Accepted
// bursts wait in a registered FIFO and use the one data channel in order, one
// beat per cycle: a read from LATENCY cycles after its accept, a write from
// the cycle after. done[r] pulses in the cycle a burst of r completes: for a
// read the cycle after its last beat, for a write LATENCY cycles after that
// (its acknowledgement). Each beat shows on beat_* in its cycle: the
// requester, the direction, the byte address (the burst's address plus
// DRAM_BYTES_PER_CYCLE per beat, or one output row per beat for a narrow
// burst) and whether it is narrow; the memory moves the data.
module accelc_dram_port (
    input  logic                                                          clk,
    input  logic                                                          rst,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_valid,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_write,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_narrow,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::BEAT_BITS-1:0] req_beats,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::DRAM_ADDR_BITS-1:0] req_addr,
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_accept,
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      done,
    output logic                                                          beat_valid,
    output logic                                                          beat_write,
    output logic                                                          beat_narrow,
    output logic [$clog2(accelc_hw_pkg::NUM_REQUESTERS)-1:0]              beat_req,
    output logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0]                      beat_addr
);
  localparam int NR = accelc_hw_pkg::NUM_REQUESTERS;
  localparam int N = accelc_hw_pkg::OUTSTANDING;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int IW = N > 1 ? $clog2(N) : 1;  // FIFO indexes
  localparam int CW = $clog2(N + 1) + 1;      // counts up to N, and N plus one accept
  localparam int RW = $clog2(NR);
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;
  localparam int NARROW = accelc_hw_pkg::ROW_BEAT_BYTES;  // a narrow beat's bytes: one output row
  // Cycle stamps count modulo 2^SW: a burst waits at most for the N bursts
  // ahead of it and the latency, so the signed distance to now never wraps.
  localparam int SW = $clog2(N * (1 << BB) + accelc_hw_pkg::DRAM_LATENCY + 4) + 1;

  // The cycle counter: FIFO entries carry the cycle they may start or complete.
  logic [SW-1:0] now;

  // Accepted bursts, in order: requester, direction, beats, first cycle a beat may go.
  logic [RW-1:0]   bq_req  [N];
  logic            bq_wr   [N];
  logic            bq_nar  [N];
  logic [BB-1:0]   bq_beats[N];
  logic [SW-1:0]   bq_at   [N];
  logic [AB-1:0]   bq_addr [N];
  logic [IW-1:0]   bq_head, bq_tail;
  logic [CW-1:0]   bq_count;

  // Write acknowledgements, in order: requester and the cycle the write completes.
  logic [RW-1:0]   aq_req[N];
  logic [SW-1:0]   aq_at [N];
  logic [IW-1:0]   aq_head, aq_tail;
  logic [CW-1:0]   aq_count;

  // The data channel: beats left of the burst on it.
  logic [BB-1:0]   beats_left;
  logic [RW-1:0]   cur_req;
  logic            cur_wr, cur_nar;
  logic [AB-1:0]   cur_addr;  // the next beat's address

  // A read's completion, registered from its last beat.
  logic            rd_done;
  logic [RW-1:0]   rd_req;

  logic [CW-1:0]   inflight;

  // Completions this cycle. Whether the head acknowledgement is due is
  // worked out the cycle before (ack_next), so that `done` comes from registers.
  logic ack_now;

  logic [CW-1:0] completions;
  assign completions = CW'(rd_done) + CW'(ack_now);

  // Fixed-priority arbitration, gated by the in-flight count net of this cycle's completions.
  logic can_accept;
  assign can_accept = (inflight - completions) < CW'(N);
  logic [NR-1:0] pick;
  logic          accepting, acc_wr, acc_nar;
  logic [RW-1:0] acc_req;
  logic [BB-1:0] acc_beats;
  logic [AB-1:0] acc_addr;
  // The choice among the requesters while a slot is free (none otherwise).
  accelc_port_pick picker (
      .req_valid(can_accept ? req_valid : '0), .req_write, .req_narrow, .req_beats, .req_addr, .pick,
      .pick_req(acc_req), .pick_write(acc_wr), .pick_narrow(acc_nar), .pick_beats(acc_beats), .pick_addr(acc_addr));
  assign req_accept = pick;
  assign accepting = |req_accept;

  always_comb begin
    done = '0;
    if (rd_done) done[rd_req] = 1'b1;
    if (ack_now) done[aq_req[aq_head]] = 1'b1;
  end

  // The channel starts the head burst when no burst is on it and the head's cycle has come.
  logic start;
  assign start = (beats_left == '0) && (bq_count != '0) && $signed(now - bq_at[bq_head]) >= 0;
  logic [BB-1:0] head_beats;
  assign head_beats = bq_beats[bq_head];
  logic last_beat;
  assign last_beat = start ? (head_beats == BB'(1)) : (beats_left == BB'(1));
  logic beat_wr;
  assign beat_wr = start ? bq_wr[bq_head] : cur_wr;
  assign beat_req = start ? bq_req[bq_head] : cur_req;
  assign beat_valid = start || beats_left != '0;
  assign beat_write = beat_wr;
  assign beat_narrow = start ? bq_nar[bq_head] : cur_nar;
  assign beat_addr = start ? bq_addr[bq_head] : cur_addr;
  // The last beat of a burst goes in this cycle.
  logic ending, push_ack;
  assign ending = last_beat && (start || beats_left != '0);
  assign push_ack = ending && beat_wr;

  // FIFO indexes one step on, wrapping after N - 1.
  logic [IW-1:0] bq_head_next, bq_tail_next, aq_head_next, aq_tail_next;
  assign bq_head_next = bq_head == IW'(N - 1) ? '0 : bq_head + IW'(1);
  assign bq_tail_next = bq_tail == IW'(N - 1) ? '0 : bq_tail + IW'(1);
  assign aq_head_next = aq_head == IW'(N - 1) ? '0 : aq_head + IW'(1);
  assign aq_tail_next = aq_tail == IW'(N - 1) ? '0 : aq_tail + IW'(1);

  // The acknowledgement queue after this cycle: its head, whether it holds
  // one, and the head's cycle (the acknowledgement pushed now when it is the
  // only one).
  logic [IW-1:0] aq_head_after;
  logic [CW-1:0] aq_count_after;
  logic [SW-1:0] aq_at_after;
  logic          ack_next;
  assign aq_head_after = ack_now ? aq_head_next : aq_head;
  assign aq_count_after = aq_count + CW'(push_ack) - CW'(ack_now);
  assign aq_at_after = push_ack && aq_count == CW'(ack_now) ? now + SW'(1) + SW'(accelc_hw_pkg::DRAM_LATENCY)
                                                              : aq_at[aq_head_after];
  assign ack_next = aq_count_after != '0 && aq_at_after == now + SW'(1);

  always_ff @(posedge clk) begin
    if (rst) begin
      ack_now <= 1'b0;
      now <= '0;
      bq_head <= '0;
      bq_tail <= '0;
      bq_count <= '0;
      aq_head <= '0;
      aq_tail <= '0;
      aq_count <= '0;
      beats_left <= '0;
      cur_req <= '0;
      cur_wr <= 1'b0;
      cur_nar <= 1'b0;
      cur_addr <= '0;
      rd_done <= 1'b0;
      rd_req <= '0;
      inflight <= '0;
    end else begin
      now <= now + SW'(1);
      ack_now <= ack_next;
      inflight <= inflight + CW'(accepting) - completions;
      bq_count <= bq_count + CW'(accepting) - CW'(start);
      aq_count <= aq_count_after;
      if (accepting) begin
        bq_req[bq_tail] <= acc_req;
        bq_wr[bq_tail] <= acc_wr;
        bq_nar[bq_tail] <= acc_nar;
        bq_beats[bq_tail] <= acc_beats;
        bq_addr[bq_tail] <= acc_addr;
        bq_at[bq_tail] <= now + (acc_wr ? SW'(1) : SW'(accelc_hw_pkg::DRAM_LATENCY));
        bq_tail <= bq_tail_next;
      end
      if (beat_valid) cur_addr <= beat_addr + AB'(beat_narrow ? NARROW : accelc_hw_pkg::DRAM_BYTES_PER_CYCLE);
      if (start) begin
        bq_head <= bq_head_next;
        beats_left <= head_beats - BB'(1);
        cur_req <= bq_req[bq_head];
        cur_wr <= bq_wr[bq_head];
        cur_nar <= bq_nar[bq_head];
      end else if (beats_left != '0) begin
        beats_left <= beats_left - BB'(1);
      end
      rd_done <= ending && !beat_wr;
      rd_req <= beat_req;
      if (push_ack) begin
        aq_req[aq_tail] <= beat_req;
        aq_at[aq_tail] <= now + SW'(1) + SW'(accelc_hw_pkg::DRAM_LATENCY);
        aq_tail <= aq_tail_next;
      end
      if (ack_now) aq_head <= aq_head_next;
    end
  end
endmodule
