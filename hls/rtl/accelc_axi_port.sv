// hls/rtl/accelc_axi_port.sv — the engine's requesters on an AXI4 master
// (docs/microarchitecture.md, "AXI"). It keeps the contract port's
// acceptance rules: at most one burst a cycle, fixed priority (fetch,
// compute, load, store), at most OUTSTANDING accepted and not complete, a
// slot freed in a cycle usable in it. The memory decides when data moves:
//
// - An accepted burst waits in a registered queue for its address channel
//   (AR or AW, one INCR burst of its beats at window base + its address), so
//   its address goes out from the cycle after the accept.
// - A read beat is an R handshake (rready is always high); the engine sees
//   it in that cycle on rbeat_* and its bytes on rdata_q the next cycle. A
//   read completes in the cycle after its last beat.
// - A write's beats are W handshakes from the cycle after its accept, in
//   acceptance order (wvalid does not wait for AW); each carries the store's
//   mem_wdata of that cycle with every strobe set. A narrow burst (output rows
//   narrower than a beat: isa::dramBeatBytes) is an AXI narrow burst of one
//   row a beat (AxSIZE the row's): a write beat's row moves to the lanes of
//   its address, with only their strobes set; a read beat's row comes from
//   those lanes down to byte 0. A write completes in the cycle after its B
//   handshake.
// - A burst past the window or not on a boundary of its beats is not accepted: it
//   raises fault_window or fault_align instead. An R or B response other
//   than OKAY raises resp_error. `halt` stops accepting; what was accepted
//   still completes, so that `busy` falls and the engine can be reset.
//
// With a memory that answers a read LATENCY - 1 cycles after its AR
// handshake, takes a write's beats as soon as it may, answers B LATENCY
// cycles after the last, and serves bursts in acceptance order one beat a
// cycle, every burst moves in the cycles the contract port gives it.
module accelc_axi_port (
    input  logic                                                          clk,
    input  logic                                                          rst,
    input  logic                                                          halt,
    input  logic [63:0]                                                   base,    // physical address of window byte 0
    input  logic [63:0]                                                   window,  // bytes in the window
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_valid,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_write,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_narrow,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::BEAT_BITS-1:0] req_beats,
    input  logic [accelc_hw_pkg::NUM_REQUESTERS*accelc_hw_pkg::DRAM_ADDR_BITS-1:0] req_addr,
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      req_accept,
    output logic [accelc_hw_pkg::NUM_REQUESTERS-1:0]                      done,
    output logic                                                          rbeat_valid,
    output logic [$clog2(accelc_hw_pkg::NUM_REQUESTERS)-1:0]              rbeat_req,
    output logic                                                          wbeat_valid,
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0]              rdata_q,
    input  logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0]              mem_wdata,
    output logic                                                          fault_window,
    output logic                                                          fault_align,
    output logic                                                          resp_error,
    output logic                                                          busy,
    // AXI4 master: one ID, INCR bursts of DRAM_BYTES_PER_CYCLE-byte beats (narrow: one output row a beat).
    output logic [63:0]                                                   m_axi_araddr,
    output logic [7:0]                                                    m_axi_arlen,
    output logic [2:0]                                                    m_axi_arsize,
    output logic [1:0]                                                    m_axi_arburst,
    output logic                                                          m_axi_arvalid,
    input  logic                                                          m_axi_arready,
    input  logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0]              m_axi_rdata,
    /* verilator lint_off UNUSEDSIGNAL */  // bit 1 of a response is an error; the port counts beats itself
    input  logic [1:0]                                                    m_axi_rresp,
    input  logic                                                          m_axi_rlast,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic                                                          m_axi_rvalid,
    output logic                                                          m_axi_rready,
    output logic [63:0]                                                   m_axi_awaddr,
    output logic [7:0]                                                    m_axi_awlen,
    output logic [2:0]                                                    m_axi_awsize,
    output logic [1:0]                                                    m_axi_awburst,
    output logic                                                          m_axi_awvalid,
    input  logic                                                          m_axi_awready,
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0]              m_axi_wdata,
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE-1:0]                m_axi_wstrb,
    output logic                                                          m_axi_wlast,
    output logic                                                          m_axi_wvalid,
    input  logic                                                          m_axi_wready,
    /* verilator lint_off UNUSEDSIGNAL */
    input  logic [1:0]                                                    m_axi_bresp,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic                                                          m_axi_bvalid,
    output logic                                                          m_axi_bready
);
  localparam int NR = accelc_hw_pkg::NUM_REQUESTERS;
  localparam int N = accelc_hw_pkg::OUTSTANDING;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;
  localparam int W = accelc_hw_pkg::DRAM_BYTES_PER_CYCLE;
  localparam int IW = N > 1 ? $clog2(N) : 1;
  localparam int CW = $clog2(N + 1) + 1;
  localparam int RW = $clog2(NR);
  // A narrow beat: one output row of E8 bytes (rows narrower than a beat only).
  localparam int E8 = accelc_hw_pkg::ROW_BEAT_BYTES;
  localparam int LW = W > 1 ? $clog2(W) : 1;  // a byte's lane bits

  // ---- acceptance: the contract port's arbiter, with the window and beat checks ----
  logic [CW-1:0] inflight, completions;
  logic [NR-1:0] cand;  // the highest-priority requester presenting a burst
  logic          c_wr, c_nar;
  logic [RW-1:0] c_req;
  logic [BB-1:0] c_beats;
  logic [AB-1:0] c_addr;
  accelc_port_pick picker (
      .req_valid, .req_write, .req_narrow, .req_beats, .req_addr, .pick(cand), .pick_req(c_req), .pick_write(c_wr),
      .pick_narrow(c_nar), .pick_beats(c_beats), .pick_addr(c_addr));
  logic c_inside, c_aligned, accepting;
  assign c_inside = {1'b0, 64'(c_addr)} + (c_nar ? 65'(c_beats) * 65'(E8) : 65'(c_beats) * 65'(W)) <= {1'b0, window};
  assign c_aligned = (c_addr & AB'((c_nar ? E8 : W) - 1)) == '0;
  always_comb begin
    completions = '0;
    for (int r = 0; r < NR; r++) completions = completions + CW'(done[r]);
  end
  assign accepting = |cand && !halt && c_inside && c_aligned && (inflight - completions) < CW'(N);
  assign req_accept = accepting ? cand : '0;
  assign fault_window = |cand && !halt && !c_inside;
  assign fault_align = |cand && !halt && c_inside && !c_aligned;
  assign busy = inflight != '0;

  // ---- queues, each registered: an entry is visible the cycle after its push ----
  // Addresses waiting for AR and for AW; reads and writes waiting for data.
  logic [AB-1:0] ar_addr[N], aw_addr[N], rd_addr[N], wr_addr[N];
  logic          ar_nar[N], aw_nar[N], rd_nar[N], wr_nar[N];
  logic [BB-1:0] ar_beats[N], aw_beats[N], rd_beats[N], wr_beats[N];
  logic [RW-1:0] rd_req[N], wr_req[N], b_req[N];
  logic [IW-1:0] ar_h, ar_t, aw_h, aw_t, rd_h, rd_t, wr_h, wr_t, b_h, b_t;
  logic [CW-1:0] ar_n, aw_n, rd_n, wr_n, b_n;
  function automatic logic [IW-1:0] nextIx(input logic [IW-1:0] i);
    nextIx = i == IW'(N - 1) ? '0 : i + IW'(1);
  endfunction

  logic ar_go, aw_go, r_go, w_go, b_go, r_last, w_last;
  logic [BB-1:0] r_count, w_count;  // beats of the head burst already moved
  assign m_axi_arvalid = ar_n != '0;
  assign m_axi_araddr = base + 64'(ar_addr[ar_h]);
  assign m_axi_arlen = 8'(32'(ar_beats[ar_h]) - 32'd1);
  assign m_axi_arsize = ar_nar[ar_h] ? 3'($clog2(E8)) : 3'($clog2(W));
  assign m_axi_arburst = 2'b01;
  assign m_axi_awvalid = aw_n != '0;
  assign m_axi_awaddr = base + 64'(aw_addr[aw_h]);
  assign m_axi_awlen = 8'(32'(aw_beats[aw_h]) - 32'd1);
  assign m_axi_awsize = aw_nar[aw_h] ? 3'($clog2(E8)) : 3'($clog2(W));
  assign m_axi_awburst = 2'b01;
  assign ar_go = m_axi_arvalid && m_axi_arready;
  assign aw_go = m_axi_awvalid && m_axi_awready;

  assign m_axi_rready = 1'b1;
  assign r_go = m_axi_rvalid && rd_n != '0;
  assign r_last = r_count + BB'(1) == rd_beats[rd_h];
  assign rbeat_valid = r_go;
  assign rbeat_req = rd_req[rd_h];

  // The lane of a narrow beat's row: the head burst's address, one row a beat on (the window's address
  // gives the bus's lanes: DRAM_BASE is on a 4 KiB boundary, as the board driver's DMA pool is).
  logic [LW-1:0] r_lane, w_lane;
  assign r_lane = LW'(rd_addr[rd_h] + (AB'(r_count) << $clog2(E8)));
  assign w_lane = LW'(wr_addr[wr_h] + (AB'(w_count) << $clog2(E8)));
  assign m_axi_wvalid = wr_n != '0;
  assign m_axi_wdata = wr_nar[wr_h] ? mem_wdata << (8 * 32'(w_lane)) : mem_wdata;
  assign m_axi_wstrb = wr_nar[wr_h] ? W'((64'(1) << E8) - 64'(1)) << w_lane : '1;
  assign w_last = w_count + BB'(1) == wr_beats[wr_h];
  assign m_axi_wlast = w_last;
  assign w_go = m_axi_wvalid && m_axi_wready;
  assign wbeat_valid = w_go;

  assign m_axi_bready = 1'b1;
  assign b_go = m_axi_bvalid && b_n != '0;
  assign resp_error = (r_go && m_axi_rresp[1]) || (b_go && m_axi_bresp[1]);

  logic          rd_done, wr_done;  // completions, registered from the last R beat and the B handshake
  logic [RW-1:0] rd_done_req, wr_done_req;
  always_comb begin
    done = '0;
    if (rd_done) done[rd_done_req] = 1'b1;
    if (wr_done) done[wr_done_req] = 1'b1;
  end

  always_ff @(posedge clk) begin
    if (rst) begin
      inflight <= '0;
      {ar_h, ar_t, aw_h, aw_t, rd_h, rd_t, wr_h, wr_t, b_h, b_t} <= '0;
      {ar_n, aw_n, rd_n, wr_n, b_n} <= '0;
      {r_count, w_count} <= '0;
      {rd_done, wr_done} <= '0;
      {rd_done_req, wr_done_req} <= '0;
      rdata_q <= '0;
    end else begin
      inflight <= inflight + CW'(accepting) - completions;
      if (accepting && !c_wr) begin
        ar_addr[ar_t] <= c_addr;
        ar_nar[ar_t] <= c_nar;
        ar_beats[ar_t] <= c_beats;
        ar_t <= nextIx(ar_t);
        rd_addr[rd_t] <= c_addr;
        rd_nar[rd_t] <= c_nar;
        rd_beats[rd_t] <= c_beats;
        rd_req[rd_t] <= c_req;
        rd_t <= nextIx(rd_t);
      end
      if (accepting && c_wr) begin
        aw_addr[aw_t] <= c_addr;
        aw_nar[aw_t] <= c_nar;
        aw_beats[aw_t] <= c_beats;
        aw_t <= nextIx(aw_t);
        wr_addr[wr_t] <= c_addr;
        wr_nar[wr_t] <= c_nar;
        wr_beats[wr_t] <= c_beats;
        wr_req[wr_t] <= c_req;
        wr_t <= nextIx(wr_t);
      end
      if (ar_go) ar_h <= nextIx(ar_h);
      if (aw_go) aw_h <= nextIx(aw_h);
      ar_n <= ar_n + CW'(accepting && !c_wr) - CW'(ar_go);
      aw_n <= aw_n + CW'(accepting && c_wr) - CW'(aw_go);
      // R beats, in AR order.
      if (r_go) rdata_q <= rd_nar[rd_h] ? m_axi_rdata >> (8 * 32'(r_lane)) : m_axi_rdata;
      rd_done <= r_go && r_last;
      rd_done_req <= rd_req[rd_h];
      if (r_go) r_count <= r_last ? '0 : r_count + BB'(1);
      if (r_go && r_last) rd_h <= nextIx(rd_h);
      rd_n <= rd_n + CW'(accepting && !c_wr) - CW'(r_go && r_last);
      // W beats, in acceptance order; then the B responses.
      if (w_go) w_count <= w_last ? '0 : w_count + BB'(1);
      if (w_go && w_last) begin
        wr_h <= nextIx(wr_h);
        b_req[b_t] <= wr_req[wr_h];
        b_t <= nextIx(b_t);
      end
      wr_n <= wr_n + CW'(accepting && c_wr) - CW'(w_go && w_last);
      b_n <= b_n + CW'(w_go && w_last) - CW'(b_go);
      wr_done <= b_go;
      wr_done_req <= b_req[b_h];
      if (b_go) b_h <= nextIx(b_h);
    end
  end
endmodule
