#!/usr/bin/python3
"""Trains the small digits CNN and writes its fp32 and int8 ONNX files plus test data.

Usage:  /usr/bin/python3 models/digits/make_digits.py [--check-ort]

Deterministic: the same files come out on every run. Writes into this script's directory:
  digits_fp32.onnx  float model, opset 13, input "input" [1,1,8,8], output "logits" [1,10]
  digits_int8.onnx  post-training static quantization (qnnpack), exported as a QDQ graph
  input.npy         first test image, float32 [1,1,8,8]
  calib.npy         first 256 training images, float32 [256,1,8,8]
  test_x.npy        whole test split, float32 [N,1,8,8]
  test_y.npy        test labels, int64 [N]

--check-ort also runs both ONNX files with onnxruntime-node (tools/ort/run_ort.js), one
image at a time over the whole test split, and prints their accuracy and their agreement
with PyTorch.
"""
import copy
import os
import subprocess
import sys
import tempfile
import warnings

import numpy as np
import torch
from torch import nn
from sklearn.datasets import load_digits
from sklearn.model_selection import train_test_split

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
RUN_ORT = os.path.join(REPO, "tools", "ort", "run_ort.js")


class DigitsNet(nn.Module):
    """Conv 1->8, ReLU, Conv 8->16, ReLU, MaxPool 2, Flatten, Linear 256->10 on 1x8x8 images.

    QuantStub/DeQuantStub are identities in the float model; quantization turns them into
    the input quantize and output dequantize steps."""

    def __init__(self):
        super().__init__()
        self.quant = torch.ao.quantization.QuantStub()
        self.c1 = nn.Conv2d(1, 8, 3, padding=1)
        self.r1 = nn.ReLU()
        self.c2 = nn.Conv2d(8, 16, 3, padding=1)
        self.r2 = nn.ReLU()
        self.pool = nn.MaxPool2d(2)
        self.flat = nn.Flatten()
        self.fc = nn.Linear(256, 10)
        self.dequant = torch.ao.quantization.DeQuantStub()

    def forward(self, x):
        x = self.quant(x)
        x = self.r1(self.c1(x))
        x = self.r2(self.c2(x))
        x = self.fc(self.flat(self.pool(x)))
        return self.dequant(x)


def load_data():
    X, y = load_digits(return_X_y=True)
    X = (X / 16.0).astype(np.float32).reshape(-1, 1, 8, 8)
    y = y.astype(np.int64)
    return train_test_split(X, y, test_size=0.2, random_state=0, stratify=y)


def train(Xtr, ytr, epochs=30, batch=32, lr=3e-3):
    m = DigitsNet()
    opt = torch.optim.Adam(m.parameters(), lr=lr)
    loss_fn = nn.CrossEntropyLoss()
    m.train()
    for _ in range(epochs):
        perm = torch.randperm(len(Xtr))
        for i in range(0, len(Xtr), batch):
            idx = perm[i:i + batch]
            opt.zero_grad()
            loss_fn(m(Xtr[idx]), ytr[idx]).backward()
            opt.step()
    return m.eval()


def quantize(m, calib):
    """Eager post-training static quantization with the qnnpack engine (no fbgemm in Debian's torch)."""
    torch.backends.quantized.engine = "qnnpack"
    q = torch.ao.quantization.fuse_modules(copy.deepcopy(m).eval(), [["c1", "r1"], ["c2", "r2"]])
    q.qconfig = torch.ao.quantization.get_default_qconfig("qnnpack")
    torch.ao.quantization.prepare(q, inplace=True)
    with torch.no_grad():
        q(calib)                                  # calibration pass sets activation ranges
    torch.ao.quantization.convert(q, inplace=True)
    return q


def export(m, example, path):
    # torch 1.13 warns about prim::TupleConstruct shape inference when exporting the
    # quantized model; the exported graph is fine (checked with onnx.checker and onnxruntime).
    warnings.filterwarnings("ignore", message="The shape inference of prim::TupleConstruct")
    torch.onnx.export(m, example, path, opset_version=13, input_names=["input"],
                      output_names=["logits"], do_constant_folding=True)


def check_ort(model_path, X):
    """Runs model_path on every image of X through run_ort.js; returns the [N,10] logits."""
    out = []
    with tempfile.TemporaryDirectory() as tmp:
        img, outdir = os.path.join(tmp, "x.npy"), os.path.join(tmp, "out")
        for i in range(len(X)):
            np.save(img, X[i:i + 1])
            r = subprocess.run(["node", RUN_ORT, model_path, outdir, "input=" + img],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"run_ort.js failed on image {i}: {r.stderr.strip()}")
            out.append(np.load(os.path.join(outdir, "logits.npy")))
    return np.concatenate(out)


def main():
    check = "--check-ort" in sys.argv[1:]
    unknown = [a for a in sys.argv[1:] if a != "--check-ort"]
    if unknown:
        sys.exit(f"usage: {sys.argv[0]} [--check-ort]")
    torch.manual_seed(0)
    torch.set_num_threads(1)

    Xtr_np, Xte_np, ytr_np, yte_np = load_data()
    Xtr, Xte, ytr, yte = map(torch.from_numpy, (Xtr_np, Xte_np, ytr_np, yte_np))

    m = train(Xtr, ytr)
    q = quantize(m, Xtr[:512])
    with torch.no_grad():
        fp32_logits, int8_logits = m(Xte).numpy(), q(Xte).numpy()
    acc = lambda logits: float((logits.argmax(1) == yte_np).mean() * 100)
    print(f"test images: {len(yte_np)}")
    print(f"PyTorch fp32 accuracy: {acc(fp32_logits):.2f} %")
    print(f"PyTorch int8 accuracy: {acc(int8_logits):.2f} % (qnnpack)")

    fp32_path = os.path.join(HERE, "digits_fp32.onnx")
    int8_path = os.path.join(HERE, "digits_int8.onnx")
    export(m, Xte[:1], fp32_path)
    export(q, Xte[:1], int8_path)
    np.save(os.path.join(HERE, "input.npy"), Xte_np[:1])
    np.save(os.path.join(HERE, "calib.npy"), Xtr_np[:256])
    np.save(os.path.join(HERE, "test_x.npy"), Xte_np)
    np.save(os.path.join(HERE, "test_y.npy"), yte_np)

    if check:
        for name, path, ref in (("fp32", fp32_path, fp32_logits), ("int8", int8_path, int8_logits)):
            got = check_ort(path, Xte_np)
            agree = int((got.argmax(1) == ref.argmax(1)).sum())
            print(f"onnxruntime {name} accuracy: {acc(got):.2f} %  (argmax agrees with PyTorch "
                  f"{agree}/{len(ref)}, max |logit diff| {np.abs(got - ref).max():.3g})")


if __name__ == "__main__":
    main()
