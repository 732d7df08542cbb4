"""The benchmark models: each factory returns (module.eval(), example_inputs),
seeded so two calls give identical weights and inputs.

The network models are the zoo's (tests/zoo/models.py: torchvision
MobileNetV2 and ResNet-18 with random weights and calibrated BatchNorm
statistics, the 4-layer transformer encoder, the 3x1024 MLP at batch 1, the
stories15M-shaped Llama decoder step with a 256-entry KV cache, also
8da4w-quantized for ptera); the GEMM
models multiply an input A [M, K] by a constant B [K, N].
"""
import math
import os
import sys

import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "tests", "zoo"))
import models as zoo  # noqa: E402


class ConstMatMul(nn.Module):
    """y = x @ B with B [K, N] a constant (a parameter)."""

    def __init__(self, k, n, gen):
        super().__init__()
        self.b = nn.Parameter(torch.randn((k, n), generator=gen) / math.sqrt(k),
                              requires_grad=False)

    def forward(self, x):
        return torch.mm(x, self.b)


def _gemm(m, k, n, seed):
    gen = torch.Generator().manual_seed(seed)
    return ConstMatMul(k, n, gen).eval(), (torch.randn((m, k), generator=gen),)


FACTORIES = {
    "mobilenet_v2": zoo.mobilenet_v2,
    "resnet18": zoo.resnet18,
    "transformer_encoder": zoo.transformer_encoder,
    "mlp": zoo.mlp,
    "llama_step": zoo.llama_step,
    "llama_step_8da4w": zoo.llama_step,
    "sgemm512": lambda: _gemm(512, 512, 512, 11),
    "sgemm1024": lambda: _gemm(1024, 1024, 1024, 12),
    "gemv4096": lambda: _gemm(1, 4096, 4096, 13),
}
NAMES = list(FACTORIES)
# Models ptera runs compiled otherwise than `--ops ptera` alone (ptera.export
# arguments): the Llama step lowered to XNNPACK with 8-bit dynamic
# activations and 4-bit blockwise weights. PyTorch and ONNX Runtime run the
# same module in fp32, so its row compares against their fp32 latency and
# its error column is the quantization's.
EXPORT_ARGS = {"llama_step_8da4w": {"backend": "xnnpack", "quantize": "8da4w"}}
# (M, N, K) of the models that are one matrix product: GEMM efficiency
GEMM_SHAPES = {"sgemm512": (512, 512, 512), "sgemm1024": (1024, 1024, 1024),
               "gemv4096": (1, 4096, 4096)}
