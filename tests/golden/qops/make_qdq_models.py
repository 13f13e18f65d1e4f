#!/usr/bin/python3
"""Writes one small QDQ model per accelc integer op into OUTDIR, with seeded inputs.

Each model: float input -> QuantizeLinear -> DequantizeLinear -> op(s) in float
-> QuantizeLinear -> DequantizeLinear -> output "y"; constants are
DequantizeLinear(int8 initializer). Inputs are named a (and b) and written as
OUTDIR/<case>.a.npy (.b.npy), uniform over the input's int8 range. Run by
tests/compiler/qops_peer_test.cc; the output is deterministic.
"""
import os
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OPSET = 14  # HardSwish


class Builder:
    def __init__(self, name):
        self.name, self.nodes, self.inits, self.inputs, self.feeds = name, [], [], [], {}
        self.rng = np.random.default_rng(sum(map(ord, name)))  # a seed per model

    def qparams(self, tag, scale, zero):
        self.inits.append(numpy_helper.from_array(np.array(scale, np.float32), tag + "_s"))
        self.inits.append(numpy_helper.from_array(np.array(zero, np.int8), tag + "_z"))
        return [tag + "_s", tag + "_z"]

    def qdq(self, x, tag, scale, zero):
        p = self.qparams(tag, scale, zero)
        self.nodes.append(helper.make_node("QuantizeLinear", [x] + p, [tag + "_q"], name=tag + "_quant"))
        self.nodes.append(helper.make_node("DequantizeLinear", [tag + "_q"] + p, [tag + "_dq"], name=tag + "_dequant"))
        return tag + "_dq"

    def input(self, name, shape, scale, zero):
        self.inputs.append(helper.make_tensor_value_info(name, TensorProto.FLOAT, shape))
        lo, hi = scale * (-128 - zero), scale * (127 - zero)
        self.feeds[name] = self.rng.uniform(lo, hi, size=shape).astype(np.float32)
        return self.qdq(name, name + "_in", scale, zero)

    def const(self, name, values, scale):
        self.inits.append(numpy_helper.from_array(values.astype(np.int8), name + "_int8"))
        p = self.qparams(name, scale, 0)
        self.nodes.append(helper.make_node("DequantizeLinear", [name + "_int8"] + p, [name], name=name + "_dequant"))
        return name

    def op(self, kind, inputs, out, **attrs):
        self.nodes.append(helper.make_node(kind, inputs, [out], name=out + "_node", **attrs))
        return out

    def save(self, outdir, y, scale, zero, shape):
        final = self.qdq(y, "y", scale, zero)
        self.nodes.append(helper.make_node("Identity", [final], ["y"], name="y_out"))
        out = helper.make_tensor_value_info("y", TensorProto.FLOAT, shape)
        graph = helper.make_graph(self.nodes, self.name, self.inputs, [out], self.inits)
        model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)], producer_name="make_qdq_models")
        model.ir_version = 8
        onnx.checker.check_model(model, full_check=True)
        onnx.save(model, os.path.join(outdir, self.name + ".onnx"))
        for k, v in self.feeds.items():
            np.save(os.path.join(outdir, self.name + "." + k + ".npy"), v)


def clip(d):
    b = Builder("clip")
    x = b.input("a", [1, 4, 8, 8], 0.05, 10)
    b.inits.append(numpy_helper.from_array(np.array(0.0, np.float32), "lo"))
    b.inits.append(numpy_helper.from_array(np.array(6.0, np.float32), "hi"))
    b.save(d, b.op("Clip", [x, "lo", "hi"], "c"), 6.0 / 255, -128, [1, 4, 8, 8])


def relu(d):
    b = Builder("relu")
    x = b.input("a", [1, 4, 8, 8], 0.04, -20)
    b.save(d, b.op("Relu", [x], "r"), 0.03, -128, [1, 4, 8, 8])


def hardsigmoid(d):
    b = Builder("hardsigmoid")
    x = b.input("a", [1, 4, 8, 8], 0.05, 3)
    b.save(d, b.op("HardSigmoid", [x], "h", alpha=0.2, beta=0.5), 1.0 / 255, -128, [1, 4, 8, 8])


def hardswish(d):
    b = Builder("hardswish")
    x = b.input("a", [1, 4, 8, 8], 0.06, 0)
    b.save(d, b.op("HardSwish", [x], "h"), (0.06 * 127 + 0.375) / 255, -122, [1, 4, 8, 8])


def x_hardsigmoid(d):
    b = Builder("x_hardsigmoid")
    x = b.input("a", [1, 4, 8, 8], 0.06, 0)
    g = b.qdq(b.op("HardSigmoid", [x], "g", alpha=1.0 / 6, beta=0.5), "g", 1.0 / 255, -128)
    b.save(d, b.op("Mul", [x, g], "m"), (0.06 * 127 + 0.375) / 255, -122, [1, 4, 8, 8])


def mul_const(d):
    b = Builder("mul_const")
    x = b.input("a", [1, 4, 8, 8], 0.05, 5)
    w = b.const("w", np.array([127, -64, 30, -128]).reshape(1, 4, 1, 1), 0.01)
    b.save(d, b.op("Mul", [x, w], "m"), 0.05 * 1.28 * 1.05 * 133 / 255, 0, [1, 4, 8, 8])


def mul_se(d):
    b = Builder("mul_se")
    x = b.input("a", [1, 4, 8, 8], 0.05, -7)
    s = b.input("b", [1, 4, 1, 1], 1.0 / 255, -128)
    b.save(d, b.op("Mul", [x, s], "m"), 0.05, -7, [1, 4, 8, 8])


def matmul(d):
    b = Builder("matmul")
    q = b.input("a", [1, 4, 8, 16], 0.02, 4)
    k = b.input("b", [1, 4, 16, 8], 0.03, -6)
    b.save(d, b.op("MatMul", [q, k], "p"), 0.02 * 0.03 * 400, 2, [1, 4, 8, 8])


def matmul_const(d):
    b = Builder("matmul_const")
    x = b.input("a", [1, 8, 16], 0.03, -3)
    w = b.const("w", b.rng.integers(-128, 128, size=(16, 12)), 0.004)
    b.save(d, b.op("MatMul", [x, w], "p"), 0.03 * 0.004 * 600, 0, [1, 8, 12])


def concat(d):
    b = Builder("concat")
    x = b.input("a", [1, 3, 4, 4], 0.05, 6)
    y = b.input("b", [1, 5, 4, 4], 0.02, -10)
    b.save(d, b.op("Concat", [x, y], "c", axis=1), 0.05 * 1.05, 0, [1, 8, 4, 4])


def main():
    outdir = sys.argv[1]
    os.makedirs(outdir, exist_ok=True)
    for make in (clip, relu, hardsigmoid, hardswish, x_hardsigmoid, mul_const, mul_se, matmul, matmul_const, concat):
        make(outdir)


if __name__ == "__main__":
    main()
