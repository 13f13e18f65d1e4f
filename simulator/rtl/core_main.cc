// simulator/rtl/core_main.cc — runs programs on the verilated control core
// (hls/rtl/accelc_core.sv) and prints each run's cycle count.
//
// Input: 32-bit words per instruction and a number of programs, then per
// program its instruction count and its words, least significant first, in
// hex. Output: per program the cycle its run ended (counting from the cycle
// after start), or "stuck" when it did not end within the limit.
#include <cstdint>
#include <iostream>
#include <memory>
#include <vector>

#include "Vaccelc_core.h"
#include "verilated.h"

int main(int argc, char** argv) {
  size_t words = 0, programs = 0;
  if (!(std::cin >> words >> programs) || words * 32 != sizeof(Vaccelc_core::fetch_insn) * 8) return 2;
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  auto top = std::make_unique<Vaccelc_core>(ctx.get(), "core");
  auto tick = [&] {
    top->clk = 1, top->eval();
    top->clk = 0, top->eval();
  };
  for (size_t p = 0; p < programs; ++p) {
    size_t count = 0;
    if (!(std::cin >> count)) return 2;
    std::vector<uint32_t> text(count * words);
    for (uint32_t& w : text)
      if (!(std::cin >> std::hex >> w >> std::dec)) return 2;
    top->rst = 1, top->start = 0, tick(), top->rst = 0;
    top->insn_count = static_cast<uint32_t>(count);
    top->start = 1, top->eval(), tick(), top->start = 0;
    uint64_t cycle = 0;
    const uint64_t limit = 50000000;
    for (; cycle < limit; ++cycle) {
      const uint32_t pc = top->fetch_pc;
      for (size_t w = 0; w < words; ++w) top->fetch_insn[w] = pc < count ? text[pc * words + w] : 0;
      top->eval();
      if (top->done) break;
      tick();
    }
    if (cycle == limit) std::cout << "stuck\n";
    else std::cout << cycle << "\n";
  }
  top->final();
  return 0;
}
