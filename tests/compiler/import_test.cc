// tests/compiler/import_test.cc — ONNX import: supported models and located errors.
#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include <limits>

#include "compiler/engine/reference.h"
#include "compiler/frontend/onnx_import.h"
#include "support/memory.h"
#include "tests/test_util.h"

namespace accelc::compiler {
namespace {

/// A one-node model: y = OP(x) with x float32[2,3] (dims may be symbolic).
onnx::ModelProto model(const std::string& op, int elemType = onnx::TensorProto::FLOAT, bool dynamic = false) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  m.add_opset_import()->set_version(13);
  auto* g = m.mutable_graph();
  g->set_name("g");
  auto* in = g->add_input();
  in->set_name("x");
  auto* tt = in->mutable_type()->mutable_tensor_type();
  tt->set_elem_type(elemType);
  tt->mutable_shape()->add_dim()->set_dim_value(2);
  auto* d = tt->mutable_shape()->add_dim();
  dynamic ? d->set_dim_param("N") : d->set_dim_value(3);
  auto* n = g->add_node();
  n->set_op_type(op);
  n->set_name("the_node");
  n->add_input("x");
  n->add_output("y");
  g->add_output()->set_name("y");
  return m;
}

std::string importError(const onnx::ModelProto& m, const ImportOptions& o = {}) {
  auto g = importOnnxBytes(m.SerializeAsString(), "m.onnx", o);
  return g ? "ok" : g.diag().str();
}

/// y = OP(x) over x float32[1,1,4,4], with a weight initializer w[1,1,3,3]
/// for Conv and the integer attribute `attr` set to `values`.
onnx::ModelProto windowModel(const std::string& op, const std::string& attr, const std::vector<int64_t>& values) {
  onnx::ModelProto m = model(op);
  auto* g = m.mutable_graph();
  auto* shape = g->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape();
  shape->clear_dim();
  for (int64_t d : {1, 1, 4, 4}) shape->add_dim()->set_dim_value(d);
  auto* n = g->mutable_node(0);
  if (op == "Conv") {
    auto* w = g->add_initializer();
    w->set_name("w");
    w->set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : {1, 1, 3, 3}) w->add_dims(d);
    for (int i = 0; i < 9; ++i) w->add_float_data(1.0f);
    n->add_input("w");
  } else {
    auto* k = n->add_attribute();
    k->set_name("kernel_shape"), k->set_type(onnx::AttributeProto::INTS), k->add_ints(2), k->add_ints(2);
  }
  auto* a = n->add_attribute();
  a->set_name(attr);
  if (attr == "group") {
    a->set_type(onnx::AttributeProto::INT), a->set_i(values[0]);
  } else {
    a->set_type(onnx::AttributeProto::INTS);
    for (int64_t v : values) a->add_ints(v);
  }
  return m;
}

TEST(ImportTest, WindowAttributesAreCheckedBeforeShapeInference) {
  // ONNX's own shape inference divides by the stride: without the check a zero stride ends import by SIGFPE.
  EXPECT_EQ(importError(windowModel("Conv", "strides", {0, 1})),
            "m.onnx:the_node: error: attribute 'strides' of Conv: expected positive integers, found 0");
  EXPECT_EQ(importError(windowModel("Conv", "dilations", {1, -2})),
            "m.onnx:the_node: error: attribute 'dilations' of Conv: expected positive integers, found -2");
  EXPECT_EQ(importError(windowModel("Conv", "pads", {0, -1, 0, 0})),
            "m.onnx:the_node: error: attribute 'pads' of Conv: expected integers >= 0, found -1");
  EXPECT_EQ(importError(windowModel("Conv", "group", {0})),
            "m.onnx:the_node: error: attribute 'group' of Conv: expected a positive integer, found 0");
  EXPECT_EQ(importError(windowModel("MaxPool", "strides", {2, 0})),
            "m.onnx:the_node: error: attribute 'strides' of MaxPool: expected positive integers, found 0");
  EXPECT_EQ(importError(windowModel("Conv", "strides", {2, 2})), "ok");
}

