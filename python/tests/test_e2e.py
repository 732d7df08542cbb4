"""End to end: export with `ptera compile`, run with `ptera run`, compare with
eager at 1e-4 relative. Skipped when no ptera binary with a `compile`
command is found ($PTERA_BIN, <repo>/build/ptera, ptera on PATH)."""

import copy
import os
import subprocess

import numpy as np
import pytest
import torch

import ptera
import quant_ref as qr
from export_cli import run_export_cli
from models import CASES


def _ptera_with_compile():
    try:
        exe = ptera.find_ptera()
    except ptera.PteraNotFound as e:
        return None, str(e)
    p = subprocess.run([exe, "compile", "--help"], capture_output=True, text=True)
    if p.returncode != 0:
        return None, "%s has no working `compile` command (exit %d): %s" % (
            exe, p.returncode, (p.stdout + p.stderr).strip()[:200])
    return exe, None


EXE, WHY = _ptera_with_compile()
pytestmark = pytest.mark.skipif(EXE is None, reason="ptera compile unavailable: %s" % WHY)


def _run(pte, inputs, tmp_path, data=None):
    cmd = [EXE, "run", str(pte)]
    if data:
        cmd += ["--data", str(data)]
    for i, x in enumerate(inputs):
        p = tmp_path / ("in_%d.npy" % i)
        np.save(p, x.numpy())
        cmd += ["--input", str(p)]
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    cmd += ["--output-dir", str(out)]
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    outs = []
    k = 0
    while (out / ("output_%d.npy" % k)).exists():
        outs.append(np.load(out / ("output_%d.npy" % k)))
        k += 1
    return outs


def _compare(got, ref):
    ref = list(ref) if isinstance(ref, (tuple, list)) else [ref]
    assert len(got) == len(ref)
    for g, r in zip(got, ref):
        r = r.detach().numpy()
        assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, g.shape, r.dtype, r.shape)
        if r.dtype.kind in "biu":
            np.testing.assert_array_equal(g, r)
        else:
            np.testing.assert_allclose(g, r, rtol=1e-4, atol=1e-4 * max(1.0, float(np.abs(r).max())))


@pytest.mark.parametrize("name", sorted(CASES))
def test_export_run(name, tmp_path):
    module, inputs = CASES[name]()
    eager = copy.deepcopy(module).eval()
    pte = tmp_path / (name + ".pte")
    res = ptera.export(module, inputs, str(pte))
    assert os.path.getsize(pte) > 0, res.report
    with torch.no_grad():
        ref = eager(*[x.clone() for x in inputs])
    _compare(_run(pte, inputs, tmp_path), ref)


def test_external_weights(tmp_path):
    module, inputs = CASES["cnn"]()
    eager = copy.deepcopy(module).eval()
    pte, ptd = tmp_path / "cnn.pte", tmp_path / "cnn.ptd"
    ptera.export(module, inputs, str(pte), external_weights=str(ptd))
    assert os.path.getsize(ptd) > 0
    with torch.no_grad():
        ref = eager(*inputs)
    _compare(_run(pte, inputs, tmp_path, data=ptd), ref)


def test_cli_keep_ptg(tmp_path):
    out = tmp_path / "mlp.pte"
    r = run_export_cli("models:mlp", out, "--keep-ptg")
    assert r.returncode == 0, r.stdout + r.stderr
    assert (tmp_path / "mlp.ptg").read_bytes().startswith(b"ptg 1\nmethod forward\n")
    # The program the CLI wrote computes the model (the factory is seeded).
    module, inputs = CASES["mlp"]()
    with torch.no_grad():
        ref = module.eval()(*inputs)
    _compare(_run(out, inputs, tmp_path), ref)


