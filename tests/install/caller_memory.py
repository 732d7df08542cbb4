"""examples/c_api/caller_memory.c: corpus programs loaded and run entirely
from one caller-owned block sized by the memory queries; every float output
must match ExecuTorch's own (expected/, rtol 1e-5), and the block's peak use
must fit the size the queries gave.

usage: caller_memory.py EXAMPLE CORPUS_DIR SCRATCH_DIR"""
import os
import subprocess
import sys

import numpy as np

exe, corpus, scratch = sys.argv[1:4]
os.makedirs(scratch, exist_ok=True)
CASES = [  # programs whose forward takes and returns Float tensors only
    "pytorch+executorch__add",
    "pytorch+executorch__test_models_deprecated_ModuleLinear-no-constant-segment",
    "pytorch+executorch__operator_and_model_testing_softmax_pte_softmax",
    "pytorch+executorch__operator_and_model_testing_conv2d_pte_conv2d_layer4_conv4a_1",
    "corey-cole+djl-executorch-engine__native_spike_conv",  # XNNPACK delegate
]
failures = runs = 0
for name in CASES:
    pte = os.path.join(corpus, "pte", name + ".pte")
    case = os.path.join(corpus, "expected", name, "forward", "case0")
    if not os.path.exists(pte) or not os.path.isdir(case):
        print("FAIL %s: not in the corpus" % name)
        failures += 1
        continue
    args = []
    k = 0
    while os.path.exists(os.path.join(case, "input_%d.npy" % k)):
        x = np.load(os.path.join(case, "input_%d.npy" % k)).astype("<f4")
        raw = os.path.join(scratch, "%s.in%d.f32" % (name, k))
        x.tofile(raw)
        args.append(raw)
        k += 1
    r = subprocess.run([exe, pte] + args, capture_output=True, text=True)
    runs += 1
    lines = r.stdout.splitlines()
    if r.returncode != 0:
        print("FAIL %s: exit %d: %s" % (name, r.returncode, r.stderr.strip()))
        failures += 1
        continue
    need = [int(w) for w in lines[0].split() if w.isdigit()]
    peak, cap = [int(w) for w in lines[-1].split() if w.isdigit()]
    if peak > cap or peak > sum(need) + 64:
        print("FAIL %s: peak %d over the %s bytes asked for" % (name, peak, need))
        failures += 1
    for line in lines[1:-1]:
        head, vals = line.split(":", 1)
        k = int(head.split()[1])
        got = np.array([float(v) for v in vals.split()], np.float32)
        want = np.load(os.path.join(case, "output_%d.npy" % k)).astype(np.float32).ravel()
        if got.shape != want.shape or not np.allclose(got, want, rtol=1e-5, atol=1e-6):
            print("FAIL %s output %d: max diff %s" % (name, k,
                  np.max(np.abs(got - want)) if got.shape == want.shape else "shape"))
            failures += 1
    print("ok %s: %s" % (name, lines[0]))
print("caller_memory: %d programs, %d failures" % (runs, failures))
sys.exit(1 if failures or runs == 0 else 0)
