// tests/simulator/rtl_tb/dram_port_tb.cc — drives the verilated DRAM port
// (hls/rtl/accelc_dram_port.sv) with DMAs read from `in` and writes the cycle
// each completes, so that tests can hold the RTL to the contract's C++ model
// (an RtlTestBench, rtl_model.h).
//
// Input: the port's BEAT_BITS and a count, then per DMA "requester write from
// bursts beats...". Each
// requester issues its DMAs in order; a burst is requested from the DMA's
// `from` cycle and the cycle after the requester's previous accept, exactly as
// simulator/timing/dram_port.h assumes. Output: per DMA, in input order, the
// cycle its last burst completed.
#include <cstdint>
#include <cstdio>
#include <deque>
#include <iostream>
#include <memory>
#include <vector>

#include "simulator/rtl/verilated_top.h"

namespace {

struct Dma {
  int requester = 0;
  bool write = false;
  uint64_t from = 0;
  std::vector<uint32_t> beats;  ///< per burst
  size_t next = 0;              ///< bursts accepted so far
  size_t completed = 0;         ///< bursts completed so far
  uint64_t done = 0;            ///< the cycle the last one completed
};

constexpr int kRequesters = 4;
constexpr uint64_t kLimit = 100000000;  ///< cycles before the harness gives up

}  // namespace

int ACCELC_RTL_ENTRY(accelc_rtl_bench_)(std::istream& in, std::ostream& out) {
  size_t count = 0;
  int beatBits = 0;
  if (!(in >> beatBits >> count) || beatBits < 1 || beatBits * kRequesters > 64) return 2;
  std::vector<Dma> dmas(count);
  std::deque<size_t> issue[kRequesters], waiting[kRequesters];  // DMAs to request, DMAs with bursts in flight
  for (size_t i = 0; i < count; ++i) {
    Dma& d = dmas[i];
    size_t bursts = 0;
    int write = 0;
    if (!(in >> d.requester >> write >> d.from >> bursts) || d.requester < 0 || d.requester >= kRequesters) return 2;
    d.write = write != 0;
    d.beats.resize(bursts);
    for (uint32_t& b : d.beats) in >> b;
    // Each requester reads or writes, never both: its bursts then complete in the order they were accepted.
    const bool mixed = !issue[d.requester].empty() && dmas[issue[d.requester].front()].write != d.write;
    if (bursts == 0 || mixed) return 2;
    issue[d.requester].push_back(i);
  }
  auto ctx = std::make_unique<VerilatedContext>();
  auto top = std::make_unique<VerilatedTop>(ctx.get(), "port");
  top->rst = 1;
  top->clk = 0, top->eval(), top->clk = 1, top->eval();
  top->rst = 0;
  uint64_t lastAccept[kRequesters] = {};
  bool accepted[kRequesters] = {};
  size_t finished = 0;
  for (uint64_t cycle = 0; finished < count; ++cycle) {
    if (cycle > kLimit) {
      std::cerr << "the port completed " << finished << " of " << count << " DMAs in " << kLimit << " cycles\n";
      return 1;
    }
    top->clk = 0;
    uint32_t valid = 0, write = 0;
    uint64_t beats = 0;
    for (int r = 0; r < kRequesters; ++r) {
      if (issue[r].empty()) continue;
      const Dma& d = dmas[issue[r].front()];
      if (cycle < d.from || (accepted[r] && cycle <= lastAccept[r])) continue;
      valid |= 1u << r, write |= (d.write ? 1u : 0u) << r;
      beats |= static_cast<uint64_t>(d.beats[d.next]) << (r * beatBits);
    }
    top->req_valid = valid, top->req_write = write, top->req_beats = beats;
    top->eval();
    for (int r = 0; r < kRequesters; ++r) {
      if (top->done >> r & 1) {
        Dma& d = dmas[waiting[r].front()];
        if (++d.completed == d.beats.size()) d.done = cycle, waiting[r].pop_front(), ++finished;
      }
      if (top->req_accept >> r & 1) {
        Dma& d = dmas[issue[r].front()];
        if (d.next == 0) waiting[r].push_back(issue[r].front());
        lastAccept[r] = cycle, accepted[r] = true;
        if (++d.next == d.beats.size()) issue[r].pop_front();
      }
    }
    top->clk = 1;
    top->eval();
    ctx->timeInc(1);
  }
  top->final();
  for (const Dma& d : dmas) out << d.done << "\n";
  return 0;
}
