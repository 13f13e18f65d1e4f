// boards/ice40/accelc_ice40_top.sv — the whole accelerator on an iCE40 UP5K, with
// its DRAM on chip: only a clock, a reset and `done` leave the part.
//
// DRAM is one 16-bit word per DRAM beat (DRAM_BYTES_PER_CYCLE = 2) in a memory
// of the window's size that Yosys maps to the UP5K's SPRAMs (128 KiB in four
// SB_SPRAM256KA); a read beat's word comes back the next cycle, as the core
// expects. SPRAM cannot be initialized by the bitstream, so a ROM in block RAM
// holds the program's DRAM image up to its last segment (accelc_image_pkg and
// accelc_image.hex, written with the RTL by `accelc bitstream`); after reset
// the ROM is copied into DRAM and the rest of the program's window cleared,
// one word a cycle, then the core runs the program once from its
// text (INSN_ADDR, INSN_COUNT) and `done` stays high from the cycle after
// FINISH retires until the next reset.
module accelc_ice40_top (
    input  logic clk,
    input  logic rst_n,  // active low: a push button
    output logic done
);
  localparam int AB = accelc_hw_pkg::DRAM_ADDR_BITS;
  localparam int WA = AB - 1;  // word addresses
  localparam int WORDS = accelc_image_pkg::IMAGE_WORDS;    // ROM words
  localparam int CLEAR = accelc_image_pkg::WINDOW_WORDS;   // DRAM words the program's window covers
  localparam int RA = WORDS > 1 ? $clog2(WORDS) : 1;
  localparam int CA = $clog2(CLEAR + 1);

  // Reset: the button, and the first 15 cycles after configuration (flip-flops start at zero).
  logic [3:0] por;
  logic rst;
  always_ff @(posedge clk) begin
    if (por != 4'hf) por <= por + 4'd1;
    rst <= !rst_n || por != 4'hf;
  end

  // The image ROM, read one cycle ahead of the copy's write.
  logic [15:0] rom[WORDS];
  initial $readmemh("accelc_image.hex", rom);
  logic [15:0] rom_q;
  logic [CA-1:0] copied, fetched;  // words written to DRAM, words read from the ROM
  always_ff @(posedge clk) rom_q <= rom[RA'(fetched)];

  // The core.
  logic start, running, core_done, mem_rd, mem_wr;
  logic [63:0] cycles;
  /* verilator lint_off UNUSEDSIGNAL */
  logic        core_error;     // no pin: a board program is checked before it is built in
  logic [31:0] core_error_pc;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [31:0] mem_addr;
  logic [15:0] mem_wdata, mem_rdata;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [accelc_hw_pkg::DRAM_BYTES_PER_CYCLE-1:0] mem_strb;  // all set: the board takes output rows of a beat or more
  /* verilator lint_on UNUSEDSIGNAL */
  accelc_core core (
      .clk, .rst, .start, .insn_count(32'(accelc_image_pkg::INSN_COUNT)), .insn_addr(32'(accelc_image_pkg::INSN_ADDR)),
      .dram_base(32'd0), .running, .done(core_done), .cycles, .error(core_error), .error_pc(core_error_pc), .mem_rd, .mem_wr,
      .mem_strb, .mem_addr, .mem_wdata, .mem_rdata);

  // DRAM: one port, the copy's until the image is in, then the core's.
  logic [15:0] dram[1 << WA];
  logic copying;
  assign copying = copied < CA'(CLEAR);
  logic          we, en;
  logic [WA-1:0] addr;
  logic [15:0]   wdata;
  always_comb begin
    if (copying) begin
      en = fetched != '0;
      we = fetched != '0;
      addr = WA'(copied);
      wdata = copied < CA'(WORDS) ? rom_q : '0;
    end else begin
      en = mem_rd || mem_wr;
      we = mem_wr;
      addr = mem_addr[AB-1:1];
      wdata = mem_wdata;
    end
  end
  always_ff @(posedge clk)
    if (en) begin
      if (we) dram[addr] <= wdata;
      else mem_rdata <= dram[addr];
    end

  logic started;
  assign start = !copying && !started;
  always_ff @(posedge clk) begin
    if (rst) begin
      fetched <= '0;
      copied <= '0;
      started <= 1'b0;
      done <= 1'b0;
    end else begin
      if (fetched < CA'(CLEAR)) fetched <= fetched + CA'(1);
      if (copying && fetched != '0) copied <= copied + CA'(1);
      if (start) started <= 1'b1;
      if (core_done) done <= 1'b1;
    end
  end
endmodule
