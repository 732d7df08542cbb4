"""int8-static through the XNNPACK delegate (`--backend xnnpack --quantize
int8-static`), checked on MobileNetV2 and ResNet-18 (torchvision, untrained,
calibrated batch norm statistics; tests/zoo/models.py) and a small residual
CNN.

The reference is a numpy interpreter of the lowered XNNGraph written from
docs/XNNPACK.md (§8, §8.1 and the Convert formulas, as tests/xnn/gen_quant.py
transcribes them): it reads the blob with Google's flatc and
tests/schema/xnnpack.fbs (per-tensor scales from the flatbuffer's bytes, as
flatc prints floats to 6 digits only), takes the quantization parameters and
integer weights the compiler chose from it, and computes every integer stage
exactly (int64 sums). The outputs must equal ptera's bit for bit.

The compiler's choices are checked independently of ptera: the input's and
output's qint8 parameters against the ranges eager PyTorch measures on the
same calibration samples (the affine formula of compiler/calibrate.h; the
input range is exact, the output's within 1e-5 relative), every convolution
and linear weight's per-channel scale and int8 values against the fp32
model's weights (BatchNorm folded in float64) quantized in numpy (scales
within 1e-5 relative; a value may differ by 1 only at a rounding tie of the
folded weight), and biases against s_in * s_w. A layer whose
requantization scale reaches XNNPACK's limit fails the export, naming it.
Accuracy against fp32 eager
(max and mean relative error of the logits, top-1 agreement) is printed.

usage: xnn_int8_static.py PTERA_BIN WORK_DIR"""
import os
import struct
import sys
import tempfile

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path[:0] = [os.path.join(ROOT, "python"), os.path.join(ROOT, "tests", "schema"),
                os.path.join(ROOT, "tests", "zoo"), os.path.join(ROOT, "tests", "xnn")]
import ptera  # noqa: E402
import models  # noqa: E402
from schema_common import find_flatc, flatc_json  # noqa: E402
from gen_quant import requant, real_requant  # noqa: E402

F32 = np.float32
QINT8 = 3  # gen_quant's datatype code
RAW = ["--json", "--strict-json", "--raw-binary"]


# ---- reading the program ----

def u32(b, o):
    return struct.unpack_from("<I", b, o)[0]


def field(b, table, slot):
    """Position of a flatbuffer table field (slot = field index, unions
    taking two), or None when absent."""
    vt = table - struct.unpack_from("<i", b, table)[0]
    off = 4 + 2 * slot
    if off >= struct.unpack_from("<H", b, vt)[0]:
        return None
    o = struct.unpack_from("<H", b, vt + off)[0]
    return table + o if o else None


def deref(b, p):
    return p + u32(b, p)


def per_tensor_scales(fb):
    """XNNGraph.xvalues[i] -> the exact float32 scale of a PerTensorQuant."""
    root = u32(fb, 0)
    vec = deref(fb, field(fb, root, 2))
    out = {}
    for i in range(u32(fb, vec)):
        xv = deref(fb, vec + 4 + 4 * i)
        t = field(fb, xv, 0)
        if t is None or fb[t] != 2:  # XNNQuantizedTensorValue
            continue
        q = deref(fb, field(fb, xv, 1))
        qt = field(fb, q, 1)
        if qt is None or fb[qt] != 2:  # PerTensorQuant
            continue
        pt = deref(fb, field(fb, q, 2))
        s = field(fb, pt, 0)
        out[i] = F32(struct.unpack_from("<f", fb, s)[0]) if s is not None else F32(0)
    return out


def load(pte, flatc, tmp):
    """The method's one XNNPACK delegate: (graph json, exact scales,
    constant bytes by constant_data index)."""
    raw = open(pte, "rb").read()
    prog = flatc_json(flatc, "program.fbs", raw, tmp)
    ep = prog["execution_plan"][0]
    instrs = [i for ch in ep["chains"] for i in ch["instructions"]]
    if len(instrs) != 1 or instrs[0]["instr_args_type"] != "DelegateCall":
        raise SystemExit("FAIL: %s is not one DelegateCall: %r" % (pte, [i["instr_args_type"] for i in instrs]))
    segs, base = prog["segments"], struct.unpack_from("<Q", raw, 24)[0]

    def seg(k):
        s = segs[k]
        return raw[base + s.get("offset", 0):base + s.get("offset", 0) + s["size"]]
    named = {e["key"]: seg(e.get("segment_index", 0)) for e in prog.get("named_data", [])}
    blob = seg(ep["delegates"][0]["processed"]["index"])
    _, fo, fsz, co = struct.unpack_from("<HIII", blob, 8)
    fb = blob[fo:fo + fsz]
    g = flatc_json(flatc, "xnnpack.fbs", fb, tmp, flags=RAW)
    consts = []
    for c in g.get("constant_data", []):
        if c.get("named_key"):
            consts.append(named[c["named_key"]])
        elif "size" in c:
            consts.append(blob[co + c.get("offset", 0):co + c.get("offset", 0) + c["size"]])
        else:
            consts.append(b"")
    return g, per_tensor_scales(fb), consts


