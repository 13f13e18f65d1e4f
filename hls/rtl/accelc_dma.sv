// hls/rtl/accelc_dma.sv — one unit's DMA engine on the DRAM port
// (docs/microarchitecture.md, "The DRAM port"): from the cycle after `start`
// it requests the transfer's bursts, each row on its own cut every MAX_BURST
// bytes, one request per cycle at most and the next the cycle after an
// accept; it counts the port's completions, then spends one cycle per
// zero-padding entry (`pads`, loads only) and raises `finish` in the cycle
// the instruction ends.
module accelc_dma (
    input  logic                                 clk,
    input  logic                                 rst,
    input  logic                                 start,      // the unit starts the instruction this cycle
    input  logic                                 write,      // a STORE
    input  logic [31:0]                          rows,       // y_size
    input  logic [31:0]                          row_bytes,  // x_size times the buffer's DRAM entry bytes
    input  logic [31:0]                          pads,       // zero-padding entries written after the data
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
    end else begin
      outstanding <= due;
      if (start && (state == IDLE || finish)) begin  // a unit may start its next transfer in the cycle one ends
        rows_left <= rows;
        row_len <= row_bytes;
        offset <= '0;
        wr <= write;
        pads_left <= pads;
        state <= rows == '0 || row_bytes == '0 ? WAIT : REQ;  // nothing to move: the data is in at once
      end else begin
        case (state)
          REQ:
            if (req_accept) begin
              if (row_done) begin
                offset <= '0;
                rows_left <= rows_left - 32'd1;
              end else begin
                offset <= offset + burst;
              end
              if (last_request) state <= WAIT;
            end
          WAIT:
            if (data_in) state <= pads_left == 32'd0 ? IDLE : PAD;
          PAD: begin
            pads_left <= pads_left - 32'd1;
            if (pads_left == 32'd1) state <= IDLE;
          end
          default: state <= IDLE;
        endcase
      end
    end
  end
endmodule
