#!/usr/bin/env python3
"""Checks that the .pte/.ptd files ptera writes follow ExecuTorch's schema,
judged by Google's flatc with the schemas in tests/schema (validated against
upstream-written files by check_corpus.py) and by flatbuffers::Verifier.

Usage: check_emitted.py PTERA_BIN
Checks examples/digits/digits.pte, and files exported with the Python front
end: a model with external weights (.ptd, fqn keys) and one whose registered
buffer is mutated in place (mutable_data_segments). flatc runs WITHOUT
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
        files = [digits, net_pte, net_ptd, acc_pte]
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
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    for e in errors:
        print("FAIL " + e)
    if errors:
        sys.exit(1)
    print("emitted files OK: digits.pte, net.pte + net.ptd (external weights), acc.pte (mutable buffer): "
          "flatc decodes them with the ExecuTorch schema, flatbuffers::Verifier accepts them, structure checks pass")


if __name__ == "__main__":
    main()