/// x float32[2,3] -> QuantizeLinear(x, scale, 0) -> DequantizeLinear -> y, the scale `scale`.
onnx::ModelProto qdqModel(float scale) {
  onnx::ModelProto m = model("QuantizeLinear");
  auto* g = m.mutable_graph();
  auto* q = g->mutable_node(0);
  q->set_name("q");
  q->set_output(0, "xq");
  q->add_input("s"), q->add_input("z");
  auto* s = g->add_initializer();
  s->set_name("s"), s->set_data_type(onnx::TensorProto::FLOAT), s->add_float_data(scale);
  auto* z = g->add_initializer();
  z->set_name("z"), z->set_data_type(onnx::TensorProto::INT8), z->add_int32_data(0);
  auto* d = g->add_node();
  d->set_op_type("DequantizeLinear"), d->set_name("dq");
  d->add_input("xq"), d->add_input("s"), d->add_input("z"), d->add_output("y");
  return m;
}

TEST(ImportTest, QuantizationScalesMustBeFiniteAndPositive) {
  EXPECT_EQ(importError(qdqModel(0.5f)), "ok");
  EXPECT_EQ(importError(qdqModel(0.0f)),
            "m.onnx:q: error: scale 's' of QuantizeLinear: expected finite scales > 0, found 0");
  EXPECT_EQ(importError(qdqModel(-2.0f)),
            "m.onnx:q: error: scale 's' of QuantizeLinear: expected finite scales > 0, found -2");
  EXPECT_EQ(importError(qdqModel(std::numeric_limits<float>::quiet_NaN())),
            "m.onnx:q: error: scale 's' of QuantizeLinear: expected finite scales > 0, found nan");
  EXPECT_EQ(importError(qdqModel(std::numeric_limits<float>::infinity())),
            "m.onnx:q: error: scale 's' of QuantizeLinear: expected finite scales > 0, found inf");
}

/// A model whose node OP reads x and then the constant `name` (or only the constant, with `alone`).
onnx::ModelProto withConstant(const std::string& op, const std::string& name, int elemType,
                              const std::vector<int64_t>& values, bool alone = false) {
  onnx::ModelProto m = model(op);
  auto* g = m.mutable_graph();
  auto* c = g->add_initializer();
  c->set_name(name), c->set_data_type(elemType), c->add_dims(static_cast<int64_t>(values.size()));
  for (int64_t v : values)
    elemType == onnx::TensorProto::INT64 ? c->add_int64_data(v) : c->add_float_data(static_cast<float>(v));
  if (alone)
    g->mutable_node(0)->set_input(0, name);
  else
    g->mutable_node(0)->add_input(name);
  return m;
}

TEST(ImportTest, ShapeOperandsAreInt64AndNotNegative) {
  EXPECT_EQ(importError(withConstant("Reshape", "shape", onnx::TensorProto::INT64, {3, 2})), "ok");
  EXPECT_EQ(importError(withConstant("Reshape", "shape", onnx::TensorProto::FLOAT, {3, 2})),
            "m.onnx:the_node: error: input 'shape' of Reshape: expected an int64 shape, found float32");
  EXPECT_EQ(importError(model("ConstantOfShape")),
            "m.onnx:the_node: error: input 'x' of ConstantOfShape: expected an int64 shape, found float32");
  EXPECT_EQ(importError(withConstant("ConstantOfShape", "dims", onnx::TensorProto::INT64, {-1, 2}, true)),
            "m.onnx:the_node: error: input 'dims' of ConstantOfShape: expected dimensions >= 0, found -1");
}

/// Sizes from the model are checked against the memory budget before
/// anything that large is allocated: an initializer's declared shape, a
/// folded ConstantOfShape, and a convolution whose pads make its output huge.
TEST(ImportTest, SizesPastTheMemoryBudgetAreLocatedErrors) {
  support::setMemoryBudget(uint64_t{1} << 30);
  onnx::ModelProto big = withConstant("Add", "big", onnx::TensorProto::FLOAT, {1});
  big.mutable_graph()->mutable_initializer(0)->set_dims(0, 100000);
  big.mutable_graph()->mutable_initializer(0)->add_dims(100000);
  EXPECT_EQ(importError(big), "m.onnx:big: error: tensor 'big' (float32 100000x100000) needs 40000000000 bytes, more "
                              "than the memory budget of 1073741824 bytes (--max-memory)");
  auto fill = importOnnxBytes(
      withConstant("ConstantOfShape", "dims", onnx::TensorProto::INT64, {1000000, 1000000}, true).SerializeAsString(),
      "m.onnx");
  ASSERT_TRUE(fill.isOk()) << fill.diag().str();
  auto filled = runReference(*fill, {runtime::Tensor(support::DType::kFloat32, {2, 3})});
  ASSERT_FALSE(filled.isOk());
  EXPECT_EQ(filled.diag().str(), "m.onnx:the_node: error: a result (float32 1000000x1000000) needs 4000000000000 bytes, "
                                 "more than the memory budget of 1073741824 bytes (--max-memory)");
  auto padded = importOnnxBytes(windowModel("Conv", "pads", {100000, 100000, 100000, 100000}).SerializeAsString(), "m.onnx");
  ASSERT_TRUE(padded.isOk()) << padded.diag().str();
  auto ran = runReference(*padded, {runtime::Tensor(support::DType::kFloat32, {1, 1, 4, 4})});
  ASSERT_FALSE(ran.isOk());
  EXPECT_EQ(ran.diag().str(), "m.onnx:the_node: error: a result (float32 1x1x200002x200002) needs 160003200016 bytes, "
                              "more than the memory budget of 1073741824 bytes (--max-memory)");
  support::setMemoryBudget(0);
}

