#!/usr/bin/env python3
"""Checks that the .pte/.ptd files ptera writes follow ExecuTorch's schema,
judged by Google's flatc with the schemas in tests/schema (validated against
upstream-written files by check_corpus.py) and by flatbuffers::Verifier.

Usage: check_emitted.py PTERA_BIN
Checks examples/digits/digits.pte, and files exported with the Python front
end: a model with external weights (.ptd, fqn keys), one whose registered
buffer is mutated in place (mutable_data_segments), and models lowered to
the XNNPACK delegate (--backend xnnpack; weights in the .pte's named data or
in a .ptd), whose XNNGraph blobs are also decoded with tests/schema/xnnpack.fbs
(written from the spec, XNNPACK.md 3) and checked by flatbuffers::Verifier. flatc runs WITHOUT
--raw-binary here, so it also checks the file identifier. Beyond decoding,
asserts the structural facts an ExecuTorch loader relies on (PTE.md 5-9,
PTD.md 2-5). A missing flatc, compiler or torch is a failure, not a skip.
"""
import os
import re
import struct
import sys
import tempfile
import shutil

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", ".."))
sys.path.insert(0, HERE)
from schema_common import build_verifier, fail, find_flatc, flatc_json, verify  # noqa: E402

STRICT = ["--json", "--strict-json"]  # identifier checked by flatc
ELEM = {"BYTE": 1, "CHAR": 1, "SHORT": 2, "INT": 4, "LONG": 8, "HALF": 2, "FLOAT": 4,
        "DOUBLE": 8, "BOOL": 1, "QINT8": 1, "QUINT8": 1, "QINT32": 4, "BFLOAT16": 2,
        "UINT16": 2, "UINT32": 4, "UINT64": 8}
errors = []


def check(cond, msg):
    if not cond:
        errors.append(msg)
    return cond


def u64(b, o):
    return struct.unpack_from("<Q", b, o)[0]


def nbytes(t):
    n = 1
    for s in t.get("sizes", []):
        n *= s
    return n * ELEM.get(t.get("scalar_type", "BYTE"), 1)


