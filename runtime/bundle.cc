// runtime/bundle.cc — the .acx binary format and its validation.
#include "runtime/bundle.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <optional>
#include <iterator>

#include "support/bytes.h"
#include "support/container.h"
#include "support/hash.h"

namespace accelc::runtime {

std::vector<size_t> layerSteps(const Bundle& b) {
  std::vector<size_t> steps(b.layers.size(), b.steps.size());
  for (size_t li = 0; li < b.layers.size(); ++li)
    if (b.layers[li].step >= 0) steps[li] = static_cast<size_t>(b.layers[li].step);
  return steps;
}

int64_t rooflineCycles(const LayerInfo& l, const hwspec::HwSpec& hw) {
  const double peak = static_cast<double>(hw.peakMacsPerCycle()), bw = static_cast<double>(hw.dramBytesPerCycle);
  return static_cast<int64_t>(std::max(static_cast<double>(l.macs) / peak, static_cast<double>(l.compulsoryBytes) / bw));
}

using support::ByteReader;
using support::ByteWriter;
using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

/// Writes every attribute field in visitFields order.
struct AttrWriter {
  ByteWriter& w;
  void operator()(const char*, int64_t& v) { w.i64(v); }
  void operator()(const char*, float& v) { w.f32(v); }
  void operator()(const char*, Ints& v) {
    w.u64(v.size());
    for (int64_t x : v) w.i64(x);
  }
  void operator()(const char*, support::DType& v) { w.u8(static_cast<uint8_t>(v)); }
  template <typename E, typename = std::enable_if_t<IsAttrEnum<E>::value>>
  void operator()(const char*, E& v) {
    w.u8(static_cast<uint8_t>(v));
  }
  void operator()(const char*, Tensor& v) {
    w.u8(static_cast<uint8_t>(v.dtype()));
    w.u64(v.shape().size());
    for (int64_t d : v.shape()) w.i64(d);
    w.bytes(v.bytes());
  }
};

/// Reads them back; the first error sticks.
struct AttrReader {
  ByteReader& r;
  Status st;
  template <typename T>
  bool get(int n, T& out, const char* what) {
    if (!st) return false;
    auto v = r.le(n, what);
    if (!v) {
      st = v.status();
      return false;
    }
    out = static_cast<T>(*v);
    return true;
  }
  void operator()(const char*, int64_t& v) { get(8, v, "attribute"); }
  void operator()(const char*, float& v) {
    if (!st) return;
    auto f = r.f32("attribute");
    f ? void(v = *f) : void(st = f.status());
  }
  void operator()(const char*, Ints& v) {
    uint64_t n = 0;
    if (!get(8, n, "attribute list") || n > (1u << 20)) {
      if (st) st = r.bad("attribute list too long");
      return;
    }
    v.assign(n, 0);
    for (int64_t& x : v) get(8, x, "attribute list");
  }
  void operator()(const char*, support::DType& v) {
    uint64_t d = 0;
    if (get(1, d, "dtype") && d >= static_cast<uint64_t>(support::kDTypeCount)) st = r.bad("dtype " + std::to_string(d));
    v = support::DType(d);
  }
  template <typename E, typename = std::enable_if_t<IsAttrEnum<E>::value>>
  void operator()(const char* name, E& v) {
    uint64_t p = 0;
    if (get(1, p, name) && p >= enumCount<E>()) st = r.bad(std::string(name) + " " + std::to_string(p));
    v = E(p);
  }
  void operator()(const char*, Tensor& v) {
    support::DType dt = support::DType::kFloat32;
    Ints shape;
    (*this)("dtype", dt);
    (*this)("shape", shape);
    if (!st) return;
    auto b = r.bytes("tensor");
    if (!b) {
      st = b.status();
      return;
    }
    if (!support::checkedShapeElements(shape) ||
        static_cast<int64_t>(b->size()) != support::shapeElements(shape) * support::dtypeBytes(dt)) {
      st = r.bad("tensor size");
      return;
    }
    v = Tensor(dt, shape);
    v.bytes() = std::move(*b);
  }
};

void writeLayout(ByteWriter& w, const BlockedLayout& l) {
  for (int64_t v : {l.n, l.c, l.h, l.w, l.block, l.top, l.left, l.bottom, l.right}) w.i64(v);
  w.u8(static_cast<uint8_t>(l.fill));
  w.i64(l.pitch);
}

Status readLayout(ByteReader& r, BlockedLayout& l) {
  for (int64_t* v : {&l.n, &l.c, &l.h, &l.w, &l.block, &l.top, &l.left, &l.bottom, &l.right}) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t x, r.le(8, "layout"));
    *v = static_cast<int64_t>(x);
    if (*v < 0 || *v > (int64_t{1} << 32)) return r.bad("layout dimension");
  }
  if (l.block < 1) return r.bad("layout block");
  ACCELC_ASSIGN_OR_RETURN(uint64_t f, r.le(1, "layout fill"));
  l.fill = static_cast<int8_t>(static_cast<uint8_t>(f));
  ACCELC_ASSIGN_OR_RETURN(uint64_t pitch, r.le(8, "layout pitch"));
  l.pitch = static_cast<int64_t>(pitch);
  if (l.pitch < 0 || l.pitch > (int64_t{1} << 32) || (l.pitch && l.pitch < l.blocks())) return r.bad("layout pitch");
  return Status::ok();
}

