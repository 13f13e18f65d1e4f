// compiler/frontend/onnx_import.cc — ModelProto -> Graph.
#include "compiler/frontend/onnx_import.h"

#include <onnx/onnx_pb.h>
#include <onnx/shape_inference/implementation.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>

#include "compiler/engine/reference.h"
#include "compiler/frontend/verify_shapes.h"
#include "support/memory.h"

namespace accelc::compiler {

using support::DType;
using support::error;
using support::Expected;
using support::Location;
using support::Status;

namespace {

// Opsets 11-17 are the target. Older models load too: where an op's meaning
// changed, the old form either uses an attribute accelc refuses by name, or
// gets its old default here (Concat's axis before opset 4, Softmax's before 13).
constexpr int64_t kMinOpset = 1, kMaxOpset = 17;

/// The accelc dtype of an ONNX TensorProto::DataType, if supported.
std::optional<DType> dtypeOfOnnx(int t) {
  switch (t) {
    case onnx::TensorProto::FLOAT:
      return DType::kFloat32;
    case onnx::TensorProto::UINT8:
      return DType::kUint8;
    case onnx::TensorProto::INT8:
      return DType::kInt8;
    case onnx::TensorProto::INT32:
      return DType::kInt32;
    case onnx::TensorProto::INT64:
      return DType::kInt64;
    case onnx::TensorProto::BOOL:
      return DType::kBool;
    case onnx::TensorProto::DOUBLE:
      return DType::kFloat64;
    case onnx::TensorProto::FLOAT16:
      return DType::kFloat16;
    case onnx::TensorProto::INT16:
      return DType::kInt16;
    case onnx::TensorProto::UINT16:
      return DType::kUint16;
    default:
      return std::nullopt;
  }
}

std::string onnxTypeName(int t) {
  return onnx::TensorProto::DataType_IsValid(t) ? onnx::TensorProto::DataType_Name(onnx::TensorProto::DataType(t))
                                                 : "type " + std::to_string(t);
}

/// A TensorProto (initializer or attribute) as a Tensor.
Expected<Tensor> tensorOf(const onnx::TensorProto& p, const Location& loc) {
  auto dt = dtypeOfOnnx(p.data_type());
  if (!dt) return error(loc, "unsupported dtype " + onnxTypeName(p.data_type()) + " of tensor '" + p.name() + "'");
  if (p.data_location() == onnx::TensorProto::EXTERNAL)
    return error(loc, "tensor '" + p.name() + "' keeps its data in an external file, which is not supported");
  Shape shape(p.dims().begin(), p.dims().end());
  if (!support::checkedShapeElements(shape)) return error(loc, "tensor '" + p.name() + "' has an invalid shape");
  ACCELC_TRY(support::checkTensorAllocation(*dt, shape, "tensor '" + p.name() + "'", loc));
  Tensor t(*dt, shape);
  const int64_t n = t.numel();
  auto sizeError = [&](int64_t have) {
    return error(loc, "tensor '" + p.name() + "' of shape " + support::shapeStr(shape) + " holds " +
                          std::to_string(have) + " values; expected " + std::to_string(n));
  };
  if (p.has_raw_data()) {
    if (static_cast<int64_t>(p.raw_data().size()) != static_cast<int64_t>(t.bytes().size()))
      return sizeError(static_cast<int64_t>(p.raw_data().size()) / support::dtypeBytes(*dt));
    if (!t.bytes().empty()) std::memcpy(t.bytes().data(), p.raw_data().data(), t.bytes().size());
    return t;
  }
  if (*dt == DType::kFloat32) {
    if (p.float_data_size() != n) return sizeError(p.float_data_size());
    if (n > 0) std::memcpy(t.bytes().data(), p.float_data().data(), t.bytes().size());  // an empty one has no data pointer
  } else if (*dt == DType::kInt64) {
    if (p.int64_data_size() != n) return sizeError(p.int64_data_size());
    if (n > 0) std::memcpy(t.bytes().data(), p.int64_data().data(), t.bytes().size());
  } else if (*dt == DType::kFloat64) {
    if (p.double_data_size() != n) return sizeError(p.double_data_size());
    if (n > 0) std::memcpy(t.bytes().data(), p.double_data().data(), t.bytes().size());
  } else {  // ONNX keeps 8- and 16-bit values (float16: its bits) and int32 in int32_data
    if (p.int32_data_size() != n) return sizeError(p.int32_data_size());
    const int eb = support::dtypeBytes(*dt);
    for (int64_t i = 0; i < n; ++i) {
      const int32_t v = p.int32_data(static_cast<int>(i));
      if (eb == 4) std::memcpy(&t.bytes()[4 * i], &v, 4);
      else if (eb == 2) t.bytes()[2 * i] = static_cast<uint8_t>(v), t.bytes()[2 * i + 1] = static_cast<uint8_t>(v >> 8);
      else t.bytes()[i] = static_cast<uint8_t>(v);
    }
  }
  return t;
}

/// dtype and shape of a ValueInfo; false when either is not fully known.
bool typeOf(const onnx::TypeProto& type, DType& dt, Shape& shape, int& onnxType) {
  if (!type.has_tensor_type()) return false;
  const auto& tt = type.tensor_type();
  onnxType = tt.elem_type();
  auto d = dtypeOfOnnx(tt.elem_type());
  if (!d || !tt.has_shape()) return false;
  dt = *d;
  shape.clear();
  for (const auto& dim : tt.shape().dim()) {
    if (!dim.has_dim_value()) return false;
    shape.push_back(dim.dim_value());
  }
  return true;
}

/// Sets typed attribute fields from a NodeProto's attributes.
class AttrSetter {
 public:
  AttrSetter(const onnx::NodeProto& n, const Location& loc) : node_(n), loc_(loc) {}
  template <typename T>
  void operator()(const char* name, T& field) {
    known_.push_back(name);
    for (const auto& a : node_.attribute())
      if (a.name() == name && st_.isOk()) st_ = set(a, field);
  }
  /// Fails on an attribute no field asked for.
  Status finish() const {
    ACCELC_TRY(st_);
    for (const auto& a : node_.attribute())
      if (std::find(known_.begin(), known_.end(), a.name()) == known_.end())
        return error(loc_, "attribute '" + a.name() + "' of " + node_.op_type() + " is not supported");
    return Status::ok();
  }

