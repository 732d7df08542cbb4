"""External weights end to end: a weights-only update (same program, new
.ptd from fine-tuned weights) changes the outputs to the fine-tuned model's,
and a .ptd from another export fails with an error naming the key, the file
and the likely cause. Also: a constant mutated through a view is not folded
away (the outputs follow eager over several runs)."""

import copy
import json
import subprocess

import numpy as np
import pytest
import torch
import torch.nn as nn

import ptera
from test_e2e import EXE, WHY, _compare, _run

pytestmark = pytest.mark.skipif(EXE is None, reason="ptera compile unavailable: %s" % WHY)


class Net(nn.Module):
    def __init__(self, hidden=12):
        super().__init__()
        self.fc1 = nn.Linear(6, hidden)
        self.fc2 = nn.Linear(hidden, 3)

    def forward(self, x):
        return self.fc2(torch.relu(self.fc1(x)))


def _net(hidden=12, seed=0):
    torch.manual_seed(seed)
    return Net(hidden).eval()


def _fine_tune(model, x):
    """One SGD step towards zero output: new weights, same program."""
    tuned = copy.deepcopy(model).train()
    opt = torch.optim.SGD(tuned.parameters(), lr=0.5)
    loss = tuned(x).pow(2).sum()
    loss.backward()
    opt.step()
    return tuned.eval()


def _eager(model, x):
    with torch.no_grad():
        return model(x)


def _run_fail(pte, ptd, x, tmp_path):
    p = tmp_path / "x.npy"
    np.save(p, x.numpy())
    r = subprocess.run([EXE, "run", str(pte), "--data", str(ptd), "--input", str(p)],
                       capture_output=True, text=True)
    return r.returncode, r.stdout + r.stderr


def _operators(pte):
    r = subprocess.run([EXE, "inspect", str(pte), "--json"], capture_output=True, text=True,
                       check=True)
    ops = json.loads(r.stdout)["methods"][0]["operators"]
    return {o["name"] + ("." + o["overload"] if o["overload"] else "") for o in ops}


@pytest.mark.parametrize("ops", ptera.OP_SETS)
def test_weights_only_update_changes_outputs(tmp_path, ops):
    x = torch.randn(4, 6, generator=torch.Generator().manual_seed(1))
    base = _net()
    tuned = _fine_tune(base, x)
    pte, ptd = tmp_path / "net.pte", tmp_path / "net.ptd"
    ptera.export(copy.deepcopy(base), (x,), str(pte), external_weights=str(ptd), ops=ops)
    _compare(_run(pte, (x,), tmp_path, data=ptd), _eager(base, x))
    # Stock ExecuTorch has no linear.out: the named weights are transposed at
    # run time (permute_copy + addmm, as ExecuTorch's exporter writes them).
    if ops == "executorch-portable":
        assert {"aten::permute_copy.out", "aten::addmm.out"} <= _operators(pte)
        assert "aten::linear.out" not in _operators(pte)
    else:
        assert "aten::linear.out" in _operators(pte)

    # Export the fine-tuned model; keep only its .ptd and run it with the
    # FIRST export's program.
    pte2, ptd2 = tmp_path / "tuned.pte", tmp_path / "tuned.ptd"
    ptera.export(copy.deepcopy(tuned), (x,), str(pte2), external_weights=str(ptd2), ops=ops)
    got = _run(pte, (x,), tmp_path, data=ptd2)
    _compare(got, _eager(tuned, x))
    assert np.abs(got[0] - _eager(base, x).numpy()).max() > 1e-3  # really changed


def test_unknown_op_set_is_refused(tmp_path):
    with pytest.raises(ValueError, match="executorch-portable"):
        ptera.export(_net(), (torch.randn(2, 6),), str(tmp_path / "n.pte"), ops="portable")


def test_ptd_from_another_export_fails_with_named_error(tmp_path):
    x = torch.randn(2, 6)
    pte, ptd = tmp_path / "net.pte", tmp_path / "net.ptd"
    ptera.export(_net(12), (x,), str(pte), external_weights=str(ptd))
    other_pte, other_ptd = tmp_path / "other.pte", tmp_path / "other.ptd"
    ptera.export(_net(20), (x,), str(other_pte), external_weights=str(other_ptd))
    rc, text = _run_fail(pte, other_ptd, x, tmp_path)
    assert rc != 0
    assert "InvalidExternalData" in text
    assert "fc1.weight" in text or "fc1.bias" in text or "fc2.weight" in text
    assert str(other_ptd) in text
    assert "another export" in text


def test_hash_keys_reject_other_weights(tmp_path):
    x = torch.randn(2, 6)
    base = _net()
    pte, ptd = tmp_path / "h.pte", tmp_path / "h.ptd"
    ptera.export(copy.deepcopy(base), (x,), str(pte), external_weights=str(ptd),
                 weight_keys="hash")
    _compare(_run(pte, (x,), tmp_path, data=ptd), _eager(base, x))
    pte2, ptd2 = tmp_path / "h2.pte", tmp_path / "h2.ptd"
    ptera.export(_fine_tune(base, x), (x,), str(pte2), external_weights=str(ptd2),
                 weight_keys="hash")
    rc, text = _run_fail(pte, ptd2, x, tmp_path)
    assert rc != 0 and "NotFound" in text and "another export" in text and str(ptd2) in text


class ViewMutation(nn.Module):
    """A registered buffer bumped in place through a view on every call, then
    combined with a constant parameter: nothing that reads it may be folded."""

    def __init__(self):
        super().__init__()
        self.register_buffer("state", torch.arange(6, dtype=torch.float32).reshape(2, 3))
        self.w = nn.Parameter(torch.full((2, 3), 0.5))

    def forward(self, x):
        self.state.view(-1).add_(1.0)
        return x * self.w + self.state * self.w


def test_buffer_mutated_through_view_not_folded(tmp_path):
    x = torch.ones(2, 3)
    model = ViewMutation().eval()
    eager = copy.deepcopy(model)
    pte = tmp_path / "vm.pte"
    ptera.export(model, (x,), str(pte))
    ref = _eager(eager, x)  # first call: state + 1
    _compare(_run(pte, (x,), tmp_path), ref)
    np.testing.assert_allclose(ref.numpy(), 0.5 + (np.arange(6).reshape(2, 3) + 1) * 0.5)