void writeInts(ByteWriter& w, const std::vector<int>& v) {
  w.u64(v.size());
  for (int x : v) w.i64(x);
}

Expected<std::vector<int>> readInts(ByteReader& r, const char* what) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t n, r.le(8, what));
  if (n > (1u << 24)) return r.bad(std::string(what) + " count");
  std::vector<int> v;
  for (uint64_t i = 0; i < n; ++i) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t x, r.le(8, what));
    v.push_back(static_cast<int>(static_cast<int64_t>(x)));
  }
  return v;
}

void writeSlot(ByteWriter& w, const TensorSlot& s) {
  w.str(s.name);
  w.u64(s.addr);
  w.u8(static_cast<uint8_t>(s.dtype));
  w.u64(s.shape.size());
  for (int64_t d : s.shape) w.i64(d);
  w.u8(s.blocked.has_value());
  if (s.blocked) writeLayout(w, *s.blocked);
  w.u8(static_cast<uint8_t>(s.form));
}

Status readSlot(ByteReader& r, TensorSlot& s) {
  ACCELC_ASSIGN_OR_RETURN(s.name, r.str("tensor name"));
  ACCELC_ASSIGN_OR_RETURN(s.addr, r.le(8, "tensor address"));
  ACCELC_ASSIGN_OR_RETURN(uint64_t dt, r.le(1, "tensor dtype"));
  if (dt >= static_cast<uint64_t>(support::kDTypeCount)) return r.bad("tensor dtype");
  s.dtype = support::DType(dt);
  ACCELC_ASSIGN_OR_RETURN(uint64_t rank, r.le(8, "tensor rank"));
  if (rank > 8) return r.bad("tensor rank");
  for (uint64_t i = 0; i < rank; ++i) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t d, r.le(8, "tensor shape"));
    s.shape.push_back(static_cast<int64_t>(d));
  }
  if (!support::checkedShapeElements(s.shape)) return r.bad("tensor shape");
  ACCELC_ASSIGN_OR_RETURN(uint64_t blocked, r.le(1, "tensor layout"));
  if (blocked) {
    BlockedLayout l;
    ACCELC_TRY(readLayout(r, l));
    s.blocked = l;
  }
  ACCELC_ASSIGN_OR_RETURN(uint64_t form, r.le(1, "tensor layout form"));
  if (form >= static_cast<uint64_t>(kBlockedForms)) return r.bad("tensor layout form");
  s.form = BlockedForm(form);
  return Status::ok();
}