// Found by fuzzing: ONNX's own inference (Debian's libonnx) crashed with
// SIGSEGV on a Conv weight of another rank than its input.
TEST(ImportTest, ConvWeightRanksAreCheckedBeforeShapeInference) {
  onnx::ModelProto deep = windowModel("Conv", "strides", {1, 1});
  deep.mutable_graph()->mutable_initializer(0)->add_dims(1);
  EXPECT_EQ(importError(deep), "m.onnx:the_node: error: input 'x' of rank 4 and weight 'w' of rank 5 must have one rank");
  onnx::ModelProto flat = windowModel("Conv", "strides", {1, 1});
  flat.mutable_graph()->mutable_initializer(0)->clear_dims();
  for (int64_t d : {1, 9}) flat.mutable_graph()->mutable_initializer(0)->add_dims(d);
  EXPECT_EQ(importError(flat), "m.onnx:the_node: error: weight 'w' of Conv has rank 2; expected 3 to 5 (a 1-D to 3-D "
                               "convolution)");
  EXPECT_EQ(importError(windowModel("Conv", "strides", {1, 1, 1})),
            "m.onnx:the_node: error: attribute 'strides' of Conv has 3 values; the weight's rank 4 needs 2");
  onnx::ModelProto input = model("ConvTranspose");  // a weight that is a graph input of rank 0
  auto* w = input.mutable_graph()->add_input();
  w->set_name("w");
  w->mutable_type()->mutable_tensor_type()->set_elem_type(onnx::TensorProto::FLOAT);
  w->mutable_type()->mutable_tensor_type()->mutable_shape();
  input.mutable_graph()->mutable_node(0)->add_input("w");
  EXPECT_EQ(importError(input), "m.onnx:the_node: error: weight 'w' of ConvTranspose has rank 0; expected 3 to 5 (a "
                                "1-D to 3-D convolution)");
}

/// The shape rules the kernels rely on are import errors, not run errors.
TEST(ImportTest, ShapeRulesAreCheckedAtImport) {
  EXPECT_EQ(importError(windowModel("Conv", "group", {2})),
            "m.onnx:the_node: error: Conv: group 2 does not divide the 1 input channels");
  onnx::ModelProto wide = windowModel("Conv", "strides", {1, 1});
  wide.mutable_graph()->mutable_initializer(0)->set_dims(1, 2);
  for (int i = 0; i < 9; ++i) wide.mutable_graph()->mutable_initializer(0)->add_float_data(1.0f);
  EXPECT_EQ(importError(wide),
            "m.onnx:the_node: error: Conv: weight shape 1x2x3x3 does not match 1 input channels in 1 group(s)");
  EXPECT_EQ(importError(windowModel("Conv", "dilations", {2, 2})),
            "m.onnx:the_node: error: Conv: the window 3x3 (dilations included) does not fit the padded input 1x1x4x4");
  EXPECT_EQ(importError(windowModel("MaxPool", "dilations", {4, 4})),
            "m.onnx:the_node: error: MaxPool: the window 2x2 (dilations included) does not fit the padded input "
            "1x1x4x4");
  EXPECT_EQ(importError(windowModel("MaxPool", "dilations", {3, 3})), "ok");
  EXPECT_EQ(importError(withConstant("Reshape", "shape", onnx::TensorProto::INT64, {4, 2})),
            "m.onnx:the_node: error: Reshape: cannot reshape 2x3 to 4x2");
  EXPECT_EQ(importError(withConstant("Reshape", "shape", onnx::TensorProto::INT64, {-1, 4})),
            "m.onnx:the_node: error: Reshape: cannot reshape 2x3 to -1x4");
  EXPECT_EQ(importError(withConstant("Gather", "idx", onnx::TensorProto::INT64, {1, -2})), "ok");
  EXPECT_EQ(importError(withConstant("Gather", "idx", onnx::TensorProto::INT64, {5})),
            "m.onnx:the_node: error: Gather: index 5 is out of range for axis 0 of size 2");
}

