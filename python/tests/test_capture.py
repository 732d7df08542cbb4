"""Captured graphs, run by the reference PTG interpreter, reproduce eager."""

import copy

import pytest
import torch

import ptg_interp
from export_cli import run_export_cli
from models import CASES
from ptera import ptg as P
from ptera.capture import capture
from ptera.opmap import decompositions, to_ptg


@pytest.fixture(scope="module")
def decomp():
    return decompositions()


def _flat(out):
    return list(out) if isinstance(out, (tuple, list)) else [out]


def _ptg_bytes(module, inputs, decomp):
    cap = capture(module, inputs, decompositions=decomp)
    return to_ptg(cap).to_bytes()


@pytest.mark.parametrize("name", sorted(CASES))
def test_reproduces_eager(name, decomp):
    module, inputs = CASES[name]()
    eager = copy.deepcopy(module).eval()
    data = _ptg_bytes(module, inputs, decomp)
    interp = ptg_interp.load(data)
    # twice: mutable state (buffers) must persist across runs like in eager
    for _ in range(2):
        with torch.no_grad():
            ref = _flat(eager(*[x.clone() for x in inputs]))
        got = interp.run(*inputs)
        assert len(got) == len(ref)
        for g, r in zip(got, ref):
            assert g.dtype == r.dtype and g.shape == r.shape, (g.dtype, g.shape, r.dtype, r.shape)
            torch.testing.assert_close(g, r, rtol=1e-5, atol=1e-5)


def test_capture_leaves_module_state_alone(decomp):
    module, inputs = CASES["counter"]()
    _ptg_bytes(module, inputs, decomp)
    assert torch.count_nonzero(module.total) == 0 and torch.count_nonzero(module.cache) == 0


def test_module_scopes(decomp):
    """Each call names the modules it was made from, outermost first; the
    root's own calls name none (docs/PTG.md scope=)."""
    module, inputs = CASES["mlp"]()
    text = _ptg_bytes(module, inputs, decomp).split(b"\ndata ")[0].decode()
    nodes = [l for l in text.splitlines() if l.startswith("node ")]
    mms = [l for l in nodes if l.startswith("node aten::addmm.out")]
    assert [l.split()[-2:] for l in mms] == [["scope=net:Sequential", "scope=net.%d:Linear" % i]
                                             for i in (0, 2, 4)], mms
    relus = [l for l in nodes if l.startswith("node aten::relu.out")]
    assert [l.split()[-1] for l in relus] == ["scope=net.1:ReLU", "scope=net.3:ReLU"], relus
    module, inputs = CASES["cat_stack"]()
    text = _ptg_bytes(module, inputs, decomp).split(b"\ndata ")[0].decode()
    assert "scope=" not in text  # no submodules: every call is the root's


def test_roles_and_written_state(decomp):
    module, inputs = CASES["counter"]()
    text = _ptg_bytes(module, inputs, decomp).split(b"\ndata ")[0].decode()
    assert "buffer=" in text and "fqn=total" in text and "fqn=cache" in text
    copies = [l for l in text.splitlines() if l.startswith("node aten::copy_ !")]
    assert len(copies) == 2
    module, inputs = CASES["cnn"]()
    text = _ptg_bytes(module, inputs, decomp).split(b"\ndata ")[0].decode()
    assert "buffer=" not in text  # running stats are never written: CONST
    assert "fqn=bn.running_mean" in text and "fqn=conv.weight" in text
    assert "node aten::_native_batch_norm_legit_no_training.out" in text


def test_scalar_overloads(decomp):
    module, inputs = CASES["scalars"]()
    text = _ptg_bytes(module, inputs, decomp).split(b"\ndata ")[0].decode()
    assert "aten::mul.Scalar_out" in text and "aten::add.Scalar_out" in text
    assert "aten::rsub.Scalar_out" in text


def test_ptg_format_details():
    g = P.Ptg()
    m = g.method("forward")
    a = m.tensor("Float", [2], const=b"\0" * 8, fqn="a b%")
    b = m.tensor("Long", [], const=b"\1" + b"\0" * 7)
    s = m.str("x y")
    d = m.double(float("inf"))
    e = m.ints([])
    o = m.tensor("Float", [2])
    m.inputs = []
    m.outputs = [o]
    m.node("aten::add.out", [a, b, d, o], written={3})
    raw = g.to_bytes()
    text, _, rest = raw.partition(b"\ndata ")
    text = text.decode()
    assert "fqn=a%20b%25" in text and "str x%20y" in text and "double inf" in text
    assert "ints -" in text and "tensor Long - const=16:8" in text
    assert "node aten::add.out 0 1 3 !5" in text
    n, _, blob = rest.partition(b"\n")
    assert int(n) == len(blob) and len(blob) % 16 == 0
    parsed = ptg_interp.parse(raw)
    assert parsed[0].values[s][1] == "x y"
    assert parsed[0].values[a][1]["fqn"] == "a%20b%25"
    del e


def test_unsupported_op_is_named(decomp):
    from ptera.opmap import UnsupportedOp

    class M(torch.nn.Module):
        def forward(self, x):
            return torch.linalg.inv(x)

    cap = capture(M(), (torch.eye(3),), decompositions=decomp)
    with pytest.raises(UnsupportedOp, match="linalg_inv|inverse|lu|getri|linalg"):
        to_ptg(cap)


def test_cli_ptg_only(tmp_path):
    out = tmp_path / "cnn.ptg"
    r = run_export_cli("models:cnn", out, "--ptg-only")
    assert r.returncode == 0, r.stdout + r.stderr
    assert out.read_bytes().startswith(b"ptg 1\nmethod forward\n")
    r = run_export_cli("--help")
    assert r.returncode == 0 and "MODULE_SPEC" in r.stdout
