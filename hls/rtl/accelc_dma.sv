// hls/rtl/accelc_dma.sv — one unit's DMA engine on the DRAM port
// (docs/microarchitecture.md, "The DRAM port"): from the cycle after `start`
// it requests the transfer's bursts, each row on its own cut every MAX_BURST
// bytes, one request per cycle at most and the next the cycle after an
// accept; it counts the port's completions, then spends one cycle per
// zero-padding entry (`pads`, loads only) and raises `finish` in the cycle
// the instruction ends.
//
// It also says where the data goes: each burst's DRAM address (row r at
// `addr` + r * `pitch`, cut every MAX_BURST bytes); for each beat of its own
// (`beat`: the port serves a unit's bursts in order) the row and byte offset
// in the transfer it carries; and in each padding cycle the padding entry it
// writes, as a row and column of the padded window (y_pad0 + rows + y_pad1
// rows of x_pad0 + x_size + x_pad1 entries), in row-major order.
module accelc_dma (
    input  logic                                 clk,
    input  logic                                 rst,
    input  logic                                 start,      // the unit starts the instruction this cycle
    input  logic                                 write,      // a STORE
    input  logic [31:0]                          rows,       // y_size
    input  logic [31:0]                          row_bytes,  // x_size times the buffer's DRAM entry bytes
    input  logic [31:0]                          pads,       // zero-padding entries written after the data
    input  logic [31:0]                          addr,       // DRAM byte address of row 0
    input  logic [31:0]                          pitch,      // DRAM bytes from one row to the next
    input  logic [31:0]                          y_pad0,     // the padded window (loads)
    input  logic [31:0]                          x_pad0,
    input  logic [31:0]                          x_size,
    input  logic [31:0]                          x_pad1,
    output logic [31:0]                          req_addr,
    input  logic                                 beat,       // a data beat of this engine's bursts goes now
    output logic [31:0]                          data_row,   // ... it carries this row of the transfer
    output logic [31:0]                          data_off,   // ... from this byte of the row
    output logic                                 pad_valid,  // a padding entry is written now
    output logic [31:0]                          pad_row,    // ... at this row
    output logic [31:0]                          pad_col,    // ... and column of the padded window
    output logic                                 req_valid,
    output logic                                 req_write,
    output logic [accelc_hw_pkg::BEAT_BITS-1:0]  req_beats,
    input  logic                                 req_accept,
    input  logic                                 done,       // one of this unit's bursts completed
    output logic                                 finish
);
  localparam int MAXB = accelc_hw_pkg::MAX_BURST;
  localparam int W = accelc_hw_pkg::DRAM_BYTES_PER_CYCLE;

  typedef enum logic [1:0] {IDLE, REQ, WAIT, PAD} state_t;
  state_t state;
  logic [31:0] rows_left, offset, row_len, outstanding, pads_left;
  logic        wr;
  logic [31:0] row_addr, row_pitch;             // DRAM address of the requesting row, row to row
  logic [31:0] yp0, ys, xp0, xs, xp1;           // the padded window
  logic [31:0] drow, doff;                      // the next data beat's place

  // The first padding entry at or after (r, c) in row-major order: data rows
  // are skipped whole when they have no column padding, else their data columns.
  function automatic logic [63:0] skipData(input logic [31:0] r, input logic [31:0] c, input logic [31:0] top,
                                           input logic [31:0] h, input logic [31:0] left, input logic [31:0] w,
                                           input logic [31:0] right);
    logic [31:0] nr, nc;
    nr = r;
    nc = c;
    if (nr >= top && nr < top + h) begin
      if (left == '0 && right == '0) begin
        nr = top + h;
        nc = '0;
      end else if (nc >= left && nc < left + w) begin
        nc = left + w;
        if (right == '0) begin  // the next row starts with left padding
          nr = nr + 32'd1;
          nc = '0;
        end
      end
    end
    skipData = {nr, nc};
  endfunction
  logic [31:0] pr, pc;  // the padding entry of this PAD cycle
  logic [63:0] pad_next, pad_first;
  assign pad_next = pc + 32'd1 == xp0 + xs + xp1 ? skipData(pr + 32'd1, 32'd0, yp0, ys, xp0, xs, xp1)
                                                 : skipData(pr, pc + 32'd1, yp0, ys, xp0, xs, xp1);
  assign pad_first = skipData(32'd0, 32'd0, yp0, ys, xp0, xs, xp1);
  assign pad_valid = state == PAD;
  assign pad_row = pr;
  assign pad_col = pc;
  assign data_row = drow;
  assign data_off = doff;
  assign req_addr = row_addr + offset;

  // The current burst: the rest of the row, at most MAX_BURST bytes.
  logic [31:0] rest, burst;
  assign rest = row_len - offset;
  assign burst = rest > 32'(MAXB) ? 32'(MAXB) : rest;
  assign req_valid = state == REQ;
  assign req_write = wr;
  assign req_beats = accelc_hw_pkg::BEAT_BITS'((burst + 32'(W - 1)) / 32'(W));

  logic last_request, row_done;
  assign row_done = offset + burst >= row_len;
  assign last_request = row_done && rows_left == 32'd1;

  // Completions still due after this cycle; the data is in when none is left in WAIT.
  logic [31:0] due;
  assign due = outstanding + 32'(req_valid && req_accept) - 32'(done);
  logic data_in;
  assign data_in = state == WAIT && due == 32'd0;
  assign finish = (data_in && pads_left == 32'd0) || (state == PAD && pads_left == 32'd1);

  always_ff @(posedge clk) begin
    if (rst) begin
      state <= IDLE;
      rows_left <= '0;
      offset <= '0;
      row_len <= '0;
      outstanding <= '0;
      pads_left <= '0;
      wr <= 1'b0;
      row_addr <= '0;
      row_pitch <= '0;
      {yp0, ys, xp0, xs, xp1} <= '0;
      {drow, doff, pr, pc} <= '0;
    end else begin
      if (beat) begin
        if (doff + 32'(W) >= row_len) begin
          doff <= '0;
          drow <= drow + 32'd1;
        end else begin
          doff <= doff + 32'(W);
        end
      end
      outstanding <= due;
      if (start && (state == IDLE || finish)) begin  // a unit may start its next transfer in the cycle one ends
        rows_left <= rows;
        row_len <= row_bytes;
        offset <= '0;
        wr <= write;
        pads_left <= pads;
        row_addr <= addr;
        row_pitch <= pitch;
        yp0 <= y_pad0;
        ys <= rows;
        xp0 <= x_pad0;
        xs <= x_size;
        xp1 <= x_pad1;
        drow <= '0;
        doff <= '0;
        state <= rows == '0 || row_bytes == '0 ? WAIT : REQ;  // nothing to move: the data is in at once
      end else begin
        case (state)
          REQ:
            if (req_accept) begin
              if (row_done) begin
                offset <= '0;
                rows_left <= rows_left - 32'd1;
                row_addr <= row_addr + row_pitch;
              end else begin
                offset <= offset + burst;
              end
              if (last_request) state <= WAIT;
            end
          WAIT:
            if (data_in) begin
              state <= pads_left == 32'd0 ? IDLE : PAD;
              {pr, pc} <= pad_first;
            end
          PAD: begin
            pads_left <= pads_left - 32'd1;
            {pr, pc} <= pad_next;
            if (pads_left == 32'd1) state <= IDLE;
          end
          default: state <= IDLE;
        endcase
      end
    end
  end
endmodule