// Found by fuzzing: a zero point with fewer values than its scale was read
// past its end.
TEST(ImportTest, AZeroPointHasAsManyValuesAsItsScale) {
  onnx::ModelProto m = qdqModel(0.5f);
  auto* z = m.mutable_graph()->mutable_initializer(1);
  z->add_dims(0), z->clear_int32_data();
  EXPECT_EQ(importError(m), "m.onnx:q: error: zero point 'z' of QuantizeLinear has 0 values; its scale 's' has 1");
}

// Found by fuzzing: an empty initializer was copied from a null pointer
// (undefined behaviour; the sanitized suite runs this test).
TEST(ImportTest, AnEmptyInitializerImports) {
  onnx::ModelProto m = model("Relu");
  auto* e = m.mutable_graph()->add_initializer();
  e->set_name("empty"), e->set_data_type(onnx::TensorProto::FLOAT), e->add_dims(0);
  EXPECT_EQ(importError(m), "ok");
}

TEST(ImportTest, AGraphWithoutOutputsIsRefused) {
  onnx::ModelProto m = model("Relu");
  m.mutable_graph()->clear_output();
  EXPECT_EQ(importError(m), "m.onnx: error: the graph has no outputs: there is nothing to compute");
}

TEST(ImportTest, DigitsModelsImportWithStaticShapes) {
  auto g = importOnnx(testing::sourceDir() + "/models/digits/digits_fp32.onnx");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  EXPECT_EQ(g->nodes.size(), 7u);
  for (const Value& v : g->values) EXPECT_FALSE(v.shape.empty() && !v.constant) << v.name;
  EXPECT_EQ(g->values[g->outputs[0]].shape, (Shape{1, 10}));
}

TEST(ImportTest, TruncatedOrCorruptFile) {
  std::string bytes = model("Relu").SerializeAsString();
  EXPECT_EQ(importOnnxBytes(bytes.substr(0, bytes.size() / 2), "cut.onnx").diag().str(),
            "cut.onnx: error: not a valid ONNX model: the file does not parse as a ModelProto (truncated or corrupt)");
  EXPECT_EQ(importOnnx(testing::sourceDir() + "/README.md").diag().str().substr(0, 7 + testing::sourceDir().size()),
            testing::sourceDir() + "/README");
}

TEST(ImportTest, UnknownOpNamesTheNode) {
  EXPECT_EQ(importError(model("Frobnicate")),
            "m.onnx:the_node: error: unsupported op 'Frobnicate' (`accelc import --list-ops` lists the supported ones)");
}

TEST(ImportTest, UnsupportedDtype) {
  EXPECT_EQ(importError(model("Relu", onnx::TensorProto::BFLOAT16)), "m.onnx:x: error: unsupported dtype BFLOAT16 of input 'x'");
  EXPECT_EQ(importError(model("Relu", onnx::TensorProto::UINT32)), "m.onnx:x: error: unsupported dtype UINT32 of input 'x'");
  EXPECT_EQ(importError(model("Relu", onnx::TensorProto::STRING)), "m.onnx:x: error: unsupported dtype STRING of input 'x'");
}

TEST(ImportTest, MissingInitializer) {
  onnx::ModelProto m = model("Add");
  m.mutable_graph()->mutable_node(0)->add_input("bias");
  EXPECT_EQ(importError(m),
            "m.onnx:the_node: error: input 'bias' is neither a graph input, an initializer nor the output of an earlier node");
}

TEST(ImportTest, AnUndefinedInputIsFoundBeforeShapeInference) {
  onnx::ModelProto m = model("EyeLike");  // ONNX's EyeLike inference dereferenced the missing type
  m.mutable_opset_import(0)->set_version(9);
  m.mutable_graph()->mutable_node(0)->set_input(0, "nowhere");
  EXPECT_EQ(importError(m), "m.onnx:the_node: error: input 'nowhere' is neither a graph input, an initializer nor the "
                            "output of an earlier node");
}

