#!/usr/bin/env python3
"""Every numeric option of every command refuses a bad value with a usage
error (exit status 2) before doing any work, and accepts a good one; verify
on a .pte or .ptd says what the file is.

usage: options.py PTERA CORPUS_DIR
"""
import os
import subprocess
import sys

PTERA, CORPUS = sys.argv[1], sys.argv[2]
PTE = os.path.join(CORPUS, "pte", "pytorch+executorch__add.pte")
BPTE = os.path.join(CORPUS, "pte", "pytorch+executorch__extension_module_test_resources_bundled_program.bpte")
PTD = os.path.join(CORPUS, "pte", "pytorch+executorch__extension_module_test_resources_linear.ptd")
failures = 0


def ptera(*args):
    return subprocess.run([PTERA, *args], capture_output=True, text=True, timeout=60)


def expect(args, rc, needle=None):
    global failures
    r = ptera(*args)
    out = r.stdout + r.stderr
    if r.returncode != rc or (needle and needle not in out):
        failures += 1
        print(f"FAIL ptera {' '.join(args)}: exit {r.returncode} (want {rc}), want {needle!r} in:\n{out}")


BAD_COUNTS = ["abc", "-1", "", "1.5", "12x", " 3", "+3", "99999999999999999999999"]
for opt in ("--show", "--top", "--random"):
    for v in BAD_COUNTS:
        expect(["run", PTE, opt, v], 2, f"{opt} takes a whole number")
    expect(["run", PTE, opt, "2"], 0)
for opt in ("--rtol", "--atol"):
    for v in ["abc", "-1", "", "nan", "inf", "1e999", "1e-3x", " 1"]:
        expect(["verify", BPTE, opt, v], 2, f"{opt} takes a finite number >= 0")
    expect(["verify", BPTE, opt, "1e-3"], 0, "10 passed, 0 failed")
    expect(["verify", BPTE, opt, "0"], 0, "10 passed, 0 failed")
expect(["verify", PTE], 1, "is a program (.pte), not a bundled program")
expect(["verify", PTD], 1, "is a data file (.ptd), not a bundled program")
expect(["inspect", BPTE], 0, "suite 0: method forward, 10 cases")
expect(["inspect", PTD], 0, "entry 1 'linear.bias': Float[3] dim_order [0], 12 bytes at offset 320")
# A value that is missing is an incomplete option, also a usage error.
expect(["run", PTE, "--show"], 2)
expect(["verify", BPTE, "--rtol"], 2)
if failures:
    sys.exit(f"{failures} failures")
print("OK")