void writeStep(ByteWriter& w, const Step& s) {
  w.u8(static_cast<uint8_t>(s.kind));
  w.str(s.name);
  w.i64(s.program);
  w.u32(static_cast<uint32_t>(s.op));
  Attrs a = s.attrs;
  AttrWriter aw{w};
  std::visit([&](auto& x) { x.visitFields(aw); }, a);
  writeInts(w, s.inputs);
  writeInts(w, s.outputs);
}

Status readStep(ByteReader& r, Step& s) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t kind, r.le(1, "step kind"));
  if (kind > 3) return r.bad("step kind " + std::to_string(kind));
  s.kind = Step::Kind(kind);
  ACCELC_ASSIGN_OR_RETURN(s.name, r.str("step name"));
  ACCELC_ASSIGN_OR_RETURN(uint64_t prog, r.le(8, "step program"));
  s.program = static_cast<int>(static_cast<int64_t>(prog));
  ACCELC_ASSIGN_OR_RETURN(uint64_t op, r.le(4, "step op"));
  if (op >= allOps().size()) return r.bad("op " + std::to_string(op));
  s.op = OpKind(op);
  s.attrs = defaultAttrs(s.op);
  AttrReader ar{r, Status::ok()};
  std::visit([&](auto& x) { x.visitFields(ar); }, s.attrs);
  ACCELC_TRY(ar.st);
  ACCELC_ASSIGN_OR_RETURN(s.inputs, readInts(r, "step inputs"));
  ACCELC_ASSIGN_OR_RETURN(s.outputs, readInts(r, "step outputs"));
  return Status::ok();
}

void writeLayer(ByteWriter& w, const LayerInfo& l) {
  w.str(l.name), w.str(l.where), w.str(l.why);
  for (int64_t v : {l.macs, l.cycles, l.dramBytes, l.compulsoryBytes, l.step}) w.i64(v);
}

Status readLayer(ByteReader& r, LayerInfo& l) {
  ACCELC_ASSIGN_OR_RETURN(l.name, r.str("layer"));
  ACCELC_ASSIGN_OR_RETURN(l.where, r.str("layer"));
  ACCELC_ASSIGN_OR_RETURN(l.why, r.str("layer"));
  for (int64_t* v : {&l.macs, &l.cycles, &l.dramBytes, &l.compulsoryBytes, &l.step}) {
    ACCELC_ASSIGN_OR_RETURN(uint64_t x, r.le(8, "layer"));
    *v = static_cast<int64_t>(x);
  }
  return Status::ok();
}

}  // namespace

std::vector<int> fusedStepInputs(const Bundle& b, size_t first, size_t last) {
  std::vector<bool> inside(b.tensors.size(), false);  // values the run computes before its last step
  for (size_t k = first; k < last; ++k)
    for (int id : b.steps[k].outputs) inside[static_cast<size_t>(id)] = true;
  std::vector<int> ids;
  for (size_t k = first; k <= last; ++k)
    for (int id : b.steps[k].inputs) ids.push_back(id >= 0 && inside[static_cast<size_t>(id)] ? -1 : id);
  return ids;
}

const support::ContainerKind& bundleContainerKind() {
  static const support::ContainerKind kKind{"ACXBNDL",
                                            "bundle",
                                            kBundleVersion,
                                            {"hwspec", "plan", "weights", "programs", "steps", "layers", "graph", "host"},
                                            "recompile the model with this accelc (accelc compile)"};
  return kKind;
}

namespace {

Status readHwspec(ByteReader& r, Bundle& b) {
  ACCELC_ASSIGN_OR_RETURN(b.hwspecYaml, r.str("hwspec"));
  ACCELC_ASSIGN_OR_RETURN(b.isaYaml, r.str("ISA"));
  ACCELC_ASSIGN_OR_RETURN(b.hash, r.le(8, "hash"));
  ACCELC_ASSIGN_OR_RETURN(b.window, r.le(8, "window"));
  return Status::ok();
}

Status readPlan(ByteReader& r, Bundle& b) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t nt, r.count("tensor count"));
  for (uint64_t i = 0; i < nt; ++i) {
    TensorSlot s;
    ACCELC_TRY(readSlot(r, s));
    b.tensors.push_back(std::move(s));
  }
  ACCELC_ASSIGN_OR_RETURN(b.inputs, readInts(r, "inputs"));
  ACCELC_ASSIGN_OR_RETURN(b.outputs, readInts(r, "outputs"));
  return Status::ok();
}

