// simulator/rtl/axi_memory.cc — the AXI4 slave memory of axi_memory.h.
//
// Valid signals, once raised, stay up until their handshake (the protocol
// asks it of a slave); only readies and the raising of a valid may stall.
#include "simulator/rtl/axi_memory.h"

#include <algorithm>
#include <cstring>

namespace accelc::simulator {

namespace {
constexpr unsigned kOkay = 0, kSlvErr = 2, kDecErr = 3;
}

AxiMemory::AxiMemory(uint8_t* mem, uint64_t base, uint64_t size, unsigned beatBytes, const AxiMemoryOptions& o)
    : mem_(mem), base_(base), size_(size), beat_(beatBytes), o_(o), rng_(o.seed), rbeat_(beatBytes, 0) {}

bool AxiMemory::stall() { return o_.stallPercent && rng_() % 100 < o_.stallPercent; }

unsigned AxiMemory::respFor(uint64_t addr, uint64_t bytes) const {
  const uint64_t end = addr + bytes;
  if (addr < base_ || end > base_ + size_ || end < addr) return kDecErr;
  if (o_.errorLo < o_.errorHi && addr < o_.errorHi && end > o_.errorLo) return kSlvErr;
  return kOkay;
}

void AxiMemory::accept(bool write, uint64_t addr, unsigned beats, unsigned size, uint64_t from) {
  const unsigned bytes = std::min(1u << std::min(size, 7u), beat_);
  const uint64_t last = addr + uint64_t{beats} * bytes - 1;
  if (addr / 4096 != last / 4096 && violation_ == AxiViolation::kNone) violation_ = AxiViolation::kCrosses4k;
  bursts_.push_back({write, addr, beats, bytes, from, 0, respFor(addr, uint64_t{beats} * bytes)});
}

const AxiSlaveSide& AxiMemory::drive(uint64_t now, const AxiMasterSide& m) {
  const bool rHeld = out_.rvalid && !rTaken_, bHeld = out_.bvalid && !bTaken_;  // up and not yet taken
  out_ = AxiSlaveSide{};
  // The address handshakes come first: the master's address valids are
  // registers, and a write's beats may move in its AW handshake's cycle.
  out_.arready = !stall();
  out_.awready = !stall();
  if (out_.arready && m.arvalid) accept(false, m.araddr, m.arlen + 1, m.arsize, now + o_.latency - 1);
  if (out_.awready && m.awvalid) accept(true, m.awaddr, m.awlen + 1, m.awsize, now);
  if (!bursts_.empty()) {
    const Burst& b = bursts_.front();
    const bool due = now >= b.from && now >= channelFree_;
    if (due && b.write) out_.wready = !stall();
    if (due && !b.write && (rHeld || !stall())) {
      out_.rvalid = true;
      out_.rlast = b.done + 1 == b.beats;
      out_.rresp = b.resp;
      const uint64_t at = b.addr + uint64_t{b.done} * b.size;
      if (b.resp == kOkay)  // the bus word that holds the beat's bytes
        std::memcpy(rbeat_.data(), mem_ + (at - at % beat_ - base_), beat_);
      else
        std::fill(rbeat_.begin(), rbeat_.end(), 0);
      out_.rdata = rbeat_.data();
    }
  }
  if (!responses_.empty() && responses_.front().at <= now && (bHeld || !stall())) {
    out_.bvalid = true;
    out_.bresp = responses_.front().resp;
  }
  return out_;
}

void AxiMemory::sample(uint64_t now, const AxiMasterSide& m) {
  rTaken_ = out_.rvalid && m.rready;
  bTaken_ = out_.bvalid && m.bready;
  if (out_.rvalid && m.rready) {
    Burst& b = bursts_.front();
    if (++b.done == b.beats) bursts_.pop_front(), channelFree_ = now + 1;
  }
  if (out_.wready && m.wvalid) {
    Burst& b = bursts_.front();
    const uint64_t word = b.addr + uint64_t{b.done} * b.size;
    const uint64_t at = word - word % beat_;  // the bus word: strobe i writes its byte i
    if (b.resp == kOkay)
      for (unsigned i = 0; i < beat_; ++i)
        if (m.wstrb >> i & 1) mem_[at - base_ + i] = m.wdata[i];
    const bool last = ++b.done == b.beats;
    if (m.wlast != last && violation_ == AxiViolation::kNone) violation_ = AxiViolation::kWlast;
    if (last) {
      responses_.push_back({now + o_.latency, b.resp});
      bursts_.pop_front(), channelFree_ = now + 1;
    }
  }
  if (out_.bvalid && m.bready) responses_.pop_front();
}

}  // namespace accelc::simulator
