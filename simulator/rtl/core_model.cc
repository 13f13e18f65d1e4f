// simulator/rtl/core_model.cc — the verilated accelerator (hls/rtl/accelc_core.sv)
// as an RtlModel, with a DRAM that answers its port's beats: a read beat's
// bytes arrive the cycle after the beat, a write beat's bytes are stored in
// its cycle.
//
// Compiled once per verilated model (verilated_top.h); the factory is the
// extern "C" function accelc_rtl_create_<prefix>.
#include <chrono>
#include <cstring>
#include <memory>
#include <string>

#include "simulator/rtl/rtl_model.h"
#include "simulator/rtl/verilated_top.h"
#if VM_TRACE
#include "verilated_vcd_c.h"
#endif

namespace {

using Top = VerilatedTop;
using accelc::simulator::RtlOutcome;

class CoreModel final : public accelc::simulator::RtlModel {
 public:
  CoreModel() : ctx_(std::make_unique<VerilatedContext>()) {
#if VM_TRACE
    ctx_->traceEverOn(true);
#endif
  }
  ~CoreModel() override {
    if (top_) top_->final();
  }

  bool traceNextRun(const char* vcdPath) override {
#if VM_TRACE
    vcd_ = vcdPath;
    return true;
#else
    return vcdPath == nullptr;
#endif
  }

  uint64_t beatBytes() const override { return kBeat; }

  RtlOutcome run(uint8_t* dram, uint64_t size, uint64_t textAddr, uint64_t count, uint64_t limit) override {
    if (top_) top_->final();
    top_ = std::make_unique<Top>(ctx_.get(), "core");  // buffers start zero, as the simulators' do
    openWave();
    const auto began = std::chrono::steady_clock::now();
    top_->rst = 1, top_->start = 0, tick(), top_->rst = 0;
    top_->insn_count = static_cast<uint32_t>(count);
    top_->insn_addr = static_cast<uint32_t>(textAddr);
    top_->dram_base = 0;
    top_->start = 1, top_->eval(), tick(), top_->start = 0;
    RtlOutcome r;
    bool pendingRead = false;
    uint64_t readAddr = 0;
    for (; r.cycles < limit; ++r.cycles) {
      uint8_t beat[kBeat] = {};
      if (pendingRead)
        for (size_t i = 0; i < kBeat && readAddr + i < size; ++i) beat[i] = dram[readAddr + i];
      std::memcpy(&top_->mem_rdata, beat, kBeat);
      top_->eval();
      if (top_->done) break;
      if (top_->error) return illegal(r, top_->error_pc);
      pendingRead = top_->mem_rd;
      readAddr = top_->mem_addr;
      if (top_->mem_rd && readAddr >= size) return outOfWindow(r, readAddr);
      if (top_->mem_wr) {  // the bytes whose strobe is set: a narrow beat writes one output row
        uint8_t data[kBeat];
        std::memcpy(data, &top_->mem_wdata, kBeat);
        const uint64_t strb = static_cast<uint64_t>(top_->mem_strb);
        for (size_t i = 0; i < kBeat; ++i) {
          if (!(strb >> i & 1)) continue;
          if (top_->mem_addr + i >= size) return outOfWindow(r, top_->mem_addr);
          dram[top_->mem_addr + i] = data[i];
        }
      }
      tick();
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    closeWave();
    if (r.cycles == limit)
      r.kind = RtlOutcome::kStuck;
    else if (top_->cycles != r.cycles)
      r.kind = RtlOutcome::kCycleRegister, r.addr = top_->cycles;
    return r;
  }

 private:
  static constexpr size_t kBeat = sizeof(Top::mem_rdata);

  RtlOutcome outOfWindow(RtlOutcome r, uint64_t addr) {
    closeWave();
    r.kind = RtlOutcome::kOutOfWindow, r.addr = addr;
    return r;
  }

  RtlOutcome illegal(RtlOutcome r, uint64_t pc) {
    closeWave();
    r.kind = RtlOutcome::kIllegal, r.addr = pc;
    return r;
  }

  void tick() {
    top_->clk = 1, top_->eval(), dump();
    top_->clk = 0, top_->eval(), dump();
  }

#if VM_TRACE
  void openWave() {
    if (vcd_.empty()) return;
    wave_ = std::make_unique<VerilatedVcdC>();
    top_->trace(wave_.get(), 99);
    wave_->open(vcd_.c_str());
    vcd_.clear();
    time_ = 0;
  }
  void dump() {
    if (wave_) wave_->dump(time_++);
  }
  void closeWave() {
    if (wave_) wave_->close(), wave_.reset();
  }
  std::string vcd_;                      ///< the next run's waveform file
  std::unique_ptr<VerilatedVcdC> wave_;  ///< this run's waveform
  uint64_t time_ = 0;                    ///< its time, in half cycles
#else
  void openWave() {}
  void dump() {}
  void closeWave() {}
#endif

  std::unique_ptr<VerilatedContext> ctx_;  ///< the model's context
  std::unique_ptr<Top> top_;               ///< the model, fresh for each run
};

}  // namespace

extern "C" accelc::simulator::RtlModel* ACCELC_RTL_ENTRY(accelc_rtl_create_)() { return new CoreModel; }