 private:
  Status wrongType(const onnx::AttributeProto& a, const std::string& want) const {
    return error(loc_, "attribute '" + a.name() + "' of " + node_.op_type() + " must be " + want);
  }
  Status set(const onnx::AttributeProto& a, int64_t& f) {
    if (a.type() != onnx::AttributeProto::INT) return wrongType(a, "an int");
    f = a.i();
    return Status::ok();
  }
  Status set(const onnx::AttributeProto& a, float& f) {
    if (a.type() != onnx::AttributeProto::FLOAT) return wrongType(a, "a float");
    f = a.f();
    return Status::ok();
  }
  Status set(const onnx::AttributeProto& a, runtime::Ints& f) {
    if (a.type() != onnx::AttributeProto::INTS) return wrongType(a, "a list of ints");
    f.assign(a.ints().begin(), a.ints().end());
    return Status::ok();
  }
  Status set(const onnx::AttributeProto& a, DType& f) {
    auto d = a.type() == onnx::AttributeProto::INT ? dtypeOfOnnx(static_cast<int>(a.i())) : std::nullopt;
    if (!d) return error(loc_, "unsupported dtype " + onnxTypeName(static_cast<int>(a.i())) + " in attribute '" + a.name() + "'");
    f = *d;
    return Status::ok();
  }
  template <typename E, typename = std::enable_if_t<runtime::IsAttrEnum<E>::value>>
  Status set(const onnx::AttributeProto& a, E& f) {
    if (a.type() != onnx::AttributeProto::STRING || !runtime::parseEnum(a.s(), f))
      return wrongType(a, "one of " + runtime::enumChoices<E>() + (a.type() == onnx::AttributeProto::STRING ? ", found '" + a.s() + "'" : ""));
    return Status::ok();
  }
  Status set(const onnx::AttributeProto& a, Tensor& f) {
    if (a.type() != onnx::AttributeProto::TENSOR) return wrongType(a, "a tensor");
    ACCELC_ASSIGN_OR_RETURN(f, tensorOf(a.t(), loc_));
    return Status::ok();
  }

