#!/usr/bin/env python3
"""`ptera compile` end to end: writes a small .ptg (text + generated data
section), compiles it (weights inside, then external with fqn and hash
keys), runs the result with `ptera run` and checks the hand-computed output;
compiles a captured-style linear layer under each target op set and checks
the program's operators against kernels/opsets.def and its outputs by hand
(with a weights-only update under the portable target); then checks the
CLI's error messages.

usage: test_compile_cli.py PTERA WORKDIR
"""
import json
import os
import re
import struct
import shlex
import subprocess
import sys

PTERA, WORK = sys.argv[1], sys.argv[2]
os.makedirs(WORK, exist_ok=True)
failures = 0


def check(cond, what):
    global failures
    if not cond:
        failures += 1
        print("FAIL:", what)


def f32(*v):
    return struct.pack("<%df" % len(v), *v)


# forward(x) = relu(linear(x, W, b1 + b2) + b2'), b2' a copy of b2; plus a
# dead relu(x). b1 + b2 folds, b2' merges into b2, the dead call goes.
W = f32(1, 0, 0, 0, 0, 1, 0, 0, 1, 1, 1, 1)
B1 = f32(0.5, -10, 0)
B2 = f32(1, 2, 3)
DATA = W + B1 + b"\0" * 4 + B2 + b"\0" * 4 + B2 + b"\0" * 4
assert len(DATA) == 96
PTG = """ptg 1
# linear + relu with a foldable bias, a duplicate constant and a dead call
method forward
value 0 tensor Float 2,4
value 1 tensor Float 3,4 const=0:48 fqn=fc.weight
value 2 tensor Float 3 const=48:12 fqn=fc.b1
value 3 tensor Float 3 const=64:12 fqn=fc.b2
value 4 int 1
value 5 tensor Float 3
value 6 tensor Float 2,3
value 7 tensor Float 3 const=80:12
value 8 tensor Float 2,3
value 9 tensor Float 2,3
value 10 tensor Float 2,4
inputs 0
outputs 9
begin no_grad
node aten::add.out 2 3 4 !5
end
node aten::linear.out 0 1 5 !6
node aten::add.out 6 7 4 !8
node aten::relu.out 8 !9
node aten::relu.out 0 !10
data 96
"""
# x W^T = [[1, 2, 10], [-1, -2, -10]]; + (b1 + b2) = + [1.5, -8, 3]
# = [[2.5, -6, 13], [0.5, -10, -7]]; + b2 = [[3.5, -4, 16], [1.5, -8, -4]]
WANT = [3.5, 0, 16, 1.5, 0, 0]
X = [1, 2, 3, 4, -1, -2, -3, -4]

ptg = os.path.join(WORK, "model.ptg")
with open(ptg, "wb") as f:
    f.write(PTG.encode() + DATA)


def npy_f32(path, shape, values):
    header = "{'descr': '<f4', 'fortran_order': False, 'shape': (%s), }" % (
        "".join("%d, " % s for s in shape))
    pad = 16 - (10 + len(header) + 1) % 16
    header += " " * pad + "\n"
    with open(path, "wb") as f:
        f.write(b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode())
        f.write(f32(*values))