# ---- the interpreter (docs/XNNPACK.md §8) ----

DT = {"xnn_datatype_fp32": (F32, None), "xnn_datatype_qint8": (np.int8, "t"),
      "xnn_datatype_qcint8": (np.int8, "c"), "xnn_datatype_qcint32": (np.int32, "c")}


class Graph:
    def __init__(self, g, scales, consts):
        self.nodes, self.vals, self.data = g["xnodes"], {}, {}
        for i, xv in enumerate(g["xvalues"]):
            u = xv["xvalue_union"]
            tv = u.get("tensor_value", u)
            dt, kind = DT[tv["datatype"]]
            v = {"dims": tuple(tv["dims"]), "dt": dt, "flags": tv.get("flags", 0),
                 "ext": tv.get("external_id", 0)}
            qp = u.get("quant_params", {})
            if kind == "t":
                v["scale"], v["zp"] = scales[i], qp.get("zero_point", 0)
            elif kind == "c":
                v["scales"] = np.frombuffer(consts[qp["scale_buffer_idx"]], F32)
                v["cdim"] = qp.get("channel_dim", 0)
            idx = tv.get("constant_buffer_idx", 0)
            if idx:
                self.data[tv["id_out"]] = np.frombuffer(consts[idx], dt).reshape(v["dims"])
            self.vals[tv["id_out"]] = v

    def run(self, inputs):
        """inputs by external id; returns the outputs in external id order."""
        d = dict(self.data)
        for vid, v in self.vals.items():
            if v["flags"] & 1:
                d[vid] = inputs[v["ext"]]
        for n in self.nodes:
            getattr(self, n["xnode_union_type"])(n["xnode_union"], n.get("output_min_max"), d)
        outs = sorted((v["ext"], vid) for vid, v in self.vals.items() if v["flags"] & 2)
        return [d[vid] for _, vid in outs]

    def XNNStaticTranspose(self, n, mm, d):
        d[n["output_id"]] = np.ascontiguousarray(d[n["input_id"]].transpose(n["perm"]))

    def XNNStaticReshape(self, n, mm, d):
        d[n["output_id"]] = d[n["input_id"]].reshape(self.vals[n["output_id"]]["dims"])

    def XNNConvert(self, n, mm, d):
        x, o = self.vals[n["input_id"]], self.vals[n["output_id"]]
        a = d[n["input_id"]]
        if o["dt"] == np.int8:  # q = sat(rne(x * (1/scale)) + zp)
            r = F32(1) / o["scale"]
            d[n["output_id"]] = np.clip(np.rint(a * r) + F32(o["zp"]), -128, 127).astype(np.int8)
        else:  # (q - zp) * scale
            d[n["output_id"]] = (a.astype(np.int32) - x["zp"]).astype(F32) * x["scale"]

    def _requant_out(self, acc, n, mm, sw):
        x, o = self.vals[n["input1_id"] if "input1_id" in n else n["input_id"]], self.vals[n["output_id"]]
        r = ((x["scale"] * sw).astype(F32) / o["scale"]).astype(F32)
        lims = (mm.get("output_min", -np.inf), mm.get("output_max", np.inf)) if mm else None
        return requant(acc, r, o["zp"], QINT8, lims, o["scale"])

    def _conv(self, n, mm, d, dw):
        x, w = self.vals[n["input1_id"]], self.vals[n["filter_id"]]
        xq = d[n["input1_id"]].astype(np.int64) - x["zp"]
        wq = d[n["filter_id"]].astype(np.int64)
        if dw:  # [1, kh, kw, C] -> OIHW with I = 1
            wt = wq[0].transpose(2, 0, 1)[:, None]
        else:  # OHWI -> OIHW
            wt = wq.transpose(0, 3, 1, 2)
        acc = F.conv2d(torch.from_numpy(xq.transpose(0, 3, 1, 2).astype(np.float64)),
                       torch.from_numpy(wt.astype(np.float64)), None,
                       (n["subsampling_height"], n["subsampling_width"]),
                       (n["padding_top"], n["padding_left"]),
                       (n["dilation_height"], n["dilation_width"]), n["groups"]).numpy()
        acc = np.rint(acc).astype(np.int64).transpose(0, 2, 3, 1)
        if n.get("bias_id", 0xFFFFFFFF) != 0xFFFFFFFF:
            acc = acc + d[n["bias_id"]].astype(np.int64)
        d[n["output_id"]] = self._requant_out(acc, n, mm, w["scales"])

    def XNNConv2d(self, n, mm, d):
        self._conv(n, mm, d, False)

    def XNNDepthwiseConv2d(self, n, mm, d):
        self._conv(n, mm, d, True)

    def XNNFullyConnected(self, n, mm, d):
        x, w = self.vals[n["input1_id"]], self.vals[n["filter_id"]]
        xq = d[n["input1_id"]].astype(np.int64) - x["zp"]
        acc = xq @ d[n["filter_id"]].astype(np.int64).T
        if n.get("bias_id", 0xFFFFFFFF) != 0xFFFFFFFF:
            acc = acc + d[n["bias_id"]].astype(np.int64)
        d[n["output_id"]] = self._requant_out(acc, n, mm, w["scales"])

    def XNNAdd(self, n, mm, d):
        a, b, o = (self.vals[n[k]] for k in ("input1_id", "input2_id", "output_id"))
        ra = a["scale"] * (d[n["input1_id"]].astype(np.int32) - a["zp"]).astype(F32)
        rb = b["scale"] * (d[n["input2_id"]].astype(np.int32) - b["zp"]).astype(F32)
        lims = (mm.get("output_min", -np.inf), mm.get("output_max", np.inf)) if mm else None
        d[n["output_id"]] = real_requant((ra + rb).astype(F32), o["scale"], o["zp"], QINT8, lims)

    def XNNMaxPooling2d(self, n, mm, d):
        """Max over the window (padding never wins); same parameters in and out."""
        x = d[n["input_id"]].astype(np.float64).transpose(0, 3, 1, 2)
        y = F.max_pool2d(torch.from_numpy(x), (n["pooling_height"], n["pooling_width"]),
                         (n["stride_height"], n["stride_width"]), (n["padding_top"], n["padding_left"]),
                         (n["dilation_height"], n["dilation_width"]))
        d[n["output_id"]] = np.rint(y.numpy()).astype(np.int8).transpose(0, 2, 3, 1)

    def XNNGlobalAvgPooling2d(self, n, mm, d):
        x, o = self.vals[n["input_id"]], self.vals[n["output_id"]]
        q = d[n["input_id"]].astype(np.int64) - x["zp"]
        hw = q.shape[1] * q.shape[2]
        y = (x["scale"] * q.sum((1, 2), keepdims=True).astype(F32)) / F32(hw)
        lims = (mm.get("output_min", -np.inf), mm.get("output_max", np.inf)) if mm else None
        d[n["output_id"]] = real_requant(y.astype(F32), o["scale"], o["zp"], QINT8, lims)


