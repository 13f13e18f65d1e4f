// tests/simulator/rtl_dram_port_test.cc — the DRAM port in RTL
// (hls/rtl/accelc_dram_port.sv, verilated per preset by simulator/rtl) against
// the contract's C++ model (simulator/timing/dram_port.h): random DMAs from all
// four requesters, at random start cycles, complete in exactly the same cycles;
// and the C++ model gives those cycles however its user advances it.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <sstream>

#include "hls/rtl_gen.h"
#include "simulator/timing/dram_port.h"
#include "tests/simulator/rtl_util.h"
#include "tests/test_util.h"

namespace accelc::simulator {
namespace {

struct Request {
  Requester who;
  DmaShape shape;
  uint64_t from;
};

/// `n` random DMAs: requesters 0-2 read, the store unit writes; each
/// requester's start cycles never decrease.
std::vector<Request> randomRequests(const hwspec::HwSpec& hw, uint64_t seed, int n) {
  std::mt19937_64 g(seed);
  uint64_t at[kNumRequesters] = {};
  std::vector<Request> out;
  for (int i = 0; i < n; ++i) {
    const int r = static_cast<int>(g() % kNumRequesters);
    at[r] += g() % (g() % 4 ? 8 : 400);  // mostly crowded, sometimes a pause
    const int64_t rows = 1 + static_cast<int64_t>(g() % 6);
    const int64_t bytes = 1 + static_cast<int64_t>(g() % static_cast<uint64_t>(3 * hw.timing.maxBurst));
    out.push_back({Requester(r), {rows, bytes, r == static_cast<int>(Requester::kStore)}, at[r]});
  }
  return out;
}

/// The harness's input: BEAT_BITS, the count, then each DMA with its bursts' beats.
std::string harnessInput(const hwspec::HwSpec& hw, const std::vector<Request>& rs) {
  std::ostringstream o;
  o << hls::beatBits(hw) << " " << rs.size() << "\n";
  for (const Request& q : rs) {
    std::vector<int64_t> beats;
    for (int64_t row = 0; row < q.shape.rows; ++row)
      for (int64_t off = 0; off < q.shape.rowBytes; off += hw.timing.maxBurst) {
        const int64_t bytes = std::min(hw.timing.maxBurst, q.shape.rowBytes - off);
        beats.push_back((bytes + hw.dramBytesPerCycle - 1) / hw.dramBytesPerCycle);
      }
    o << static_cast<int>(q.who) << " " << q.shape.write << " " << q.from << " " << beats.size();
    for (int64_t b : beats) o << " " << b;
    o << "\n";
  }
  return o.str();
}

class RtlDramPortTest : public ::testing::TestWithParam<std::string> {};

TEST_P(RtlDramPortTest, RandomDmasCompleteInTheContractsCycles) {
  isa::Target t = testing::presetTarget(GetParam());
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const std::vector<Request> rs = randomRequests(t.spec, seed, 60);
    DramPort port(t.spec);
    std::vector<uint64_t> ids;
    for (const Request& q : rs) ids.push_back(port.submit(q.who, q.shape, q.from));
    std::ostringstream want;
    for (size_t i = 0; i < rs.size(); ++i) want << port.projectedDone(rs[i].who, ids[i]) << "\n";
    EXPECT_EQ(testing::runVerilated(GetParam(), "dram_port", harnessInput(t.spec, rs)), want.str()) << "seed " << seed;
  }
}

TEST_P(RtlDramPortTest, TheModelGivesTheSameCyclesWhenDmasArriveAsTimeGoes) {
  // The cycle model submits each DMA the cycle before its first request and
  // advances the port to the present in between; the RTL comparison above
  // submits everything at once. Both must give the same completions.
  isa::Target t = testing::presetTarget(GetParam());
  for (uint64_t seed = 1; seed <= 50; ++seed) {
    std::vector<Request> rs = randomRequests(t.spec, seed, 80);
    for (Request& q : rs) q.from += 1;  // submitted in from - 1 >= 0
    DramPort once(t.spec), stepwise(t.spec);
    std::vector<uint64_t> a, b;
    for (const Request& q : rs) a.push_back(once.submit(q.who, q.shape, q.from));
    std::vector<size_t> order(rs.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](size_t x, size_t y) { return rs[x].from < rs[y].from; });
    b.resize(rs.size());
    std::mt19937_64 g(seed);
    uint64_t now = 0;
    for (size_t i : order) {
      while (now + 1 < rs[i].from) {  // time passes, sometimes with a look at the port
        now += 1 + g() % 16;
        now = std::min(now, rs[i].from - 1);
        stepwise.advance(now);
      }
      b[i] = stepwise.submit(rs[i].who, rs[i].shape, rs[i].from);
    }
    for (size_t i = 0; i < rs.size(); ++i)
      EXPECT_EQ(stepwise.projectedDone(rs[i].who, b[i]), once.projectedDone(rs[i].who, a[i])) << "seed " << seed << " dma " << i;
  }
}

ACCELC_INSTANTIATE_FOR_RTL_PRESETS(RtlDramPortTest);

}  // namespace
}  // namespace accelc::simulator
