#!/usr/bin/env python3
"""Writes small ONNX models, one per operator form the importer checks, as
seeds of the onnx fuzz target: convolutions and pools with their window
attributes, Reshape, Gather, ConstantOfShape, Q/DQ, Gemm and MatMul.
Run with Debian's /usr/bin/python3 (python3-onnx, python3-numpy)."""
import sys

import numpy as np
import onnx
from onnx import TensorProto, helper, numpy_helper

OUT = sys.argv[1] if len(sys.argv) > 1 else "corpus/onnx"


def save(name, nodes, inputs, outputs, inits=()):
    g = helper.make_graph(nodes, name, inputs, outputs, list(inits))
    m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 13)])
    m.ir_version = 8
    onnx.save(m, f"{OUT}/{name}.onnx")


def vi(name, shape, t=TensorProto.FLOAT):
    return helper.make_tensor_value_info(name, t, shape)


def init(name, arr):
    return numpy_helper.from_array(np.asarray(arr), name)


x = vi("x", [1, 4, 8, 8])
w = init("w", np.ones((8, 2, 3, 3), np.float32))
save("conv_grouped", [helper.make_node("Conv", ["x", "w"], ["y"], group=2, pads=[1, 1, 1, 1], strides=[2, 2],
                                       dilations=[1, 1], kernel_shape=[3, 3])], [x], [vi("y", None)], [w])
save("maxpool", [helper.make_node("MaxPool", ["x"], ["y"], kernel_shape=[3, 3], pads=[1, 1, 1, 1], strides=[2, 2])],
     [x], [vi("y", None)])
save("avgpool", [helper.make_node("AveragePool", ["x"], ["y"], kernel_shape=[2, 2], strides=[2, 2])], [x], [vi("y", None)])
save("reshape", [helper.make_node("Reshape", ["x", "s"], ["y"])], [x], [vi("y", None)], [init("s", np.array([1, -1], np.int64))])
save("gather", [helper.make_node("Gather", ["x", "i"], ["y"], axis=1)], [x], [vi("y", None)],
     [init("i", np.array([0, 3], np.int64))])
save("constant_of_shape", [helper.make_node("ConstantOfShape", ["s"], ["c"], value=init("v", np.array([2.0], np.float32))),
                           helper.make_node("Add", ["x", "c"], ["y"])], [x], [vi("y", None)],
     [init("s", np.array([1, 4, 8, 8], np.int64))])
save("qdq", [helper.make_node("QuantizeLinear", ["x", "sc", "zp"], ["q"]),
             helper.make_node("DequantizeLinear", ["q", "sc", "zp"], ["y"])], [x], [vi("y", None)],
     [init("sc", np.array(0.05, np.float32)), init("zp", np.array(0, np.int8))])
a = vi("a", [2, 16])
save("gemm", [helper.make_node("Gemm", ["a", "b", "c"], ["y"], transB=1)], [a], [vi("y", None)],
     [init("b", np.ones((4, 16), np.float32)), init("c", np.zeros(4, np.float32))])
save("matmul_relu", [helper.make_node("MatMul", ["a", "b"], ["m"]), helper.make_node("Relu", ["m"], ["y"])], [a],
     [vi("y", None)], [init("b", np.ones((16, 3), np.float32))])
save("global_pool_flatten", [helper.make_node("GlobalAveragePool", ["x"], ["g"]),
                             helper.make_node("Flatten", ["g"], ["y"])], [x], [vi("y", None)])