  const onnx::NodeProto& node_;     ///< the node
  const Location& loc_;             ///< its location
  std::vector<std::string> known_;  ///< attribute names the struct has
  Status st_;                       ///< first error
};

/// The attributes of a node: the op's defaults (which differ between ops
/// sharing a struct, and between opsets), then the node's own values.
Expected<runtime::Attrs> attrsOf(OpKind k, const onnx::NodeProto& n, int64_t opset, const Location& loc) {
  runtime::Attrs attrs = runtime::defaultAttrs(k);
  if (k == OpKind::kFlatten || k == OpKind::kQuantizeLinear || k == OpKind::kDequantizeLinear)
    std::get<runtime::AxisAttrs>(attrs).axis = 1;
  if (k == OpKind::kSoftmax && opset < 13) std::get<runtime::SoftmaxAttrs>(attrs) = {1, 1};
  if (k == OpKind::kConcat && opset < 4) std::get<runtime::AxisAttrs>(attrs).axis = 1;
  if ((k == OpKind::kLogSoftmax || k == OpKind::kHardmax) && opset < 13) std::get<runtime::SoftmaxAttrs>(attrs) = {1, 1};
  if (k == OpKind::kOneHot) std::get<runtime::AxisAttrs>(attrs).axis = -1;
  if (k == OpKind::kLeakyRelu) std::get<runtime::AlphaAttrs>(attrs).alpha = 0.01f;
  if (k == OpKind::kConstant) {  // value_float, value_ints, ... become one tensor
    for (const auto& a : n.attribute()) {
      if (a.name() == "value") continue;
      Tensor t;
      if (a.name() == "value_float") t = Tensor::of<float>({}, {a.f()});
      else if (a.name() == "value_floats") t = Tensor::of<float>({a.floats_size()}, {a.floats().begin(), a.floats().end()});
      else if (a.name() == "value_int") t = Tensor::of<int64_t>({}, {a.i()});
      else if (a.name() == "value_ints") t = Tensor::of<int64_t>({a.ints_size()}, {a.ints().begin(), a.ints().end()});
      else return error(loc, "attribute '" + a.name() + "' of Constant is not supported");
      std::get<runtime::ConstantAttrs>(attrs).value = std::move(t);
      return attrs;
    }
  }
  AttrSetter set(n, loc);
  std::visit([&](auto& s) { s.visitFields(set); }, attrs);
  ACCELC_TRY(set.finish());
  if (k == OpKind::kConstant && n.attribute_size() != 1)
    return error(loc, "Constant needs exactly one value attribute");
  if (k == OpKind::kBatchNormalization && opset < 14 && n.output_size() > 1)  // extra outputs meant training then
    std::get<runtime::NormAttrs>(attrs).trainingMode = 1;
  return attrs;
}

/// Copies the constant scale and zero point of every QuantizeLinear onto the
/// value it produces, and of every DequantizeLinear onto the value it reads,
/// so that later passes see quantized tensors directly.
void annotateQuant(Graph& g) {
  for (const Node& n : g.nodes) {
    if (n.kind != OpKind::kQuantizeLinear && n.kind != OpKind::kDequantizeLinear) continue;
    const Value& scale = g.values[n.inputs[1]];
    const Value* zp = n.inputs.size() > 2 && n.inputs[2] >= 0 ? &g.values[n.inputs[2]] : nullptr;
    if (!scale.constant || (zp && !zp->constant)) continue;
    runtime::QuantParams q;
    q.dtype = zp ? zp->dtype : DType::kUint8;  // ONNX's default zero point is uint8
    for (int64_t i = 0; i < scale.constant->numel(); ++i) {
      q.scale.push_back(static_cast<float>(scale.constant->at(i)));
      q.zeroPoint.push_back(zp ? static_cast<int32_t>(zp->constant->intAt(i)) : 0);
    }
    if (scale.constant->numel() > 1 || scale.constant->rank() == 1) q.axis = std::get<runtime::AxisAttrs>(n.attrs).axis;
    Value& target = g.values[n.kind == OpKind::kQuantizeLinear ? n.outputs[0] : n.inputs[0]];
    if (q.axis < 0 && scale.constant->numel() > 1) q.axis += static_cast<int64_t>(target.shape.size());
    if (scale.constant->numel() == 1) q.axis = -1;
    target.quant = q;
    if (target.constant) target.constant->quant = q;
  }
}

Status undefinedInput(const Location& loc, const std::string& name) {
  return error(loc, "input '" + name + "' is neither a graph input, an initializer nor the output of an earlier node");
}

/// Every value is defined once, and every node input names a graph input,
/// an initializer or an earlier node's output: checked before ONNX's shape
/// inference, which dereferences the missing type of an undefined input and
/// mixes up the types of a name declared twice (both found by fuzzing).
Status checkNames(const onnx::GraphProto& g, const std::string& model) {
  std::set<std::string> defined;
  for (const auto& in : g.input())
    if (!defined.insert(in.name()).second)
      return error(Location::node(model, in.name()), "graph input '" + in.name() + "' is declared twice");
  for (const auto& t : g.initializer()) defined.insert(t.name());  // an input's default value shares its name
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    const Location loc = Location::node(model, n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name());
    for (const std::string& in : n.input())
      if (!in.empty() && !defined.count(in)) return undefinedInput(loc, in);
    for (const std::string& out : n.output())
      if (!out.empty() && !defined.insert(out).second) return error(loc, "output '" + out + "' is defined twice");
  }
  return Status::ok();
}

/// LayerNormalization of a graph input: a declared rank of at least 1 and an
/// axis within it, checked before ONNX's shape inference, which crashed on a
/// rank-0 input (found by fuzzing).
Status checkLayerNormRanks(const onnx::GraphProto& g, const std::string& model) {
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    if (n.op_type() != "LayerNormalization" || n.input_size() == 0) continue;
    int64_t axis = -1;
    for (const auto& a : n.attribute())
      if (a.name() == "axis") axis = a.i();
    for (const auto& in : g.input()) {
      if (in.name() != n.input(0) || !in.type().tensor_type().has_shape()) continue;
      const int64_t rank = in.type().tensor_type().shape().dim_size();
      if (rank >= 1 && axis >= -rank && axis < rank) continue;
      const std::string node = n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
      return error(Location::node(model, node), "LayerNormalization of '" + in.name() + "' of rank " +
                                                    std::to_string(rank) + " along axis " + std::to_string(axis) +
                                                    ": expected a rank of at least 1 and an axis within it");
    }
  }
  return Status::ok();
}

