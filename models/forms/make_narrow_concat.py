#!/usr/bin/python3
"""Writes narrow_concat.onnx and narrow_concat_calib.npy: channel Concats of inputs that do not fill whole blocks.

Usage:  /usr/bin/python3 models/forms/make_narrow_concat.py OUT_DIR

On a [1, 3, 12, 12] input (seeded random weights): a 3x3 convolution of 32
channels with ReLU; a ShuffleNet-v2 unit of stride 2 whose two branches have
24 channels each (the x0.5 model's second stage), joined and shuffled in 2
groups, whose shuffle the next unit splits; a unit of stride 1 on halves of
24 channels, joined and shuffled again; three 1x1 convolutions of 6, 24 and
12 channels joined by a Concat that a padded 3x3 convolution reads; global
average pooling and a classifier. narrow_concat_calib.npy holds two seeded
inputs.
"""
import os
import sys

import numpy as np
import torch
from torch import nn


def shuffle(x, groups):
    n, c, h, w = x.shape
    return x.view(n, groups, c // groups, h, w).transpose(1, 2).reshape(n, c, h, w)


def branch(c_in, c, stride=1):
    return nn.Sequential(nn.Conv2d(c_in, c, 1), nn.ReLU(), nn.Conv2d(c, c, 3, stride, padding=1, groups=c),
                         nn.Conv2d(c, c, 1), nn.ReLU())


def pointwise(c_in, c):
    return nn.Sequential(nn.Conv2d(c_in, c, 1), nn.ReLU())


class NarrowConcats(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU())
        self.left = nn.Sequential(nn.Conv2d(32, 32, 3, 2, padding=1, groups=32), nn.Conv2d(32, 24, 1), nn.ReLU())
        self.right = branch(32, 24, 2)
        self.unit = branch(24, 24)
        self.a, self.b, self.c = pointwise(48, 6), pointwise(48, 24), pointwise(48, 12)
        self.mix = nn.Sequential(nn.Conv2d(42, 32, 3, padding=1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(32, 10)

    def forward(self, x):
        x = self.stem(x)
        x = shuffle(torch.cat([self.left(x), self.right(x)], 1), 2)
        a, b = x.chunk(2, dim=1)
        x = shuffle(torch.cat([a, self.unit(b)], 1), 2)
        y = self.mix(torch.cat([self.a(x), self.b(x), self.c(x)], 1))
        return self.fc(torch.flatten(self.pool(y), 1))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    m = NarrowConcats().eval()
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((1, 3, 12, 12)).astype(np.float32))
    torch.onnx.export(m, x, os.path.join(out, "narrow_concat.onnx"), opset_version=13, input_names=["input"],
                      output_names=["logits"], do_constant_folding=True)
    calib = np.random.default_rng(1).standard_normal((2, 3, 12, 12)).astype(np.float32)
    np.save(os.path.join(out, "narrow_concat_calib.npy"), calib)


if __name__ == "__main__":
    main()
