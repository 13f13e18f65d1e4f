// compiler/driver/plan_dram.cc — the `plan-dram` pass.
//
//   before: slots without addresses
//   after:  slot c1:blocked  int8 1x16x8x8  @0x1000  1024 bytes
//           slot c2:blocked  int8 1x16x8x8  @0x1000  1024 bytes   (c1 is dead by then)
#include "compiler/driver/plan_dram.h"

#include <algorithm>

namespace accelc::compiler {

using hwspec::BufferKind;
using runtime::TensorSlot;

namespace {

/// A region of DRAM that intermediate tensors share in turn.
struct Live {
  uint64_t addr, bytes;
  int until;  ///< the last step that reads what it holds
  int kind;   ///< -1: plain; else the slot whose layout the region holds
};

/// Per slot, the first step that writes it and the last that reads it (-1: none).
void lifetimes(const runtime::Bundle& b, std::vector<int>& first, std::vector<int>& last) {
  first.assign(b.tensors.size(), -1), last.assign(b.tensors.size(), -1);
  for (int i = 0; i < static_cast<int>(b.steps.size()); ++i) {
    for (int id : b.steps[i].outputs)
      if (first[id] < 0) first[id] = i;
    for (int id : b.steps[i].inputs)
      if (id >= 0) last[id] = i;
  }
}

}  // namespace

support::Status planDram(Lowering& s) {
  runtime::Bundle& b = s.bundle;
  for (BufferKind k : {BufferKind::kInput, BufferKind::kWeight, BufferKind::kAcc, BufferKind::kUop})
    s.align = std::max<uint64_t>(s.align, static_cast<uint64_t>(s.hw.entryBytes(k)));
  const int n = static_cast<int>(b.tensors.size());
  std::vector<int> first, last;
  lifetimes(b, first, last);
  for (const auto& [view, at] : s.slotViews) {  // a parent lives from its first view's write to its last view's read
    const int parent = at.first;
    if (first[view] >= 0) first[parent] = first[parent] < 0 ? first[view] : std::min(first[parent], first[view]);
    last[parent] = std::max({last[parent], last[view], first[view]});
  }
  std::vector<bool> pinned(n, false);
  for (int id : b.inputs) pinned[id] = true;
  for (int id : b.outputs) pinned[id] = true;
  for (const auto& [key, slot] : s.slots)
    if (s.g.values[key.first].constant) pinned[slot] = true;
  auto sameKind = [&](const Live& r, int id) {
    const TensorSlot& t = b.tensors[id];
    if (!t.blocked || r.kind < 0) return !t.blocked && r.kind < 0;
    const TensorSlot& o = b.tensors[r.kind];
    return *o.blocked == *t.blocked && o.form == t.form;
  };
  std::vector<Live> live;  // reusable regions and the step after which they are free
  for (int id = 0; id < n; ++id) {
    TensorSlot& t = b.tensors[id];
    const uint64_t bytes = (t.bytes() + s.align - 1) / s.align * s.align;
    if (s.slotViews.count(id)) continue;  // placed inside its parent below
    if (pinned[id] || first[id] < 0) {
      t.addr = s.alloc(t.bytes());
      continue;
    }
    auto fit = std::find_if(live.begin(), live.end(),
                            [&](const Live& r) { return r.until < first[id] && r.bytes >= bytes && sameKind(r, id); });
    if (fit != live.end()) {
      t.addr = fit->addr;
      fit->until = std::max(last[id], first[id]);
    } else {
      t.addr = s.alloc(t.bytes());
      live.push_back({t.addr, bytes, std::max(last[id], first[id]), t.blocked ? id : -1});
    }
  }
  for (const auto& [view, at] : s.slotViews) b.tensors[view].addr = b.tensors[at.first].addr + at.second;
  for (const auto& [key, slot] : s.slots) {  // constants read by host steps are written once
    const Value& v = s.g.values[key.first];
    if (v.constant && key.second == 0) b.constants.push_back({v.name, b.tensors[slot].addr, v.constant->bytes()});
  }
  return support::Status::ok();
}

}  // namespace accelc::compiler
