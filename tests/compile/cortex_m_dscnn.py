#!/usr/bin/python3
"""A keyword-spotting DS-CNN through `ptera compile --backend cortex_m`, bit-exact
against an independent numpy reference of the same static int8 arithmetic.

    cortex_m_dscnn.py PTERA WORKDIR            the test (ctest cortex_m_dscnn)
    cortex_m_dscnn.py PTERA WORKDIR --emit DIR also writes DIR/dscnn.pte,
        DIR/dscnn_input.npy and the reference outputs DIR/dscnn_want_<k>.npy
        (scripts/test_mcu.sh runs the program under QEMU)

A second small model (Residual) covers the layout conversions, the residual
add and max pooling the DS-CNN does not use.

The model (torch.nn.Module, MFCC-shaped input [1, 1, 49, 10]): conv 4x4 stride
(3, 2) + ReLU -> depthwise 3x3 + ReLU -> pointwise 1x1 + ReLU -> average pool
over the whole 16x4 map -> linear -> softmax; forward returns (logits, probs).
It is exported with ptera's front end (ptera.export, backend="cortex_m",
calibration generated here).

The reference never calls ptera. It measures the activation ranges with torch
eager on the same calibration samples, derives the parameters with PyTorch's
PT2E observer formulas (MinMaxObserver per-tensor affine int8 activations,
symmetric int8 weights in [-127, 127] per output channel for the convolutions
and per tensor for the linear), quantizes weights and biases, and runs the
CMSIS-NN scalar arithmetic of CORTEX_M.md (tests/conformance/gen_cortex_m.py,
its numpy transcription). Weights, biases and calibration inputs lie on a
dyadic grid small enough that every fp32 sum in the calibration passes is
exact in any order, so the ranges ptera measures with its own kernels and
those torch measures are the same floats, and the comparison can be exact.
Accuracy against fp32 eager on random (off-grid) inputs is printed and
loosely bounded.
"""
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'python'))
sys.path.insert(0, os.path.join(HERE, '..', 'conformance'))
import gen_cortex_m as cm  # noqa: E402

import torch  # noqa: E402
import torch.nn as nn  # noqa: E402

C, CLASSES = 8, 6
F32 = np.float32


class DSCNN(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, C, (4, 4), stride=(3, 2))
        self.dw = nn.Conv2d(C, C, 3, padding=1, groups=C)
        self.pw = nn.Conv2d(C, C, 1)
        self.pool = nn.AvgPool2d((16, 4))
        self.fc = nn.Linear(C, CLASSES)

    def forward(self, x):
        x = torch.relu(self.conv(x))
        x = torch.relu(self.dw(x))
        x = torch.relu(self.pw(x))
        logits = self.fc(self.pool(x).flatten(1))
        return logits, torch.softmax(logits, dim=-1)


class Residual(nn.Module):
    """Layouts and the other lowered ops: a 3-channel input (converted to
    channels-last), conv + ReLU, conv, residual add + ReLU, 2x2 max pool, a
    4-D output (converted back)."""

    def __init__(self):
        super().__init__()
        self.c1 = nn.Conv2d(3, 4, 3, padding=1)
        self.c2 = nn.Conv2d(4, 4, 3, padding=1)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        a = torch.relu(self.c1(x))
        return self.pool(torch.relu(a + self.c2(a)))


def grid(rng, shape, lo, hi, exp):
    """Integers in [lo, hi] times 2^exp (exact in float32)."""
    return (rng.integers(lo, hi + 1, size=shape) * 2.0 ** exp).astype(F32)


def make_model(rng, cls=None, layers=None):
    m = (cls or DSCNN)().eval()
    with torch.no_grad():
        for layer, bexp in (layers(m) if layers else
                            ((m.conv, -5), (m.dw, -7), (m.pw, -9), (m.fc, -11))):
            layer.weight.copy_(torch.from_numpy(grid(rng, tuple(layer.weight.shape), -2, 2, -2)))
            layer.bias.copy_(torch.from_numpy(grid(rng, tuple(layer.bias.shape), -8, 8, bexp)))
    return m


# ---- the reference: PT2E parameters (float32, as the observers compute them)
def affine_params(lo, hi):
    lo, hi = F32(min(lo, 0.0)), F32(max(hi, 0.0))
    scale = F32((hi - lo) / F32(255))
    scale = max(scale, F32(np.finfo(F32).eps))
    zp = int(np.clip(-128 - np.rint(F32(lo / scale)), -128, 127))
    return scale, zp


def sym_scale(w):
    amax = F32(max(-min(float(w.min()), 0.0), max(float(w.max()), 0.0)))
    return max(F32(amax / F32(127)), F32(np.finfo(F32).eps))


def quantize(x, scale, lo, hi):
    inv = F32(1.0 / float(scale))
    return np.clip(np.rint((np.asarray(x, F32) * inv).astype(F32)), lo, hi).astype(np.int64)


