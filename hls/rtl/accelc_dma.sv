// hls/rtl/accelc_dma.sv — one unit's DMA engine on the DRAM port
// (docs/microarchitecture.md, "The DRAM port"): from the cycle after `start`
// it requests the transfer's bursts, each row on its own cut every MAX_BURST
// bytes (and at 4 KiB boundaries with SPLIT_4K; `narrow` transfers of output
// rows narrower than a beat move one row a beat, at most MAX_BURST / W beats
// a burst), one request per cycle at most and the next the cycle after an
// accept; it counts the port's completions, then spends one cycle per
// zero-padding entry (`pads`, loads only) and raises `finish` in the cycle
// the instruction ends.
//
// It also says where the data goes: each burst's DRAM address (row r at
// `addr` + r * `pitch`, cut as above); for each beat of its own
// (`beat`: the port serves a unit's bursts in order) the entries from the
// window's first data entry to the first of its row (row times the window's
// width) and the byte offset in the row it carries; and in each padding cycle
// the padding entry it writes, as an entry of the padded window (y_pad0 + rows
// + y_pad1 rows of x_pad0 + x_size + x_pad1 entries) counted in row-major
// order, visiting the padding in that order. Both entry counts are kept
// modulo 2^XW and stepped by adders: no multiplier.
module accelc_dma #(
    parameter int XW = 16  // entry index bits (the widest buffer's)
) (
    input  logic                                 clk,
    input  logic                                 rst,
    input  logic                                 start,      // the unit starts the instruction this cycle
    input  logic                                 write,      // a STORE
    input  logic                                 narrow,     // output rows narrower than a beat: one row a beat
    input  logic [31:0]                          rows,       // y_size
    input  logic [31:0]                          row_bytes,  // x_size times the buffer's DRAM entry bytes
    input  logic [accelc_hw_pkg::PAD_COUNT_BITS-1:0] pads,   // zero-padding entries written after the data
    input  logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0] addr,   // DRAM byte address of row 0
    input  logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0] pitch,  // DRAM bytes from one row to the next
    /* verilator lint_off UNUSEDSIGNAL */  // the fields' widths are used
    input  logic [31:0]                          y_pad0,     // the padded window (loads)
    input  logic [31:0]                          x_pad0,
    input  logic [31:0]                          x_size,
    input  logic [31:0]                          x_pad1,
    /* verilator lint_on UNUSEDSIGNAL */
    output logic [accelc_hw_pkg::DRAM_ADDR_BITS-1:0] req_addr,
    input  logic                                 beat,       // a data beat of this engine's bursts goes now
    output logic [XW-1:0]                        data_base,  // ... it carries the row this many window entries on
    output logic [31:0]                          data_off,   // ... from this byte of the row
    output logic                                 pad_valid,  // a padding entry is written now
    output logic [XW-1:0]                        pad_idx,    // ... at this entry of the padded window
    output logic                                 req_valid,
    output logic                                 req_write,
    output logic                                 req_narrow, // its beats carry one output row (E8 bytes) each
    output logic [accelc_hw_pkg::BEAT_BITS-1:0]  req_beats,
    input  logic                                 req_accept,
    input  logic                                 done,       // one of this unit's bursts completed
    output logic                                 finish
);
  localparam int MAXB = accelc_hw_pkg::MAX_BURST;
  localparam int W = accelc_hw_pkg::DRAM_BYTES_PER_CYCLE;
  // A narrow beat (isa::dramBeatBytes) carries one output row; a burst of them
  // has at most the bus's beats.
  localparam int E8 = accelc_hw_pkg::ROW_BEAT_BYTES;
  localparam int MAXB8 = MAXB / W * E8 > E8 ? MAXB / W * E8 : E8;

  // Register widths from the instruction fields: rows and columns of the
  // window (a pad on each side), and a row's bytes (the largest entry).
  localparam int YB = accelc_isa_pkg::MEM_Y_SIZE_BITS, XB = accelc_isa_pkg::MEM_X_SIZE_BITS;
  localparam int PB = accelc_isa_pkg::MEM_Y_PAD_0_BITS > accelc_isa_pkg::MEM_X_PAD_0_BITS
                          ? accelc_isa_pkg::MEM_Y_PAD_0_BITS : accelc_isa_pkg::MEM_X_PAD_0_BITS;
  localparam int RW = YB + 1, CW = XB + 1;  // a padded window's rows and columns
  localparam int EMAX = accelc_hw_pkg::ENTRY_BYTES_WGT > accelc_hw_pkg::ENTRY_BYTES_ACC
                            ? accelc_hw_pkg::ENTRY_BYTES_WGT : accelc_hw_pkg::ENTRY_BYTES_ACC;
  localparam int BW = XB + $clog2(EMAX) + 1;  // a row's bytes
  localparam int OW = $clog2(accelc_hw_pkg::OUTSTANDING + 2);
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS, NP = accelc_hw_pkg::PAD_COUNT_BITS;

  typedef enum logic [1:0] {IDLE, REQ, WAIT, PAD} state_t;
  state_t state;
  logic [YB-1:0] rows_left;
  logic [BW-1:0] offset, row_len;
  logic [OW-1:0] outstanding;
  logic [NP-1:0] pads_left;
  logic          wr, nar;
  logic [AB-1:0] row_addr, row_pitch;  // DRAM address of the requesting row, row to row
  logic [PB-1:0] yp0, xp0, xp1;        // the padded window
  logic [YB-1:0] ys;
  logic [XB-1:0] xs;
  logic [XW-1:0] drow;                 // the next data beat's place: its row's first window entry,
  logic [BW-1:0] doff;                 // and its byte in the row
  logic [CW-1:0] cols;                 // the window's width
  assign cols = CW'(xp0) + CW'(xs) + CW'(xp1);

  // Padding is visited in row-major order from (0, 0), skipping the data:
  // data rows are skipped whole when they have no column padding, else their
  // data columns. The walk enters the data only at its top-left corner (a
  // whole data row) or at a data row's left edge, so a skip moves on by the
  // data's entries (rows * x_size, the data rows' window entries that the
  // data cursor `drow` has stepped over once the data is in) or by x_size.
  function automatic logic [RW+CW+XW-1:0] skipData(input logic [RW-1:0] r, input logic [CW-1:0] c,
                                                   input logic [XW-1:0] i);
    logic [RW-1:0] nr, top, bottom;
    logic [CW-1:0] nc, left, right;
    logic [XW-1:0] ni;
    {nr, nc, ni} = {r, c, i};
    top = RW'(yp0);
    bottom = RW'(yp0) + RW'(ys);
    left = CW'(xp0);
    right = CW'(xp0) + CW'(xs);
    if (nr >= top && nr < bottom) begin
      if (xp0 == '0 && xp1 == '0) begin
        nr = bottom;
        nc = '0;
        ni = ni + drow;
      end else if (nc >= left && nc < right) begin
        nc = right;
        ni = ni + XW'(xs);
        if (xp1 == '0) begin  // the next row starts with left padding
          nr = nr + RW'(1);
          nc = '0;
        end
      end
    end
    skipData = {nr, nc, ni};
  endfunction
  logic [RW-1:0] pr;  // the padding entry of this PAD cycle: row, column, window entry
  logic [CW-1:0] pc;
  logic [XW-1:0] pi;
  logic [RW+CW+XW-1:0] pad_next;
  logic wrap;
  assign wrap = pc + CW'(1) == cols;
  assign pad_next = skipData(wrap ? pr + RW'(1) : pr, wrap ? '0 : pc + CW'(1), pi + XW'(1));
  assign pad_valid = state == PAD;
  assign pad_idx = pi;
  assign data_base = drow;
  assign data_off = 32'(doff);
  assign req_addr = row_addr + AB'(offset);

  // The current burst: the rest of the row, at most MAX_BURST bytes (MAXB8 for
  // narrow beats), and with SPLIT_4K, when it starts on a beat, no further than the next 4 KiB
  // boundary of its address (beats of a burst off a beat would no longer
  // follow one another through the row; the AXI port refuses such a burst).
  logic [BW-1:0] rest, capped, burst, most, bb;
  logic [11:0]   page_off;  // the request's byte in its 4 KiB page
  logic [31:0]   to4k;
  assign bb = nar ? BW'(E8) : BW'(W);  // bytes a beat
  assign most = nar ? BW'(MAXB8) : BW'(MAXB);
  assign rest = row_len - offset;
  assign capped = rest > most ? most : rest;
  assign page_off = 12'(req_addr);
  assign to4k = 32'd4096 - 32'(page_off);
  assign burst = accelc_hw_pkg::SPLIT_4K != 0 && (32'(page_off) & (32'(bb) - 32'd1)) == 0 && to4k < 32'(capped)
                     ? BW'(to4k) : capped;
  assign req_valid = state == REQ;
  assign req_write = wr;
  assign req_narrow = nar;
  assign req_beats = nar ? accelc_hw_pkg::BEAT_BITS'((burst + BW'(E8 - 1)) / BW'(E8))
                         : accelc_hw_pkg::BEAT_BITS'((burst + BW'(W - 1)) / BW'(W));

  logic last_request, row_done;
  assign row_done = offset + burst >= row_len;
  assign last_request = row_done && rows_left == YB'(1);

  // Completions still due after this cycle; the data is in when none is left in WAIT.
  logic [OW-1:0] due;
  assign due = outstanding + OW'(req_valid && req_accept) - OW'(done);
  logic data_in;  // (no request is made in WAIT: only completions count)
  assign data_in = state == WAIT && outstanding == OW'(done);
  assign finish = (data_in && pads_left == '0) || (state == PAD && pads_left == NP'(1));

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= IDLE;
      rows_left <= '0;
      offset <= '0;
      row_len <= '0;
      outstanding <= '0;
      pads_left <= '0;
      wr <= 1'b0;
      nar <= 1'b0;
      row_addr <= '0;
      row_pitch <= '0;
      {yp0, ys, xp0, xs, xp1} <= '0;
      {drow, doff, pr, pc, pi} <= '0;
    end else begin
      if (beat) begin
        if (doff + bb >= row_len) begin
          doff <= '0;
          drow <= drow + XW'(cols);
        end else begin
          doff <= doff + bb;
        end
      end
      outstanding <= due;
      if (start && (state == IDLE || finish)) begin  // a unit may start its next transfer in the cycle one ends
        rows_left <= YB'(rows);
        row_len <= BW'(row_bytes);
        offset <= '0;
        wr <= write;
        nar <= narrow;
        pads_left <= pads;
        row_addr <= addr;
        row_pitch <= pitch;
        yp0 <= PB'(y_pad0);
        ys <= YB'(rows);
        xp0 <= PB'(x_pad0);
        xs <= XB'(x_size);
        xp1 <= PB'(x_pad1);
        drow <= '0;
        doff <= '0;
        state <= rows == '0 || row_bytes == '0 ? WAIT : REQ;  // nothing to move: the data is in at once
      end else begin
        case (state)
          REQ:
            if (req_accept) begin
              if (row_done) begin
                offset <= '0;
                rows_left <= rows_left - YB'(1);
                row_addr <= row_addr + row_pitch;
              end else begin
                offset <= offset + burst;
              end
              if (last_request) state <= WAIT;
            end
          WAIT:
            if (data_in) begin
              state <= pads_left == '0 ? IDLE : PAD;
              {pr, pc, pi} <= skipData('0, '0, '0);
            end
          PAD: begin
            pads_left <= pads_left - NP'(1);
            {pr, pc, pi} <= pad_next;
            if (pads_left == NP'(1)) state <= IDLE;
          end
          IDLE: ;  // waits for a start
        endcase
      end
    end
  end
endmodule
