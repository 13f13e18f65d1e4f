#!/usr/bin/python3
"""Writes attention.onnx and attention_calib.npy: one self-attention block in float.

Usage:  /usr/bin/python3 models/forms/make_attention.py OUT_DIR

On a [1, 20, 40] input (a sequence of 20, d_model 40: neither a whole number of
16-channel blocks), seeded random weights: query, key and value projections,
2 heads of 20 channels, the scores Q·Kᵀ scaled by 1/sqrt(20), a softmax, the
product of the attention with V, the heads joined, an output projection, and
the residual add of the input. Q·Kᵀ and attention·V are matrix products of two
activations. attention_calib.npy holds two seeded inputs.

attention_heads.onnx and attention_heads_calib.npy: the same block at d_model 64
and a sequence of 32, 2 heads of 32 channels, whole blocks of 4, 16 and 32, so
that the heads' split and join are views of the projections' rows, and Kᵀ's
weight blocks are K's rows.
"""
import math
import os
import sys

import numpy as np
import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, d=40, heads=2):
        super().__init__()
        self.heads = heads
        self.q, self.k, self.v, self.o = (nn.Linear(d, d) for _ in range(4))

    def forward(self, x):
        _, s, d = x.shape
        h, dh = self.heads, d // self.heads

        def split(t):  # [1, S, D] -> [H, S, Dh]
            return t.reshape(s, h, dh).transpose(0, 1)

        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        a = torch.softmax(q @ k.transpose(1, 2) / math.sqrt(dh), dim=-1)
        o = (a @ v).transpose(0, 1).reshape(1, s, d)
        return x + self.o(o)


def write(out, name, d, seq):
    torch.manual_seed(0)
    m = Attention(d).eval()
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((1, seq, d)).astype(np.float32))
    torch.onnx.export(m, x, os.path.join(out, name + ".onnx"), opset_version=13, input_names=["input"],
                      output_names=["output"], do_constant_folding=True)
    calib = np.random.default_rng(1).standard_normal((2, seq, d)).astype(np.float32)
    np.save(os.path.join(out, name + "_calib.npy"), calib)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    write(out, "attention", 40, 20)
    write(out, "attention_heads", 64, 32)


if __name__ == "__main__":
    main()
