// simulator/rtl/axi_harness.cc — a verilated accelc_axi (hls/rtl/accelc_axi.sv)
// as an AxiModel (axi_model.h): each cycle the memory drives its side from
// earlier handshakes, the model evaluates, the memory samples the master's
// side, and the clock rises.
//
// Compiled once per verilated model (verilated_top.h); the factory is the
// extern "C" function accelc_axi_create_<prefix>.
#include <cstring>
#include <memory>
#include <optional>

#include "simulator/rtl/axi_model.h"
#include "simulator/rtl/verilated_top.h"

namespace {

using Top = VerilatedTop;
using accelc::simulator::AxiMasterSide;
using accelc::simulator::AxiMemory;
using accelc::simulator::AxiMemoryOptions;
using accelc::simulator::AxiPowerOn;
using accelc::simulator::AxiSlaveSide;

constexpr unsigned kBeat = sizeof(Top::m_axi_rdata);

/// Copies a port's worth of bytes into a Verilator port of any width (an integer or a word array).
template <typename Port>
void setBytes(Port& port, const uint8_t* bytes) {
  std::memcpy(&port, bytes, sizeof(Port));
}

class AxiHarness final : public accelc::simulator::AxiModel {
 public:
  ~AxiHarness() override {
    if (top_) top_->final();
  }

  void powerOn(uint8_t* mem, uint64_t base, uint64_t size, const AxiMemoryOptions& memory,
               const AxiPowerOn& how) override {
    if (top_) top_->final();
    top_.reset();
    ctx_ = std::make_unique<VerilatedContext>();
    // Verilator fills what the reset does not set at construction: zeros, or
    // values from the seed.
    ctx_->randReset(how.randomSeed ? 2 : 0);
    // Verilator takes seed 0 for "pick one": keep every seed reproducible.
    if (how.randomSeed) ctx_->randSeed(static_cast<int>(how.randomSeed % 0x7fffffff) + 1);
    top_ = std::make_unique<Top>(ctx_.get(), "axi");
    memory_.emplace(mem, base, size, kBeat, memory);
    now_ = 0;
    // The processor's side idles (the model's inputs start random too).
    top_->s_axi_control_awvalid = 0, top_->s_axi_control_wvalid = 0, top_->s_axi_control_bready = 0;
    top_->s_axi_control_arvalid = 0, top_->s_axi_control_rready = 0;
    top_->m_axi_arready = 0, top_->m_axi_awready = 0, top_->m_axi_wready = 0;
    top_->m_axi_rvalid = 0, top_->m_axi_bvalid = 0;
    // A reset cycle without the memory: until the registers are reset, the
    // master's outputs are whatever the model powered on with.
    top_->ap_clk = 0, top_->ap_rst_n = 0, top_->eval();
    top_->ap_clk = 1, top_->eval();
    top_->ap_clk = 0, top_->eval();
    top_->ap_rst_n = 1;
    ++now_;
  }

  std::optional<uint32_t> read(uint32_t offset) override {
    top_->s_axi_control_araddr = offset;
    top_->s_axi_control_arvalid = 1;
    top_->s_axi_control_rready = 1;
    bool asked = false;
    for (uint64_t n = 0; n < kLiteCycles; ++n) {
      const bool take = evalSide() && top_->s_axi_control_rvalid;
      asked = asked || top_->s_axi_control_arready;
      const uint32_t data = top_->s_axi_control_rdata;
      clockEdge();
      if (asked) top_->s_axi_control_arvalid = 0;
      if (take) {
        top_->s_axi_control_rready = 0;
        return data;
      }
    }
    top_->s_axi_control_arvalid = 0, top_->s_axi_control_rready = 0;
    return std::nullopt;
  }

  bool write(uint32_t offset, uint32_t value) override {
    top_->s_axi_control_awaddr = offset;
    top_->s_axi_control_wdata = value;
    top_->s_axi_control_wstrb = 0xF;
    top_->s_axi_control_awvalid = 1;
    top_->s_axi_control_wvalid = 1;
    top_->s_axi_control_bready = 1;
    for (uint64_t n = 0; n < kLiteCycles; ++n) {
      evalSide();
      const bool accepted = top_->s_axi_control_awready, answered = top_->s_axi_control_bvalid;
      clockEdge();
      if (accepted) top_->s_axi_control_awvalid = 0, top_->s_axi_control_wvalid = 0;
      if (answered) {
        top_->s_axi_control_bready = 0;
        return true;
      }
    }
    top_->s_axi_control_awvalid = 0, top_->s_axi_control_wvalid = 0, top_->s_axi_control_bready = 0;
    return false;
  }

  uint64_t run(uint64_t cycles, bool untilInterrupt) override {
    uint64_t n = 0;
    for (; n < cycles; ++n) {
      if (untilInterrupt && top_->__SYM__interrupt) break;  // Verilator's name for `interrupt`, a C++ word
      cycle();
    }
    return n;
  }

  uint64_t now() const override { return now_; }
  const AxiMemory& memory() const override { return *memory_; }
  unsigned beatBytes() const override { return kBeat; }

 private:
  /// Drives the memory's side and evaluates; true (for chaining).
  bool evalSide() {
    AxiMasterSide a;  // the address channels' registers
    a.arvalid = top_->m_axi_arvalid, a.araddr = top_->m_axi_araddr, a.arlen = top_->m_axi_arlen;
    a.arsize = top_->m_axi_arsize;
    a.awvalid = top_->m_axi_awvalid, a.awaddr = top_->m_axi_awaddr, a.awlen = top_->m_axi_awlen;
    a.awsize = top_->m_axi_awsize;
    const AxiSlaveSide& s = memory_->drive(now_, a);
    top_->m_axi_arready = s.arready;
    top_->m_axi_awready = s.awready;
    top_->m_axi_wready = s.wready;
    top_->m_axi_rvalid = s.rvalid;
    top_->m_axi_rlast = s.rlast;
    top_->m_axi_rresp = s.rresp;
    if (s.rdata) setBytes(top_->m_axi_rdata, s.rdata);
    top_->m_axi_bvalid = s.bvalid;
    top_->m_axi_bresp = s.bresp;
    top_->eval();
    return true;
  }

  /// Samples the master's side and raises the clock.
  void clockEdge() {
    AxiMasterSide m;
    uint8_t wdata[kBeat];
    m.wvalid = top_->m_axi_wvalid;
    if (m.wvalid) {  // the beat's bytes, only in the cycles that have one
      std::memcpy(wdata, &top_->m_axi_wdata, kBeat);
      m.wdata = wdata, m.wstrb = top_->m_axi_wstrb, m.wlast = top_->m_axi_wlast;
    }
    m.rready = top_->m_axi_rready, m.bready = top_->m_axi_bready;
    memory_->sample(now_, m);
    top_->ap_clk = 1, top_->eval();
    top_->ap_clk = 0, top_->eval();
    ++now_;
  }

  void cycle() {
    evalSide();
    clockEdge();
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Top> top_;
  std::optional<AxiMemory> memory_;
  uint64_t now_ = 0;
};

}  // namespace

extern "C" accelc::simulator::AxiModel* ACCELC_RTL_ENTRY(accelc_axi_create_)() { return new AxiHarness; }
