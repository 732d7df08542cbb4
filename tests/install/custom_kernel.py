"""examples/c_api/custom_kernel.c: the program make_custom_op_pte writes
(forward(x) = f(f(x, c), c), f(a, b) = a * b + 1, c = {10, 20, 30}) run by
the example, whose kernel for example::mul_add_one.out is registered before
loading; the printed output must equal the formula in float32.

usage: custom_kernel.py MAKE_PTE EXAMPLE SCRATCH_DIR [EXAMPLE ...]"""
import os
import subprocess
import sys

import numpy as np

make, scratch = sys.argv[1], sys.argv[3]
examples = [sys.argv[2]] + sys.argv[4:]
os.makedirs(scratch, exist_ok=True)
pte = os.path.join(scratch, "custom_op.pte")
subprocess.run([make, pte], check=True)
c = np.array([10, 20, 30], np.float32)
failures = 0
for exe in examples:
    for x in ([1, 2, 3], [-0.5, 0.25, 4]):
        xs = np.array(x, np.float32)
        want = (xs * c + np.float32(1)) * c + np.float32(1)
        r = subprocess.run([exe, pte] + [repr(v) for v in x], capture_output=True, text=True)
        got = None
        if r.returncode == 0 and r.stdout.startswith("output: "):
            got = np.array([float(v) for v in r.stdout.split()[1:]], np.float32)
        if got is None or not np.array_equal(got, want):
            print("FAIL %s %s: want %s, got %r %r" % (exe, x, want, r.stdout, r.stderr))
            failures += 1
r = subprocess.run([examples[0], pte, "1"], capture_output=True, text=True)
if r.returncode != 2:
    print("FAIL: a bad command line should be a usage error (2), got %d" % r.returncode)
    failures += 1
print("custom_kernel: %d example(s), %d failures" % (len(examples), failures))
sys.exit(1 if failures else 0)
