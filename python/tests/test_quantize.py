"""`ptera compile --quantize` end to end (compiler/to_xnnpack.h, passes.h):
8da4w through the XNNPACK delegate and the weight-only int8 / int4 schemes
on the CPU, each against a numpy reference of the same formulas
(quant_ref.py); accuracy against fp32 eager; the warning for bfloat16
layers and the errors that name a node."""

import copy
import subprocess

import numpy as np
import pytest
import torch
import torch.nn as nn

import ptera
import quant_ref as qr
from models import CASES
from test_e2e import EXE, _run

pytestmark = pytest.mark.skipif(EXE is None, reason="ptera compile unavailable")


def _mlp_reference(eager, x, layer_fn):
    h = x
    for layer in eager.net:
        if isinstance(layer, nn.Linear):
            h = layer_fn(h, layer.weight.detach().numpy(), layer.bias.detach().numpy())
        else:
            h = np.maximum(h, 0)
    return h


class Wide(nn.Module):
    """Two linear layers whose inputs 32 divides (64 = 2 groups, 96 = 3)."""

    def __init__(self):
        super().__init__()
        torch.manual_seed(3)
        self.a = nn.Linear(64, 96)
        self.b = nn.Linear(96, 5, bias=False)

    def forward(self, x):
        return self.b(torch.relu(self.a(x)))


def test_8da4w_mlp(tmp_path):
    """The MLP's 16- and 8-input layers get 8da8w (32 does not divide them;
    warned, naming the nodes), the 32-input one 4-bit blockwise weights."""
    module, inputs = CASES["mlp"]()
    eager = copy.deepcopy(module).eval()
    pte = tmp_path / "mlp.pte"
    res = ptera.export(module, inputs, str(pte), backend="xnnpack", quantize="8da4w")
    assert "8da4w 1 FullyConnected with 4-bit weights, 2 with 8-bit" in res.report, res.report
    assert res.report.count("does not divide its") == 2, res.report
    assert "does not divide its 16 input features; quantized 8da8w" in res.report, res.report
    got, = _run(pte, inputs, tmp_path)
    ics = iter([None, 32, None])
    ref = _mlp_reference(eager, inputs[0].numpy(),
                         lambda h, w, b: qr.qd8_linear(h, w, b, next(ics)))
    np.testing.assert_allclose(got, ref, rtol=2e-6, atol=2e-6 * np.abs(ref).max())
    with torch.no_grad():
        fp = eager(*inputs).numpy()
    mx, mean = qr.rel_error(got, fp)
    print("8da4w mlp vs fp32 eager: max rel %.4g, mean rel %.4g" % (mx, mean))
    assert mx < 0.1, (mx, mean)


@pytest.mark.parametrize("group_size", [32, 64])
def test_8da4w_groups(tmp_path, group_size):
    """Every layer blockwise where the group size divides it (64: the
    96-input layer falls back to 8-bit)."""
    module = Wide().eval()
    x = torch.randn(3, 64, generator=torch.Generator().manual_seed(1))
    pte = tmp_path / "wide.pte"
    res = ptera.export(copy.deepcopy(module), (x,), str(pte), backend="xnnpack", quantize="8da4w",
                       group_size=group_size)
    four = 2 if group_size == 32 else 1
    assert "8da4w %d FullyConnected with 4-bit weights, %d with 8-bit" % (four, 2 - four) \
        in res.report, res.report
    got, = _run(pte, (x,), tmp_path)
    h = qr.qd8_linear(x.numpy(), module.a.weight.detach().numpy(), module.a.bias.detach().numpy(),
                      group_size)
    ref = qr.qd8_linear(np.maximum(h, 0), module.b.weight.detach().numpy(), None,
                        group_size if 96 % group_size == 0 else None)
    np.testing.assert_allclose(got, ref, rtol=2e-6, atol=2e-6 * np.abs(ref).max())


@pytest.mark.parametrize("scheme,bits,backend", [("int8-weight", 8, None), ("int4-weight", 4, None),
                                                 ("int8-weight", 8, "xnnpack")])
def test_weight_only(tmp_path, scheme, bits, backend):
    """Weights stored int8 (per channel) or 4-bit (per group of 32) and
    dequantized before the layer: outputs equal the float layers of the
    formula's weights, up to the products' float rounding."""
    module = Wide().eval()
    x = torch.randn(3, 64, generator=torch.Generator().manual_seed(2))
    pte = tmp_path / "wide.pte"
    res = ptera.export(copy.deepcopy(module), (x,), str(pte), quantize=scheme, backend=backend)
    assert "%s 2 linear weights quantized" % scheme in res.report, res.report
    got, = _run(pte, (x,), tmp_path)
    wa = qr.dequantized_weight(module.a.weight.detach().numpy(), bits, 32).astype(np.float64)
    wb = qr.dequantized_weight(module.b.weight.detach().numpy(), bits, 32).astype(np.float64)
    h = np.maximum(x.numpy().astype(np.float64) @ wa.T + module.a.bias.detach().numpy(), 0)
    ref = h @ wb.T
    np.testing.assert_allclose(got, ref, rtol=1e-5, atol=1e-5 * np.abs(ref).max())
    with torch.no_grad():
        fp = module(x).numpy()
    mx, mean = qr.rel_error(got, fp)
    print("%s vs fp32 eager: max rel %.4g, mean rel %.4g" % (scheme, mx, mean))
    assert mx < (0.02 if bits == 8 else 0.2), (mx, mean)


