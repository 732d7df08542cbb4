"""examples/c_api/custom_backend.c: the program make_custom_backend_pte
writes (forward(x) = mul(ExampleScaleShift(x), c), the backend computing
x * scale + shift with scale {2, 3, -4} from its blob and shift {0.5, -1, 2}
from the program's named data, c = {10, 20, 30}) run by the example, which
registers the backend before loading; the printed output must equal the
formula in float32. The same program without the named data entry must
fail at method creation with the backend's message.

usage: custom_backend.py MAKE_PTE EXAMPLE SCRATCH_DIR [EXAMPLE ...]"""
import os
import subprocess
import sys

import numpy as np

make, scratch = sys.argv[1], sys.argv[3]
examples = [sys.argv[2]] + sys.argv[4:]
os.makedirs(scratch, exist_ok=True)
pte = os.path.join(scratch, "custom_backend.pte")
bad = os.path.join(scratch, "custom_backend_no_shift.pte")
subprocess.run([make, pte], check=True)
subprocess.run([make, bad, "--no-shift"], check=True)
scale = np.array([2, 3, -4], np.float32)
shift = np.array([0.5, -1, 2], np.float32)
c = np.array([10, 20, 30], np.float32)
failures = 0
for exe in examples:
    for x in ([1, 2, 3], [-0.5, 0.25, 4]):
        xs = np.array(x, np.float32)
        want = (xs * scale + shift) * c
        r = subprocess.run([exe, pte] + [repr(v) for v in x], capture_output=True, text=True)
        got = None
        if r.returncode == 0 and r.stdout.startswith("output: "):
            got = np.array([float(v) for v in r.stdout.split()[1:]], np.float32)
        if got is None or not np.array_equal(got, want):
            print("FAIL %s %s: want %s, got %r %r" % (exe, x, want, r.stdout, r.stderr))
            failures += 1
    r = subprocess.run([exe, bad, "1", "2", "3"], capture_output=True, text=True)
    if r.returncode != 1 or "ExampleScaleShift: the shift values are not in the program's named data" not in r.stderr:
        print("FAIL %s: without the named data, want the backend's refusal, got %d %r" % (exe, r.returncode, r.stderr))
        failures += 1
r = subprocess.run([examples[0], pte, "1"], capture_output=True, text=True)
if r.returncode != 2:
    print("FAIL: a bad command line should be a usage error (2), got %d" % r.returncode)
    failures += 1
print("custom_backend: %d example(s), %d failures" % (len(examples), failures))
sys.exit(1 if failures else 0)
