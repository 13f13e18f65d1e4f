#!/usr/bin/python3
"""Writes slices.onnx and slices_calib.npy: channel Split and Slice between convolutions.

Usage:  /usr/bin/python3 models/forms/make_slices.py OUT_DIR

On a [1, 3, 12, 12] input (seeded random weights): a 3x3 convolution of 40
channels with ReLU; a Split of them into 16 and 24 channels (the last part
ends mid-block); a Slice of channels 32 to 40 (the last, partial block); a
3x3 convolution of each part, the first and the slice added, the second
joined in by a 1x1 convolution; global average pooling and a classifier.
slices_calib.npy holds two seeded inputs.
"""
import os
import sys

import numpy as np
import torch
from torch import nn


class Slices(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 40, 3, padding=1), nn.ReLU())
        self.a = nn.Conv2d(16, 16, 3, padding=1)
        self.b = nn.Sequential(nn.Conv2d(24, 16, 3, padding=1), nn.ReLU())
        self.c = nn.Conv2d(8, 16, 3, padding=1)
        self.mix = nn.Conv2d(16, 16, 1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(16, 10)

    def forward(self, x):
        x = self.stem(x)
        a, b = torch.split(x, [16, 24], dim=1)
        y = torch.relu(self.a(a) + self.c(x[:, 32:40])) + self.mix(self.b(b))
        return self.fc(torch.flatten(self.pool(y), 1))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    m = Slices().eval()
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((1, 3, 12, 12)).astype(np.float32))
    torch.onnx.export(m, x, os.path.join(out, "slices.onnx"), opset_version=13, input_names=["input"],
                      output_names=["logits"], do_constant_folding=True)
    calib = np.random.default_rng(1).standard_normal((2, 3, 12, 12)).astype(np.float32)
    np.save(os.path.join(out, "slices_calib.npy"), calib)


if __name__ == "__main__":
    main()
