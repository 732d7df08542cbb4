"""Mutable state across executions: `ptera run ... --then ...` runs the same
loaded method again, so a buffer updated in place keeps its value from one
execution to the next. Checked against eager PyTorch calling one fresh module
the same number of times, and by hand."""

import copy
import subprocess

import numpy as np
import pytest
import torch
import torch.nn as nn

import ptera
from test_e2e import EXE, WHY, _compare

pytestmark = pytest.mark.skipif(EXE is None, reason="ptera compile unavailable: %s" % WHY)


class Counter(nn.Module):
    """count += x on every call; returns count * 2 and x + count."""

    def __init__(self):
        super().__init__()
        self.register_buffer("count", torch.tensor([1.0, -2.0, 0.5]))

    def forward(self, x):
        self.count.add_(x)
        return self.count * 2, x + self.count


def _run_then(pte, runs, tmp_path, extra=()):
    """One `ptera run` with an execution per entry of runs (a list of input
    tuples); returns (stdout, [[outputs of run 0], [outputs of run 1], ...])."""
    cmd = [EXE, "run", str(pte)]
    for j, inputs in enumerate(runs):
        if j:
            cmd.append("--then")
        for i, x in enumerate(inputs):
            p = tmp_path / ("run%d_in_%d.npy" % (j, i))
            np.save(p, x.numpy())
            cmd += ["--input", str(p)]
    out = tmp_path / "out"
    out.mkdir(exist_ok=True)
    cmd += ["--output-dir", str(out)] + list(extra)
    r = subprocess.run(cmd, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    got = []
    for j in range(len(runs)):
        outs, k = [], 0
        while (out / ("run%d_output_%d.npy" % (j, k))).exists():
            outs.append(np.load(out / ("run%d_output_%d.npy" % (j, k))))
            k += 1
        got.append(outs)
    assert not (out / "output_0.npy").exists()  # several runs: run<j>_ names only
    return r.stdout, got


XS = [torch.tensor([0.25, 1.0, -3.0]), torch.tensor([2.0, -0.5, 0.125]),
      torch.tensor([-1.0, 4.0, 1.5])]


def test_buffer_state_persists_across_then(tmp_path):
    module = Counter().eval()
    eager = copy.deepcopy(module)
    pte = tmp_path / "counter.pte"
    ptera.export(module, (XS[0],), str(pte))
    stdout, got = _run_then(pte, [(x,) for x in XS], tmp_path)
    count = np.array([1.0, -2.0, 0.5], np.float32)
    for j, x in enumerate(XS):
        with torch.no_grad():
            ref = eager(x.clone())  # the same module, called again: state carries
        _compare(got[j], ref)
        count = count + x.numpy()  # by hand
        np.testing.assert_allclose(got[j][0], count * 2, rtol=1e-6)
        np.testing.assert_allclose(got[j][1], x.numpy() + count, rtol=1e-6)
    labels = [l for l in stdout.splitlines() if l.startswith("run ")]
    assert labels == ["run 0:", "run 1:", "run 2:"], stdout


def test_single_run_unchanged_and_fresh_each_process(tmp_path):
    """Without --then: output_<k>.npy, no run label, and each process starts
    from the exported initial state."""
    module = Counter().eval()
    pte = tmp_path / "counter.pte"
    ptera.export(copy.deepcopy(module), (XS[0],), str(pte))
    p = tmp_path / "x.npy"
    np.save(p, XS[1].numpy())
    for _ in range(2):
        r = subprocess.run([EXE, "run", str(pte), "--input", str(p), "--output-dir",
                            str(tmp_path / "o")], capture_output=True, text=True)
        assert r.returncode == 0, r.stdout + r.stderr
        assert not [l for l in r.stdout.splitlines() if l.startswith("run ")], r.stdout
        with torch.no_grad():
            ref = copy.deepcopy(module)(XS[1].clone())
        _compare([np.load(tmp_path / "o" / "output_0.npy"),
                  np.load(tmp_path / "o" / "output_1.npy")], ref)


def test_then_usage_errors(tmp_path):
    pte = tmp_path / "counter.pte"
    ptera.export(Counter().eval(), (XS[0],), str(pte))
    p = tmp_path / "x.npy"
    np.save(p, XS[0].numpy())
    # --then with no inputs after it (the method has one), and before any.
    for args in (["--input", str(p), "--then"], ["--then", "--input", str(p)],
                 ["--input", str(p), "--then", "--then", "--input", str(p)]):
        r = subprocess.run([EXE, "run", str(pte)] + args, capture_output=True, text=True)
        assert r.returncode == 2 and "has no --input" in r.stderr, (args, r.stderr)
    # Too many inputs for the second execution: nothing runs.
    r = subprocess.run([EXE, "run", str(pte), "--input", str(p), "--then", "--input", str(p),
                        "--input", str(p)], capture_output=True, text=True)
    assert r.returncode == 1 and "1 inputs; 2 given for execution 1" in r.stderr, r.stderr
    assert r.stdout == ""


def test_then_without_files_uses_ones(tmp_path):
    """No --input in any execution: ones each time, so count grows by 1."""
    pte = tmp_path / "counter.pte"
    ptera.export(Counter().eval(), (XS[0],), str(pte))
    out = tmp_path / "o"
    r = subprocess.run([EXE, "run", str(pte), "--then", "--output-dir", str(out)],
                       capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr
    init = np.array([1.0, -2.0, 0.5], np.float32)
    for j in range(2):
        np.testing.assert_allclose(np.load(out / ("run%d_output_0.npy" % j)), (init + j + 1) * 2)


class TwoWrites(nn.Module):
    """A small KV-cache pattern: within ONE forward the buffer is written at
    pos, read, then written at pos + 1 (what llama_2step once checked with a
    whole model); across executions the rows written earlier stay."""

    def __init__(self):
        super().__init__()
        self.register_buffer("cache", torch.zeros(4, 3))

    def forward(self, x, pos):
        # x: [1, 3]; pos: [1] int64
        self.cache.index_put_((pos,), x)
        a = self.cache.sum(0, keepdim=True)  # sees this and earlier writes
        self.cache.index_put_((pos + 1,), a * 2)
        return self.cache * 1, a


def test_two_writes_in_one_execution_and_across(tmp_path):
    module = TwoWrites().eval()
    eager = copy.deepcopy(module)
    runs = [(torch.tensor([[1.0, 2.0, -1.0]]), torch.tensor([0])),
            (torch.tensor([[0.5, -4.0, 3.0]]), torch.tensor([2]))]
    pte = tmp_path / "two_writes.pte"
    ptera.export(module, runs[0], str(pte))
    _, got = _run_then(pte, runs, tmp_path)
    for j, inputs in enumerate(runs):
        with torch.no_grad():
            ref = eager(*[t.clone() for t in inputs])
        _compare(got[j], ref)
    # By hand: after run 1, rows 0..3 = x0, 2*x0, x1, 2*(x0 + 2*x0 + x1).
    x0, x1 = runs[0][0][0].numpy(), runs[1][0][0].numpy()
    np.testing.assert_allclose(got[1][0], np.stack([x0, 2 * x0, x1, 2 * (3 * x0 + x1)]))
