// compiler/driver/place_by_cost.cc — the `partition` pass under `--placement cost`.
//
//   after:  /Add  host: by cost: its region of 1 layer takes about 0.004 ms on the x86-64 host against
//                 0.079 ms on the accelerator at 100 MHz (0.051 ms of it packing and unpacking on the host)
//
// Regions, not single layers, are weighed: moving one layer out of the middle
// of a region would add a pack and an unpack around it, which the layer alone
// does not see.
#include "compiler/driver/place_by_cost.h"

#include <algorithm>
#include <cstdio>
#include <numeric>
#include <set>
#include <utility>

#include "compiler/driver/partition.h"
#include "compiler/passes/rewrite.h"

namespace accelc::compiler {

namespace {

/// Accelerator regions: per node, its region's number (-1 for a host node).
std::vector<int> regionsOf(const Lowering& s) {
  const size_t n = s.g.nodes.size();
  std::vector<size_t> parent(n);
  std::iota(parent.begin(), parent.end(), 0);
  auto root = [&](size_t i) {
    while (parent[i] != i) i = parent[i] = parent[parent[i]];
    return i;
  };
  std::vector<int> producer(s.g.values.size(), -1);
  for (size_t i = 0; i < n; ++i)
    for (int y : s.g.nodes[i].outputs) producer[static_cast<size_t>(y)] = static_cast<int>(i);
  for (size_t i = 0; i < n; ++i) {
    if (!s.placements[i].onAccelerator()) continue;
    for (int v : s.g.nodes[i].inputs) {
      const int p = v < 0 ? -1 : producer[static_cast<size_t>(v)];
      if (p >= 0 && s.placements[static_cast<size_t>(p)].onAccelerator()) parent[root(i)] = root(static_cast<size_t>(p));
    }
  }
  std::vector<int> region(n, -1), number(n, -1);
  int next = 0;
  for (size_t i = 0; i < n; ++i)
    if (s.placements[i].onAccelerator()) {
      int& r = number[root(i)];
      if (r < 0) r = next++;
      region[i] = r;
    }
  return region;
}

int64_t valueBytes(const Lowering& s, int v) {
  const Value& x = s.g.values[static_cast<size_t>(v)];
  return support::shapeElements(x.shape) * support::dtypeBytes(x.dtype);
}

/// One region's two estimates, in seconds.
struct Weighed {
  int layers = 0;
  double accel = 0, pack = 0, host = 0;
};

std::vector<Weighed> weigh(const Lowering& s, const std::vector<int>& region, int regions, const HostCost& cost) {
  std::vector<Weighed> w(static_cast<size_t>(regions));
  std::vector<bool> isOutput(s.g.values.size(), false);
  for (int y : s.g.outputs) isOutput[static_cast<size_t>(y)] = true;
  std::vector<std::vector<int>> readers(s.g.values.size());
  for (size_t i = 0; i < s.g.nodes.size(); ++i)
    for (int v : s.g.nodes[i].inputs)
      if (v >= 0) readers[static_cast<size_t>(v)].push_back(static_cast<int>(i));
  const double hz = static_cast<double>(s.hw.clockMhz) * 1e6;
  std::set<std::pair<int, int>> packed;  // (region, value): a value crosses into or out of a region once
  auto cross = [&](Weighed& r, int region, int v) {
    if (packed.insert({region, v}).second) r.pack += static_cast<double>(valueBytes(s, v)) / cost.packBytesPerSecond;
  };
  for (size_t i = 0; i < s.g.nodes.size(); ++i) {
    if (region[i] < 0) continue;
    Weighed& r = w[static_cast<size_t>(region[i])];
    const Node& n = s.g.nodes[i];
    ++r.layers;
    r.accel += static_cast<double>(s.placements[i].cycles) / hz;
    int64_t bytes = 0;
    for (int v : n.inputs) {
      if (v < 0) continue;
      bytes += valueBytes(s, v);
      const Node* p = producer(s.g, v);
      const bool fromHost = !s.g.values[static_cast<size_t>(v)].constant &&
                            (!p || region[static_cast<size_t>(p - s.g.nodes.data())] != region[i]);
      if (fromHost) cross(r, region[i], v);
    }
    for (int y : n.outputs) {
      bytes += valueBytes(s, y);
      bool toHost = isOutput[static_cast<size_t>(y)];
      for (int reader : readers[static_cast<size_t>(y)]) toHost = toHost || region[static_cast<size_t>(reader)] != region[i];
      if (toHost) cross(r, region[i], y);
    }
    r.host += cost.seconds(n.kind, nodeMacs(s.g, n), bytes);
  }
  return w;
}

std::string ms(double seconds) {
  char b[32];
  std::snprintf(b, sizeof b, "%.3f ms", seconds * 1e3);
  return b;
}

/// Both estimates of region `r`, for the reasons.
std::string estimates(const Lowering& s, const Weighed& r, const HostCost& cost) {
  return "its region of " + std::to_string(r.layers) + (r.layers == 1 ? " layer" : " layers") + " takes about " +
         ms(r.host) + " on the " + cost.host + " host against " + ms(r.accel + r.pack) + " on the accelerator at " +
         std::to_string(s.hw.clockMhz) + " MHz (" + ms(r.pack) + " of it packing and unpacking on the host)";
}

}  // namespace

support::Status placeByCost(Lowering& s, const HostCost& cost) {
  s.estimateCycles = true;
  ACCELC_TRY(partition(s));
  std::vector<int> region = regionsOf(s);
  const int regions = region.empty() ? 0 : *std::max_element(region.begin(), region.end()) + 1;
  const std::vector<Weighed> w = weigh(s, region, regions, cost);
  std::vector<std::string> forced(s.g.nodes.size());
  bool moved = false;
  for (size_t i = 0; i < region.size(); ++i) {
    if (region[i] < 0) continue;
    const Weighed& r = w[static_cast<size_t>(region[i])];
    if (r.host >= r.accel + r.pack) continue;
    forced[i] = "host: by cost: " + estimates(s, r, cost) + "; the accelerator's form: " +
                s.placements[i].why.substr(std::string("accelerator: ").size());
    moved = true;
  }
  if (moved) ACCELC_TRY(partition(s, forced));
  // The regions that stay (the second partition may have cut some) say both estimates.
  region = regionsOf(s);
  const int kept = region.empty() ? 0 : *std::max_element(region.begin(), region.end()) + 1;
  const std::vector<Weighed> after = weigh(s, region, kept, cost);
  for (size_t i = 0; i < region.size(); ++i)
    if (region[i] >= 0) s.placements[i].why += "; by cost: " + estimates(s, after[static_cast<size_t>(region[i])], cost);
  return support::Status::ok();
}

}  // namespace accelc::compiler
