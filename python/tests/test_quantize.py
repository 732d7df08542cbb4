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
from export_cli import run_export_cli
from models import CASES
from test_e2e import EXE, _run
from test_zoo import models as zoo

pytestmark = pytest.mark.skipif(EXE is None, reason="ptera compile unavailable")


def _compile(ptg, pte, *args):
    """ptera compile of an already written .ptg; the report (stdout + stderr)."""
    r = subprocess.run([EXE, "compile", str(ptg), str(pte)] + list(args), capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    return r.stdout + r.stderr


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


@pytest.fixture(scope="module")
def wide(tmp_path_factory):
    """Wide and its .ptg, captured once for the tests below."""
    module = Wide().eval()
    ptg = tmp_path_factory.mktemp("wide") / "wide.ptg"
    ptera.write_ptg(copy.deepcopy(module), (torch.zeros(3, 64),), str(ptg))
    return module, ptg


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
def test_8da4w_groups(tmp_path, wide, group_size):
    """Every layer blockwise where the group size divides it (64: the
    96-input layer falls back to 8-bit)."""
    module, ptg = wide
    x = torch.randn(3, 64, generator=torch.Generator().manual_seed(1))
    pte = tmp_path / "wide.pte"
    report = _compile(ptg, pte, "--backend", "xnnpack", "--quantize", "8da4w", "--group-size",
                      str(group_size))
    four = 2 if group_size == 32 else 1
    assert "8da4w %d FullyConnected with 4-bit weights, %d with 8-bit" % (four, 2 - four) \
        in report, report
    got, = _run(pte, (x,), tmp_path)
    h = qr.qd8_linear(x.numpy(), module.a.weight.detach().numpy(), module.a.bias.detach().numpy(),
                      group_size)
    ref = qr.qd8_linear(np.maximum(h, 0), module.b.weight.detach().numpy(), None,
                        group_size if 96 % group_size == 0 else None)
    np.testing.assert_allclose(got, ref, rtol=2e-6, atol=2e-6 * np.abs(ref).max())


def test_replaceable_weights_warned(tmp_path, wide):
    """Weights a .ptd may replace by name (fqn keys) are transposed at run
    time and so left unquantized, with a warning naming each; hash keys fix
    their bytes and they are quantized."""
    _, ptg = wide
    pte, ptd = tmp_path / "w.pte", tmp_path / "w.ptd"
    q = ["--backend", "xnnpack", "--quantize", "8da4w", "--external-weights", str(ptd)]
    report = _compile(ptg, pte, *q)
    assert " 0 quantized" in report, report
    assert report.count("left unquantized: its weight is 'a.weight' transposed at run time") == 1, report
    assert "'b.weight' transposed at run time" in report, report
    report = _compile(ptg, pte, *q, "--weight-keys", "hash")
    assert " 2 quantized" in report and "warning" not in report, report


@pytest.mark.parametrize("scheme,bits,backend", [("int8-weight", 8, None), ("int4-weight", 4, None),
                                                 ("int8-weight", 8, "xnnpack")])
def test_weight_only(tmp_path, wide, scheme, bits, backend):
    """Weights stored int8 (per channel) or 4-bit (per group of 32) and
    dequantized before the layer: outputs equal the float layers of the
    formula's weights, up to the products' float rounding. With the XNNPACK
    backend the layers stay on the CPU (the delegate has no fp32 x int8
    FullyConnected)."""
    module, ptg = wide
    x = torch.randn(3, 64, generator=torch.Generator().manual_seed(2))
    pte = tmp_path / "wide.pte"
    report = _compile(ptg, pte, "--quantize", scheme, *(["--backend", backend] if backend else []))
    assert "%s 2 linear weights quantized" % scheme in report, report
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


def test_bf16_left_with_warning(tmp_path):
    """A bfloat16 layer is left unquantized with a warning naming its
    weight; the float32 one is quantized; the bfloat16 layer computes on
    the quantized layer's output as eager bfloat16 does."""
    module = Bf16().eval()
    x = torch.randn(2, 32, generator=torch.Generator().manual_seed(5))
    ptg = tmp_path / "bf.ptg"
    ptera.write_ptg(copy.deepcopy(module), (x,), str(ptg))
    for scheme, backend in (("8da4w", "xnnpack"), ("int8-weight", None)):
        pte = tmp_path / "bf.pte"
        report = _compile(ptg, pte, "--quantize", scheme, *(["--backend", backend] if backend else []))
        assert "warning: method 'forward': node 4 (aten::addmm.out): bfloat16 weight 'low.weight' " \
               "left unquantized" in report, report
        assert report.count("bfloat16") == 1, report
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
    ptg = tmp_path / "rw.ptg"
    ptera.write_ptg(RuntimeWeight(), (torch.randn(2, 32), torch.randn(4, 32)), str(ptg))
    for scheme, backend in (("8da4w", "xnnpack"), ("int8-weight", None)):
        r = subprocess.run([EXE, "compile", str(ptg), str(tmp_path / "rw.pte"), "--ops",
                            "executorch-optimized", "--quantize", scheme] +
                           (["--backend", backend] if backend else []), capture_output=True, text=True)
        assert r.returncode == 1, r.stdout + r.stderr
        assert "(aten::linear.out) cannot be quantized: its weight" in r.stderr, r.stderr
        assert "is not a constant" in r.stderr, r.stderr


def test_cli_refusals(tmp_path):
    """Options the compiler cannot honour are refused before compiling."""
    out, ptg = tmp_path / "x.pte", tmp_path / "mlp.ptg"
    module, inputs = CASES["mlp"]()
    ptera.write_ptg(module, inputs, str(ptg))
    for args, want in ((["--quantize", "8da4w"], "--quantize needs --backend xnnpack"),
                       (["--backend", "xnnpack", "--quantize", "8da4w", "--group-size", "48"],
                        "8da4w group size 48"),
                       (["--quantize", "int8-weight", "--group-size", "32"],
                        "--group-size needs --quantize 8da4w or int4-weight"),
                       (["--quantize", "int4-weight", "--group-size", "0"],
                        "--group-size must be a positive integer")):
        r = subprocess.run([EXE, "compile", str(ptg), str(out)] + args, capture_output=True, text=True)
        assert r.returncode != 0 and want in r.stderr, (args, r.stderr)
    for kw in ({"quantize": "int8-weight", "group_size": 32}, {"quantize": "8da4w"},
               {"quantize": "int4-weight", "group_size": 0}):
        with pytest.raises(ValueError):
            ptera.export(module, inputs, str(out), **kw)


def test_scope(tmp_path):
    """quantize_scope / quantize_skip (and their python -m ptera.export
    flags) reach `ptera compile`: the MLP's linear layers are net.0, net.2
    and net.4 (tests/compile/quant_scope.py checks what they quantize)."""
    module, inputs = CASES["mlp"]()
    pte = tmp_path / "mlp.pte"
    for kw, n in (({}, 3), ({"quantize_scope": ["net.2"]}, 1),
                  ({"quantize_skip": ["net.0", "type:ReLU"]}, 2),
                  ({"quantize_scope": "type:Linear", "quantize_skip": ["net.4"]}, 2)):
        res = ptera.export(copy.deepcopy(module), inputs, str(pte), backend="xnnpack",
                           quantize="8da8w", **kw)
        assert "on the CPU, %d quantized" % n in res.report, (kw, res.report)
    with pytest.raises(RuntimeError, match="'net.9' names no module"):
        ptera.export(copy.deepcopy(module), inputs, str(pte), backend="xnnpack", quantize="8da8w",
                     quantize_scope=["net.9"])
    for kw in ({"quantize_scope": ["net.0"]}, {"quantize": "8da8w", "quantize_skip": ["a,b"]},
               {"quantize": "8da8w", "quantize_skip": [""]}):
        with pytest.raises(ValueError):
            ptera.export(copy.deepcopy(module), inputs, str(pte), backend="xnnpack", **kw)
    r = run_export_cli("models:mlp", pte, "--backend", "xnnpack", "--quantize", "8da8w",
                       "--quantize-skip", "net.0", "--quantize-skip", "net.4")
    assert r.returncode == 0 and "on the CPU, 1 quantized" in r.stdout, r.stdout + r.stderr
    r = run_export_cli("models:mlp", pte, "--backend", "xnnpack", "--quantize", "8da8w",
                       "--quantize-scope", "net.2,net")
    assert r.returncode == 0 and "on the CPU, 3 quantized" in r.stdout, r.stdout + r.stderr
    r = run_export_cli("models:mlp", pte, "--backend", "xnnpack", "--quantize", "8da8w",
                       "--quantize-scope", "net.20")
    assert r.returncode == 1 and "'net.20' names no module" in r.stderr, r.stdout + r.stderr


def _as_quantized(model, gs):
    """model with each nn.Linear computed by the numpy reference of the
    delegate's quantized FullyConnected (8da8w, or 8da4w with gs where gs
    divides the inputs); everything else stays eager fp32."""
    m = copy.deepcopy(model)
    for mod in m.modules():
        if isinstance(mod, nn.Linear):
            w = mod.weight.detach().numpy()
            b = None if mod.bias is None else mod.bias.detach().numpy()
            g = gs if gs and w.shape[1] % gs == 0 else None

            def fwd(x, w=w, b=b, g=g):
                y = qr.qd8_linear(x.reshape(-1, w.shape[1]).numpy(), w, b, g)
                return torch.from_numpy(y).reshape(*x.shape[:-1], w.shape[0])
            mod.forward = fwd
    return m


def _run_steps(pte, runs, tmp_path):
    """Every execution of runs on one loaded program (state carries over)."""
    cmd = [EXE, "run", str(pte)]
    for j, inputs in enumerate(runs):
        if j:
            cmd.append("--then")
        for k, x in enumerate(inputs):
            p = tmp_path / ("run%d_in%d.npy" % (j, k))
            np.save(p, x.numpy())
            cmd += ["--input", str(p)]
    cmd += ["--output-dir", str(tmp_path / "out")]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    pre = (lambda j: "run%d_" % j) if len(runs) > 1 else (lambda j: "")
    return [np.load(tmp_path / "out" / ("%soutput_0.npy" % pre(j))) for j in range(len(runs))]


@pytest.fixture(scope="module")
def zoo_ptg(tmp_path_factory):
    """name -> (model, inputs, .ptg), each zoo model captured once."""
    seen = {}

    def get(name):
        if name not in seen:
            model, inputs = zoo.get(name)
            ptg = tmp_path_factory.mktemp(name) / (name + ".ptg")
            ptera.write_ptg(copy.deepcopy(model), inputs, str(ptg))
            seen[name] = (model, inputs, ptg)
        return seen[name]
    return get


@pytest.mark.parametrize("name,scheme", [("mlp", "8da4w"), ("llama_step", "8da4w"),
                                         ("llama_step", "8da8w")])
def test_zoo_dynamic_quantization(tmp_path, zoo_ptg, name, scheme):
    """The zoo's MLP and Llama-style step (both of its executions, the KV
    cache carried) through the XNNPACK delegate: every linear layer
    quantized, outputs equal to eager with each linear layer replaced by
    the numpy reference of the formulas (the rest of the model in fp32, so
    within float rounding of the other ops); accuracy against fp32 eager
    printed (the report gives the figures)."""
    model, inputs, ptg = zoo_ptg(name)
    runs = zoo.executions(name, inputs)
    pte = tmp_path / (name + ".pte")
    report = _compile(ptg, pte, "--backend", "xnnpack", "--quantize", scheme)
    layers = sum(isinstance(m, nn.Linear) for m in model.modules())
    assert " %d quantized" % layers in report, report
    assert "warning" not in report, report
    got = _run_steps(pte, runs, tmp_path)
    ref = zoo.eager_references(name, _as_quantized(model, 32 if scheme == "8da4w" else None), runs)
    fp = zoo.eager_references(name, copy.deepcopy(model), runs)
    for j, g in enumerate(got):
        r = ref[j][0].numpy()
        np.testing.assert_allclose(g, r, rtol=0, atol=2e-3 * np.abs(r).max())
        mx, mean = qr.rel_error(g, fp[j][0].numpy())
        print("%s %s run %d: vs the formulas max rel %.3g; vs fp32 eager max rel %.4g, mean rel %.4g"
              % (name, scheme, j, qr.rel_error(g, r)[0], mx, mean))
        assert mx < (0.5 if scheme == "8da4w" else 0.1), (mx, mean)
