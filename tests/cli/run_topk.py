#!/usr/bin/env python3
"""`ptera run` prints the top classes of a [N] float output.

Runs the corpus program prim_input.pte (out = x * s, x: Float[4], s: Double)
on hand-made inputs x = [0.5, 3, -1, 3], s = 2, so out = [1, 6, -2, 6].
usage: run_topk.py PTERA CORPUS_DIR  (a missing corpus file fails the test)"""
import os, struct, subprocess, sys, tempfile

ptera, corpus = sys.argv[1], sys.argv[2]
pte = os.path.join(corpus, "pte", "corey-cole+djl-executorch-engine__native_spike_prim_input.pte")
if not os.path.exists(pte):
    print("FAIL: no", pte, "(the corpus is part of the test set)")
    sys.exit(1)


def npy(path, descr, shape, payload):
    hdr = "{'descr': '%s', 'fortran_order': False, 'shape': %s, }" % (descr, shape)
    hdr += " " * (63 - (10 + len(hdr)) % 64) + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(hdr)) + hdr.encode() + payload)


tmp = tempfile.mkdtemp()
x, s = os.path.join(tmp, "x.npy"), os.path.join(tmp, "s.npy")
npy(x, "<f4", "(4,)", struct.pack("<4f", 0.5, 3.0, -1.0, 3.0))
npy(s, "<f8", "()", struct.pack("<d", 2.0))
cases = [
    ([], "output 0: top-3: 1 (6.0000), 3 (6.0000), 0 (1.0000)"),
    (["--top", "2"], "output 0: top-2: 1 (6.0000), 3 (6.0000)"),
    (["--top", "10"], "output 0: top-4: 1 (6.0000), 3 (6.0000), 0 (1.0000), 2 (-2.0000)"),
    (["--top", "0"], None),
]
failed = 0
for extra, want in cases:
    p = subprocess.run([ptera, "run", pte, "--input", x, "--input", s] + extra,
                       capture_output=True, text=True)
    lines = p.stdout.splitlines()
    top = [l for l in lines if "top-" in l]
    ok = p.returncode == 0 and lines[:1] == ["output 0: Float[4] = 1 6 -2 6"] and \
        top == ([want] if want else [])
    print("%s: %s" % ("ok" if ok else "FAIL", " ".join(extra) or "(default)"))
    if not ok:
        print(p.stdout + p.stderr)
        failed += 1
sys.exit(1 if failed else 0)