def check_pte(name, raw, prog, ptd=None):
    """Structural facts of a decoded Program (`prog`); `raw` the file bytes;
    `ptd` the decoded FlatTensor of its external data, if any."""
    segs = prog.get("segments", [])
    # Extended header and segment placement (PTE.md 3).
    if raw[8:12] == b"eh00":
        length, psize, base = struct.unpack_from("<I", raw, 12)[0], u64(raw, 16), u64(raw, 24)
        check(length >= 24, name + ": eh00 length < 24")
        check(psize <= base <= len(raw), name + ": program_size/segment_base_offset out of order")
        for i, s in enumerate(segs):
            check(base + s.get("offset", 0) + s.get("size", 0) <= len(raw),
                  "%s: segment %d past the end of the file" % (name, i))
    else:
        check(all(s.get("size", 0) == 0 for s in segs), name + ": segments with data but no eh00 header")
    plans = prog.get("execution_plan", [])
    check(len(plans) >= 1, name + ": no execution plan")
    cs = prog.get("constant_segment")
    mds = prog.get("mutable_data_segments", [])
    check(len(mds) <= 1, name + ": more than one mutable_data_segments entry")
    for ep in plans:
        where = "%s:%s" % (name, ep.get("name"))
        values, ops = ep.get("values", []), ep.get("operators", [])
        check(ep.get("name"), name + ": method without a name")
        for key in ("values", "inputs", "outputs", "chains", "non_const_buffer_sizes", "delegates"):
            check(key in ep, "%s: missing %s (required by the runtime)" % (where, key))
        nbs = ep.get("non_const_buffer_sizes", [])
        check(len(nbs) >= 1 and nbs[0] == 0, where + ": non_const_buffer_sizes[0] != 0")
        for o in ops:
            check(re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*::[A-Za-z_][A-Za-z0-9_]*", o.get("name", "")),
                  "%s: operator name %r not namespace::op" % (where, o.get("name")))
        for i in ep.get("inputs", []) + ep.get("outputs", []):
            check(0 <= i < len(values), "%s: input/output index %d out of range" % (where, i))
        check(len(ep.get("chains", [])) >= 1, where + ": no chain")
        for ch in ep.get("chains", []):
            check("instructions" in ch, where + ": chain without instructions")
            for k, ins in enumerate(ch.get("instructions", [])):
                t, a = ins.get("instr_args_type"), ins.get("instr_args", {})
                check(t in ("KernelCall", "DelegateCall", "MoveCall", "JumpFalseCall", "FreeCall"),
                      "%s: instruction %d has type %r" % (where, k, t))
                if t == "KernelCall":
                    check(0 <= a.get("op_index", 0) < len(ops),
                          "%s: instruction %d op_index %d >= %d operators" % (where, k, a.get("op_index", 0), len(ops)))
                    check("args" in a, "%s: KernelCall %d without args" % (where, k))
                    for v in a.get("args", []):
                        check(0 <= v < len(values), "%s: instruction %d arg %d out of range" % (where, k, v))
        for idx, ev in enumerate(values):
            vt, v = ev.get("val_type"), ev.get("val")
            check(vt is not None and (vt == "Null" or v is not None), "%s: value %d has no val" % (where, idx))
            if vt in ("IntList", "TensorList", "OptionalTensorList"):
                for j in v.get("items", []):
                    check(-1 <= j < len(values), "%s: value %d list item %d out of range" % (where, idx, j))
            if vt != "Tensor":
                continue
            tv = "%s value %d" % (where, idx)
            sizes, dims = v.get("sizes"), v.get("dim_order")
            check(sizes is not None and dims is not None, tv + ": sizes/dim_order missing")
            check(sorted(dims or []) == list(range(len(sizes or []))), tv + ": dim_order not a permutation")
            check(v.get("storage_offset", 0) == 0, tv + ": storage_offset != 0")
            check(v.get("shape_dynamism", "STATIC") != "DYNAMIC_UNBOUND", tv + ": DYNAMIC_UNBOUND")
            n = nbytes(v)
            alloc, extra, dbi = v.get("allocation_info"), v.get("extra_tensor_info") or {}, v.get("data_buffer_idx", 0)
            if alloc:
                mid = alloc.get("memory_id", 0)
                off = alloc.get("memory_offset_low", 0) | alloc.get("memory_offset_high", 0) << 32
                if check(1 <= mid < len(nbs), "%s: memory_id %d not in 1..%d" % (tv, mid, len(nbs) - 1)):
                    check(off + n <= nbs[mid], "%s: planned [%d, %d) past arena %d size %d" % (tv, off, off + n, mid, nbs[mid]))
            if extra.get("location") == "EXTERNAL":
                fqn = extra.get("fully_qualified_name")
                check(fqn, tv + ": EXTERNAL tensor without fully_qualified_name")
                if check(ptd is not None, tv + ": EXTERNAL tensor but no .ptd was written"):
                    entry = {e.get("key"): e for e in ptd.get("named_data", [])}.get(fqn)
                    if check(entry is not None, "%s: key %r not in the .ptd's named_data" % (tv, fqn)):
                        lay = entry.get("tensor_layout")
                        if check(lay is not None, "%s: .ptd entry %r has no tensor_layout" % (tv, fqn)):
                            check(lay.get("scalar_type", "BYTE") == v.get("scalar_type", "BYTE")
                                  and lay.get("sizes", []) == sizes and lay.get("dim_order", []) == dims,
                                  "%s: .ptd layout of %r differs from the .pte tensor" % (tv, fqn))
                        seg = ptd["segments"][entry.get("segment_index", 0)]
                        check(seg.get("size", 0) >= n, "%s: .ptd blob %r smaller than the tensor" % (tv, fqn))
            elif dbi > 0 and alloc:  # mutable with initial data (PTE.md 8)
                if check(len(mds) == 1, tv + ": initial data but no mutable_data_segments[0]"):
                    m = mds[0]
                    offs = m.get("offsets", [])
                    if check(dbi < len(offs), "%s: data_buffer_idx %d not in mutable_data_segments[0].offsets (%d)" % (tv, dbi, len(offs))):
                        seg = segs[m.get("segment_index", 0)]
                        check(offs[dbi] + n <= seg.get("size", 0), tv + ": mutable data past its segment")
            elif dbi > 0:  # constant (PTE.md 7)
                if check(cs is not None, tv + ": constant but no constant_segment"):
                    offs = cs.get("offsets", [])
                    if check(dbi < len(offs), "%s: data_buffer_idx %d not in constant_segment.offsets (%d)" % (tv, dbi, len(offs))):
                        seg = segs[cs.get("segment_index", 0)]
                        check(offs[dbi] + n <= seg.get("size", 0), tv + ": constant past its segment")
                        check(offs[dbi] % 16 == 0, tv + ": constant not 16-aligned in its segment")
            elif not alloc:
                # Case 6 of PTE.md: no data at load; must be a method input/output
                # (bound by the caller) or written by an instruction.
                produced = any(idx in ins.get("instr_args", {}).get("args", [])
                               for ch in ep.get("chains", []) for ins in ch.get("instructions", []))
                check(idx in ep.get("inputs", []) or idx in ep.get("outputs", []) or produced,
                      tv + ": no data, not planned, not an input/output and unused")
    if cs is not None:
        check(cs.get("segment_index", 0) < len(segs), name + ": constant_segment.segment_index out of range")
        check(len(cs.get("offsets", [])) >= 1 and cs["offsets"][0] == 0, name + ": constant_segment.offsets[0] != 0")
    for m in mds:
        check(m.get("segment_index", 0) < len(segs), name + ": mutable segment index out of range")