TEST(ImportTest, ALayerNormalizationOfRankZeroIsFoundBeforeShapeInference) {
  onnx::ModelProto m = model("LayerNormalization");
  m.mutable_opset_import(0)->set_version(17);
  m.mutable_graph()->mutable_input(0)->mutable_type()->mutable_tensor_type()->mutable_shape()->clear_dim();
  EXPECT_EQ(importError(m), "m.onnx:the_node: error: LayerNormalization of 'x' of rank 0 along axis -1: expected a "
                            "rank of at least 1 and an axis within it");
}

TEST(ImportTest, NamesDeclaredTwiceAreFoundBeforeShapeInference) {
  onnx::ModelProto m = model("Relu");
  *m.mutable_graph()->add_input() = m.graph().input(0);
  EXPECT_EQ(importError(m), "m.onnx:x: error: graph input 'x' is declared twice");
  m = model("Relu");
  *m.mutable_graph()->add_node() = m.graph().node(0);
  EXPECT_EQ(importError(m), "m.onnx:the_node: error: output 'y' is defined twice");
}

TEST(ImportTest, DynamicShapeNeedsABinding) {
  EXPECT_EQ(importError(model("Relu", onnx::TensorProto::FLOAT, true)),
            "m.onnx:x: error: input 'x' has a dynamic dimension 'N' (axis 1); bind it with --shape x=DIMS, e.g. --shape "
            "x=1x3x224x224");
  ImportOptions o;
  o.shapes["x"] = {2, 5};
  auto g = importOnnxBytes(model("Relu", onnx::TensorProto::FLOAT, true).SerializeAsString(), "m.onnx", o);
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  EXPECT_EQ(g->values[g->outputs[0]].shape, (Shape{2, 5}));
  o.shapes["x"] = {3, 5};
  EXPECT_EQ(importError(model("Relu", onnx::TensorProto::FLOAT, true), o),
            "m.onnx:x: error: --shape gives 3 for axis 0 of 'x', which the model fixes at 2");
}

TEST(ImportTest, WrongInputAtRunTime) {
  auto g = importOnnx(testing::sourceDir() + "/models/digits/digits_fp32.onnx");
  ASSERT_TRUE(g.isOk());
  auto r = runReferenceBatched(*g, {Tensor(support::DType::kFloat32, {1, 1, 8, 9})});
  EXPECT_EQ(r.diag().str(), testing::sourceDir() + "/models/digits/digits_fp32.onnx:input: error: input expects "
                                                   "float32 1x1x8x8, found float32 1x1x8x9");
  r = runReferenceBatched(*g, {Tensor(support::DType::kInt32, {1, 1, 8, 8})});
  EXPECT_NE(r.diag().str().find("input expects float32 1x1x8x8, found int32 1x1x8x8"), std::string::npos);
  r = runReferenceBatched(*g, {Tensor(support::DType::kFloat32, {3, 1, 8, 8})});
  ASSERT_TRUE(r.isOk()) << r.diag().str();
  EXPECT_EQ((*r)[0].shape(), (Shape{3, 10}));
}

TEST(ImportTest, UnsupportedOpsetAndAttribute) {
  onnx::ModelProto m = model("Relu");
  m.mutable_opset_import(0)->set_version(18);
  EXPECT_EQ(importError(m), "m.onnx: error: opset 18 is not supported; accelc reads opsets 1 to 17");
  m = model("Relu");
  auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
  a->set_name("gamma");
  a->set_type(onnx::AttributeProto::FLOAT);
  a->set_f(1);
  EXPECT_EQ(importError(m), "m.onnx:the_node: error: attribute 'gamma' of Relu is not supported");
}


TEST(ImportTest, StringAttributesAreClosedSets) {
  onnx::ModelProto m = model("Pad");
  auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
  a->set_name("mode");
  a->set_type(onnx::AttributeProto::STRING);
  a->set_s("wrap");
  EXPECT_EQ(importError(m),
            "m.onnx:the_node: error: attribute 'mode' of Pad must be one of constant, reflect or edge, found 'wrap'");
  a->set_type(onnx::AttributeProto::INT);
  EXPECT_EQ(importError(m), "m.onnx:the_node: error: attribute 'mode' of Pad must be one of constant, reflect or edge");
}

