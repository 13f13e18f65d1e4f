// hls/rtl/accelc_axi.sv — the accelerator as a Zynq IP: accelc_engine on an
// AXI4 master for DRAM (accelc_axi_port) and an AXI4-Lite slave with the
// control registers of docs/microarchitecture.md ("The control registers of
// the Zynq IPs"), the same map the HLS IP has.
//
// A run: ap_start (once no burst of the last run is outstanding) resets the
// engine for a cycle and starts it on INSN_ADDR and INSN_COUNT, with DMA
// addresses counted from DRAM_BASE and checked against DRAM_WINDOW, both
// taken at the start. FINISH ends it: CYCLES and STOP_PC (fetch's pc: the
// FINISH's index + 1) are latched, STATUS reads 0, ap_done and ap_ready
// rise. A fault ends it too: an illegal instruction (STATUS bit 0; STOP_PC
// is that instruction), a burst past DRAM_WINDOW (bit 1) or not on a boundary
// of its beats (bit 4), an R or B response other than OKAY (bit 3; STOP_PC is how far
// fetch had got). The port then accepts no burst, the accepted ones
// complete, the engine is reset, and ap_done rises. While a run goes on
// STOP_PC reads fetch's pc. ABORT stops a run the same way without touching
// STATUS or raising ap_done, and drops a start not yet taken: AP_CTRL then
// reads idle, ready for the next start. The interrupt is GIE and (ISR and
// IER); done and ready set their ISR bits when enabled. Register writes take
// whole 32-bit words. The offsets and STATUS bits come from
// accelc_target_pkg (isa/control_regs.h).
module accelc_axi (
    input  logic                                             ap_clk,
    input  logic                                             ap_rst_n,
    /* verilator lint_off SYMRSVDWORD */  // Vitis's name for the IP's interrupt
    output logic                                             interrupt,
    /* verilator lint_on SYMRSVDWORD */
    // AXI4-Lite control slave
    input  logic [6:0]                                       s_axi_control_awaddr,
    input  logic                                             s_axi_control_awvalid,
    output logic                                             s_axi_control_awready,
    input  logic [31:0]                                      s_axi_control_wdata,
    /* verilator lint_off UNUSEDSIGNAL */  // whole-word writes
    input  logic [3:0]                                       s_axi_control_wstrb,
    /* verilator lint_on UNUSEDSIGNAL */
    input  logic                                             s_axi_control_wvalid,
    output logic                                             s_axi_control_wready,
    output logic [1:0]                                       s_axi_control_bresp,
    output logic                                             s_axi_control_bvalid,
    input  logic                                             s_axi_control_bready,
    input  logic [6:0]                                       s_axi_control_araddr,
    input  logic                                             s_axi_control_arvalid,
    output logic                                             s_axi_control_arready,
    output logic [31:0]                                      s_axi_control_rdata,
    output logic [1:0]                                       s_axi_control_rresp,
    output logic                                             s_axi_control_rvalid,
    input  logic                                             s_axi_control_rready,
    // AXI4 master for DRAM
    output logic [63:0]                                      m_axi_araddr,
    output logic [7:0]                                       m_axi_arlen,
    output logic [2:0]                                       m_axi_arsize,
    output logic [1:0]                                       m_axi_arburst,
    output logic                                             m_axi_arvalid,
    input  logic                                             m_axi_arready,
    input  logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0] m_axi_rdata,
    input  logic [1:0]                                       m_axi_rresp,
    input  logic                                             m_axi_rlast,
    input  logic                                             m_axi_rvalid,
    output logic                                             m_axi_rready,
    output logic [63:0]                                      m_axi_awaddr,
    output logic [7:0]                                       m_axi_awlen,
    output logic [2:0]                                       m_axi_awsize,
    output logic [1:0]                                       m_axi_awburst,
    output logic                                             m_axi_awvalid,
    input  logic                                             m_axi_awready,
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE*8-1:0] m_axi_wdata,
    output logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE-1:0]   m_axi_wstrb,
    output logic                                             m_axi_wlast,
    output logic                                             m_axi_wvalid,
    input  logic                                             m_axi_wready,
    input  logic [1:0]                                       m_axi_bresp,
    input  logic                                             m_axi_bvalid,
    output logic                                             m_axi_bready
);
  localparam int NR = accelc_hw_pkg::NUM_REQUESTERS;
  localparam int BB = accelc_hw_pkg::BEAT_BITS;
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;
  localparam int W = accelc_hw_pkg::DRAM_BYTES_PER_CYCLE;
  logic clk, rst;
  assign clk = ap_clk;
  assign rst = !ap_rst_n;

  // ---- the control registers ----
  logic        ap_start, ap_done, ap_ready, auto_restart, gie;
  logic [1:0]  ier, isr;
  logic [31:0] insn_addr, insn_count, stop_pc, status;
  logic [63:0] dram_base, window, cycles_q;
  logic [63:0] run_base, run_window;  // DRAM_BASE and DRAM_WINDOW as the run started: the port's, steady

  // ---- the run's states ----
  typedef enum logic [2:0] {IDLE, RESET, START, RUN, DRAIN} state_t;
  state_t state;
  logic fault_done;  // the drain ends a faulted run: ap_done rises when it is idle

  logic        e_rst, e_start, e_running, e_done, e_error;
  logic [63:0] e_cycles;
  logic [31:0] e_pc;
  logic [NR-1:0]    rq_valid, rq_write, rq_narrow, rq_accept, rq_done;
  logic [NR*BB-1:0] rq_beats;
  logic [NR*AB-1:0] rq_addr;
  logic             rbeat_valid, wbeat_valid;
  logic [$clog2(NR)-1:0] rbeat_req;
  logic [W*8-1:0]   mem_rdata, mem_wdata;
  logic             halt, fault_window, fault_align, resp_error, port_busy;
  assign e_rst = rst || state == RESET || (state == DRAIN && !port_busy);
  assign e_start = state == START;
  assign halt = state != RUN;

  /* verilator lint_off UNUSEDSIGNAL */
  logic unused_running;
  assign unused_running = e_running;
  /* verilator lint_on UNUSEDSIGNAL */
  accelc_engine engine (
      .clk, .rst(e_rst), .start(e_start), .insn_count, .insn_addr, .dram_base(32'd0), .running(e_running),
      .done(e_done), .cycles(e_cycles), .error(e_error), .error_pc(e_pc), .rq_valid, .rq_write, .rq_narrow, .rq_beats,
      .rq_addr, .rq_accept, .rq_done, .rbeat_valid, .rbeat_req, .wbeat_valid, .mem_wdata, .mem_rdata);
  accelc_axi_port port (
      .clk, .rst, .halt, .base(run_base), .window(run_window), .req_valid(rq_valid), .req_write(rq_write),
      .req_narrow(rq_narrow), .req_beats(rq_beats), .req_addr(rq_addr), .req_accept(rq_accept), .done(rq_done), .rbeat_valid, .rbeat_req,
      .wbeat_valid, .rdata_q(mem_rdata), .mem_wdata, .fault_window, .fault_align, .resp_error, .busy(port_busy),
      .m_axi_araddr, .m_axi_arlen, .m_axi_arsize, .m_axi_arburst, .m_axi_arvalid, .m_axi_arready, .m_axi_rdata,
      .m_axi_rresp, .m_axi_rlast, .m_axi_rvalid, .m_axi_rready, .m_axi_awaddr, .m_axi_awlen, .m_axi_awsize,
      .m_axi_awburst, .m_axi_awvalid, .m_axi_awready, .m_axi_wdata, .m_axi_wstrb, .m_axi_wlast, .m_axi_wvalid,
      .m_axi_wready, .m_axi_bresp, .m_axi_bvalid, .m_axi_bready);

  // The faults of this cycle, as STATUS bits.
  logic [31:0] fault_bits;
  always_comb begin
    fault_bits = '0;
    fault_bits[accelc_target_pkg::STATUS_ILLEGAL_BIT] = e_error;
    fault_bits[accelc_target_pkg::STATUS_WINDOW_BIT] = fault_window;
    fault_bits[accelc_target_pkg::STATUS_AXI_ERROR_BIT] = resp_error;
    fault_bits[accelc_target_pkg::STATUS_MISALIGNED_BIT] = fault_align;
  end

  // ---- AXI4-Lite: one write and one read at a time ----
  logic        w_take, r_take, abort_req;
  assign s_axi_control_awready = w_take;
  assign s_axi_control_wready = w_take;
  assign w_take = s_axi_control_awvalid && s_axi_control_wvalid && !s_axi_control_bvalid;
  assign s_axi_control_bresp = 2'b00;
  assign s_axi_control_arready = r_take;
  assign r_take = s_axi_control_arvalid && !s_axi_control_rvalid;
  assign s_axi_control_rresp = 2'b00;
  logic [6:0]  waddr, raddr;
  assign waddr = s_axi_control_awaddr & 7'h7C;
  assign raddr = s_axi_control_araddr & 7'h7C;
  assign abort_req = w_take && waddr == accelc_target_pkg::REG_ABORT && s_axi_control_wdata[0];

  logic [31:0] rword;
  always_comb begin
    // The gaps of the map read 0.
    rword = '0;
    if (raddr == accelc_target_pkg::REG_AP_CTRL)
      rword = {24'd0, auto_restart, 3'd0, ap_ready, state == IDLE && !ap_start, ap_done, ap_start};
    if (raddr == accelc_target_pkg::REG_GIE) rword = {31'd0, gie};
    if (raddr == accelc_target_pkg::REG_IER) rword = {30'd0, ier};
    if (raddr == accelc_target_pkg::REG_ISR) rword = {30'd0, isr};
    if (raddr == accelc_target_pkg::REG_INSN_ADDR) rword = insn_addr;
    if (raddr == accelc_target_pkg::REG_INSN_COUNT) rword = insn_count;
    if (raddr == accelc_target_pkg::REG_DRAM_BASE_LO) rword = dram_base[31:0];
    if (raddr == accelc_target_pkg::REG_DRAM_BASE_HI) rword = dram_base[63:32];
    if (raddr == accelc_target_pkg::REG_CYCLES_LO) rword = cycles_q[31:0];
    if (raddr == accelc_target_pkg::REG_CYCLES_HI) rword = cycles_q[63:32];
    if (raddr == accelc_target_pkg::REG_STATUS) rword = status;
    if (raddr == accelc_target_pkg::REG_STOP_PC) rword = state == RUN ? e_pc : stop_pc;  // fetch's pc while a run goes on
    if (raddr == accelc_target_pkg::REG_HASH_LO) rword = accelc_target_pkg::TARGET_HASH[31:0];
    if (raddr == accelc_target_pkg::REG_HASH_HI) rword = accelc_target_pkg::TARGET_HASH[63:32];
    if (raddr == accelc_target_pkg::REG_WINDOW_LO) rword = window[31:0];
    if (raddr == accelc_target_pkg::REG_WINDOW_HI) rword = window[63:32];
  end
  assign interrupt = gie && (isr & ier) != 2'b00;

  logic finished;  // a run ends this cycle with ap_done
  assign finished = (state == RUN && e_done && fault_bits == '0 && !abort_req) ||
                    (state == DRAIN && !port_busy && fault_done);

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= IDLE;
      {ap_start, ap_done, ap_ready, auto_restart, gie, fault_done} <= '0;
      {ier, isr} <= '0;
      {insn_addr, insn_count, stop_pc, status} <= '0;
      {dram_base, window, cycles_q, run_base, run_window} <= '0;
      s_axi_control_bvalid <= 1'b0;
      s_axi_control_rvalid <= 1'b0;
      s_axi_control_rdata <= '0;
    end else begin
      // Register writes.
      if (s_axi_control_bvalid && s_axi_control_bready) s_axi_control_bvalid <= 1'b0;
      if (w_take) begin
        s_axi_control_bvalid <= 1'b1;
        // Read-only registers, ABORT (below) and the gaps take no write.
        if (waddr == accelc_target_pkg::REG_AP_CTRL) begin
          if (s_axi_control_wdata[0]) ap_start <= 1'b1;
          auto_restart <= s_axi_control_wdata[7];
        end
        if (waddr == accelc_target_pkg::REG_GIE) gie <= s_axi_control_wdata[0];
        if (waddr == accelc_target_pkg::REG_IER) ier <= s_axi_control_wdata[1:0];
        if (waddr == accelc_target_pkg::REG_ISR) isr <= isr ^ s_axi_control_wdata[1:0];
        if (waddr == accelc_target_pkg::REG_INSN_ADDR) insn_addr <= s_axi_control_wdata;
        if (waddr == accelc_target_pkg::REG_INSN_COUNT) insn_count <= s_axi_control_wdata;
        if (waddr == accelc_target_pkg::REG_DRAM_BASE_LO) dram_base[31:0] <= s_axi_control_wdata;
        if (waddr == accelc_target_pkg::REG_DRAM_BASE_HI) dram_base[63:32] <= s_axi_control_wdata;
        if (waddr == accelc_target_pkg::REG_WINDOW_LO) window[31:0] <= s_axi_control_wdata;
        if (waddr == accelc_target_pkg::REG_WINDOW_HI) window[63:32] <= s_axi_control_wdata;
      end
      // Register reads; reading AP_CTRL clears ap_done and ap_ready.
      if (s_axi_control_rvalid && s_axi_control_rready) s_axi_control_rvalid <= 1'b0;
      if (r_take) begin
        s_axi_control_rvalid <= 1'b1;
        s_axi_control_rdata <= rword;
        if (raddr == accelc_target_pkg::REG_AP_CTRL) {ap_done, ap_ready} <= 2'b00;
      end
      // The run.
      unique case (state)  // every state_t value; the other encodings never occur
        IDLE:
          if (ap_start && !port_busy && !abort_req) begin
            state <= RESET;
            ap_start <= auto_restart;
            run_base <= dram_base;
            run_window <= window;
          end
        RESET, START: begin
          state <= abort_req ? DRAIN : state == RESET ? START : RUN;
          if (abort_req) fault_done <= 1'b0;
        end
        RUN:
          if (abort_req || fault_bits != '0) begin
            state <= DRAIN;
            fault_done <= !abort_req;
            if (!abort_req) begin
              status <= fault_bits;
              stop_pc <= e_pc;
              cycles_q <= e_cycles;
            end
          end else if (e_done) begin
            state <= IDLE;
            status <= '0;
            stop_pc <= e_pc;
            cycles_q <= e_cycles;
          end
        DRAIN:
          if (!port_busy) state <= IDLE;
      endcase
      // ABORT also drops a start not yet taken, and auto-restart.
      if (abort_req) {ap_start, auto_restart} <= 2'b00;
      if (finished) begin
        ap_done <= 1'b1;
        ap_ready <= 1'b1;
        if (ier[0]) isr[0] <= 1'b1;
        if (ier[1]) isr[1] <= 1'b1;
      end
    end
  end
endmodule