def observe(model, samples):
    """min/max of each quantized activation over the samples, with torch eager."""
    seen = {}

    def note(k, t):
        a = t.detach().numpy()
        lo, hi = seen.get(k, (np.inf, -np.inf))
        seen[k] = (min(lo, float(a.min())), max(hi, float(a.max())))

    with torch.no_grad():
        for x in samples:
            t = torch.from_numpy(x)
            note('x', t)
            t = torch.relu(model.conv(t))
            note('conv', t)
            t = torch.relu(model.dw(t))
            note('dw', t)
            t = torch.relu(model.pw(t))
            note('pw', t)
            note('fc', model.fc(model.pool(t).flatten(1)))
    return {k: affine_params(*v) for k, v in seen.items()}


def ref_conv(model_layer, q_in, s_in, zp_in, s_out, zp_out, groups, stride, pad):
    w = model_layer.weight.detach().numpy()
    b = model_layer.bias.detach().numpy()
    oc = w.shape[0]
    sw = [sym_scale(w[o]) for o in range(oc)]
    qw = np.stack([quantize(w[o], sw[o], -127, 127) for o in range(oc)])  # OIHW
    qb = np.array([quantize(b[o], F32(s_in * sw[o]), -2 ** 31, 2 ** 31 - 1) for o in range(oc)])
    ms = [cm.quantize_multiplier(float(s_in) * float(sw[o]) / float(s_out)) for o in range(oc)]
    acc = cm.conv_ref(q_in, qw.transpose(0, 2, 3, 1), qb, stride, pad, (1, 1), -zp_in, groups)
    m = np.array([a for a, _ in ms], np.int64)
    s = np.array([b for _, b in ms], np.int64)
    return cm.per_channel_requant(acc, m, s, zp_out, max(zp_out, -128), 127)  # fused ReLU


def reference(model, params, x):
    """(logits, probs) of the int8 program for one input, dequantized."""
    s_x, zp_x = params['x']
    q = cm.ref_quant(x, s_x, zp_x, -128, 127, np.int8).astype(np.int64)
    s, zp = s_x, zp_x
    for name, groups, stride, pad in (('conv', 1, (3, 2), (0, 0)), ('dw', C, (1, 1), (1, 1)),
                                      ('pw', 1, (1, 1), (0, 0))):
        so, zo = params[name]
        q = ref_conv(getattr(model, name), q, s, zp, so, zo, groups, stride, pad).astype(np.int64)
        s, zp = so, zo
    q = cm.pool_ref(q, (16, 4), (16, 4), (0, 0), False, cm.avg_red).reshape(1, C)  # keeps s, zp
    w = model.fc.weight.detach().numpy()
    b = model.fc.bias.detach().numpy()
    sw = sym_scale(w)
    qw = quantize(w, sw, -127, 127)
    qb = quantize(b, F32(s * sw), -2 ** 31, 2 ** 31 - 1)
    s_fc, zp_fc = params['fc']
    m, sh = cm.quantize_multiplier(float(s) * float(sw) / float(s_fc))
    acc = (q.astype(np.int64) - zp) @ qw.T + qb
    logits = cm.requant_out(acc, m, sh, zp_fc, -128, 127)
    sm_m, sm_s, diff_min = cm.softmax_params(float(s_fc))
    probs = np.array([cm.softmax_row([int(v) for v in logits[0]], sm_m, sm_s, diff_min)], np.int8)

    def deq(v, scale, zero):
        return ((v.astype(np.int64) - zero).astype(F32) * F32(scale)).astype(F32)

    return deq(logits, s_fc, zp_fc), deq(probs, 1.0 / 256, -128)