def read_npy_f32(path):
    with open(path, "rb") as f:
        b = f.read()
    hlen = struct.unpack("<H", b[8:10])[0]
    body = b[10 + hlen:]
    return list(struct.unpack("<%df" % (len(body) // 4), body))


xin = os.path.join(WORK, "x.npy")
npy_f32(xin, (2, 4), X)


# PTERA_RUN_PREFIX (e.g. valgrind, as scripts/test_deep.sh sets it) goes
# before every ptera command; its error status (PTERA_RUN_PREFIX_ERROR,
# default 99) fails the test whatever the command was expected to do.
PREFIX = shlex.split(os.environ.get("PTERA_RUN_PREFIX", ""))
PREFIX_ERROR = int(os.environ.get("PTERA_RUN_PREFIX_ERROR", "99"))


def ptera(*args):
    p = subprocess.run(PREFIX + [PTERA] + list(args), capture_output=True, text=True)
    if PREFIX and p.returncode == PREFIX_ERROR:
        check(False, "%s reported errors on ptera %s:\n%s" % (PREFIX[0], " ".join(args), p.stderr))
    return p.returncode, p.stdout, p.stderr


FOLDED = "5 -> 3 nodes (fused 0, transposed 0, folded 1, merged 1 constants / 12 B, removed 1, views 0, bn-folded 0)"
# Weights in a .ptd under their names may be replaced later: nothing that
# reads fc.b1/fc.b2 is folded and they are not merged.
KEPT = "5 -> 4 nodes (fused 0, transposed 0, folded 0, merged 0 constants / 0 B, removed 1, views 0, bn-folded 0)"


def compile_and_run(tag, extra, data_args, report=FOLDED):
    """model.ptg calls aten::linear.out: it needs an op set that has it."""
    pte = os.path.join(WORK, tag + ".pte")
    for p in [pte] + data_args[1::2]:
        if os.path.exists(p):
            os.remove(p)
    rc, out, err = ptera("compile", ptg, pte, "--ops", "executorch-optimized", *extra)
    check(rc == 0, "%s: compile exits 0 (%s)" % (tag, err.strip()))
    if rc != 0:
        return out
    check(("method forward: " + report) in out,
          "%s: report line: %r" % (tag, out))
    check("planned " in out and "no reuse" in out, "%s: planned bytes reported" % tag)
    check(("wrote %s (%d B)" % (pte, os.path.getsize(pte))) in out, "%s: .pte size reported" % tag)
    outdir = os.path.join(WORK, tag + "_out")
    rc, rout, err = ptera("run", pte, "--input", xin, "--output-dir", outdir, *data_args)
    check(rc == 0, "%s: run exits 0 (%s)" % (tag, err.strip()))
    if rc == 0:
        y = read_npy_f32(os.path.join(outdir, "output_0.npy"))
        check(y == WANT, "%s: output %r, want %r" % (tag, y, WANT))
    leftovers = [n for n in os.listdir(WORK) if ".tmp" in n]
    check(not leftovers, "%s: no temporary files left: %r" % (tag, leftovers))
    return out


compile_and_run("inside", [], [])
ptd = os.path.join(WORK, "fqn.ptd")
out = compile_and_run("fqn", ["--external-weights", ptd], ["--data", ptd], KEPT)
check(os.path.exists(ptd) and ("wrote %s (%d B" % (ptd, os.path.getsize(ptd))) in out,
      "fqn: .ptd written and reported")
# Without the weights file the program cannot run.
rc, _, err = ptera("run", os.path.join(WORK, "fqn.pte"), "--input", xin)
check(rc == 1 and err.startswith("ptera: "), "fqn: running without the .ptd fails: %r" % err)
ptd = os.path.join(WORK, "hash.ptd")
compile_and_run("hash", ["--external-weights", ptd, "--weight-keys", "hash"], ["--data", ptd])
# Passes off: nothing folded, merged or removed; the output is the same.
rc, out, err = ptera("compile", ptg, os.path.join(WORK, "nopass.pte"), "--no-constprop",
                     "--no-dedup", "--no-dce", "--ops", "ptera")
check(rc == 0 and "5 -> 5 nodes (fused 0, transposed 0, folded 0, merged 0 constants / 0 B, "
      "removed 0, views 0, bn-folded 0)" in out and "op set ptera" in out, "no passes: %r %r" % (out, err))
rc, out, err = ptera("compile", ptg, os.path.join(WORK, "quiet.pte"), "--quiet", "--ops", "ptera")
check(rc == 0 and out == "", "--quiet prints nothing: %r" % out)

# ---- target op sets ----
# The op sets as kernels/opsets.def defines them (opset.h): PORTABLE entries;
# those plus OPTIMIZED ones; every registered kernel (`ptera ops`).
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
with open(os.path.join(REPO, "kernels", "opsets.def")) as f:
    table = re.findall(r'PTERA_OPSET\("([^"]+)", (PORTABLE|OPTIMIZED)\)',
                       re.sub(r"/\*.*?\*/", "", f.read(), flags=re.S))
rc, ops_out, _ = ptera("ops")
OPSETS = {"executorch-portable": {n for n, lib in table if lib == "PORTABLE"},
          "executorch-optimized": {n for n, _ in table},
          "ptera": set(ops_out.split())}
check(rc == 0 and "aten::linear.out" in OPSETS["executorch-optimized"] - OPSETS["executorch-portable"]
      and OPSETS["executorch-optimized"] <= OPSETS["ptera"], "op set tables")


def program_ops(pte):
    rc, out, err = ptera("inspect", pte, "--json")
    check(rc == 0, "inspect %s: %s" % (pte, err))
    ops = json.loads(out)["methods"][0]["operators"] if rc == 0 else []
    return [o["name"] + ("." + o["overload"] if o["overload"] else "") for o in ops]


# The default target has no linear.out: a program calling it is refused,
# naming the operator, the node (index in the .ptg; node 3 after the region
# markers and the add) and the op set; nothing is written.
refused = os.path.join(WORK, "refused.pte")
rc, out, err = ptera("compile", ptg, refused)
check(rc == 1 and err.strip() == "ptera: OperatorMissing: %s: method 'forward': node 3 calls "
      "'aten::linear.out', which is not in op set 'executorch-portable' (it is in op set "
      "'executorch-optimized')" % ptg and not os.path.exists(refused),
      "linear.out refused under executorch-portable: %d %r" % (rc, err))
rc, out, err = ptera("compile", ptg, refused, "--ops", "executorch-portable", "--no-fuse")
check(rc == 1 and "'aten::linear.out'" in err and not os.path.exists(refused),
      "explicit --ops executorch-portable refuses it too: %r" % err)

# A linear layer as the front end captures it: T = t(W); y = addmm(b, x, T);
# z = mm(x, T). x W^T = [[1, 2, 10], [-1, -2, -10]]; y = that + [1, 2, 3].
LIN = """ptg 1
method forward
value 0 tensor Float 2,4
value 1 tensor Float 3,4 const=0:48 fqn=fc.weight
value 2 tensor Float 3 const=48:12 fqn=fc.bias
value 3 tensor Float 4,3
value 4 int 1
value 5 tensor Float 2,3
value 6 tensor Float 2,3
inputs 0
outputs 5 6
node aten::t_copy.out 1 !3
node aten::addmm.out 2 0 3 4 4 !5
node aten::mm.out 0 3 !6
data 64
"""
XWT = [1, 2, 10, -1, -2, -10]
LIN_WANT = ([v + b for v, b in zip(XWT, [1, 2, 3] * 2)], XWT)


def write_lin(path, scale):
    with open(path, "wb") as f:
        f.write(LIN.encode() + f32(*[scale * v for v in struct.unpack("<12f", W)]) + B2
                + b"\0" * 4)


lin = os.path.join(WORK, "lin.ptg")
write_lin(lin, 1)
# (op set, weights) -> operators the program must call exactly, "transposed" count
EXPECT = {
    ("executorch-portable", "inside"): (["aten::addmm.out", "aten::mm.out"], 1),
    ("executorch-portable", "hash"): (["aten::addmm.out", "aten::mm.out"], 1),
    # replaceable by name: W stays, transposed at run time as ExecuTorch does
    ("executorch-portable", "fqn"): (["aten::permute_copy.out", "aten::addmm.out",
                                      "aten::mm.out"], 0),
}
for opset in OPSETS:
    for weights in ("inside", "fqn", "hash"):
        tag = "lin_%s_%s" % (opset, weights)
        pte, ptd = os.path.join(WORK, tag + ".pte"), os.path.join(WORK, tag + ".ptd")
        extra = {"inside": [], "fqn": ["--external-weights", ptd],
                 "hash": ["--external-weights", ptd, "--weight-keys", "hash"]}[weights]
        rc, out, err = ptera("compile", lin, pte, "--ops", opset, *extra)
        check(rc == 0 and ("op set %s\n" % opset) in out, "%s: compile: %r" % (tag, err))
        if rc != 0:
            continue
        want_ops, transposed = EXPECT.get((opset, weights), (["aten::linear.out"], 0))
        got = program_ops(pte)
        check(sorted(got) == sorted(want_ops), "%s: operators %r, want %r" % (tag, got, want_ops))
        check(set(got) <= OPSETS[opset], "%s: %r outside the op set" % (tag, got))
        check(("transposed %d," % transposed) in out, "%s: report %r" % (tag, out))
        outdir = os.path.join(WORK, tag + "_out")
        rc, _, err = ptera("run", pte, "--input", xin, "--output-dir", outdir,
                           *(["--data", ptd] if weights != "inside" else []))
        check(rc == 0, "%s: run: %s" % (tag, err))
        for k in (0, 1) if rc == 0 else ():
            y = read_npy_f32(os.path.join(outdir, "output_%d.npy" % k))
            check(y == LIN_WANT[k], "%s: output %d %r, want %r" % (tag, k, y, LIN_WANT[k]))

# Weights-only update under the default target: the .ptd of an export with
# W doubled runs with the first program and doubles x W^T.
lin2 = os.path.join(WORK, "lin2.ptg")
write_lin(lin2, 2)
ptd2 = os.path.join(WORK, "lin2.ptd")
rc, _, err = ptera("compile", lin2, os.path.join(WORK, "lin2.pte"), "--external-weights", ptd2)
check(rc == 0, "lin2: compile: %s" % err)
outdir = os.path.join(WORK, "lin_update_out")
rc, _, err = ptera("run", os.path.join(WORK, "lin_executorch-portable_fqn.pte"), "--input", xin,
                   "--data", ptd2, "--output-dir", outdir)
check(rc == 0, "update: run: %s" % err)
if rc == 0:
    for k in (0, 1):
        want = [2 * v + (b if k == 0 else 0) for v, b in zip(XWT, [1, 2, 3] * 2)]
        y = read_npy_f32(os.path.join(outdir, "output_%d.npy" % k))
        check(y == want, "update: output %d %r, want %r" % (k, y, want))

# Errors: a clear message, exit status 1, no output file.
bad = os.path.join(WORK, "bad.pte")
rc, out, err = ptera("compile", ptg, bad, "--ops", "portable")
check(rc == 1 and err.strip() == "ptera: InvalidArgument: --ops must be 'executorch-portable', "
      "'executorch-optimized' or 'ptera', not 'portable'", "bad --ops: %d %r" % (rc, err))
rc, out, err = ptera("compile", ptg, bad, "--external-weights", ptd, "--weight-keys", "sha")
check(rc == 1 and err.strip() ==
      "ptera: InvalidArgument: --weight-keys must be 'fqn' or 'hash', not 'sha'",
      "bad --weight-keys: %d %r" % (rc, err))
missing = os.path.join(WORK, "missing.ptg")
rc, out, err = ptera("compile", missing, bad)
check(rc == 1 and err.strip() == "ptera: AccessFailed: cannot read '%s': No such file or directory"
      % missing, "missing input: %d %r" % (rc, err))
broken = os.path.join(WORK, "broken.ptg")
with open(broken, "w") as f:
    f.write("ptg 2\n")
rc, out, err = ptera("compile", broken, bad)
check(rc == 1 and err.startswith("ptera: InvalidArgument: %s: " % broken),
      "bad .ptg: %d %r" % (rc, err))
check(not os.path.exists(bad), "no output file after errors")
rc, out, err = ptera("compile", "--help")
check(rc == 0 and all(o in out for o in ["--ops", "--external-weights", "--weight-keys", "--no-constprop",
                                          "--no-dedup", "--no-dce", "--no-fold-bn", "--backend",
                                          "--quantize", "--quiet"]),
      "--help documents every flag")
# Backend and quantization options: bad values and --quantize alone are refused.
for args, why in ((["--backend", "vulkan"], "--backend must be 'xnnpack'"),
                  (["--quantize", "8da8w"], "--quantize needs --backend xnnpack"),
                  (["--backend", "xnnpack", "--quantize", "4bit"], "--quantize must be '8da8w'")):
    rc, out, err = ptera("compile", ptg, bad, *args)
    check(rc == 1 and why in err and not os.path.exists(bad), "%r: %d %r" % (args, rc, err))

print("compile_cli: %s" % ("ok" if failures == 0 else "%d failed" % failures))
sys.exit(1 if failures else 0)
