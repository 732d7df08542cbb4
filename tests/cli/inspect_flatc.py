#!/usr/bin/env python3
"""`ptera inspect --json` (built on the public inspection API, ptera/inspect.h)
against the corpus's flatc JSON dumps (json/<file>.json, written by Google's
flatc from ExecuTorch's schemas, not by ptera): for every .pte, .bpte (its
inner program) and .ptd with a dump, the segments, named data, and per
method the value count, inputs and outputs (kind, dtype, sizes, dim order),
planned buffer sizes, operators, delegates (id, location, index, compile
spec count) and constant / external tensors (data_buffer_idx, key, where the
data lives); for a .ptd each entry's key, offset within the segment data and
tensor layout.

usage: inspect_flatc.py PTERA CORPUS_DIR"""
import json
import os
import subprocess
import sys

PTERA, CORPUS = sys.argv[1], sys.argv[2]
failures = []


def check(what, got, want):
    if got != want:
        failures.append("%s: got %r, expected %r" % (what, got, want))


def where(t):
    extra = t.get("extra_tensor_info") or {}
    planned = "allocation_info" in t
    if extra.get("location") == "EXTERNAL":
        return "external .ptd, copied into planned memory" if planned else "external .ptd"
    if t.get("data_buffer_idx", 0):
        return "mutable segment, copied into planned memory" if planned else "constant"
    return "planned" if planned else "unplanned"


def io(plan, idx):
    v = plan["values"][idx]
    out = {"value": idx, "kind": v.get("val_type", "Null")}
    if out["kind"] == "Tensor":
        t = v["val"]
        out.update(dtype=t.get("scalar_type", "BYTE"), sizes=t.get("sizes", []), dim_order=t.get("dim_order", []),
                   where=where(t))
    return out


def program(name, got, want):
    check(name + " segments", got["segments"],
          [{"offset": s.get("offset", 0), "size": s.get("size", 0)} for s in want.get("segments", [])])
    check(name + " named data", [(n["key"], n["segment"]) for n in got["named_data"]],
          [(n["key"], n.get("segment_index", 0)) for n in want.get("named_data", [])])
    plans = want.get("execution_plan", [])
    check(name + " methods", [m["name"] for m in got["methods"]], [p["name"] for p in plans])
    for m, p in zip(got["methods"], plans):
        mn = "%s method %s" % (name, p["name"])
        check(mn + " values", m["values"], len(p.get("values", [])))
        for key in ("inputs", "outputs"):
            mine = [{k: e[k] for k in ("value", "kind", "dtype", "sizes", "dim_order", "where") if k in e}
                    for e in m[key]]
            for e in mine:
                if "dtype" in e:
                    e["dtype"] = e["dtype"].upper()
            check(mn + " " + key, mine, [io(p, i) for i in p.get(key, [])])
        check(mn + " planned buffers", m["planned_buffers"], p.get("non_const_buffer_sizes", [0])[1:])
        check(mn + " operators", [(o["name"], o["overload"]) for o in m["operators"]],
              [(o["name"], o.get("overload", "")) for o in p.get("operators", [])])
        check(mn + " delegates", [(d["id"], d["location"], d["index"], d["compile_specs"]) for d in m["delegates"]],
              [(d["id"], d.get("processed", {}).get("location", "INLINE").lower(), d.get("processed", {}).get("index", 0),
                len(d.get("compile_specs", []))) for d in p.get("delegates", [])])
        want_c = []
        for i, v in enumerate(p.get("values", [])):
            t = v.get("val", {}) if v.get("val_type") == "Tensor" else None
            if t is None:
                continue
            extra = t.get("extra_tensor_info") or {}
            if t.get("data_buffer_idx", 0) or extra.get("location") == "EXTERNAL":
                c = {"value": i, "where": where(t), "buffer": t.get("data_buffer_idx", 0)}
                if "fully_qualified_name" in extra:
                    c["key"] = extra["fully_qualified_name"]
                want_c.append(c)
        check(mn + " constants", [{k: c[k] for k in c if k != "nbytes"} for c in m["constants"]], want_c)


def data(name, got, want):
    base = got["segment_base_offset"]
    if "tensors" in want:  # the layout before June 2025
        check(name + " schema", got["schema"], "legacy")
        exp = [(t["fully_qualified_name"], t.get("offset", 0),
                {"dtype": t.get("scalar_type", "BYTE"), "sizes": t.get("sizes", []), "dim_order": t.get("dim_order", [])})
               for t in want["tensors"]]
    else:
        check(name + " schema", got["schema"], "current")
        segs = want.get("segments", [])
        exp = []
        for n in want.get("named_data", []):
            lay = n.get("tensor_layout")
            exp.append((n["key"], segs[n.get("segment_index", 0)].get("offset", 0),
                        None if lay is None else {"dtype": lay.get("scalar_type", "BYTE"), "sizes": lay.get("sizes", []),
                                                  "dim_order": lay.get("dim_order", [])}))
    mine = []
    for e in got["entries"]:
        lay = e["layout"]
        if lay is not None:
            lay = dict(lay, dtype=lay["dtype"].upper())
        mine.append((e["key"], e["offset"] - base, lay))
    check(name + " entries", mine, exp)


checked = 0
for fname in sorted(os.listdir(os.path.join(CORPUS, "pte"))):
    inner = fname.endswith(".bpte")
    dump = os.path.join(CORPUS, "json", fname + (".inner_program.json" if inner else ".json"))
    if not os.path.exists(dump):
        continue
    r = subprocess.run([PTERA, "inspect", "--json", os.path.join(CORPUS, "pte", fname)], capture_output=True, text=True)
    if r.returncode != 0:
        failures.append("%s: inspect failed: %s" % (fname, r.stderr.strip()))
        continue
    got, want = json.loads(r.stdout), json.load(open(dump))
    checked += 1
    if got["kind"] == "data":
        data(fname, got, want)
    else:
        program(fname, got["program"] if inner else got, want)

for f in failures:
    print("FAIL", f)
print("inspect_flatc: %d files against their flatc dumps, %d failures" % (checked, len(failures)))
sys.exit(1 if failures or checked < 30 else 0)
