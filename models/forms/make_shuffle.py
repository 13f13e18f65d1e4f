#!/usr/bin/python3
"""Writes shuffle.onnx and shuffle_calib.npy: ShuffleNet-v2 style channel shuffles.

Usage:  /usr/bin/python3 models/forms/make_shuffle.py OUT_DIR

On a [1, 3, 12, 12] input (seeded random weights): a 3x3 convolution of 32
channels with ReLU; a ShuffleNet-v2 unit of stride 2 (two branches of the
input: a depthwise 3x3 and a 1x1; a 1x1, a depthwise 3x3 and a 1x1; joined
and shuffled in 2 groups) whose shuffle the next unit splits; a unit of
stride 1 (the channels split in halves, one half through the 1x1, depthwise
and 1x1 branch, the halves joined and shuffled in 4 groups), whose shuffle
only a strided 3x3 convolution reads (it folds into that convolution's
weights); then a 1x1 convolution of 24 channels, a shuffle of 3 groups that
a residual add reads, global average pooling and a classifier.
shuffle_calib.npy holds two seeded inputs.
"""
import os
import sys

import numpy as np
import torch
from torch import nn


def shuffle(x, groups):
    n, c, h, w = x.shape
    return x.view(n, groups, c // groups, h, w).transpose(1, 2).reshape(n, c, h, w)


def branch(c, stride=1):
    return nn.Sequential(nn.Conv2d(c, c, 1), nn.ReLU(), nn.Conv2d(c, c, 3, stride, padding=1, groups=c),
                         nn.Conv2d(c, c, 1), nn.ReLU())


class Shuffles(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 32, 3, padding=1), nn.ReLU())
        self.left = nn.Sequential(nn.Conv2d(32, 32, 3, 2, padding=1, groups=32), nn.Conv2d(32, 32, 1), nn.ReLU())
        self.right = branch(32, 2)
        self.unit = branch(32)
        self.down = nn.Sequential(nn.Conv2d(64, 40, 3, stride=2, padding=1), nn.ReLU())
        self.mix = nn.Sequential(nn.Conv2d(40, 24, 1), nn.ReLU())
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(24, 10)

    def forward(self, x):
        x = self.stem(x)
        x = shuffle(torch.cat([self.left(x), self.right(x)], 1), 2)
        a, b = x.chunk(2, dim=1)
        x = shuffle(torch.cat([a, self.unit(b)], 1), 4)
        y = self.mix(self.down(x))
        y = torch.relu(shuffle(y, 3) + y)
        return self.fc(torch.flatten(self.pool(y), 1))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    m = Shuffles().eval()
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((1, 3, 12, 12)).astype(np.float32))
    torch.onnx.export(m, x, os.path.join(out, "shuffle.onnx"), opset_version=13, input_names=["input"],
                      output_names=["logits"], do_constant_folding=True)
    calib = np.random.default_rng(1).standard_normal((2, 3, 12, 12)).astype(np.float32)
    np.save(os.path.join(out, "shuffle_calib.npy"), calib)


if __name__ == "__main__":
    main()