def check_xnn(name, raw, prog, flatc, tmp, ptd=None, ptd_raw=None):
    """Every XnnpackBackend delegate of a decoded program: the blob's XH00
    header (XNNPACK.md 2), its XNNGraph (flatc with xnnpack.fbs), external
    ids against the DelegateCall arguments, and named weights (4.3) against
    the program's named data or the .ptd. Returns the bare flatbuffers cut
    out of the blobs (for the verifier)."""
    segs, base = prog.get("segments", []), u64(raw, 24)
    named = {e["key"]: segs[e.get("segment_index", 0)].get("size", 0) for e in prog.get("named_data", [])}
    if ptd is not None:
        named.update({e["key"]: ptd["segments"][e.get("segment_index", 0)].get("size", 0)
                      for e in ptd.get("named_data", [])})
    fbs = []
    for ep in prog.get("execution_plan", []):
        where = "%s:%s" % (name, ep.get("name"))
        dels, values = ep.get("delegates", []), ep.get("values", [])
        calls = [i["instr_args"] for ch in ep.get("chains", []) for i in ch.get("instructions", [])
                 if i.get("instr_args_type") == "DelegateCall"]
        check(calls, where + ": no DelegateCall")
        for c in calls:
            k = c.get("delegate_index", 0)
            if not check(0 <= k < len(dels), "%s: delegate_index %d out of range" % (where, k)):
                continue
            d = dels[k]
            check(d.get("id") == "XnnpackBackend", "%s: delegate %d is %r" % (where, k, d.get("id")))
            pr, inline = d.get("processed", {}), prog.get("backend_delegate_data", [])
            if pr.get("location") == "SEGMENT" and pr.get("index", 0) < len(segs):
                seg = segs[pr["index"]]
                blob = raw[base + seg.get("offset", 0):base + seg.get("offset", 0) + seg.get("size", 0)]
            elif pr.get("location", "INLINE") == "INLINE" and pr.get("index", 0) < len(inline):
                blob = bytes(inline[pr.get("index", 0)].get("data", []))
            else:
                check(False, "%s: delegate %d processed %r points nowhere" % (where, k, pr))
                continue
            tag = "%s delegate %d" % (where, k)
            if not check(len(blob) >= 32 and blob[4:8] == b"XH00", tag + ": no XH00 header"):
                continue
            hlen, fo, fsz, co = struct.unpack_from("<HIII", blob, 8)
            csz = u64(blob, 22)
            check(hlen == 30 and fo == 32 and fsz >= 8 and fo + fsz <= co and co + csz <= len(blob),
                  "%s: header fields %r" % (tag, (hlen, fo, fsz, co, csz)))
            fb = blob[fo:fo + fsz]
            fbs.append(fb)
            try:
                g = flatc_json(flatc, "xnnpack.fbs", fb, tmp, STRICT)
            except RuntimeError as e:
                errors.append("%s: %s" % (tag, e))
                continue
            xv = [v["xvalue_union"] for v in g.get("xvalues", [])]
            args = c.get("args", [])
            check(g.get("num_externs") == len(args), "%s: num_externs %r != %d DelegateCall args"
                  % (tag, g.get("num_externs"), len(args)))
            ext = sorted((v.get("external_id"), v.get("flags"), v) for v in xv if v.get("flags", 0))
            check([e[0] for e in ext] == list(range(len(args))), "%s: external ids %r are not 0..%d"
                  % (tag, [e[0] for e in ext], len(args) - 1))
            flags = [e[1] for e in ext]
            check(flags == sorted(flags) and set(flags) <= {1, 2}, tag + ": inputs do not come before outputs")
            for eid, _, v in ext:
                if eid >= len(args) or not check(0 <= args[eid] < len(values), "%s: arg %d out of range" % (tag, eid)):
                    continue
                t = values[args[eid]]
                if check(t.get("val_type") == "Tensor", "%s: arg %d is not a Tensor" % (tag, eid)):
                    sz, order = t["val"].get("sizes") or [], t["val"].get("dim_order") or []
                    mem = [sz[d] for d in order if d < len(sz)] or [1]  # memory order (XNNPACK.md 7)
                    check(v.get("dims") == mem, "%s: external %d dims %r, tensor sizes %r in dim order %r"
                          % (tag, eid, v.get("dims"), sz, order))
            cd = g.get("constant_data", [])
            check(cd and cd[0].get("named_key") == "", tag + ": constant_data[0] is not the reserved entry")
            for j, e in enumerate(cd[1:], 1):
                key = e.get("named_key", "")
                check(re.fullmatch(r"[0-9a-f]{64}", key) and e.get("offset") == 2**64 - 1,
                      "%s: constant %d key %r offset %r" % (tag, j, key, e.get("offset")))
                check(named.get(key) == e.get("size"), "%s: constant %d: named data %r has %r bytes, %r expected"
                      % (tag, j, key, named.get(key), e.get("size")))
            for j, v in enumerate(xv):
                check(v.get("id_out") == j, "%s: value %d id_out %r" % (tag, j, v.get("id_out")))
                ci = v.get("constant_buffer_idx", 0)
                check(0 <= ci < len(cd), "%s: value %d constant index %d" % (tag, j, ci))
            for j, n in enumerate(g.get("xnodes", [])):
                for f, x in n.get("xnode_union", {}).items():
                    if f.endswith("_id") and x != 0xFFFFFFFF:
                        check(0 <= x < len(xv), "%s: node %d %s = %d out of range" % (tag, j, f, x))
    return fbs


