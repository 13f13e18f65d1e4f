#!/usr/bin/python3
"""Writes gathers.onnx and gathers_input.npy: Gather at constant indices and Split, as a transformer head uses them.

Usage:  /usr/bin/python3 models/forms/make_gathers.py OUT_DIR

On a [1, 9, 16] token sequence (seeded random weights): a linear layer; the
first token (Gather of a scalar index, as a classifier head takes it); tokens
at 8, 6, 4, 2 and 1, 1 (Gather of indices in two runs, one falling, one
repeating); a Split of the features into 4 and 12; each part through its own
linear layer, all joined by a Concat.
"""
import os
import sys

import numpy as np
import torch
from torch import nn


class Gathers(nn.Module):
    def __init__(self):
        super().__init__()
        self.embed = nn.Linear(16, 16)
        self.a = nn.Linear(4, 8)
        self.b = nn.Linear(12, 8)
        self.register_buffer("picks", torch.tensor([8, 6, 4, 2, 1, 1]))

    def forward(self, x):
        x = torch.relu(self.embed(x))
        first = x[:, 0]
        picked = torch.index_select(x, 1, self.picks).mean(dim=1)
        a, b = torch.split(first + picked, [4, 12], dim=1)
        return torch.cat([self.a(a), self.b(b)], dim=1)


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    m = Gathers().eval()
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((1, 9, 16)).astype(np.float32))
    torch.onnx.export(m, x, os.path.join(out, "gathers.onnx"), opset_version=13, input_names=["input"],
                      output_names=["out"], do_constant_folding=True)
    np.save(os.path.join(out, "gathers_input.npy"), x.numpy())


if __name__ == "__main__":
    main()
