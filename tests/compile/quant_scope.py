"""The quantizers' scope by module (`ptera compile --quantize-scope /
--quantize-skip`, compiler/quant_scope.h) on a model whose two branches
meet in operators that join or move values:

    ya = a(x)  (conv 1x1 + relu)      yb = b(x)  (conv 3x3 + relu)
    yc = c(x)  (conv 1x1 + relu)      yd = d(x)  (conv 3x3 + relu)
    out0 = head(ya + yb)   out1 = mix(yb)   out2 = pool(yb)   out3 = cat(ya, yb)
    out4 = cat(yc, yd)

(a, b, c, d, head, mix, pool submodules; the add and the cats are the
root's; yc and yd are read by their cat only, so it can run in int8).

What each compile quantized is read from the lowered XNNGraph (Google's
flatc and tests/schema/xnnpack.fbs): the datatype of each node's output,
the convolutions told apart by their filter shapes. Outputs are checked
against eager PyTorch: those computed in fp32 only to 1e-4, the others
within the int8 tolerance (a fraction of the output's range). Skipping
every module must give the fp32 lowering's outputs exactly. Also the
dynamic (8da8w) and weight-only (int8-weight) schemes on two linear
branches, and the errors for names that match no call.

usage: quant_scope.py PTERA_BIN WORK_DIR"""
import os
import struct
import subprocess
import sys

import numpy as np
import torch
import torch.nn as nn

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "tests", "schema")]
import ptera  # noqa: E402
from schema_common import find_flatc, flatc_json  # noqa: E402

RAW = ["--json", "--strict-json", "--raw-binary"]
EXACT = 1e-4  # fp32 through the delegate against eager
INT8 = 0.02   # int8 schemes: max error / the output's range
FAILS = []


def check(cond, msg):
    print(("ok   " if cond else "FAIL ") + msg)
    if not cond:
        FAILS.append(msg)


class TwoBranch(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(7)
        self.a = nn.Sequential(nn.Conv2d(3, 8, 1), nn.ReLU())
        self.b = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.ReLU())
        self.head = nn.Conv2d(8, 4, 1)
        self.mix = nn.Conv2d(8, 5, 1)
        self.pool = nn.MaxPool2d(2)
        self.c = nn.Sequential(nn.Conv2d(3, 6, 1), nn.ReLU())
        self.d = nn.Sequential(nn.Conv2d(3, 2, 3, padding=1), nn.ReLU())

    def forward(self, x):
        ya, yb = self.a(x), self.b(x)
        yc, yd = self.c(x), self.d(x)
        return (self.head(ya + yb), self.mix(yb), self.pool(yb), torch.cat([ya, yb], 1),
                torch.cat([yc, yd], 1))


class TwoLinear(nn.Module):
    def __init__(self):
        super().__init__()
        torch.manual_seed(8)
        self.a = nn.Linear(32, 32)
        self.b = nn.Linear(32, 32)
        self.head = nn.Linear(64, 8)

    def forward(self, x):
        return self.head(torch.cat([self.a(x), torch.relu(self.b(x))], 1))


# ---- the lowered program ----

def xnn_nodes(pte, flatc, tmp):
    """Every XNNGraph node of the program's delegates as (node type, output
    datatype, filter dims, filter datatype (both None without a filter),
    output dims)."""
    raw = open(pte, "rb").read()
    prog = flatc_json(flatc, "program.fbs", raw, tmp)
    base = struct.unpack_from("<Q", raw, 24)[0]
    out = []
    for ep in prog["execution_plan"]:
        for d in ep.get("delegates", []):
            s = prog["segments"][d["processed"]["index"]]
            blob = raw[base + s.get("offset", 0):base + s.get("offset", 0) + s["size"]]
            _, fo, fsz, _ = struct.unpack_from("<HIII", blob, 8)
            g = flatc_json(flatc, "xnnpack.fbs", blob[fo:fo + fsz], tmp, flags=RAW)
            vals = {}
            for xv in g["xvalues"]:
                u = xv["xvalue_union"]
                tv = u.get("tensor_value", u)
                vals[tv["id_out"]] = (tv["datatype"].replace("xnn_datatype_", ""), tuple(tv["dims"]))
            for n in g["xnodes"]:
                u = n["xnode_union"]
                dt, dims = vals[u["filter_id"]] if "filter_id" in u else (None, None)
                out.append((n["xnode_union_type"].replace("XNN", ""), vals[u["output_id"]][0], dims, dt,
                            vals[u["output_id"]][1]))
    return out


