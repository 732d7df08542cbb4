#!/usr/bin/env python3
"""Corpus test: every method of every program in ../shared/corpus/pte runs
through `ptera run` and must either match the outputs ExecuTorch's own
runtime computed (expected/), or fail with the error the file warrants.

Prints a table of file x method x case x result and exits non-zero on any
mismatch. Usage: run_corpus.py PTERA_BINARY CORPUS_DIR

Environment:
  PTERA_RUN_PREFIX  a command line put before every ptera run, e.g.
                    "valgrind --error-exitcode=99 --leak-check=full"; exit
                    status PTERA_RUN_PREFIX_ERROR (default 99) from it fails
                    the case whatever the case expected.
  PTERA_CORPUS_SKIP comma-separated substrings of case dirs not to run (each
                    skip is printed with the reason PTERA_CORPUS_SKIP_WHY).
"""
import json
import os
import shlex
import struct
import subprocess
import sys
import tempfile

import numpy as np

PTERA, CORPUS = sys.argv[1], sys.argv[2]
EXPECTED = os.path.join(CORPUS, "expected")
PTE_DIR = os.path.join(CORPUS, "pte")

# Integer/bool outputs are compared bit-exactly; floats within
# |a - b| <= ATOL + RTOL * |b| (expected/README.md, Tolerance).
RTOL, ATOL = 1e-5, 1e-5

# Delegates ptera does not (yet) provide: their methods must fail at load
# with NotFound naming the backend, whatever ExecuTorch's own build did.
UNAVAILABLE_BACKENDS = {"QnnBackend", "EthosUBackend", "OpenvinoBackend"}


PREFIX = shlex.split(os.environ.get("PTERA_RUN_PREFIX", ""))
PREFIX_ERROR = int(os.environ.get("PTERA_RUN_PREFIX_ERROR", "99"))
SKIP = [s for s in os.environ.get("PTERA_CORPUS_SKIP", "").split(",") if s]
SKIP_WHY = os.environ.get("PTERA_CORPUS_SKIP_WHY", "skipped by PTERA_CORPUS_SKIP")


class PrefixError(Exception):
    pass


def run(args):
    p = subprocess.run(PREFIX + [PTERA] + args, capture_output=True, text=True, timeout=1800 if PREFIX else 600)
    if PREFIX and p.returncode == PREFIX_ERROR:
        raise PrefixError("%s reported errors (exit %d): %s" % (PREFIX[0], p.returncode, p.stderr.strip()[-2000:]))
    return p.returncode, p.stdout, p.stderr


def compare(out_path, ref_path):
    got, ref = np.load(out_path), np.load(ref_path)
    if got.dtype != ref.dtype or got.shape != ref.shape:
        return "dtype/shape %s%s != %s%s" % (got.dtype, got.shape, ref.dtype, ref.shape)
    if ref.dtype.kind == "f":
        g, r = got.astype(np.float64), ref.astype(np.float64)
        same_nan = np.isnan(g) == np.isnan(r)
        bad = ~same_nan | (~np.isnan(r) & ~(np.abs(g - r) <= ATOL + RTOL * np.abs(r)))
        if bad.any():
            i = int(np.argmax(bad.ravel()))
            return "element %d: %r != %r" % (i, g.ravel()[i], r.ravel()[i])
        return None
    if got.tobytes() != ref.tobytes():
        return "values differ"
    return None


def compare_summary(out_path, summary_path):
    import hashlib
    fields = dict(l.split(": ", 1) for l in open(summary_path).read().splitlines() if ": " in l)
    got = np.load(out_path, mmap_mode="r")
    if list(got.shape) != json.loads(fields["shape"]) or got.dtype.str != fields["dtype"]:
        return "shape/dtype differ"
    for key, part in (("sha256_first_1000_values", got[:1000]), ("sha256_last_1000_values", got[-1000:])):
        if hashlib.sha256(np.ascontiguousarray(part).tobytes()).hexdigest() != fields[key]:
            return key + " differs"
    if float(got[0]) != float(fields["first_value"]) or float(got[-1]) != float(fields["last_value"]):
        return "first/last value differ"
    return None


def linear_reference(case_dir, ptd_path):
    """linear.pte is y = x @ W.T + b with W, b in a pre-June-2025 .ptd that
    ExecuTorch's reader cannot read (it fails with InvalidExternalData). The
    reference is computed here from the flatc dump of the .ptd and its bytes."""
    meta = json.load(open(os.path.join(CORPUS, "json", os.path.basename(ptd_path) + ".json")))
    raw = open(ptd_path, "rb").read()
    base = struct.unpack_from("<Q", raw, 32)[0]
    seg = {i: s.get("offset", 0) for i, s in enumerate(meta["segments"])}
    t = {}
    for e in meta["tensors"]:
        off = base + seg[e.get("segment_index", 0)] + e.get("offset", 0)
        n = int(np.prod(e["sizes"]))
        t[e["fully_qualified_name"]] = np.frombuffer(raw, "<f4", n, off).reshape(e["sizes"])
    x = np.load(os.path.join(case_dir, "input_0.npy"))
    return (x.astype(np.float64) @ t["linear.weight"].T.astype(np.float64) + t["linear.bias"]).astype(np.float32)