Status readWeights(ByteReader& r, Bundle& b) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t nc, r.count("constant count"));
  for (uint64_t i = 0; i < nc; ++i) {
    ConstantData c;
    ACCELC_ASSIGN_OR_RETURN(c.name, r.str("constant name"));
    ACCELC_ASSIGN_OR_RETURN(c.addr, r.le(8, "constant address"));
    ACCELC_ASSIGN_OR_RETURN(c.bytes, r.bytes("constant bytes"));
    b.constants.push_back(std::move(c));
  }
  return Status::ok();
}

/// Each program is a program file of its own (with its own checksums).
Status readPrograms(ByteReader& r, Bundle& b, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t np, r.count("program count"));
  for (uint64_t i = 0; i < np; ++i) {
    ACCELC_ASSIGN_OR_RETURN(std::vector<uint8_t> pb, r.bytes("program"));
    ACCELC_ASSIGN_OR_RETURN(isa::Program p, isa::readProgram(pb, name + ":program " + std::to_string(i)));
    b.programs.push_back(std::move(p));
  }
  return Status::ok();
}

Status readSteps(ByteReader& r, Bundle& b) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t ns, r.count("step count"));
  for (uint64_t i = 0; i < ns; ++i) {
    Step s;
    ACCELC_TRY(readStep(r, s));
    b.steps.push_back(std::move(s));
  }
  return Status::ok();
}

Status readLayers(ByteReader& r, Bundle& b) {
  ACCELC_ASSIGN_OR_RETURN(uint64_t nl, r.count("layer count"));
  for (uint64_t i = 0; i < nl; ++i) {
    LayerInfo l;
    ACCELC_TRY(readLayer(r, l));
    b.layers.push_back(std::move(l));
  }
  return Status::ok();
}

}  // namespace

std::vector<uint8_t> writeBundle(const Bundle& b) {
  std::vector<ByteWriter> w(bundleContainerKind().sections.size());
  w[0].str(b.hwspecYaml), w[0].str(b.isaYaml), w[0].u64(b.hash), w[0].u64(b.window);
  w[1].u64(b.tensors.size());
  for (const TensorSlot& s : b.tensors) writeSlot(w[1], s);
  writeInts(w[1], b.inputs);
  writeInts(w[1], b.outputs);
  w[2].u64(b.constants.size());
  for (const ConstantData& c : b.constants) w[2].str(c.name), w[2].u64(c.addr), w[2].bytes(c.bytes);
  w[3].u64(b.programs.size());
  for (const isa::Program& p : b.programs) w[3].bytes(isa::writeProgram(p));
  w[4].u64(b.steps.size());
  for (const Step& s : b.steps) writeStep(w[4], s);
  w[5].u64(b.layers.size());
  for (const LayerInfo& l : b.layers) writeLayer(w[5], l);
  w[6].str(b.graphText);
  writeHostCode(w[7], b.host);
  support::SectionData d;
  for (ByteWriter& x : w) d.push_back(std::move(x.data()));
  return support::writeContainer(bundleContainerKind(), d);
}

