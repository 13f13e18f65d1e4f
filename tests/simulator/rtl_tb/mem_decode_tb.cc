// tests/simulator/rtl_tb/mem_decode_tb.cc — feeds instruction words to the verilated
// LOAD/STORE decoder (hls/rtl/accelc_mem_decode.sv) and writes its fields, so
// that tests can hold the RTL's decoding to the C++ encoder (an RtlTestBench,
// rtl_model.h).
//
// Input: 32-bit words per instruction and a count, then per instruction its
// words, least significant first, in hex. Output: per instruction one line of
// the decoded opcode and fields in the ISA's order.
#include <cstdint>
#include <iostream>
#include <memory>

#include "simulator/rtl/verilated_top.h"

int ACCELC_RTL_ENTRY(accelc_rtl_bench_)(std::istream& in, std::ostream& out) {
  size_t words = 0, count = 0;
  if (!(in >> words >> count) || words * 32 != sizeof(VerilatedTop::insn) * 8) return 2;
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<VerilatedTop>(ctx.get(), "decode");
  for (size_t i = 0; i < count; ++i) {
    for (size_t w = 0; w < words; ++w) {
      uint32_t v = 0;
      if (!(in >> std::hex >> v)) return 2;
      top->insn[w] = v;
    }
    top->eval();
    out << std::dec << +top->opcode << " " << +top->pop_prev << " " << +top->pop_next << " " << +top->push_prev << " "
        << +top->push_next << " " << +top->buffer << " " << +top->sram_base << " " << +top->dram_base << " "
        << +top->y_size << " " << +top->x_size << " " << +top->x_stride << " " << +top->y_pad_0 << " " << +top->y_pad_1
        << " " << +top->x_pad_0 << " " << +top->x_pad_1 << "\n";
  }
  top->final();
  return 0;
}