def find(nodes, kind, filt=None):
    """The output datatypes of the nodes of a kind (and filter dims)."""
    return [dt for k, dt, f, _, _ in nodes if k == kind and (filt is None or f == filt)]


# ---- compiling and running ----

def compile_(exe, ptg, pte, args):
    p = subprocess.run([exe, "compile", ptg, pte] + args, capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def run(exe, pte, x, work, tag):
    inp, out = os.path.join(work, tag + "_in.npy"), os.path.join(work, tag + "_out")
    np.save(inp, x.numpy())
    p = subprocess.run([exe, "run", pte, "--input", inp, "--output-dir", out],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise SystemExit("FAIL: ptera run %s: %s" % (pte, p.stdout + p.stderr))
    outs, k = [], 0
    while os.path.exists(os.path.join(out, "output_%d.npy" % k)):
        outs.append(np.load(os.path.join(out, "output_%d.npy" % k)))
        k += 1
    return outs


def err(got, want):
    return float(np.max(np.abs(got - want)))


def rel(got, want):
    return err(got, want) / max(float(want.max() - want.min()), 1e-6)


def calibration(work, samples):
    d = os.path.join(work, "cal")
    for i, x in enumerate(samples):
        os.makedirs(os.path.join(d, "%02d" % i), exist_ok=True)
        np.save(os.path.join(d, "%02d" % i, "input0.npy"), x.numpy())
    return d


# ---- the cases ----

def static_cases(exe, work, flatc):
    model = TwoBranch().eval()
    gen = torch.Generator().manual_seed(1)
    samples = [torch.rand(1, 3, 8, 8, generator=gen) * 2 - 1 for _ in range(8)]
    x = torch.rand(1, 3, 8, 8, generator=gen) * 2 - 1
    with torch.no_grad():
        want = [t.numpy() for t in model(x)]
    ptg = os.path.join(work, "two_branch.ptg")
    ptera.write_ptg(model, (samples[0],), ptg)
    cal = calibration(work, samples + [x])  # x in range: the error is quantization's only
    fa, fb, fh, fm = (8, 1, 1, 3), (8, 3, 3, 3), (4, 1, 1, 8), (5, 1, 1, 8)
    fc, fd = (6, 1, 1, 3), (2, 3, 3, 3)

    def cats(nodes):  # (cat of ya, yb; cat of yc, yd) by output shape
        return [dt for k, dt, _, _, dims in nodes if k == "Concatenate2" and dims[1] == 16] + \
               [dt for k, dt, _, _, dims in nodes if k == "Concatenate2" and dims[1] == 8]
    q = ["--backend", "xnnpack", "--quantize", "int8-static", "--calibration", cal]

    def lower(tag, args):
        pte = os.path.join(work, tag + ".pte")
        rc, rep = compile_(exe, ptg, pte, args)
        if rc != 0:
            raise SystemExit("FAIL: compile %s: %s" % (tag, rep))
        return xnn_nodes(pte, flatc, work), run(exe, pte, x, work, tag)

    nodes, fp32 = lower("fp32", ["--backend", "xnnpack"])
    for i, (g, w) in enumerate(zip(fp32, want)):
        check(err(g, w) <= EXACT, "fp32 lowering: output %d within %g of eager (%.2e)" % (i, EXACT, err(g, w)))

    # No scope: both branches and everything joining them in int8.
    nodes, out = lower("all", q)
    check(find(nodes, "Conv2d") == ["qint8"] * 6, "int8-static: every convolution qint8")
    check(find(nodes, "Add") == ["qint8"], "int8-static: the add of the branches qint8")
    check(cats(nodes) == ["fp32", "qint8"],
          "int8-static: the cat of c and d (their only reader) qint8, of a and b fp32")
    check(find(nodes, "MaxPooling2d") == ["qint8"], "int8-static: the pool of branch b qint8")
    for i, (g, w) in enumerate(zip(out, want)):
        check(rel(g, w) <= INT8, "int8-static: output %d within %g of eager's range (%.3f)" % (i, INT8, rel(g, w)))

    # b skipped: the root's add joins b's fp32 value and the pool moves it,
    # so both stay fp32 though they are in scope; head and mix quantize
    # their own inputs.
    nodes, out = lower("skip_b", q + ["--quantize-skip", "b"])
    check(find(nodes, "Conv2d", fa) == ["qint8"], "skip b: a's convolution qint8")
    check(find(nodes, "Conv2d", fb) == ["fp32"], "skip b: b's convolution fp32")
    check(find(nodes, "Conv2d", fh) == ["qint8"] and find(nodes, "Conv2d", fm) == ["qint8"],
          "skip b: head's and mix's convolutions qint8")
    check(find(nodes, "Add") == ["fp32"], "skip b: the add joining b stays fp32")
    check(find(nodes, "MaxPooling2d") == ["fp32"], "skip b: the pool of b's value stays fp32")
    check(cats(nodes) == ["fp32", "qint8"], "skip b: the cat of a and b fp32, of c and d qint8")
    check(err(out[2], want[2]) <= EXACT, "skip b: the pool's output is fp32's (%.2e)" % err(out[2], want[2]))
    for i in (0, 1, 3, 4):
        check(rel(out[i], want[i]) <= INT8, "skip b: output %d within %g of eager's range (%.3f)"
              % (i, INT8, rel(out[i], want[i])))

    # Only a in scope: nothing at the root quantizes.
    nodes, out = lower("scope_a", q + ["--quantize-scope", "a"])
    check(find(nodes, "Conv2d", fa) == ["qint8"], "scope a: a's convolution qint8")
    check(find(nodes, "Conv2d", fb) + find(nodes, "Conv2d", fh) + find(nodes, "Conv2d", fm)
          == ["fp32"] * 3, "scope a: b's, head's and mix's convolutions fp32")
    check(find(nodes, "Add") == ["fp32"] and find(nodes, "MaxPooling2d") == ["fp32"],
          "scope a: the add and the pool (the root's, out of scope) fp32")
    check(cats(nodes) == ["fp32", "fp32"], "scope a: both cats fp32")
    for i in (1, 2, 4):
        check(err(out[i], want[i]) <= EXACT, "scope a: output %d (out of scope only) is fp32's (%.2e)"
              % (i, err(out[i], want[i])))
    for i in (0, 3):
        check(rel(out[i], want[i]) <= INT8, "scope a: output %d within %g of eager's range (%.3f)"
              % (i, INT8, rel(out[i], want[i])))

    # The branches in scope, the root and the other modules not: the add,
    # the pool and the cats read only in-scope int8 values but are out of
    # scope themselves.
    nodes, out = lower("scope_ab", q + ["--quantize-scope", "a,b,c,d"])
    check(find(nodes, "Conv2d", fa) + find(nodes, "Conv2d", fb) == ["qint8"] * 2,
          "scope a,b,c,d: the branches' convolutions qint8")
    check(find(nodes, "Conv2d", fh) + find(nodes, "Conv2d", fm) == ["fp32"] * 2,
          "scope a,b,c,d: head's and mix's convolutions fp32")
    check(find(nodes, "Add") == ["fp32"] and find(nodes, "MaxPooling2d") == ["fp32"],
          "scope a,b,c,d: the add and the pool (out of scope) fp32")
    check(find(nodes, "Conv2d", fc) + find(nodes, "Conv2d", fd) == ["qint8"] * 2 and
          cats(nodes) == ["fp32", "fp32"], "scope a,b,c,d: c's and d's convolutions qint8, the cats fp32")
    for i, (g, w) in enumerate(zip(out, want)):
        check(rel(g, w) <= INT8, "scope a,b,c,d: output %d within %g of eager's range (%.3f)" % (i, INT8, rel(g, w)))

    # By type: every Conv2d module in scope, the root's add too (its inputs
    # come from in-scope convolutions), the pool (a MaxPool2d) not.
    nodes, out = lower("type_conv", q + ["--quantize-scope", "type:Conv2d"])
    check(find(nodes, "Conv2d") == ["qint8"] * 6, "scope type:Conv2d: every convolution qint8")
    check(find(nodes, "MaxPooling2d") == ["fp32"], "scope type:Conv2d: the pool fp32")

    # d's relu skipped (folded into d's int8 convolution): yd is made out of
    # scope, so the cat that joins it stays fp32.
    nodes, out = lower("skip_relu", q + ["--quantize-skip", "d.1"])
    check(find(nodes, "Conv2d", fd) == ["qint8"] and cats(nodes) == ["fp32", "fp32"],
          "skip d.1: d's convolution qint8, the cat joining its relu fp32")
    check(rel(out[4], want[4]) <= INT8, "skip d.1: output 4 within %g of eager's range (%.3f)"
          % (INT8, rel(out[4], want[4])))

    # Everything skipped: the fp32 lowering's outputs, bit for bit.
    nodes, out = lower("skip_all", q + ["--quantize-skip", "a,b,c,d,head", "--quantize-skip", "mix,pool"])
    check(all(dt == "fp32" and fdt in (None, "fp32") for _, dt, _, fdt, _ in nodes),
          "skip all: no quantized value")
    for i, (g, f, w) in enumerate(zip(out, fp32, want)):
        check(np.array_equal(g, f) and err(g, w) <= EXACT,
              "skip all: output %d equals the fp32 lowering's (%.2e from eager)" % (i, err(g, w)))

    # Names that match no call; scoping without a quantization.
    for args, want_msg in ((q + ["--quantize-scope", "a,e"], "quantization scope: 'e' names no module"),
                           (q + ["--quantize-skip", "type:Linear"],
                            "quantization skip list: 'type:Linear' names no module"),
                           (q + ["--quantize-scope", "a.0.weight"], "'a.0.weight' names no module"),
                           (["--backend", "xnnpack", "--quantize-scope", "a"],
                            "a quantization scope or skip list needs a quantization to scope")):
        rc, rep = compile_(exe, ptg, os.path.join(work, "bad.pte"), args)
        check(rc != 0 and want_msg in rep, "refused %s: %s" % (" ".join(args[-2:]), rep.strip()))


def linear_cases(exe, work, flatc):
    model = TwoLinear().eval()
    x = torch.randn(4, 32, generator=torch.Generator().manual_seed(2))
    with torch.no_grad():
        want = model(x).numpy()
    ptg = os.path.join(work, "two_linear.ptg")
    ptera.write_ptg(model, (x,), ptg)
    dyn = ["--backend", "xnnpack", "--quantize", "8da8w"]
    for tag, args, weights in (("dyn", dyn, {(32, 32): ["qcint8"] * 2, (8, 64): ["qcint8"]}),
                               ("dyn_skip_b", dyn + ["--quantize-skip", "b"],
                                {(32, 32): ["fp32", "qcint8"], (8, 64): ["qcint8"]}),
                               ("dyn_scope_head", dyn + ["--quantize-scope", "head"],
                                {(32, 32): ["fp32", "fp32"], (8, 64): ["qcint8"]})):
        pte = os.path.join(work, tag + ".pte")
        rc, rep = compile_(exe, ptg, pte, args)
        if rc != 0:
            raise SystemExit("FAIL: compile %s: %s" % (tag, rep))
        fc_filters = {}
        for k, _, dims, dt, _ in xnn_nodes(pte, flatc, work):
            if k == "FullyConnected":
                fc_filters.setdefault(dims, []).append(dt)
        fc_filters = {k: sorted(v) for k, v in fc_filters.items()}
        check(fc_filters == weights, "%s: FullyConnected weights %s" % (tag, fc_filters))
        out = run(exe, pte, x, work, tag)[0]
        check(rel(out, want) <= INT8, "%s: within %g of eager's range (%.4f)" % (tag, INT8, rel(out, want)))
    for tag, args, n in (("w8", ["--quantize", "int8-weight"], 3),
                         ("w8_skip", ["--quantize", "int8-weight", "--quantize-skip", "a,head"], 1)):
        pte = os.path.join(work, tag + ".pte")
        rc, rep = compile_(exe, ptg, pte, args)
        check(rc == 0 and "int8-weight %d linear weights quantized" % n in rep,
              "%s: %d linear weights quantized" % (tag, n))
        out = run(exe, pte, x, work, tag)[0]
        check(rel(out, want) <= INT8, "%s: within %g of eager's range (%.4f)" % (tag, INT8, rel(out, want)))
    pte = os.path.join(work, "w8_none.pte")
    rc, rep = compile_(exe, ptg, pte, ["--quantize", "int8-weight", "--quantize-skip", "a,b,head"])
    check(rc == 0 and "int8-weight 0 linear weights quantized" in rep, "weight-only, all skipped: none quantized")
    check(err(run(exe, pte, x, work, "w8_none")[0], want) <= EXACT, "weight-only, all skipped: eager's output")


def main():
    exe, work = sys.argv[1], sys.argv[2]
    os.makedirs(work, exist_ok=True)
    flatc = find_flatc()
    static_cases(exe, work, flatc)
    linear_cases(exe, work, flatc)
    if FAILS:
        print("%d check(s) failed" % len(FAILS))
        return 1
    print("all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
