#!/usr/bin/python3
"""Writes the small ONNX models of the import golden tests (one per op family).

Usage:  /usr/bin/python3 tests/golden/import/make_models.py [OUTDIR]

Each model chains a family's ops with their attribute modes, negative axes and
broadcasting on tiny static shapes; tests/compiler/import_golden_test.cc
imports each, compares the graph text with NAME.txt beside it, parses the text
back and runs the graph on the reference engine. The files are committed; this
script regenerates them byte for byte.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto as T
from onnx import helper as h
from onnx import numpy_helper as nh


def tensor(name, elem, shape):
    return h.make_tensor_value_info(name, elem, shape)


def const(name, array):
    return nh.from_array(np.asarray(array), name)


def model(name, nodes, inputs, outputs, inits=(), opset=13):
    graph = h.make_graph(nodes, name, inputs, outputs, initializer=list(inits))
    m = h.make_model(graph, opset_imports=[h.make_opsetid("", opset)], producer_name="accelc-tests")
    m.ir_version = 8
    onnx.checker.check_model(m)
    onnx.shape_inference.infer_shapes(m, check_type=True, strict_mode=True)  # the declared outputs agree
    return m


def activations():
    x = "x"
    ops = [("LeakyRelu", {"alpha": 0.2}), ("HardSigmoid", {"alpha": 0.25, "beta": 0.4}), ("Selu", {}),
           ("Celu", {"alpha": 2.0}), ("ThresholdedRelu", {"alpha": 0.5}), ("Shrink", {"bias": 0.1, "lambd": 0.3}),
           ("HardSwish", {}), ("Softplus", {}), ("Elu", {})]
    nodes = []
    for i, (op, attrs) in enumerate(ops):
        nodes.append(h.make_node(op, [x], [f"a{i}"], name=op.lower(), **attrs))
        x = f"a{i}"
    nodes.append(h.make_node("IsInf", [x], ["inf"], name="isinf", detect_positive=0))
    return model("activations", nodes, [tensor("x", T.FLOAT, [2, 3])],
                 [tensor(x, T.FLOAT, [2, 3]), tensor("inf", T.BOOL, [2, 3])], opset=14)


def logic():
    nodes = [h.make_node("Less", ["x", "y"], ["lt"], name="less"),
             h.make_node("GreaterOrEqual", ["x", "y"], ["ge"], name="ge"),
             h.make_node("Xor", ["lt", "ge"], ["one"], name="xor"),
             h.make_node("Not", ["one"], ["none"], name="not"),
             h.make_node("Or", ["none", "lt"], ["c"], name="or"),
             h.make_node("Where", ["c", "x", "y"], ["w"], name="where"),
             h.make_node("Mod", ["w", "y"], ["m"], name="mod", fmod=1),
             h.make_node("Max", ["m", "x", "y"], ["mx"], name="max")]
    return model("logic", nodes, [tensor("x", T.FLOAT, [2, 3]), tensor("y", T.FLOAT, [3])],
                 [tensor("mx", T.FLOAT, [2, 3])])


def reductions():
    nodes = [h.make_node("ReduceSum", ["x", "axes"], ["s"], name="sum", keepdims=1),
             h.make_node("ReduceMax", ["x"], ["m"], name="max", axes=[0, -1], keepdims=0),
             h.make_node("ArgMax", ["x"], ["am"], name="argmax", axis=-2, select_last_index=1),
             h.make_node("TopK", ["x", "k"], ["tv", "ti"], name="topk", axis=1, largest=0),
             h.make_node("CumSum", ["x", "ax"], ["cs"], name="cumsum", reverse=1, exclusive=1),
             h.make_node("LogSoftmax", ["x"], ["ls"], name="logsoftmax", axis=-1),
             h.make_node("Hardmax", ["ls"], ["hm"], name="hardmax", axis=0)]
    inits = [const("axes", np.array([-1], np.int64)), const("k", np.array([2], np.int64)),
             const("ax", np.array(1, np.int64))]
    outs = [tensor("s", T.FLOAT, [2, 3, 1]), tensor("m", T.FLOAT, [3]), tensor("am", T.INT64, [2, 1, 4]),
            tensor("tv", T.FLOAT, [2, 2, 4]), tensor("ti", T.INT64, [2, 2, 4]), tensor("cs", T.FLOAT, [2, 3, 4]),
            tensor("hm", T.FLOAT, [2, 3, 4])]
    return model("reductions", nodes, [tensor("x", T.FLOAT, [2, 3, 4])], outs, inits)


def movement():
    nodes = [h.make_node("Pad", ["x", "pads"], ["p"], name="pad", mode="reflect"),
             h.make_node("Resize", ["p", "", "", "sizes"], ["r"], name="resize", mode="cubic",
                         coordinate_transformation_mode="align_corners", cubic_coeff_a=-0.5, exclude_outside=1),
             h.make_node("DepthToSpace", ["r"], ["d"], name="d2s", blocksize=2, mode="CRD"),
             h.make_node("SpaceToDepth", ["d"], ["sd"], name="s2d", blocksize=2),
             h.make_node("Trilu", ["sd"], ["t"], name="tril", upper=0),
             h.make_node("Expand", ["t", "shape"], ["e"], name="expand"),
             h.make_node("Tile", ["e", "reps"], ["tl"], name="tile"),
             h.make_node("GatherElements", ["tl", "gi"], ["ge"], name="gather-elements", axis=-1),
             h.make_node("ScatterND", ["ge", "si", "su"], ["sn"], name="scatternd", reduction="add"),
             h.make_node("OneHot", ["oi", "depth", "vals"], ["oh"], name="onehot", axis=0),
             h.make_node("EyeLike", ["oh"], ["eye"], name="eyelike", k=1)]
    inits = [const("pads", np.array([0, 0, 1, 1, 0, 0, 1, 1], np.int64)),
             const("sizes", np.array([1, 4, 6, 6], np.int64)),
             const("shape", np.array([2, 1, 1, 1], np.int64)),
             const("reps", np.array([1, 1, 1, 2], np.int64)),
             const("gi", np.zeros((2, 4, 3, 6), np.int64)),
             const("si", np.array([[0, 1], [1, 2]], np.int64)),
             const("su", np.ones((2, 3, 6), np.float32)),
             const("oi", np.array([0, 2, -1], np.int64)),
             const("depth", np.array(3, np.int64)),
             const("vals", np.array([0.0, 1.0], np.float32))]
    outs = [tensor("sn", T.FLOAT, [2, 4, 3, 6]), tensor("eye", T.FLOAT, [3, 3])]
    return model("movement", nodes, [tensor("x", T.FLOAT, [1, 4, 3, 3])], outs, inits, opset=16)


def spatial():
    rng = np.random.default_rng(0)
    nodes = [h.make_node("ConvTranspose", ["x", "w", "b"], ["ct"], name="convtranspose", strides=[2, 2],
                         output_padding=[1, 1], group=2, pads=[0, 1, 0, 1]),
             h.make_node("InstanceNormalization", ["ct", "scale", "bias"], ["in"], name="instancenorm",
                         epsilon=1e-3),
             h.make_node("LpNormalization", ["in"], ["lp"], name="lpnorm", axis=1, p=1),
             h.make_node("GlobalMaxPool", ["lp"], ["gm"], name="globalmaxpool")]
    inits = [const("w", rng.standard_normal((4, 1, 3, 3)).astype(np.float32)),
             const("b", np.zeros(2, np.float32)),
             const("scale", np.ones(2, np.float32)), const("bias", np.zeros(2, np.float32))]
    return model("spatial", nodes, [tensor("x", T.FLOAT, [1, 4, 3, 3])], [tensor("gm", T.FLOAT, [1, 2, 1, 1])],
                 inits)


def recurrent():
    rng = np.random.default_rng(1)
    hid, inp = 3, 2
    nodes = [h.make_node("LSTM", ["x", "lw", "lr", "lb", "lens"], ["ly", "lh", "lc"], name="lstm", hidden_size=hid,
                         direction="bidirectional"),
             h.make_node("GRU", ["x", "gw", "gr"], ["gy", "gh"], name="gru", hidden_size=hid, linear_before_reset=1),
             h.make_node("RNN", ["x", "rw", "rr"], ["", "rh"], name="rnn", hidden_size=hid, direction="reverse",
                         clip=2.0)]
    f = lambda *s: rng.standard_normal(s).astype(np.float32)  # noqa: E731
    inits = [const("lw", f(2, 4 * hid, inp)), const("lr", f(2, 4 * hid, hid)), const("lb", f(2, 8 * hid)),
             const("lens", np.array([4, 2], np.int32)),
             const("gw", f(1, 3 * hid, inp)), const("gr", f(1, 3 * hid, hid)),
             const("rw", f(1, hid, inp)), const("rr", f(1, hid, hid))]
    outs = [tensor("ly", T.FLOAT, [4, 2, 2, hid]), tensor("lh", T.FLOAT, [2, 2, hid]),
            tensor("lc", T.FLOAT, [2, 2, hid]), tensor("gy", T.FLOAT, [4, 1, 2, hid]),
            tensor("gh", T.FLOAT, [1, 2, hid]), tensor("rh", T.FLOAT, [1, 2, hid])]
    return model("recurrent", nodes, [tensor("x", T.FLOAT, [4, 2, inp])], outs, inits, opset=14)


def dtypes():
    nodes = [h.make_node("Add", ["h", "h"], ["h2"], name="add-f16"),
             h.make_node("Exp", ["d"], ["de"], name="exp-f64"),
             h.make_node("Neg", ["i"], ["in"], name="neg-i16"),
             h.make_node("CastLike", ["in", "d"], ["c"], name="castlike"),
             h.make_node("Cast", ["u"], ["uc"], name="cast-u16", to=T.FLOAT16)]
    ins = [tensor("h", T.FLOAT16, [2]), tensor("d", T.DOUBLE, [2]), tensor("i", T.INT16, [2]),
           tensor("u", T.UINT16, [2])]
    outs = [tensor("h2", T.FLOAT16, [2]), tensor("de", T.DOUBLE, [2]), tensor("c", T.DOUBLE, [2]),
            tensor("uc", T.FLOAT16, [2])]
    return model("dtypes", nodes, ins, outs, opset=15)


def losses():
    nodes = [h.make_node("SoftmaxCrossEntropyLoss", ["x", "t", "w"], ["loss", "logp"], name="sce",
                         reduction="sum", ignore_index=1),
             h.make_node("NegativeLogLikelihoodLoss", ["logp", "t"], ["nll"], name="nll", reduction="none")]
    inits = [const("t", np.array([0, 1, 2], np.int64)), const("w", np.array([1.0, 2.0, 0.5], np.float32))]
    outs = [tensor("loss", T.FLOAT, []), tensor("nll", T.FLOAT, [3])]
    return model("losses", nodes, [tensor("x", T.FLOAT, [3, 3])], outs, inits)


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    for make in (activations, logic, reductions, movement, spatial, recurrent, dtypes, losses):
        m = make()
        path = os.path.join(out, m.graph.name + ".onnx")
        with open(path, "wb") as f:
            f.write(m.SerializeToString())
        print(f"wrote {path}")


if __name__ == "__main__":
    main()