# ---- the compiler's choices, against eager PyTorch ----

def affine(lo, hi):
    """compiler/calibrate.h: per-tensor affine int8 from a range."""
    lo, hi = min(F32(lo), F32(0)), max(F32(hi), F32(0))
    s = max(F32((hi - lo) / F32(255)), np.finfo(F32).eps)
    return F32(s), int(np.clip(-128 - np.rint(lo / s), -128, 127))


def folded_layers(model):
    """(weight [oc, ...] float64, bias) of every conv / linear in forward
    order, BatchNorm that follows a conv folded in."""
    mods = [m for m in model.modules() if isinstance(m, (nn.Conv2d, nn.Linear, nn.BatchNorm2d))]
    out = []
    for i, m in enumerate(mods):
        if isinstance(m, nn.BatchNorm2d):
            continue
        w = m.weight.detach().double().numpy()
        b = m.bias.detach().double().numpy() if m.bias is not None else np.zeros(w.shape[0])
        nxt = mods[i + 1] if i + 1 < len(mods) else None
        if isinstance(m, nn.Conv2d) and isinstance(nxt, nn.BatchNorm2d):
            k = nxt.weight.detach().double().numpy() / np.sqrt(nxt.running_var.double().numpy() + nxt.eps)
            w = w * k[:, None, None, None]
            b = (b - nxt.running_mean.double().numpy()) * k + nxt.bias.detach().double().numpy()
        out.append((w, b))
    return out


