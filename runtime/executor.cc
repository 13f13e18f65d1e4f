// runtime/executor.cc — loading a bundle and running its steps.
#include "runtime/executor.h"

#include <chrono>
#include <cstring>

namespace accelc::runtime {

using support::error;
using support::Expected;
using support::Location;
using support::Status;

Expected<std::unique_ptr<Executor>> Executor::create(const Bundle& b, Device& d, const std::string& name,
                                                     HostKernels host) {
  if (b.hash != d.target().hash)
    return error(Location::file(name), "the bundle was built for another hwspec than the device's ('" +
                                           d.target().spec.name + "'); recompile it with --hw");
  for (auto it = host.begin(); it != host.end(); ++it) {
    const auto& [i, k] = *it;
    for (size_t j = i; j <= i + k.fuses; ++j)
      if (j >= b.steps.size() || b.steps[j].kind != Step::Kind::kHost)
        return error(Location::file(name), "a host kernel for step " + std::to_string(j) + ", which is not a host step");
    auto next = std::next(it);
    if (next != host.end() && next->first <= i + k.fuses)
      return error(Location::file(name), "step " + std::to_string(next->first) + " has a kernel and is fused into step " +
                                             std::to_string(i) + "'s");
  }
  std::unique_ptr<Executor> e(new Executor(b, d, name, std::move(host)));
  for (const auto& [i, k] : e->host_) e->kernelInputs_[i] = fusedStepInputs(b, i, i + k.fuses);
  ACCELC_TRY(e->load());
  return e;
}

Status Executor::load() {
  // A slot lives in host memory unless an accelerator step touches it or it is blocked.
  onHost_.assign(b_.tensors.size(), true);
  resident_.assign(b_.tensors.size(), std::nullopt);
  spare_.assign(b_.tensors.size(), Tensor());
  std::vector<bool> written(b_.tensors.size(), false);
  for (int id : b_.inputs) written[static_cast<size_t>(id)] = true;
  for (const Step& s : b_.steps) {
    for (int id : s.outputs) written[static_cast<size_t>(id)] = true;
    if (s.kind != Step::Kind::kAccel) continue;
    for (const std::vector<int>* ids : {&s.inputs, &s.outputs})
      for (int id : *ids)
        if (id >= 0) onHost_[static_cast<size_t>(id)] = false;
  }
  for (size_t i = 0; i < b_.tensors.size(); ++i)
    if (b_.tensors[i].blocked) onHost_[i] = false;
  for (const TensorSlot& s : b_.tensors) {  // blocked tensors: border and padding channels hold the fill
    if (!s.blocked) continue;
    std::vector<uint8_t> fill(s.bytes(), static_cast<uint8_t>(s.blocked->fill));
    ACCELC_TRY(d_.write(s.addr, fill.data(), fill.size()));
  }
  for (const ConstantData& c : b_.constants) ACCELC_TRY(d_.write(c.addr, c.bytes.data(), c.bytes.size()));
  for (const isa::Program& p : b_.programs)
    for (const isa::Segment& seg : p.segments) ACCELC_TRY(d_.write(seg.addr, seg.bytes.data(), seg.bytes.size()));
  for (size_t i = 0; i < b_.tensors.size(); ++i)  // host constants: read from the device once
    if (onHost_[i] && !written[i]) {
      onHost_[i] = false;
      ACCELC_ASSIGN_OR_RETURN(Tensor t, readSlot(static_cast<int>(i)));
      resident_[i] = std::move(t);
      onHost_[i] = true;
    }
  return Status::ok();
}

Expected<const Tensor*> Executor::slotTensor(int id, Tensor& local) {
  if (onHost_[static_cast<size_t>(id)]) {
    const std::optional<Tensor>& t = resident_[static_cast<size_t>(id)];
    if (!t) return error(Location::node(name_, b_.tensors[static_cast<size_t>(id)].name), "read before any step wrote it");
    return &*t;
  }
  ACCELC_ASSIGN_OR_RETURN(local, readSlot(id, std::move(local)));
  return &local;
}

Expected<Tensor> Executor::readSlot(int id, Tensor reuse) {
  if (onHost_[static_cast<size_t>(id)]) {
    Tensor local;
    ACCELC_ASSIGN_OR_RETURN(const Tensor* t, slotTensor(id, local));
    return *t;
  }
  const TensorSlot& s = b_.tensors[id];
  if (s.blocked) {
    // Unpacked straight from the device's DRAM where it lies in this process: a copy of the whole slot less.
    ACCELC_ASSIGN_OR_RETURN(const uint8_t* from, d_.readable(s.addr, s.bytes()));
    if (!from) {
      bytes_.resize(static_cast<size_t>(s.bytes()));
      ACCELC_TRY(d_.read(s.addr, bytes_.data(), bytes_.size()));
      from = bytes_.data();
    }
    reuse.quant = QuantParams{};  // what a round trip through the device keeps
    return fromBlockedShape(unpackBlocked(from, *s.blocked, std::move(reuse)), s.form, s.shape);
  }
  Tensor t = reuse.dtype() == s.dtype && reuse.shape() == s.shape ? std::move(reuse) : Tensor(s.dtype, s.shape);
  t.quant = QuantParams{};
  ACCELC_TRY(d_.read(s.addr, t.bytes().data(), t.bytes().size()));
  return t;
}

Status Executor::checkSlot(int id, const Tensor& t) const {
  const TensorSlot& s = b_.tensors[id];
  if (t.dtype() != s.dtype || support::shapeElements(t.shape()) != support::shapeElements(s.shape))
    return error(Location::node(name_, s.name), std::string("step produced ") + support::dtypeName(t.dtype()) + " " +
                                                    support::shapeStr(t.shape()) + " for a slot of " +
                                                    support::dtypeName(s.dtype) + " " + support::shapeStr(s.shape));
  return Status::ok();
}

Status Executor::writeSlot(int id, Tensor t) {
  ACCELC_TRY(checkSlot(id, t));
  const TensorSlot& s = b_.tensors[id];
  if (onHost_[static_cast<size_t>(id)]) {
    t.reshape(s.shape);
    t.quant = QuantParams{};  // what a round trip through the device keeps: the slot's shape and bytes
    resident_[static_cast<size_t>(id)] = std::move(t);
    return Status::ok();
  }
  return writeDeviceSlot(id, t);
}

Status Executor::writeDeviceSlot(int id, const Tensor& t) {
  const TensorSlot& s = b_.tensors[id];
  if (!s.blocked) return d_.write(s.addr, t.bytes().data(), t.bytes().size());
  Tensor shaped;
  if (s.form != BlockedForm::kImage) shaped = toBlockedShape(t, s.shape, s.form, s.blocked->block);
  const Tensor& nchw = s.form == BlockedForm::kImage ? t : shaped;
  // Packed straight into the device's DRAM where it lies in this process: a copy of the whole slot less.
  ACCELC_ASSIGN_OR_RETURN(uint8_t * in, d_.writable(s.addr, s.bytes()));
  if (in) return packBlockedTo(nchw, *s.blocked, in), Status::ok();
  packBlockedInto(nchw, *s.blocked, bytes_);
  return d_.write(s.addr, bytes_.data(), bytes_.size());
}

void Executor::account(size_t i, const RunResult& r) {
  ++stats_.accelSteps;
  if (r.events) {
    if (!stats_.accel) stats_.accel.emplace();
    *stats_.accel += *r.events;
  }
  if (r.cycles) {
    stats_.stepCycles[i] += *r.cycles;
    stats_.cycles = stats_.cycles.value_or(0) + *r.cycles;
  }
}

Status Executor::hostKernelStep(size_t i, const HostKernel& k) {
  const size_t last = i + k.fuses;
  const std::vector<int>& ids = kernelInputs_.at(i);
  std::vector<Tensor> local(ids.size());  // inputs read from the device
  std::vector<const Tensor*> ptrs;
  for (size_t n = 0; n < ids.size(); ++n) {
    if (ids[n] < 0) {
      ptrs.push_back(nullptr);
      continue;
    }
    local[n] = std::move(spare_[static_cast<size_t>(ids[n])]);
    ACCELC_ASSIGN_OR_RETURN(const Tensor* t, slotTensor(ids[n], local[n]));
    ptrs.push_back(t);
  }
  const Step& end = b_.steps[last];
  // A host-resident output hands its memory from the last run to the kernel, which may write into it
  // instead of allocating (and touching) a new tensor: every slot is written once per run, so its old
  // value is dead here.
  std::vector<Tensor> out(end.outputs.size());
  for (size_t n = 0; n < out.size(); ++n) {
    const size_t y = static_cast<size_t>(end.outputs[n]);
    std::optional<Tensor>& old = resident_[y];
    if (!onHost_[y]) out[n] = std::move(spare_[y]);
    else if (old) out[n] = std::move(*old), old.reset();
  }
  ACCELC_TRY(k.run(ptrs, out));
  for (size_t n = 0; n < ids.size(); ++n)
    if (ids[n] >= 0 && !onHost_[static_cast<size_t>(ids[n])]) spare_[static_cast<size_t>(ids[n])] = std::move(local[n]);
  for (size_t n = 0; n < out.size(); ++n) {
    const size_t y = static_cast<size_t>(end.outputs[n]);
    if (onHost_[y]) {
      ACCELC_TRY(writeSlot(end.outputs[n], std::move(out[n])));
      continue;
    }
    ACCELC_TRY(checkSlot(end.outputs[n], out[n]));
    ACCELC_TRY(writeDeviceSlot(end.outputs[n], out[n]));
    spare_[y] = std::move(out[n]);  // the next run's kernel writes into its memory
  }
  stats_.stepKernel[i] = k.kind;
  for (size_t j = i + 1; j <= last; ++j) stats_.stepKernel[j] = k.kind + " (fused)";
  stats_.hostSteps += static_cast<int64_t>(k.fuses + 1);
  return Status::ok();
}

Expected<size_t> Executor::step(size_t i) {
  const Step& s = b_.steps[i];
  switch (s.kind) {
    case Step::Kind::kAccel: {
      ACCELC_ASSIGN_OR_RETURN(RunResult r, d_.run(b_.programs[s.program], name_ + ":" + s.name));
      account(i, r);
      return size_t{1};
    }
    case Step::Kind::kPack:
    case Step::Kind::kUnpack: {
      // A host-resident input is packed where it lies, and an unpacked output takes the memory of its last
      // run's tensor: neither copies nor touches fresh pages.
      ++stats_.packSteps;
      const size_t y = static_cast<size_t>(s.outputs[0]);
      if (onHost_[static_cast<size_t>(s.inputs[0])] && !onHost_[y]) {
        Tensor local;
        ACCELC_ASSIGN_OR_RETURN(const Tensor* t, slotTensor(s.inputs[0], local));
        ACCELC_TRY(checkSlot(s.outputs[0], *t));
        ACCELC_TRY(writeDeviceSlot(s.outputs[0], *t));
        return size_t{1};
      }
      Tensor old;
      if (onHost_[y] && resident_[y]) old = std::move(*resident_[y]), resident_[y].reset();
      ACCELC_ASSIGN_OR_RETURN(Tensor t, readSlot(s.inputs[0], std::move(old)));
      ACCELC_TRY(writeSlot(s.outputs[0], std::move(t)));
      return size_t{1};
    }
    case Step::Kind::kHost: {
      if (auto k = host_.find(i); k != host_.end()) {
        ACCELC_TRY(hostKernelStep(i, k->second));
        return k->second.fuses + 1;
      }
      std::vector<Tensor> local(s.inputs.size());  // inputs read from the device
      std::vector<const Tensor*> ptrs;
      for (size_t k = 0; k < s.inputs.size(); ++k) {
        if (s.inputs[k] < 0) {
          ptrs.push_back(nullptr);
          continue;
        }
        ACCELC_ASSIGN_OR_RETURN(const Tensor* t, slotTensor(s.inputs[k], local[k]));
        ptrs.push_back(t);
      }
      std::vector<Tensor> out(s.outputs.size());
      ACCELC_TRY(runOp(s.op, s.attrs, ptrs, out, Location::node(name_, s.name)));
      stats_.stepKernel[i] = kReferenceKernel;
      for (size_t n = 0; n < out.size(); ++n) ACCELC_TRY(writeSlot(s.outputs[n], std::move(out[n])));
      ++stats_.hostSteps;
      return size_t{1};
    }
  }
  return size_t{1};
}

Expected<std::vector<Tensor>> Executor::run(const std::vector<Tensor>& inputs) {
  if (inputs.size() != b_.inputs.size())
    return error(Location::file(name_), "the model has " + std::to_string(b_.inputs.size()) + " inputs, " +
                                            std::to_string(inputs.size()) + " given");
  for (size_t i = 0; i < inputs.size(); ++i) {
    const TensorSlot& s = b_.tensors[b_.inputs[i]];
    if (inputs[i].dtype() != s.dtype || inputs[i].shape() != s.shape)
      return error(Location::node(name_, s.name), std::string("input expects ") + support::dtypeName(s.dtype) + " " +
                                                      support::shapeStr(s.shape) + ", found " +
                                                      support::dtypeName(inputs[i].dtype()) + " " +
                                                      support::shapeStr(inputs[i].shape()));
    ACCELC_TRY(writeSlot(b_.inputs[i], inputs[i]));
  }
  stats_.stepSeconds.resize(b_.steps.size(), 0.0);
  stats_.stepCycles.resize(b_.steps.size(), 0);
  stats_.stepKernel.resize(b_.steps.size());
  for (size_t i = 0; i < b_.steps.size();) {
    const auto start = std::chrono::steady_clock::now();
    ACCELC_ASSIGN_OR_RETURN(size_t ran, step(i));
    stats_.stepSeconds[i] += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    i += ran;
  }
  std::vector<Tensor> out;
  for (int id : b_.outputs) {
    ACCELC_ASSIGN_OR_RETURN(Tensor t, readSlot(id));
    out.push_back(std::move(t));
  }
  return out;
}

Expected<std::vector<Tensor>> Executor::runBatched(const std::vector<Tensor>& inputs) {
  if (inputs.size() != b_.inputs.size()) return run(inputs);  // which names the count expected
  int64_t k = 0;
  for (size_t i = 0; i < inputs.size() && i < b_.inputs.size(); ++i) {
    const Shape& want = b_.tensors[b_.inputs[i]].shape;
    const Shape& got = inputs[i].shape();
    if (got == want || want.empty() || got.size() != want.size() || want[0] == 0 || got[0] == 0 || got[0] % want[0] ||
        !std::equal(got.begin() + 1, got.end(), want.begin() + 1) || (k && got[0] / want[0] != k))
      return run(inputs);
    k = got[0] / want[0];
  }
  if (k == 0) return run(inputs);
  std::vector<std::vector<uint8_t>> outs;
  std::vector<Shape> outShapes;
  std::vector<support::DType> outTypes;
  for (int64_t r = 0; r < k; ++r) {
    std::vector<Tensor> slice;
    for (size_t i = 0; i < inputs.size(); ++i) {
      Tensor t(inputs[i].dtype(), b_.tensors[b_.inputs[i]].shape);
      std::memcpy(t.bytes().data(), inputs[i].bytes().data() + r * t.bytes().size(), t.bytes().size());
      slice.push_back(std::move(t));
    }
    ACCELC_ASSIGN_OR_RETURN(std::vector<Tensor> o, run(slice));
    outs.resize(o.size());
    outShapes.resize(o.size());
    outTypes.resize(o.size());
    for (size_t j = 0; j < o.size(); ++j) {
      outs[j].insert(outs[j].end(), o[j].bytes().begin(), o[j].bytes().end());
      outShapes[j] = o[j].shape();
      outTypes[j] = o[j].dtype();
    }
  }
  std::vector<Tensor> result;
  for (size_t j = 0; j < outs.size(); ++j) {
    Shape s = outShapes[j];
    if (s.empty()) s.push_back(1);
    s[0] *= k;
    Tensor t(outTypes[j], s);
    t.bytes() = std::move(outs[j]);
    result.push_back(std::move(t));
  }
  return result;
}

}  // namespace accelc::runtime