def residual_reference(model, samples, x):
    seen = {}
    with torch.no_grad():
        for t in samples:
            t = torch.from_numpy(t)
            a = torch.relu(model.c1(t))
            b = model.c2(a)
            for k, v in (('x', t), ('a', a), ('b', b), ('c', torch.relu(a + b))):
                lo, hi = seen.get(k, (np.inf, -np.inf))
                seen[k] = (min(lo, float(v.min())), max(hi, float(v.max())))
    p = {k: affine_params(*v) for k, v in seen.items()}
    (sx, zx), (sa, za), (sb, zb), (sc, zc) = p['x'], p['a'], p['b'], p['c']
    q = cm.ref_quant(x, sx, zx, -128, 127, np.int8).astype(np.int64)
    qa = ref_conv(model.c1, q, sx, zx, sa, za, 1, (1, 1), (1, 1)).astype(np.int64)
    # c2 has no ReLU: clamp at -128, so undo the fused-ReLU clamp of ref_conv
    w = model.c2.weight.detach().numpy()
    bias = model.c2.bias.detach().numpy()
    sw = [sym_scale(w[o]) for o in range(4)]
    qw = np.stack([quantize(w[o], sw[o], -127, 127) for o in range(4)])
    qbias = np.array([quantize(bias[o], F32(sa * sw[o]), -2 ** 31, 2 ** 31 - 1) for o in range(4)])
    ms = [cm.quantize_multiplier(float(sa) * float(sw[o]) / float(sb)) for o in range(4)]
    acc = cm.conv_ref(qa, qw.transpose(0, 2, 3, 1), qbias, (1, 1), (1, 1), (1, 1), -za, 1)
    qb = cm.per_channel_requant(acc, np.array([m for m, _ in ms], np.int64),
                                np.array([e for _, e in ms], np.int64), zb, -128, 127).astype(np.int64)
    # quantized_add (CORTEX_M.md 3.3), ReLU fused: clamp at the output zero point
    big = 2.0 * max(float(sa), float(sb))
    m1, s1 = cm.quantize_multiplier(float(sa) / big)
    m2, s2 = cm.quantize_multiplier(float(sb) / big)
    mo, so = cm.quantize_multiplier(big / (float(sc) * 2 ** 20))
    u = cm.requant((qa - za) << 20, m1, s1) + cm.requant((qb - zb) << 20, m2, s2)
    qc = np.clip(cm.requant(u, mo, so) + zc, max(zc, -128), 127).astype(np.int64)
    qm = cm.pool_ref(qc, (2, 2), (2, 2), (0, 0), False, lambda win: win.max(axis=-1))
    return ((qm.astype(np.int64) - zc).astype(F32) * F32(sc)).astype(F32)


def check_residual(ptera, work, rng):
    """The second model: returns the number of mismatches."""
    import ptera as pt
    model = make_model(rng, Residual, lambda m: ((m.c1, -5), (m.c2, -7)))
    samples = [grid(rng, (1, 3, 8, 8), -8, 8, -3) for _ in range(4)]
    pte = os.path.join(work, 'residual.pte')
    r = pt.export(model, (torch.from_numpy(samples[0]),), pte, backend='cortex_m',
                  calibration=samples, ptera_bin=ptera)
    print(r.report, end='')
    bad = 0
    if '(2 layout conversions)' not in r.report:
        bad += 1
        print('FAIL: expected the input and the output converted between layouts')
    for t in range(3):
        x = rng.standard_normal((1, 3, 8, 8)).astype(F32)
        got = run_ptera(ptera, pte, x, work, 'r%d' % t, 1)[0]
        want = residual_reference(model, samples, x)
        if got.shape != want.shape or not np.array_equal(got, want):
            bad += 1
            print('FAIL residual input %d: ptera %s, numpy %s' % (t, got.ravel()[:8], want.ravel()[:8]))
    print('cortex_m residual (layouts, add, max pool): 3 inputs, %d mismatches' % bad)
    return bad + check_cli(ptera, work, model, samples, pte)


def check_cli(ptera, work, model, samples, api_pte):
    """`python3 -m ptera.export --backend cortex_m --calibration DIR` on the
    same model and samples writes the same program as ptera.export(); without
    samples, or with an empty DIR, it fails with the compiler's message.
    Returns the number of failures."""
    import subprocess
    torch.save(model.state_dict(), os.path.join(work, 'residual.pt'))
    with open(os.path.join(work, 'residual_spec.py'), 'w') as f:
        f.write('import sys, torch\n'
                'sys.path.insert(0, %r)\n'
                'from cortex_m_dscnn import Residual\n'
                'def make():\n'
                '    m = Residual().eval()\n'
                '    m.load_state_dict(torch.load(%r))\n'
                '    return m, (torch.zeros(1, 3, 8, 8),)\n'
                % (os.path.dirname(os.path.abspath(__file__)), os.path.join(work, 'residual.pt')))
    cal = os.path.join(work, 'residual_cal')
    for s, x in enumerate(samples):
        os.makedirs(os.path.join(cal, 's%d' % s), exist_ok=True)
        np.save(os.path.join(cal, 's%d' % s, 'input0.npy'), x)
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([work, os.path.join(repo, 'python')]))
    cli_pte = os.path.join(work, 'residual_cli.pte')
    base = [sys.executable, '-m', 'ptera.export', 'residual_spec:make', cli_pte,
            '--backend', 'cortex_m', '--ptera', ptera]
    bad = 0
    p = subprocess.run(base + ['--calibration', cal], capture_output=True, text=True, env=env)
    with open(api_pte, 'rb') as a:
        same = p.returncode == 0 and open(cli_pte, 'rb').read() == a.read()
    if not same:
        bad += 1
        print('FAIL: ptera.export --calibration: exit %d, same program: %s\n%s'
              % (p.returncode, same, p.stderr))
    p = subprocess.run(base, capture_output=True, text=True, env=env)
    if p.returncode != 1 or 'calibration is needed' not in p.stderr:
        bad += 1
        print('FAIL: ptera.export --backend cortex_m without --calibration: exit %d %s'
              % (p.returncode, p.stderr))
    empty = os.path.join(work, 'residual_cal_empty')
    os.makedirs(empty, exist_ok=True)
    p = subprocess.run(base + ['--calibration', empty], capture_output=True, text=True, env=env)
    if p.returncode != 1 or 'no sample subdirectories' not in p.stderr:
        bad += 1
        print('FAIL: ptera.export --calibration EMPTY_DIR: exit %d %s' % (p.returncode, p.stderr))
    print('cortex_m via python3 -m ptera.export --calibration: %d failures' % bad)
    return bad