def check_choices(name, model, g, samples):
    bad = 0
    with torch.no_grad():
        outs = [model(s).numpy() for s in samples]
    ins = [s.numpy() for s in samples]
    nodes = g.nodes
    first = next(n["xnode_union"] for n in nodes if n["xnode_union_type"] == "XNNConvert"
                 and g.vals[n["xnode_union"]["output_id"]]["dt"] == np.int8)
    qi = g.vals[first["output_id"]]
    want = affine(min(x.min() for x in ins), max(x.max() for x in ins))
    if (qi["scale"], qi["zp"]) != want:
        print("FAIL %s: input parameters %r, eager range gives %r" % (name, (qi["scale"], qi["zp"]), want))
        bad += 1
    last = [n["xnode_union"] for n in nodes if n["xnode_union_type"] == "XNNConvert"][-1]
    qo = g.vals[last["input_id"]]
    ws, wz = affine(min(o.min() for o in outs), max(o.max() for o in outs))
    if abs(qo["scale"] - ws) > 1e-5 * ws or abs(qo["zp"] - wz) > 1:
        print("FAIL %s: output parameters %r, eager range gives %r" % (name, (qo["scale"], qo["zp"]), (ws, wz)))
        bad += 1
    layers = [(n["xnode_union_type"], n["xnode_union"]) for n in nodes
              if n["xnode_union_type"] in ("XNNConv2d", "XNNDepthwiseConv2d", "XNNFullyConnected")]
    ref = folded_layers(model)
    if len(layers) != len(ref):
        print("FAIL %s: %d quantized layers in the blob, %d in the model" % (name, len(layers), len(ref)))
        return bad + 1
    ties = 0
    for k, ((kind, n), (w, b)) in enumerate(zip(layers, ref)):
        v = g.vals[n["filter_id"]]
        oc = w.shape[0]
        wf = w.reshape(oc, -1)
        sw = np.maximum(np.abs(wf).max(1) / 127, np.finfo(F32).eps)
        got = g.data[n["filter_id"]]  # back to PyTorch's [oc, ...] order (§7)
        if kind == "XNNDepthwiseConv2d":  # [1, kh, kw, C]
            got = got[0].transpose(2, 0, 1)
        elif kind == "XNNConv2d":  # OHWI
            got = got.transpose(0, 3, 1, 2)
        got = got.reshape(oc, -1)
        if np.abs(v["scales"] - sw).max() > 1e-5 * sw.max():
            print("FAIL %s layer %d: weight scales off by %g" % (name, k, np.abs(v["scales"] - sw).max()))
            bad += 1
        exact = wf / v["scales"].astype(np.float64)[:, None]
        diff = np.abs(got.astype(np.int64) - np.clip(np.rint(exact), -127, 127))
        near_tie = np.abs(np.abs(exact - np.floor(exact)) - 0.5) < 1e-3
        if diff.max() > 1 or np.any((diff == 1) & ~near_tie):
            print("FAIL %s layer %d: int8 weights differ beyond rounding ties" % (name, k))
            bad += 1
        ties += int((diff == 1).sum())
        sx = g.vals[n["input1_id"]]["scale"]
        qb = g.data[n["bias_id"]].astype(np.float64) * (sx * v["scales"]).astype(F32)
        if np.abs(qb - b).max() > (sx * v["scales"]).max() + 1e-6 * np.abs(b).max():
            print("FAIL %s layer %d: bias off by %g" % (name, k, np.abs(qb - b).max()))
            bad += 1
    print("%s: %d layers; input/output parameters, weight scales, int8 weights (%d ties) and biases "
          "as computed from the eager model" % (name, len(layers), ties))
    return bad


# ---- the models ----

class Small(nn.Module):
    """conv-bn-relu6, depthwise-relu, 1x1 conv with a residual add, mean, linear."""

    def __init__(self):
        super().__init__()
        self.c1, self.bn = nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8)
        self.dw, self.pw, self.fc = nn.Conv2d(8, 8, 3, 2, 1, groups=8), nn.Conv2d(8, 8, 1), nn.Linear(8, 5)

    def forward(self, x):
        y = F.hardtanh(self.bn(self.c1(x)), 0.0, 6.0)
        z = torch.relu(self.dw(y))
        z = self.pw(z) + z
        return self.fc(z.mean((2, 3), keepdim=True).flatten(1))