def check_ptd(name, raw, ft):
    """FH01 header and FlatTensor structure (PTD.md 2-4)."""
    check(raw[8:12] == b"FH01", name + ": no FH01 header")
    length, fb_off, fb_size, base, dsize = (struct.unpack_from("<I", raw, 12)[0], u64(raw, 16),
                                            u64(raw, 24), u64(raw, 32), u64(raw, 40))
    check(length >= 40, name + ": FH01 length < 40")
    check(fb_off + fb_size <= base, name + ": flatbuffer overlaps segment data")
    check(base + dsize <= len(raw), name + ": segment data past the end of the file")
    check(base % 16 == 0, name + ": segment_base_offset not 16-aligned")
    segs, named = ft.get("segments"), ft.get("named_data")
    check(segs is not None and named is not None, name + ": segments/named_data missing")
    keys = [e.get("key") for e in named or []]
    check(len(set(keys)) == len(keys), name + ": duplicate keys")
    for i, s in enumerate(segs or []):
        check(s.get("offset", 0) + s.get("size", 0) <= dsize, "%s: segment %d past segment_data_size" % (name, i))
        check(s.get("offset", 0) % 16 == 0, "%s: segment %d not 16-aligned" % (name, i))
    for e in named or []:
        si = e.get("segment_index", 0)
        if check(si < len(segs or []), "%s: %r segment_index out of range" % (name, e.get("key"))):
            lay = e.get("tensor_layout")
            if lay:
                check(segs[si].get("size", 0) == nbytes(lay), "%s: %r blob size != layout nbytes" % (name, e.get("key")))
    return keys


