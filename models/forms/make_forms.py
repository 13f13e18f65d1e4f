#!/usr/bin/python3
"""Writes forms.onnx and calib.npy: a small float CNN made of the accelerator forms beyond ResNet.

Usage:  /usr/bin/python3 models/forms/make_forms.py OUT_DIR

The network (seeded random weights, batch norms folded by the export) has, on a
[1, 3, 20, 20] input: a stem convolution with ReLU6; a depthwise 3x3 convolution
of 24 channels (not a whole number of 16-channel blocks) with ReLU6, stride 1;
a pointwise convolution; two branches (a 1x1 and a 3x3 convolution) joined by a
channel Concat; a batch norm and ReLU after the Concat (DenseNet's order); a
convolution of 2 groups of whole blocks; a depthwise 5x5 of stride 2; a
hard-swish; a squeeze-and-excitation block (global average pool, two 1x1
convolutions, a hard-sigmoid gate multiplied into the features); a 3x3 max
pool of stride 2 padded by 1 on an unclamped input; global average pooling and
a classifier. calib.npy holds two seeded inputs.
"""
import os
import sys

import numpy as np
import torch
from torch import nn


class Forms(nn.Module):
    def __init__(self):
        super().__init__()
        self.stem = nn.Sequential(nn.Conv2d(3, 24, 3, padding=1), nn.BatchNorm2d(24), nn.ReLU6())
        self.dw = nn.Sequential(nn.Conv2d(24, 24, 3, padding=1, groups=24), nn.BatchNorm2d(24), nn.ReLU6())
        self.pw = nn.Sequential(nn.Conv2d(24, 32, 1), nn.ReLU())
        self.b1 = nn.Sequential(nn.Conv2d(32, 16, 1), nn.ReLU())
        self.b3 = nn.Sequential(nn.Conv2d(32, 32, 3, padding=1), nn.ReLU())
        self.post = nn.Sequential(nn.BatchNorm2d(48), nn.ReLU())
        self.grouped = nn.Sequential(nn.Conv2d(48, 32, 1), nn.ReLU())
        self.g2 = nn.Sequential(nn.Conv2d(32, 64, 3, padding=1, groups=2), nn.ReLU())
        self.dw5 = nn.Sequential(nn.Conv2d(64, 64, 5, stride=2, padding=2, groups=64), nn.ReLU6())
        self.act = nn.Sequential(nn.Conv2d(64, 48, 1), nn.Hardswish())
        self.se = nn.Sequential(nn.AdaptiveAvgPool2d(1), nn.Conv2d(48, 16, 1), nn.ReLU(), nn.Conv2d(16, 48, 1),
                                nn.Hardsigmoid())
        self.mix = nn.Conv2d(48, 64, 1)
        self.maxpool = nn.MaxPool2d(3, stride=2, padding=1)
        self.pool = nn.AdaptiveAvgPool2d(1)
        self.fc = nn.Linear(64, 10)

    def forward(self, x):
        x = self.pw(self.dw(self.stem(x)))
        x = self.post(torch.cat([self.b1(x), self.b3(x)], dim=1))
        x = self.act(self.dw5(self.g2(self.grouped(x))))
        x = self.maxpool(self.mix(x * self.se(x)))
        return self.fc(torch.flatten(self.pool(x), 1))


def main():
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    torch.manual_seed(0)
    m = Forms().eval()
    with torch.no_grad():  # batch-norm statistics that are not the identity
        for mod in m.modules():
            if isinstance(mod, nn.BatchNorm2d):
                mod.running_mean.uniform_(-0.5, 0.5)
                mod.running_var.uniform_(0.5, 2.0)
                mod.weight.uniform_(0.5, 1.5)
                mod.bias.uniform_(-0.2, 0.2)
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((1, 3, 20, 20)).astype(np.float32))
    torch.onnx.export(m, x, os.path.join(out, "forms.onnx"), opset_version=13, input_names=["input"],
                      output_names=["logits"], do_constant_folding=True)
    calib = np.random.default_rng(1).standard_normal((2, 3, 20, 20)).astype(np.float32)
    np.save(os.path.join(out, "calib.npy"), calib)


if __name__ == "__main__":
    main()
