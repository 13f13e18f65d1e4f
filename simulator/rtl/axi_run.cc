// simulator/rtl/axi_run.cc — the Zynq IP as an RtlModel.
#include "simulator/rtl/axi_run.h"

#include <chrono>

#include "isa/control_regs.h"

namespace accelc::simulator {

namespace {

namespace regs = isa::regs;

class AxiRtlModel final : public RtlModel {
 public:
  AxiRtlModel(std::unique_ptr<AxiModel> ip, const AxiRunOptions& o) : ip_(std::move(ip)), o_(o) {}

  RtlOutcome run(uint8_t* dram, uint64_t size, uint64_t textAddr, uint64_t count, uint64_t limit) override {
    const auto began = std::chrono::steady_clock::now();
    ip_->powerOn(dram, o_.base, size, o_.memory, o_.powerOn);
    RtlOutcome r;
    const bool set = ip_->write(regs::kDramBaseLo, static_cast<uint32_t>(o_.base)) &&
                     ip_->write(regs::kDramBaseHi, static_cast<uint32_t>(o_.base >> 32)) &&
                     ip_->write(regs::kWindowLo, static_cast<uint32_t>(size)) &&
                     ip_->write(regs::kWindowHi, static_cast<uint32_t>(size >> 32)) &&
                     ip_->write(regs::kInsnAddr, static_cast<uint32_t>(textAddr)) &&
                     ip_->write(regs::kInsnCount, static_cast<uint32_t>(count)) &&
                     ip_->write(regs::kIer, regs::kIsrDone) && ip_->write(regs::kGie, 1) &&
                     ip_->write(regs::kApCtrl, regs::kApStart);
    if (!set) {
      r.kind = RtlOutcome::kProtocol;
      return r;
    }
    // The run's own count comes from CYCLES; the limit also covers the
    // register accesses around it.
    const uint64_t ran = ip_->run(limit + 16, true);
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - began).count();
    if (ran == limit + 16) {
      r.kind = RtlOutcome::kStuck, r.cycles = limit;
      return r;
    }
    const auto status = ip_->read(regs::kStatus), pc = ip_->read(regs::kStopPc);
    const auto lo = ip_->read(regs::kCyclesLo), hi = ip_->read(regs::kCyclesHi);
    if (!status || !pc || !lo || !hi) {
      r.kind = RtlOutcome::kProtocol;
      return r;
    }
    r.cycles = *lo | uint64_t{*hi} << 32;
    r.addr = *pc;
    if (*status & regs::kStatusIllegal)
      r.kind = RtlOutcome::kIllegal;
    else if (*status & regs::kStatusWindow)
      r.kind = RtlOutcome::kWindowFault;
    else if (*status & regs::kStatusAxiError)
      r.kind = RtlOutcome::kAxiError;
    else if (*status & regs::kStatusMisaligned)
      r.kind = RtlOutcome::kMisaligned;
    else if (ip_->memory().violation() != AxiViolation::kNone)
      r.kind = RtlOutcome::kProtocol;
    return r;
  }

  bool traceNextRun(const char* vcdPath) override { return vcdPath == nullptr; }
  uint64_t beatBytes() const override { return ip_->beatBytes(); }

 private:
  std::unique_ptr<AxiModel> ip_;
  AxiRunOptions o_;
};

}  // namespace

std::unique_ptr<RtlModel> axiRtlModel(std::unique_ptr<AxiModel> ip, const AxiRunOptions& o) {
  return std::make_unique<AxiRtlModel>(std::move(ip), o);
}

}  // namespace accelc::simulator