TEST(ImportTest, OpDefaultsDifferPerOp) {
  auto g = importOnnxBytes(model("LeakyRelu").SerializeAsString(), "m.onnx");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  EXPECT_FLOAT_EQ(std::get<runtime::AlphaAttrs>(g->nodes[0].attrs).alpha, 0.01f);
  g = importOnnxBytes(model("Elu").SerializeAsString(), "m.onnx");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  EXPECT_FLOAT_EQ(std::get<runtime::AlphaAttrs>(g->nodes[0].attrs).alpha, 1.0f);
  onnx::ModelProto m = model("EyeLike", onnx::TensorProto::INT32);  // no dtype: the input's
  g = importOnnxBytes(m.SerializeAsString(), "m.onnx");
  ASSERT_TRUE(g.isOk()) << g.diag().str();
  EXPECT_EQ(std::get<runtime::EyeLikeAttrs>(g->nodes[0].attrs).dtype, support::DType::kInt32);
  EXPECT_EQ(g->values[g->outputs[0]].dtype, support::DType::kInt32);
}

TEST(ImportTest, ClipBeforeOpset11TakesItsBoundsFromAttributes) {
  // ReLU6 as opset 6 writes it; then only a max; then none (no clamp).
  for (const auto& [bounds, want] : std::vector<std::pair<std::vector<std::string>, std::vector<float>>>{
           {{"min", "max"}, {0, 2, 6, 0, 6, 5.5f}}, {{"max"}, {-3, 2, 6, -1, 6, 5.5f}}, {{}, {-3, 2, 7, -1, 9, 5.5f}}}) {
    onnx::ModelProto m = model("Clip");
    m.mutable_opset_import(0)->set_version(6);
    for (const std::string& b : bounds) {
      auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
      a->set_name(b), a->set_type(onnx::AttributeProto::FLOAT), a->set_f(b == "min" ? 0.0f : 6.0f);
    }
    auto g = importOnnxBytes(m.SerializeAsString(), "m.onnx");
    ASSERT_TRUE(g.isOk()) << g.diag().str();
    EXPECT_EQ(g->nodes[0].inputs.size(), bounds.empty() ? 1u : 3u - (bounds.size() == 1 && bounds[0] == "min"));
    auto y = runReference(*g, {Tensor::of<float>({2, 3}, {-3, 2, 7, -1, 9, 5.5f})});
    ASSERT_TRUE(y.isOk()) << y.diag().str();
    for (int i = 0; i < 6; ++i) EXPECT_FLOAT_EQ((*y)[0].at(i), want[i]) << bounds.size() << " bounds, element " << i;
  }
}

TEST(ImportTest, RecurrentLayersRefuseOtherActivations) {
  onnx::ModelProto m = model("RNN");
  auto* a = m.mutable_graph()->mutable_node(0)->add_attribute();
  a->set_name("activations");
  a->set_type(onnx::AttributeProto::STRINGS);
  a->add_strings("Relu");
  EXPECT_EQ(importError(m), "m.onnx:the_node: error: attribute 'activations' of RNN is not supported");
}

TEST(ImportTest, EveryListedOpIsAnOnnxOpThatImports) {
  // Every ONNX op of the table is known to the importer, so no listed op hits
  // the "unsupported op" error; accelc's own ops are refused in a model.
  for (runtime::OpKind k : runtime::allOps()) {
    const std::string err = importError(model(runtime::opInfo(k).name));
    const bool unsupported = err.find("unsupported op") != std::string::npos;
    EXPECT_EQ(unsupported, !runtime::opInfo(k).onnx) << runtime::opInfo(k).name << ": " << err;
  }
}


TEST(ImportTest, Float64Float16And16BitIntegersImportAndRun) {
  for (int t : {onnx::TensorProto::DOUBLE, onnx::TensorProto::FLOAT16, onnx::TensorProto::INT16,
                onnx::TensorProto::UINT16}) {
    auto g = importOnnxBytes(model(t == onnx::TensorProto::UINT16 ? "Identity" : "Neg", t).SerializeAsString(), "m.onnx");
    ASSERT_TRUE(g.isOk()) << g.diag().str();
    const support::DType dt = g->values[g->inputs[0]].dtype;
    EXPECT_EQ(g->values[g->outputs[0]].dtype, dt);
    Tensor x(dt, {2, 3});
    auto out = runReference(*g, {x});
    ASSERT_TRUE(out.isOk()) << out.diag().str();
    EXPECT_EQ((*out)[0].dtype(), dt);
  }
}

}  // namespace
}  // namespace accelc::compiler
