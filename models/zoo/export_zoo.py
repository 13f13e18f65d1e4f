#!/usr/bin/python3
"""Exports the model zoo (seeded random weights) to ONNX with a seeded random input.

Usage:  /usr/bin/python3 models/zoo/export_zoo.py NAME OUT.onnx INPUT.npy

NAME is one of the keys of MODELS below (README.md says what each one is). The
weights are the initialisation of torch / torchvision after torch.manual_seed(0)
(weights=None: nothing is downloaded), livened as liven() says so that the
outputs are not all near zero, so the same file comes out on every run.
Every graph has one fixed-shape float32 input "input"; batch norms that follow a
convolution are folded into it (eval mode, constant folding). INPUT.npy gets a float32 input of that shape drawn
from numpy's default_rng(0).
"""
import os
import sys

import numpy as np
import torch
import torchvision
from torch import nn


def conv_bn_relu(cin, cout):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, padding=1), nn.BatchNorm2d(cout), nn.ReLU())


class UNetSmall(nn.Module):
    """Two down blocks (Conv-BN-ReLU, max pool), a bottleneck, two up blocks
    (transposed convolution of stride 2, concatenated skip, Conv-ReLU), a 1x1 head."""

    def __init__(self, cin=3, classes=2, w=8):
        super().__init__()
        self.down1, self.down2 = conv_bn_relu(cin, w), conv_bn_relu(w, 2 * w)
        self.pool = nn.MaxPool2d(2)
        self.bottleneck = conv_bn_relu(2 * w, 4 * w)
        self.up2 = nn.ConvTranspose2d(4 * w, 2 * w, 2, stride=2)
        self.fuse2 = nn.Sequential(nn.Conv2d(4 * w, 2 * w, 3, padding=1), nn.ReLU())
        self.up1 = nn.ConvTranspose2d(2 * w, w, 2, stride=2)
        self.fuse1 = nn.Sequential(nn.Conv2d(2 * w, w, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(w, classes, 1)

    def forward(self, x):
        s1 = self.down1(x)
        s2 = self.down2(self.pool(s1))
        b = self.bottleneck(self.pool(s2))
        u2 = self.fuse2(torch.cat([self.up2(b), s2], dim=1))
        u1 = self.fuse1(torch.cat([self.up1(u2), s1], dim=1))
        return self.head(u1)


class LstmClassifier(nn.Module):
    """A two-layer LSTM over 16 steps of 8 features; the last step's state goes to a linear classifier."""

    def __init__(self, features=8, hidden=32, classes=5):
        super().__init__()
        self.lstm = nn.LSTM(features, hidden, num_layers=2, batch_first=True)
        self.fc = nn.Linear(hidden, classes)

    def forward(self, x):
        y, _ = self.lstm(x)
        return self.fc(y[:, -1, :])


class OutOnly(nn.Module):
    """Keeps only the "out" entry of a torchvision segmentation model's output dict."""

    def __init__(self, model):
        super().__init__()
        self.model = model

    def forward(self, x):
        return self.model(x)["out"]


def deeplab():
    seg = torchvision.models.segmentation.deeplabv3_mobilenet_v3_large(weights=None, weights_backbone=None,
                                                                        aux_loss=False)
    return OutOnly(seg)


def vit_tiny():
    return torchvision.models.VisionTransformer(image_size=32, patch_size=8, num_layers=2, num_heads=2,
                                                hidden_dim=32, mlp_dim=64, num_classes=10)


def inception_v3():
    # init_weights=True says so explicitly (None warns); torchvision 0.14 draws it with
    # torch's trunc_normal_, so scipy is not needed. No auxiliary head, raw input.
    return torchvision.models.inception_v3(weights=None, aux_logits=False, init_weights=True,
                                           transform_input=False)


def transformer_encoder():
    """A BERT-style encoder: two post-norm layers, width 128, 4 heads, feed-forward 256, GELU."""
    layer = nn.TransformerEncoderLayer(d_model=128, nhead=4, dim_feedforward=256, dropout=0.0,
                                       activation="gelu", batch_first=True)
    encoder = nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False)
    # nn.TransformerEncoder deep-copies the one layer: redraw each copy's attention
    # projections so that the two layers differ (liven() redraws the nn.Linear ones).
    for copy in encoder.layers:
        copy.self_attn._reset_parameters()
    return encoder


def liven(model, shape):
    """Makes the random model's outputs worth comparing, deterministically.

    torchvision zero-initialises the ViT head and draws MobileNet's classifier at std 0.01,
    and fresh batch norms hold running statistics 0 and 1 that normalise nothing: the
    logits come out exactly 0 or near 1e-9, where any engine would "match". So every
    nn.Linear is redrawn with PyTorch's default initialisation, and the batch norms'
    running statistics are measured on four seeded random batches of two.
    """
    for layer in model.modules():
        if isinstance(layer, nn.Linear):
            layer.reset_parameters()
    norms = [m for m in model.modules() if isinstance(m, nn.modules.batchnorm._BatchNorm)]
    for bn in norms:
        bn.reset_running_stats()
        bn.momentum = None  # a plain average over the batches
    if norms:
        g = torch.Generator().manual_seed(2)
        model.train()
        with torch.no_grad():
            for _ in range(4):
                model(torch.randn((2,) + shape[1:], generator=g))
    return model.eval()


# name -> (builder, input shape, output name, opset)
MODELS = {
    "resnet18": (lambda: torchvision.models.resnet18(weights=None), (1, 3, 224, 224), "logits", 13),
    "resnet34": (lambda: torchvision.models.resnet34(weights=None), (1, 3, 224, 224), "logits", 13),
    "mobilenet_v3_small": (lambda: torchvision.models.mobilenet_v3_small(weights=None), (1, 3, 224, 224), "logits", 13),
    "deeplabv3_mobilenet": (deeplab, (1, 3, 128, 128), "out", 13),
    "vit_tiny": (vit_tiny, (1, 3, 32, 32), "logits", 13),
    "unet_small": (UNetSmall, (1, 3, 64, 64), "logits", 13),
    "lstm_classifier": (LstmClassifier, (1, 16, 8), "logits", 13),
    "mobilenet_v2": (lambda: torchvision.models.mobilenet_v2(weights=None), (1, 3, 224, 224), "logits", 13),
    "mnasnet0_5": (lambda: torchvision.models.mnasnet0_5(weights=None), (1, 3, 224, 224), "logits", 13),
    "squeezenet1_0": (lambda: torchvision.models.squeezenet1_0(weights=None), (1, 3, 224, 224), "logits", 13),
    "inception_v3": (inception_v3, (1, 3, 299, 299), "logits", 13),
    "densenet121": (lambda: torchvision.models.densenet121(weights=None), (1, 3, 224, 224), "logits", 13),
    "shufflenet_v2_x0_5": (lambda: torchvision.models.shufflenet_v2_x0_5(weights=None), (1, 3, 224, 224), "logits", 13),
    "transformer_encoder": (transformer_encoder, (1, 32, 128), "out", 13),
}


def main():
    if len(sys.argv) != 4 or sys.argv[1] not in MODELS:
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(MODELS)}}} OUT.onnx INPUT.npy")
    name, out_path, input_path = sys.argv[1:]
    for path in (out_path, input_path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    torch.manual_seed(0)
    torch.set_num_threads(1)
    build, shape, output, opset = MODELS[name]
    model = liven(build(), shape)
    x = np.random.default_rng(0).standard_normal(shape).astype(np.float32)
    # Not under torch.no_grad(): without autograd, nn.MultiheadAttention takes a fused fast path
    # (aten::_native_multi_head_attention) that has no ONNX export.
    torch.onnx.export(model, torch.from_numpy(x), out_path, opset_version=opset, input_names=["input"],
                      output_names=[output], do_constant_folding=True)
    np.save(input_path, x)
    print(f"wrote {out_path} and {input_path} (float32 {list(shape)}, seed 0)")


if __name__ == "__main__":
    main()
