// simulator/timing/dram_port.cc — burst arbitration and the in-order data channel.
#include "simulator/timing/dram_port.h"

#include <algorithm>
#include <limits>

namespace accelc::simulator {

namespace {

constexpr uint64_t kNever = std::numeric_limits<uint64_t>::max();

int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

int64_t beatOf(int64_t busBytes, const DmaShape& d) { return d.beatBytes > 0 ? d.beatBytes : busBytes; }

/// A burst not on a beat is never cut at 4 KiB: its beats would then no
/// longer follow one another through the row (an AXI port refuses it anyway).
/// Narrow beats keep the bus's most beats a burst.
int64_t cutBurst(int64_t maxBurst, int64_t busBytes, bool split4k, const DmaShape& d, int64_t row, int64_t offset) {
  const int64_t beat = beatOf(busBytes, d);
  const int64_t most = beat == busBytes ? maxBurst : std::min(maxBurst, std::max(beat, maxBurst / busBytes * beat));
  const int64_t bytes = std::min(most, d.rowBytes - offset);
  const uint64_t at = d.addr + static_cast<uint64_t>(row) * d.pitch + static_cast<uint64_t>(offset);
  if (!split4k || at % static_cast<uint64_t>(beat)) return bytes;
  return std::min(bytes, static_cast<int64_t>(4096 - at % 4096));
}

}  // namespace

int64_t beatBytesOf(const hwspec::HwSpec& hw, const DmaShape& d) { return beatOf(hw.dramBytesPerCycle, d); }

int64_t burstBytes(const hwspec::HwSpec& hw, const DmaShape& d, int64_t row, int64_t offset) {
  return cutBurst(hw.timing.maxBurst, hw.dramBytesPerCycle, hw.dramSplit4k, d, row, offset);
}

DramPort::DramPort(const hwspec::HwSpec& hw)
    : latency_(hw.dramLatency),
      bytesPerCycle_(hw.dramBytesPerCycle),
      maxBurst_(hw.timing.maxBurst),
      outstanding_(hw.timing.outstanding),
      split4k_(hw.dramSplit4k) {}

uint64_t DramPort::submit(Requester r, const DmaShape& d, uint64_t from) {
  const int i = static_cast<int>(r);
  const uint64_t id = nextId_[i]++;
  if (d.rows <= 0 || d.rowBytes <= 0) {
    done_[i].push_back({id, from});
    return id;
  }
  Pending p;
  p.id = id, p.shape = d, p.from = from;
  queue_[i].push_back(p);
  return id;
}

void DramPort::advance(uint64_t until) {
  for (;;) {
    uint64_t c = kNever;
    for (int r = 0; r < kNumRequesters; ++r)
      if (!queue_[r].empty()) c = std::min(c, std::max(ready_[r], queue_[r].front().from));
    if (c == kNever) return;
    c = std::max(c, cycle_);
    // A slot frees in the cycle its burst completes: wait until fewer than N complete after c.
    for (;;) {
      int64_t busy = 0;
      uint64_t soonest = kNever;
      for (uint64_t d : inflight_)
        if (d > c) ++busy, soonest = std::min(soonest, d);
      if (busy < outstanding_) break;
      c = soonest;
    }
    if (c >= until) return;  // nothing changes before `until`: a later call may still see new requests
    inflight_.erase(std::remove_if(inflight_.begin(), inflight_.end(), [c](uint64_t d) { return d <= c; }),
                    inflight_.end());
    int r = 0;
    while (queue_[r].empty() || std::max(ready_[r], queue_[r].front().from) > c) ++r;
    accept(r, c);
    cycle_ = c + 1;
  }
}

void DramPort::accept(int r, uint64_t c) {
  Pending& p = queue_[r].front();
  const int64_t bytes = cutBurst(maxBurst_, bytesPerCycle_, split4k_, p.shape, p.row, p.offset);
  const uint64_t beats = static_cast<uint64_t>(ceilDiv(bytes, beatOf(bytesPerCycle_, p.shape)));
  const uint64_t first = std::max(c + (p.shape.write ? 1 : static_cast<uint64_t>(latency_)), channelFree_);
  channelFree_ = first + beats;
  const uint64_t done = channelFree_ + (p.shape.write ? static_cast<uint64_t>(latency_) : 0);
  inflight_.push_back(done);
  p.done = std::max(p.done, done);
  p.offset += bytes;
  if (p.offset >= p.shape.rowBytes) p.offset = 0, ++p.row;
  ready_[r] = c + 1;
  retireIfDone(r);
}

void DramPort::retireIfDone(int r) {
  const Pending& p = queue_[r].front();
  if (p.row < p.shape.rows) return;
  done_[r].push_back({p.id, p.done});
  queue_[r].erase(queue_[r].begin());
}

uint64_t DramPort::projectedDone(Requester r, uint64_t id) const {
  const int i = static_cast<int>(r);
  for (const auto& [k, c] : done_[i])
    if (k == id) return c;
  DramPort ahead = *this;
  ahead.advance(kNever);
  for (const auto& [k, c] : ahead.done_[i])
    if (k == id) return c;
  return kNever;  // not submitted
}

void DramPort::release(Requester r, uint64_t id) {
  auto& d = done_[static_cast<int>(r)];
  d.erase(std::remove_if(d.begin(), d.end(), [id](const auto& e) { return e.first == id; }), d.end());
}

int64_t DramPort::aloneCycles(const hwspec::HwSpec& hw, const DmaShape& d) {
  DramPort port(hw);
  const uint64_t id = port.submit(Requester::kLoad, d, 1);
  return static_cast<int64_t>(port.projectedDone(Requester::kLoad, id));
}

}  // namespace accelc::simulator