/// Import state for one model.
class Importer {
 public:
  Importer(std::string name, const ImportOptions& o) : name_(std::move(name)), options_(o) {}
  Expected<Graph> run(onnx::ModelProto& model);

 private:
  Location at(const std::string& what) const { return Location::node(name_, what); }
  Status opsetOf(const onnx::ModelProto& m);
  Status bindInputs(onnx::GraphProto& g);
  Status addNode(const onnx::NodeProto& n, size_t index);
  /// Clip before opset 11 bounds by attributes `min` and `max`: they become
  /// constant inputs, as later opsets give them (an absent one stays omitted).
  /// `rest` gets the node without them.
  Status clipBoundInputs(const onnx::NodeProto& n, onnx::NodeProto& rest, Node& node);
  /// The attribute values ONNX's own shape inference divides by or sizes
  /// windows with: checked before it sees the model, which it would crash on.
  Status checkWindowAttributes(const onnx::GraphProto& g) const;
  /// A constant convolution weight has rank 3 to 5, the input's rank, and
  /// window attributes of its spatial rank (checked before ONNX's inference).
  Status checkWeightRank(const onnx::GraphProto& g, const onnx::NodeProto& n, const std::string& node) const;
  /// Constant quantization scales are finite and positive: a scale of 0,
  /// NaN or infinity quantizes nothing and would run as if it did.
  Status checkScales() const;
  /// Shape operands (Reshape's shape, ConstantOfShape's input) are int64,
  /// and a constant ConstantOfShape has no negative dimension.
  Status checkShapeOperands() const;
  Status fillUnknownShapes();

  std::string name_;                       ///< model name for locations
  const ImportOptions& options_;           ///< shape bindings
  int64_t opset_ = 0;                      ///< default-domain opset
  Graph g_;                                ///< being built
  std::map<std::string, int> ids_;         ///< ONNX value name -> value id
  std::map<std::string, const onnx::TypeProto*> types_;  ///< inferred value types
  std::vector<bool> known_;                ///< per value: dtype and shape known
};

Status Importer::opsetOf(const onnx::ModelProto& m) {
  for (const auto& o : m.opset_import())
    if (o.domain().empty() || o.domain() == "ai.onnx") opset_ = o.version();
  if (opset_ < kMinOpset || opset_ > kMaxOpset)
    return error(Location::file(name_), "opset " + std::to_string(opset_) + " is not supported; accelc reads opsets " +
                                            std::to_string(kMinOpset) + " to " + std::to_string(kMaxOpset));
  return Status::ok();
}