def run_case(name, model, shape, ncal, ntest, exe, work, flatc, gen):
    cal = [torch.randn(shape, generator=gen) for _ in range(ncal)]
    pte = os.path.join(work, name + ".pte")
    ptera.export(model, (cal[0],), pte, ptera_bin=exe, backend="xnnpack", quantize="int8-static",
                 calibration=cal)
    g = Graph(*load(pte, flatc, work))
    bad = check_choices(name, model, g, cal)
    meth = ptera.Program(pte).method("forward")
    tests = cal[:2] + [torch.randn(shape, generator=gen) for _ in range(ntest)]
    worst, mean, agree = 0.0, [], 0
    for x in tests:
        got = meth(x.numpy())
        got = got[0] if isinstance(got, (list, tuple)) else got
        want = g.run({0: x.numpy()})[0]
        if got.shape != want.shape or not np.array_equal(got, want):
            print("FAIL %s: ptera and the numpy reference differ in %d of %d outputs (max %g)"
                  % (name, int((got != want).sum()), got.size, float(np.abs(got - want).max())))
            bad += 1
        with torch.no_grad():
            e = model(x).numpy()
        rel = np.abs(got - e) / np.abs(e).max()
        worst, agree = max(worst, float(rel.max())), agree + int(got.argmax() == e.argmax())
        mean.append(float(rel.mean()))
    print("%s: %d inputs bit-exact against the reference; vs fp32 eager: max rel error %.3g, mean %.3g "
          "(of the largest |logit|), top-1 agreement %d/%d" % (name, len(tests), worst, np.mean(mean),
                                                              agree, len(tests)))
    return bad


class Narrow(nn.Linear):
    """A layer whose calibrated output range is far narrower than input x
    weight: input 0 is always 0 in the samples, the only large weight
    reads it, so the output is the bias alone."""

    def __init__(self):
        super().__init__(4, 2)
        with torch.no_grad():
            self.weight.zero_()
            self.weight[:, 0] = 1000.0
            self.bias.fill_(0.01)


def check_requant_limit(exe, work, gen):
    """XNNPACK refuses a requantization scale of 256 or more: the export
    fails naming the node instead of writing a program that cannot run."""
    cal = []
    for _ in range(3):
        x = torch.randn((1, 4), generator=gen)
        x[0, 0] = 0.0
        cal.append(x)
    try:
        ptera.export(Narrow().eval(), (cal[0],), os.path.join(work, "narrow.pte"), ptera_bin=exe,
                     backend="xnnpack", quantize="int8-static", calibration=cal)
    except Exception as e:  # noqa: BLE001 - the message is what is checked
        msg = str(e)
        if "limit of 256" in msg and "node " in msg and "addmm" in msg:
            print("requantization limit: refused (%s)" % msg.strip().splitlines()[-1][:160])
            return 0
        print("FAIL: requantization limit: unexpected error %s" % msg)
        return 1
    print("FAIL: requantization limit: a requantization scale over 256 was exported")
    return 1


def main():
    if len(sys.argv) != 3:
        raise SystemExit("usage: xnn_int8_static.py PTERA_BIN WORK_DIR")
    exe, work = os.path.abspath(sys.argv[1]), sys.argv[2]
    os.makedirs(work, exist_ok=True)
    flatc = find_flatc()
    tmp = tempfile.mkdtemp(dir=work)
    gen = torch.Generator().manual_seed(7)
    torch.manual_seed(3)
    small = Small().eval()
    with torch.no_grad():
        small.bn.running_mean.uniform_(-0.5, 0.5)
        small.bn.running_var.uniform_(0.5, 2.0)
    bad = run_case("small", small, (1, 3, 16, 16), 4, 4, exe, tmp, flatc, gen)
    bad += check_requant_limit(exe, tmp, gen)
    mobilenet, _ = models.mobilenet_v2()
    bad += run_case("mobilenet_v2", mobilenet, (1, 3, 224, 224), 4, 2, exe, tmp, flatc, gen)
    resnet, _ = models.resnet18()
    bad += run_case("resnet18", resnet, (1, 3, 224, 224), 2, 1, exe, tmp, flatc, gen)
    if bad:
        raise SystemExit("FAIL: %d checks" % bad)
    print("PASS")


if __name__ == "__main__":
    main()
