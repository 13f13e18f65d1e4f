// simulator/rtl/core_main.cc — runs programs on the verilated accelerator
// (hls/rtl/accelc_core.sv) with a DRAM that answers its beats: a read beat's
// bytes arrive the cycle after the beat, a write beat's bytes are stored in
// its cycle.
//
// Input: 32-bit words per instruction and a number of programs, then per
// program: the DRAM window's bytes, the text's byte address, its instruction
// count and a cycle limit, then the window as hex bytes (two digits each, one
// line). Output:
// per program the cycle its run ended (counting from the cycle after start)
// and the window after the run as one hex line; "stuck" when it did not end
// within the limit, "dram <address>" when a beat left the window.
//
// Options: --stats prints each run's cycles and simulated cycles per second on
// standard error; --vcd FILE writes a waveform (models verilated with --trace).
#include <cstdint>
#include <cstring>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <chrono>

#include "Vaccelc_core.h"
#include "verilated.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

namespace {

/// Reads `n` bytes of hex.
bool readHex(std::vector<uint8_t>& out, size_t n) {
  std::string line;
  if (!(std::cin >> line) || line.size() != 2 * n) return false;
  out.resize(n);
  auto digit = [](char c) { return c <= '9' ? c - '0' : c - 'a' + 10; };
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(digit(line[2 * i]) << 4 | digit(line[2 * i + 1]));
  return true;
}

void writeHex(const std::vector<uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string s(2 * bytes.size(), '0');
  for (size_t i = 0; i < bytes.size(); ++i) s[2 * i] = digits[bytes[i] >> 4], s[2 * i + 1] = digits[bytes[i] & 15];
  std::cout << s << "\n";
}

}  // namespace

int main(int argc, char** argv) {
  size_t words = 0, programs = 0;
  if (!(std::cin >> words >> programs) || words == 0) return 2;
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->commandArgs(argc, argv);
  bool stats = false;
  std::string vcd;
  for (int i = 1; i < argc; ++i) {
    if (std::string(argv[i]) == "--stats") stats = true;
    if (std::string(argv[i]) == "--vcd" && i + 1 < argc) vcd = argv[++i];
  }
#if VM_TRACE
  if (!vcd.empty()) ctx->traceEverOn(true);
  std::unique_ptr<VerilatedVcdC> wave;
#else
  if (!vcd.empty()) return 3;  // this model was verilated without --trace
#endif
  uint64_t time = 0;
  std::unique_ptr<Vaccelc_core> top;
  constexpr size_t kBeat = sizeof(Vaccelc_core::mem_rdata);
  auto tick = [&] {
    top->clk = 1, top->eval();
#if VM_TRACE
    if (wave) wave->dump(time);
#endif
    ++time;
    top->clk = 0, top->eval();
#if VM_TRACE
    if (wave) wave->dump(time);
#endif
    ++time;
  };
  for (size_t p = 0; p < programs; ++p) {
    size_t size = 0, textAddr = 0, count = 0;
    uint64_t limit = 0;
    std::vector<uint8_t> dram;
    if (!(std::cin >> size >> textAddr >> count >> limit) || !readHex(dram, size) || textAddr + count * words * 4 > size) return 2;
    top = std::make_unique<Vaccelc_core>(ctx.get(), "core");  // buffers start zero, as the simulators' do
#if VM_TRACE
    if (!vcd.empty() && p == 0) {
      wave = std::make_unique<VerilatedVcdC>();
      top->trace(wave.get(), 99);
      wave->open(vcd.c_str());
    }
#endif
    const auto began = std::chrono::steady_clock::now();
    top->rst = 1, top->start = 0, tick(), top->rst = 0;
    top->insn_count = static_cast<uint32_t>(count);
    top->insn_addr = static_cast<uint32_t>(textAddr);
    top->dram_base = 0;
    top->start = 1, top->eval(), tick(), top->start = 0;
    uint64_t cycle = 0;
    bool pendingRead = false, bad = false;
    uint64_t readAddr = 0, badAddr = 0;
    for (; cycle < limit && !bad; ++cycle) {
      uint8_t beat[kBeat] = {};
      if (pendingRead)
        for (size_t i = 0; i < kBeat && readAddr + i < size; ++i) beat[i] = dram[readAddr + i];
      std::memcpy(&top->mem_rdata, beat, kBeat);
      top->eval();
      if (top->done) break;
      pendingRead = top->mem_rd;
      readAddr = top->mem_addr;
      if (top->mem_rd && readAddr >= size) bad = true, badAddr = readAddr;
      if (top->mem_wr) {
        if (top->mem_addr + kBeat > size) bad = true, badAddr = top->mem_addr;
        else std::memcpy(&dram[top->mem_addr], &top->mem_wdata, kBeat);
      }
      tick();
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (stats)
      std::cerr << "rtl: " << cycle << " cycles in " << seconds << " s, " << static_cast<double>(cycle) / seconds
                << " cycles/s\n";
#if VM_TRACE
    if (wave && p == 0) wave->close(), wave.reset();
#endif
    if (bad) std::cout << "dram " << badAddr << "\n";
    else if (cycle == limit) std::cout << "stuck\n";
    else if (top->cycles != cycle) std::cout << "cycles register " << top->cycles << " at " << cycle << "\n";
    else {
      std::cout << cycle << "\n";
      writeHex(dram);
    }
  }
  if (top) top->final();
  return 0;
}