def test_int4_weight_group_must_divide(tmp_path):
    """int4-weight has no fallback: a layer the group size does not divide
    fails the compile, naming the node and its input count."""
    module, inputs = CASES["mlp"]()
    with pytest.raises(RuntimeError) as e:
        ptera.export(module, inputs, str(tmp_path / "mlp.pte"), quantize="int4-weight")
    msg = str(e.value)
    assert "weight-only quantization: node 1 (aten::addmm.out" in msg, msg
    assert "group size 32 does not divide its 16 input features" in msg, msg
    assert not (tmp_path / "mlp.pte").exists()


class Bf16(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(4)
        self.fp = nn.Linear(32, 32)
        self.low = nn.Linear(32, 4).to(torch.bfloat16)

    def forward(self, x):
        return self.low(self.fp(x).to(torch.bfloat16))


@pytest.mark.parametrize("scheme,backend", [("8da4w", "xnnpack"), ("int8-weight", None)])
def test_bf16_left_with_warning(tmp_path, scheme, backend):
    """A bfloat16 layer is left unquantized with a warning naming it; the
    float32 one is quantized; the bfloat16 layer's outputs are the fp path's."""
    module = Bf16().eval()
    x = torch.randn(2, 32, generator=torch.Generator().manual_seed(5))
    pte = tmp_path / "bf.pte"
    res = ptera.export(copy.deepcopy(module), (x,), str(pte), quantize=scheme, backend=backend)
    assert "warning: method 'forward': node" in res.report, res.report
    assert "bfloat16 weight" in res.report and "left unquantized" in res.report, res.report
    assert res.report.count("bfloat16") == 1, res.report
    got, = _run(pte, (x,), tmp_path)
    assert got.dtype == np.uint16, got.dtype  # bfloat16 bits
    got = (got.astype(np.uint32) << 16).view(np.float32)
    w, b = module.fp.weight.detach().numpy(), module.fp.bias.detach().numpy()
    if scheme == "8da4w":
        h = qr.qd8_linear(x.numpy(), w, b, 32)
    else:
        h = x.numpy() @ qr.dequantized_weight(w, 8).T + b
    with torch.no_grad():
        ref = module.low(torch.from_numpy(h.astype(np.float32)).to(torch.bfloat16)).float().numpy()
    np.testing.assert_allclose(got, ref, rtol=2e-2, atol=2e-2 * np.abs(ref).max())


class RuntimeWeight(nn.Module):
    def forward(self, x, w):
        return torch.nn.functional.linear(x, w)


def test_runtime_weight_fails(tmp_path):
    """A linear call whose weight is a method input cannot be quantized when
    compiling: the compile fails naming the node and why."""
    x, w = torch.randn(2, 32), torch.randn(4, 32)
    for scheme, backend in (("8da4w", "xnnpack"), ("int8-weight", None)):
        with pytest.raises(RuntimeError) as e:
            ptera.export(RuntimeWeight(), (x, w), str(tmp_path / "rw.pte"), quantize=scheme,
                         backend=backend, ops="executorch-optimized")
        msg = str(e.value)
        assert "(aten::linear.out) cannot be quantized: its weight" in msg, msg
        assert "is not a constant" in msg, msg


def test_cli_refusals(tmp_path):
    """Options the compiler cannot honour are refused before compiling."""
    out = tmp_path / "x.pte"
    for args, want in ((["--quantize", "8da4w"], "--quantize needs --backend xnnpack"),
                       (["--backend", "xnnpack", "--quantize", "8da4w", "--group-size", "48"],
                        "8da4w group size 48"),
                       (["--quantize", "int8-weight", "--group-size", "32"],
                        "--group-size needs --quantize 8da4w or int4-weight"),
                       (["--quantize", "int4-weight", "--group-size", "0"],
                        "--group-size must be a positive integer")):
        module, inputs = CASES["mlp"]()
        ptg = tmp_path / "mlp.ptg"
        ptera.write_ptg(module, inputs, str(ptg))
        r = subprocess.run([EXE, "compile", str(ptg), str(out)] + args, capture_output=True, text=True)
        assert r.returncode != 0 and want in r.stderr, (args, r.stderr)
