// boards/ice40/board_main.cc — runs the iCE40 UP5K top level
// (boards/ice40/accelc_ice40_top.sv, verilated with --public-flat-rw and the
// program's image package) from configuration with the reset button
// released, until `done` or a cycle limit.
//
// Usage: board LIMIT WORDS (run in the folder that holds accelc_image.hex).
// Output: "done N", N the cycle in which `done` first reads high (cycle 0 is
// the first after configuration), or "stuck"; then DRAM's first WORDS 16-bit
// words as one line of hex bytes, in address order.
#include <cstdint>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <string>

#include "Vaccelc_ice40_top.h"
#include "Vaccelc_ice40_top___024root.h"
#include "verilated.h"

int main(int argc, char** argv) {
  if (argc < 3) return 2;
  const uint64_t limit = std::strtoull(argv[1], nullptr, 10), words = std::strtoull(argv[2], nullptr, 10);
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<Vaccelc_ice40_top>(ctx.get());
  top->rst_n = 1;
  top->clk = 0;
  top->eval();
  uint64_t cycle = 0;
  for (; cycle < limit && !top->done; ++cycle) {
    top->clk = 1;
    top->eval();
    top->clk = 0;
    top->eval();
  }
  if (top->done) std::cout << "done " << cycle << "\n";
  else std::cout << "stuck\n";
  static const char* digits = "0123456789abcdef";
  std::string hex;
  for (uint64_t w = 0; w < words; ++w) {
    const uint16_t v = top->rootp->accelc_ice40_top__DOT__dram[w];
    for (uint8_t b : {static_cast<uint8_t>(v & 0xff), static_cast<uint8_t>(v >> 8)}) hex += digits[b >> 4], hex += digits[b & 15];
  }
  std::cout << hex << "\n";
  top->final();
  return 0;
}