def check_case(c, tmp):
    pte = os.path.join(PTE_DIR, c["file"])
    case_dir = os.path.join(EXPECTED, c["dir"])
    status = open(os.path.join(case_dir, "status.txt")).read().splitlines()
    first = status[0]
    args = ["run", pte, "--method", c["method"], "--output-dir", tmp]
    for d in c.get("data", []):
        args += ["--data", os.path.join(PTE_DIR, d)]
    inputs = sorted(f for f in c["files"] if f.startswith("input_"))
    for f in sorted(inputs, key=lambda s: int(s[6:-4])):
        args += ["--input", os.path.join(case_dir, f)]
    rc, out, err = run(args)
    err = err.strip()

    if c["method"] == "_program":  # the program itself must not load
        code = first.split()[2]
        return ("ok: fails with " + code) if rc != 0 and code in err else "expected %s, got rc=%d %s" % (code, rc, err)

    if first.startswith("backend unavailable:") or (first == "ok" and any(b in c.get("kernels", "") for b in UNAVAILABLE_BACKENDS)):
        backend = first.split(": ", 1)[1] if first.startswith("backend") else c["kernels"]
        if rc != 0 and "NotFound" in err and backend in err:
            return "ok: %s not available (NotFound)" % backend
        return "expected NotFound naming %s, got rc=%d %s" % (backend, rc, err)

    if first.startswith("missing .ptd"):
        return "ok: fails without its .ptd" if rc != 0 and ".ptd" in err else "expected a missing-.ptd error, got rc=%d %s" % (rc, err)

    if first.startswith("error 0x24") and "linear.pte" in c["file"]:
        if rc != 0:
            return "failed: " + err
        ref = linear_reference(case_dir, os.path.join(PTE_DIR, c["data"][0]))
        np.save(os.path.join(tmp, "ref.npy"), ref)
        why = compare(os.path.join(tmp, "output_0.npy"), os.path.join(tmp, "ref.npy"))
        return "ok: runs (legacy .ptd read); matches x@W.T+b" if why is None else "output 0: " + why

    if first.startswith("error"):
        code = first.split()[2]
        return ("ok: fails with " + code) if rc != 0 and ("ptera: %s:" % code) in err else "expected %s, got rc=%d %s" % (code, rc, err)

    if rc != 0:
        return "failed: " + err
    # Every output ExecuTorch produced is compared, and ptera may produce no
    # other: a case whose expected outputs are missing must not pass vacuously.
    want = sorted(f.split(".")[0] for f in c["files"] if f.startswith("output_"))
    got = sorted(f[:-4] for f in os.listdir(tmp) if f.startswith("output_") and f.endswith(".npy"))
    if not want:
        return "no expected outputs to compare with"
    if got != want:
        return "outputs %s written, %s expected" % (got, want)
    for f in sorted(c["files"]):
        if f.startswith("output_") and f.endswith(".npy"):
            why = compare(os.path.join(tmp, f), os.path.join(case_dir, f))
        elif f.endswith(".summary.txt"):
            why = compare_summary(os.path.join(tmp, f.replace(".summary.txt", ".npy")), os.path.join(case_dir, f))
        else:
            continue
        if why:
            return "%s: %s" % (f, why)
    return "ok: outputs match"


def main():
    index = json.load(open(os.path.join(EXPECTED, "index.json")))
    rows, failed = [], 0
    seen_files = set()
    skipped = 0
    for c in index["cases"]:
        seen_files.add(c["file"])
        if any(s in c["dir"] for s in SKIP):
            rows.append((c["file"][:60], c["method"][:34], c["case"], "SKIP " + SKIP_WHY))
            skipped += 1
            continue
        with tempfile.TemporaryDirectory() as tmp:
            try:
                result = check_case(c, tmp)
            except PrefixError as e:
                result = str(e)
            except Exception as e:  # a crash of the runner is a failure too
                result = "runner error: %r" % (e,)
        ok = result.startswith("ok")
        failed += not ok
        rows.append((c["file"][:60], c["method"][:34], c["case"], ("PASS " if ok else "FAIL ") + result))
    missing = [f for f in os.listdir(PTE_DIR) if f.endswith((".pte", ".bpte")) and f not in seen_files]
    for f in missing:
        rows.append((f[:60], "-", "-", "FAIL no expected outputs for this file"))
        failed += 1
    w = [max(len(r[i]) for r in rows) for i in range(3)]
    for r in rows:
        print("%-*s  %-*s  %-*s  %s" % (w[0], r[0], w[1], r[1], w[2], r[2], r[3]))
    if PREFIX:
        print("corpus: every ptera run under: %s" % " ".join(PREFIX))
    print("corpus: %d passed, %d failed, %d skipped" % (len(rows) - failed - skipped, failed, skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