/// Checks input dtypes and binds dynamic dimensions (in the proto, so that
/// the ONNX shape inference sees them).
Status Importer::checkWindowAttributes(const onnx::GraphProto& g) const {
  // The ops with windows: strides, dilations and kernels of 0 (or below)
  // divide by zero or size negative windows; negative pads and a group of 0
  // make no convolution. ONNX defines each of them positive (pads: at least 0).
  static const std::set<std::string> kWindowed = {"Conv",    "ConvTranspose", "ConvInteger", "QLinearConv",
                                                  "MaxPool", "AveragePool",   "LpPool",      "MaxUnpool"};
  for (int i = 0; i < g.node_size(); ++i) {
    const onnx::NodeProto& n = g.node(i);
    if (!kWindowed.count(n.op_type())) continue;
    const std::string node = n.name().empty() ? n.op_type() + "_" + std::to_string(i) : n.name();
    for (const onnx::AttributeProto& a : n.attribute()) {
      const bool positive = a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape";
      const bool nonNegative = a.name() == "pads" || a.name() == "output_padding";
      for (int64_t v : a.ints())
        if ((positive && v < 1) || (nonNegative && v < 0))
          return error(at(node), "attribute '" + a.name() + "' of " + n.op_type() + ": expected " +
                                     (positive ? "positive integers" : "integers >= 0") + ", found " +
                                     std::to_string(v));
      if (a.name() == "group" && a.i() < 1)
        return error(at(node), "attribute 'group' of " + n.op_type() + ": expected a positive integer, found " +
                                   std::to_string(a.i()));
    }
    ACCELC_TRY(checkWeightRank(g, n, node));
  }
  return Status::ok();
}

Status Importer::checkWeightRank(const onnx::GraphProto& g, const onnx::NodeProto& n, const std::string& node) const {
  // ONNX's convolution inference indexes the input's dimensions by the
  // weight's rank: a constant weight of another rank than the input, or
  // than the window attributes describe, crashes it.
  const bool conv = n.op_type() == "Conv" || n.op_type() == "ConvInteger" || n.op_type() == "QLinearConv" ||
                    n.op_type() == "ConvTranspose";
  const int wi = n.op_type() == "QLinearConv" ? 3 : 1;
  if (!conv || n.input_size() <= wi) return Status::ok();
  // The weight's rank: an initializer's, or a graph input's declared one
  // (found by fuzzing: a rank-0 ConvTranspose weight input crashed it too).
  int rank = -1;
  const std::string& w = n.input(wi);
  for (const auto& t : g.initializer())
    if (t.name() == w) rank = t.dims_size();
  for (const auto& in : g.input())
    if (rank < 0 && in.name() == w && in.type().tensor_type().has_shape())
      rank = in.type().tensor_type().shape().dim_size();
  if (rank < 0) return Status::ok();
  if (rank < 3 || rank > 5)
    return error(at(node), "weight '" + w + "' of " + n.op_type() + " has rank " + std::to_string(rank) +
                               "; expected 3 to 5 (a 1-D to 3-D convolution)");
  for (const auto& in : g.input())
    if (in.name() == n.input(0) && in.type().tensor_type().has_shape() &&
        in.type().tensor_type().shape().dim_size() != rank)
      return error(at(node), "input '" + in.name() + "' of rank " +
                                 std::to_string(in.type().tensor_type().shape().dim_size()) + " and weight '" + w +
                                 "' of rank " + std::to_string(rank) + " must have one rank");
  for (const onnx::AttributeProto& a : n.attribute()) {
    const int want = a.name() == "pads" ? 2 * (rank - 2) : rank - 2;
    const bool windowed = a.name() == "strides" || a.name() == "dilations" || a.name() == "kernel_shape" ||
                          a.name() == "pads" || a.name() == "output_padding";
    if (windowed && a.ints_size() != want)
      return error(at(node), "attribute '" + a.name() + "' of " + n.op_type() + " has " +
                                 std::to_string(a.ints_size()) + " values; the weight's rank " +
                                 std::to_string(rank) + " needs " + std::to_string(want));
  }
  return Status::ok();
}