Expected<CheckedBundle> readCheckedBundle(const std::vector<uint8_t>& bytes, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(support::SectionData d, support::readContainer(bundleContainerKind(), bytes, name));
  Bundle b;
  const std::function<Status(ByteReader&)> readers[] = {
      [&](ByteReader& r) { return readHwspec(r, b); },
      [&](ByteReader& r) { return readPlan(r, b); },
      [&](ByteReader& r) { return readWeights(r, b); },
      [&](ByteReader& r) { return readPrograms(r, b, name); },
      [&](ByteReader& r) { return readSteps(r, b); },
      [&](ByteReader& r) { return readLayers(r, b); },
      [&](ByteReader& r) -> Status {
        ACCELC_ASSIGN_OR_RETURN(b.graphText, r.str("graph text"));
        return Status::ok();
      },
      [&](ByteReader& r) { return readHostCode(r, b.host); }};
  static_assert(std::size(readers) == 8, "one reader per section");
  for (size_t i = 0; i < d.size(); ++i) {
    ByteReader r(d[i], name + "[" + bundleContainerKind().sections[i] + "]");
    ACCELC_TRY(readers[i](r));
    if (!r.done()) return r.bad("trailing bytes");
  }
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, bundleTarget(b, name));
  ACCELC_TRY(validateBundle(b, t, name));
  return CheckedBundle{std::move(b), std::move(t)};
}

Expected<Bundle> readBundle(const std::vector<uint8_t>& bytes, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(CheckedBundle c, readCheckedBundle(bytes, name));
  return std::move(c.bundle);
}

Expected<CheckedBundle> loadCheckedBundle(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(Location::file(path), "cannot open file for reading");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  return readCheckedBundle(bytes, path);
}

Expected<isa::Target> bundleTarget(const Bundle& b, const std::string& name) {
  ACCELC_ASSIGN_OR_RETURN(hwspec::HwSpec spec, hwspec::parseHwSpec(b.hwspecYaml, name + ":hwspec"));
  ACCELC_ASSIGN_OR_RETURN(isa::Target t, isa::makeTarget(spec, b.isaYaml, name + ":isa"));
  if (t.hash != b.hash)
    return error(Location::file(name), "hwspec hash mismatch: the bundle records " + support::hex64(b.hash) +
                                           " but its embedded hwspec and ISA hash to " + support::hex64(t.hash));
  return t;
}

Status saveBundleFile(const std::string& path, const Bundle& b) {
  std::vector<uint8_t> bytes = writeBundle(b);
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!out) return error(Location::file(path), "cannot write file");
  return Status::ok();
}

namespace {

/// The bytes of slot `s` when its sizes do not overflow, and its layout (if
/// any) stores an int8 tensor of its shape.
std::optional<uint64_t> checkedSlotBytes(const TensorSlot& s) {
  if (!s.blocked) {
    auto n = support::checkedShapeElements(s.shape);
    return n ? std::optional<uint64_t>(static_cast<uint64_t>(*n) * support::dtypeBytes(s.dtype)) : std::nullopt;
  }
  const BlockedLayout& l = *s.blocked;
  if (s.dtype != support::DType::kInt8 || blockedShape(s.shape, s.form, l.block) != Shape{l.n, l.c, l.h, l.w})
    return std::nullopt;
  int64_t bytes = 1;
  for (int64_t v : {l.n, l.rows(), l.rowBlocks(), l.cols(), l.block})
    if (__builtin_mul_overflow(bytes, v, &bytes) || bytes > (int64_t{1} << 40)) return std::nullopt;
  if (bytes == 0) return 0;
  return static_cast<uint64_t>(bytes - (l.rowBlocks() - l.blocks()) * l.cols() * l.block);  // a view's span
}

/// Which slots a step of `kind` may read and write: blocked or plain.
Status checkStepSlots(const Bundle& b, const Step& s, const Location& loc) {
  const bool accel = s.kind == Step::Kind::kAccel, pack = s.kind == Step::Kind::kPack;
  const bool unpack = s.kind == Step::Kind::kUnpack;
  for (int id : s.inputs) {
    if (id == -1 && s.kind != Step::Kind::kHost)
      return error(loc, "step '" + s.name + "' omits an input, which only host operators may");
    if (id != -1 && b.tensors[id].blocked.has_value() != (accel || unpack))
      return error(loc, "step '" + s.name + "' reads tensor '" + b.tensors[id].name + "' in the wrong layout");
  }
  for (int id : s.outputs)
    if (b.tensors[id].blocked.has_value() != (accel || pack))
      return error(loc, "step '" + s.name + "' writes tensor '" + b.tensors[id].name + "' in the wrong layout");
  if ((pack || unpack) && (b.tensors[s.inputs[0]].shape != b.tensors[s.outputs[0]].shape ||
                           b.tensors[s.inputs[0]].dtype != support::DType::kInt8))
    return error(loc, "pack/unpack step '" + s.name + "' must keep an int8 tensor's shape");
  return Status::ok();
}

}  // namespace