@pytest.mark.parametrize("name", sorted(CASES))
def test_export_run_xnnpack(name, tmp_path):
    """Every case through the XNNPACK delegate: what it runs is delegated, the
    rest stays on the CPU; the outputs still match eager."""
    module, inputs = CASES[name]()
    eager = copy.deepcopy(module).eval()
    pte = tmp_path / (name + ".pte")
    res = ptera.export(module, inputs, str(pte), backend="xnnpack")
    assert "xnnpack" in res.report, res.report
    with torch.no_grad():
        ref = eager(*[x.clone() for x in inputs])
    _compare(_run(pte, inputs, tmp_path), ref)


def test_xnnpack_external_weights(tmp_path):
    """The delegate's weights go to the .ptd: the program needs it to run."""
    module, inputs = CASES["cnn"]()
    eager = copy.deepcopy(module).eval()
    pte, ptd = tmp_path / "cnn.pte", tmp_path / "cnn.ptd"
    res = ptera.export(module, inputs, str(pte), external_weights=str(ptd), backend="xnnpack")
    assert " 0 nodes delegated" not in res.report, res.report
    with torch.no_grad():
        ref = eager(*inputs)
    _compare(_run(pte, inputs, tmp_path, data=ptd), ref)
    r = subprocess.run([EXE, "run", str(pte)], capture_output=True, text=True)
    assert r.returncode != 0, "ran without the .ptd holding the delegate's weights"


def test_cli_backend(tmp_path):
    out = tmp_path / "mlp.pte"
    r = run_export_cli("models:mlp", out, "--backend", "xnnpack")
    assert r.returncode == 0, r.stdout + r.stderr
    assert "xnnpack 1 partitions" in r.stdout, r.stdout
    module, inputs = CASES["mlp"]()
    with torch.no_grad():
        ref = module.eval()(*inputs)
    _compare(_run(out, inputs, tmp_path), ref)
    with pytest.raises(ValueError):
        ptera.export(module, inputs, str(out), backend="vulkan")


def test_xnnpack_8da8w_mlp(tmp_path):
    """8da8w: the outputs equal a numpy reference of the same formulas
    (integer stages exact), and stay near fp32 eager."""
    module, inputs = CASES["mlp"]()
    eager = copy.deepcopy(module).eval()
    pte = tmp_path / "mlp.pte"
    res = ptera.export(module, inputs, str(pte), backend="xnnpack", quantize="8da8w")
    assert "3 quantized" in res.report, res.report
    got, = _run(pte, inputs, tmp_path)
    h = inputs[0].numpy()
    for layer in eager.net:
        h = qr.qd8_linear(h, layer.weight.detach().numpy(), layer.bias.detach().numpy()) \
            if isinstance(layer, torch.nn.Linear) else np.maximum(h, 0)
    np.testing.assert_array_equal(got, h)
    with torch.no_grad():
        ref = eager(*inputs).numpy()
    rel = np.abs(got - ref).max() / np.abs(ref).max()
    assert rel < 0.05, rel


class _Checked(torch.nn.Module):
    """A runtime check on a tensor condition (aten::_assert_async in the
    captured graph, like torch._check_tensor_all on newer torch)."""

    def forward(self, x):
        torch._assert_async(x.abs().sum() >= 0)
        return x * 2 + 1


def test_runtime_check_dropped(tmp_path):
    """The check is dropped (upstream RemoveAssertAsyncPass) together with
    the ops computing its condition; the output still matches eager."""
    x = torch.randn(3, 5)
    ptg = tmp_path / "checked.ptg"
    ptera.write_ptg(_Checked(), (x,), str(ptg))
    assert "_assert_async" not in ptg.read_text()
    pte = tmp_path / "checked.pte"
    ptera.export(_Checked(), (x,), str(pte))
    _compare(_run(pte, (x,), tmp_path), _Checked()(x))
    r = subprocess.run([EXE, "ops", "--used", str(pte)], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    used = r.stdout.split()
    assert used and not [o for o in used if o.split("::")[1].split(".")[0]
                         in ("_assert_async", "abs", "sum", "ge")], used