Status Importer::checkScales() const {
  for (const Node& n : g_.nodes) {
    const bool qdq = n.kind == OpKind::kQuantizeLinear || n.kind == OpKind::kDequantizeLinear;
    const bool qlinear = n.kind == OpKind::kQLinearConv || n.kind == OpKind::kQLinearMatMul;
    if (!qdq && !qlinear) continue;
    const std::vector<size_t> scales = qdq ? std::vector<size_t>{1} : std::vector<size_t>{1, 4, 6};  // their inputs
    for (size_t k : scales) {
      if (k >= n.inputs.size() || n.inputs[k] < 0 || !g_.values[n.inputs[k]].constant) continue;
      const Value& v = g_.values[n.inputs[k]];
      // Each scale's zero point (the input after it) has as many values.
      if (k + 1 < n.inputs.size() && n.inputs[k + 1] >= 0 && g_.values[n.inputs[k + 1]].constant &&
          g_.values[n.inputs[k + 1]].constant->numel() != v.constant->numel())
        return error(at(n.name), "zero point '" + g_.values[n.inputs[k + 1]].name + "' of " +
                                     std::string(runtime::opInfo(n.kind).name) + " has " +
                                     std::to_string(g_.values[n.inputs[k + 1]].constant->numel()) +
                                     " values; its scale '" + v.name + "' has " + std::to_string(v.constant->numel()));
      for (int64_t i = 0; i < v.constant->numel(); ++i) {
        const double x = v.constant->at(i);
        if (std::isfinite(x) && x > 0) continue;
        std::ostringstream found;
        found << x;
        return error(at(n.name), "scale '" + v.name + "' of " + std::string(runtime::opInfo(n.kind).name) +
                                     ": expected finite scales > 0, found " + found.str());
      }
    }
  }
  return Status::ok();
}

Status Importer::checkShapeOperands() const {
  for (const Node& n : g_.nodes) {
    const bool reshape = n.kind == OpKind::kReshape, fill = n.kind == OpKind::kConstantOfShape;
    if (!reshape && !fill) continue;
    const size_t k = reshape ? 1 : 0;
    if (k >= n.inputs.size() || n.inputs[k] < 0 || !known_[static_cast<size_t>(n.inputs[k])]) continue;
    const Value& v = g_.values[n.inputs[k]];
    const std::string what = "input '" + v.name + "' of " + std::string(runtime::opInfo(n.kind).name);
    if (v.dtype != support::DType::kInt64)
      return error(at(n.name), what + ": expected an int64 shape, found " + support::dtypeName(v.dtype));
    if (fill && v.constant)
      for (int64_t i = 0; i < v.constant->numel(); ++i)
        if (v.constant->intAt(i) < 0)
          return error(at(n.name), what + ": expected dimensions >= 0, found " + std::to_string(v.constant->intAt(i)));
  }
  return Status::ok();
}

Status Importer::bindInputs(onnx::GraphProto& g) {
  std::set<std::string> inits;
  for (const auto& t : g.initializer()) inits.insert(t.name());
  for (auto& in : *g.mutable_input()) {
    if (inits.count(in.name())) continue;
    const Location loc = at(in.name());
    if (!in.type().has_tensor_type()) return error(loc, "input '" + in.name() + "' is not a tensor");
    auto* tt = in.mutable_type()->mutable_tensor_type();
    if (!dtypeOfOnnx(tt->elem_type()))
      return error(loc, "unsupported dtype " + onnxTypeName(tt->elem_type()) + " of input '" + in.name() + "'");
    auto bind = options_.shapes.find(in.name());
    auto* shape = tt->mutable_shape();
    if (bind != options_.shapes.end()) {
      if (static_cast<size_t>(shape->dim_size()) != bind->second.size() && shape->dim_size() > 0)
        return error(loc, "--shape " + in.name() + "=" + support::shapeStr(bind->second) + " has rank " +
                              std::to_string(bind->second.size()) + "; the input has rank " + std::to_string(shape->dim_size()));
      while (shape->dim_size() < static_cast<int>(bind->second.size())) shape->add_dim();
      for (int d = 0; d < shape->dim_size(); ++d) {
        auto* dim = shape->mutable_dim(d);
        if (dim->has_dim_value() && dim->dim_value() != bind->second[d])
          return error(loc, "--shape gives " + std::to_string(bind->second[d]) + " for axis " + std::to_string(d) +
                                " of '" + in.name() + "', which the model fixes at " + std::to_string(dim->dim_value()));
        dim->set_dim_value(bind->second[d]);
      }
    }
    for (int d = 0; d < shape->dim_size(); ++d)
      if (!shape->dim(d).has_dim_value() || shape->dim(d).dim_value() < 0) {
        std::string sym = shape->dim(d).has_dim_param() ? " '" + shape->dim(d).dim_param() + "'" : "";
        return error(loc, "input '" + in.name() + "' has a dynamic dimension" + sym + " (axis " + std::to_string(d) +
                              "); bind it with --shape " + in.name() + "=DIMS, e.g. --shape " + in.name() + "=1x3x224x224");
      }
    Value v;
    v.name = in.name();
    int onnxType = 0;
    typeOf(in.type(), v.dtype, v.shape, onnxType);
    if (!support::checkedShapeElements(v.shape))
      return error(loc, "input '" + in.name() + "' of shape " + support::shapeStr(v.shape) + " is too large");
    const int id = g_.addValue(std::move(v));
    ids_[in.name()] = id;
    known_.push_back(true);
    g_.inputs.push_back(id);
  }
  return Status::ok();
}