def main():
    if len(sys.argv) != 2:
        fail("usage: check_emitted.py PTERA_BIN")
    exe = os.path.abspath(sys.argv[1])
    flatc = find_flatc()
    try:
        import torch
        import torch.nn as nn
    except ImportError as e:
        fail("torch needed for the export checks: %s" % e)
    sys.path.insert(0, os.path.join(ROOT, "python"))
    import ptera

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.fc1, self.fc2 = nn.Linear(6, 12), nn.Linear(12, 3)

        def forward(self, x):
            return self.fc2(torch.relu(self.fc1(x)))

    class Acc(nn.Module):  # a registered buffer updated in place
        def __init__(self):
            super().__init__()
            self.register_buffer("total", torch.arange(4, dtype=torch.float32))
            self.w = nn.Parameter(torch.full((4,), 0.5))

        def forward(self, x):
            self.total.add_(x)
            return self.total * self.w

    tmp = tempfile.mkdtemp(prefix="ptera-emitted-")
    try:
        torch.manual_seed(0)
        net_pte, net_ptd = os.path.join(tmp, "net.pte"), os.path.join(tmp, "net.ptd")
        acc_pte = os.path.join(tmp, "acc.pte")
        ptera.export(Net().eval(), (torch.randn(2, 6),), net_pte, external_weights=net_ptd, ptera_bin=exe)
        ptera.export(Acc().eval(), (torch.ones(4),), acc_pte, ptera_bin=exe)
        digits = os.path.join(ROOT, "examples", "digits", "digits.pte")
        # XNNPACK-lowered: a convolutional net (conv + batch norm + relu +
        # pool + linear), and the linear net with its weights in a .ptd.
        cnn = nn.Sequential(nn.Conv2d(3, 8, 3, padding=1), nn.BatchNorm2d(8), nn.ReLU(),
                            nn.MaxPool2d(2), nn.Conv2d(8, 8, 3, groups=8), nn.Hardtanh(0, 6),
                            nn.Flatten(), nn.Linear(8 * 3 * 3, 4)).eval()
        x_pte, xn_pte, xn_ptd = (os.path.join(tmp, f) for f in ("xcnn.pte", "xnet.pte", "xnet.ptd"))
        ptera.export(cnn, (torch.randn(1, 3, 10, 10),), x_pte, backend="xnnpack", ptera_bin=exe)
        ptera.export(Net().eval(), (torch.randn(2, 6),), xn_pte, external_weights=xn_ptd,
                     weight_keys="hash", backend="xnnpack", ptera_bin=exe)
        files = [digits, net_pte, net_ptd, acc_pte, x_pte, xn_pte, xn_ptd]
        raw = {f: open(f, "rb").read() for f in files}
        dec = {}
        for f in files:
            schema = "flat_tensor.fbs" if f.endswith(".ptd") else "program.fbs"
            try:
                dec[f] = flatc_json(flatc, schema, raw[f], tmp, STRICT)
            except RuntimeError as e:
                errors.append("%s: %s" % (os.path.basename(f), e))
        for f, why in verify(build_verifier(flatc, tmp), files).items():
            check(why is None, "%s: %s" % (os.path.basename(f), why))
        if len(dec) == len(files):
            # (a) digits: one method "forward", aten ops, constants in a segment.
            d = dec[digits]
            eps = d.get("execution_plan", [])
            check([e.get("name") for e in eps] == ["forward"], "digits: methods %r" % [e.get("name") for e in eps])
            ep = eps[0] if eps else {}
            check(ep.get("operators") and all(o["name"].startswith("aten::") for o in ep["operators"]),
                  "digits: operators %r" % ep.get("operators"))
            check(len(ep.get("values", [])) > 10, "digits: too few values")
            check(len(d.get("constant_segment", {}).get("offsets", [])) > 1, "digits: no constants in constant_segment")
            check(len(d.get("segments", [])) >= 1 and d["segments"][0].get("size", 0) > 0, "digits: no segment data")
            check_pte("digits.pte", raw[digits], d)
            # (b) external weights: every parameter EXTERNAL, keyed by its fqn.
            keys = check_ptd("net.ptd", raw[net_ptd], dec[net_ptd])
            check(sorted(keys) == sorted(["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]),
                  "net.ptd: keys %r are not the parameter fqns" % keys)
            vals = dec[net_pte]["execution_plan"][0]["values"]
            ext = [v["val"]["extra_tensor_info"]["fully_qualified_name"] for v in vals
                   if v.get("val_type") == "Tensor" and (v["val"].get("extra_tensor_info") or {}).get("location") == "EXTERNAL"]
            check(sorted(ext) == sorted(keys), "net.pte: EXTERNAL tensors %r vs .ptd keys %r" % (ext, keys))
            check_pte("net.pte", raw[net_pte], dec[net_pte], dec[net_ptd])
            # (c) mutated buffer: planned, initial value from mutable_data_segments.
            a = dec[acc_pte]
            check(len(a.get("mutable_data_segments", [])) == 1, "acc.pte: no mutable_data_segments")
            muts = [v["val"] for v in a["execution_plan"][0]["values"] if v.get("val_type") == "Tensor"
                    and v["val"].get("allocation_info") and v["val"].get("data_buffer_idx", 0) > 0]
            check(len(muts) == 1 and (muts[0].get("extra_tensor_info") or {}).get("fully_qualified_name") == "total",
                  "acc.pte: expected exactly the buffer 'total' as mutable tensor, got %r" % muts)
            if muts and a.get("mutable_data_segments"):
                m = a["mutable_data_segments"][0]
                seg = a["segments"][m.get("segment_index", 0)]
                hdr_base = u64(raw[acc_pte], 24)
                start = hdr_base + seg.get("offset", 0) + m["offsets"][muts[0]["data_buffer_idx"]]
                init = struct.unpack_from("<4f", raw[acc_pte], start)
                check(init == (0.0, 1.0, 2.0, 3.0), "acc.pte: initial value of 'total' is %r" % (init,))
            check_pte("acc.pte", raw[acc_pte], a)
            # (d) XNNPACK delegates: blobs, XNNGraphs, external ids, named weights.
            check_pte("xcnn.pte", raw[x_pte], dec[x_pte])
            check_ptd("xnet.ptd", raw[xn_ptd], dec[xn_ptd])
            check_pte("xnet.pte", raw[xn_pte], dec[xn_pte], dec[xn_ptd])
            check(not dec[xn_pte].get("named_data"), "xnet.pte: named data in the .pte despite --external-weights")
            fbs = check_xnn("xcnn.pte", raw[x_pte], dec[x_pte], flatc, tmp)
            fbs += check_xnn("xnet.pte", raw[xn_pte], dec[xn_pte], flatc, tmp, dec[xn_ptd])
            paths = []
            for k, fb in enumerate(fbs):
                paths.append(os.path.join(tmp, "xnn%d.bin" % k))
                with open(paths[-1], "wb") as f:
                    f.write(fb)
            for f, why in verify(build_verifier(flatc, tmp), paths).items():
                check(why is None, "%s: %s" % (os.path.basename(f), why))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for e in errors:
        print("FAIL " + e)
    if errors:
        sys.exit(1)
    print("emitted files OK: digits.pte, net.pte + net.ptd (external weights), acc.pte (mutable buffer), "
          "xcnn.pte and xnet.pte + xnet.ptd (XNNPACK delegate): flatc decodes them with the ExecuTorch "
          "and XNNPACK schemas, flatbuffers::Verifier accepts them, structure checks pass")


if __name__ == "__main__":
    main()