Status validateBundle(const Bundle& b, const isa::Target& t, const std::string& name) {
  const Location loc = Location::file(name);
  auto inWindow = [&](uint64_t addr, uint64_t n) { return addr <= b.window && n <= b.window - addr; };
  for (const TensorSlot& s : b.tensors) {
    std::optional<uint64_t> bytes = checkedSlotBytes(s);
    if (!bytes) return error(loc, "tensor '" + s.name + "' has a layout that does not store its shape and type");
    if (!inWindow(s.addr, *bytes)) return error(loc, "tensor '" + s.name + "' lies outside the DRAM window");
  }
  for (const ConstantData& c : b.constants)
    if (!inWindow(c.addr, c.bytes.size())) return error(loc, "constant '" + c.name + "' lies outside the DRAM window");
  for (size_t i = 0; i < b.programs.size(); ++i) {
    const isa::Program& p = b.programs[i];
    if (p.hash != b.hash || b.hash != t.hash) return error(loc, "a program was built for another hwspec than the bundle");
    if (p.window > b.window) return error(loc, "a program's window exceeds the bundle's");
    ACCELC_TRY(isa::validateProgram(p, t, name + ":program " + std::to_string(i)));
  }
  auto validSlot = [&](int id) { return id >= 0 && id < static_cast<int>(b.tensors.size()); };
  for (int id : b.inputs)
    if (!validSlot(id)) return error(loc, "input slot " + std::to_string(id) + " does not exist");
  for (int id : b.outputs)
    if (!validSlot(id)) return error(loc, "output slot " + std::to_string(id) + " does not exist");
  for (const Step& s : b.steps) {
    if (s.kind == Step::Kind::kAccel && (s.program < 0 || s.program >= static_cast<int>(b.programs.size())))
      return error(loc, "step '" + s.name + "' names program " + std::to_string(s.program) + ", which does not exist");
    if (s.kind == Step::Kind::kHost && s.attrs.index() != defaultAttrs(s.op).index())
      return error(loc, "step '" + s.name + "' carries attributes of another op");
    for (int id : s.inputs)
      if (id != -1 && !validSlot(id)) return error(loc, "step '" + s.name + "' reads a tensor slot that does not exist");
    for (int id : s.outputs)
      if (!validSlot(id)) return error(loc, "step '" + s.name + "' writes a tensor slot that does not exist");
    if ((s.kind == Step::Kind::kPack || s.kind == Step::Kind::kUnpack) && (s.inputs.size() != 1 || s.outputs.size() != 1))
      return error(loc, "pack/unpack step '" + s.name + "' must have one input and one output");
    ACCELC_TRY(checkStepSlots(b, s, loc));
  }
  for (const LayerInfo& l : b.layers)
    if (l.step < -1 || l.step >= static_cast<int64_t>(b.steps.size()))
      return error(loc, "layer '" + l.name + "' names step " + std::to_string(l.step) + ", which does not exist");
  // The host code against the steps, whose slots are known to exist now.
  std::vector<std::vector<Shape>> stepOutputs;
  for (const Step& st : b.steps) {
    stepOutputs.emplace_back();
    for (int y : st.outputs) stepOutputs.back().push_back(b.tensors[static_cast<size_t>(y)].shape);
  }
  if (const std::string problem = hostCodeProblem(b.host, stepOutputs); !problem.empty())
    return error(Location::file(name + "[host]"), problem);
  return Status::ok();
}

}  // namespace accelc::runtime