Status Importer::clipBoundInputs(const onnx::NodeProto& n, onnx::NodeProto& rest, Node& node) {
  rest = n;
  rest.clear_attribute();
  std::vector<int> bounds(2, -1);
  for (const auto& a : n.attribute()) {
    const int which = a.name() == "min" ? 0 : a.name() == "max" ? 1 : -1;
    if (which < 0 || a.type() != onnx::AttributeProto::FLOAT) {
      rest.add_attribute()->CopyFrom(a);  // attrsOf names it
      continue;
    }
    Value v;
    v.name = node.name + ":" + a.name();
    v.dtype = DType::kFloat32;
    v.constant = Tensor::of<float>({}, {a.f()});
    bounds[which] = g_.addValue(std::move(v));
    known_.push_back(true);
  }
  if (bounds[1] >= 0) node.inputs = bounds;
  else if (bounds[0] >= 0) node.inputs = {bounds[0]};
  return Status::ok();
}

Status Importer::addNode(const onnx::NodeProto& n, size_t index) {
  Node node;
  node.name = n.name().empty() ? n.op_type() + "_" + std::to_string(index) : n.name();
  const Location loc = at(node.name);
  auto kind = (n.domain().empty() || n.domain() == "ai.onnx") ? runtime::findOp(n.op_type()) : std::nullopt;
  if (kind && !runtime::opInfo(*kind).onnx) kind.reset();  // accelc's integer ops are not ONNX
  if (!kind)
    return error(loc, "unsupported op '" + (n.domain().empty() ? "" : n.domain() + ".") + n.op_type() +
                          "' (`accelc import --list-ops` lists the supported ones)");
  node.kind = *kind;
  onnx::NodeProto rest;
  const bool oldClip = node.kind == OpKind::kClip && opset_ < 11;
  if (oldClip) ACCELC_TRY(clipBoundInputs(n, rest, node));
  ACCELC_ASSIGN_OR_RETURN(node.attrs, attrsOf(node.kind, oldClip ? rest : n, opset_, loc));
  if (node.kind == OpKind::kConstant && n.output_size() == 1) {  // a constant value, not a node
    Value v;
    v.name = n.output(0);
    if (ids_.count(v.name)) return error(loc, "output '" + v.name + "' is defined twice");
    Tensor t = std::get<runtime::ConstantAttrs>(node.attrs).value;
    v.dtype = t.dtype(), v.shape = t.shape(), v.constant = std::move(t);
    const std::string name = v.name;
    ids_[name] = g_.addValue(std::move(v));
    known_.push_back(true);
    return Status::ok();
  }
  std::vector<int> inputs;
  for (const std::string& in : n.input()) {
    if (in.empty()) {
      inputs.push_back(-1);
      continue;
    }
    auto it = ids_.find(in);
    if (it == ids_.end()) return undefinedInput(loc, in);
    inputs.push_back(it->second);
  }
  node.inputs.insert(node.inputs.begin(), inputs.begin(), inputs.end());  // before Clip's bounds, if any
  if (node.kind == OpKind::kEyeLike && !node.inputs.empty() && node.inputs[0] >= 0 &&
      std::none_of(n.attribute().begin(), n.attribute().end(), [](const auto& a) { return a.name() == "dtype"; }))
    std::get<runtime::EyeLikeAttrs>(node.attrs).dtype = g_.values[node.inputs[0]].dtype;  // ONNX: the input's
  for (int i = 0; i < n.output_size(); ++i) {
    Value v;
    v.name = n.output(i).empty() ? node.name + ":unused" + std::to_string(i) : n.output(i);
    if (ids_.count(v.name)) return error(loc, "output '" + v.name + "' is defined twice");
    auto t = types_.find(v.name);
    int onnxType = 0;
    bool ok = t != types_.end() && typeOf(*t->second, v.dtype, v.shape, onnxType);
    if (t != types_.end() && onnxType && !dtypeOfOnnx(onnxType))
      return error(loc, "unsupported dtype " + onnxTypeName(onnxType) + " of '" + v.name + "'");
    const int id = g_.addValue(std::move(v));
    ids_[g_.values[id].name] = id;
    known_.push_back(ok);
    node.outputs.push_back(id);
  }
  g_.nodes.push_back(std::move(node));
  return Status::ok();
}

