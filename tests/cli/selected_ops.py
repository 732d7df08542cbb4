#!/usr/bin/env python3
"""A selective kernel table (-DPTERA_SELECTED_OPS, kernels/selected_ops.cmake).

PTERA_SELECTED is the CLI linked with the table generated from LIST (the same
function the option uses, in this build tree): `ops` must list exactly LIST's names,
the linker must have dropped the other kernels (nm), a corpus program using only
listed ops runs and one needing another op fails with OperatorMissing. Then the real
option: configuring the source tree with a list naming an unknown operator must fail
at configure time, naming it.
usage: selected_ops.py PTERA_SELECTED LIST CORPUS_DIR CMAKE SOURCE_DIR SCRATCH_DIR"""
import os, shlex, shutil, subprocess, sys

exe, lst, corpus, cmake, src, scratch = sys.argv[1:7]
PREFIX = shlex.split(os.environ.get("PTERA_RUN_PREFIX", ""))
failed = 0


def fail(msg):
    global failed
    failed += 1
    print("FAIL:", msg)


want = [l.strip() for l in open(lst) if l.strip() and not l.strip().startswith("#")]
p = subprocess.run(PREFIX + [exe, "ops"], capture_output=True, text=True)
got = p.stdout.splitlines()
if p.returncode != 0 or sorted(got) != sorted(want):
    fail("ops lists %s, expected %s" % (got, want))

syms = subprocess.run(["nm", exe], capture_output=True, text=True).stdout.split()
for fn, present in [("pk_add_out", True), ("pk_cm_quantized_add_out", True), ("pk_sub_out", False),
                    ("pk_convolution_out", False), ("pk_cm_quantized_conv2d_out", False)]:
    if (fn in syms) != present:
        fail("%s is %s the binary" % (fn, "missing from" if present else "still linked into"))

pte = os.path.join(corpus, "pte")
p = subprocess.run(PREFIX + [exe, "run", os.path.join(pte, "pytorch+executorch__add.pte")], capture_output=True, text=True)
if p.returncode != 0 or "output 0" not in p.stdout:
    fail("add.pte does not run: %s %s" % (p.stdout, p.stderr))
p = subprocess.run(PREFIX + [exe, "run", os.path.join(pte, "pytorch+executorch__operator_and_model_testing_maxpool2d_pte_maxpool2d.pte")],
                   capture_output=True, text=True)
if p.returncode != 1 or "OperatorMissing" not in p.stderr:
    fail("maxpool2d.pte should fail with OperatorMissing: %s %s" % (p.stdout, p.stderr))

shutil.rmtree(scratch, ignore_errors=True)
os.makedirs(scratch)
bad = os.path.join(scratch, "bad_ops.txt")
with open(bad, "w") as f:
    f.write("aten::add.out\naten::no_such_op.out\n")
p = subprocess.run([cmake, "-S", src, "-B", os.path.join(scratch, "build"), "-DPTERA_SELECTED_OPS=" + bad,
                    "-DPTERA_BUILD_TESTS=OFF"], capture_output=True, text=True)
if p.returncode == 0 or "aten::no_such_op.out" not in p.stderr or "bad_ops.txt:2" not in p.stderr:
    fail("configuring with an unknown operator did not fail naming it (status %d): %s" % (p.returncode, p.stderr))
shutil.rmtree(scratch, ignore_errors=True)
print("selected ops: %d listed, %d failures" % (len(want), failed))
sys.exit(1 if failed else 0)