def check_errors(ptera, work):
    """An operator with no cortex_m form fails the compile naming the node;
    the CLI insists on calibration. Returns the number of failures."""
    import subprocess
    import ptera as pt

    class Tanh(nn.Module):
        def forward(self, x):
            return torch.tanh(x)

    bad = 0
    x = np.ones((1, 4), F32)
    try:
        pt.export(Tanh(), (torch.from_numpy(x),), os.path.join(work, 'tanh.pte'),
                  backend='cortex_m', calibration=[x], ptera_bin=ptera)
        bad += 1
        print('FAIL: tanh compiled for cortex_m')
    except RuntimeError as e:
        if "node 0 ('aten::tanh.out') has no cortex_m form" not in str(e):
            bad += 1
            print('FAIL: unexpected error: %s' % e)
    p = subprocess.run([ptera, 'compile', 'in.ptg', 'out.pte', '--backend', 'cortex_m'],
                       capture_output=True, text=True)
    if p.returncode != 1 or 'needs --calibration DIR' not in p.stderr:
        bad += 1
        print('FAIL: --backend cortex_m without --calibration: %d %s' % (p.returncode, p.stderr))
    return bad


def run_ptera(ptera, pte, x, work, tag, nout=2):
    import subprocess
    inp = os.path.join(work, '%s_in.npy' % tag)
    out = os.path.join(work, '%s_out' % tag)
    np.save(inp, x)
    subprocess.run([ptera, 'run', pte, '--input', inp, '--output-dir', out], check=True,
                   stdout=subprocess.DEVNULL)
    return [np.load(os.path.join(out, 'output_%d.npy' % k)) for k in range(nout)]


def main():
    args = sys.argv[1:]
    emit = None
    if '--emit' in args:
        i = args.index('--emit')
        emit = args[i + 1]
        del args[i:i + 2]
    ptera, work = args
    os.makedirs(work, exist_ok=True)
    import ptera as pt
    rng = np.random.default_rng(49)
    model = make_model(rng)
    samples = [grid(rng, (1, 1, 49, 10), -8, 8, -3) for _ in range(8)]
    pte = os.path.join(work, 'dscnn.pte')
    r = pt.export(model, (torch.from_numpy(samples[0]),), pte, backend='cortex_m',
                  calibration=samples, ptera_bin=ptera)
    print(r.report, end='')
    params = observe(model, samples)
    failures = 0
    tests = [rng.standard_normal((1, 1, 49, 10)).astype(F32) for _ in range(6)] + samples[:2]
    agree, worst = 0, 0.0
    for t, x in enumerate(tests):
        got = run_ptera(ptera, pte, x, work, 't%d' % t)
        want = reference(model, params, x)
        for k in range(2):
            if got[k].shape != want[k].shape or not np.array_equal(got[k], want[k]):
                failures += 1
                print('FAIL input %d output %d: ptera %s, numpy %s' % (t, k, got[k].ravel(), want[k].ravel()))
        with torch.no_grad():
            ref_logits, ref_probs = model(torch.from_numpy(x))
        agree += int(np.argmax(got[1]) == int(ref_probs.argmax()))
        worst = max(worst, float(np.abs(got[1] - ref_probs.numpy()).max()))
    print('cortex_m DS-CNN: %d inputs bit-exact to numpy (%d mismatches); vs fp32 eager: '
          'top-1 agrees on %d/%d, max |prob diff| %.4f' % (len(tests), failures, agree, len(tests), worst))
    failures += check_residual(ptera, work, rng)
    failures += check_errors(ptera, work)
    if worst > 0.1:
        failures += 1
        print('FAIL: int8 probabilities too far from fp32 eager')
    if emit:
        import shutil
        os.makedirs(emit, exist_ok=True)
        shutil.copy(pte, os.path.join(emit, 'dscnn.pte'))
        np.save(os.path.join(emit, 'dscnn_input.npy'), tests[0])
        for k, w in enumerate(reference(model, params, tests[0])):
            np.save(os.path.join(emit, 'dscnn_want_%d.npy' % k), w)
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
