#!/usr/bin/python3
"""Exports an untrained torchvision ResNet-18 to ONNX (opset 13).

Usage:  /usr/bin/python3 models/resnet18/export_resnet18.py OUT.onnx [INPUT.npy]

The weights are torchvision's random initialisation after torch.manual_seed(0)
(weights=None: nothing is downloaded), so the same file comes out on every run.
The graph has a fixed input "input" [1,3,224,224] float32 and output "logits" [1,1000];
batch norms are folded into the convolutions (eval mode, constant folding).
With INPUT.npy, also writes a seeded random float32 [1,3,224,224] input there.
"""
import os
import sys

import numpy as np
import torch
import torchvision


def main():
    if len(sys.argv) not in (2, 3):
        sys.exit(f"usage: {sys.argv[0]} OUT.onnx [INPUT.npy]")
    out_path = sys.argv[1]
    for path in sys.argv[1:]:
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)

    model = torchvision.models.resnet18(weights=None).eval()
    example = torch.randn(1, 3, 224, 224, generator=torch.Generator().manual_seed(1))
    with torch.no_grad():
        torch.onnx.export(model, example, out_path, opset_version=13, input_names=["input"],
                          output_names=["logits"], do_constant_folding=True)
    print(f"wrote {out_path}")

    if len(sys.argv) == 3:
        x = np.random.default_rng(0).standard_normal((1, 3, 224, 224)).astype(np.float32)
        np.save(sys.argv[2], x)
        print(f"wrote {sys.argv[2]} (float32 [1,3,224,224], seed 0)")


if __name__ == "__main__":
    main()