/// Values the ONNX inference left open get their types by running the graph
/// on zeros (shapes are static, so one run settles every value).
Status Importer::fillUnknownShapes() {
  if (std::all_of(known_.begin(), known_.end(), [](bool b) { return b; })) return Status::ok();
  Graph probe = g_;
  probe.outputs.clear();
  for (size_t i = 0; i < probe.values.size(); ++i)
    if (!probe.values[i].constant && std::find(probe.inputs.begin(), probe.inputs.end(), static_cast<int>(i)) == probe.inputs.end())
      probe.outputs.push_back(static_cast<int>(i));
  std::vector<Tensor> zeros;
  for (int id : probe.inputs) {  // within the memory budget (found by fuzzing: a 5 GB input)
    const Value& v = probe.values[id];
    ACCELC_TRY(support::checkTensorAllocation(v.dtype, v.shape, "input '" + v.name + "'", at(v.name)));
    zeros.emplace_back(v.dtype, v.shape);
  }
  ACCELC_ASSIGN_OR_RETURN(std::vector<Tensor> outs, runReference(probe, zeros));
  for (size_t k = 0; k < outs.size(); ++k) {
    Value& v = g_.values[probe.outputs[k]];
    v.dtype = outs[k].dtype();
    v.shape = outs[k].shape();
  }
  return Status::ok();
}

Expected<Graph> Importer::run(onnx::ModelProto& model) {
  g_.model = name_;
  ACCELC_TRY(opsetOf(model));
  onnx::GraphProto& gp = *model.mutable_graph();
  ACCELC_TRY(bindInputs(gp));
  ACCELC_TRY(checkWindowAttributes(gp));
  ACCELC_TRY(checkNames(gp, name_));
  ACCELC_TRY(checkLayerNormRanks(gp, name_));
  try {
    onnx::shape_inference::InferShapes(model);
  } catch (const std::exception&) {
    // The ONNX inference gave up on this model; accelc's own fills in below.
  }
  for (const auto& vi : gp.value_info()) types_[vi.name()] = &vi.type();
  for (const auto& vi : gp.output()) types_[vi.name()] = &vi.type();
  for (const auto& init : gp.initializer()) {
    if (ids_.count(init.name())) continue;  // an input with a default: the input wins
    Value v;
    v.name = init.name();
    ACCELC_ASSIGN_OR_RETURN(Tensor t, tensorOf(init, at(init.name())));
    v.dtype = t.dtype(), v.shape = t.shape(), v.constant = std::move(t);
    const int id = g_.addValue(std::move(v));
    ids_[init.name()] = id;
    known_.push_back(true);
  }
  for (int i = 0; i < gp.node_size(); ++i) ACCELC_TRY(addNode(gp.node(i), static_cast<size_t>(i)));
  if (gp.output_size() == 0)
    return error(Location::file(name_), "the graph has no outputs: there is nothing to compute");
  ACCELC_TRY(checkScales());
  ACCELC_TRY(checkShapeOperands());
  ACCELC_TRY(verifyShapes(g_, known_));
  for (const auto& out : gp.output()) {
    auto it = ids_.find(out.name());
    if (it == ids_.end()) return error(at(out.name()), "graph output '" + out.name() + "' is never computed");
    g_.outputs.push_back(it->second);
  }
  ACCELC_TRY(verify(g_));
  ACCELC_TRY(fillUnknownShapes());
  annotateQuant(g_);
  canonicalize(g_);
  return std::move(g_);
}

}  // namespace

Expected<Graph> importOnnxBytes(const std::string& bytes, const std::string& name, const ImportOptions& options) {
  onnx::ModelProto model;
  if (bytes.empty() || !model.ParseFromString(bytes) || !model.has_graph())
    return error(Location::file(name), "not a valid ONNX model: the file does not parse as a ModelProto "
                                       "(truncated or corrupt)");
  Importer imp(name, options);
  return imp.run(model);
}

Expected<Graph> importOnnx(const std::string& path, const ImportOptions& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return error(Location::file(path), "cannot open file for reading");
  std::ostringstream ss;
  ss << in.rdbuf();
  return importOnnxBytes(ss.str(), path, options);
}

}  // namespace accelc::compiler
