// tests/simulator/rtl_tb/dma_alone_tb.cc — times single transfers on the verilated
// DMA engine and DRAM port (tests/simulator/rtl_tb/tb_dma_alone.sv); an RtlTestBench
// (rtl_model.h).
//
// Input: a count, then per transfer "write rows row_bytes pads addr pitch". Output: per
// transfer the cycles from its start to the cycle it ends, each started on an
// idle port.
#include <cstdint>
#include <iostream>
#include <memory>

#include "simulator/rtl/verilated_top.h"

int ACCELC_RTL_ENTRY(accelc_rtl_bench_)(std::istream& in, std::ostream& out) {
  size_t count = 0;
  if (!(in >> count)) return 2;
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<VerilatedTop>(ctx.get(), "tb");
  auto tick = [&] {
    top->clk = 1, top->eval();
    top->clk = 0, top->eval();
  };
  top->rst = 1, top->start = 0, tick(), top->rst = 0;
  for (size_t i = 0; i < count; ++i) {
    uint32_t write = 0, rows = 0, rowBytes = 0, pads = 0, addr = 0, pitch = 0;
    if (!(in >> write >> rows >> rowBytes >> pads >> addr >> pitch)) return 2;
    for (int k = 0; k < 4; ++k) tick();  // an idle port
    top->write = write, top->rows = rows, top->row_bytes = rowBytes, top->pads = pads;
    top->addr = addr, top->pitch = pitch;
    top->start = 1;
    top->eval();
    uint64_t cycles = 0;
    for (bool first = true;; first = false) {
      if (!first) {
        top->eval();
        if (top->finish) break;
      }
      tick();
      top->start = 0;
      if (++cycles > 10000000) return 1;
    }
    out << cycles << "\n";
  }
  top->final();
  return 0;
}
